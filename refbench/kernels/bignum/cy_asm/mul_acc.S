/* CycloneCRYPTO's multiply-accumulate core, r[0..m) += a[0..m) * b with the carry then propagated
 * into r beyond m while it is not zero, in hand-written Thumb-2 for ARMv7-M and later: refbench's
 * own code, written in the instruction shape of the assembly the library builds with
 * MPI_ASM_SUPPORT enabled (Oryx-Embedded/CycloneCRYPTO 62f78fe0a15ea50b4c838970ef7d88d285cc8af3,
 * "Version 2.5.0", mpi/mpi_arm_v7m_gcc.S: the MUL_ACC_CORE macro :35-43 and mpiMulAccCore :60-95;
 * the same instructions in mpi_arm_v7m_keil.s and mpi_arm_v7m_iar.s). That shape, per word of a:
 *
 *   a[i] loaded, the product's high word cleared, one UMLAL adding a[i] b into (high : carry),
 *   then r[i] loaded, ADDS of the low word into it and ADC of the flag into the high word (the next
 *   carry), r[i] stored -- UMLAL and an ADDS/ADC pair, no UMAAL (the file says '.cpu cortex-m3');
 *
 * then, while the carry is not zero, r[i] += carry and the carry becomes the addition's carry-out
 * (the library: ADDS, then the flag into a register by ADCS and a branch on it; here the branch
 * tests the flag itself, the carry after the first word being 1). The library unrolls the word step eight times over the first
 * multiple of eight words; this unrolls it four times (m mod 4 words first, one step each, then
 * four per pass): the loop control is ours, the instructions per word the library's.
 *
 * Every branch and address depends on m only, except the carry propagation after the row (as in
 * the library's C and assembly). The Cortex-M3's UMLAL terminates early on small operands ("MLAL
 * versions take four to seven cycles", ARM 100165_0201 Table 3-1 footnote a), so there its time
 * depends on the data; on the M4, M7 and M33 it takes a fixed time.
 *
 * void cy_mul_acc_core(uint32_t *r, const uint32_t *a, uint32_t m, uint32_t b)   (mpi_cyclone.h) */
	.syntax unified
	.thumb
	.text

/* One word: r4 the carry in and out, r5 the product's high word, r6/r7 scratch. */
.macro WORD
	ldr r6, [r1], #4			@ a[i]
	movs r5, #0
	umlal r4, r5, r6, r3			@ r5:r4 = a[i] b + carry
	ldr r7, [r0]				@ r[i], after the UMLAL as in the library
	adds r7, r7, r4
	adc r4, r5, #0				@ the next carry
	str r7, [r0], #4
.endm

	.global cy_mul_acc_core
	.type cy_mul_acc_core, %function
	.thumb_func
	.align 2
cy_mul_acc_core:
	push {r4-r7}
	movs r4, #0				@ carry
	ands r12, r2, #3			@ m mod 4 words one at a time
	beq 2f
1:	WORD
	subs r12, r12, #1
	bne 1b
2:	lsrs r2, r2, #2				@ then m / 4 passes of four
	beq 4f
3:	WORD
	WORD
	WORD
	WORD
	subs r2, r2, #1
	bne 3b
4:	cbz r4, 6f				@ the carry into r beyond m, while not zero
5:	ldr r7, [r0]
	adds r7, r7, r4
	str r7, [r0], #4
	movs r4, #1				@ the next carry is 1 while C is set (MOVS leaves C)
	bcs 5b
6:	pop {r4-r7}
	bx lr
	.size cy_mul_acc_core, . - cy_mul_acc_core
