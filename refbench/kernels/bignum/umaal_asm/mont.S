/* Montgomery multiplication for moduli of 1 to 128 limbs given at call time (mont.h's contract
 * and context: limbs, n0 = -n^-1 mod 2^32, n), hand-written Thumb-2 around UMAAL for ARMv7E-M
 * and ARMv8-M Mainline with DSP. refbench's own code.
 *
 * CIOS (Koc, Acar, Kaliski, IEEE Micro 16(3) 1996) with the two inner loops fused (their FIOS
 * shape): per limb b_i, q = (t_0 + a_0 b_i) n0 mod 2^32, then for every j one UMAAL adds
 * a_j b_i with the product chain's carry c1 and a second adds q n_j with the reduction chain's
 * carry c2 into t_j, stored one word down (the division by 2^32):
 *     t_j, c1 = t_j + a_j b_i + c1;   t_(j-1), c2 = t_j + q n_j + c2.
 * t (limbs words on the stack) stays below 2n with its top word in a register (0 or 1). Then
 * r = t - n when t >= n, by a borrow chain whose carry is kept in a register across the loop
 * and a masked select: no branch or address depends on data. bn_mont_sqr is the product a a. */
	.syntax unified
	.thumb
#if !defined(__ARM_FEATURE_DSP)
	.arch_extension dsp	@ the compilers' cortex-m33 target leaves the DSP extension out
#endif
	.text

/* void bn_mont_mul(const bn_mont_ctx *ctx, uint32_t *r, const uint32_t *a, const uint32_t *b) */
	.global bn_mont_mul
	.type bn_mont_mul, %function
	.thumb_func
	.align 2
bn_mont_mul:
	push {r4-r11, lr}
	sub sp, #(24 + 4 * 128)			@ ctx, r, a, b, b end, n0; t at [sp, #24]
	ldr r4, [r0]				@ limbs
	ldr r5, [r0, #4]			@ n0
	add r6, r3, r4, lsl #2			@ b + limbs
	stm sp, {r0-r3, r6}
	str r5, [sp, #20]
	add r7, sp, #24
	mov r8, #0
	mov lr, #0				@ tt, the top word of t
1:	str r8, [r7], #4			@ t = 0
	subs r4, r4, #1
	bne 1b
2:						@ for each limb b_i (registers: t, a, n pointers r0-r2, words r3-r7,
						@ b_i r8, q r9, c1 r10, c2 r11, count r12, tt lr)
	ldr r3, [sp, #12]
	ldm r3!, {r4}				@ b_i
	str r3, [sp, #12]
	mov r8, r4
	ldr r1, [sp, #8]			@ a
	ldr r2, [sp, #0]			@ ctx
	ldr r12, [r2], #8			@ limbs; r2 = n
	add r0, sp, #24				@ t
	ldr r3, [r0]				@ t_0
	ldm r1!, {r4}				@ a_0
	ldm r2!, {r6}				@ n_0
	mov r10, #0
	umaal r3, r10, r4, r8			@ t_0 + a_0 b_i, c1
	ldr r5, [sp, #20]
	mul r9, r3, r5				@ q
	mov r11, #0
	umaal r3, r11, r6, r9			@ 0, c2
	sub r12, r12, #1			@ the steps j = 1 .. limbs - 1
	lsrs r12, r12, #1			@ pairs; C: one single step first
	bcc 3f
	ldr r3, [r0, #4]			@ t_j
	ldm r1!, {r4}				@ a_j
	ldm r2!, {r6}				@ n_j
	umaal r3, r10, r4, r8
	umaal r3, r11, r6, r9
	str r3, [r0]				@ t_(j-1)
	adds r0, r0, #4
3:	cmp r12, #0
	beq 5f
4:	ldm r1!, {r4, r5}			@ a_j, a_(j+1)
	ldm r2!, {r6, r7}			@ n_j, n_(j+1)
	ldr r3, [r0, #4]			@ t_j
	umaal r3, r10, r4, r8
	umaal r3, r11, r6, r9
	ldr r4, [r0, #8]			@ t_(j+1)
	str r3, [r0]				@ t_(j-1)
	umaal r4, r10, r5, r8
	umaal r4, r11, r7, r9
	str r4, [r0, #4]			@ t_j
	adds r0, r0, #8
	subs r12, r12, #1
	bne 4b
5:	adds r10, r10, r11			@ t_(limbs-1) = tt + c1 + c2; tt = the carry
	mov r12, #0
	adc r12, r12, #0
	adds r10, r10, lr
	adc lr, r12, #0
	str r10, [r0]
	ldr r12, [sp, #12]
	ldr r3, [sp, #16]
	cmp r12, r3
	bne 2b
@ r = t - n (borrow chain: the carry lives in r9 between iterations, restored by cmp)
	ldr r2, [sp, #0]
	ldr r3, [r2], #8			@ limbs; r2 = n
	ldr r1, [sp, #4]			@ r
	add r0, sp, #24				@ t
	mov r9, #1				@ no borrow yet
7:	cmp r9, #1				@ C = r9
	ldr r8, [r0], #4
	ldr r10, [r2], #4
	sbcs r8, r8, r10
	mov r9, #0
	adc r9, r9, #0
	str r8, [r1], #4
	subs r3, r3, #1
	bne 7b
	orr r9, r9, lr				@ t >= n: no borrow, or the top word set
	rsb r9, r9, #0				@ all ones: keep t - n
@ r = (t - n) where the mask is set, else t
	ldr r2, [sp, #0]
	ldr r3, [r2]				@ limbs
	ldr r1, [sp, #4]			@ r
	add r0, sp, #24				@ t
8:	ldr r8, [r0], #4
	ldr r10, [r1]
	eor r10, r10, r8
	and r10, r10, r9
	eor r8, r8, r10
	str r8, [r1], #4
	subs r3, r3, #1
	bne 8b
	add sp, #(24 + 4 * 128)
	pop {r4-r11, pc}
	.size bn_mont_mul, . - bn_mont_mul

/* void bn_mont_sqr(const bn_mont_ctx *ctx, uint32_t *r, const uint32_t *a): the product a a */
	.global bn_mont_sqr
	.type bn_mont_sqr, %function
	.thumb_func
	.align 2
bn_mont_sqr:
	mov r3, r2
	b bn_mont_mul
	.size bn_mont_sqr, . - bn_mont_sqr
