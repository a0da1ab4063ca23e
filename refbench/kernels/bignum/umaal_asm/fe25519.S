/* GF(2^255 - 19) arithmetic for ARMv7E-M (Cortex-M4/M7) and ARMv8-M Mainline with the DSP
 * extension (Cortex-M33), hand-written Thumb-2 around UMAAL: (hi:lo) = a*b + lo + hi in one
 * instruction (ARM DDI 0403E A7.7.186; 1 cycle on the Cortex-M4, DDI 0439D Table 3-2).
 * refbench's own code; the technique (UMAAL carry chains kept in registers, one reduction
 * pass with 2^256 = 38 mod p) is the textbook one (HAC 14.12; RFC 7748 §4.1).
 *
 * Every function takes and returns canonical values, in [0, p), as fe.h's C versions do, so the
 * same references check them and the X25519 ladder of x25519.h runs on them unchanged:
 *
 *   fe25519_mul(r, a, b)       r = a b mod p
 *   fe25519_sqr(r, a)          r = a^2 mod p
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

/* void fe25519_mul(uint32_t r[8], const uint32_t a[8], const uint32_t b[8]) */
	.global fe25519_mul
	.type fe25519_mul, %function
	.thumb_func
	.align 2
fe25519_mul:
	mul8_passes
@ reduction: R = T0..T7 + 38 T8..T15 in r0-r7, carry r8
	mov r9, #38
	mov r8, #0
	ldm sp, {r0-r3}				@ T0..T3
	ldr r4, [sp, #32]			@ T8..T11
	ldr r5, [sp, #36]
	ldr r6, [sp, #40]
	ldr r7, [sp, #44]
	umaal r0, r8, r4, r9
	umaal r1, r8, r5, r9
	umaal r2, r8, r6, r9
	umaal r3, r8, r7, r9
	ldr r4, [sp, #16]			@ T4..T7
	ldr r5, [sp, #20]
	ldr r6, [sp, #24]
	ldr r7, [sp, #28]
	umaal r4, r8, r10, r9
	umaal r5, r8, r11, r9
	umaal r6, r8, r12, r9
	umaal r7, r8, lr, r9
	lsr r10, r7, #31
	orr r8, r10, r8, lsl #1			@ top = 2 c + bit 255 of R
	mov r9, #19
	canon r0, r1, r2, r3, r4, r5, r6, r7, r8, r9, r10
	ldr r10, [sp, #52]
	stm r10, {r0-r7}
	add sp, #56
	pop {r4-r11, pc}
	.size fe25519_mul, . - fe25519_mul

/* void fe25519_sqr(uint32_t r[8], const uint32_t a[8]). a^2 = 2C + D for the cross products
 * C = sum over i < j of a_i a_j 2^(32(i+j)) (28 UMAALs, the same row-carry scheme as the
 * multiplication with all of a in r2-r9) and the squares D = sum a_i^2 2^(64i). The reduction
 * works on the halves: E = C_lo + 38 C_hi (E_8, the carry, in r8), then
 * out_i = D_i + 38 D_(i+8) + 2 E_i with two UMAAL carry chains (38 and 2), the 2^256 E_8 term
 * entering the second chain as 76 E_8 = 2 * 38 E_8; then canon as for the multiplication. */
	.global fe25519_sqr
	.type fe25519_sqr, %function
	.thumb_func
	.align 2
fe25519_sqr:
	push {r0, r1, r4-r11, lr}		@ r: [sp, #32], a: [sp, #36] below
	sub sp, #32				@ C1..C7, then E0..E7, at [sp, #0..28]
	ldm r1, {r2-r9}				@ a0..a7
@ cross products, rows 0..3 (row carries r10, r11, r12, lr; column word r0)
	umull r0, r10, r2, r3			@ column 1: a0 a1
	str r0, [sp, #4]
	mov r0, #0				@ column 2
	umaal r0, r10, r2, r4			@ a0 a2
	str r0, [sp, #8]
	umull r0, r11, r3, r4			@ column 3: a1 a2
	umaal r0, r10, r2, r5			@ a0 a3
	str r0, [sp, #12]
	mov r0, #0				@ column 4
	umaal r0, r10, r2, r6			@ a0 a4
	umaal r0, r11, r3, r5			@ a1 a3
	str r0, [sp, #16]
	umull r0, r12, r4, r5			@ column 5: a2 a3
	umaal r0, r10, r2, r7			@ a0 a5
	umaal r0, r11, r3, r6			@ a1 a4
	str r0, [sp, #20]
	mov r0, #0				@ column 6
	umaal r0, r10, r2, r8			@ a0 a6
	umaal r0, r11, r3, r7			@ a1 a5
	umaal r0, r12, r4, r6			@ a2 a4
	str r0, [sp, #24]
	umull r0, lr, r5, r6			@ column 7: a3 a4
	umaal r0, r10, r2, r9			@ a0 a7
	umaal r0, r11, r3, r8			@ a1 a6
	umaal r0, r12, r4, r7			@ a2 a5
	str r0, [sp, #28]
	umaal r10, r11, r3, r9			@ column 8: a1 a7 (C8 in r10)
	umaal r10, r12, r4, r8			@ a2 a6
	umaal r10, lr, r5, r7			@ a3 a5
	umaal r11, r12, r4, r9			@ column 9: a2 a7 (C9 in r11)
	umaal r11, lr, r5, r8			@ a3 a6
	umaal r12, lr, r5, r9			@ column 10: a3 a7 (C10 in r12, C11 in lr)
@ rows 4..6 (row carries r0, r1, r6)
	mov r0, #0
	mov r1, #0
	umaal r11, r0, r6, r7			@ column 9: a4 a5
	umaal r12, r0, r6, r8			@ column 10: a4 a6
	umaal lr, r0, r6, r9			@ column 11: a4 a7
	umaal lr, r1, r7, r8			@ a5 a6
	umaal r0, r1, r7, r9			@ column 12: a5 a7 (C12 in r0)
	mov r6, #0
	umaal r1, r6, r8, r9			@ column 13: a6 a7 (C13 in r1, C14 in r6)
@ E = C0..C7 + 38 C8..C15 (C0 = C15 = 0), carry r8; E0..E7 to [sp, #0..28]
	mov r9, #38
	umull r2, r8, r10, r9			@ E0
	ldr r3, [sp, #4]
	umaal r3, r8, r11, r9			@ E1
	ldr r4, [sp, #8]
	umaal r4, r8, r12, r9			@ E2
	ldr r5, [sp, #12]
	umaal r5, r8, lr, r9			@ E3
	ldr r7, [sp, #16]
	umaal r7, r8, r0, r9			@ E4
	ldr r10, [sp, #20]
	umaal r10, r8, r1, r9			@ E5
	ldr r11, [sp, #24]
	umaal r11, r8, r6, r9			@ E6
	ldr r12, [sp, #28]
	adds r12, r12, r8			@ E7
	mov r8, #0
	adc r8, r8, #0				@ E8
	stm sp, {r2-r5, r7, r10-r12}
@ out_i = D_i + 38 D_(i+8) + 2 E_i: chains r11 (x 38) and r12 (x 2, starting at 76 E8)
	mov r10, #2
	mov r11, #0
	add r12, r8, r8
	mul r12, r12, r9
	ldr lr, [sp, #36]			@ a
	ldr r8, [lr, #16]			@ a4
	ldr r0, [lr, #0]			@ a0
	umull r8, r2, r8, r8			@ D8, D9
	umull r0, r1, r0, r0			@ D0, D1
	umaal r0, r11, r8, r9			@ + 38 D8
	ldr r8, [sp, #0]			@ E0
	umaal r0, r12, r8, r10			@ + 2 E0: out0
	umaal r1, r11, r2, r9			@ + 38 D9
	ldr r8, [sp, #4]			@ E1
	umaal r1, r12, r8, r10			@ + 2 E1: out1
	ldr r8, [lr, #20]			@ a5
	ldr r2, [lr, #4]			@ a1
	umull r8, r4, r8, r8			@ D10, D11
	umull r2, r3, r2, r2			@ D2, D3
	umaal r2, r11, r8, r9			@ + 38 D10
	ldr r8, [sp, #8]			@ E2
	umaal r2, r12, r8, r10			@ + 2 E2: out2
	umaal r3, r11, r4, r9			@ + 38 D11
	ldr r8, [sp, #12]			@ E3
	umaal r3, r12, r8, r10			@ + 2 E3: out3
	ldr r8, [lr, #24]			@ a6
	ldr r4, [lr, #8]			@ a2
	umull r8, r6, r8, r8			@ D12, D13
	umull r4, r5, r4, r4			@ D4, D5
	umaal r4, r11, r8, r9			@ + 38 D12
	ldr r8, [sp, #16]			@ E4
	umaal r4, r12, r8, r10			@ + 2 E4: out4
	umaal r5, r11, r6, r9			@ + 38 D13
	ldr r8, [sp, #20]			@ E5
	umaal r5, r12, r8, r10			@ + 2 E5: out5
	ldr r8, [lr, #28]			@ a7
	ldr r6, [lr, #12]			@ a3
	umull r8, lr, r8, r8			@ D14, D15
	umull r6, r7, r6, r6			@ D6, D7
	umaal r6, r11, r8, r9			@ + 38 D14
	ldr r8, [sp, #24]			@ E6
	umaal r6, r12, r8, r10			@ + 2 E6: out6
	umaal r7, r11, lr, r9			@ + 38 D15
	ldr r8, [sp, #28]			@ E7
	umaal r7, r12, r8, r10			@ + 2 E7: out7
	add r11, r11, r12			@ the two chains' carries, weight 2^256
	lsr r8, r7, #31
	orr r11, r8, r11, lsl #1		@ top = 2 (carries) + bit 255
	mov r9, #19
	canon r0, r1, r2, r3, r4, r5, r6, r7, r11, r9, r10
	ldr r8, [sp, #32]
	stm r8, {r0-r7}
	add sp, #40
	pop {r4-r11, pc}
	.size fe25519_sqr, . - fe25519_sqr

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

/* void fe25519_cswap(uint32_t a[8], uint32_t b[8], uint32_t swap): t = (a_i ^ b_i) & -swap,
 * a_i ^= t, b_i ^= t; four words of each at a time */
	.global fe25519_cswap
	.type fe25519_cswap, %function
	.thumb_func
	.align 2
fe25519_cswap:
	push {r4-r9, lr}
	rsb r2, r2, #0				@ all ones when swap is 1
	.rept 2
	ldm r0, {r3-r6}
	ldm r1, {r7-r9, r12}
	eor lr, r3, r7
	and lr, lr, r2
	eor r3, r3, lr
	eor r7, r7, lr
	eor lr, r4, r8
	and lr, lr, r2
	eor r4, r4, lr
	eor r8, r8, lr
	eor lr, r5, r9
	and lr, lr, r2
	eor r5, r5, lr
	eor r9, r9, lr
	eor lr, r6, r12
	and lr, lr, r2
	eor r6, r6, lr
	eor r12, r12, lr
	stm r0!, {r3-r6}
	stm r1!, {r7-r9, r12}
	.endr
	pop {r4-r9, pc}
	.size fe25519_cswap, . - fe25519_cswap
