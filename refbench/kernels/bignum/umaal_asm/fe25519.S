/* GF(2^255 - 19) arithmetic for ARMv7E-M (Cortex-M4/M7) and ARMv8-M Mainline with the DSP
 * extension (Cortex-M33), hand-written Thumb-2 around UMAAL: (hi:lo) = a*b + lo + hi in one
 * instruction (ARM DDI 0403E A7.7.186; 1 cycle on the Cortex-M4, DDI 0439D Table 3-2).
 * refbench's own code; the technique (UMAAL carry chains kept in registers, one reduction
 * pass with 2^256 = 38 mod p) is the textbook one (HAC 14.12; RFC 7748 §4.1).
 *
 * Every function takes and returns canonical values, in [0, p), as fe.h's C versions do, so the
 * same references check them and the X25519 ladder of x25519.h runs on them unchanged:
 *
 *   fe25519_mul(r, a, b)       r = a b mod p     (in x25519.S, beside the ladder's own products)
 *   fe25519_sqr(r, a)          r = a^2 mod p     (in x25519.S)
 *   fe25519_add(r, a, b)       r = a + b mod p
 *   fe25519_sub(r, a, b)       r = a - b mod p
 *   fe25519_mul_a24(r, a)      r = 121665 a mod p
 *   fe25519_cswap(a, b, swap)  a <-> b when swap is 1 (swap in {0, 1}), by masks
 *
 * The multiplication: the 512-bit product in two passes of four rows (a[0..3] times b, then
 * a[4..7] times b). Within a pass the four a words sit in r6-r9 and each row i keeps its own
 * carry word h_i (r10-r12, lr); column c is formed by one UMAAL per active row,
 * x, h_i = a_i b_(c-i) + x + h_i, so the carries of four rows ride in registers and only the
 * column word x goes to memory. b streams through a window of four low registers (b_j in
 * {r1, r3, r4, r5}[j mod 4]: 16-bit loads, which pipeline wherever they sit), and each column's
 * store waits until after the next load (a store followed by a load costs the Cortex-M4 a cycle
 * unless a load precedes the store). The second pass adds into the first pass's columns 4..11
 * and leaves columns 12..15 in r10-r12, lr for the reduction.
 *
 * The reduction (canonical form): R = T_lo + 38 T_hi (eight UMAALs, carry c < 39), then
 * U = (R mod 2^255) + 19 (2c + bit 255 of R) < 2p, S = U + 19 < 2^256; U >= p exactly when bit
 * 255 of S is set, and then U - p = S - 2^255, else U = S - 19 (macro canon below). No branch,
 * no address depends on data: constant time.
 */
	.syntax unified
	.thumb
#if !defined(__ARM_FEATURE_DSP)
	.arch_extension dsp	@ the compilers' cortex-m33 target leaves the DSP extension out
#endif
	.text

/* canon R0..R7, top, c19, tmp: the canonical value of (R mod 2^255) + 19 top, for
 * R = R0..R7 (least significant first) below 2^256 and 19 top + 19 below 2^255: R0..R7 get the
 * result. c19 holds 19; top and tmp are clobbered. */
	.macro canon R0, R1, R2, R3, R4, R5, R6, R7, top, c19, tmp
	bic \R7, \R7, #0x80000000
	mla \top, \top, \c19, \c19		@ 19 top + 19
	adds \R0, \R0, \top			@ S = U + 19
	adcs \R1, \R1, #0
	adcs \R2, \R2, #0
	adcs \R3, \R3, #0
	adcs \R4, \R4, #0
	adcs \R5, \R5, #0
	adcs \R6, \R6, #0
	adcs \R7, \R7, #0
	lsr \tmp, \R7, #31			@ q = bit 255 of S: U >= p
	bic \R7, \R7, #0x80000000		@ S - 2^255 q
	sub \tmp, \tmp, #1
	and \tmp, \tmp, #19			@ 19 (1 - q)
	subs \R0, \R0, \tmp
	sbcs \R1, \R1, #0
	sbcs \R2, \R2, #0
	sbcs \R3, \R3, #0
	sbcs \R4, \R4, #0
	sbcs \R5, \R5, #0
	sbcs \R6, \R6, #0
	sbcs \R7, \R7, #0
	.endm

