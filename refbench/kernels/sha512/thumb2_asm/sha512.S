/* SHA-512 compression (FIPS 180-4 §6.4.2) for ARMv7-M and ARMv8-M Mainline, hand-written
 * Thumb-2 in the shape of wolfSSL's WOLFSSL_ARMASM Thumb-2 transform (Transform_Sha512_Len of
 * wolfcrypt/src/port/arm/thumb2-sha512-asm.S and its inline form thumb2-sha512-asm_c.c, generated
 * by wolfSSL's scripts/sha2/sha512.rb): refbench's own code, written to cost what that code
 * costs on a Cortex-M, so a page's claim "WOLFSSL_ARMASM" for SHA-384/512 has a kernel of the
 * code that ran (refbench/sanity/builds.toml [wolfssl.asm_kernels]). SHA-384 and SHA-512/t run
 * the same compression from their own initial values (sha512_digest.c).
 *
 *   void sha512_compress(uint64_t H[8], const uint8_t block[128])
 *
 * The shape, as in that transform (64-bit words as little-endian register pairs lo, hi):
 *   - the eight working variables live in memory, in H itself (H is copied to the stack, to be
 *     added back at the end); each round loads what it reads with LDRD and stores with STRD,
 *     accumulating the new a in h's word in four steps (Sigma1, then Ch + W + K, then Sigma0,
 *     then Maj) and storing d + T1 into d's word, so the roles rotate by one word a round;
 *   - every 64-bit rotation is two LSRS (or LSLS) and two ORR with a shifted operand, a shift
 *     right two LSRS and one ORR; additions are ADDS + ADC;
 *   - the 16-word schedule lives on the stack (LDR + REV, the halves swapped);
 *   - Maj(a, b, c) = ((a ^ b) & (b ^ c)) ^ b with b ^ c kept in r10, r11 from the round before;
 *   - four passes of 16 rounds that each compute the next schedule word after the round that
 *     used it, then 16 rounds without schedule; K is read through r3, advanced 128 bytes a pass.
 * One call compresses one block (the Merkle-Damgard driver calls it per block; wolfSSL's
 * transform loops over the blocks of one call itself).
 */
	.syntax unified
	.thumb
	.text

	.align	3
sha512_thumb2_k:			@ FIPS 180-4 §4.2.3
	.quad	0x428a2f98d728ae22, 0x7137449123ef65cd, 0xb5c0fbcfec4d3b2f, 0xe9b5dba58189dbbc
	.quad	0x3956c25bf348b538, 0x59f111f1b605d019, 0x923f82a4af194f9b, 0xab1c5ed5da6d8118
	.quad	0xd807aa98a3030242, 0x12835b0145706fbe, 0x243185be4ee4b28c, 0x550c7dc3d5ffb4e2
	.quad	0x72be5d74f27b896f, 0x80deb1fe3b1696b1, 0x9bdc06a725c71235, 0xc19bf174cf692694
	.quad	0xe49b69c19ef14ad2, 0xefbe4786384f25e3, 0x0fc19dc68b8cd5b5, 0x240ca1cc77ac9c65
	.quad	0x2de92c6f592b0275, 0x4a7484aa6ea6e483, 0x5cb0a9dcbd41fbd4, 0x76f988da831153b5
	.quad	0x983e5152ee66dfab, 0xa831c66d2db43210, 0xb00327c898fb213f, 0xbf597fc7beef0ee4
	.quad	0xc6e00bf33da88fc2, 0xd5a79147930aa725, 0x06ca6351e003826f, 0x142929670a0e6e70
	.quad	0x27b70a8546d22ffc, 0x2e1b21385c26c926, 0x4d2c6dfc5ac42aed, 0x53380d139d95b3df
	.quad	0x650a73548baf63de, 0x766a0abb3c77b2a8, 0x81c2c92e47edaee6, 0x92722c851482353b
	.quad	0xa2bfe8a14cf10364, 0xa81a664bbc423001, 0xc24b8b70d0f89791, 0xc76c51a30654be30
	.quad	0xd192e819d6ef5218, 0xd69906245565a910, 0xf40e35855771202a, 0x106aa07032bbd1b8
	.quad	0x19a4c116b8d2d0c8, 0x1e376c085141ab53, 0x2748774cdf8eeb99, 0x34b0bcb5e19b48a8
	.quad	0x391c0cb3c5c95a63, 0x4ed8aa4ae3418acb, 0x5b9cca4f7763e373, 0x682e6ff3d6b2b8a3
	.quad	0x748f82ee5defb2fc, 0x78a5636f43172f60, 0x84c87814a1f0ab72, 0x8cc702081a6439ec
	.quad	0x90befffa23631e28, 0xa4506cebde82bde9, 0xbef9a3f7b2c67915, 0xc67178f2e372532b
	.quad	0xca273eceea26619c, 0xd186b8c721c0c207, 0xeada7dd6cde0eb1e, 0xf57d4f7fee6ed178
	.quad	0x06f067aa72176fba, 0x0a637dc5a2c898a6, 0x113f9804bef90dae, 0x1b710b35131c471b
	.quad	0x28db77f523047d84, 0x32caab7b40c72493, 0x3c9ebe0a15c9bebc, 0x431d67c49c100d4c
	.quad	0x4cc5d4becb3e42b6, 0x597f299cfc657e2a, 0x5fcb6fab3ad6faec, 0x6c44198c4a475817

