/* Montgomery multiplication and squaring for moduli of 1 to 128 limbs given at call time (mont.h's
 * contract and context: limbs, n0 = -n^-1 mod 2^32, n), hand-written Thumb for ARMv6-M (Cortex-M0/M0+),
 * whose only multiply is MULS, 32x32 -> 32 bits (ARM DDI 0419E A6.7.44). refbench's own code, written
 * in the instruction shape of wolfSSL's SP ARMv6-M Thumb assembly built with WOLFSSL_SP_SMALL
 * (wolfcrypt/src/sp_armthumb.c, the build the STM32G071RB figures name: WOLFSSL_SP_ARM_THUMB_ASM and
 * WOLFSSL_SP_SMALL without WOLFSSL_SP_ARM_THUMB_ASM_CORTEX_M, so no UMULL). Read at two versions:
 * MarkAtwood/wolfssl-lineage 03e44abd8dc619c9163d963f12cd5176f6e3a556 (copyright 2006-2023, the
 * generation of the page's 5.6.0) sp_2048_mul_8 (first function after sp_2048_to_bin_64, the
 * "L_sp_2048_mul_8_mul" loop; the SMALL sp_2048_mul_64 is generated from the same template), and
 * wolfSSL/wolfssl 0452594cf78456db62f8d89d7922f32ab57cba88 (copyright 2006-2018) sp_2048_mul_8 and
 * sp_2048_sqr_8 (its "# Multiply * 2" and "# Square" blocks); 5.6.0's own file was not read:
 *
 *   1. the double-length product t = a b by product scanning: column by column into a three-word
 *      accumulator (r3, r4, r5), each word product a_i b_j from four 16x16 -> 32 MULS on halves
 *      loaded by LDRH (al bl, al bh, ah bh, ah bl), each partial product added by ADDS/ADCS/ADCS
 *      (the middle ones split by LSRS/LSLS #16 first), as the "# Multiply Start" block does; the
 *      column's low word is stored and the accumulator shifts down a word.
 *   2. the square t = a a the same way, with each cross product a_i a_j (i < j) computed once and
 *      each of its four partial products added twice (the "# Multiply * 2" block), and the square
 *      a_i a_i from three MULS (al al, ah ah, and al ah added once shifted left by 17: the
 *      "# Square" block): a dedicated squaring, L(L+1)/2 word products for L limbs instead of L^2.
 *   3. REDC word by word (HAC 14.32) over t, the reduction of wolfSSL's sp_2048_mont_reduce_64: for
 *      each i, mu = t_i n0 mod 2^32 (one MULS), then t_(i+j) += mu n_j + c for every j, each product
 *      from four MULS on mu's halves (kept in registers) and n_j's (LDRH); the carry out of word
 *      i + limbs is kept (ca) and added at the next row's top word.
 *   4. r = T - n when T = t_(limbs..2 limbs - 1) + ca 2^(32 limbs) >= n, by a borrow chain and a
 *      masked select (mont.h's contract is the fully reduced residue; wolfSSL subtracts on ca only).
 *
 * The loop control is ours (pointer compares against ends held in high registers). ARMv6-M's
 * data-processing instructions reach r0-r7 only: the column index, the operand bases and the ends
 * are parked in r8-r12 (saved and restored for the caller, AAPCS) and moved in by MOV. Every branch
 * and address depends on the length only, and MULS takes a fixed time on every core (1 cycle on
 * the Cortex-M0+ with the fast multiplier, DDI 0484C Table 3-1; MUL 1 cycle on the Cortex-M3,
 * 100165_0201 Table 3-1, unlike its UMULL): constant time.
 */
	.syntax unified
	.thumb
	.text

/* The frame: [sp] ctx, [sp, #4] r, [sp, #8] 4 limbs, [sp, #12] 4 (2 limbs - 1), t (2 * 128 words) at
 * [sp, #16]; below the saved r8-r11 and r4-r7, lr. */
#define FRAME (16 + 8 * 128)

