/* P-256 field arithmetic (p = 2^256 - 2^224 + 2^192 + 2^96 - 1) for ARMv7E-M (Cortex-M4/M7) and
 * ARMv8-M Mainline with the DSP extension (Cortex-M33), hand-written Thumb-2 around UMAAL:
 * (hi:lo) = a*b + lo + hi in one instruction (ARM DDI 0403E A7.7.186; 1 cycle on the Cortex-M4,
 * DDI 0439D Table 3-2). refbench's own code. Two representations, canonical values in [0, p):
 *
 *   fe_p256_mul(r, a, b)     r = a b mod p        (standard form: FIPS 186-4 D.2.3 reduction)
 *   fe_p256_sqr(r, a)        r = a^2 mod p
 *   p256_mont_mul(r, a, b)   r = a b R^-1 mod p   (Montgomery form, R = 2^256)
 *   p256_mont_sqr(r, a)      r = a^2 R^-1 mod p
 *   fe_p256_add(r, a, b)     r = a + b mod p      (either form)
 *   fe_p256_sub(r, a, b)     r = a - b mod p
 *   p256_halve(r, a)         r = a / 2 mod p
 *   p256_select8(out, row, index, words)   the constant-time table read of p256_ct.h
 *   p256_mont_sqr_n(r, a, n) r = a^(2^n) R^(1 - 2^n) mod p: n Montgomery squarings (n >= 1)
 *   p256_negate_if(y, mask)  y = -y mod p where mask is all ones (p256_ct.h's table entries)
 *   p256_jac_double(r, p), p256_jac_add(r, p, q, degenerate),
 *   p256_jac_add_affine(r, p, qxy, degenerate)   p256_ct.h's point formulas
 *
 * The Montgomery form is the one of the fast P-256 libraries (wolfSSL's SP code
 * sp_256_mont_mul_8; E. Lenngren, P256-Cortex-M4): p = -1 mod 2^32, so the REDC quotient digit
 * is the low word itself (n0 = -p^-1 mod 2^32 = 1; HAC 14.32), and q p is shifts: one REDC
 * step on t (low word q) is
 *     t' = (t + q p) / 2^32 = (t >> 32) + q 2^64 + q 2^160 + q (2^32 - 1) 2^192,
 * four additions and no multiplication (done two steps at a time, macro redc2). REDC of the
 * low half T_lo of the 512-bit product is
 * at most p (T_lo < R), so a b R^-1 = T_hi + REDC(T_lo) mod p, below 2p: one masked
 * subtraction of p. No branch or address depends on data: constant time.
 */
	.syntax unified
	.thumb
#if !defined(__ARM_FEATURE_DSP)
	.arch_extension dsp	@ the compilers' cortex-m33 target leaves the DSP extension out
#endif
	.text

/* sub8_regs mask: a - b mod 2^256 and its borrow mask; sqr8_cross coff: the 28 cross products a_i a_j
 * (i < j) of a0..a7 in r2..r9 (words8.inc) */
#include "words8.inc"

