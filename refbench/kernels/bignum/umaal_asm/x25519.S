/* X25519 (RFC 7748 §5) for ARMv7E-M (Cortex-M4/M7) and ARMv8-M Mainline with the DSP extension
 * (Cortex-M33): the whole scalar multiplication in hand-written Thumb-2, refbench's own code.
 *
 *   void x25519_scalarmult(uint32_t r[8], const uint32_t k[8], const uint32_t u[8])
 *
 * Also the 25519-mul and 25519-sqr operations (AAPCS, canonical results: fe25519_mul, fe25519_sqr),
 * which share its product and squaring. Technique (the published Cortex-M4 X25519 implementations
 * share it; e.g. E. Lenngren, github.com/Emill/X25519-Cortex-M4 at e85f816,
 * x25519-cortex-m4-keil.s, read for technique only; its README at 1e4953db: 548,873 cycles):
 * - Field elements between ladder operations are not canonical: any residue below 2^256 enters a
 *   product, and every product, square and multiple by a24 leaves "half reduced", below
 *   2^255 + 2^23 (its bits from 255 up, worth 19 each since 2^255 = 19 mod p, folded into the low
 *   word by one carry chain). Then the sum of two ladder values is below 2^256 (an addition is
 *   one carry chain, nothing to fold), a difference that borrowed needs 2 p = 2^256 - 38 added
 *   once (taking 38 from the wrapped value, which cannot borrow again), and only the result is
 *   made canonical.
 * - The products (mul_product, sqr_product below) end with that fold instead of the canonical
 *   tail, and are called with an internal convention: r0 = result, r1, r2 = operands, nothing
 *   preserved but sp (the ladder keeps every value on its stack frame, none in registers across a
 *   call), so a call saves only lr; a squaring of a sum or difference just computed takes it from
 *   registers, and the inversion's runs of squarings loop inside one routine.
 * - The ladder step keeps its field elements at fixed offsets of one stack frame; additions,
 *   subtractions, the multiplication by a24 (fused with the addition of AA) and the conditional
 *   swaps (UADD8/SEL) are inline.
 * Constant time: the only branches are the loop counters (public); every address is sp or an
 * operand pointer plus a constant, the scalar word index t >> 5 is public; the swap is by masks.
 */
	.syntax unified
	.thumb
#if !defined(__ARM_FEATURE_DSP)
	.arch_extension dsp	@ the compilers' cortex-m33 target leaves the DSP extension out
#endif
	.text

/* canon: the canonical value of (R mod 2^255) + 19 top (fe25519.inc) */
#include "fe25519.inc"

/* sqr8_cross coff: the 28 cross products a_i a_j (i < j) of a0..a7 in r2..r9 (words8.inc) */
#include "words8.inc"

/* fold19 R0..R7, c, k19, t: (R mod 2^255) + 19 (2 c + bit 255 of R), the residue of R + 2^256 c
 * (2^255 = 19 mod p), for R = R0..R7 below 2^256 and c < 2^26: below 2^255 + 2^32, so one carry
 * chain with nothing carried out. k19 holds 19; c and t are clobbered. */
	.macro fold19 R0, R1, R2, R3, R4, R5, R6, R7, c, k19, t
	lsr \t, \R7, #31
	orr \c, \t, \c, lsl #1
	bic \R7, \R7, #0x80000000
	mul \c, \c, \k19
	adds \R0, \R0, \c
	adcs \R1, \R1, #0
	adcs \R2, \R2, #0
	adcs \R3, \R3, #0
	adcs \R4, \R4, #0
	adcs \R5, \R5, #0
	adcs \R6, \R6, #0
	adc \R7, \R7, #0
	.endm