/* mulacc: r3:r4:r5 += (r0 word) * (r1 word), four 16x16 products; r2 = 0; r6, r7 clobbered */
	.macro mulacc
	ldrh r6, [r0]				@ al
	ldrh r7, [r1]				@ bl
	muls r7, r6				@ al bl
	adds r3, r7
	adcs r4, r2
	adcs r5, r2
	ldrh r7, [r1, #2]			@ bh
	muls r6, r7				@ al bh, weight 2^16
	lsrs r7, r6, #16
	lsls r6, r6, #16
	adds r3, r6
	adcs r4, r7
	adcs r5, r2
	ldrh r6, [r0, #2]			@ ah
	ldrh r7, [r1, #2]			@ bh
	muls r7, r6				@ ah bh, weight 2^32
	adds r4, r7
	adcs r5, r2
	ldrh r7, [r1]				@ bl
	muls r6, r7				@ ah bl, weight 2^16
	lsrs r7, r6, #16
	lsls r6, r6, #16
	adds r3, r6
	adcs r4, r7
	adcs r5, r2
	.endm

/* mulacc2: r3:r4:r5 += 2 (r0 word) (r1 word), each partial product added twice */
	.macro mulacc2
	ldrh r6, [r0]
	ldrh r7, [r1]
	muls r7, r6				@ al bl
	adds r3, r7
	adcs r4, r2
	adcs r5, r2
	adds r3, r7
	adcs r4, r2
	adcs r5, r2
	ldrh r7, [r1, #2]
	muls r6, r7				@ al bh
	lsrs r7, r6, #16
	lsls r6, r6, #16
	adds r3, r6
	adcs r4, r7
	adcs r5, r2
	adds r3, r6
	adcs r4, r7
	adcs r5, r2
	ldrh r6, [r0, #2]
	ldrh r7, [r1, #2]
	muls r7, r6				@ ah bh
	adds r4, r7
	adcs r5, r2
	adds r4, r7
	adcs r5, r2
	ldrh r7, [r1]
	muls r6, r7				@ ah bl
	lsrs r7, r6, #16
	lsls r6, r6, #16
	adds r3, r6
	adcs r4, r7
	adcs r5, r2
	adds r3, r6
	adcs r4, r7
	adcs r5, r2
	.endm

/* The common entry: saves r4-r11 and lr, builds the frame, stores ctx (r0), r (r1), 4 limbs and
 * 4 (2 limbs - 1); leaves limbs * 4 in r4 and sets r8 = 0 (the column), r11 = &t */
	.macro enter
	push {r4-r7, lr}
	mov r4, r8
	mov r5, r9
	mov r6, r10
	mov r7, r11
	push {r4-r7}
	movs r4, #(FRAME / 16)
	lsls r4, r4, #4
	mov r5, sp
	subs r5, r5, r4
	mov sp, r5
	str r0, [sp]
	str r1, [sp, #4]
	ldr r4, [r0]				@ limbs
	lsls r4, r4, #2
	str r4, [sp, #8]			@ 4 limbs
	lsls r5, r4, #1
	subs r5, r5, #4
	str r5, [sp, #12]			@ 4 (2 limbs - 1): past the last column
	movs r5, #0
	mov r8, r5				@ 4 k, the column
	add r5, sp, #16
	mov r11, r5				@ &t_k
	.endm

/* void bn_mont_mul(const bn_mont_ctx *ctx, uint32_t *r, const uint32_t *a, const uint32_t *b) */
	.global bn_mont_mul
	.type bn_mont_mul, %function
	.thumb_func
	.align 2
bn_mont_mul:
	enter
	mov r9, r2				@ a
	mov r10, r3				@ b
	movs r3, #0				@ accumulator r5:r4:r3
	movs r4, #0
	movs r5, #0
1:	mov r7, r8				@ column k: a_i b_(k-i), i from max(0, k - limbs + 1) to min(k, limbs - 1)
	ldr r6, [sp, #8]			@ 4 limbs
	subs r0, r7, r6
	adds r0, #4
	asrs r1, r0, #31
	bics r0, r1				@ 4 i_lo
	adds r7, #4
	subs r1, r7, r6
	asrs r2, r1, #31
	ands r1, r2
	adds r6, r1				@ 4 min(k + 1, limbs): past i_hi
	add r6, r9
	mov r12, r6				@ &a_(i_hi + 1)
	mov r7, r8
	subs r7, r7, r0
	add r0, r9				@ &a_(i_lo), walking up
	mov r1, r10
	adds r1, r7				@ &b_(k - i_lo), walking down
	movs r2, #0
2:	mulacc
	adds r0, #4
	subs r1, #4
	cmp r0, r12
	bne 2b
	mov r6, r11
	stm r6!, {r3}				@ t_k
	mov r11, r6
	movs r3, r4
	movs r4, r5
	movs r5, #0
	mov r7, r8
	adds r7, #4
	mov r8, r7
	ldr r6, [sp, #12]
	cmp r7, r6
	bne 1b
	mov r6, r11
	str r3, [r6]				@ t_(2 limbs - 1)
	b .Lreduce
	.size bn_mont_mul, . - bn_mont_mul

/* void bn_mont_sqr(const bn_mont_ctx *ctx, uint32_t *r, const uint32_t *a) */
	.global bn_mont_sqr
	.type bn_mont_sqr, %function
	.thumb_func
	.align 2
bn_mont_sqr:
	enter
	mov r9, r2				@ a
	movs r3, #0				@ accumulator r5:r4:r3
	movs r4, #0
	movs r5, #0
1:	mov r7, r8				@ column k: cross products a_i a_(k-i), i_lo <= i < k - i
	ldr r6, [sp, #8]
	subs r0, r7, r6
	adds r0, #4
	asrs r1, r0, #31
	bics r0, r1				@ 4 i_lo
	subs r7, r7, r0
	mov r1, r9
	adds r1, r7				@ &a_(k - i_lo), walking down
	add r0, r9				@ &a_(i_lo), walking up
	movs r2, #0
	cmp r0, r1
	bhs 3f
2:	mulacc2
	adds r0, #4
	subs r1, #4
	cmp r0, r1
	blo 2b
3:	bne 4f					@ an even column (r0 = r1) has the square a_(k/2)^2
	ldrh r6, [r0]				@ al
	ldrh r7, [r0, #2]			@ ah
	movs r1, r6
	muls r1, r6				@ al al
	adds r3, r1
	adcs r4, r2
	adcs r5, r2
	muls r6, r7				@ al ah, twice at weight 2^16: shifted by 17
	muls r7, r7				@ ah ah, weight 2^32
	adds r4, r7
	adcs r5, r2
	lsrs r7, r6, #15
	lsls r6, r6, #17
	adds r3, r6
	adcs r4, r7
	adcs r5, r2
4:	mov r6, r11
	stm r6!, {r3}				@ t_k
	mov r11, r6
	movs r3, r4
	movs r4, r5
	movs r5, #0
	mov r7, r8
	adds r7, #4
	mov r8, r7
	ldr r6, [sp, #12]
	cmp r7, r6
	bne 1b
	mov r6, r11
	str r3, [r6]				@ t_(2 limbs - 1)
	@ falls through to the reduction
	.size bn_mont_sqr, . - bn_mont_sqr

/* The reduction and the final subtraction, on the frame above (entered by a branch, returns for
 * the function that built it). Registers of a row: &t_(i+j) r0, &n_j r1, 0 r2, the word r3, the
 * carry word c r4, mu's low half r5, temporaries r6, r7; mu's high half r8, &n_limbs r9, &t_i r10,
 * ca r11, &t_limbs r12. */
.Lreduce:
	ldr r6, [sp]				@ ctx
	ldr r7, [sp, #8]			@ 4 limbs
	adds r6, #8				@ n
	adds r6, r7
	mov r9, r6				@ &n_limbs
	add r6, sp, #16
	mov r10, r6				@ &t_i
	adds r6, r7
	mov r12, r6				@ &t_limbs
	movs r6, #0
	mov r11, r6				@ ca
5:	mov r0, r10
	ldr r3, [r0]				@ t_i
	ldr r1, [sp]				@ ctx
	ldr r7, [r1, #4]			@ n0
	muls r7, r3				@ mu = t_i n0 mod 2^32
	uxth r5, r7				@ mu's halves
	lsrs r7, r7, #16
	mov r8, r7
	adds r1, #8				@ n
	movs r4, #0				@ c
	movs r2, #0
6:	ldr r3, [r0]				@ t_(i+j) + c + mu n_j: below 2^64, so no carry leaves r4
	adds r3, r4
	movs r4, #0
	adcs r4, r2
	ldrh r6, [r1, #2]			@ nh
	mov r7, r8				@ muh
	muls r7, r6				@ muh nh, weight 2^32
	adds r4, r7
	muls r6, r5				@ mul nh, weight 2^16
	lsrs r7, r6, #16
	lsls r6, r6, #16
	adds r3, r6
	adcs r4, r7
	ldrh r6, [r1]				@ nl
	mov r7, r8
	muls r7, r6				@ muh nl, weight 2^16
	muls r6, r5				@ mul nl
	adds r3, r6
	adcs r4, r2
	lsrs r6, r7, #16
	lsls r7, r7, #16
	adds r3, r7
	adcs r4, r6
	stm r0!, {r3}				@ t_(i+j)
	adds r1, #4
	cmp r1, r9
	bne 6b
	ldr r3, [r0]				@ t_(i+limbs) += c + ca; ca = the carries out
	adds r3, r4
	movs r7, #0
	adcs r7, r2
	mov r6, r11
	adds r3, r6
	adcs r7, r2
	str r3, [r0]
	mov r11, r7
	mov r0, r10
	adds r0, #4
	mov r10, r0
	cmp r0, r12
	bne 5b
@ r = T - n: the borrow chain over t_(limbs..2 limbs - 1) (r10 points there), its carry kept in r7
@ across the loop (LSRS #1 puts it back in C, ADCS takes it out)
	ldr r2, [sp, #4]			@ r
	mov r0, r10
	ldr r1, [sp]
	adds r1, #8				@ n
	ldr r5, [sp, #8]
	lsrs r5, r5, #2				@ limbs
	movs r7, #1				@ C = 1: no borrow yet
7:	lsrs r7, r7, #1
	ldm r0!, {r3}
	ldm r1!, {r4}
	sbcs r3, r4
	stm r2!, {r3}
	adcs r7, r7
	subs r5, #1
	bne 7b
	mov r6, r11				@ subtract when ca or no borrow (C = 1): mask all ones
	orrs r7, r6
	negs r7, r7
	ldr r2, [sp, #4]
	mov r0, r10
	ldr r5, [sp, #8]
	lsrs r5, r5, #2
8:	ldm r0!, {r3}				@ r_j = t_j ^ ((t_j ^ d_j) & mask)
	ldr r4, [r2]
	eors r4, r3
	ands r4, r7
	eors r4, r3
	stm r2!, {r4}
	subs r5, #1
	bne 8b
	movs r4, #(FRAME / 16)
	lsls r4, r4, #4
	add sp, r4
	pop {r4-r7}
	mov r8, r4
	mov r9, r5
	mov r10, r6
	mov r11, r7
	pop {r4-r7, pc}