/* mul8_passes: the 512-bit product of a (r1) and b (r2). Pushes r0 (the result pointer, then at
 * [sp, #52]), r4-r11 and lr, and leaves T0..T11 at [sp, #0..44], T12..T15 in r10, r11, r12, lr; the
 * caller ends with add sp, #56 and pop {r4-r11, pc}. */
	.macro mul8_passes
	push {r0, r4-r11, lr}			@ r: [sp, #52] below
	ldm r1!, {r6-r9}			@ a0..a3; r1 = a + 4 words
	sub sp, #52				@ T0..T11 at [sp, #0..44], a + 4 words at [sp, #48]
	str r1, [sp, #48]
@ pass 0: T0..T11 = a0..a3 times b
	ldr r1, [r2, #0]		@ b0
	umull r0, r10, r6, r1		@ column 0: a0 b0 starts row 0
	ldr r3, [r2, #4]		@ b1
	str r0, [sp, #0]
	umull r0, r11, r7, r1		@ column 1: a1 b0 starts row 1
	umaal r0, r10, r6, r3		@ a0 b1
	ldr r4, [r2, #8]		@ b2
	str r0, [sp, #4]
	umull r0, r12, r8, r1		@ column 2: a2 b0 starts row 2
	umaal r0, r10, r6, r4		@ a0 b2
	umaal r0, r11, r7, r3		@ a1 b1
	ldr r5, [r2, #12]		@ b3
	str r0, [sp, #8]
	umull r0, lr, r9, r1		@ column 3: a3 b0 starts row 3
	umaal r0, r10, r6, r5		@ a0 b3
	umaal r0, r11, r7, r4		@ a1 b2
	umaal r0, r12, r8, r3		@ a2 b1
	ldr r1, [r2, #16]		@ b4
	str r0, [sp, #12]
	mov r0, #0		@ column 4
	umaal r0, r10, r6, r1		@ a0 b4
	umaal r0, r11, r7, r5		@ a1 b3
	umaal r0, r12, r8, r4		@ a2 b2
	umaal r0, lr, r9, r3		@ a3 b1
	ldr r3, [r2, #20]		@ b5
	str r0, [sp, #16]
	mov r0, #0		@ column 5
	umaal r0, r10, r6, r3		@ a0 b5
	umaal r0, r11, r7, r1		@ a1 b4
	umaal r0, r12, r8, r5		@ a2 b3
	umaal r0, lr, r9, r4		@ a3 b2
	ldr r4, [r2, #24]		@ b6
	str r0, [sp, #20]
	mov r0, #0		@ column 6
	umaal r0, r10, r6, r4		@ a0 b6
	umaal r0, r11, r7, r3		@ a1 b5
	umaal r0, r12, r8, r1		@ a2 b4
	umaal r0, lr, r9, r5		@ a3 b3
	ldr r5, [r2, #28]		@ b7
	str r0, [sp, #24]
	mov r0, #0		@ column 7
	umaal r0, r10, r6, r5		@ a0 b7
	umaal r0, r11, r7, r4		@ a1 b6
	umaal r0, r12, r8, r3		@ a2 b5
	umaal r0, lr, r9, r1		@ a3 b4
	str r0, [sp, #28]
	umaal r10, r11, r7, r5		@ column 8: a1 b7
	umaal r10, r12, r8, r4		@ column 8: a2 b6
	umaal r10, lr, r9, r3		@ column 8: a3 b5
	str r10, [sp, #32]
	umaal r11, r12, r8, r5		@ column 9: a2 b7
	umaal r11, lr, r9, r4		@ column 9: a3 b6
	str r11, [sp, #36]
	umaal r12, lr, r9, r5		@ column 10: a3 b7
	str r12, [sp, #40]
	str lr, [sp, #44]		@ column 11
@ pass 1: T4..T15 += a4..a7 times b; T12..T15 stay in r10-r12, lr
	ldr r0, [sp, #48]
	ldm r0, {r6-r9}				@ a4..a7
	ldr r1, [r2, #0]		@ b0
	ldr r0, [sp, #16]		@ column 4: pass 0's word
	mov r10, #0		@ row 0 starts
	umaal r0, r10, r6, r1		@ a4 b0
	ldr r3, [r2, #4]		@ b1
	str r0, [sp, #16]
	ldr r0, [sp, #20]		@ column 5: pass 0's word
	mov r11, #0		@ row 1 starts
	umaal r0, r10, r6, r3		@ a4 b1
	umaal r0, r11, r7, r1		@ a5 b0
	ldr r4, [r2, #8]		@ b2
	str r0, [sp, #20]
	ldr r0, [sp, #24]		@ column 6: pass 0's word
	mov r12, #0		@ row 2 starts
	umaal r0, r10, r6, r4		@ a4 b2
	umaal r0, r11, r7, r3		@ a5 b1
	umaal r0, r12, r8, r1		@ a6 b0
	ldr r5, [r2, #12]		@ b3
	str r0, [sp, #24]
	ldr r0, [sp, #28]		@ column 7: pass 0's word
	mov lr, #0		@ row 3 starts
	umaal r0, r10, r6, r5		@ a4 b3
	umaal r0, r11, r7, r4		@ a5 b2
	umaal r0, r12, r8, r3		@ a6 b1
	umaal r0, lr, r9, r1		@ a7 b0
	ldr r1, [r2, #16]		@ b4
	str r0, [sp, #28]
	ldr r0, [sp, #32]		@ column 8: pass 0's word
	umaal r0, r10, r6, r1		@ a4 b4
	umaal r0, r11, r7, r5		@ a5 b3
	umaal r0, r12, r8, r4		@ a6 b2
	umaal r0, lr, r9, r3		@ a7 b1
	ldr r3, [r2, #20]		@ b5
	str r0, [sp, #32]
	ldr r0, [sp, #36]		@ column 9: pass 0's word
	umaal r0, r10, r6, r3		@ a4 b5
	umaal r0, r11, r7, r1		@ a5 b4
	umaal r0, r12, r8, r5		@ a6 b3
	umaal r0, lr, r9, r4		@ a7 b2
	ldr r4, [r2, #24]		@ b6
	str r0, [sp, #36]
	ldr r0, [sp, #40]		@ column 10: pass 0's word
	umaal r0, r10, r6, r4		@ a4 b6
	umaal r0, r11, r7, r3		@ a5 b5
	umaal r0, r12, r8, r1		@ a6 b4
	umaal r0, lr, r9, r5		@ a7 b3
	ldr r5, [r2, #28]		@ b7
	str r0, [sp, #40]
	ldr r0, [sp, #44]		@ column 11: pass 0's word
	umaal r0, r10, r6, r5		@ a4 b7
	umaal r0, r11, r7, r4		@ a5 b6
	umaal r0, r12, r8, r3		@ a6 b5
	umaal r0, lr, r9, r1		@ a7 b4
	str r0, [sp, #44]
	umaal r10, r11, r7, r5		@ column 12: a5 b7
	umaal r10, r12, r8, r4		@ column 12: a6 b6
	umaal r10, lr, r9, r3		@ column 12: a7 b5
	umaal r11, r12, r8, r5		@ column 13: a6 b7
	umaal r11, lr, r9, r4		@ column 13: a7 b6
	umaal r12, lr, r9, r5		@ column 14: a7 b7
	.endm

/* void fe_p256_mul(uint32_t r[8], const uint32_t a[8], const uint32_t b[8]), fe_p256_sqr(r, a):
 * r = a b mod p for p = 2^256 - 2^224 + 2^192 + 2^96 - 1. The 512-bit product of mul8_passes,
 * then FIPS 186-4 D.2.3's reduction as fe.h p256_reduce does it: s1 + 2 s2 + 2 s3 + s4 + s5 - d1 -
 * d2 - d3 - d4 (each an 8-word carry chain into r0-r7, the signed top word in r8; T12..T15 stay
 * in registers, T8..T11 are loaded where used), two folds of the top word with 2^256 = 2^224 -
 * 2^192 - 2^96 + 1 (mod p) as sign-extended chains, and one masked subtraction of p. Canonical
 * inputs and result. The squaring is the product a a. */
	.global fe_p256_mul
	.type fe_p256_mul, %function
	.thumb_func
	.align 2
fe_p256_mul:
	mul8_passes
	ldm sp, {r0-r7}				@ s1 = T0..T7
	mov r8, #0
	ldr r9, [sp, #44]			@ T11
	adds r3, r3, r9			@ + s2
	adcs r4, r4, r10			@ T12
	adcs r5, r5, r11			@ T13
	adcs r6, r6, r12			@ T14
	adcs r7, r7, lr			@ T15
	adc r8, r8, #0			@ top
	ldr r9, [sp, #44]			@ T11
	adds r3, r3, r9			@ + s2
	adcs r4, r4, r10			@ T12
	adcs r5, r5, r11			@ T13
	adcs r6, r6, r12			@ T14
	adcs r7, r7, lr			@ T15
	adc r8, r8, #0			@ top
	adds r3, r3, r10			@ + s3 (T12)
	adcs r4, r4, r11			@ T13
	adcs r5, r5, r12			@ T14
	adcs r6, r6, lr			@ T15
	adcs r7, r7, #0
	adc r8, r8, #0			@ top
	adds r3, r3, r10			@ + s3 (T12)
	adcs r4, r4, r11			@ T13
	adcs r5, r5, r12			@ T14
	adcs r6, r6, lr			@ T15
	adcs r7, r7, #0
	adc r8, r8, #0			@ top
	ldr r9, [sp, #32]			@ T8
	adds r0, r0, r9			@ + s4
	ldr r9, [sp, #36]			@ T9
	adcs r1, r1, r9
	ldr r9, [sp, #40]			@ T10
	adcs r2, r2, r9
	adcs r3, r3, #0
	adcs r4, r4, #0
	adcs r5, r5, #0
	adcs r6, r6, r12			@ T14
	adcs r7, r7, lr			@ T15
	adc r8, r8, #0			@ top
	ldr r9, [sp, #36]			@ T9
	adds r0, r0, r9			@ + s5
	ldr r9, [sp, #40]			@ T10
	adcs r1, r1, r9
	ldr r9, [sp, #44]			@ T11
	adcs r2, r2, r9
	adcs r3, r3, r11			@ T13
	adcs r4, r4, r12			@ T14
	adcs r5, r5, lr			@ T15
	adcs r6, r6, r11			@ T13
	ldr r9, [sp, #32]			@ T8
	adcs r7, r7, r9
	adc r8, r8, #0			@ top
	ldr r9, [sp, #44]			@ T11
	subs r0, r0, r9			@ - d1
	sbcs r1, r1, r10			@ T12
	sbcs r2, r2, r11			@ T13
	sbcs r3, r3, #0
	sbcs r4, r4, #0
	sbcs r5, r5, #0
	ldr r9, [sp, #32]			@ T8
	sbcs r6, r6, r9
	ldr r9, [sp, #40]			@ T10
	sbcs r7, r7, r9
	sbc r8, r8, #0			@ top
	subs r0, r0, r10			@ - d2 (T12)
	sbcs r1, r1, r11			@ T13
	sbcs r2, r2, r12			@ T14
	sbcs r3, r3, lr			@ T15
	sbcs r4, r4, #0
	sbcs r5, r5, #0
	ldr r9, [sp, #36]			@ T9
	sbcs r6, r6, r9
	ldr r9, [sp, #44]			@ T11
	sbcs r7, r7, r9
	sbc r8, r8, #0			@ top
	subs r0, r0, r11			@ - d3 (T13)
	sbcs r1, r1, r12			@ T14
	sbcs r2, r2, lr			@ T15
	ldr r9, [sp, #32]			@ T8
	sbcs r3, r3, r9
	ldr r9, [sp, #36]			@ T9
	sbcs r4, r4, r9
	ldr r9, [sp, #40]			@ T10
	sbcs r5, r5, r9
	sbcs r6, r6, #0
	sbcs r7, r7, r10			@ T12
	sbc r8, r8, #0			@ top
	subs r0, r0, r12			@ - d4 (T14)
	sbcs r1, r1, lr			@ T15
	sbcs r2, r2, #0
	ldr r9, [sp, #36]			@ T9
	sbcs r3, r3, r9
	ldr r9, [sp, #40]			@ T10
	sbcs r4, r4, r9
	ldr r9, [sp, #44]			@ T11
	sbcs r5, r5, r9
	sbcs r6, r6, #0
	sbcs r7, r7, r11			@ T13
	sbc r8, r8, #0			@ top
@ fold the top word (in [-4, 6]) twice: after the first it is -1, 0 or 1, after the second 0
	asr r9, r8, #31			@ the sign of top, extended
	mov r10, #0
	adds r0, r0, r8			@ + top
	adcs r1, r1, r9
	adcs r2, r2, r9
	adcs r3, r3, r9
	adcs r4, r4, r9
	adcs r5, r5, r9
	adcs r6, r6, r9
	adcs r7, r7, r9
	adc r10, r10, r9
	subs r3, r3, r8			@ - top 2^96
	sbcs r4, r4, r9
	sbcs r5, r5, r9
	sbcs r6, r6, r9
	sbcs r7, r7, r9
	sbc r10, r10, r9
	subs r6, r6, r8			@ - top 2^192
	sbcs r7, r7, r9
	sbc r10, r10, r9
	adds r7, r7, r8			@ + top 2^224
	adc r10, r10, r9
	asr r9, r10, #31			@ the sign of top, extended
	mov r8, #0
	adds r0, r0, r10			@ + top
	adcs r1, r1, r9
	adcs r2, r2, r9
	adcs r3, r3, r9
	adcs r4, r4, r9
	adcs r5, r5, r9
	adcs r6, r6, r9
	adcs r7, r7, r9
	adc r8, r8, r9
	subs r3, r3, r10			@ - top 2^96
	sbcs r4, r4, r9
	sbcs r5, r5, r9
	sbcs r6, r6, r9
	sbcs r7, r7, r9
	sbc r8, r8, r9
	subs r6, r6, r10			@ - top 2^192
	sbcs r7, r7, r9
	sbc r8, r8, r9
	adds r7, r7, r10			@ + top 2^224
	adc r8, r8, r9
@ below 2^256 < 2p: subtract p when r >= p (the borrow of r - p, then p masked)
	subs r9, r0, #0xffffffff
	sbcs r9, r1, #0xffffffff
	sbcs r9, r2, #0xffffffff
	sbcs r9, r3, #0
	sbcs r9, r4, #0
	sbcs r9, r5, #0
	sbcs r9, r6, #1
	sbcs r9, r7, #0xffffffff
	sbc r9, r9, r9				@ all ones when r < p
	mvn r9, r9				@ all ones when r >= p
	and r10, r9, #1
	subs r0, r0, r9
	sbcs r1, r1, r9
	sbcs r2, r2, r9
	sbcs r3, r3, #0
	sbcs r4, r4, #0
	sbcs r5, r5, #0
	sbcs r6, r6, r10
	sbc r7, r7, r9
	ldr r8, [sp, #52]
	stm r8, {r0-r7}
	add sp, #56
	pop {r4-r11, pc}
	.size fe_p256_mul, . - fe_p256_mul

	.global fe_p256_sqr
	.type fe_p256_sqr, %function
	.thumb_func
	.align 2
fe_p256_sqr:
	mov r2, r1
	b fe_p256_mul
	.size fe_p256_sqr, . - fe_p256_sqr

/* void fe_p256_add(uint32_t r[8], const uint32_t a[8], const uint32_t b[8]): S = a + b (carry
 * out in r1), the borrow of S - p found by a chain whose differences are dropped, then p
 * subtracted under the mask (carry or no borrow): S < 2p, one subtraction at most. */
	.global fe_p256_add
	.type fe_p256_add, %function
	.thumb_func
	.align 2
fe_p256_add:
	push {r4-r11, lr}
	ldm r1, {r3-r10}
	ldm r2!, {r1, r11, r12, lr}
	adds r3, r3, r1
	adcs r4, r4, r11
	adcs r5, r5, r12
	adcs r6, r6, lr
	ldm r2, {r1, r11, r12, lr}
	adcs r7, r7, r1
	adcs r8, r8, r11
	adcs r9, r9, r12
	adcs r10, r10, lr
	mov r1, #0
	adc r1, r1, #0				@ the carry out of S
	subs r2, r3, #0xffffffff		@ the borrow of S - p
	sbcs r2, r4, #0xffffffff
	sbcs r2, r5, #0xffffffff
	sbcs r2, r6, #0
	sbcs r2, r7, #0
	sbcs r2, r8, #0
	sbcs r2, r9, #1
	sbcs r2, r10, #0xffffffff
	sbc r2, r2, r2				@ all ones when S < p (as 256 bits)
	rsb r1, r1, #0
	orn r2, r1, r2				@ all ones when the carry is set or S >= p
	and r1, r2, #1
	subs r3, r3, r2
	sbcs r4, r4, r2
	sbcs r5, r5, r2
	sbcs r6, r6, #0
	sbcs r7, r7, #0
	sbcs r8, r8, #0
	sbcs r9, r9, r1
	sbc r10, r10, r2
	stm r0, {r3-r10}
	pop {r4-r11, pc}
	.size fe_p256_add, . - fe_p256_add

/* void fe_p256_sub(uint32_t r[8], const uint32_t a[8], const uint32_t b[8]): D = a - b mod 2^256,
 * then p added under the mask of the borrow */
	.global fe_p256_sub
	.type fe_p256_sub, %function
	.thumb_func
	.align 2
fe_p256_sub:
	push {r4-r11, lr}
	ldm r1, {r3-r10}
	ldm r2!, {r1, r11, r12, lr}
	subs r3, r3, r1
	sbcs r4, r4, r11
	sbcs r5, r5, r12
	sbcs r6, r6, lr
	ldm r2, {r1, r11, r12, lr}
	sbcs r7, r7, r1
	sbcs r8, r8, r11
	sbcs r9, r9, r12
	sbcs r10, r10, lr
	sbc r2, r2, r2				@ all ones when a < b
	and r1, r2, #1
	adds r3, r3, r2
	adcs r4, r4, r2
	adcs r5, r5, r2
	adcs r6, r6, #0
	adcs r7, r7, #0
	adcs r8, r8, #0
	adcs r9, r9, r1
	adc r10, r10, r2
	stm r0, {r3-r10}
	pop {r4-r11, pc}
	.size fe_p256_sub, . - fe_p256_sub

/* void fe25519_add(uint32_t r[8], const uint32_t a[8], const uint32_t b[8]): S = a + b + 19 in one
 * UMAAL chain (word i: a_i + b_i * 1 + the carry word, which starts at 19 and stays below 3),
 * below 2p + 19 < 2^256 for canonical a, b. a + b >= p exactly when bit 255 of S is set, and then
 * a + b - p = S - 2^255; else a + b = S - 19. */
	.global fe25519_add
	.type fe25519_add, %function
	.thumb_func
	.align 2
fe25519_add:
	push {r4-r11, lr}
	ldm r1, {r3-r10}			@ a0..a7
	ldm r2!, {r1, r11}			@ b0, b1
	mov r12, #19
	mov lr, #1
	umaal r3, r12, r1, lr			@ r12:r3 = b0 + a0 + 19
	umaal r4, r12, r11, lr
	ldm r2!, {r1, r11}			@ b2, b3
	umaal r5, r12, r1, lr
	umaal r6, r12, r11, lr
	ldm r2!, {r1, r11}			@ b4, b5
	umaal r7, r12, r1, lr
	umaal r8, r12, r11, lr
	ldm r2, {r1, r11}			@ b6, b7
	umaal r9, r12, r1, lr
	umaal r10, r12, r11, lr			@ S, below 2^256: the last carry word is 0
	lsr r1, r10, #31			@ q = bit 255 of S: a + b >= p
	bic r10, r10, #0x80000000		@ S - 2^255 q
	sub r1, r1, #1
	and r1, r1, #19				@ 19 (1 - q)
	subs r3, r3, r1
	sbcs r4, r4, #0
	sbcs r5, r5, #0
	sbcs r6, r6, #0
	sbcs r7, r7, #0
	sbcs r8, r8, #0
	sbcs r9, r9, #0
	sbc r10, r10, #0
	stm r0, {r3-r10}
	pop {r4-r11, pc}
	.size fe25519_add, . - fe25519_add

/* void fe25519_sub(uint32_t r[8], const uint32_t a[8], const uint32_t b[8]): D = a - b mod
 * 2^256; when it borrowed, D + p = D - 19 + 2^255 (mod 2^256), in (0, p) */
	.global fe25519_sub
	.type fe25519_sub, %function
	.thumb_func
	.align 2
fe25519_sub:
	push {r4-r11, lr}
	ldm r1, {r3-r10}
	ldm r2!, {r1, r11, r12, lr}
	subs r3, r3, r1
	sbcs r4, r4, r11
	sbcs r5, r5, r12
	sbcs r6, r6, lr
	ldm r2, {r1, r11, r12, lr}
	sbcs r7, r7, r1
	sbcs r8, r8, r11
	sbcs r9, r9, r12
	sbcs r10, r10, lr
	sbc r1, r1, r1				@ all ones when a < b
	and r11, r1, #19
	subs r3, r3, r11
	sbcs r4, r4, #0
	sbcs r5, r5, #0
	sbcs r6, r6, #0
	sbcs r7, r7, #0
	sbcs r8, r8, #0
	sbcs r9, r9, #0
	sbc r10, r10, #0
	and r1, r1, #0x80000000
	add r10, r10, r1
	stm r0, {r3-r10}
	pop {r4-r11, pc}
	.size fe25519_sub, . - fe25519_sub

/* void fe25519_mul_a24(uint32_t r[8], const uint32_t a[8]): r = 121665 a mod p. One UMAAL per
 * word with a_i as both addend and factor: a_i 121664 + a_i + c = a_i 121665 + c. */
	.global fe25519_mul_a24
	.type fe25519_mul_a24, %function
	.thumb_func
	.align 2
fe25519_mul_a24:
	push {r4-r11, lr}
	ldm r1, {r2-r9}
	movw r12, #(121664 & 0xffff)
	movt r12, #(121664 >> 16)
	mov r10, #0
	umaal r2, r10, r2, r12
	umaal r3, r10, r3, r12
	umaal r4, r10, r4, r12
	umaal r5, r10, r5, r12
	umaal r6, r10, r6, r12
	umaal r7, r10, r7, r12
	umaal r8, r10, r8, r12
	umaal r9, r10, r9, r12
	lsr r11, r9, #31
	orr r10, r11, r10, lsl #1		@ top = 2 c + bit 255, below 2^18
	mov r11, #19
	canon r2, r3, r4, r5, r6, r7, r8, r9, r10, r11, r12
	stm r0, {r2-r9}
	pop {r4-r11, pc}
	.size fe25519_mul_a24, . - fe25519_mul_a24

/* void fe25519_cswap(uint32_t a[8], uint32_t b[8], uint32_t swap): a <-> b when swap is 1. The mask
 * -swap added to itself by UADD8 sets the four GE flags (each byte 0xff + 0xff carries) or clears
 * them (ARM DDI 0403E A7.7.176); SEL then takes each byte from its first operand when its GE flag
 * is set (A7.7.127): a' = GE ? b : a into a free register, b' = GE ? a : b into a's. Four words of
 * each at a time. */
	.global fe25519_cswap
	.type fe25519_cswap, %function
	.thumb_func
	.align 2
fe25519_cswap:
	push {r4-r9}
	rsb r2, r2, #0				@ all ones when swap is 1
	uadd8 r2, r2, r2			@ GE = 1111 or 0000
	.rept 2
	ldm r0!, {r2-r5}
	ldm r1, {r6-r9}
	sel r12, r6, r2				@ a'
	sel r2, r2, r6				@ b'
	sel r6, r7, r3
	sel r3, r3, r7
	sel r7, r8, r4
	sel r4, r4, r8
	sel r8, r9, r5
	sel r5, r5, r9
	stm r1!, {r2-r5}
	str r12, [r0, #-16]
	str r6, [r0, #-12]
	str r7, [r0, #-8]
	str r8, [r0, #-4]
	.endr
	pop {r4-r9}
	bx lr
	.size fe25519_cswap, . - fe25519_cswap
