/* Montgomery multiplication and squaring for moduli of 1 to 128 limbs given at call time (mont.h's
 * contract and context: limbs, n0 = -n^-1 mod 2^32, n), hand-written Thumb-2 for ARMv7-M and later
 * with UMULL as the only multiply-accumulate instruction: no UMLAL, no UMAAL. refbench's own code,
 * written in the instruction shape of wolfSSL's SP Cortex-M assembly built with WOLFSSL_SP_SMALL
 * (wolfcrypt/src/sp_cortexm.c at 5.3.0, wolfSSL/wolfssl 29401334d312c5530ff24f97e60e3e83c47ab0bc as
 * carried by boicotinho/wolfssl_clone: sp_2048_mul_64 :2432 and sp_2048_sqr_64 :2519, product-scanning
 * loops; sp_2048_mont_reduce_64 :3801, a separate word-by-word reduction; sp_2048_mont_mul_64 :3906
 * = the product then the reduction):
 *
 *   1. the double-length product t = a b (or a a) by product scanning: column by column, each word
 *      product by one UMULL added into a three-word accumulator by ADDS, ADCS, ADC; the column's low
 *      word is stored and the accumulator shifts down a word. The squaring computes each cross
 *      product a_i a_j (i < j) once and adds it twice (two ADDS/ADCS/ADC triples), and the square
 *      a_i a_i once, as sp_2048_sqr_64 does.
 *   2. REDC word by word (HAC 14.32) over t: for each i, mu = t_i n0 mod 2^32, then
 *      t_(i+j) += mu n_j + c for every j by UMULL, ADDS/ADC (the product's low word into t) and
 *      ADDS/ADC (the carry word), as sp_2048_mont_reduce_64's inner step; the carry out of word
 *      i + limbs is kept in a register (ca) and added at the next row's top word.
 *   3. r = T - n when T = t_(limbs..2 limbs - 1) + ca 2^(32 limbs) >= n, by a borrow chain and a
 *      masked select. wolfSSL subtracts on the carry ca only (sp_2048_cond_sub_64 with the mask
 *      -ca, :3894), leaving a result below 2^(32 limbs) but not always below n; mont.h's contract is
 *      the fully reduced residue, so this one chain more is ours.
 *
 * The loop control is ours: one SUBS/BNE per word product and post-indexed loads, about the cost of
 * 5.7.0's small loop (byan-2/wolfssl 6021e6b6ead29c8666d1b1a41d81ee7e4dc27da6 sp_cortexm.c:2294, two
 * products per iteration and five instructions of control) and below 5.3.0's (compares against both
 * column bounds after every product, :2432). Every branch and address depends on the length only;
 * no branch or address depends on the operands. The Cortex-M3's UMULL terminates early on small
 * operands ("MULL versions take three to five cycles", ARM 100165_0201 Table 3-1 footnote a), so
 * there its time depends on the data;
 * on the M4, M7 and M33 UMULL takes a fixed time.
 *
 * With MONT_REDC_UMAAL (variant umull_umaal_asm, ARMv7E-M and ARMv8-M Mainline only) step 2's inner
 * step is one UMAAL (c:t_(i+j) = mu n_j + t_(i+j) + c) between the loads and the store, the shape
 * of wolfSSL's reduction from 5.6.4 (wolfSSL/wolfssl pull request #6770; 5.7.0, byan-2/wolfssl
 * 6021e6b6ead29c8666d1b1a41d81ee7e4dc27da6 sp_cortexm.c:6233 sp_2048_mont_reduce_64: LDR, LDR,
 * UMAAL, STR per word), while the product stays UMULL with ADDS/ADCS/ADC (5.7.0 sp_2048_mul_64
 * :2294 and sp_2048_sqr_64 :2394 under WOLFSSL_SP_SMALL).
 *
 * With MONT_MUL_COPY_BYTES (variant umull_asm_bytecopy) bn_mont_mul writes the product into a second
 * stack buffer and copies its 8 limbs bytes into t by a call of memcpy_bytes (umull_asm/memcpy_bytes.S,
 * newlib's byte loop as STM32CubeIDE's toolchain builds it) before the reduction: up to 5.3.0
 * sp_2048_mul_64 and sp_2048_mul_32 under WOLFSSL_SP_SMALL write "sp_digit tmp_arr[64 * 2]" (32 * 2)
 * and end "XMEMCPY(r, tmp_arr, sizeof(tmp_arr));" (wolfSSL/wolfssl 29401334d312c5530ff24f97e60e3e83c47ab0bc
 * sp_cortexm.c :2432/:2511, :2756/:2832; 4.4.1, 19fba3648cbfe7be47bd6d4c0756159b90335b11 :2155/:2221,
 * :2430/:2493; both as carried by boicotinho/wolfssl_clone), while 5.7.0's store the product from the
 * stack with an LDM/STM loop ("L_sp_2048_mul_64_store", byan-2/wolfssl 6021e6b6 :2294) and its
 * sp_cortexm.c calls XMEMCPY in no product, square or reduction. The squarings copy nothing (no XMEMCPY
 * in sp_2048_sqr_64 / sqr_32 at any of the three). */
	.syntax unified
	.thumb
	.text

