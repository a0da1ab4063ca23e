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

/* canon R0..R7, top, c19, tmp: the canonical value of (R mod 2^255) + 19 top (fe25519.inc) */
#include "fe25519.inc"

/* sub8_regs mask: a - b mod 2^256 and its borrow mask (words8.inc) */
#include "words8.inc"

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
	sub8_regs r1				@ r3..r10 = a - b mod 2^256; r1 = all ones when a < b (words8.inc)
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
