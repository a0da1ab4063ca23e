/* Cortex-M33 latency/dual-issue microbenchmarks. Expected cycles are derived in
   tests/test_timing_m33.py from the rules of cortexm_emu/timing/data/m33.toml (each cited
   there), never from a run. Calling convention: r0 points to a zeroed 64-byte buffer. Explicit
   .w/.n encodings keep the instruction sizes fixed. */
        .syntax unified
        .thumb
        .text

#include "../func.inc"

        .balign 8
FUNC alu_wide                   /* 4 independent 32-bit ALU ops: single issue */
        add.w r1, r0, #1
        add.w r2, r0, #2
        add.w r3, r0, #3
        add.w r12, r0, #4
        bx lr
        .size alu_wide, .-alu_wide

        .balign 8
FUNC alu_narrow                 /* 16-bit ALU pairs do not dual issue */
        adds r1, r0, #1
        adds r2, r0, #2
        adds r3, r0, #3
        adds r1, r0, #4
        bx lr
        .size alu_narrow, .-alu_narrow

        .balign 8
FUNC nop_pairs                  /* 16-bit op + 16-bit nop pair; a 32-bit op + nop does not */
        adds r1, r0, #1
        nop
        ldr r2, [r0, #0]
        nop
        add.w r3, r0, #3
        nop
        bx lr
        .size nop_pairs, .-nop_pairs

        .balign 8
FUNC shifted_latency            /* ROR-shifted operand: latency 2; LSL-shifted: latency 1 */
        eor.w r1, r0, r0, ror #3
        add.w r2, r1, #1
        eor.w r3, r0, r0, lsl #3
        add.w r12, r3, #1
        bx lr
        .size shifted_latency, .-shifted_latency

        .balign 8
FUNC shifted_constant           /* shifted constant: latency 2; flag-setting form takes 2 cycles */
        eor.w r1, r0, #0x1fc0
        add.w r2, r1, #1
        eors.w r3, r0, #0x1fc0
        bx lr
        .size shifted_constant, .-shifted_constant

        .balign 8
FUNC load_use                   /* load-to-use 2 for an ALU and an address; load-to-store 1 */
        ldr.w r1, [r0, #0]
        add.w r2, r1, #1
        ldr.w r3, [r0, #4]
        ldr.w r12, [r0, r3]
        ldr.w r1, [r0, #8]
        str.w r1, [r0, #12]
        bx lr
        .size load_use, .-load_use

        .balign 8
FUNC mul_latency                /* multiply latency 2; accumulator chain 1 per cycle */
        mul r1, r2, r3
        add.w r12, r1, #1
        mla r1, r2, r3, r1
        mla r1, r2, r3, r1
        mla r1, r2, r3, r1
        bx lr
        .size mul_latency, .-mul_latency

        .balign 8
FUNC muls_narrow                /* muls.n takes 2 cycles */
        muls r1, r2, r1
        bx lr
        .size muls_narrow, .-muls_narrow

        .balign 8
FUNC multiple                   /* LDM/STM of N registers: N cycles; LDRD/STRD 2 */
        ldm.w r0, {r1, r2, r3}
        stm.w r0, {r1, r2}
        ldrd r2, r3, [r0, #8]
        strd r2, r3, [r0, #16]
        bx lr
        .size multiple, .-multiple

        .balign 8
FUNC loop_flags                 /* subs.n + bne.n: taken 2, not taken 0 */
        movs r1, #3
1:      subs r1, #1
        bne 1b
        bx lr
        .size loop_flags, .-loop_flags

        .balign 8
FUNC loop_no_flags              /* bne.n after a 16-bit op that sets no flags: taken 1 */
        movs r1, #3
1:      subs r1, #1
        add r2, r3
        bne 1b
        bx lr
        .size loop_no_flags, .-loop_no_flags

        .balign 8
FUNC loop_wide                  /* bne.n after a 32-bit op cannot pair: 1 + 2 taken */
        movs r1, #3
1:      subs.w r1, r1, #1
        bne 1b
        bx lr
        .size loop_wide, .-loop_wide

        .balign 8
FUNC it_load                    /* r1 = condition; IT pairs; predicated-out load is a nop */
        cmp r1, #1
        it eq
        ldreq.w r2, [r0, #0]
        add.w r3, r2, #1
        bx lr
        .size it_load, .-it_load

        .balign 8
FUNC divide_ops                 /* udiv r0 = r0 / r1 */
        udiv r0, r0, r1
        bx lr
        .size divide_ops, .-divide_ops

        .balign 8
FUNC v8m_ops                    /* ARMv8-M Mainline load-acquire / store-release, and DSP */
        lda r1, [r0]
        stl r1, [r0]
        uadd8 r2, r1, r1
        bx lr
        .size v8m_ops, .-v8m_ops

        .balign 8
FUNC read_cpuid                 /* SCB->CPUID */
        ldr r0, =0xE000ED00
        ldr r0, [r0]
        bx lr
        .size read_cpuid, .-read_cpuid
        .ltorg

        .balign 8
FUNC xta_chain                  /* UXTAB chained through its accumulator (Rn) */
        uxtab r1, r1, r0
        uxtab r1, r1, r0
        uxtab r1, r1, r0
        bx lr
        .size xta_chain, .-xta_chain

        .balign 8
FUNC xta_after_load             /* ... but a load result is not consumed early as Rn */
        ldr.w r1, [r0]
        uxtab r1, r1, r0
        bx lr
        .size xta_after_load, .-xta_after_load

        .balign 8
FUNC preload_ops                /* PLD: one issue cycle, its address read like a load's */
        pld [r0, #32]
        ldr.w r1, [r0]
        pld [r1]
        bx lr
        .size preload_ops, .-preload_ops

