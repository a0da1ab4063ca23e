/* Montgomery multiplication modulo the P-256 group order n (FIPS 186-4 D.1.2.3), r = a b R^-1 mod n
 * with R = 2^256, for ARMv7E-M (Cortex-M4/M7) and ARMv8-M Mainline with the DSP extension
 * (Cortex-M33), hand-written Thumb-2 around UMAAL: (hi:lo) = a*b + lo + hi in one instruction
 * (ARM DDI 0403E A7.7.186). refbench's own code; the contract of p256_order.h:
 *
 *   p256_order_mul(r, a, b)   r = a b R^-1 mod n   (a, b < n; r in [0, n); r may be a or b)
 *   p256_order_sqr(r, a)      r = a^2 R^-1 mod n   (the same product with b = a)
 *
 * 1. The 512-bit product T = a b by operand scanning (HAC 14.12) in two passes over b, fully
 *    unrolled: a_0..a_3 held in registers for the first pass, a_4..a_7 for the second; one row per
 *    word b_j, one UMAAL per word product with the row's carry chain in its high word, the four
 *    words the row adds to in a window of five registers r7-r11 that turns by one per row (the
 *    word that leaves it is stored; its register takes the next row's carry, 0 or, in the second
 *    pass, a word t8..t11 of the first, which the row's first UMAAL adds at its lowest word);
 *    b_j loaded two at a time (LDRD).
 * 2. Word-by-word REDC (HAC 14.32) of the low half T_lo only, in the same turning window:
 *    q = t_i n' mod 2^32 with n' = -n^-1 mod 2^32 = 0xee00bc4f (n is not -1 mod 2^32, unlike p: the
 *    quotient word takes a MUL), then t += q n 2^(32 i) by eight UMAALs. n's words 4, 5, 7 are
 *    2^32 - 1 (held in r1) and word 6 is 0: its UMAAL multiplies by the window's word t_i, which
 *    the first UMAAL of the row has just made 0; words 0-3 are loaded from the literal pool.
 *    U = (T_lo + m n) / R <= n since T_lo < R, and a b R^-1 = T_hi + U mod n with T_hi < n:
 *    S = T_hi + U < 2n.
 * 3. r = S - n, and n added back under the mask of the final borrow (no branch).
 * No branch or address depends on the data: constant time.
 */
	.syntax unified
	.thumb
#if !defined(__ARM_FEATURE_DSP)
	.arch_extension dsp	@ the compilers' cortex-m33 target leaves the DSP extension out
#endif
	.text

