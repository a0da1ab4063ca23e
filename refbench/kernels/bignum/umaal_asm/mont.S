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
 * and a masked select: no branch or address depends on data. bn_mont_sqr is the product a a.
 *
 * For an even number of limbs (every RSA and DH size) bn_mont_mul2 takes the limbs of b two at
 * a time (the "double granularity" of the FIOS loop): rows i and i+1 run in one pass over j,
 * row i+1 one word behind row i, so each word of t is loaded and stored once per two rows, and
 * a_j, n_j once per two rows (four UMAALs per load of t_j, a_j, n_j). a, n and t are copied
 * interleaved into one stack buffer X (X[3j] = t_j, X[3j+1] = a_j, X[3j+2] = n_j) so one
 * pointer and one LDM fetch all three: 14 registers hold b_i, q_i, b_(i+1), q_(i+1), the four
 * carry chains, the pointer and the words of two columns. */
	.syntax unified
	.thumb
#if !defined(__ARM_FEATURE_DSP)
	.arch_extension dsp	@ the compilers' cortex-m33 target leaves the DSP extension out
#endif
	.text

/* void bn_mont_mul(const bn_mont_ctx *ctx, uint32_t *r, const uint32_t *a, const uint32_t *b):
 * an even number of limbs takes two rows per pass (bn_mont_mul2 below), an odd one this code */
	.global bn_mont_mul
	.type bn_mont_mul, %function
	.thumb_func
	.align 2
bn_mont_mul:
	ldr r12, [r0]				@ limbs
	tst r12, #1
	beq bn_mont_mul2
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

/* bn_mont_mul2: bn_mont_mul for an even number of limbs (the header). Per row pair, with
 * c1, c2 the carries of row i (products a_j b_i, q_i n_j) and c3, c4 those of row i+1:
 *   column j of row i:      t_j, c1 = t_j + a_j b_i + c1;   u_(j-1), c2 = t_j + q_i n_j + c2
 *   column j-1 of row i+1:  u, c3 = u_(j-1) + a_(j-1) b_(i+1) + c3;  w_(j-2), c4 = u + q_(i+1) n_(j-1) + c4
 * q_i = (t_0 + a_0 b_i) n0, q_(i+1) = (u_0 + a_0 b_(i+1)) n0 (mod 2^32); the top words as in the
 * one-row code (t < 2n after every row). */
	.type bn_mont_mul2, %function
	.thumb_func
	.align 2
