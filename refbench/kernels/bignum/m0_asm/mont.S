/* Montgomery multiplication and squaring for moduli of 1 to 128 limbs given at call time (mont.h's
 * contract and context: limbs, n0 = -n^-1 mod 2^32, n), hand-written Thumb for ARMv6-M (Cortex-M0/M0+),
 * whose only multiply is MULS, 32x32 -> 32 bits (ARM DDI 0419E A6.7.44). refbench's own code, written
 * in the instruction shape of wolfSSL's SP ARMv6-M Thumb assembly built with WOLFSSL_SP_SMALL
 * (wolfcrypt/src/sp_armthumb.c; the STM32G071RB page's build: WOLFSSL_SP_ARM_THUMB_ASM and
 * WOLFSSL_SP_SMALL without WOLFSSL_SP_ARM_THUMB_ASM_CORTEX_M, so no UMULL). Read at
 * MarkAtwood/wolfssl-lineage 03e44abd8dc619c9163d963f12cd5176f6e3a556 (its sp_armthumb.c says
 * "Copyright (C) 2006-2023", the generation of the page's 5.6.0; 5.6.0's own file was not read):
 * sp_2048_mul_8's product-scanning loop ("L_sp_2048_mul_8_words", "L_sp_2048_mul_8_mul": the first
 * function after sp_2048_to_bin_64), sp_2048_mont_reduce_64 ("L_sp_2048_mont_reduce_64_word") and
 * sp_2048_mod_exp_32 under WOLFSSL_SP_SMALL (a 4-bit window, 16 entries, mont_sqr/mont_mul calls),
 * and at wolfSSL/wolfssl 0452594cf78456db62f8d89d7922f32ab57cba88 (2018) sp_2048_sqr_8, whose loop
 * holds the "# Multiply * 2" and "# Square" blocks; the SMALL sp_2048_mul_64/sqr_64 of the 2023 file
 * were not located in it (their loops are assumed to be the same template at another length):
 *
 *   1. the double-length product t = a b by product scanning: column by column into a three-word
 *      accumulator (r3, r4, r5), each word product a_i b_j from four 16x16 -> 32 MULS (al bl, al bh,
 *      ah bh, ah bl; the low halves loaded by LDRH, the high ones by LDR and LSRS #16), each partial
 *      product added by ADDS/ADCS/ADCS, the middle ones split by LSRS/LSLS #16 first (the
 *      "# Multiply Start" block); per product the loop compares the a pointer with both column bounds
 *      (the end of a, then a + 4 k), as "L_sp_2048_mul_8_mul" does; the column's low word is stored
 *      and the accumulator shifts down a word.
 *   2. the square t = a a the same way, each column walking i up and k - i down while i <= k - i: a
 *      cross product a_i a_j (i < j) computed once with each of its four partial products added twice
 *      (the "# Multiply * 2" block), the square a_i a_i from three MULS (al al, ah ah, and al ah added
 *      once shifted left by 17: the "# Square" block), and per step three compares (the end of a, the
 *      middle of the column, a + 4 k): a dedicated squaring, L (L + 1) / 2 word products for L limbs
 *      instead of L^2 (so 6 L^2 + 2 L MULS against 8 L^2 + L for the multiplication, with the
 *      reduction's).
 *   3. REDC word by word (HAC 14.32) over t, the word step of sp_2048_mont_reduce_64: for each i,
 *      mu = t_i n0 mod 2^32 (one MULS), then t_(i+j) += mu n_j + c for every j: n_j by LDM, mu's halves
 *      taken again at each step from a high register (UXTH, LSRS #16), four MULS, the sum in two words
 *      (it stays below 2^64), STM; the carry out of word i + limbs is kept (ca) and added at the next
 *      row's top word.
 *   4. r = T - n when T = t_(limbs..2 limbs - 1) + ca 2^(32 limbs) >= n, by a borrow chain and a
 *      masked select: mont.h's contract is the fully reduced residue, where wolfSSL subtracts the
 *      modulus masked by ca only and compares once per exponentiation (sp_2048_mod_exp_32's
 *      sp_2048_cmp_32 and sp_2048_cond_sub_32): this pass, about 20 cycles a limb, is ours.
 *
 * ARMv6-M's data-processing instructions reach r0-r7 only: the column index, the operand bases and the
 * ends are parked in r8-r12 (saved and restored for the caller, AAPCS) and moved in by MOV. Every
 * branch and address depends on the length only, and MULS takes a fixed time on every core (1 cycle on
 * the Cortex-M0+ with the fast multiplier, DDI 0484C Table 3-1; MUL 1 cycle on the Cortex-M3,
 * 100165_0201 Table 3-1, unlike its UMULL): constant time.
 */
	.syntax unified
	.thumb
	.text

/* The frame: [sp] ctx, [sp, #4] r, [sp, #8] 4 (limbs - 1), [sp, #12] 4 (2 limbs - 1), t (2 * 128
 * words) at [sp, #16]; below the saved r8-r11 and r4-r7, lr. */
#define FRAME (16 + 8 * 128)

/* mulacc, mulacc2, sqracc: the word products (r3:r4:r5 += a b, 2 a b, a^2; r0 = &a, r1 = &b, r2 = 0) */
#include "mul16.inc"