/* mul_product: the 512-bit product T of a (r1) and b (r2) reduced to R = T_lo + 38 T_hi in r0-r7
 * with its carry word in r8 (below 39), for a caller that pushed r0 first (the result pointer,
 * then at [sp, #52]) and leaves with add sp, #56 and its pop. */
	.macro mul_product
	ldm r1!, {r6-r9}			@ a0..a3; r1 = a + 4 words
	sub sp, #52				@ T0..T11 at [sp, #0..44], a + 4 words at [sp, #48]
	str r1, [sp, #48]
@ pass 0: T0..T11 = a0..a3 times b
	ldm r2, {r1, r3, r4, r5}		@ b0..b3
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
	ldm r2, {r1, r3, r4, r5}		@ b0..b3
	add r0, sp, #16
	ldm r0, {r10, r11, r12, lr}		@ pass 0's T4..T7 start rows 0..3 (row i enters column 4 + i)
	mov r0, #0		@ column 4
	umaal r0, r10, r6, r1		@ a4 b0
	str r0, [sp, #16]
	mov r0, #0		@ column 5
	umaal r0, r10, r6, r3		@ a4 b1
	umaal r0, r11, r7, r1		@ a5 b0
	str r0, [sp, #20]
	mov r0, #0		@ column 6
	umaal r0, r10, r6, r4		@ a4 b2
	umaal r0, r11, r7, r3		@ a5 b1
	umaal r0, r12, r8, r1		@ a6 b0
	str r0, [sp, #24]
	mov r0, #0		@ column 7
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
	.endm

/* fe25519_mul_w: r0 = result, r1 = a, r2 = b, 32 bytes each, any 256-bit values; the product
 * half reduced (below 2^255 + 2^13: R = T_lo + 38 T_hi, carry c < 39, then fold19).
 * fe25519.S's two passes of four rows, with b0..b3 loaded together at the start of each pass and
 * the first pass's T4..T7 entering the second as its rows' initial carries (UMAAL adds its high
 * register, and row i of the second pass starts at column 4 + i). Internal convention: clobbers r0-r12 (returns with lr). The result is stored
 * after every operand word is read, so r0 may equal r1 or r2. */
	.global fe25519_mul_w
	.type fe25519_mul_w, %function
	.thumb_func
	.align 2
fe25519_mul_w:
	push {r0, lr}				@ r: [sp, #52] below
	mul_product
	ldr r11, [sp, #52]			@ r (loaded early: no interlock at the store)
	mov r9, #19
	fold19 r0, r1, r2, r3, r4, r5, r6, r7, r8, r9, r10
	stm r11, {r0-r7}
	add sp, #56
	pop {pc}
	.size fe25519_mul_w, . - fe25519_mul_w

/* void fe25519_mul(uint32_t r[8], const uint32_t a[8], const uint32_t b[8]): the 25519-mul
 * operation, r = a b mod p canonical (AAPCS, canonical operands and result as fe.h's C): the same
 * product and reduction as fe25519_mul_w, then the canonical tail (canon) instead of fold19. */
	.global fe25519_mul
	.type fe25519_mul, %function
	.thumb_func
	.align 2
fe25519_mul:
	push {r0, r4-r11, lr}			@ r: [sp, #52] below
	mul_product
	lsr r10, r7, #31
	orr r8, r10, r8, lsl #1			@ top = 2 c + bit 255 of R
	ldr r11, [sp, #52]			@ r
	mov r9, #19
	canon r0, r1, r2, r3, r4, r5, r6, r7, r8, r9, r10
	stm r11, {r0-r7}
	add sp, #56
	pop {r4-r11, pc}
	.size fe25519_mul, . - fe25519_mul

/* sqr_out_pair off, o0, o1, op: two words of out = 2 E + 38 D_hi + D_lo in sqr_product: with
 * i = off / 4, D_2i, D_2i+1 = a_i^2 and D_2i+8, D_2i+9 = a_(i+4)^2 (UMULL, a from the pointer at
 * [sp, #36]); o0 = o0 + 38 D_2i+8 + D_2i, o1 = o1 + 38 D_2i+9 + D_2i+1, the UMAAL chain by 38 (r9)
 * carried in r8, the additions in the carry flag (op: ADDS for the first pair, ADCS after).
 * r0, r1, r6 and lr clobbered. */
	.macro sqr_out_pair off, o0, o1, op
	ldr lr, [sp, #36]			@ a
	ldr r0, [lr, #\off]			@ a_i
	ldr r6, [lr, #(\off + 16)]		@ a_(i+4)
	umull r0, r1, r0, r0			@ D_2i, D_2i+1
	umull r6, lr, r6, r6			@ D_2i+8, D_2i+9
	umaal \o0, r8, r6, r9
	\op \o0, \o0, r0
	umaal \o1, r8, lr, r9
	adcs \o1, \o1, r1
	.endm

/* sqr_product: a^2 (a0..a7 in r2-r9) reduced as below to eight words in r2, r3, r4, r5, r7, r10,
 * r11, r12 with their carry word (weight 2^256, below 2^9) in r8, for a caller that pushed r0, r1
 * first (the result and operand pointers, then at [sp, #32] and [sp, #36]) and leaves with
 * add sp, #40 and its pop. */
	.macro sqr_product
	sub sp, #32				@ C1..C7 at [sp, #0..24]
	sqr8_cross 0				@ C1..C7 at [sp, #0..24]; C8..C14 in r10, r11, r12, lr, r0, r1, r6 (words8.inc)
@ E = C0..C7 + 38 C8..C15 in r2, r3, r4, r5, r7, r10, r11, r12; carry word r8
	ldm sp, {r3, r4, r5, r7}		@ C1..C4
	mov r9, #38
	umull r2, r8, r10, r9			@ E0 = 38 C8
	umaal r3, r8, r11, r9			@ E1
	umaal r4, r8, r12, r9			@ E2
	umaal r5, r8, lr, r9			@ E3
	ldr r10, [sp, #16]			@ C5..C7
	ldr r11, [sp, #20]
	ldr r12, [sp, #24]
	umaal r7, r8, r0, r9			@ E4
	umaal r10, r8, r1, r9			@ E5
	umaal r11, r8, r6, r9			@ E6
	adds r12, r12, r8			@ E7 (C15 = 0)
	mov r8, #0
	adc r8, r8, #0				@ E8
@ 2 E, its top word (2 E8 + the carry out) times 38 as the first carry of the 38-chain
	adds r2, r2, r2
	adcs r3, r3, r3
	adcs r4, r4, r4
	adcs r5, r5, r5
	adcs r7, r7, r7
	adcs r10, r10, r10
	adcs r11, r11, r11
	adcs r12, r12, r12
	adc r8, r8, r8
	mul r8, r8, r9
@ out_i = 2 E_i + 38 D_(i+8) + D_i: chain r8 (UMAAL by 38), then the carry flag (ADCS)
	sqr_out_pair 0, r2, r3, adds		@ out0, out1
	sqr_out_pair 4, r4, r5, adcs		@ out2, out3
	sqr_out_pair 8, r7, r10, adcs		@ out4, out5
	sqr_out_pair 12, r11, r12, adcs		@ out6, out7
	adc r8, r8, #0				@ the carries, weight 2^256
	.endm

/* fe25519_sqr_w: r0 = result, r1 = a; a^2 half reduced, as fe25519_mul_w (r0 may equal r1).
 * a^2 = 2 C + D for the cross products C = sum over i < j of a_i a_j 2^(32(i+j)) (28 UMAALs, the
 * row-carry scheme of fe25519.S's squaring, C1..C7 to the stack, C8..C14 left in registers) and the
 * squares D = sum a_i^2 2^(64i). Then three passes over eight words with no memory between them
 * but the reloads of C1..C7 and of a:
 *   E = C_lo + 38 C_hi (a UMAAL chain by 38; C0 = C15 = 0), E_8 its carry bit;
 *   2 E by an add-with-carry chain (the doubled E's top: 2 E_8 + its carry, worth 38 each);
 *   out = 2 E + 38 D_hi + D_lo: a UMAAL chain by 38 (starting from 38 times the doubled top) and
 *   an add-with-carry chain together, word by word (UMAAL leaves the flags alone);
 * then the two chains' carries (below 2^9) and bit 255 folded by 19 (fold19). */
	.global fe25519_sqr_w
	.type fe25519_sqr_w, %function
	.thumb_func
	.align 2
fe25519_sqr_w:
	ldm r1, {r2-r9}				@ a0..a7
fe25519_sqr_w_loaded:			@ the entry with a0..a7 already in r2-r9 (and r1 = a)
	push {r0, r1, lr}			@ r: [sp, #32], a: [sp, #36] below
	sqr_product
	ldr r1, [sp, #32]			@ r (loaded early: no interlock at the store)
	mov r9, #19
	fold19 r2, r3, r4, r5, r7, r10, r11, r12, r8, r9, r0
	stm r1, {r2-r5, r7, r10-r12}
	add sp, #40
	pop {pc}
	.size fe25519_sqr_w, . - fe25519_sqr_w

/* fe25519_sqrn_w: r0 = a (result in place), r1 = n >= 1 (public): a^(2^n), n squarings half
 * reduced, the inversion chain's runs. Each squaring's result is stored (the next one reloads its
 * words for the squares) and moved into r2-r9 as the next input, with no call between them. */
	.global fe25519_sqrn_w
	.type fe25519_sqrn_w, %function
	.thumb_func
	.align 2
fe25519_sqrn_w:
	push {r1, lr}				@ n: [sp, #40], then [sp, #8] between squarings
	mov r1, r0
	push {r0, r1}				@ r = a: [sp, #32], [sp, #36] below
	ldm r0, {r2-r9}
1:	sqr_product
	ldr r1, [sp, #32]			@ r (loaded early: no interlock at the store)
	mov r9, #19
	fold19 r2, r3, r4, r5, r7, r10, r11, r12, r8, r9, r0
	stm r1, {r2-r5, r7, r10-r12}
	add sp, #32
	ldr r1, [sp, #8]
	subs r1, r1, #1
	str r1, [sp, #8]
	beq 2f
	mov r6, r7				@ the result as the next operand, in r2-r9
	mov r7, r10
	mov r8, r11
	mov r9, r12
	b 1b
2:	add sp, #12
	pop {pc}
	.size fe25519_sqrn_w, . - fe25519_sqrn_w

/* void fe25519_sqr(uint32_t r[8], const uint32_t a[8]): the 25519-sqr operation, r = a^2 mod p
 * canonical (AAPCS): fe25519_sqr_w's squaring with the canonical tail */
	.global fe25519_sqr
	.type fe25519_sqr, %function
	.thumb_func
	.align 2
fe25519_sqr:
	push {r0, r1, r4-r11, lr}		@ r: [sp, #32], a: [sp, #36] below
	ldm r1, {r2-r9}				@ a0..a7
	sqr_product
	lsr r0, r12, #31
	orr r8, r0, r8, lsl #1			@ top = 2 (carries) + bit 255
	ldr r1, [sp, #32]			@ r
	mov r9, #19
	canon r2, r3, r4, r5, r7, r10, r11, r12, r8, r9, r0
	stm r1, {r2-r5, r7, r10-r12}
	add sp, #40
	pop {r4-r11, pc}
	.size fe25519_sqr, . - fe25519_sqr

#ifdef X25519_ASM
/* The whole scalar multiplication, built when the variant defines X25519_ASM (kernel.toml; without
 * it x25519.h's C ladder calls the operations above). */

/* The ladder's frame: field elements at sp + these offsets, then three words. */
	.equ X1, 0
	.equ X2, 32
	.equ Z2, 64
	.equ X3, 96
	.equ Z3, 128
	.equ FA, 160				@ A = x2 + z2, later the inversion's z^(2^k - 1)
	.equ FB, 192				@ B = x2 - z2, later a squaring run
	.equ AA, 224
	.equ BB, 256
	.equ FE, 288				@ E = AA - BB, later z^9
	.equ FC, 320				@ C = x3 + z3, later z^11
	.equ FD, 352				@ D = x3 - z3
	.equ DA, 384
	.equ CB, 416
	.equ FT, 448				@ a temporary
	.equ SK, 480				@ the clamped scalar
	.equ OUTP, 512				@ the result pointer
	.equ SWAP, 516				@ the pending swap bit
	.equ CNT, 520				@ the bit index t, then a squaring run's count
	.equ FRAME, 528

/* fmul OUT, A, B: OUT = A B; fsqr OUT, A: OUT = A^2 (frame offsets) */
	.macro fmul out, a, b
	add r0, sp, #\out
	add r1, sp, #\a
	add r2, sp, #\b
	bl fe25519_mul_w
	.endm
	.macro fsqr out, a
	add r0, sp, #\out
	add r1, sp, #\a
	bl fe25519_sqr_w
	.endm
/* fsqrl OUT, A: OUT = A^2 right after a fadd or fsub that wrote A and left it in r2-r9 */
	.macro fsqrl out, a
	add r0, sp, #\out
	add r1, sp, #\a
	bl fe25519_sqr_w_loaded
	.endm

/* fsqrn OUT, n: OUT = OUT^(2^n), n >= 1 (a public count) */
	.macro fsqrn out, n
	add r0, sp, #\out
	mov r1, #\n
	bl fe25519_sqrn_w
	.endm

/* fadd OUT, A, B: OUT = A + B for A, B below 2^255 + 2^23 (the ladder's invariant, above): the
 * sum is below 2^256, one carry chain with nothing to fold */
	.macro fadd out, a, b
	add r0, sp, #\a
	add r1, sp, #\b			@ (each address a cycle before its use: no interlock)
	ldm r0, {r2-r9}
	ldm r1!, {r10, r11, r12, lr}
	add r0, sp, #\out
	adds r2, r2, r10
	adcs r3, r3, r11
	adcs r4, r4, r12
	adcs r5, r5, lr
	ldm r1, {r10, r11, r12, lr}
	adcs r6, r6, r10
	adcs r7, r7, r11
	adcs r8, r8, r12
	adc r9, r9, lr
	stm r0, {r2-r9}
	.endm

/* fsub OUT, A, B: OUT = A - B + 2^256 - 38 (= A - B + 2 p) when A < B, else A - B, for A, B
 * below 2^255 + 2^23: after a borrow A - B + 2^256 is at least 2^255 - 2^23, so taking 38 from it
 * cannot borrow again; the result is below 2^256 */
	.macro fsub out, a, b
	add r0, sp, #\a
	add r1, sp, #\b
	ldm r0, {r2-r9}
	ldm r1!, {r10, r11, r12, lr}
	subs r2, r2, r10
	sbcs r3, r3, r11
	sbcs r4, r4, r12
	sbcs r5, r5, lr
	ldm r1, {r10, r11, r12, lr}
	sbcs r6, r6, r10
	sbcs r7, r7, r11
	sbcs r8, r8, r12
	sbcs r9, r9, lr
	mov r1, #38
	add r10, sp, #\out
	sbc r0, r0, r0				@ -1 when it borrowed, else 0
	and r0, r0, r1
	subs r2, r2, r0
	sbcs r3, r3, #0
	sbcs r4, r4, #0
	sbcs r5, r5, #0
	sbcs r6, r6, #0
	sbcs r7, r7, #0
	sbcs r8, r8, #0
	sbc r9, r9, #0
	stm r10, {r2-r9}
	.endm

/* fa24add OUT, A, E: OUT = A + 121665 E: a UMAAL chain (e_i 121664 + e_i + carry) beside an
 * add-with-carry chain adding A, then the top word (below 2^18) and bit 255 folded by 19: half
 * reduced, below 2^255 + 2^23 */
	.macro fa24add out, a, e
	add r0, sp, #\e
	add r1, sp, #\a
	ldm r0, {r2-r9}
	ldm r1, {r10, r11, r12, lr}
	movw r1, #(121664 & 0xffff)
	movt r1, #(121664 >> 16)
	mov r0, #0
	umaal r2, r0, r2, r1
	adds r2, r2, r10
	umaal r3, r0, r3, r1
	adcs r3, r3, r11
	umaal r4, r0, r4, r1
	adcs r4, r4, r12
	umaal r5, r0, r5, r1
	adcs r5, r5, lr
	ldr r10, [sp, #(\a + 16)]
	ldr r11, [sp, #(\a + 20)]
	ldr r12, [sp, #(\a + 24)]
	ldr lr, [sp, #(\a + 28)]
	umaal r6, r0, r6, r1
	adcs r6, r6, r10
	umaal r7, r0, r7, r1
	adcs r7, r7, r11
	umaal r8, r0, r8, r1
	adcs r8, r8, r12
	umaal r9, r0, r9, r1
	adcs r9, r9, lr
	adc r0, r0, #0
	add r11, sp, #\out
	mov r1, #19
	fold19 r2, r3, r4, r5, r6, r7, r8, r9, r0, r1, r10
	stm r11, {r2-r9}
	.endm

/* fcswap X, Y: X <-> Y when r12 is all ones, unchanged when 0 (r12 kept). UADD8 of the mask with
 * itself sets the four GE flags (a byte 0xff + 0xff carries) or clears them (ARM DDI 0403E
 * A7.7.176), and SEL picks each byte by its GE flag (A7.7.127): x' = GE ? y : x into a free
 * register, y' = GE ? x : y into x's, one instruction per word and side; four words at a time. */
	.macro fcswap x, y
	uadd8 lr, r12, r12
	add r0, sp, #\x
	add r1, sp, #\y
	.rept 2
	ldm r0!, {r2-r5}
	ldm r1, {r6-r9}
	sel r10, r6, r2
	sel r2, r2, r6
	sel r6, r7, r3
	sel r3, r3, r7
	sel r7, r8, r4
	sel r4, r4, r8
	sel r8, r9, r5
	sel r5, r5, r9
	stm r1!, {r2-r5}			@ y'
	str r10, [r0, #-16]			@ x'
	str r6, [r0, #-12]
	str r7, [r0, #-8]
	str r8, [r0, #-4]
	.endr
	.endm

/* void x25519_scalarmult(uint32_t r[8], const uint32_t k[8], const uint32_t u[8]): the ladder of
 * x25519.h (and RFC 7748 §5) step for step, then z2^(p - 2) by ref10's addition chain (254 S +
 * 11 M, x25519.h fe25519_invert), x2 z2^(p - 2), and the canonical result. */
	.global x25519_scalarmult
	.type x25519_scalarmult, %function
	.thumb_func
	.align 2
x25519_scalarmult:
	push {r4-r11, lr}
	sub sp, #FRAME
	str r0, [sp, #OUTP]
	ldm r1, {r3-r10}			@ k, clamped (decodeScalar25519)
	bic r3, r3, #7
	bic r10, r10, #0x80000000
	orr r10, r10, #0x40000000
	add r11, sp, #SK
	stm r11, {r3-r10}
	ldm r2, {r3-r10}			@ u, bit 255 masked (decodeUCoordinate)
	bic r10, r10, #0x80000000
	add r11, sp, #X1
	stm r11, {r3-r10}
	add r11, sp, #X3
	stm r11, {r3-r10}			@ x3 = u
	mov r3, #1
	mov r4, #0
	mov r5, #0
	mov r6, #0
	mov r7, #0
	mov r8, #0
	mov r9, #0
	mov r10, #0
	add r11, sp, #X2
	stm r11, {r3-r10}			@ x2 = 1
	add r11, sp, #Z3
	stm r11, {r3-r10}			@ z3 = 1
	mov r3, #0
	add r11, sp, #Z2
	stm r11, {r3-r10}			@ z2 = 0
	str r3, [sp, #SWAP]
	mov r0, #254
	str r0, [sp, #CNT]
.Lladder:
	ldr r0, [sp, #CNT]			@ t
	lsr r1, r0, #5
	add r2, sp, #SK
	ldr r1, [r2, r1, lsl #2]		@ k[t >> 5]
	and r0, r0, #31
	lsr r1, r1, r0
	and r1, r1, #1				@ k_t
	ldr r2, [sp, #SWAP]
	eor r2, r2, r1				@ swap ^= k_t
	str r1, [sp, #SWAP]			@ swap = k_t after the swaps
	rsb r12, r2, #0				@ the mask
	fcswap X2, X3
	fcswap Z2, Z3
	fadd FA, X2, Z2
	fsqrl AA, FA
	fsub FB, X2, Z2
	fsqrl BB, FB
	fsub FE, AA, BB
	fadd FC, X3, Z3
	fsub FD, X3, Z3
	fmul DA, FD, FA
	fmul CB, FC, FB
	fadd FT, DA, CB
	fsqrl X3, FT				@ x3 = (DA + CB)^2
	fsub FT, DA, CB
	fsqrl FT, FT
	fmul Z3, X1, FT				@ z3 = x1 (DA - CB)^2
	fmul X2, AA, BB				@ x2 = AA BB
	fa24add FT, AA, FE
	fmul Z2, FE, FT				@ z2 = E (AA + a24 E)
	ldr r0, [sp, #CNT]
	subs r0, r0, #1
	str r0, [sp, #CNT]
	bpl .Lladder
	ldr r12, [sp, #SWAP]
	rsb r12, r12, #0
	fcswap X2, X3
	fcswap Z2, Z3
@ FT = z2^(p - 2), z = Z2 (x25519.h fe25519_invert: a = FA, b = FB, z9 = FE, z11 = FC, r = FT)
	fsqr FA, Z2				@ z^2
	fsqr FB, FA				@ z^4
	fsqr FB, FB				@ z^8
	fmul FE, FB, Z2				@ z^9
	fmul FC, FE, FA				@ z^11
	fsqr FB, FC				@ z^22
	fmul FA, FB, FE				@ z^(2^5 - 1)
	fsqr FB, FA
	fsqrn FB, 4
	fmul FA, FB, FA				@ z^(2^10 - 1)
	fsqr FB, FA
	fsqrn FB, 9
	fmul FB, FB, FA				@ z^(2^20 - 1)
	fsqr FT, FB
	fsqrn FT, 19
	fmul FT, FT, FB				@ z^(2^40 - 1)
	fsqrn FT, 10
	fmul FA, FT, FA				@ z^(2^50 - 1)
	fsqr FB, FA
	fsqrn FB, 49
	fmul FB, FB, FA				@ z^(2^100 - 1)
	fsqr FT, FB
	fsqrn FT, 99
	fmul FT, FT, FB				@ z^(2^200 - 1)
	fsqrn FT, 50
	fmul FT, FT, FA				@ z^(2^250 - 1)
	fsqrn FT, 5
	fmul FT, FT, FC				@ z^(2^255 - 21) = z^(p - 2)
	fmul FT, X2, FT
@ the canonical result: R below 2^256, top = bit 255
	add r8, sp, #FT
	ldm r8, {r0-r7}
	lsr r8, r7, #31
	mov r9, #19
	canon r0, r1, r2, r3, r4, r5, r6, r7, r8, r9, r10
	ldr r8, [sp, #OUTP]
	stm r8, {r0-r7}
	add sp, #FRAME
	pop {r4-r11, pc}
	.size x25519_scalarmult, . - x25519_scalarmult
#endif
