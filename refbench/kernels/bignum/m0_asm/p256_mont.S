/* P-256 field multiplication and squaring in Montgomery form, r = a b 2^-256 mod p (p256_mont.h's
 * contract: canonical operands and result, r may alias a or b), hand-written Thumb for ARMv6-M
 * (Cortex-M0/M0+), whose only multiply is MULS, 32x32 -> 32 bits (ARM DDI 0419E A6.7.44).
 * refbench's own code, written in the instruction shape of wolfSSL's SP ARMv6-M Thumb assembly built
 * with WOLFSSL_SP_SMALL (wolfcrypt/src/sp_armthumb.c, WOLFSSL_SP_ARM_THUMB_ASM: the STM32G071RB
 * page's "SP Math Small with ARM Thumb Assembly"), read at MarkAtwood/wolfssl-lineage
 * 03e44abd8dc619c9163d963f12cd5176f6e3a556 (the file says "Copyright (C) 2006-2023", the generation
 * of the page's 5.6.0, whose own file was not read). There sp_256_mont_mul_8 is
 * "sp_256_mul_8(r, a, b); sp_256_mont_reduce_8(r, m, mp);" and sp_256_mont_sqr_8 is
 * "sp_256_sqr_8(r, a); sp_256_mont_reduce_8(r, m, mp);", with:
 *
 *   1. sp_256_mul_8 under WOLFSSL_SP_SMALL: the product-scanning loop of sp_2048_mul_8
 *      ("L_sp_256_mul_8_words", "L_sp_256_mul_8_mul": a three-word ADDS/ADCS accumulator, each
 *      word product from four 16x16 MULS, the low halves by LDRH) into a 16-word stack buffer t,
 *      then "XMEMCPY(r, t, sizeof(t))", a call to the C library's memcpy: here the same loop (the
 *      column code of m0_asm/mont.S's bn_mont_mul at eight limbs, the bounds as immediates) and a call
 *      of memcpy_bytes below. The page names GCC (STM32CubeIDE) and not its runtime library, and it
 *      need not: the toolchain STM32CubeIDE ships, GNU Tools for STM32, builds both of its C libraries,
 *      newlib ("Standard C", Task [III-2]) and newlib-nano ("Reduced C", --specs=nano.specs, Task
 *      [III-3]), with CFLAGS_FOR_TARGET '-g -Os -ffunction-sections -fdata-sections -fno-unroll-loops
 *      -DPREFER_SIZE_OVER_SPEED -D__OPTIMIZE_SIZE__ -DSMALL_MEMORY' (STMicroelectronics/gnu-tools-for-stm32
 *      build-toolchain.sh, at 55e79ed27db065da1d38bd213c6039c323f617cf and at
 *      7c203dd15ec8d60cecbca84debcf93f428c9e9d5). On ARMv6-M newlib's arm memcpy is then the generic C
 *      one (newlib/libc/machine/arm/memcpy-stub.c: "#elif (defined (__OPTIMIZE_SIZE__) || defined
 *      (PREFER_SIZE_OVER_SPEED))" / "# include "../../string/memcpy.c"", and a Thumb-1 core reaches the
 *      same include by its final #else; read at vitasdk/newlib 5f1683b496327d1e4da192541bf894344d63e23c,
 *      whose first branch, __vita__, is that fork's own), and newlib/libc/string/memcpy.c under
 *      "#if defined(PREFER_SIZE_OVER_SPEED) || defined(__OPTIMIZE_SIZE__)" copies "while (len0--)
 *      *dst++ = *src++;" (read at smuehlst/circle-newlib a04f442d94a19e5f7a46491bc24d33619a1a3268): byte
 *      by byte whichever runtime library the project selects. (Arm's own GNU Arm Embedded build compiles
 *      the standard newlib with '-g -O2 -ffunction-sections -fdata-sections', the word-copy branch, as
 *      memfault/interrupt _posts/2021-09-07-memcpy-newlib-nano.md quotes: not the toolchain the page names.)
 *   2. sp_256_sqr_8: the loop of sp_2048_sqr_8 ("# Multiply * 2" for each cross product, "# Square"
 *      for a_i a_i; m0_asm/mont.S's bn_mont_sqr column code at eight limbs) into a 64-byte stack
 *      frame, then its "L_sp_256_sqr_8_store" loop (LDR, STR, SUBS, BGE from the top word down).
 *   3. sp_256_mont_reduce_8: "(void)mp; (void)m;" then eight rows "# mu = a[i] * 1 (mp) = a[i]",
 *      each walking the words a[i+1..i+8] with mu p_j formed by word additions and subtractions
 *      ("a[i+1] += -1 * mu" for p_j = 2^32 - 1: SUBS/SBCS then ADDS/ADCS; "a[i+3] += 0 * mu";
 *      "a[i+6] += 1 * mu"), one LDR and one STR a word, the carry out of a[i+8] kept for the next
 *      row: no MULS. Here the same rows (the 64-bit mu p_j + c of a word p_j = 2^32 - 1 is
 *      (c - mu) + mu 2^32: SUBS, MOVS, SBCS; then + t_j: ADDS, ADCS), unrolled per row as there, a
 *      loop over the eight rows.
 *   4. wolfSSL then subtracts p masked by the top carry only (the result below 2^256, not always
 *      below p). p256_mont.h's contract is the canonical residue, so here T - p by a borrow chain
 *      (p's words as registers: -1, 0, 1) and a masked select of T or T - p by (carry or no borrow):
 *      about 60 cycles more than wolfSSL's pass, ours.
 *
 * Every branch and address depends on nothing but the length (fixed), MULS takes a fixed time
 * (1 cycle on the Cortex-M0+ with the fast multiplier, DDI 0484C Table 3-1): constant time.
 * The frame: t (the product) at [sp], the buffer the reduction runs in at [sp, #64], r at
 * [sp, #128]; below the saved r8-r11 and r4-r7, lr.
 */
	.syntax unified
	.thumb
	.text

