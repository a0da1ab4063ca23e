/* GF(2^255 - 19) arithmetic for ARMv6-M (Cortex-M0/M0+), hand-written Thumb around MULS, the
 * only multiply the architecture has: 32x32 -> 32 bits (ARM DDI 0419E A6.7.44; 1 cycle on the
 * Cortex-M0+ with the fast multiplier, DDI 0484C Table 3.1). refbench's own code. The 512-bit
 * product is Karatsuba's, three levels deep (256 -> 128 -> 64 -> 32 bits: 27 word products
 * instead of 64; see the Karatsuba section below), each word product from four 16x16 -> 32
 * products (the schoolbook split of HAC 14.12 with base 2^16) held in registers, and one
 * reduction pass with 2^256 = 38 (mod p) brings it down (RFC 7748 §4.1). The same code runs on
 * every later core; on the Cortex-M3 it is the constant-time multiplication: MUL (32-bit
 * result) takes 1 cycle whatever the operands, while UMULL/UMLAL end early on small operands
 * (Cortex-M3 TRM 100165_0201 Table 3-1 and its footnote a), and nothing here uses them.
 *
 * Every function takes and returns canonical values, in [0, p), the contract of fe.h's C
 * versions, so the same references check them and x25519.h's ladder runs on them unchanged:
 *
 *   fe25519_mul(r, a, b)       r = a b mod p
 *   fe25519_sqr(r, a)          r = a^2 mod p
 *   fe25519_add(r, a, b)       r = a + b mod p
 *   fe25519_sub(r, a, b)       r = a - b mod p
 *   fe25519_mul_a24(r, a)      r = 121665 a mod p
 *   fe25519_cswap(a, b, swap)  a <-> b when swap is 1 (swap in {0, 1}), by masks
 *
 * Registers: ARMv6-M's data-processing instructions reach r0-r7 only; MOV reaches r8-r12 and
 * lr, so the multiplication parks there what the eight low registers cannot hold (saving and
 * restoring r8-r11 for the caller, AAPCS), and exchanges 64- and 128-bit pieces with a
 * 208-byte stack frame by LDM/STM.
 *
 * Where this stands: the published ARMv6-M X25519 of T. Pornin (github.com/pornin/x25519-cm0,
 * commit 75a53f277d15acd9a0a8e220c8e26a48cc8974c2, README.md: 3,229,950 cycles on a SAM D20,
 * Cortex-M0+) also multiplies by three Karatsuba levels down to 32x32 products in registers
 * (src/x25519-cm0.S: 1,464 cycles per multiplication, 997 per squaring, both leaving results
 * below 2^256 rather than canonical, through internal calls that save no registers) and inverts
 * by a binary GCD (54,793 cycles, against about 270,000 for Fermat there). Here every result is
 * canonical (the contract above), every function is called from C under the AAPCS, and
 * x25519.h inverts by Fermat (254 squarings and 11 multiplications).
 *
 * No branch and no address depends on data: constant time.
 */
	.syntax unified
	.thumb
	.text

