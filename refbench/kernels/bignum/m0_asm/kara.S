/* Montgomery multiplication and squaring for ARMv6-M (Cortex-M0/M0+: MULS 32x32 -> 32 only, ARM DDI
 * 0419E A6.7.44), refbench's own code in the instruction shape of wolfSSL's SP ARMv6-M Thumb code built
 * WITHOUT WOLFSSL_SP_SMALL (wolfcrypt/src/sp_armthumb.c, read at MarkAtwood/wolfssl-lineage
 * 03e44abd8dc619c9163d963f12cd5176f6e3a556, "Copyright (C) 2006-2023", the generation of the STM32G071RB
 * page's 5.6.0): a fixed-length product of 8 words straight-line (sp_2048_mul_8 under
 * WOLFSSL_SP_LARGE_CODE: "#  A[0] * B[0]" ... each word product from four 16x16 MULS, the columns
 * stored to a stack buffer of 16 words and copied to r at the end), the square of 8 words the same
 * way with each cross product's partial products added twice ("#  A[2] * A[1]") and a square from
 * three MULS (al al, ah ah, al ah shifted left by 17), and in kara.c the Karatsuba layers over them
 * (sp_2048_mul_16/32/64, sp_2048_sqr_16/32/64: C calling these word-vector additions and
 * subtractions, sp_2048_add_<n> and sp_2048_sub_in_place_<n>, which wolfSSL has in assembly too).
 * Without WOLFSSL_SP_LARGE_CODE the same file's sp_2048_mul_8 is the product-scanning loop
 * ("L_sp_2048_mul_8_words"/"L_sp_2048_mul_8_mul", with a copy of its 16-word result): the
 * straight-line base is the faster of the two builds, so it bounds either from below.
 *
 * The word products (kmulacc, ksqracc2, ksqracc1 below): the 16-bit halves loaded by LDRH (the high one
 * at offset +2, little-endian), the two middle products split by LSRS/LSLS #16 and added by
 * ADDS/ADCS/ADCS into the column's three-word accumulator, the low and the high products added in one
 * carry chain (MULS changes N and Z only, so C survives the LDRHs and the MULS between ADDS and ADCS:
 * ARM DDI 0419E A6.7.44). The three accumulator words rotate over r3, r4, r5 from column to column.
 * Every branch and address depends on the length only, MULS takes a fixed time (1 cycle on the
 * Cortex-M0+ with the fast multiplier, DDI 0484C Table 3-1; MUL 1 cycle on the Cortex-M3,
 * 100165_0201 Table 3-1): constant time.
 *
 * With KARA_BASE_LOOP (the variant m0_kara_loop) the 8-word product and square are instead the loops of
 * the build without WOLFSSL_SP_LARGE_CODE (below), the same Karatsuba layers and reduction over them.
 *
 * The lengths kara.c does not take by Karatsuba (anything but 8 times a power of two from 16 words)
 * go to mont.S's functions, assembled here under other names (bn_mont_mul_scan, bn_mont_sqr_scan).
 */
#define bn_mont_mul bn_mont_mul_scan
#define bn_mont_sqr bn_mont_sqr_scan
#include "mont.S"
#undef bn_mont_mul
#undef bn_mont_sqr

	.syntax unified
	.thumb
	.text