/* rotr64 dlo, dhi, lo, hi, n: (dhi:dlo) = (hi:lo) rotated right by n (0 < n < 64, n != 32). */
	.macro	rotr64 dlo, dhi, lo, hi, n
	.if	\n < 32
	lsrs	\dlo, \lo, #\n
	lsrs	\dhi, \hi, #\n
	orr	\dhi, \dhi, \lo, lsl #(32 - \n)
	orr	\dlo, \dlo, \hi, lsl #(32 - \n)
	.else
	lsls	\dlo, \lo, #(64 - \n)
	lsls	\dhi, \hi, #(64 - \n)
	orr	\dhi, \dhi, \lo, lsr #(\n - 32)
	orr	\dlo, \dlo, \hi, lsr #(\n - 32)
	.endif
	.endm

/* add64 lo, hi, blo, bhi: (hi:lo) += (bhi:blo). */
	.macro	add64 lo, hi, blo, bhi
	adds	\lo, \lo, \blo
	adc	\hi, \hi, \bhi
	.endm

/* eor64 lo, hi, blo, bhi: (hi:lo) ^= (bhi:blo). */
	.macro	eor64 lo, hi, blo, bhi
	eor	\lo, \lo, \blo
	eor	\hi, \hi, \bhi
	.endm

/* round i: round i (0..15 of a pass) with r0 -> the working variables, sp -> the schedule, r3 -> K
 * of this pass. In round i, a is 64-bit word (8 - i) mod 8 of r0, b the next, ... (the offsets
 * count from 128 so that no remainder is negative). r10, r11 hold b ^ c on entry and a ^ b (the
 * next round's b ^ c) on exit; r4-r9 are scratch. */
	.macro	round i
	ldrd	r4, r5, [r0, #((128 - 8 * \i + 32) % 64)]	@ e
	rotr64	r6, r7, r4, r5, 14
	rotr64	r8, r9, r4, r5, 18
	eor64	r6, r7, r8, r9
	rotr64	r8, r9, r4, r5, 41
	ldrd	r4, r5, [r0, #((128 - 8 * \i + 56) % 64)]	@ h
	eor64	r6, r7, r8, r9				@ Sigma1(e)
	add64	r4, r5, r6, r7
	strd	r4, r5, [r0, #((128 - 8 * \i + 56) % 64)]
	ldrd	r4, r5, [r0, #((128 - 8 * \i + 32) % 64)]	@ e
	ldrd	r6, r7, [r0, #((128 - 8 * \i + 40) % 64)]	@ f
	ldrd	r8, r9, [r0, #((128 - 8 * \i + 48) % 64)]	@ g
	eor64	r6, r7, r8, r9
	and	r6, r6, r4
	and	r7, r7, r5
	eor64	r6, r7, r8, r9				@ Ch(e, f, g)
	ldrd	r4, r5, [r0, #((128 - 8 * \i + 56) % 64)]
	ldrd	r8, r9, [sp, #(8 * \i)]			@ W
	add64	r4, r5, r6, r7
	ldrd	r6, r7, [r3, #(8 * \i)]			@ K
	add64	r4, r5, r8, r9
	ldrd	r8, r9, [r0, #((128 - 8 * \i + 24) % 64)]	@ d
	add64	r4, r5, r6, r7				@ T1
	strd	r4, r5, [r0, #((128 - 8 * \i + 56) % 64)]
	add64	r8, r9, r4, r5				@ e' = d + T1
	ldrd	r4, r5, [r0, #((128 - 8 * \i) % 64)]	@ a
	strd	r8, r9, [r0, #((128 - 8 * \i + 24) % 64)]
	rotr64	r6, r7, r4, r5, 28
	rotr64	r8, r9, r4, r5, 34
	eor64	r6, r7, r8, r9
	rotr64	r8, r9, r4, r5, 39
	ldrd	r4, r5, [r0, #((128 - 8 * \i + 56) % 64)]
	eor64	r6, r7, r8, r9				@ Sigma0(a)
	add64	r4, r5, r6, r7
	ldrd	r8, r9, [r0, #((128 - 8 * \i) % 64)]	@ a
	ldrd	r6, r7, [r0, #((128 - 8 * \i + 8) % 64)]	@ b
	strd	r4, r5, [r0, #((128 - 8 * \i + 56) % 64)]
	eor64	r8, r9, r6, r7				@ a ^ b
	and	r10, r10, r8
	and	r11, r11, r9
	eor64	r10, r11, r6, r7			@ Maj(a, b, c)
	ldrd	r6, r7, [r0, #((128 - 8 * \i + 56) % 64)]
	add64	r6, r7, r10, r11			@ a' = T1 + Sigma0(a) + Maj
	strd	r6, r7, [r0, #((128 - 8 * \i + 56) % 64)]
	mov	r10, r8
	mov	r11, r9
	.endm

/* schedule i: W[i] += sigma1(W[i - 2]) + W[i - 7] + sigma0(W[i - 15]), indices mod 16. */
	.macro	schedule i
	ldrd	r4, r5, [sp, #(8 * ((\i + 14) % 16))]	@ W[i - 2]
	rotr64	r6, r7, r4, r5, 19
	rotr64	r8, r9, r4, r5, 61
	eor64	r6, r7, r8, r9
	lsrs	r8, r4, #6
	lsrs	r9, r5, #6
	orr	r8, r8, r5, lsl #26
	eor64	r6, r7, r8, r9				@ sigma1
	ldrd	r4, r5, [sp, #(8 * \i)]
	ldrd	r8, r9, [sp, #(8 * ((\i + 9) % 16))]	@ W[i - 7]
	add64	r4, r5, r6, r7
	add64	r4, r5, r8, r9
	strd	r4, r5, [sp, #(8 * \i)]
	ldrd	r4, r5, [sp, #(8 * ((\i + 1) % 16))]	@ W[i - 15]
	rotr64	r6, r7, r4, r5, 1
	rotr64	r8, r9, r4, r5, 8
	eor64	r6, r7, r8, r9
	lsrs	r8, r4, #7
	lsrs	r9, r5, #7
	orr	r8, r8, r5, lsl #25
	eor64	r6, r7, r8, r9				@ sigma0
	ldrd	r4, r5, [sp, #(8 * \i)]
	add64	r4, r5, r6, r7
	strd	r4, r5, [sp, #(8 * \i)]
	.endm

/* load_w k: schedule words 4k..4k+3 from the block (r1): big-endian, so each word's first
 * 32 bits (byte-reversed) are its high half. */
	.macro	load_w k
	ldr	r4, [r1, #(32 * \k)]
	ldr	r5, [r1, #(32 * \k + 4)]
	ldr	r6, [r1, #(32 * \k + 8)]
	ldr	r7, [r1, #(32 * \k + 12)]
	ldr	r8, [r1, #(32 * \k + 16)]
	ldr	r9, [r1, #(32 * \k + 20)]
	ldr	r10, [r1, #(32 * \k + 24)]
	ldr	r11, [r1, #(32 * \k + 28)]
	rev	r4, r4
	rev	r5, r5
	rev	r6, r6
	rev	r7, r7
	rev	r8, r8
	rev	r9, r9
	rev	r10, r10
	rev	r11, r11
	str	r5, [sp, #(32 * \k)]
	str	r4, [sp, #(32 * \k + 4)]
	str	r7, [sp, #(32 * \k + 8)]
	str	r6, [sp, #(32 * \k + 12)]
	str	r9, [sp, #(32 * \k + 16)]
	str	r8, [sp, #(32 * \k + 20)]
	str	r11, [sp, #(32 * \k + 24)]
	str	r10, [sp, #(32 * \k + 28)]
	.endm

	.macro	sixteen_rounds with_schedule
	.irp	i, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
	round	\i
	.if	\with_schedule
	schedule \i
	.endif
	.endr
	.endm

/* add_h k: H words k and k + 1 += the copies at sp + 128. */
	.macro	add_h k
	ldrd	r4, r5, [r0, #(8 * \k)]
	ldrd	r6, r7, [r0, #(8 * \k + 8)]
	ldrd	r8, r9, [sp, #(128 + 8 * \k)]
	ldrd	r10, r11, [sp, #(136 + 8 * \k)]
	add64	r4, r5, r8, r9
	add64	r6, r7, r10, r11
	strd	r4, r5, [r0, #(8 * \k)]
	strd	r6, r7, [r0, #(8 * \k + 8)]
	.endm

	.align	2
	.global	sha512_compress
	.type	sha512_compress, %function
	.thumb_func
sha512_compress:
	push	{r4, r5, r6, r7, r8, r9, r10, r11, lr}
	sub	sp, sp, #192				@ W[16] at sp, H copy at sp + 128
	adr	r3, sha512_thumb2_k
	ldrd	r4, r5, [r0]				@ copy H, to add back at the end
	ldrd	r6, r7, [r0, #8]
	ldrd	r8, r9, [r0, #16]
	ldrd	r10, r11, [r0, #24]
	strd	r4, r5, [sp, #128]
	strd	r6, r7, [sp, #136]
	strd	r8, r9, [sp, #144]
	strd	r10, r11, [sp, #152]
	ldrd	r4, r5, [r0, #32]
	ldrd	r6, r7, [r0, #40]
	ldrd	r8, r9, [r0, #48]
	ldrd	r10, r11, [r0, #56]
	strd	r4, r5, [sp, #160]
	strd	r6, r7, [sp, #168]
	strd	r8, r9, [sp, #176]
	strd	r10, r11, [sp, #184]
	load_w	0
	load_w	1
	load_w	2
	load_w	3
	ldrd	r10, r11, [r0, #8]			@ b ^ c for round 0
	ldrd	r4, r5, [r0, #16]
	eor64	r10, r11, r4, r5
	mov	r12, #4
1:	sixteen_rounds 1				@ rounds 0-63, schedule words 16-79
	add	r3, r3, #128
	subs	r12, r12, #1
	bne	1b
	sixteen_rounds 0				@ rounds 64-79
	add_h	0
	add_h	2
	add_h	4
	add_h	6
	add	sp, sp, #192
	pop	{r4, r5, r6, r7, r8, r9, r10, r11, pc}
	.size	sha512_compress, . - sha512_compress