bn_mont_mul2:
	push {r4-r11, lr}
	sub sp, #(32 + 12 * 128)		@ ctx, r, a, b, b end, n0, tt, X end; X at [sp, #32]
	ldr r4, [r0]				@ limbs
	ldr r5, [r0, #4]			@ n0
	add r6, r3, r4, lsl #2			@ b + limbs
	stm sp, {r0-r3, r6}
	str r5, [sp, #20]
	mov r5, #0
	str r5, [sp, #24]			@ tt = 0
	add r6, sp, #32				@ X
	add r7, r4, r4, lsl #1
	add r7, r6, r7, lsl #2			@ X + 12 limbs
	str r7, [sp, #28]
	add r8, r0, #8				@ n
1:	ldr r9, [r2], #4			@ a_j
	ldr r10, [r8], #4			@ n_j
	stm r6!, {r5, r9, r10}			@ t_j = 0, a_j, n_j
	cmp r6, r7
	bne 1b
@ registers in a row pair: t r3, column sets (a, n) r4, r5 and r7, r8, X pointer r6,
@ b_i r9, q_i r10, b_(i+1) r11, q_(i+1) r12, carries c1 r0, c2 r1, c3 r2, c4 lr
2:	ldr r3, [sp, #12]
	ldm r3!, {r9, r11}			@ b_i, b_(i+1)
	str r3, [sp, #12]
	add r6, sp, #32
	ldm r6!, {r3, r4, r5}			@ t_0, a_0, n_0
	mov r0, #0
	umaal r3, r0, r4, r9			@ t_0 + a_0 b_i
	ldr r10, [sp, #20]
	mul r10, r3, r10			@ q_i
	mov r1, #0
	umaal r3, r1, r5, r10			@ 0, c2
	ldm r6!, {r3, r7, r8}			@ t_1, a_1, n_1
	umaal r3, r0, r7, r9
	umaal r3, r1, r8, r10			@ u_0
	mov r2, #0
	umaal r3, r2, r4, r11			@ u_0 + a_0 b_(i+1)
	ldr r12, [sp, #20]
	mul r12, r3, r12			@ q_(i+1)
	mov lr, #0
	umaal r3, lr, r5, r12			@ 0, c4
	ldr r3, [sp, #28]
	cmp r3, r6
	beq 4f					@ two limbs: no column left
	ldr r3, [sp, #0]
	ldr r3, [r3]				@ limbs
	tst r3, #2				@ limbs = 0 mod 4: an odd number of column pairs, entered
	beq 7f					@ at the second pair of the four columns below
3:	ldm r6!, {r3, r4, r5}			@ column j: t_j, a_j, n_j (set r4, r5)
	umaal r3, r0, r4, r9
	umaal r3, r1, r5, r10			@ u_(j-1)
	umaal r3, r2, r7, r11
	umaal r3, lr, r8, r12			@ w_(j-2)
	str r3, [r6, #-36]
	ldm r6!, {r3, r7, r8}			@ column j + 1 (set r7, r8)
	umaal r3, r0, r7, r9
	umaal r3, r1, r8, r10
	umaal r3, r2, r4, r11
	umaal r3, lr, r5, r12
	str r3, [r6, #-36]
7:	ldm r6!, {r3, r4, r5}			@ column j + 2
	umaal r3, r0, r4, r9
	umaal r3, r1, r5, r10
	umaal r3, r2, r7, r11
	umaal r3, lr, r8, r12
	str r3, [r6, #-36]
	ldm r6!, {r3, r7, r8}			@ column j + 3
	umaal r3, r0, r7, r9
	umaal r3, r1, r8, r10
	umaal r3, r2, r4, r11
	umaal r3, lr, r5, r12
	str r3, [r6, #-36]
	ldr r3, [sp, #28]
	cmp r6, r3
	bne 3b
4:	ldr r3, [sp, #24]			@ tt
	adds r0, r0, r1				@ u_(L-1), u_L = tt + c1 + c2
	mov r1, #0
	adc r1, r1, #0
	adds r0, r0, r3
	adc r1, r1, #0
	umaal r0, r2, r7, r11			@ column L-1 of row i+1
	umaal r0, lr, r8, r12			@ w_(L-2)
	str r0, [r6, #-24]
	adds r2, r2, lr				@ w_(L-1), tt = u_L + c3 + c4
	mov lr, #0
	adc lr, lr, #0
	adds r2, r2, r1
	adc lr, lr, #0
	str r2, [r6, #-12]
	str lr, [sp, #24]
	ldr r3, [sp, #12]
	ldr r4, [sp, #16]
	cmp r3, r4
	bne 2b
@ r = t - n (borrow chain, the carry in r9 between words), then t where t < n, by a mask
	ldr r1, [sp, #4]			@ r
	add r0, sp, #32				@ X
	ldr r3, [sp, #28]			@ X end
	mov r9, #1				@ no borrow yet
5:	cmp r9, #1				@ C = r9
	ldr r8, [r0], #12			@ t_j
	ldr r10, [r0, #-4]			@ n_j
	sbcs r8, r8, r10
	mov r9, #0
	adc r9, r9, #0
	str r8, [r1], #4
	cmp r0, r3
	bne 5b
	ldr r2, [sp, #24]			@ tt
	orr r9, r9, r2				@ t >= n: no borrow, or the top word set
	rsb r9, r9, #0				@ all ones: keep t - n
	ldr r1, [sp, #4]
	add r0, sp, #32
6:	ldr r8, [r0], #12			@ t_j
	ldr r10, [r1]				@ (t - n)_j
	eor r10, r10, r8
	and r10, r10, r9
	eor r8, r8, r10
	str r8, [r1], #4
	cmp r0, r3
	bne 6b
	add sp, #(32 + 12 * 128)
	pop {r4-r11, pc}
	.size bn_mont_mul2, . - bn_mont_mul2

/* void bn_mont_sqr(const bn_mont_ctx *ctx, uint32_t *r, const uint32_t *a): the product a a */
	.global bn_mont_sqr
	.type bn_mont_sqr, %function
	.thumb_func
	.align 2
bn_mont_sqr:
	mov r3, r2
	b bn_mont_mul
	.size bn_mont_sqr, . - bn_mont_sqr