/* kmulacc ia, ib, lo, mid, hi: lo:mid:hi += a_i b_j, a at r0, b at r1, byte offsets ia = 4 i, ib = 4 j;
 * r2 = 0; r6, r7 clobbered */
	.macro kmulacc ia, ib, lo, mid, hi
	ldrh r6, [r0, #\ia]			@ al
	ldrh r7, [r1, #(\ib + 2)]		@ bh
	muls r7, r6				@ al bh, weight 2^16
	lsrs r6, r7, #16
	lsls r7, r7, #16
	adds \lo, r7
	adcs \mid, r6
	adcs \hi, r2
	ldrh r6, [r0, #(\ia + 2)]		@ ah
	ldrh r7, [r1, #\ib]			@ bl
	muls r7, r6				@ ah bl, weight 2^16
	lsrs r6, r7, #16
	lsls r7, r7, #16
	adds \lo, r7
	adcs \mid, r6
	adcs \hi, r2
	ldrh r6, [r0, #\ia]
	ldrh r7, [r1, #\ib]
	muls r6, r7				@ al bl
	adds \lo, r6
	ldrh r6, [r0, #(\ia + 2)]
	ldrh r7, [r1, #(\ib + 2)]
	muls r6, r7				@ ah bh, weight 2^32 (C kept from the ADDS)
	adcs \mid, r6
	adcs \hi, r2
	.endm

/* ksqracc2 ia, ib, lo, mid, hi: lo:mid:hi += 2 a_i a_j (i < j), a at r0; each partial product added
 * twice; r2 = 0; r1, r6, r7 clobbered */
	.macro ksqracc2 ia, ib, lo, mid, hi
	ldrh r6, [r0, #\ia]			@ al
	ldrh r7, [r0, #(\ib + 2)]		@ bh
	muls r7, r6				@ al bh, weight 2^16
	lsrs r1, r7, #16
	lsls r7, r7, #16
	adds \lo, r7
	adcs \mid, r1
	adcs \hi, r2
	adds \lo, r7
	adcs \mid, r1
	adcs \hi, r2
	ldrh r7, [r0, #\ib]			@ bl
	muls r6, r7				@ al bl
	ldrh r1, [r0, #(\ia + 2)]		@ ah
	muls r7, r1				@ ah bl, weight 2^16
	adds \lo, r6
	adcs \mid, r2
	adcs \hi, r2
	adds \lo, r6
	adcs \mid, r2
	adcs \hi, r2
	lsrs r6, r7, #16
	lsls r7, r7, #16
	adds \lo, r7
	adcs \mid, r6
	adcs \hi, r2
	adds \lo, r7
	adcs \mid, r6
	adcs \hi, r2
	ldrh r7, [r0, #(\ib + 2)]		@ bh
	muls r7, r1				@ ah bh, weight 2^32
	adds \mid, r7
	adcs \hi, r2
	adds \mid, r7
	adcs \hi, r2
	.endm

/* ksqracc1 ia, lo, mid, hi: lo:mid:hi += a_i^2 from three MULS: al al + ah ah 2^32 in one chain, then
 * al ah shifted left by 17; r2 = 0; r1, r6, r7 clobbered */
	.macro ksqracc1 ia, lo, mid, hi
	ldrh r6, [r0, #\ia]			@ al
	ldrh r7, [r0, #(\ia + 2)]		@ ah
	movs r1, r6
	muls r1, r7				@ al ah, weight 2^17
	muls r6, r6				@ al al
	muls r7, r7				@ ah ah, weight 2^32
	adds \lo, r6
	adcs \mid, r7
	adcs \hi, r2
	lsrs r6, r1, #15
	lsls r1, r1, #17
	adds \lo, r1
	adcs \mid, r6
	adcs \hi, r2
	.endm

/* kcopy16: the 16-word column buffer at sp to r (the saved r0 at [sp, #64]); r0-r5 clobbered */
	.macro kcopy16
	ldr r1, [sp, #64]
	mov r0, sp
	.rept 4
	ldm r0!, {r2-r5}
	stm r1!, {r2-r5}
	.endr
	.endm

#ifndef KARA_BASE_LOOP
/* void kara_mul_8(uint32_t r[16], const uint32_t a[8], const uint32_t b[8]): r = a b, r may be a or b */
	.global kara_mul_8
	.type kara_mul_8, %function
	.thumb_func
	.align 2
kara_mul_8:
	push {r0, r4-r7, lr}
	sub sp, #64
	mov r0, r1
	mov r1, r2
	movs r2, #0
	movs r3, #0
	movs r4, #0
	movs r5, #0
	kmulacc 0, 0, r3, r4, r5
	str r3, [sp, #0]
	movs r3, #0
	kmulacc 0, 4, r4, r5, r3
	kmulacc 4, 0, r4, r5, r3
	str r4, [sp, #4]
	movs r4, #0
	kmulacc 0, 8, r5, r3, r4
	kmulacc 4, 4, r5, r3, r4
	kmulacc 8, 0, r5, r3, r4
	str r5, [sp, #8]
	movs r5, #0
	kmulacc 0, 12, r3, r4, r5
	kmulacc 4, 8, r3, r4, r5
	kmulacc 8, 4, r3, r4, r5
	kmulacc 12, 0, r3, r4, r5
	str r3, [sp, #12]
	movs r3, #0
	kmulacc 0, 16, r4, r5, r3
	kmulacc 4, 12, r4, r5, r3
	kmulacc 8, 8, r4, r5, r3
	kmulacc 12, 4, r4, r5, r3
	kmulacc 16, 0, r4, r5, r3
	str r4, [sp, #16]
	movs r4, #0
	kmulacc 0, 20, r5, r3, r4
	kmulacc 4, 16, r5, r3, r4
	kmulacc 8, 12, r5, r3, r4
	kmulacc 12, 8, r5, r3, r4
	kmulacc 16, 4, r5, r3, r4
	kmulacc 20, 0, r5, r3, r4
	str r5, [sp, #20]
	movs r5, #0
	kmulacc 0, 24, r3, r4, r5
	kmulacc 4, 20, r3, r4, r5
	kmulacc 8, 16, r3, r4, r5
	kmulacc 12, 12, r3, r4, r5
	kmulacc 16, 8, r3, r4, r5
	kmulacc 20, 4, r3, r4, r5
	kmulacc 24, 0, r3, r4, r5
	str r3, [sp, #24]
	movs r3, #0
	kmulacc 0, 28, r4, r5, r3
	kmulacc 4, 24, r4, r5, r3
	kmulacc 8, 20, r4, r5, r3
	kmulacc 12, 16, r4, r5, r3
	kmulacc 16, 12, r4, r5, r3
	kmulacc 20, 8, r4, r5, r3
	kmulacc 24, 4, r4, r5, r3
	kmulacc 28, 0, r4, r5, r3
	str r4, [sp, #28]
	movs r4, #0
	kmulacc 4, 28, r5, r3, r4
	kmulacc 8, 24, r5, r3, r4
	kmulacc 12, 20, r5, r3, r4
	kmulacc 16, 16, r5, r3, r4
	kmulacc 20, 12, r5, r3, r4
	kmulacc 24, 8, r5, r3, r4
	kmulacc 28, 4, r5, r3, r4
	str r5, [sp, #32]
	movs r5, #0
	kmulacc 8, 28, r3, r4, r5
	kmulacc 12, 24, r3, r4, r5
	kmulacc 16, 20, r3, r4, r5
	kmulacc 20, 16, r3, r4, r5
	kmulacc 24, 12, r3, r4, r5
	kmulacc 28, 8, r3, r4, r5
	str r3, [sp, #36]
	movs r3, #0
	kmulacc 12, 28, r4, r5, r3
	kmulacc 16, 24, r4, r5, r3
	kmulacc 20, 20, r4, r5, r3
	kmulacc 24, 16, r4, r5, r3
	kmulacc 28, 12, r4, r5, r3
	str r4, [sp, #40]
	movs r4, #0
	kmulacc 16, 28, r5, r3, r4
	kmulacc 20, 24, r5, r3, r4
	kmulacc 24, 20, r5, r3, r4
	kmulacc 28, 16, r5, r3, r4
	str r5, [sp, #44]
	movs r5, #0
	kmulacc 20, 28, r3, r4, r5
	kmulacc 24, 24, r3, r4, r5
	kmulacc 28, 20, r3, r4, r5
	str r3, [sp, #48]
	movs r3, #0
	kmulacc 24, 28, r4, r5, r3
	kmulacc 28, 24, r4, r5, r3
	str r4, [sp, #52]
	movs r4, #0
	kmulacc 28, 28, r5, r3, r4
	str r5, [sp, #56]
	str r3, [sp, #60]
	kcopy16
	add sp, #68
	pop {r4-r7, pc}
	.size kara_mul_8, . - kara_mul_8

/* void kara_sqr_8(uint32_t r[16], const uint32_t a[8]): r = a^2, r may be a */
	.global kara_sqr_8
	.type kara_sqr_8, %function
	.thumb_func
	.align 2
kara_sqr_8:
	push {r0, r4-r7, lr}
	sub sp, #64
	mov r0, r1
	movs r2, #0
	movs r3, #0
	movs r4, #0
	movs r5, #0
	ksqracc1 0, r3, r4, r5
	str r3, [sp, #0]
	movs r3, #0
	ksqracc2 0, 4, r4, r5, r3
	str r4, [sp, #4]
	movs r4, #0
	ksqracc2 0, 8, r5, r3, r4
	ksqracc1 4, r5, r3, r4
	str r5, [sp, #8]
	movs r5, #0
	ksqracc2 0, 12, r3, r4, r5
	ksqracc2 4, 8, r3, r4, r5
	str r3, [sp, #12]
	movs r3, #0
	ksqracc2 0, 16, r4, r5, r3
	ksqracc2 4, 12, r4, r5, r3
	ksqracc1 8, r4, r5, r3
	str r4, [sp, #16]
	movs r4, #0
	ksqracc2 0, 20, r5, r3, r4
	ksqracc2 4, 16, r5, r3, r4
	ksqracc2 8, 12, r5, r3, r4
	str r5, [sp, #20]
	movs r5, #0
	ksqracc2 0, 24, r3, r4, r5
	ksqracc2 4, 20, r3, r4, r5
	ksqracc2 8, 16, r3, r4, r5
	ksqracc1 12, r3, r4, r5
	str r3, [sp, #24]
	movs r3, #0
	ksqracc2 0, 28, r4, r5, r3
	ksqracc2 4, 24, r4, r5, r3
	ksqracc2 8, 20, r4, r5, r3
	ksqracc2 12, 16, r4, r5, r3
	str r4, [sp, #28]
	movs r4, #0
	ksqracc2 4, 28, r5, r3, r4
	ksqracc2 8, 24, r5, r3, r4
	ksqracc2 12, 20, r5, r3, r4
	ksqracc1 16, r5, r3, r4
	str r5, [sp, #32]
	movs r5, #0
	ksqracc2 8, 28, r3, r4, r5
	ksqracc2 12, 24, r3, r4, r5
	ksqracc2 16, 20, r3, r4, r5
	str r3, [sp, #36]
	movs r3, #0
	ksqracc2 12, 28, r4, r5, r3
	ksqracc2 16, 24, r4, r5, r3
	ksqracc1 20, r4, r5, r3
	str r4, [sp, #40]
	movs r4, #0
	ksqracc2 16, 28, r5, r3, r4
	ksqracc2 20, 24, r5, r3, r4
	str r5, [sp, #44]
	movs r5, #0
	ksqracc2 20, 28, r3, r4, r5
	ksqracc1 24, r3, r4, r5
	str r3, [sp, #48]
	movs r3, #0
	ksqracc2 24, 28, r4, r5, r3
	str r4, [sp, #52]
	movs r4, #0
	ksqracc1 28, r5, r3, r4
	str r5, [sp, #56]
	str r3, [sp, #60]
	kcopy16
	add sp, #68
	pop {r4-r7, pc}
	.size kara_sqr_8, . - kara_sqr_8

#else
/* The 8-word base without WOLFSSL_SP_LARGE_CODE (KARA_BASE_LOOP): sp_2048_mul_8's product-scanning loop
 * ("L_sp_2048_mul_8_words": per column k the a pointer from a_max(0, k - 7) up, b from b_(k - i) down,
 * "L_sp_2048_mul_8_mul": mont.S's mulacc, the "# Multiply Start" block, then the a pointer compared with the
 * end of a and with a + 4 k), the columns into a 16-word stack buffer, copied to r at the end (its
 * XMEMCPY). The square the same loop over i <= k - i with mont.S's mulacc2 and sqracc, as sp_2048_sqr_8
 * without WOLFSSL_SP_LARGE_CODE is ("L_sp_2048_sqr_8_words", its "# Multiply * 2" and "# Square: Start"
 * blocks, per step the a pointer compared with the end of a, the middle of the column and a + 4 k, then
 * the "L_sp_2048_sqr_8_store" copy of the 16 words). High registers: 4 k r8, a r9, b r10, &a_8 r12. */

/* kcolumn: r0 = &a_(i_lo), i_lo = max(0, k - 7) (a borrow mask, no branch), r1 = &b_(k - i_lo) (b = r10);
 * r2 = 0 */
	.macro kcolumn
	mov r0, r8
	subs r0, #28
	sbcs r6, r6
	mvns r6, r6
	ands r0, r6				@ 4 i_lo
	mov r6, r8
	subs r6, r6, r0
	add r0, r9
	mov r1, r10
	adds r1, r1, r6
	movs r2, #0
	.endm

/* kstore: t_k = r3 into the buffer at sp, the accumulator shifts down a word, k += 1; the flags say
 * whether k < 15 */
	.macro kstore
	mov r6, r8
	mov r7, sp
	str r3, [r7, r6]
	movs r3, r4
	movs r4, r5
	movs r5, #0
	adds r6, #4
	mov r8, r6
	cmp r6, #60
	.endm

/* kenter: saves r4-r11, lr and r0 (r at [sp, #64] once the 16-word buffer is made), r9 = a (r1),
 * r12 = a + 32, r8 = 0, the accumulator 0 */
	.macro kenter
	push {r0, r4-r7, lr}
	mov r4, r8
	mov r5, r9
	mov r6, r10
	push {r4-r6}
	sub sp, #64
	mov r9, r1
	movs r6, #32
	add r6, r9
	mov r12, r6
	movs r3, #0
	movs r4, #0
	movs r5, #0
	mov r8, r3
	.endm

/* kleave: t_15 = r3, the buffer to r (at [sp, #76] below the three saved high registers), restore */
	.macro kleave
	str r3, [sp, #60]
	ldr r1, [sp, #76]
	mov r0, sp
	.rept 4
	ldm r0!, {r2-r5}
	stm r1!, {r2-r5}
	.endr
	add sp, #64
	pop {r4-r6}
	mov r8, r4
	mov r9, r5
	mov r10, r6
	add sp, #4
	pop {r4-r7, pc}
	.endm

	.global kara_mul_8
	.type kara_mul_8, %function
	.thumb_func
	.align 2
kara_mul_8:
	kenter
	mov r10, r2
1:	kcolumn
	mul_col					@ a_i b_(k-i) up the column (mul16.inc)
3:	kstore
	bne 1b
	kleave
	.size kara_mul_8, . - kara_mul_8

	.global kara_sqr_8
	.type kara_sqr_8, %function
	.thumb_func
	.align 2
kara_sqr_8:
	kenter
	mov r10, r1
1:	kcolumn
	sqr_col					@ a_i a_(k-i) up to the middle of the column (mul16.inc)
3:	kstore
	bne 1b
	kleave
	.size kara_sqr_8, . - kara_sqr_8

#endif

/* uint32_t kara_add(uint32_t *r, const uint32_t *a, const uint32_t *b, uint32_t n): r = a + b over n
 * words (n a multiple of 8, r may be a or b), returns the carry out (0 or 1): sp_2048_add_<n>'s work,
 * eight words an iteration by LDM/ADCS/STM, the carry kept in r3 across the loop's count (LSRS #1
 * puts it back in C, ADCS takes it out). */
	.global kara_add
	.type kara_add, %function
	.thumb_func
	.align 2
kara_add:
	push {r4-r7, lr}
	lsrs r3, r3, #3
	mov r12, r3
	movs r3, #0				@ the carry, 0
1:	lsrs r3, r3, #1				@ C = the carry
	.rept 4
	ldm r1!, {r4, r5}
	ldm r2!, {r6, r7}
	adcs r4, r6
	adcs r5, r7
	stm r0!, {r4, r5}
	.endr
	adcs r3, r3				@ r3 = C
	mov r7, r12
	subs r7, #1
	mov r12, r7
	bne 1b
	movs r0, r3
	pop {r4-r7, pc}
	.size kara_add, . - kara_add

/* uint32_t kara_sub(uint32_t *r, const uint32_t *a, const uint32_t *b, uint32_t n): r = a - b over n
 * words (n a multiple of 8, r may be a or b), returns 0, or all ones on a borrow out: the work of
 * sp_2048_sub_in_place_<n> (called with r = a), in kara_add's loop with SBCS */
	.global kara_sub
	.type kara_sub, %function
	.thumb_func
	.align 2
kara_sub:
	push {r4-r7, lr}
	lsrs r3, r3, #3
	mov r12, r3
	movs r3, #1				@ C = 1: no borrow yet
1:	lsrs r3, r3, #1
	.rept 4
	ldm r1!, {r4, r5}
	ldm r2!, {r6, r7}
	sbcs r4, r6
	sbcs r5, r7
	stm r0!, {r4, r5}
	.endr
	adcs r3, r3
	mov r7, r12
	subs r7, #1
	mov r12, r7
	bne 1b
	subs r0, r3, #1				@ no borrow (C = 1): 0; a borrow: all ones
	pop {r4-r7, pc}
	.size kara_sub, . - kara_sub

/* void kara_mont_reduce(const bn_mont_ctx *ctx, uint32_t *r, uint32_t *t): r = t 2^(-32 limbs) mod n,
 * fully reduced, for t < n 2^(32 limbs) of 2 limbs words (overwritten): word-by-word REDC (HAC 14.32)
 * in the registers and steps of mont.S's reduction (the word step of sp_2048_mont_reduce_64: mu = t_i n0,
 * t_(i+j) += mu n_j + c by four 16x16 MULS, the carry out of word i + limbs kept in ca), then the
 * borrow chain of T - n and a masked select. The frame: [sp] ctx, [sp, #4] r, [sp, #8] 4 limbs,
 * [sp, #12] &t_limbs; mu r10, &t_(i+limbs) r9, &t_i r8, ca r11. */
	.global kara_mont_reduce
	.type kara_mont_reduce, %function
	.thumb_func
	.align 2
kara_mont_reduce:
	push {r4-r7, lr}
	mov r4, r8
	mov r5, r9
	mov r6, r10
	mov r7, r11
	push {r4-r7}
	sub sp, #16
	str r0, [sp]
	str r1, [sp, #4]
	ldr r4, [r0]				@ limbs
	lsls r4, r4, #2
	str r4, [sp, #8]
	adds r5, r2, r4
	str r5, [sp, #12]			@ &t_limbs
	mov r8, r2				@ &t_i
	movs r7, #0
	mov r11, r7				@ ca
5:	mov r0, r8
	ldr r3, [r0]				@ t_i
	ldr r1, [sp]
	ldr r5, [r1, #4]			@ n0
	muls r5, r3				@ mu = t_i n0 mod 2^32
	mov r10, r5
	ldr r6, [sp, #8]
	adds r6, r0, r6
	mov r9, r6				@ &t_(i+limbs)
	redc_row				@ t_(i+j) += mu n_j + c, t_(i+limbs) += c + ca; i += 1 (mul16.inc)
	ldr r6, [sp, #12]
	cmp r0, r6
	bne 5b
@ r = T - n over t_(limbs..2 limbs - 1) (r8 points there), the borrow kept in r7 across the loop
	ldr r2, [sp, #4]			@ r
	mov r0, r8
	ldr r1, [sp]
	adds r1, #8				@ n
	ldr r5, [sp, #8]
	lsrs r5, r5, #2				@ limbs
	redc_sub				@ r = T - n; r7 = all ones when ca or T >= n (mul16.inc)
	ldr r2, [sp, #4]
	mov r0, r8
	ldr r5, [sp, #8]
	lsrs r5, r5, #2
	redc_select				@ r = T - n under the mask, else T (mul16.inc)
	add sp, #16
	pop {r4-r7}
	mov r8, r4
	mov r9, r5
	mov r10, r6
	mov r11, r7
	pop {r4-r7, pc}
	.size kara_mont_reduce, . - kara_mont_reduce