/* enter: saves r4-r11 and lr, builds the frame, stores ctx (r0), r (r1), 4 (limbs - 1) and
 * 4 (2 limbs - 1); sets r8 = 0 (4 k, the column), r9 = a (r2), r11 = &t, r12 = &a_limbs (the end of a), r4 = r5 = 0;
 * r0-r3 are left as they came but for r0, r1 */
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
	adds r5, r2, r4
	mov r12, r5				@ &a_limbs
	subs r5, r4, #4
	str r5, [sp, #8]			@ 4 (limbs - 1)
	lsls r5, r4, #1
	subs r5, r5, #4
	str r5, [sp, #12]			@ 4 (2 limbs - 1): past the last column
	movs r5, #0
	mov r8, r5
	mov r9, r2
	add r5, sp, #16
	mov r11, r5
	movs r4, #0				@ the accumulator r5:r4:r3 (r3 below, after the caller's b is kept)
	movs r5, #0
	.endm

/* The column bounds for mul16.inc's colstart and colend, from the frame (a run-time length) */
	.macro col_last
	ldr r6, [sp, #8]			@ 4 (limbs - 1)
	.endm
	.macro col_end
	ldr r6, [sp, #12]			@ 4 (2 limbs - 1)
	.endm

/* void bn_mont_mul(const bn_mont_ctx *ctx, uint32_t *r, const uint32_t *a, const uint32_t *b) */
	.global bn_mont_mul
	.type bn_mont_mul, %function
	.thumb_func
	.align 2
bn_mont_mul:
	enter
	mov r10, r3				@ b
	movs r3, #0
1:	colstart				@ column k: a_i b_(k-i) for i_lo <= i <= min(k, limbs - 1)
	mov r1, r10
	adds r1, r1, r6				@ &b_(k - i_lo), walking down
	mul_col					@ a_i b_(k-i) up the column (mul16.inc)
3:	colend
	blo 1b
	b .Lreduce
	.size bn_mont_mul, . - bn_mont_mul

/* void bn_mont_sqr(const bn_mont_ctx *ctx, uint32_t *r, const uint32_t *a) */
	.global bn_mont_sqr
	.type bn_mont_sqr, %function
	.thumb_func
	.align 2
bn_mont_sqr:
	enter
	movs r3, #0
1:	colstart				@ column k: a_i a_(k-i) for i_lo <= i <= k - i
	mov r1, r9
	adds r1, r1, r6				@ &a_(k - i_lo), walking down
	sqr_col					@ a_i a_(k-i) up to the middle of the column (mul16.inc)
3:	colend
	blo 1b
	@ falls through to the reduction
	.size bn_mont_sqr, . - bn_mont_sqr

/* The reduction and the final subtraction, on the frame above (entered from either function with
 * t_(2 limbs - 1) in r3; returns for the function that built the frame). A row's registers, in the
 * shape of sp_2048_mont_reduce_64's word step: &t_(i+j) r0, &n_j r1 (LDM), n_j r2, the word r3, the
 * carry word c r4, temporaries r5, r6, 0 r7; mu r10 (its halves taken again at each step, by
 * UXTH and LSRS), &t_(i+limbs) r9, ca r11, &t_i r8. */
.Lreduce:
	mov r6, r11
	ldr r7, [sp, #12]
	str r3, [r6, r7]			@ t_(2 limbs - 1)
	mov r8, r6				@ &t_i
	movs r7, #0
	mov r11, r7				@ ca
5:	mov r0, r8
	ldr r3, [r0]				@ t_i
	ldr r1, [sp]				@ ctx
	ldr r5, [r1, #4]			@ n0
	muls r5, r3				@ mu = t_i n0 mod 2^32
	mov r10, r5
	ldr r6, [sp, #8]
	adds r6, #4				@ 4 limbs
	adds r6, r0, r6
	mov r9, r6				@ &t_(i+limbs)
	redc_row				@ t_(i+j) += mu n_j + c, t_(i+limbs) += c + ca; i += 1 (mul16.inc)
	ldr r6, [sp, #8]
	add r6, sp
	adds r6, #20				@ &t_limbs = sp + 16 + 4 limbs
	cmp r0, r6
	bne 5b
@ r = T - n: the borrow chain over t_(limbs..2 limbs - 1) (r8 points there), its carry kept in r7
@ across the loop (LSRS #1 puts it back in C, ADCS takes it out)
	ldr r2, [sp, #4]			@ r
	mov r0, r8
	ldr r1, [sp]
	adds r1, #8				@ n
	ldr r5, [sp, #8]
	lsrs r5, r5, #2
	adds r5, #1				@ limbs
	redc_sub				@ r = T - n; r7 = all ones when ca or T >= n (mul16.inc)
	ldr r2, [sp, #4]
	mov r0, r8
	ldr r5, [sp, #8]
	lsrs r5, r5, #2
	adds r5, #1
	redc_select				@ r = T - n under the mask, else T (mul16.inc)
	movs r4, #(FRAME / 16)
	lsls r4, r4, #4
	add sp, r4
	pop {r4-r7}
	mov r8, r4
	mov r9, r5
	mov r10, r6
	mov r11, r7
	pop {r4-r7, pc}