/* The frame both functions build: [sp] ctx, [sp, #4] r, t (2 * 128 words) at [sp, #16]; with
 * MONT_MUL_COPY_BYTES bn_mont_mul's product buffer (2 * 128 words) above t, at [sp, #TMP]. */
#ifdef MONT_MUL_COPY_BYTES
#define TMP (16 + 8 * 128)
#define FRAME (16 + 16 * 128)
#else
#define FRAME (16 + 8 * 128)
#endif

/* void bn_mont_mul(const bn_mont_ctx *ctx, uint32_t *r, const uint32_t *a, const uint32_t *b) */
	.global bn_mont_mul
	.type bn_mont_mul, %function
	.thumb_func
	.align 2
bn_mont_mul:
	push {r4-r11, lr}
	sub sp, sp, #FRAME
	str r0, [sp]
	str r1, [sp, #4]
	ldr r4, [r0]				@ limbs
	mov r0, r2				@ a
	mov r1, r3				@ b
	lsl r2, r4, #2				@ 4 limbs
#ifdef MONT_MUL_COPY_BYTES
	add r12, sp, #TMP			@ the product buffer, written column by column
#else
	add r12, sp, #16			@ t, written column by column
#endif
	mov r3, #0				@ accumulator r5:r4:r3
	mov r4, #0
	mov r5, #0
	mov r11, #0				@ 4 k, the column
	lsl r10, r2, #1
	sub r10, r10, #4			@ 4 (2 limbs - 1): past the last column
1:	sub r6, r11, r2				@ the column k: a_i b_(k-i) for i from max(0, k - limbs + 1)
	add r6, r6, #4
	bic r6, r6, r6, asr #31			@ 4 i_lo
	sub r8, r2, #4
	cmp r11, r8
	it lo
	movlo r8, r11				@ 4 i_hi = 4 min(k, limbs - 1)
	sub lr, r8, r6
	lsr lr, lr, #2
	add lr, lr, #1				@ products in the column
	sub r7, r11, r6
	add r7, r7, r1				@ &b_(k - i_lo), walking down
	add r6, r6, r0				@ &a_(i_lo), walking up
2:	ldr r8, [r6], #4
	ldr r9, [r7], #-4
	umull r8, r9, r8, r9
	adds r3, r3, r8
	adcs r4, r4, r9
	adc r5, r5, #0
	subs lr, lr, #1
	bne 2b
	str r3, [r12], #4			@ t_k
	mov r3, r4
	mov r4, r5
	mov r5, #0
	add r11, r11, #4
	cmp r11, r10
	bne 1b
	str r3, [r12]				@ t_(2 limbs - 1)
#ifdef MONT_MUL_COPY_BYTES
	add r0, sp, #16				@ XMEMCPY(t, product, 8 limbs): the C library's memcpy
	add r1, sp, #TMP
	lsl r2, r2, #1				@ 8 limbs bytes
	bl memcpy_bytes
#endif
	b .Lreduce
	.size bn_mont_mul, . - bn_mont_mul

/* void bn_mont_sqr(const bn_mont_ctx *ctx, uint32_t *r, const uint32_t *a) */
	.global bn_mont_sqr
	.type bn_mont_sqr, %function
	.thumb_func
	.align 2
bn_mont_sqr:
	push {r4-r11, lr}
	sub sp, sp, #FRAME
	str r0, [sp]
	str r1, [sp, #4]
	ldr r4, [r0]				@ limbs
	mov r0, r2				@ a
	lsl r2, r4, #2				@ 4 limbs
	add r12, sp, #16			@ t
	mov r3, #0				@ accumulator r5:r4:r3
	mov r4, #0
	mov r5, #0
	mov r11, #0				@ 4 k
	lsl r10, r2, #1
	sub r10, r10, #4
1:	sub r6, r11, r2				@ cross products a_i a_(k-i), i_lo <= i < k - i
	add r6, r6, #4
	bic r6, r6, r6, asr #31			@ 4 i_lo
	add lr, r11, #4
	lsr lr, lr, #3				@ floor((k + 1) / 2) ...
	sub lr, lr, r6, lsr #2			@ ... - i_lo: the cross products (0 in column 0)
	sub r7, r11, r6
	add r7, r7, r0				@ &a_(k - i_lo), walking down
	add r6, r6, r0				@ &a_(i_lo), walking up
	cmp lr, #0
	beq 3f
2:	ldr r8, [r6], #4
	ldr r9, [r7], #-4
	umull r8, r9, r8, r9
	adds r3, r3, r8				@ twice: 2 a_i a_(k-i)
	adcs r4, r4, r9
	adc r5, r5, #0
	adds r3, r3, r8
	adcs r4, r4, r9
	adc r5, r5, #0
	subs lr, lr, #1
	bne 2b
3:	tst r11, #4				@ an even column also has a_(k/2)^2, at r6 now
	bne 4f
	ldr r8, [r6]
	umull r8, r9, r8, r8
	adds r3, r3, r8
	adcs r4, r4, r9
	adc r5, r5, #0
4:	str r3, [r12], #4			@ t_k
	mov r3, r4
	mov r4, r5
	mov r5, #0
	add r11, r11, #4
	cmp r11, r10
	bne 1b
	str r3, [r12]				@ t_(2 limbs - 1)
	@ falls through to the reduction
	.size bn_mont_sqr, . - bn_mont_sqr

/* The reduction and the final subtraction, on the frame above (entered by a branch, returns for
 * the function that built the frame). Registers: limbs r2, n0 r11, n r12, row pointer r10,
 * rows left r1, mu r6, carry word r4, ca r9. */
.Lreduce:
	ldr r0, [sp]				@ ctx
	ldr r2, [r0]				@ limbs
	ldr r11, [r0, #4]			@ n0
	add r12, r0, #8				@ n
	add r10, sp, #16			@ &t_i
	mov r9, #0				@ ca
	mov r1, r2
5:	ldr r3, [r10]
	mul r6, r3, r11				@ mu = t_i n0 mod 2^32
	mov r7, r12
	mov r0, r10
	mov r4, #0				@ c
	mov lr, r2
6:	ldr r3, [r0]				@ t_(i+j) += mu n_j + c
	ldr r8, [r7], #4
#ifdef MONT_REDC_UMAAL
	umaal r3, r4, r6, r8			@ c:t_(i+j) = mu n_j + t_(i+j) + c, one instruction
#else
	umull r8, r5, r6, r8
	adds r3, r3, r8
	adc r5, r5, #0
	adds r3, r3, r4
	adc r4, r5, #0
#endif
	str r3, [r0], #4
	subs lr, lr, #1
	bne 6b
	ldr r3, [r0]				@ t_(i+limbs) += c + ca; ca = the carry out (at most one)
	adds r4, r4, r9
	mov r9, #0
	adc r9, r9, #0
	adds r3, r3, r4
	adc r9, r9, #0
	str r3, [r0]
	add r10, r10, #4
	subs r1, r1, #1
	bne 5b
@ r = T - n: the borrow chain over t_(limbs..2 limbs - 1) (r10 points there), ended by TEQ, which
@ leaves C alone (TEQ (register) with no shift: its carry is the shifter's, C; ARM DDI 0403E)
	ldr r1, [sp, #4]			@ r
	mov r0, r10
	add r8, r10, r2, lsl #2			@ the end of t
	mov r7, r12				@ n
	cmp r0, r0				@ C = 1: no borrow yet
7:	ldr r3, [r0], #4
	ldr r4, [r7], #4
	sbcs r3, r3, r4
	str r3, [r1], #4
	teq r0, r8
	bne 7b
	sbc r6, r6, r6				@ all ones on a borrow (T mod 2^(32 limbs) < n)
	sub r5, r9, #1				@ all ones when ca = 0
	and r6, r6, r5				@ all ones: keep T (T < n), else keep T - n
	ldr r1, [sp, #4]
	mov r0, r10
	mov lr, r2
8:	ldr r3, [r0], #4			@ r_j = d_j ^ ((d_j ^ t_j) & mask)
	ldr r4, [r1]
	eor r3, r3, r4
	and r3, r3, r6
	eor r4, r4, r3
	str r4, [r1], #4
	subs lr, lr, #1
	bne 8b
	add sp, sp, #FRAME
	pop {r4-r11, pc}