#define FRAME 136

/* mulacc, mulacc2, sqracc: the word products (r3:r4:r5 += a b, 2 a b, a^2; r0 = &a, r1 = &b, r2 = 0) */
#include "mul16.inc"

/* enter: saves r4-r11 and lr, builds the frame, stores r (r0); r8 = 0 (4 k, the column),
 * r9 = a (r1), r11 = &t, r12 = &a_8 (the end of a); the accumulator r3 = r4 = r5 = 0 */
	.macro enter
	push {r4-r7, lr}
	mov r4, r8
	mov r5, r9
	mov r6, r10
	mov r7, r11
	push {r4-r7}
	sub sp, #FRAME
	str r0, [sp, #128]
	mov r9, r1
	movs r4, #32
	adds r4, r1
	mov r12, r4
	mov r4, sp
	mov r11, r4
	movs r4, #0
	mov r8, r4
	movs r3, #0
	movs r5, #0
	.endm

/* The column bounds for mul16.inc's colstart and colend, immediates at eight limbs */
	.macro col_last
	movs r6, #28				@ 4 (8 - 1)
	.endm
	.macro col_end
	movs r6, #60				@ 4 (16 - 1)
	.endm

/* void p256_mont_mul(uint32_t r[8], const uint32_t a[8], const uint32_t b[8]) */
	.global p256_mont_mul
	.type p256_mont_mul, %function
	.thumb_func
	.align 2
p256_mont_mul:
	enter
	mov r10, r2				@ b
1:	colstart				@ column k: a_i b_(k-i) for i_lo <= i <= min(k, 7)
	mov r1, r10
	adds r1, r1, r6
	mul_col					@ a_i b_(k-i) up the column (mul16.inc)
3:	colend
	blo 1b
	mov r6, r11
	str r3, [r6, r7]			@ t_15
	add r0, sp, #64				@ XMEMCPY(r, t, 64): a call to the C library's memcpy
	mov r1, sp
	movs r2, #64
	bl memcpy_bytes
	b .Lreduce
	.size p256_mont_mul, . - p256_mont_mul

/* void *memcpy_bytes(void *dst, const void *src, size_t n): the memcpy of newlib built with
 * PREFER_SIZE_OVER_SPEED / __OPTIMIZE_SIZE__ ("while (len0--) *dst++ = *src++;"), which both C
 * libraries of STM32CubeIDE's toolchain are (see the top of this file): one byte a step. Which
 * instructions GCC makes of that loop is not read here (no libc object at hand); this is the cheapest
 * byte loop of it, one LDRB, one STRB, one ADDS, CMP and BNE a byte: its fast bound. */
	.type memcpy_bytes, %function
	.thumb_func
	.align 2
memcpy_bytes:
	push {r4, lr}
	movs r3, #0
	cmp r2, #0
	beq 2f
1:	ldrb r4, [r1, r3]
	strb r4, [r0, r3]
	adds r3, #1
	cmp r3, r2
	bne 1b
2:	pop {r4, pc}
	.size memcpy_bytes, . - memcpy_bytes

/* void p256_mont_sqr(uint32_t r[8], const uint32_t a[8]) */
	.global p256_mont_sqr
	.type p256_mont_sqr, %function
	.thumb_func
	.align 2
p256_mont_sqr:
	enter
1:	colstart				@ column k: a_i a_(k-i) for i_lo <= i <= k - i
	mov r1, r9
	adds r1, r1, r6
	sqr_col					@ a_i a_(k-i) up to the middle of the column (mul16.inc)
3:	colend
	blo 1b
	mov r6, r11
	str r3, [r6, r7]			@ t_15
	mov r0, sp				@ the store loop, from the top word down
	add r1, sp, #64
	movs r3, #60
6:	ldr r6, [r0, r3]
	str r6, [r1, r3]
	subs r3, #4
	bge 6b
	@ falls through to the reduction
	.size p256_mont_sqr, . - p256_mont_sqr

/* The reduction (mp = 1) over the 16 words at [sp, #64], and the final subtraction. A row's
 * registers: &t_i r0, ca (the carry out of the previous row's top word) r1, 0 r2, mu r3, the carry
 * word c r4, the word's sum r5, t_j r6, &t_8 (the end of the rows) r7. */
.Lreduce:
	add r0, sp, #64
	add r7, sp, #96
	movs r1, #0
	movs r2, #0
7:	ldr r3, [r0]				@ mu = t_i (t_i + mu p_0 = mu 2^32: c = mu)
	movs r4, r3
	ldr r6, [r0, #4]			@ j = 1, p_j = 2^32 - 1
	subs r5, r4, r3
	movs r4, r3
	sbcs r4, r2
	adds r5, r6
	adcs r4, r2
	str r5, [r0, #4]
	ldr r6, [r0, #8]			@ j = 2, p_j = 2^32 - 1
	subs r5, r4, r3
	movs r4, r3
	sbcs r4, r2
	adds r5, r6
	adcs r4, r2
	str r5, [r0, #8]
	ldr r6, [r0, #12]			@ j = 3, p_j = 0
	adds r5, r4, r6
	movs r4, #0
	adcs r4, r2
	str r5, [r0, #12]
	ldr r6, [r0, #16]			@ j = 4, p_j = 0
	adds r5, r4, r6
	movs r4, #0
	adcs r4, r2
	str r5, [r0, #16]
	ldr r6, [r0, #20]			@ j = 5, p_j = 0
	adds r5, r4, r6
	movs r4, #0
	adcs r4, r2
	str r5, [r0, #20]
	ldr r6, [r0, #24]			@ j = 6, p_j = 1
	adds r5, r4, r3
	movs r4, #0
	adcs r4, r2
	adds r5, r6
	adcs r4, r2
	str r5, [r0, #24]
	ldr r6, [r0, #28]			@ j = 7, p_j = 2^32 - 1
	subs r5, r4, r3
	movs r4, r3
	sbcs r4, r2
	adds r5, r6
	adcs r4, r2
	str r5, [r0, #28]
	ldr r6, [r0, #32]			@ t_(i+8) += c + ca; ca = the carries out
	adds r6, r4
	movs r4, #0
	adcs r4, r2
	adds r6, r1
	adcs r4, r2
	str r6, [r0, #32]
	movs r1, r4
	adds r0, #4
	cmp r0, r7
	blo 7b
@ r = T - p (p's words -1, -1, -1, 0, 0, 0, 1, -1) into r, then r = T where ca = 0 and T < p
	mov r12, r1				@ ca
	ldr r2, [sp, #128]			@ r
	movs r1, #0
	movs r7, #0
	mvns r7, r7				@ -1
	ldm r0!, {r3-r6}
	subs r3, r7
	sbcs r4, r7
	sbcs r5, r7
	sbcs r6, r1
	stm r2!, {r3-r6}
	ldm r0!, {r3-r6}
	movs r0, #1				@ MOVS sets N and Z only: the borrow stays in C
	sbcs r3, r1
	sbcs r4, r1
	sbcs r5, r0
	sbcs r6, r7
	stm r2!, {r3-r6}
	adcs r1, r1				@ C: 1 when T >= p (no borrow)
	mov r3, r12
	orrs r1, r3
	negs r1, r1				@ the mask: all ones to keep T - p
	add r0, sp, #96
	ldr r2, [sp, #128]
	movs r6, #8
8:	ldm r0!, {r3}				@ r_j = t_j ^ ((t_j ^ d_j) & mask)
	ldr r4, [r2]
	eors r4, r3
	ands r4, r1
	eors r4, r3
	stm r2!, {r4}
	subs r6, #1
	bne 8b
	add sp, #FRAME
	pop {r4-r7}
	mov r8, r4
	mov r9, r5
	mov r10, r6
	mov r11, r7
	pop {r4-r7, pc}

/* P-256 modular addition and subtraction (fe.h's fe_p256_add/sub contract: canonical operands and result,
 * r may alias a or b), in the shape of the same build's sp_256_mont_add_8 / sp_256_mont_sub_8: unrolled,
 * two words at a time through the carry chain (the flags survive LDM/STM), then p masked by the carry or
 * borrow (p's words as masks: -1, -1, -1, 0, 0, 0, 1, -1). wolfSSL's addition subtracts p when the sum
 * carries out only (its result below 2^256, not always below p); here the sum's T - p is formed and T or
 * T - p selected by (carry or no borrow): a pass more than wolfSSL's, ours. The subtraction adds p where
 * a - b borrows: canonical as wolfSSL's. No branch or address depends on the operands. */

/* void fe_p256_add(uint32_t r[8], const uint32_t a[8], const uint32_t b[8]) */
	.global fe_p256_add
	.type fe_p256_add, %function
	.thumb_func
	.align 2
fe_p256_add:
	push {r4-r7, lr}
	sub sp, #32
	mov lr, r0				@ r
	ldm r1!, {r3, r4}
	ldm r2!, {r5, r6}
	adds r3, r5
	adcs r4, r6
	stm r0!, {r3, r4}
	ldm r1!, {r3, r4}
	ldm r2!, {r5, r6}
	adcs r3, r5
	adcs r4, r6
	stm r0!, {r3, r4}
	ldm r1!, {r3, r4}
	ldm r2!, {r5, r6}
	adcs r3, r5
	adcs r4, r6
	stm r0!, {r3, r4}
	ldm r1!, {r3, r4}
	ldm r2!, {r5, r6}
	adcs r3, r5
	adcs r4, r6
	stm r0!, {r3, r4}
	movs r7, #0
	adcs r7, r7				@ the carry out of the sum T
	mov r12, r7
	mov r0, lr
	mov r2, sp				@ T - p into the frame
	movs r1, #0
	movs r7, #0
	mvns r7, r7
	ldm r0!, {r3-r6}
	subs r3, r7
	sbcs r4, r7
	sbcs r5, r7
	sbcs r6, r1
	stm r2!, {r3-r6}
	ldm r0!, {r3-r6}
	movs r0, #1				@ MOVS sets N and Z only: the borrow stays in C
	sbcs r3, r1
	sbcs r4, r1
	sbcs r5, r0
	sbcs r6, r7
	stm r2!, {r3-r6}
	adcs r1, r1				@ 1 when T >= p
	mov r3, r12
	orrs r1, r3
	negs r1, r1				@ all ones: r = T - p
	mov r0, lr
	mov r2, sp
	movs r6, #8
1:	ldr r3, [r0]				@ r_j = t_j ^ ((t_j ^ d_j) & mask)
	ldm r2!, {r4}
	eors r4, r3
	ands r4, r1
	eors r4, r3
	stm r0!, {r4}
	subs r6, #1
	bne 1b
	add sp, #32
	pop {r4-r7, pc}
	.size fe_p256_add, . - fe_p256_add

/* void fe_p256_sub(uint32_t r[8], const uint32_t a[8], const uint32_t b[8]) */
	.global fe_p256_sub
	.type fe_p256_sub, %function
	.thumb_func
	.align 2
fe_p256_sub:
	push {r4-r7, lr}
	ldm r1!, {r3, r4}
	ldm r2!, {r5, r6}
	subs r3, r5
	sbcs r4, r6
	stm r0!, {r3, r4}
	ldm r1!, {r3, r4}
	ldm r2!, {r5, r6}
	sbcs r3, r5
	sbcs r4, r6
	stm r0!, {r3, r4}
	ldm r1!, {r3, r4}
	ldm r2!, {r5, r6}
	sbcs r3, r5
	sbcs r4, r6
	stm r0!, {r3, r4}
	ldm r1!, {r3, r4}
	ldm r2!, {r5, r6}
	sbcs r3, r5
	sbcs r4, r6
	stm r0!, {r3, r4}
	movs r7, #0
	sbcs r7, r7				@ -1 when a - b borrowed: add p
	subs r0, #32
	movs r1, #0
	lsrs r2, r7, #31			@ p_6 = 1, masked
	ldr r3, [r0]
	ldr r4, [r0, #4]
	ldr r5, [r0, #8]
	ldr r6, [r0, #12]
	adds r3, r7
	adcs r4, r7
	adcs r5, r7
	adcs r6, r1
	str r3, [r0]
	str r4, [r0, #4]
	str r5, [r0, #8]
	str r6, [r0, #12]
	ldr r3, [r0, #16]
	ldr r4, [r0, #20]
	ldr r5, [r0, #24]
	ldr r6, [r0, #28]
	adcs r3, r1
	adcs r4, r1
	adcs r5, r2
	adcs r6, r7
	str r3, [r0, #16]
	str r4, [r0, #20]
	str r5, [r0, #24]
	str r6, [r0, #28]
	pop {r4-r7, pc}
	.size fe_p256_sub, . - fe_p256_sub