/* one product row: t_j..t_(j+3) (w0..w3) += (r3, r4, r5, r6) b (b a register), and the carry c, which
 * enters (added at t_j by the first UMAAL) as 0 (cin = zero) or as the word at [sp, #cin], leaves as
 * t_(j+4); then t_j is final for the pass: stored at [sp, #toff] */
	.macro prow4 b, toff, w0, w1, w2, w3, c, cin
	.ifc \cin, zero
	mov \c, #0
	.else
	ldr \c, [sp, #\cin]
	.endif
	umaal \w0, \c, r3, \b
	umaal \w1, \c, r4, \b
	umaal \w2, \c, r5, \b
	umaal \w3, \c, r6, \b
	str \w0, [sp, #\toff]
	.endm

/* one REDC step on the window t_i..t_(i+7) (w0..w7) with c = t_(i+8) = 0 on entry: q = t_i n',
 * t += q n; w0 ends 0 (the next step's c), c holds t_(i+8) */
	.macro redc w0, w1, w2, w3, w4, w5, w6, w7, c
	mul lr, \w0, r2
	ldrd r0, r12, .Lorder_n01
	umaal \w0, \c, lr, r0
	umaal \w1, \c, lr, r12
	ldrd r0, r12, .Lorder_n23
	umaal \w2, \c, lr, r0
	umaal \w3, \c, lr, r12
	umaal \w4, \c, lr, r1
	umaal \w5, \c, lr, r1
	umaal \w6, \c, lr, \w0			@ n_6 = 0: w0 is 0 here
	umaal \w7, \c, lr, r1
	.endm

	.global p256_order_sqr
	.type p256_order_sqr, %function
	.thumb_func
	.align 2
p256_order_sqr:
	mov r2, r1
	.size p256_order_sqr, .-p256_order_sqr	@ falls through into the product a a (no padding between)

	.global p256_order_mul
	.type p256_order_mul, %function
	.thumb_func
p256_order_mul:
	push {r0, r4-r11, lr}			@ r at [sp, #64] below
	sub sp, #64				@ T0..T15 at [sp, #0..60]
@ 1. T = a b. Pass A: a0..a3 (r3-r6) times b, row j's window t_j..t_(j+3) and carry in r7-r11 turned by j
	ldm r1, {r3-r6}
	ldrd lr, r12, [r2, #0]
	umull r7, r11, r3, lr			@ row 0: a0..a3 b0 into t0..t4, no carry in
	mov r8, #0
	mov r9, #0
	mov r10, #0
	umaal r8, r11, r4, lr
	umaal r9, r11, r5, lr
	umaal r10, r11, r6, lr
	str r7, [sp, #0]
	prow4 r12, 4, r8, r9, r10, r11, r7, zero
	ldrd lr, r12, [r2, #8]
	prow4 lr, 8, r9, r10, r11, r7, r8, zero
	prow4 r12, 12, r10, r11, r7, r8, r9, zero
	ldrd lr, r12, [r2, #16]
	prow4 lr, 16, r11, r7, r8, r9, r10, zero
	prow4 r12, 20, r7, r8, r9, r10, r11, zero
	ldrd lr, r12, [r2, #24]
	prow4 lr, 24, r8, r9, r10, r11, r7, zero
	prow4 r12, 28, r9, r10, r11, r7, r8, zero
	str r10, [sp, #32]			@ t8..t11 of pass A (r10, r11, r7, r8)
	str r11, [sp, #36]
	str r7, [sp, #40]
	str r8, [sp, #44]
@ Pass B: a4..a7 times b into t4..t15; a row's carry enters at its lowest word t_(j+4): as pass A's
@ t_(j+4) for rows 4-7 (t8..t11, which pass A left above its rows), else 0
	add r0, r1, #16
	ldm r0, {r3-r6}
	add r0, sp, #16
	ldm r0, {r7-r10}			@ t4..t7
	ldrd lr, r12, [r2, #0]
	prow4 lr, 16, r7, r8, r9, r10, r11, zero
	prow4 r12, 20, r8, r9, r10, r11, r7, zero
	ldrd lr, r12, [r2, #8]
	prow4 lr, 24, r9, r10, r11, r7, r8, zero
	prow4 r12, 28, r10, r11, r7, r8, r9, zero
	ldrd lr, r12, [r2, #16]
	prow4 lr, 32, r11, r7, r8, r9, r10, 32
	prow4 r12, 36, r7, r8, r9, r10, r11, 36
	ldrd lr, r12, [r2, #24]
	prow4 lr, 40, r8, r9, r10, r11, r7, 40
	prow4 r12, 44, r9, r10, r11, r7, r8, 44
	str r10, [sp, #48]			@ t12..t15 (r10, r11, r7, r8)
	str r11, [sp, #52]
	str r7, [sp, #56]
	str r8, [sp, #60]
@ 2. U = REDC(T_lo)
	ldm sp, {r3-r10}			@ T0..T7
	mov r11, #0
	mvn r1, #0				@ n_4 = n_5 = n_7 = 2^32 - 1
	ldr r2, .Lorder_n0inv			@ n' = -n^-1 mod 2^32
	redc r3, r4, r5, r6, r7, r8, r9, r10, r11
	redc r4, r5, r6, r7, r8, r9, r10, r11, r3
	redc r5, r6, r7, r8, r9, r10, r11, r3, r4
	redc r6, r7, r8, r9, r10, r11, r3, r4, r5
	redc r7, r8, r9, r10, r11, r3, r4, r5, r6
	redc r8, r9, r10, r11, r3, r4, r5, r6, r7
	redc r9, r10, r11, r3, r4, r5, r6, r7, r8
	redc r10, r11, r3, r4, r5, r6, r7, r8, r9
@ U in r11, r3..r9 (r10 is 0). 3. S = U + T_hi, top word in r10
	ldrd r0, r12, [sp, #32]
	adds r11, r11, r0
	adcs r3, r3, r12
	ldrd r0, r12, [sp, #40]
	adcs r4, r4, r0
	adcs r5, r5, r12
	ldrd r0, r12, [sp, #48]
	adcs r6, r6, r0
	adcs r7, r7, r12
	ldrd r0, r12, [sp, #56]
	adcs r8, r8, r0
	adcs r9, r9, r12
	adc r10, r10, #0
@ S - n; r10 ends 0 when S >= n, else all ones (then n is added back); n_0..n_3 in r0, r12, r2, lr
	ldrd r0, r12, .Lorder_n01
	ldrd r2, lr, .Lorder_n23
	subs r11, r11, r0
	sbcs r3, r3, r12
	sbcs r4, r4, r2
	sbcs r5, r5, lr
	sbcs r6, r6, r1
	sbcs r7, r7, r1
	sbcs r8, r8, #0
	sbcs r9, r9, r1
	sbc r10, r10, #0
	and r0, r0, r10
	and r12, r12, r10
	and r2, r2, r10
	and lr, lr, r10
	adds r11, r11, r0
	adcs r3, r3, r12
	adcs r4, r4, r2
	adcs r5, r5, lr
	adcs r6, r6, r10
	adcs r7, r7, r10
	adcs r8, r8, #0
	adc r9, r9, r10
	ldr r0, [sp, #64]
	str r11, [r0], #4
	stm r0, {r3-r9}
	add sp, #68
	pop {r4-r11, pc}

	.align 2
.Lorder_n01:
	.word 0xfc632551, 0xf3b9cac2		@ n, words 0 and 1
.Lorder_n23:
	.word 0xa7179e84, 0xbce6faad		@ words 2 and 3
.Lorder_n0inv:
	.word 0xee00bc4f			@ -n^-1 mod 2^32
	.size p256_order_mul, .-p256_order_mul