/* rw w, c, h, dst: word w of S = T_w + 38 T_(8+w) + c (c the carry in, below 2^11 + 19 * 80),
 * to dst (a high register, or r6), its carry out to h (the roles of c and h alternate from word to
 * word); r4, r5 clobbered, r7 = 38 and r2 = 0 */
	.macro rw w, c, h, dst
	ldr \h, [sp, #(96 + 4 * \w)]
	uxth r4, \h
	lsrs \h, \h, #16
	muls r4, r7
	muls \h, r7			@ below 2^22
	adds r4, \c			@ below 2^23: no carry out
	lsls r5, \h, #16
	lsrs \h, \h, #16
	adds r4, r5
	adcs \h, r2
	ldr r5, [sp, #(64 + 4 * \w)]
	adds r4, r5
	adcs \h, r2
	mov \dst, r4
	.endm

/* reduce: the canonical T mod p for the 512-bit T at [sp, #64..127], to the result pointer
 * saved at [sp, #128], in two passes (not three: fold, carry, canonical form). X7 = T_7 +
 * 38 T_15 (below 39 * 2^32) is formed first and split as X7 = 2^31 t + x (x < 2^31); since
 * 2^255 = 19, S = sum over w < 7 of (T_w + 38 T_(8+w)) 2^(32w) + x 2^224 + 19 (t + 1) =
 * T + 19 (mod p), and one carry pass makes it (38 w from two 16x6-bit products per word; the
 * carry stays below 2^11). S < 2^255 + 2^230; U = S - 19 is T mod p or T mod p + p, and U >= p
 * exactly when bit 255 of S is set; then U - p = S - 2^255, else the result is S - 19: the
 * second pass, over S_0..S_5 held in r8-r12 and lr (rw), S_6 in r6 and S_7 in r3, stored by
 * STM. */
	.macro reduce
	movs r7, #38
	movs r2, #0
	ldr r3, [sp, #124]		@ T_15
	uxth r4, r3
	lsrs r3, r3, #16
	muls r4, r7
	muls r3, r7
	lsls r5, r3, #16
	lsrs r3, r3, #16
	adds r4, r5
	adcs r3, r2
	ldr r5, [sp, #92]		@ T_7
	adds r4, r5
	adcs r3, r2			@ (r3:r4) = X7
	lsrs r0, r4, #31
	lsls r3, r3, #1
	adds r0, r3			@ t
	lsls r1, r4, #1
	lsrs r1, r1, #1			@ x = X7 mod 2^31
	adds r0, #1
	movs r6, #19
	muls r0, r6			@ carry in: 19 (t + 1)
	rw 0, r0, r3, r8
	rw 1, r3, r0, r9
	rw 2, r0, r3, r10
	rw 3, r3, r0, r11
	rw 4, r0, r3, r12
	rw 5, r3, r0, lr
	rw 6, r0, r3, r6
	adds r3, r1, r3			@ S_7 = x + carry, below 2^32
	lsrs r4, r3, #31		@ q = bit 255 of S
	lsls r3, r3, #1
	lsrs r3, r3, #1			@ S - 2^255 q
	subs r4, #1
	movs r5, #19
	ands r4, r5			@ 19 (1 - q)
	ldr r7, [sp, #128]
	mov r0, r8
	subs r0, r4
	mov r1, r9
	sbcs r1, r2
	mov r4, r10
	sbcs r4, r2
	mov r5, r11
	sbcs r5, r2
	stm r7!, {r0, r1, r4, r5}
	mov r0, r12
	sbcs r0, r2
	mov r1, lr
	sbcs r1, r2
	movs r4, r6
	sbcs r4, r2
	movs r5, r3
	sbcs r5, r2
	stm r7!, {r0, r1, r4, r5}
	.endm

/* ---------------------------------------------------------------------------------------- */
/* The Karatsuba product (Karatsuba and Ofman, Soviet Physics Doklady 7, 1963; the subtractive
 * form of Knuth, TAOCP vol. 2, 4.3.3): for n-bit halves, x = x0 + 2^n x1, y = y0 + 2^n y1,
 *   x y = L + 2^n (L + H + (x1 - x0)(y0 - y1)) + 2^2n H,  L = x0 y0, H = x1 y1,
 * the middle product taken as |x1 - x0| |y0 - y1| and its sign s, applied as (P xor M) - M for
 * the mask M = -s (two's complement, no branch). Three levels: 256 -> 128 -> 64 -> 32 bits, 27
 * word products (64 in the schoolbook product), each from four 16x16 MULS held in registers;
 * the 64x64 level runs wholly in registers (r8-r10 hold what the eight low registers cannot),
 * the upper levels exchange 64- and 128-bit pieces with the stack frame. A square uses the same
 * shape with P = (x1 - x0)^2 and M = -1 (the middle term is L + H - P), and three 16x16 squares
 * per word product. */

/* m32 lo, hi, y, t, u: (hi:lo) = lo * y, four 16x16 products; y, t, u clobbered (five distinct
 * registers). 17 cycles on the Cortex-M0+. On Thumb-2 cores (ARMv7-M and later) the same four
 * products with three-operand MUL and ADDS/ADC of a shifted register (ARM DDI 0403E A7.7, MUL,
 * ADD and ADC (register); 1 cycle each on the Cortex-M3, 100165_0201 Table 3-1): 12
 * instructions. */
	.macro m32 lo, hi, y, t, u
#if defined(__ARM_ARCH_ISA_THUMB) && __ARM_ARCH_ISA_THUMB >= 2
	lsrs \t, \y, #16		@ yh
	uxth \y, \y			@ yl
	lsrs \u, \lo, #16		@ xh
	uxth \lo, \lo			@ xl
	mul \hi, \u, \t			@ xh yh
	mul \u, \u, \y			@ xh yl
	mul \t, \lo, \t			@ xl yh
	mul \lo, \lo, \y			@ xl yl
	adds \lo, \lo, \t, lsl #16
	adc \hi, \hi, \t, lsr #16
	adds \lo, \lo, \u, lsl #16
	adc \hi, \hi, \u, lsr #16
#else
	lsrs \hi, \lo, #16		@ xh
	lsrs \t, \y, #16		@ yh
	muls \hi, \t			@ xh yh, weight 2^32
	lsrs \u, \lo, #16		@ xh again
	uxth \lo, \lo			@ xl
	uxth \y, \y			@ yl
	muls \t, \lo			@ xl yh, weight 2^16
	muls \u, \y			@ xh yl, weight 2^16
	muls \lo, \y			@ xl yl
	lsrs \y, \t, #16
	lsls \t, \t, #16
	adds \lo, \t
	adcs \hi, \y
	lsrs \y, \u, #16
	lsls \u, \u, #16
	adds \lo, \u
	adcs \hi, \y			@ below 2^64: no carry out
#endif
	.endm

/* s32 lo, hi, t, u: (hi:lo) = lo^2 from three 16x16 products; t, u clobbered. 10 cycles on the
 * Cortex-M0+; 7 instructions on Thumb-2 cores, as m32. */
	.macro s32 lo, hi, t, u
#if defined(__ARM_ARCH_ISA_THUMB) && __ARM_ARCH_ISA_THUMB >= 2
	lsrs \hi, \lo, #16		@ xh
	uxth \lo, \lo			@ xl
	mul \t, \hi, \lo			@ xh xl
	mul \hi, \hi, \hi
	mul \lo, \lo, \lo
	adds \lo, \lo, \t, lsl #17
	adc \hi, \hi, \t, lsr #15
#else
	lsrs \hi, \lo, #16		@ xh
	uxth \lo, \lo			@ xl
	movs \t, \hi
	muls \t, \lo			@ xh xl, weight 2^17 once doubled
	muls \hi, \hi			@ xh^2
	muls \lo, \lo			@ xl^2
	lsrs \u, \t, #15
	lsls \t, \t, #17
	adds \lo, \t
	adcs \hi, \u
#endif
	.endm

/* k64core: (r3:r2:r1:r0) = (r2:r0) (r5:r4), i.e. x0 = r0, x1 = r2, y0 = r4, y1 = r5; r0-r10
 * clobbered (r8-r10 hold |y0 - y1|, the sign mask and L's low word across the products). */
	.macro k64core
	subs r6, r2, r0			@ x1 - x0
	sbcs r7, r7			@ its sign mask
	eors r6, r7
	subs r6, r7			@ |x1 - x0|
	subs r1, r4, r5			@ y0 - y1
	sbcs r3, r3
	eors r1, r3
	subs r1, r3			@ |y0 - y1|
	eors r3, r7			@ M: all ones when the middle product is negative
	mov r8, r1
	mov r9, r3
	m32 r0, r1, r4, r3, r7		@ L = x0 y0
	m32 r2, r3, r5, r4, r7		@ H = x1 y1
	mov r10, r0
	mov r4, r8
	m32 r6, r5, r4, r0, r7		@ P = |x1 - x0| |y0 - y1|
	mov r0, r10
	mov r7, r9
	eors r6, r7
	eors r5, r7			@ (r7:r5:r6) = P xor M, and - M = 1 when M = -1:
	lsrs r4, r7, #1			@ the carry into the addition of L
	movs r4, #0
	adcs r6, r0
	adcs r5, r1
	adcs r7, r4			@ (P xor M) - M + L: the signed middle product plus L
	adds r6, r2
	adcs r5, r3
	adcs r7, r4			@ + L + H: x0 y1 + x1 y0, below 2^65
	adds r1, r6
	adcs r2, r5
	adcs r3, r7
	.endm

/* s64core: (r3:r2:r1:r0) = (r2:r0)^2 */
	.macro s64core
	subs r4, r2, r0
	sbcs r5, r5
	eors r4, r5
	subs r4, r5			@ |x1 - x0|
	s32 r4, r5, r6, r7		@ P = (x1 - x0)^2
	s32 r0, r1, r6, r7		@ L
	s32 r2, r3, r6, r7		@ H
	movs r7, #0
	rsbs r4, r4, #0
	movs r6, #0
	sbcs r6, r5
	sbcs r5, r5			@ (r5:r6:r4) = -P
	adds r4, r0
	adcs r6, r1
	adcs r5, r7
	adds r4, r2
	adcs r6, r3
	adcs r5, r7			@ + L + H = 2 x0 x1
	adds r1, r4
	adcs r2, r6
	adcs r3, r5
	.endm

/* at reg, src, off: reg = the address of a piece: src = sp for sp + off (the frame), or a or b
 * for byte off of the operand a or b, whose pointers the functions keep at [sp, #200] and
 * [sp, #204] (the operands are read where they are, not copied). */
	.macro at reg, src, off
	.ifc \src, sp
	add \reg, sp, #(\off)
	.else
	.ifc \src, a
	ldr \reg, [sp, #200]
	.else
	ldr \reg, [sp, #204]
	.endif
	.if (\off) != 0
	adds \reg, #(\off)
	.endif
	.endif
	.endm

/* k64 sx, ix, sy, iy, id: the 128-bit product of the 64-bit x at (sx, ix) and y at (sy, iy)
 * (see at) to [sp, #id]; s64 sx, ix, id: the square of x. */
	.macro k64 sx, ix, sy, iy, id
	at r6, \sx, (\ix)
	ldm r6!, {r0, r2}
	at r6, \sy, (\iy)
	ldm r6!, {r4, r5}
	k64core
	add r4, sp, #(\id)
	stm r4!, {r0-r3}
	.endm

	.macro s64 sx, ix, id
	at r6, \sx, (\ix)
	ldm r6!, {r0, r2}
	s64core
	add r4, sp, #(\id)
	stm r4!, {r0-r3}
	.endm

/* comb128 id: with L at [sp, #id .. +15], H at [sp, #id + 16 .. +31], the middle product P in
 * r0-r3 and its mask M in r4: adds L + H + (P xor M) - M at [sp, #id + 8]. */
	.macro comb128 id
	eors r0, r4
	eors r1, r4
	eors r2, r4
	eors r3, r4			@ (r4:r3:r2:r1:r0) = P xor M
	lsrs r5, r4, #1			@ carry = - M: (P xor M) - M + L in one chain
	add r7, sp, #(\id)
	ldm r7!, {r5, r6}
	adcs r0, r5
	adcs r1, r6
	ldm r7!, {r5, r6}
	adcs r2, r5
	adcs r3, r6
	movs r5, #0
	adcs r4, r5			@ + L
	ldm r7!, {r5, r6}
	adds r0, r5
	adcs r1, r6
	ldm r7!, {r5, r6}
	adcs r2, r5
	adcs r3, r6
	movs r5, #0
	adcs r4, r5			@ + H: the middle term, below 2^129
	mov r8, r4
	add r7, sp, #(\id + 8)
	mov r4, r7			@ r7 reads, r4 writes D[2..7]
	ldm r7!, {r5, r6}
	adds r5, r0
	adcs r6, r1
	stm r4!, {r5, r6}
	ldm r7!, {r5, r6}
	adcs r5, r2
	adcs r6, r3
	stm r4!, {r5, r6}
	ldm r7!, {r5, r6}
	mov r0, r8
	adcs r5, r0
	movs r0, #0
	adcs r6, r0			@ the product is below 2^256: no carry out
	stm r4!, {r5, r6}
	.endm

/* k128 sx, ix, sy, iy, id: the 256-bit product of the 128-bit x at (sx, ix), y at (sy, iy)
 * to [sp, #id]; r12 holds the middle product's sign. s128 sx, ix, id: the square. */
	.macro k128 sx, ix, sy, iy, id
	k64 \sx, (\ix), \sy, (\iy), (\id)
	k64 \sx, (\ix + 8), \sy, (\iy + 8), (\id + 16)
	at r6, \sx, (\ix)
	ldm r6!, {r0-r3}
	subs r0, r2, r0
	sbcs r3, r1
	sbcs r1, r1			@ the sign mask of x1 - x0
	eors r0, r1
	eors r3, r1
	subs r0, r1
	sbcs r3, r1
	movs r2, r3			@ |x1 - x0| in (r2:r0)
	at r3, \sy, (\iy)
	ldm r3!, {r4-r7}
	subs r4, r6
	sbcs r5, r7
	sbcs r6, r6
	eors r4, r6
	eors r5, r6
	subs r4, r6
	sbcs r5, r6			@ |y0 - y1| in (r5:r4)
	eors r6, r1
	mov r12, r6			@ M
	k64core
	mov r4, r12
	comb128 (\id)
	.endm

	.macro s128 sx, ix, id
	s64 \sx, (\ix), (\id)
	s64 \sx, (\ix + 8), (\id + 16)
	at r6, \sx, (\ix)
	ldm r6!, {r0-r3}
	subs r0, r2, r0
	sbcs r3, r1
	sbcs r7, r7
	eors r0, r7
	eors r3, r7
	subs r0, r7
	sbcs r3, r7
	movs r2, r3			@ |x1 - x0| in (r2:r0)
	s64core
	movs r4, #0
	mvns r4, r4			@ M = -1: subtract P
	comb128 (\id)
	.endm

/* The 256-bit level, in the frame of fe25519_mul/sqr (enter): x and y read through the
 * pointers at [sp, #200] and [sp, #204], the 512-bit result T at [sp, #64] (L, then H at
 * [sp, #96]), |x1 - x0| at [sp, #132], |y0 - y1| at [sp, #148], the middle product P at
 * [sp, #164], one carry at [sp, #196]; lr holds P's sign mask. */

/* xdiff: |x1 - x0| to [sp, #132], its sign mask to lr */
	.macro xdiff
	ldr r4, [sp, #200]
	ldm r4!, {r0-r3}
	ldm r4, {r4-r7}
	subs r4, r0
	sbcs r5, r1
	sbcs r6, r2
	sbcs r7, r3
	sbcs r0, r0
	eors r4, r0
	eors r5, r0
	eors r6, r0
	eors r7, r0
	subs r4, r0
	sbcs r5, r0
	sbcs r6, r0
	sbcs r7, r0
	mov lr, r0
	add r0, sp, #132
	stm r0!, {r4-r7}
	.endm

/* comb256: T[4..15] += L + H + (P xor M) - M, M in lr, by 128-bit blocks (the refined
 * Karatsuba of Bernstein, "Batch binary Edwards", CRYPTO 2009, 2.2, which shares L1 + H0):
 * with L = L0 + 2^128 L1, H = H0 + 2^128 H1, Q = L1 + H0 = Qw + 2^128 q and the signed middle
 * product V = (P xor M) + s (s = -M) whose words above P's are M,
 *   T[4..7]   = Qw + L0 + (P0..3 xor M) + s            carries c1 (0..2)
 *   T[8..11]  = Qw + H1 + (P4..7 xor M) + q + c1       carries c2 (0..3)
 *   T[12..15] = H1 + (M, M, M, M) + q + c2             mod 2^128: the product fits 512 bits
 * Q is kept in r8-r11 and q in r12 between the blocks; one carry goes through [sp, #196]. With
 * sq = 1 (a square: M = -1 whatever lr holds) each x + (y xor M) + carry is SBCS x, y, which
 * gives the same sum and carry (ARM DDI 0419E A6.7, SBC (register): x + NOT(y) + carry). */
	.macro comb256 sq
	add r4, sp, #80
	ldm r4!, {r0-r3}		@ L1
	ldm r4, {r4-r7}			@ H0
	adds r0, r4
	adcs r1, r5
	adcs r2, r6
	adcs r3, r7
	movs r4, #0
	adcs r4, r4
	mov r12, r4			@ q
	mov r8, r0
	mov r9, r1
	mov r10, r2
	mov r11, r3			@ Qw
	add r4, sp, #64
	ldm r4, {r4-r7}			@ L0
	adds r0, r4
	adcs r1, r5
	adcs r2, r6
	adcs r3, r7
	movs r6, #0
	adcs r6, r6
	str r6, [sp, #196]		@ first carry of c1
	.if \sq
	ldr r4, [sp, #164]		@ M = -1: x + (y xor M) + carry is SBCS x, y
	ldr r5, [sp, #168]
	subs r0, r4
	sbcs r1, r5
	ldr r4, [sp, #172]
	ldr r5, [sp, #176]
	sbcs r2, r4
	sbcs r3, r5
	.else
	mov r7, lr			@ M
	ldr r4, [sp, #164]
	ldr r5, [sp, #168]
	eors r4, r7
	eors r5, r7
	lsrs r6, r7, #1			@ carry = s
	adcs r0, r4
	adcs r1, r5
	ldr r4, [sp, #172]
	ldr r5, [sp, #176]
	eors r4, r7
	eors r5, r7
	adcs r2, r4
	adcs r3, r5
	.endif
	movs r4, #0
	adcs r4, r4
	ldr r5, [sp, #196]
	adds r4, r5			@ c1
	mov r5, r12
	adds r4, r5
	str r4, [sp, #196]		@ q + c1
	add r4, sp, #80
	stm r4!, {r0-r3}		@ T[4..7]
	mov r0, r8
	mov r1, r9
	mov r2, r10
	mov r3, r11
	add r4, sp, #112
	ldm r4, {r4-r7}			@ H1
	adds r0, r4
	adcs r1, r5
	adcs r2, r6
	adcs r3, r7
	movs r6, #0
	adcs r6, r6
	.if \sq
	ldr r4, [sp, #180]
	ldr r5, [sp, #184]
	adds r4, r4, #0			@ carry 0
	sbcs r0, r4
	sbcs r1, r5
	ldr r4, [sp, #188]
	ldr r5, [sp, #192]
	sbcs r2, r4
	sbcs r3, r5
	.else
	mov r7, lr
	ldr r4, [sp, #180]
	ldr r5, [sp, #184]
	eors r4, r7
	eors r5, r7
	adds r0, r4
	adcs r1, r5
	ldr r4, [sp, #188]
	ldr r5, [sp, #192]
	eors r4, r7
	eors r5, r7
	adcs r2, r4
	adcs r3, r5
	.endif
	movs r4, #0
	adcs r6, r4
	ldr r5, [sp, #196]
	adds r0, r5
	adcs r1, r4
	adcs r2, r4
	adcs r3, r4
	adcs r6, r4			@ c2
	add r5, sp, #96
	stm r5!, {r0-r3}		@ T[8..11]
	ldm r5!, {r0-r3}		@ H1
	.if \sq
	subs r0, #1			@ + (M, M, M, M) = - 1 (mod 2^128)
	sbcs r1, r4
	sbcs r2, r4
	sbcs r3, r4
	.else
	mov r7, lr
	adds r0, r7
	adcs r1, r7
	adcs r2, r7
	adcs r3, r7			@ + (M, M, M, M)
	.endif
	mov r7, r12
	adds r6, r7			@ q + c2
	adds r0, r6
	adcs r1, r4
	adcs r2, r4
	adcs r3, r4			@ r4 = 0
	add r5, sp, #112
	stm r5!, {r0-r3}		@ T[12..15]
	.endm
/* kara_mul, kara_sqr: the 512-bit a b (a^2) to T, a and b read through their pointers */
	.macro kara_mul
	k128 a, 0, b, 0, 64
	k128 a, 16, b, 16, 96
	xdiff
	ldr r4, [sp, #204]
	ldm r4!, {r0-r3}
	ldm r4, {r4-r7}
	subs r0, r4
	sbcs r1, r5
	sbcs r2, r6
	sbcs r3, r7
	sbcs r4, r4
	eors r0, r4
	eors r1, r4
	eors r2, r4
	eors r3, r4
	subs r0, r4
	sbcs r1, r4
	sbcs r2, r4
	sbcs r3, r4			@ |y0 - y1|
	mov r5, lr
	eors r5, r4
	mov lr, r5			@ M
	add r4, sp, #148
	stm r4!, {r0-r3}
	k128 sp, 132, sp, 148, 164
	comb256 0
	.endm

	.macro kara_sqr
	s128 a, 0, 64
	s128 a, 16, 96
	xdiff
	s128 sp, 132, 164
	comb256 1			@ M = -1
	.endm

/* enter, leave: the frame of the Karatsuba functions (208 bytes, layout above xdiff), the
 * result pointer at [sp, #128], the operand pointers r1 and (operands = 2) r2 at [sp, #200]
 * and [sp, #204]; r8-r11, which k64core, comb256 and reduce use, saved and restored (AAPCS). */
	.macro enter operands
	push {r4-r7, lr}
	mov r4, r8
	mov r5, r9
	mov r6, r10
	mov r7, r11
	push {r4-r7}
	sub sp, #208
	str r0, [sp, #128]
	str r1, [sp, #200]
	.if \operands == 2
	str r2, [sp, #204]
	.endif
	.endm

	.macro leave
	add sp, #208
	pop {r4-r7}
	mov r8, r4
	mov r9, r5
	mov r10, r6
	mov r11, r7
	pop {r4-r7, pc}
	.endm

/* void fe25519_mul(uint32_t r[8], const uint32_t a[8], const uint32_t b[8]) */
	.global fe25519_mul
	.type fe25519_mul, %function
	.thumb_func
	.align 2
fe25519_mul:
	enter 2
	kara_mul
	reduce
	leave
	.size fe25519_mul, . - fe25519_mul

#if defined(__ARM_ARCH_ISA_THUMB) && __ARM_ARCH_ISA_THUMB >= 2
/* On Thumb-2 cores the square by product scanning: Karatsuba's additions cost more there than the
 * cross products they save (fe25519_sqr measured in refbench's models, kara_sqr -> this: Cortex-M3 and M4
 * 1,035 -> 993 cycles, M33 990 -> 952; the M7, whose dual issue suits Karatsuba's additions, 678 -> 700,
 * which the preprocessor cannot tell from the M4), as three-operand MUL and ADDS/ADC of a shifted
 * register (ARM DDI 0403E A7.7; 1 cycle each on the Cortex-M3, 100165_0201 Table 3-1) add each 16x16
 * product of a cross product doubled (2 p 2^16 is p << 17 in the low word and p >> 15 in the high one).
 * a is read through r8. */

/* t2cross k, c0, c1, c2: (c2:c1:c0) += 2 a_i a_(k-i), i = t2_i; r3-r7 clobbered */
	.macro t2cross k, c0, c1, c2
	ldr r3, [r8, #(4 * t2_i)]
	ldr r4, [r8, #(4 * (\k - t2_i))]
	uxth r5, r3			@ xl
	lsrs r3, r3, #16		@ xh
	uxth r6, r4			@ yl
	lsrs r4, r4, #16		@ yh
	mul r7, r5, r6			@ xl yl
	mul r6, r3, r6			@ xh yl
	mul r5, r5, r4			@ xl yh
	mul r4, r3, r4			@ xh yh
	adds \c0, \c0, r7, lsl #1
	adcs \c1, \c1, r7, lsr #31
	adc \c2, \c2, #0
	adds \c1, \c1, r4, lsl #1
	adc \c2, \c2, r4, lsr #31
	adds \c0, \c0, r6, lsl #17
	adcs \c1, \c1, r6, lsr #15
	adc \c2, \c2, #0
	adds \c0, \c0, r5, lsl #17
	adcs \c1, \c1, r5, lsr #15
	adc \c2, \c2, #0
	.endm

/* t2square k, c0, c1, c2: (c2:c1:c0) += a_(k/2)^2 (xl^2, xh^2, and xh xl shifted by 17); r3-r5 clobbered */
	.macro t2square k, c0, c1, c2
	ldr r3, [r8, #(2 * \k)]
	lsrs r4, r3, #16		@ xh
	uxth r3, r3			@ xl
	mul r5, r4, r3			@ xh xl
	mul r4, r4, r4
	mul r3, r3, r3
	adds \c0, \c0, r3
	adcs \c1, \c1, r4
	adc \c2, \c2, #0
	adds \c0, \c0, r5, lsl #17
	adcs \c1, \c1, r5, lsr #15
	adc \c2, \c2, #0
	.endm

/* t2col k, c0, c1, c2: column k of a^2 (each a_i a_(k-i), i < k - i, doubled; a_(k/2)^2 for even k)
 * into the accumulator; its low word c0 to T_k at [sp, #64 + 4k], then zeroed (the next top word) */
	.macro t2col k, c0, c1, c2
	.if \k > 7
	.set t2_i, \k - 7
	.else
	.set t2_i, 0
	.endif
	.rept (\k + 1) / 2 - t2_i
	t2cross \k, \c0, \c1, \c2
	.set t2_i, t2_i + 1
	.endr
	.if (\k % 2) == 0
	t2square \k, \c0, \c1, \c2
	.endif
	str \c0, [sp, #(64 + 4 * \k)]
	movs \c0, #0
	.endm
#endif

/* void fe25519_sqr(uint32_t r[8], const uint32_t a[8]): Karatsuba on ARMv6-M, product scanning on
 * Thumb-2 cores (above) */
	.global fe25519_sqr
	.type fe25519_sqr, %function
	.thumb_func
	.align 2
fe25519_sqr:
	enter 1
#if defined(__ARM_ARCH_ISA_THUMB) && __ARM_ARCH_ISA_THUMB >= 2
	mov r8, r1
	movs r0, #0
	movs r1, #0
	movs r2, #0
	t2col 0, r0, r1, r2
	t2col 1, r1, r2, r0
	t2col 2, r2, r0, r1
	t2col 3, r0, r1, r2
	t2col 4, r1, r2, r0
	t2col 5, r2, r0, r1
	t2col 6, r0, r1, r2
	t2col 7, r1, r2, r0
	t2col 8, r2, r0, r1
	t2col 9, r0, r1, r2
	t2col 10, r1, r2, r0
	t2col 11, r2, r0, r1
	t2col 12, r0, r1, r2
	t2col 13, r1, r2, r0
	t2col 14, r2, r0, r1
	str r0, [sp, #124]		@ T_15
#else
	kara_sqr
#endif
	reduce
	leave
	.size fe25519_sqr, . - fe25519_sqr

/* void fe25519_add(uint32_t r[8], const uint32_t a[8], const uint32_t b[8]): S = a + b in one
 * pass, below 2p < 2^256 - 38. S >= p exactly when S + 19 >= 2^255, i.e. when bit 31 of
 * S_7 + c1 is set, c1 the carry of (S_1 & ... & S_6) + c0, c0 the carry of S_0 + 19 (the
 * carry of S + 19 into word 7, as the AND of the middle words is all ones exactly when they
 * all are; S_7 + c1 cannot wrap, as S < 2^256 - 38). Then S - p = S + 19 - 2^255, else S: the
 * second pass adds 19 q and clears bit 255. */
	.global fe25519_add
	.type fe25519_add, %function
	.thumb_func
	.align 2
fe25519_add:
	push {r4-r7, lr}
	ldm r1!, {r3, r4}
	ldm r2!, {r5, r6}
	adds r3, r5
	adcs r4, r6
	mov r12, r3			@ S_0
	movs r7, r4			@ the AND of S_1 .. S_6 (MOVS register leaves the carry alone)
	stm r0!, {r3, r4}
	.rept 2
	ldm r1!, {r3, r4}
	ldm r2!, {r5, r6}
	adcs r3, r5
	adcs r4, r6
	ands r7, r3			@ ANDS leaves the carry alone
	ands r7, r4
	stm r0!, {r3, r4}
	.endr
	ldm r1!, {r3, r4}
	ldm r2!, {r5, r6}
	adcs r3, r5			@ S_6
	adcs r4, r6			@ S_7
	ands r7, r3
	mov r5, r12
	movs r6, #19
	adds r5, r6			@ c0
	movs r1, #0
	adcs r7, r1			@ c1
	adcs r1, r4			@ S_7 + c1
	lsrs r1, r1, #31		@ q
	rsbs r1, r1, #0
	ands r6, r1			@ 19 q
	subs r0, #24
	mov r1, r0
	ldm r1!, {r2, r5, r7}
	adds r2, r6
	movs r6, #0
	adcs r5, r6
	adcs r7, r6
	stm r0!, {r2, r5, r7}
	ldm r1!, {r2, r5, r7}
	adcs r2, r6
	adcs r5, r6
	adcs r7, r6
	stm r0!, {r2, r5, r7}
	adcs r3, r6
	adcs r4, r6
	lsls r4, r4, #1
	lsrs r4, r4, #1			@ - 2^255 q (bit 255 of S is clear when q = 0)
	stm r0!, {r3, r4}
	pop {r4-r7, pc}
	.size fe25519_add, . - fe25519_add

/* void fe25519_sub(uint32_t r[8], const uint32_t a[8], const uint32_t b[8]): S = a - b + 2^255
 * in one pass (the borrow out is dropped: S is in (19, 2^256 - 19)). Bit 255 of S is set
 * exactly when a >= b, and then a - b = S - 2^255; else a - b + p = S - 19: the second pass. */
	.global fe25519_sub
	.type fe25519_sub, %function
	.thumb_func
	.align 2
fe25519_sub:
	push {r4-r7, lr}
	ldm r1!, {r3, r4}
	ldm r2!, {r5, r6}
	subs r3, r5
	sbcs r4, r6
	stm r0!, {r3, r4}
	.rept 2
	ldm r1!, {r3, r4}
	ldm r2!, {r5, r6}
	sbcs r3, r5
	sbcs r4, r6
	stm r0!, {r3, r4}
	.endr
	ldm r1!, {r3, r4}
	ldm r2!, {r5, r6}
	sbcs r3, r5			@ S_6
	sbcs r4, r6
	movs r5, #1
	lsls r5, r5, #31
	eors r4, r5			@ S_7: + 2^255
	lsrs r5, r4, #31		@ q = a >= b
	lsls r4, r4, #1
	lsrs r4, r4, #1			@ S - 2^255 q
	subs r5, #1
	movs r6, #19
	ands r5, r6			@ 19 (1 - q)
	subs r0, #24
	mov r1, r0
	ldm r1!, {r2, r6, r7}
	subs r2, r5
	movs r5, #0
	sbcs r6, r5
	sbcs r7, r5
	stm r0!, {r2, r6, r7}
	ldm r1!, {r2, r6, r7}
	sbcs r2, r5
	sbcs r6, r5
	sbcs r7, r5
	stm r0!, {r2, r6, r7}
	sbcs r3, r5
	sbcs r4, r5
	stm r0!, {r3, r4}
	pop {r4-r7, pc}
	.size fe25519_sub, . - fe25519_sub

/* void fe25519_mul_a24(uint32_t r[8], const uint32_t a[8]): r = 121665 a mod p, with
 * 121665 = 2^16 + 0xdb41: a_w 121665 = a_w 0xdb41 + a_w 2^16, the first from two 16x16
 * products. In two passes, as reduce: the top word's product X7 = 121665 a_7 (below 2^49) comes
 * first and splits as 2^31 t + x; since 2^255 = 19 (mod p), S = sum over w < 7 of
 * 121665 a_w 2^(32w) + x 2^224 + 19 (t + 1) is the product plus 19, and U = S - 19 >= p exactly
 * when bit 255 of S is set (S < 2^255 + 2^242): then the result is S - 2^255, else S - 19. */

/* a24w a, c: (a:r4) = 121665 a + c for the word in a; r5, r6 clobbered, r7 = 0xdb41, r2 = 0 */
	.macro a24w a, c
	uxth r4, \a
	lsrs r5, \a, #16
	muls r4, r7			@ al 0xdb41
	muls r5, r7			@ ah 0xdb41, weight 2^16
	lsls r6, \a, #16
	lsrs \a, \a, #16		@ (a:r6) = a 2^16
	adds r4, r6
	adcs \a, r2
	lsls r6, r5, #16
	lsrs r5, r5, #16
	adds r4, r6
	adcs \a, r5
	.ifnc \c, none
	adds r4, \c
	adcs \a, r2
	.endif
	.endm

	.global fe25519_mul_a24
	.type fe25519_mul_a24, %function
	.thumb_func
	.align 2
fe25519_mul_a24:
	push {r4-r7, lr}
	sub sp, #28			@ S_0 .. S_6
	mov r12, r0
	ldr r7, =0xdb41
	movs r2, #0
	ldr r3, [r1, #28]
	a24w r3, none			@ (r3:r4) = X7
	lsrs r5, r4, #31
	lsls r3, r3, #1
	adds r3, r5			@ t, below 2^18
	lsls r4, r4, #1
	lsrs r4, r4, #1
	mov lr, r4			@ x = X7 mod 2^31
	adds r3, #1
	movs r5, #19
	muls r3, r5			@ carry in: 19 (t + 1)
	.irp w, 0, 2, 4, 6
	ldr r0, [r1, #(4 * \w)]
	a24w r0, r3
	str r4, [sp, #(4 * \w)]
	.if \w < 6
	ldr r3, [r1, #(4 * \w + 4)]
	a24w r3, r0
	str r4, [sp, #(4 * \w + 4)]
	.endif
	.endr
	mov r3, lr
	adds r3, r0			@ S_7 = x + carry, below 2^32
	lsrs r4, r3, #31		@ q = bit 255 of S
	lsls r3, r3, #1
	lsrs r3, r3, #1			@ S - 2^255 q
	subs r4, #1
	movs r5, #19
	ands r4, r5			@ 19 (1 - q)
	mov r0, r12
	mov r1, sp
	ldm r1!, {r5, r6, r7}
	subs r5, r4
	sbcs r6, r2
	sbcs r7, r2
	stm r0!, {r5, r6, r7}
	ldm r1!, {r4-r7}
	sbcs r4, r2
	sbcs r5, r2
	sbcs r6, r2
	sbcs r7, r2
	stm r0!, {r4-r7}
	sbcs r3, r2
	str r3, [r0]
	add sp, #28
	pop {r4-r7, pc}
	.ltorg
	.size fe25519_mul_a24, . - fe25519_mul_a24

/* void fe25519_cswap(uint32_t a[8], uint32_t b[8], uint32_t swap): t = (a_w ^ b_w) & -swap,
 * a_w ^= t, b_w ^= t. */
	.global fe25519_cswap
	.type fe25519_cswap, %function
	.thumb_func
	.align 2
fe25519_cswap:
	push {r4, r5, lr}
	rsbs r2, r2, #0			@ all ones when swap is 1
	.irp w, 0, 1, 2, 3, 4, 5, 6, 7
	ldr r3, [r0, #(4 * \w)]
	ldr r4, [r1, #(4 * \w)]
	movs r5, r3
	eors r5, r4
	ands r5, r2
	eors r3, r5
	eors r4, r5
	str r3, [r0, #(4 * \w)]
	str r4, [r1, #(4 * \w)]
	.endr
	pop {r4, r5, pc}
	.size fe25519_cswap, . - fe25519_cswap

/* void fe_mul8_wide(uint32_t t[16], const uint32_t a[8], const uint32_t b[8]) and
 * void fe_sqr8_wide(uint32_t t[16], const uint32_t a[8]): the 512-bit product (square) alone,
 * the same Karatsuba product as above, exported for the tests. */
	.macro wide_out
	ldr r0, [sp, #128]
	add r1, sp, #64
	.rept 4
	ldm r1!, {r2-r5}
	stm r0!, {r2-r5}
	.endr
	.endm

	.global fe_mul8_wide
	.type fe_mul8_wide, %function
	.thumb_func
	.align 2
fe_mul8_wide:
	enter 2
	kara_mul
	wide_out
	leave
	.size fe_mul8_wide, . - fe_mul8_wide

	.global fe_sqr8_wide
	.type fe_sqr8_wide, %function
	.thumb_func
	.align 2
fe_sqr8_wide:
	enter 1
	kara_sqr
	wide_out
	leave
	.size fe_sqr8_wide, . - fe_sqr8_wide

/* ---------------------------------------------------------------------------------------- */
/* P-256, p = 2^256 - 2^224 + 2^192 + 2^96 - 1 (FIPS 186-4 D.1.2.3): the same 512-bit product
 * and square, then the reduction of FIPS 186-4 Appendix D.2.3 in assembly: word w of
 * s1 + 2 s2 + 2 s3 + s4 + s5 - d1 - d2 - d3 - d4 summed into a signed two-word accumulator
 * (r1:r0, r1 signed; r2 = 0), the top word folded twice with
 * 2^256 = 2^224 - 2^192 - 2^96 + 1 (mod p), then one masked subtraction of p: the steps of
 * fe.h's p256_reduce, and like it canonical and branch-free. */

/* pterm k, n, op: add (op = 1) or subtract (op = 0) n times T_k (at [sp, #64 + 4k]) */
	.macro pterm k, n, op
	ldr r3, [sp, #(64 + 4 * \k)]
	.rept \n
	.if \op
	adds r0, r3
	adcs r1, r2
	.else
	subs r0, r3
	sbcs r1, r2
	.endif
	.endr
	.endm

/* pend w: R_w = the accumulator's low word (to [sp, #4w]); the accumulator shifts down 32
 * bits, keeping its sign */
	.macro pend w
	str r0, [sp, #(4 * \w)]
	movs r0, r1
	asrs r1, r1, #31
	.endm

/* pfold: R (at [sp, #0..28]) += top * (2^224 - 2^192 - 2^96 + 1) for the signed top in r4;
 * the new top goes to r4. */
	.macro pfold
	asrs r5, r4, #31		@ top's sign word
	movs r0, r4
	movs r1, r5			@ + top at word 0
	.irp w, 0, 1, 2, 3, 4, 5, 6, 7
	ldr r3, [sp, #(4 * \w)]
	adds r0, r3
	adcs r1, r2
	.if \w == 3 || \w == 6
	subs r0, r4			@ - top at words 3 and 6
	sbcs r1, r5
	.endif
	.if \w == 7
	adds r0, r4			@ + top at word 7
	adcs r1, r5
	.endif
	str r0, [sp, #(4 * \w)]
	.if \w < 7
	movs r0, r1
	asrs r1, r1, #31
	.endif
	.endr
	movs r4, r1
	.endm

/* p256_reduce_T: R = T mod p for T at [sp, #64..127], written to the result pointer saved at
 * [sp, #128]; [sp, #0..63] (the operand copies) are reused. */
	.macro p256_reduce_T
	movs r0, #0
	movs r1, #0
	movs r2, #0
	@ word 0: c0 + c8 + c9 - c11 - c12 - c13 - c14
	pterm 0, 1, 1
	pterm 8, 1, 1
	pterm 9, 1, 1
	pterm 11, 1, 0
	pterm 12, 1, 0
	pterm 13, 1, 0
	pterm 14, 1, 0
	pend 0
	@ word 1: c1 + c9 + c10 - c12 - c13 - c14 - c15
	pterm 1, 1, 1
	pterm 9, 1, 1
	pterm 10, 1, 1
	pterm 12, 1, 0
	pterm 13, 1, 0
	pterm 14, 1, 0
	pterm 15, 1, 0
	pend 1
	@ word 2: c2 + c10 + c11 - c13 - c14 - c15
	pterm 2, 1, 1
	pterm 10, 1, 1
	pterm 11, 1, 1
	pterm 13, 1, 0
	pterm 14, 1, 0
	pterm 15, 1, 0
	pend 2
	@ word 3: c3 + 2 c11 + 2 c12 + c13 - c15 - c8 - c9
	pterm 3, 1, 1
	pterm 11, 2, 1
	pterm 12, 2, 1
	pterm 13, 1, 1
	pterm 15, 1, 0
	pterm 8, 1, 0
	pterm 9, 1, 0
	pend 3
	@ word 4: c4 + 2 c12 + 2 c13 + c14 - c9 - c10
	pterm 4, 1, 1
	pterm 12, 2, 1
	pterm 13, 2, 1
	pterm 14, 1, 1
	pterm 9, 1, 0
	pterm 10, 1, 0
	pend 4
	@ word 5: c5 + 2 c13 + 2 c14 + c15 - c10 - c11
	pterm 5, 1, 1
	pterm 13, 2, 1
	pterm 14, 2, 1
	pterm 15, 1, 1
	pterm 10, 1, 0
	pterm 11, 1, 0
	pend 5
	@ word 6: c6 + c13 + 3 c14 + 2 c15 - c8 - c9
	pterm 6, 1, 1
	pterm 13, 1, 1
	pterm 14, 3, 1
	pterm 15, 2, 1
	pterm 8, 1, 0
	pterm 9, 1, 0
	pend 6
	@ word 7: c7 + c8 + 3 c15 - c10 - c11 - c12 - c13
	pterm 7, 1, 1
	pterm 8, 1, 1
	pterm 15, 3, 1
	pterm 10, 1, 0
	pterm 11, 1, 0
	pterm 12, 1, 0
	pterm 13, 1, 0
	str r0, [sp, #28]
	movs r4, r1			@ the top word, in [-4, 6]
	pfold				@ top now -1, 0 or 1
	pfold				@ top 0: R below 2^256 < 2p
	@ D = R + 2^256 - p (words 1, 0, 0, -1, -1, -1, -2, 0) to [sp, #32..60]: carry = R >= p
	movs r6, #0
	mvns r6, r6			@ 0xffffffff
	movs r7, #1
	mvns r7, r7			@ 0xfffffffe
	ldr r3, [sp, #0]
	adds r3, #1
	str r3, [sp, #32]
	.irp w, 1, 2, 3, 4, 5, 6, 7
	ldr r3, [sp, #(4 * \w)]
	.if \w < 3 || \w == 7
	adcs r3, r2
	.elseif \w == 6
	adcs r3, r7
	.else
	adcs r3, r6
	.endif
	str r3, [sp, #(32 + 4 * \w)]
	.endr
	sbcs r5, r5			@ 0 when R >= p, else -1
	mvns r5, r5			@ all ones: take D
	ldr r0, [sp, #128]
	.irp w, 0, 1, 2, 3, 4, 5, 6, 7
	ldr r3, [sp, #(4 * \w)]
	ldr r4, [sp, #(32 + 4 * \w)]
	eors r4, r3
	ands r4, r5
	eors r3, r4
	str r3, [r0, #(4 * \w)]
	.endr
	.endm

/* void fe_p256_mul(uint32_t r[8], const uint32_t a[8], const uint32_t b[8]) and
 * void fe_p256_sqr(uint32_t r[8], const uint32_t a[8]): canonical inputs and results */
	.global fe_p256_mul
	.type fe_p256_mul, %function
	.thumb_func
	.align 2
fe_p256_mul:
	enter 2
	kara_mul
	p256_reduce_T
	leave
	.size fe_p256_mul, . - fe_p256_mul

	.global fe_p256_sqr
	.type fe_p256_sqr, %function
	.thumb_func
	.align 2
fe_p256_sqr:
	enter 1
	kara_sqr
	p256_reduce_T
	leave
	.size fe_p256_sqr, . - fe_p256_sqr