/* p256_product8: the 512-bit product of a (r1) and b (r2), after the caller pushed r0 (the result
 * pointer, then at [sp, #52]) and lr, with r4-r11 (the exported functions) or without them (the
 * internal calls of the point formulas below); leaves T0..T11 at [sp, #0..44], T12..T15 in r10,
 * r11, r12, lr; the caller ends with add sp, #56 and its pop. */
	.macro p256_product8
	sub sp, #52				@ T0..T11 at [sp, #0..44], a + 4 words at [sp, #48]
	ldm r1!, {r6-r9}			@ a0..a3; r1 = a + 4 words
	mov r0, r1
	ldm r2, {r1, r3, r4, r5}		@ b0..b3
	str r0, [sp, #48]
@ pass 0: T0..T11 = a0..a3 times b (a column's products in any order: each row has its carry
@ register; a row's last use of b_j comes first where b_j's register takes the next two words
@ by one LDRD, and the loaded words' first use comes last: no load-use stall on the Cortex-M7)
	umull r0, r10, r6, r1		@ column 0: a0 b0 starts row 0
	str r0, [sp, #0]
	umull r0, r11, r7, r1		@ column 1: a1 b0 starts row 1
	umaal r0, r10, r6, r3		@ a0 b1
	str r0, [sp, #4]
	umull r0, r12, r8, r1		@ column 2: a2 b0 starts row 2
	umaal r0, r10, r6, r4		@ a0 b2
	umaal r0, r11, r7, r3		@ a1 b1
	str r0, [sp, #8]
	umull r0, lr, r9, r1		@ column 3: a3 b0 starts row 3
	umaal r0, r10, r6, r5		@ a0 b3
	umaal r0, r11, r7, r4		@ a1 b2
	umaal r0, r12, r8, r3		@ a2 b1
	str r0, [sp, #12]
	mov r0, #0		@ column 4
	umaal r0, lr, r9, r3		@ a3 b1
	ldrd r1, r3, [r2, #16]		@ b4, b5
	umaal r0, r11, r7, r5		@ a1 b3
	umaal r0, r12, r8, r4		@ a2 b2
	umaal r0, r10, r6, r1		@ a0 b4
	str r0, [sp, #16]
	mov r0, #0		@ column 5
	umaal r0, r10, r6, r3		@ a0 b5
	umaal r0, r11, r7, r1		@ a1 b4
	umaal r0, r12, r8, r5		@ a2 b3
	umaal r0, lr, r9, r4		@ a3 b2
	str r0, [sp, #20]
	mov r0, #0		@ column 6
	umaal r0, lr, r9, r5		@ a3 b3
	ldrd r4, r5, [r2, #24]		@ b6, b7
	umaal r0, r11, r7, r3		@ a1 b5
	umaal r0, r12, r8, r1		@ a2 b4
	umaal r0, r10, r6, r4		@ a0 b6
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
@ pass 1: T4..T15 += a4..a7 times b; T12..T15 stay in r10-r12, lr (a row's carry register is
@ zeroed between a store and the next load: a store is not pipelined with a following load, one
@ cycle more, measured by jnk0le, github.com/jnk0le/random, "pipeline cycle test/doc/cortex_m3m4.md")
	mov r10, #0		@ row 0 starts
	ldr r0, [sp, #48]
	ldm r2, {r1, r3, r4, r5}		@ b0..b3 (between the pointer's load and its use)
	ldm r0, {r6-r9}				@ a4..a7
	ldr r0, [sp, #16]		@ column 4: pass 0's word
	umaal r0, r10, r6, r1		@ a4 b0
	str r0, [sp, #16]
	mov r11, #0		@ row 1 starts
	ldr r0, [sp, #20]		@ column 5: pass 0's word
	umaal r0, r10, r6, r3		@ a4 b1
	umaal r0, r11, r7, r1		@ a5 b0
	str r0, [sp, #20]
	mov r12, #0		@ row 2 starts
	ldr r0, [sp, #24]		@ column 6: pass 0's word
	umaal r0, r10, r6, r4		@ a4 b2
	umaal r0, r11, r7, r3		@ a5 b1
	umaal r0, r12, r8, r1		@ a6 b0
	str r0, [sp, #24]
	mov lr, #0		@ row 3 starts
	ldr r0, [sp, #28]		@ column 7: pass 0's word
	umaal r0, r10, r6, r5		@ a4 b3
	umaal r0, r11, r7, r4		@ a5 b2
	umaal r0, r12, r8, r3		@ a6 b1
	umaal r0, lr, r9, r1		@ a7 b0
	str r0, [sp, #28]
	ldr r0, [sp, #32]		@ column 8: pass 0's word
	umaal r0, lr, r9, r3		@ a7 b1
	ldrd r1, r3, [r2, #16]		@ b4, b5
	umaal r0, r11, r7, r5		@ a5 b3
	umaal r0, r12, r8, r4		@ a6 b2
	umaal r0, r10, r6, r1		@ a4 b4
	str r0, [sp, #32]
	ldr r0, [sp, #36]		@ column 9: pass 0's word
	umaal r0, r10, r6, r3		@ a4 b5
	umaal r0, r11, r7, r1		@ a5 b4
	umaal r0, r12, r8, r5		@ a6 b3
	umaal r0, lr, r9, r4		@ a7 b2
	str r0, [sp, #36]
	ldr r0, [sp, #40]		@ column 10: pass 0's word
	umaal r0, lr, r9, r5		@ a7 b3
	ldrd r4, r5, [r2, #24]		@ b6, b7
	umaal r0, r11, r7, r3		@ a5 b5
	umaal r0, r12, r8, r1		@ a6 b4
	umaal r0, r10, r6, r4		@ a4 b6
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
 * r = a b mod p for p = 2^256 - 2^224 + 2^192 + 2^96 - 1. The 512-bit product of p256_product8,
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
	push {r0, r4-r11, lr}			@ r: [sp, #52] below
	p256_product8
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

/* p256_addp_masked m, m1: r3..r10 += p under the mask m (all ones or 0); m1 gets m & 1 */
	.macro p256_addp_masked m, m1
	and \m1, \m, #1
	adds r3, r3, \m
	adcs r4, r4, \m
	adcs r5, r5, \m
	adcs r6, r6, #0
	adcs r7, r7, #0
	adcs r8, r8, #0
	adcs r9, r9, \m1
	adc r10, r10, \m
	.endm

/* p256_reduce_once c, t: r3..r10 + c 2^256 (c in {0, 1}, the value below 2p) mod p: D = the value
 * - p in place (256 bits), c - borrow is -1 when the value was below p (else 0), and p is added
 * back under that mask; c and t change */
	.macro p256_reduce_once c, t
	subs r3, r3, #0xffffffff
	sbcs r4, r4, #0xffffffff
	sbcs r5, r5, #0xffffffff
	sbcs r6, r6, #0
	sbcs r7, r7, #0
	sbcs r8, r8, #0
	sbcs r9, r9, #1
	sbcs r10, r10, #0xffffffff
	sbc \c, \c, #0
	p256_addp_masked \c, \t
	.endm

/* p256_double_regs c: r3..r10 = 2 (r3..r10) mod p (canonical in and out); c changes */
	.macro p256_double_regs c, t
	adds r3, r3, r3
	adcs r4, r4, r4
	adcs r5, r5, r5
	adcs r6, r6, r6
	adcs r7, r7, r7
	adcs r8, r8, r8
	adcs r9, r9, r9
	adcs r10, r10, r10
	mov \c, #0				@ (mov keeps the flags)
	adc \c, \c, #0
	p256_reduce_once \c, \t
	.endm

/* p256_add_body: the body of fe_p256_add (r0 = r, r1 = a, r2 = b; uses r1-r12 and lr), inlined in
 * the point formulas below: S = a + b < 2p, reduced once */
	.macro p256_add_body
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
	p256_reduce_once r1, r2
	stm r0, {r3-r10}
	.endm

/* p256_triple_body: r0 = r, r1 = a: r = 3 a mod p, as (2 a mod p) + a reduced once; uses r1-r12, lr */
	.macro p256_triple_body
	ldm r1, {r3-r10}
	p256_double_regs r2, r11
	ldm r1!, {r2, r11, r12, lr}
	adds r3, r3, r2
	adcs r4, r4, r11
	adcs r5, r5, r12
	adcs r6, r6, lr
	ldm r1, {r2, r11, r12, lr}
	adcs r7, r7, r2
	adcs r8, r8, r11
	adcs r9, r9, r12
	adcs r10, r10, lr
	mov r1, #0
	adc r1, r1, #0
	p256_reduce_once r1, r2
	stm r0, {r3-r10}
	.endm

/* p256_rsub_regs boff: r3..r10 = (the 8 words at sp + boff) - r3..r10 mod p: the difference, then p
 * added under the mask of the borrow; uses r1, r2, r11, r12, lr */
	.macro p256_rsub_regs boff
	add r1, sp, #\boff
	ldm r1!, {r2, r11, r12, lr}
	subs r3, r2, r3
	sbcs r4, r11, r4
	sbcs r5, r12, r5
	sbcs r6, lr, r6
	ldm r1, {r2, r11, r12, lr}
	sbcs r7, r2, r7
	sbcs r8, r11, r8
	sbcs r9, r12, r9
	sbcs r10, lr, r10
	sbc r2, r2, r2				@ all ones when it borrowed
	p256_addp_masked r2, r11
	.endm

/* p256_halve_regs: r3..r10 = r3..r10 / 2 mod p = (a + p (a odd)) / 2, p added under the mask of the
 * low bit, the 257-bit sum shifted right through the carry (RRX); uses r1, r2, r11 */
	.macro p256_halve_regs
	and r2, r3, #1
	rsb r2, r2, #0				@ all ones when odd
	and r11, r2, #1
	mov r1, #0
	adds r3, r3, r2
	adcs r4, r4, r2
	adcs r5, r5, r2
	adcs r6, r6, #0
	adcs r7, r7, #0
	adcs r8, r8, #0
	adcs r9, r9, r11
	adcs r10, r10, r2
	adc r1, r1, #0				@ bit 256
	lsrs r1, r1, #1				@ into C
	rrxs r10, r10
	rrxs r9, r9
	rrxs r8, r8
	rrxs r7, r7
	rrxs r6, r6
	rrxs r5, r5
	rrxs r4, r4
	rrx r3, r3
	.endm

/* p256_degenerate doff, hoff, roff: when the pointer at [sp, #doff] is not null (a public choice of
 * the caller), it gets all ones when the values at sp + hoff and sp + roff (H and R, canonical) are
 * both 0, else 0 (the OR of their words, masked without a branch); then at 1: */
	.macro p256_degenerate doff, hoff, roff
	ldr r0, [sp, #\doff]
	cmp r0, #0
	beq 1f					@ the caller's public choice
	add r1, sp, #\hoff
	ldm r1, {r2-r9}				@ H
	orr r2, r2, r3
	orr r4, r4, r5
	orr r6, r6, r7
	orr r8, r8, r9
	orr r2, r2, r4
	orr r6, r6, r8
	orr r12, r2, r6
	add r1, sp, #\roff
	ldm r1, {r2-r9}				@ R
	orr r2, r2, r3
	orr r4, r4, r5
	orr r6, r6, r7
	orr r8, r8, r9
	orr r2, r2, r4
	orr r6, r6, r8
	orr r12, r12, r2
	orr r12, r12, r6			@ 0 exactly when H = R = 0
	rsb r1, r12, #0
	orr r1, r1, r12
	lsr r1, r1, #31				@ 1 unless 0
	sub r1, r1, #1				@ all ones when H = R = 0
	str r1, [r0]
1:
	.endm

/* p256_sub_regs boff: r3..r10 = r3..r10 - (the 8 words at sp + boff) mod p; uses r1, r2, r11, r12, lr */
	.macro p256_sub_regs boff
	add r1, sp, #\boff
	ldm r1!, {r2, r11, r12, lr}
	subs r3, r3, r2
	sbcs r4, r4, r11
	sbcs r5, r5, r12
	sbcs r6, r6, lr
	ldm r1, {r2, r11, r12, lr}
	sbcs r7, r7, r2
	sbcs r8, r8, r11
	sbcs r9, r9, r12
	sbcs r10, r10, lr
	sbc r2, r2, r2				@ all ones when it borrowed
	p256_addp_masked r2, r11
	.endm

/* p256_x3_body aoff, boff, roff: the X3 step of both point formulas, for a and b at sp + aoff and
 * sp + boff and the point r's pointer at [sp, #roff]: X3 = b - 2 a, stored to r's x, then b = a -
 * X3 (X3 kept in registers between the two) */
	.macro p256_x3_body aoff, boff, roff
	add r1, sp, #\aoff
	ldm r1, {r3-r10}
	p256_double_regs r2, r11
	p256_rsub_regs \boff
	ldr r0, [sp, #\roff]
	stm r0, {r3-r10}
	p256_rsub_regs \aoff
	add r0, sp, #\boff
	stm r0, {r3-r10}
	.endm

/* void fe_p256_add(uint32_t r[8], const uint32_t a[8], const uint32_t b[8]): S = a + b (carry
 * out in r1), the borrow of S - p found by a chain whose differences are dropped, then p
 * subtracted under the mask (carry or no borrow): S < 2p, one subtraction at most. */
	.global fe_p256_add
	.type fe_p256_add, %function
	.thumb_func
	.align 2
fe_p256_add:
	push {r4-r11, lr}
	p256_add_body
	pop {r4-r11, pc}
	.size fe_p256_add, . - fe_p256_add

/* p256_sub_body: the body of fe_p256_sub (r0 = r, r1 = a, r2 = b; uses r1-r12 and lr), inlined in the point formulas below */
	.macro p256_sub_body
	sub8_regs r2				@ r3..r10 = a - b mod 2^256; r2 = all ones when a < b (words8.inc)
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
	.endm

/* void fe_p256_sub(uint32_t r[8], const uint32_t a[8], const uint32_t b[8]): D = a - b mod 2^256,
 * then p added under the mask of the borrow */
	.global fe_p256_sub
	.type fe_p256_sub, %function
	.thumb_func
	.align 2
fe_p256_sub:
	push {r4-r11, lr}
	p256_sub_body
	pop {r4-r11, pc}
	.size fe_p256_sub, . - fe_p256_sub


/* redc2 q0, q1, w3, w4, w5, w6, w7, k, f1, f2, f3: two REDC steps at once on the window q0, q1,
 * w2..w7 (w2 unchanged) and the top word k in {0, 1}, Q = q1:q0 (the next two quotient digits:
 * the low two words, n0 = 1): t'' = (t + Q p) / 2^64 = (t >> 64) + Q 2^32 + F 2^128, where
 * F 2^128 = Q 2^128 + Q (2^32 - 1) 2^160, i.e. F = Q (2^64 - 2^32 + 1), four words (f0 = q0,
 * f1 = q1 - q0, f2 = q0 - q1, f3 = q1, with the borrows). The new window is w2..w7, k,
 * f3 (the word that enters), its top word the carry out, in q0's register; t < 2R throughout
 * (t'' < 2R / 2^64 + p). */
	.macro redc2 q0, q1, w3, w4, w5, w6, w7, k, f1, f2, f3
	subs \f1, \q1, \q0
	sbcs \f2, \q0, \q1
	sbc \f3, \q1, #0
	adds \w3, \w3, \q0			@ + Q 2^32
	adcs \w4, \w4, \q1
	adcs \w5, \w5, #0
	adcs \w6, \w6, \q0			@ + F 2^128
	adcs \w7, \w7, \f1
	adcs \k, \k, \f2
	adcs \f3, \f3, #0
	mov \q0, #0				@ (mov keeps the flags)
	adc \q0, \q0, #0			@ the new top word
	.endm

/* mont_tail internal: the frame of p256_product8 (T0..T11 at [sp, #0..44], r at [sp, #52], T12..T15
 * in r10, r11, r12, lr): V = REDC(T0..T7) by four double steps (the window rotating through the
 * registers), then S = T_hi + V < 2p; D = S - p in place, and p added back under the mask of
 * (S < p) (the carry of S minus the borrow of D: 0 or -1), stored. The frame is dropped: with
 * internal = 0 (an exported function) the caller pops r4-r11 and pc, with internal = 1 (r0 and lr
 * pushed only) the tail returns by BX from lr loaded early (a pipelined load, ARM DDI 0439D
 * 3.3.3) instead of a POP {pc} after the stores. */
	.macro mont_tail internal
	ldm sp, {r0-r7}				@ T0..T7
	stm sp, {r10, r11, r12, lr}		@ T12..T15 to [sp, #0..12]
	add r12, sp, #32			@ T8..T11 (here: no interlock on r12 where it is used)
	mov r8, #0
	redc2 r0, r1, r3, r4, r5, r6, r7, r8, r9, r10, r11
	redc2 r2, r3, r5, r6, r7, r8, r11, r0, r1, r9, r10
	redc2 r4, r5, r7, r8, r11, r0, r10, r2, r3, r1, r9
@ the last double step: its carry out is 0 (REDC(T_lo) <= p < 2^256)
	subs r5, r7, r6
	sbcs r3, r6, r7
	sbc r1, r7, #0
	adds r11, r11, r6
	adcs r0, r0, r7
	adcs r10, r10, #0
	adcs r2, r2, r6
	adcs r9, r9, r5
	adcs r4, r4, r3
	adc r1, r1, #0
@ V = r8, r11, r0, r10, r2, r9, r4, r1; S = V + T8..T15, carry in r3
	ldm r12, {r3, r5, r6, r7}		@ T8..T11
	adds r8, r8, r3
	adcs r11, r11, r5
	adcs r0, r0, r6
	adcs r10, r10, r7
	ldm sp, {r3, r5, r6, r7}		@ T12..T15
	ldr r12, [sp, #52]			@ r
	.if \internal
	ldr lr, [sp, #56]			@ the return address
	.endif
	adcs r2, r2, r3
	adcs r9, r9, r5
	adcs r4, r4, r6
	adcs r1, r1, r7
	mov r3, #0
	adc r3, r3, #0				@ the carry of S
@ D = S - p (as 256 bits), the mask c - borrow: -1 when S < p, else 0; then p added under it
	subs r8, r8, #0xffffffff
	sbcs r11, r11, #0xffffffff
	sbcs r0, r0, #0xffffffff
	sbcs r10, r10, #0
	sbcs r2, r2, #0
	sbcs r9, r9, #0
	sbcs r4, r4, #1
	sbcs r1, r1, #0xffffffff
	sbc r3, r3, #0				@ -1 when S < p, else 0
	and r6, r3, #1
	adds r8, r8, r3
	adcs r11, r11, r3
	adcs r0, r0, r3
	adcs r10, r10, #0
	adcs r2, r2, #0
	adcs r9, r9, #0
	adcs r4, r4, r6
	adc r1, r1, r3
	.if \internal
	add sp, #60
	.else
	add sp, #56				@ here, not before the pop: no interlock on sp
	.endif
	str r8, [r12, #0]
	str r11, [r12, #4]
	str r0, [r12, #8]
	str r10, [r12, #12]
	str r2, [r12, #16]
	str r9, [r12, #20]
	str r4, [r12, #24]
	str r1, [r12, #28]
	.if \internal
	bx lr
	.endif
	.endm

/* sqr_hi_step cur, prev, coff, aoff, op, acc: one word j (8..14) of the high half of a^2 in
 * sqr_tail: cur = C_j from [sp, #coff]; T_j = ((C_j << 1) | (C_j-1 >> 31)) + a_i^2 + k by one
 * UMAAL (r6 = T_j, lr = k, the carry word), a_i = the word at [r12, #aoff] for even j, none (0) for
 * odd j (aoff left blank); then acc op= T_j (op: ADDS for the first word, ADCS after: the one
 * carry chain of S = V + T_hi). r7 clobbered; prev holds C_j-1. */
	.macro sqr_hi_step cur, prev, coff, aoff, op, acc
	ldr \cur, [sp, #\coff]
	.ifb \aoff
	mov r7, #0
	.else
	ldr r7, [r12, #\aoff]
	.endif
	lsl r6, \cur, #1
	orr r6, r6, \prev, lsr #31
	umaal r6, lr, r7, r7
	\op \acc, \acc, r6
	.endm

/* p256_square8: the cross products C = sum over i < j of a_i a_j 2^(32(i+j)) of a (r1) (28 UMAALs
 * in rows with their own carry registers), after the caller pushed r0 (the result pointer, at
 * [sp, #68] below) and lr, with or without r4-r11; leaves C8..C11 at [sp, #0..12], C1..C7 at
 * [sp, #20..44], C12..C14 at [sp, #48..56], the pointer a at [sp, #64]; a0..a3 in r2..r5.
 * Then sqr_tail. */
	.macro p256_square8
	sub sp, #68				@ C8..C11 at [sp, #0..12], C1..C7 at [sp, #20..44], C12..C14 at [sp, #48..56], a at [sp, #64]
	ldm r1, {r2-r9}				@ a0..a7
	str r1, [sp, #64]
	sqr8_cross 20				@ C1..C7 at [sp, #20..44]; C8..C14 in r10, r11, r12, lr, r0, r1, r6 (words8.inc)
	strd r0, r1, [sp, #48]			@ C12, C13
	str r6, [sp, #56]			@ C14
	stm sp, {r10, r11, r12, lr}		@ C8..C11
	.endm

/* sqr_tail internal: a^2 R^-1 mod p from the frame of p256_square8. a^2 = T = 2C + D for the
 * squares D = sum a_i^2 2^(64i). The low half T0..T7 in r0..r7: 2C by one ADCS chain and a_i^2
 * entering each word pair by UMAAL with the pair carry k (the odd word's by UMAAL with 0 x 0);
 * V = REDC(T0..T7) at once (mont_tail's four double steps, T never stored); then the high half
 * word by word with 2C's words as (C_j << 1) | (C_j-1 >> 31) (no flags, so the one ADCS chain
 * adds T8..T15 to V as they come: S = V + T_hi < 2p), the squares and k by UMAAL as before; D
 * = S - p, p added back under the mask, stored. The frame is dropped; internal as mont_tail's. */
	.macro sqr_tail internal
	mov r10, r2				@ a0..a3
	mov r11, r3
	mov r12, r4
	mov lr, r5
	add r0, sp, #20
	ldm r0, {r1-r7}				@ C1..C7
	umull r0, r8, r10, r10			@ T0, k: a0^2
	mov r9, #0
	adds r1, r1, r1				@ T1 = 2 C1 + k
	umaal r1, r8, r9, r9
	adcs r2, r2, r2				@ T2 = 2 C2 + a1^2 + k
	umaal r2, r8, r11, r11
	adcs r3, r3, r3
	umaal r3, r8, r9, r9
	adcs r4, r4, r4
	umaal r4, r8, r12, r12
	adcs r5, r5, r5
	umaal r5, r8, r9, r9
	adcs r6, r6, r6
	umaal r6, r8, lr, lr
	adcs r7, r7, r7
	umaal r7, r8, r9, r9			@ T7 (the doubling's carry out is C7's top bit, used below)
	mov lr, r8				@ k
	mov r8, #0
	redc2 r0, r1, r3, r4, r5, r6, r7, r8, r9, r10, r11
	redc2 r2, r3, r5, r6, r7, r8, r11, r0, r1, r9, r10
	redc2 r4, r5, r7, r8, r11, r0, r10, r2, r3, r1, r9
	subs r5, r7, r6				@ the last double step (carry out 0)
	sbcs r3, r6, r7
	sbc r1, r7, #0
	adds r11, r11, r6
	adcs r0, r0, r7
	adcs r10, r10, #0
	adcs r2, r2, r6
	adcs r9, r9, r5
	adcs r4, r4, r3
	adc r1, r1, #0
@ V = r8, r11, r0, r10, r2, r9, r4, r1; k in lr; C_j-1 and C_j in r3, r5 (alternately), 2C's word
@ and T_j in r6, a_i (even j) or 0 (odd j) in r7, the pointer a in r12
	ldr r12, [sp, #64]
	ldr r3, [sp, #44]			@ C7
	sqr_hi_step r5, r3, 0, 16, adds, r8	@ C8, T8 (a4)
	sqr_hi_step r3, r5, 4, , adcs, r11	@ C9, T9
	sqr_hi_step r5, r3, 8, 20, adcs, r0	@ C10, T10 (a5)
	sqr_hi_step r3, r5, 12, , adcs, r10	@ C11, T11
	sqr_hi_step r5, r3, 48, 24, adcs, r2	@ C12, T12 (a6)
	sqr_hi_step r3, r5, 52, , adcs, r9	@ C13, T13
	sqr_hi_step r5, r3, 56, 28, adcs, r4	@ C14, T14 (a7)
	lsr r6, r5, #31				@ T15 = (C14 >> 31) + k (no carry out: a^2 < 2^512)
	add r6, r6, lr
	adcs r1, r1, r6
	ldr r12, [sp, #68]			@ r
	.if \internal
	ldr lr, [sp, #72]			@ the return address
	.endif
	mov r3, #0
	adc r3, r3, #0				@ the carry of S
	subs r8, r8, #0xffffffff
	sbcs r11, r11, #0xffffffff
	sbcs r0, r0, #0xffffffff
	sbcs r10, r10, #0
	sbcs r2, r2, #0
	sbcs r9, r9, #0
	sbcs r4, r4, #1
	sbcs r1, r1, #0xffffffff
	sbc r3, r3, #0				@ -1 when S < p, else 0
	and r6, r3, #1
	adds r8, r8, r3
	adcs r11, r11, r3
	adcs r0, r0, r3
	adcs r10, r10, #0
	adcs r2, r2, #0
	adcs r9, r9, #0
	adcs r4, r4, r6
	adc r1, r1, r3
	.if \internal
	add sp, #76
	.else
	add sp, #72
	.endif
	str r8, [r12, #0]
	str r11, [r12, #4]
	str r0, [r12, #8]
	str r10, [r12, #12]
	str r2, [r12, #16]
	str r9, [r12, #20]
	str r4, [r12, #24]
	str r1, [r12, #28]
	.if \internal
	bx lr
	.endif
	.endm

/* void p256_mont_mul(uint32_t r[8], const uint32_t a[8], const uint32_t b[8]): the product of
 * p256_product8 (two passes of four rows), then mont_tail. */
	.global p256_mont_mul
	.type p256_mont_mul, %function
	.thumb_func
	.align 2
p256_mont_mul:
	push {r0, r4-r11, lr}			@ r: [sp, #52] below
	p256_product8
	mont_tail 0
	pop {r4-r11, pc}
	.size p256_mont_mul, . - p256_mont_mul

/* void p256_mont_sqr(uint32_t r[8], const uint32_t a[8]): the cross products of p256_square8, then
 * sqr_tail (the low half of a^2 reduced by REDC before the high half is formed and added). */
	.global p256_mont_sqr
	.type p256_mont_sqr, %function
	.thumb_func
	.align 2
p256_mont_sqr:
	push {r0, r4-r11, lr}			@ r: [sp, #52] below
	p256_square8
	sqr_tail 0
	pop {r4-r11, pc}
	.size p256_mont_sqr, . - p256_mont_sqr

/* void p256_select8(uint32_t *out, const uint32_t *row, uint32_t index, uint32_t words): out = the
 * entry index (0..7) of the 8 entries of words words each (a multiple of 8) at row, reading every
 * entry, eight words of out at a time held in r4-r11. The index becomes one bit, 2^31 >> index
 * (LSR by a register: one cycle whatever the count, ARM DDI 0439D Table 3-1); per entry the bit
 * on top, spread by ASR #31, is the mask, which UADD8 puts into the GE flags, and SEL takes each
 * byte of the entry or keeps the accumulator's (ARM DDI 0403E A7.7.112 SEL, A7.7.176 UADD8); the
 * bits then move up by one. The 8 entries unrolled. */
	.global p256_select8
	.type p256_select8, %function
	.thumb_func
	.align 2
p256_select8:
	push {r4-r11, lr}
	lsl r3, r3, #2				@ the entry stride in bytes
	mov r12, #0x80000000
	lsr r12, r12, r2			@ the index's bit
	add r2, r0, r3				@ the end of out
	push {r0, r1, r2, r12}			@ out, row (these eight words), end, bit
1:	ldr r2, [sp, #12]
	ldr lr, [sp, #4]
	mov r4, #0
	mov r5, #0
	mov r6, #0
	mov r7, #0
	mov r8, #0
	mov r9, #0
	mov r10, #0
	mov r11, #0
	.rept 8
	asr r12, r2, #31			@ all ones for the entry at the index
	uadd8 r12, r12, r12			@ GE = the mask's bytes
	lsl r2, r2, #1
	ldm lr, {r0, r1, r12}
	sel r4, r0, r4
	sel r5, r1, r5
	sel r6, r12, r6
	ldrd r0, r1, [lr, #12]
	sel r7, r0, r7
	sel r8, r1, r8
	ldrd r0, r1, [lr, #20]
	sel r9, r0, r9
	sel r10, r1, r10
	ldr r0, [lr, #28]
	sel r11, r0, r11
	add lr, lr, r3
	.endr
	ldr r0, [sp]
	stm r0!, {r4-r11}
	ldrd r1, r12, [sp, #4]			@ row, end
	add r1, r1, #32				@ the next eight words of every entry
	strd r0, r1, [sp]
	cmp r0, r12
	bne 1b
	add sp, #16
	pop {r4-r11, pc}
	.size p256_select8, . - p256_select8

/* p256_halve_body: the body of p256_halve (r0 = r, r1 = a; uses r1-r9, r12 and lr), inlined in the point formulas below */
	.macro p256_halve_body
	ldm r1, {r2-r9}
	and r12, r2, #1
	rsb r12, r12, #0			@ all ones when a is odd
	and lr, r12, #1
	mov r1, #0
	adds r2, r2, r12
	adcs r3, r3, r12
	adcs r4, r4, r12
	adcs r5, r5, #0
	adcs r6, r6, #0
	adcs r7, r7, #0
	adcs r8, r8, lr
	adcs r9, r9, r12
	adc r1, r1, #0				@ bit 256
	lsrs r1, r1, #1				@ into C
	rrxs r9, r9
	rrxs r8, r8
	rrxs r7, r7
	rrxs r6, r6
	rrxs r5, r5
	rrxs r4, r4
	rrxs r3, r3
	rrx r2, r2
	stm r0, {r2-r9}
	.endm

/* void p256_halve(uint32_t r[8], const uint32_t a[8]): r = a / 2 mod p = (a + p (a odd)) / 2, p
 * added under the mask of the low bit, the 257-bit sum shifted right through the carry (RRX). */
	.global p256_halve
	.type p256_halve, %function
	.thumb_func
	.align 2
p256_halve:
	push {r4-r9, lr}
	p256_halve_body
	pop {r4-r9, pc}
	.size p256_halve, . - p256_halve

/* p256_mm_i, p256_ms_i: p256_mont_mul and p256_mont_sqr for the point formulas below, which save
 * r4-r11 once for all their calls: r0 = r, r1 = a (r2 = b); every register but sp changes. */
	.type p256_mm_i, %function
	.thumb_func
	.align 2
p256_mm_i:
	push {r0, lr}				@ r: [sp, #52] below
	p256_product8
	mont_tail 1
	.size p256_mm_i, . - p256_mm_i

	.type p256_ms_i, %function
	.thumb_func
	.align 2
p256_ms_i:
	push {r0, lr}				@ r: [sp, #52] below
	p256_square8
	sqr_tail 1
	.size p256_ms_i, . - p256_ms_i

/* void p256_jac_double(p256m_jac *r, const p256m_jac *p): 2P in Jacobian coordinates, Montgomery
 * form (x, y, z: 8 words each), r may be p: p256_ct.h's dbl-2004-hmv for a = -3 (Hankerson,
 * Menezes, Vanstone, Guide to Elliptic Curve Cryptography, Springer 2004, Algorithm 3.21; 4M + 4S)
 * in the same order, with the additions, subtractions and the halving inlined (3 alpha' by
 * p256_triple_body, X3 and t3 - X3 by p256_x3_body, the halving of 16 Y1^4 where Y3 uses it)
 * and the products by the internal calls. Frame: t1, t2, t3, y at [sp, #0, #32, #64, #96], r and
 * p at [sp, #128, #132]. */
	.global p256_jac_double
	.type p256_jac_double, %function
	.thumb_func
	.align 2
p256_jac_double:
	push {r4-r11, lr}
	sub sp, #136
	strd r0, r1, [sp, #128]
	mov r0, sp				@ t1 = Z1^2
	add r1, r1, #64
	bl p256_ms_i
	add r0, sp, #32				@ t2 = X1 - t1
	ldr r1, [sp, #132]
	mov r2, sp
	p256_sub_body
	mov r0, sp				@ t1 = X1 + t1
	ldr r1, [sp, #132]
	mov r2, sp
	p256_add_body
	add r0, sp, #32				@ t2 = t2 t1
	add r1, sp, #32
	mov r2, sp
	bl p256_mm_i
	add r0, sp, #32				@ t2 = alpha = 3 t2 = 3 (X1 - Z1^2)(X1 + Z1^2)
	add r1, sp, #32
	p256_triple_body
	ldr r1, [sp, #132]			@ y = 2 Y1
	add r1, r1, #32
	ldm r1, {r3-r10}
	p256_double_regs r2, r11
	add r0, sp, #96
	stm r0, {r3-r10}
	ldr r0, [sp, #128]			@ Z3 = y Z1
	add r0, r0, #64
	add r1, sp, #96
	ldr r2, [sp, #132]
	add r2, r2, #64
	bl p256_mm_i
	add r0, sp, #96				@ y = 4 Y1^2
	add r1, sp, #96
	bl p256_ms_i
	add r0, sp, #64				@ t3 = 4 X1 Y1^2
	add r1, sp, #96
	ldr r2, [sp, #132]
	bl p256_mm_i
	add r0, sp, #96				@ y = 16 Y1^4 (halved where it is used)
	add r1, sp, #96
	bl p256_ms_i
	mov r0, sp				@ t1 = alpha^2
	add r1, sp, #32
	bl p256_ms_i
	p256_x3_body 64, 0, 128			@ X3 = t1 - 2 t3 = alpha^2 - 8 X1 Y1^2, t1 = t3 - X3
	mov r0, sp				@ t1 = t1 alpha
	mov r1, sp
	add r2, sp, #32
	bl p256_mm_i
	add r1, sp, #96				@ Y3 = t1 - y / 2 = alpha (4 X1 Y1^2 - X3) - 8 Y1^4
	ldm r1, {r3-r10}
	p256_halve_regs
	p256_rsub_regs 0
	ldr r0, [sp, #128]
	add r0, r0, #32
	stm r0, {r3-r10}
	add sp, #136
	pop {r4-r11, pc}
	.size p256_jac_double, . - p256_jac_double

/* void p256_jac_add(p256m_jac *r, const p256m_jac *p, const p256m_jac *q, uint32_t *degenerate):
 * P + Q in Jacobian coordinates, Montgomery form, r may be p or q: p256_ct.h's add-1998-cmo-2
 * (Cohen, Miyaji, Ono, ASIACRYPT 1998; 12M + 4S) in the same order, additions and subtractions
 * inlined (X3 and V - X3 by p256_x3_body), products by the internal calls; P = Q is not handled: when degenerate is not null (a
 * public choice of the caller) *degenerate = all ones when H = R = 0, else 0. Frame: z1z1, z2z2,
 * u1, u2, s1, s2, h, hh, hhh, rr, v, t at [sp, #0, #32, ..., #352], r, p, q, degenerate at
 * [sp, #384..396]. */
	.global p256_jac_add
	.type p256_jac_add, %function
	.thumb_func
	.align 2
p256_jac_add:
	push {r4-r11, lr}
	sub sp, #400
	add r12, sp, #384
	stm r12, {r0-r3}
	mov r0, sp				@ z1z1 = Z1^2
	add r1, r1, #64
	bl p256_ms_i
	add r0, sp, #32				@ z2z2 = Z2^2
	ldr r1, [sp, #392]
	add r1, r1, #64
	bl p256_ms_i
	add r0, sp, #64				@ u1 = X1 z2z2
	ldr r1, [sp, #388]
	add r2, sp, #32
	bl p256_mm_i
	add r0, sp, #96				@ u2 = X2 z1z1
	ldr r1, [sp, #392]
	mov r2, sp
	bl p256_mm_i
	add r0, sp, #352			@ t = Y1 Z2
	ldr r1, [sp, #388]
	add r1, r1, #32
	ldr r2, [sp, #392]
	add r2, r2, #64
	bl p256_mm_i
	add r0, sp, #128			@ s1 = t z2z2 = Y1 Z2^3
	add r1, sp, #352
	add r2, sp, #32
	bl p256_mm_i
	add r0, sp, #352			@ t = Y2 Z1
	ldr r1, [sp, #392]
	add r1, r1, #32
	ldr r2, [sp, #388]
	add r2, r2, #64
	bl p256_mm_i
	add r0, sp, #160			@ s2 = t z1z1 = Y2 Z1^3
	add r1, sp, #352
	mov r2, sp
	bl p256_mm_i
	add r0, sp, #192			@ h = u2 - u1
	add r1, sp, #96
	add r2, sp, #64
	p256_sub_body
	add r0, sp, #288			@ rr = s2 - s1
	add r1, sp, #160
	add r2, sp, #128
	p256_sub_body
	p256_degenerate 396, 192, 288
	add r0, sp, #224			@ hh = h^2
	add r1, sp, #192
	bl p256_ms_i
	add r0, sp, #256			@ hhh = h hh
	add r1, sp, #192
	add r2, sp, #224
	bl p256_mm_i
	add r0, sp, #320			@ v = u1 hh
	add r1, sp, #64
	add r2, sp, #224
	bl p256_mm_i
	add r0, sp, #352			@ t = Z1 Z2
	ldr r1, [sp, #388]
	add r1, r1, #64
	ldr r2, [sp, #392]
	add r2, r2, #64
	bl p256_mm_i
	ldr r0, [sp, #384]			@ Z3 = t h
	add r0, r0, #64
	add r1, sp, #352
	add r2, sp, #192
	bl p256_mm_i
	add r0, sp, #352			@ t = rr^2
	add r1, sp, #288
	bl p256_ms_i
	add r0, sp, #352			@ t = t - hhh
	add r1, sp, #352
	add r2, sp, #256
	p256_sub_body
	p256_x3_body 320, 352, 384		@ X3 = t - 2 v = R^2 - H^3 - 2 V, t = v - X3
	add r0, sp, #352			@ t = rr t
	add r1, sp, #288
	add r2, sp, #352
	bl p256_mm_i
	add r0, sp, #96				@ u2 = s1 hhh
	add r1, sp, #128
	add r2, sp, #256
	bl p256_mm_i
	ldr r0, [sp, #384]			@ Y3 = t - u2 = R (V - X3) - S1 H^3
	add r0, r0, #32
	add r1, sp, #352
	add r2, sp, #96
	p256_sub_body
	add sp, #400
	pop {r4-r11, pc}
	.size p256_jac_add, . - p256_jac_add

/* void p256_mont_sqr_n(uint32_t r[8], const uint32_t a[8], uint32_t n): n >= 1 Montgomery squarings,
 * r = a, then r = r^2 R^-1 n times, by the internal calls (the loop count n is public: the fixed
 * addition chain of the inversion in p256_ct.h). */
	.global p256_mont_sqr_n
	.type p256_mont_sqr_n, %function
	.thumb_func
	.align 2
p256_mont_sqr_n:
	push {r4-r11, lr}
	push {r0, r2}				@ r, n
	bl p256_ms_i				@ r = a^2
1:	ldr r2, [sp, #4]
	subs r2, r2, #1
	beq 2f
	str r2, [sp, #4]
	ldr r0, [sp]
	mov r1, r0
	bl p256_ms_i
	b 1b
2:	add sp, #8
	pop {r4-r11, pc}
	.size p256_mont_sqr_n, . - p256_mont_sqr_n

/* void p256_jac_add_affine(p256m_jac *r, const p256m_jac *p, const uint32_t qxy[16], uint32_t
 * *degenerate): P + Q for Q affine (x then y), Montgomery form, r may be p: p256_ct.h's
 * madd-2004-hmv (Hankerson, Menezes, Vanstone, Guide to Elliptic Curve Cryptography, Springer
 * 2004, Algorithm 3.22; 8M + 3S) in the same order, additions and subtractions inlined (X3 =
 * R^2 - 2 X1 H^2 - H^3 and X1 H^2 - X3 with the values in registers), products by the internal
 * calls; no check for P = +-Q, *degenerate as p256_jac_add's. Frame: t1..t5 at [sp, #0, #32,
 * ..., #128], r, p, q, degenerate at [sp, #160..172]. */
	.global p256_jac_add_affine
	.type p256_jac_add_affine, %function
	.thumb_func
	.align 2
p256_jac_add_affine:
	push {r4-r11, lr}
	sub sp, #176
	add r12, sp, #160
	stm r12, {r0-r3}
	mov r0, sp				@ t1 = Z1^2
	add r1, r1, #64
	bl p256_ms_i
	add r0, sp, #32				@ t2 = t1 Z1 = Z1^3
	mov r1, sp
	ldr r2, [sp, #164]
	add r2, r2, #64
	bl p256_mm_i
	mov r0, sp				@ t1 = t1 X2
	mov r1, sp
	ldr r2, [sp, #168]
	bl p256_mm_i
	add r0, sp, #32				@ t2 = t2 Y2
	add r1, sp, #32
	ldr r2, [sp, #168]
	add r2, r2, #32
	bl p256_mm_i
	mov r0, sp				@ t1 = H = t1 - X1
	mov r1, sp
	ldr r2, [sp, #164]
	p256_sub_body
	add r0, sp, #32				@ t2 = R = t2 - Y1
	add r1, sp, #32
	ldr r2, [sp, #164]
	add r2, r2, #32
	p256_sub_body
	p256_degenerate 172, 0, 32
	ldr r0, [sp, #160]			@ Z3 = Z1 H
	add r0, r0, #64
	ldr r1, [sp, #164]
	add r1, r1, #64
	mov r2, sp
	bl p256_mm_i
	add r0, sp, #96				@ t4 = H^2
	mov r1, sp
	bl p256_ms_i
	add r0, sp, #64				@ t3 = t4 H = H^3
	add r1, sp, #96
	mov r2, sp
	bl p256_mm_i
	add r0, sp, #96				@ t4 = t4 X1 = X1 H^2
	add r1, sp, #96
	ldr r2, [sp, #164]
	bl p256_mm_i
	add r0, sp, #128			@ t5 = R^2
	add r1, sp, #32
	bl p256_ms_i
	add r1, sp, #96				@ X3 = t5 - 2 t4 - t3
	ldm r1, {r3-r10}
	p256_double_regs r2, r11
	p256_rsub_regs 128
	p256_sub_regs 64
	ldr r0, [sp, #160]
	stm r0, {r3-r10}
	p256_rsub_regs 96			@ t4 = t4 - X3
	add r0, sp, #96
	stm r0, {r3-r10}
	add r0, sp, #96				@ t4 = t4 R
	add r1, sp, #96
	add r2, sp, #32
	bl p256_mm_i
	add r0, sp, #64				@ t3 = t3 Y1
	add r1, sp, #64
	ldr r2, [sp, #164]
	add r2, r2, #32
	bl p256_mm_i
	ldr r0, [sp, #160]			@ Y3 = t4 - t3 = R (X1 H^2 - X3) - Y1 H^3
	add r0, r0, #32
	add r1, sp, #96
	add r2, sp, #64
	p256_sub_body
	add sp, #176
	pop {r4-r11, pc}
	.size p256_jac_add_affine, . - p256_jac_add_affine

/* void p256_negate_if(uint32_t y[8], uint32_t mask): y = -y mod p (canonical: p - y, and 0 for 0)
 * where mask is all ones, else y unchanged, without a branch: the mask limited to y != 0 (the OR
 * of the words, its sign spread from x | -x), then p - y = ~y + p + 1 mod 2^256 as (y XOR m) +
 * ((p + 1) AND m); p + 1's words are 0, 0, 0, 1, 0, 0, 1, 2^32 - 1. */
	.global p256_negate_if
	.type p256_negate_if, %function
	.thumb_func
	.align 2
p256_negate_if:
	push {r4-r9, lr}
	ldm r0, {r2-r9}
	orr r12, r2, r3
	orr r12, r12, r4
	orr r12, r12, r5
	orr r12, r12, r6
	orr r12, r12, r7
	orr r12, r12, r8
	orr r12, r12, r9
	rsb lr, r12, #0
	orr r12, r12, lr
	and r1, r1, r12, asr #31		@ the mask, 0 when y = 0
	eor r2, r2, r1
	eor r3, r3, r1
	eor r4, r4, r1
	eor r5, r5, r1
	eor r6, r6, r1
	eor r7, r7, r1
	eor r8, r8, r1
	eor r9, r9, r1
	and r12, r1, #1
	adds r5, r5, r12
	adcs r6, r6, #0
	adcs r7, r7, #0
	adcs r8, r8, r12
	adc r9, r9, r1
	stm r0, {r2-r9}
	pop {r4-r9, pc}
	.size p256_negate_if, . - p256_negate_if
