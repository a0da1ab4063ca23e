/* Cortex-M7 pairing/latency microbenchmarks. Expected cycles are derived in
   tests/test_timing_m7.py from the rules of cortexm_emu/timing/data/m7.toml (each cited there),
   never from a run. Calling convention: r0 points to a zeroed 64-byte buffer. Explicit .w/.n
   encodings keep the instruction sizes fixed. */
        .syntax unified
        .thumb
        .text

#include "../func.inc"

        .balign 8
FUNC alu_pairs                  /* 8 independent simple ALU ops: two per cycle */
        add.w r1, r0, #1
        add.w r2, r0, #2
        sub.w r3, r0, #3
        mov.w r12, #4
        add.w r1, r0, #5
        add.w r2, r0, #6
        sub.w r3, r0, #7
        mov.w r12, #8
        bx lr
        .size alu_pairs, .-alu_pairs

        .balign 8
FUNC alu_chain                  /* 4 dependent ADDs: an older ADD forwards to a younger one in 0 cycles */
        add.w r1, r0, #1
        add.w r2, r1, #1
        add.w r3, r2, #1
        add.w r12, r3, #1
        bx lr
        .size alu_chain, .-alu_chain

        .balign 8
FUNC shifted_pairs              /* 4 independent inline-shifted ops: one shifter per cycle */
        eor.w r1, r0, r0, ror #3
        eor.w r2, r0, r0, ror #5
        eor.w r3, r0, r0, ror #7
        eor.w r12, r0, r0, ror #9
        bx lr
        .size shifted_pairs, .-shifted_pairs

        .balign 8
FUNC shifted_mixed              /* shifted + simple pair: two per cycle */
        eor.w r1, r0, r0, ror #3
        add.w r2, r0, #1
        eor.w r3, r0, r0, ror #7
        add.w r12, r0, #2
        bx lr
        .size shifted_mixed, .-shifted_mixed

        .balign 8
FUNC load_pairs                 /* 4 independent word loads: two load pipes */
        ldr.w r1, [r0, #0]
        ldr.w r2, [r0, #4]
        ldr.w r3, [r0, #8]
        ldr.w r12, [r0, #12]
        bx lr
        .size load_pairs, .-load_pairs

        .balign 8
FUNC load_use                   /* word load into ALU next cycle; byte load one more */
        ldr.w r1, [r0, #0]
        add.w r2, r1, #1
        ldrb.w r3, [r0, #4]
        add.w r12, r3, #1
        bx lr
        .size load_use, .-load_use

        .balign 8
FUNC load_address               /* word load result as the next load's index: early read */
        ldr.w r1, [r0, #0]
        ldr.w r2, [r0, r1]
        bx lr
        .size load_address, .-load_address

        .balign 8
FUNC store_pairs                /* two stores cannot pair; load + store can */
        str.w r1, [r0, #0]
        str.w r2, [r0, #4]
        ldr.w r3, [r0, #8]
        str.w r12, [r0, #12]
        bx lr
        .size store_pairs, .-store_pairs

        .balign 8
FUNC mul_pairs                  /* two multiplies never pair; multiply + ALU do */
        mul r1, r2, r3
        mul r12, r2, r3
        mul r1, r2, r3
        add.w r12, r0, #1
        bx lr
        .size mul_pairs, .-mul_pairs

        .balign 8
FUNC mul_latency                /* multiply result into an ALU op: latency 2 */
        mul r1, r2, r3
        add.w r12, r1, #1
        bx lr
        .size mul_latency, .-mul_latency

        .balign 8
FUNC mac_chain                  /* 4 MLA chained on the accumulator: one per cycle */
        mla r1, r2, r3, r1
        mla r1, r2, r3, r1
        mla r1, r2, r3, r1
        mla r1, r2, r3, r1
        bx lr
        .size mac_chain, .-mac_chain

        .balign 8
FUNC load_to_mul                /* a multiply cannot take a load result the next cycle */
        ldr.w r1, [r0, #0]
        mul r2, r1, r1
        bx lr
        .size load_to_mul, .-load_to_mul

        .balign 8
FUNC ldm_stm                    /* single issue, ceil(N/2) cycles each */
        add.w r12, r0, #0
        ldm.w r0, {r1, r2, r3, r12}
        stm.w r0, {r1, r2, r3}
        ldrd r2, r3, [r0, #8]
        bx lr
        .size ldm_stm, .-ldm_stm

        .balign 8
FUNC movw_movt                  /* dependent movw + movt still pair */
        movw r1, #0x1234
        movt r1, #0x5678
        movw r2, #0x1234
        movt r2, #0x5678
        bx lr
        .size movw_movt, .-movw_movt

        .balign 8
FUNC bitfield_slots             /* bitfield/DSP only in the older slot, never two per cycle */
        add.w r1, r0, #1
        uxtb.w r2, r0
        uxtb.w r3, r0
        add.w r12, r0, #1
        uadd8 r1, r2, r3
        sel r2, r2, r3
        bx lr
        .size bitfield_slots, .-bitfield_slots

        .balign 8
FUNC loop_backward              /* 4 iterations: back-edge predicted taken, exit mispredicted */
        movs r1, #4
1:      subs r1, #1
        bne 1b
        bx lr
        .size loop_backward, .-loop_backward

        .balign 8
FUNC forward_taken              /* forward conditional branch predicted not taken, taken here */
        cmp r0, r0
        beq 1f
        nop
1:      bx lr
        .size forward_taken, .-forward_taken

        .balign 8
FUNC forward_not_taken          /* forward conditional branch predicted not taken, not taken */
        cmp r0, #0
        beq 1f
        nop
1:      bx lr
        .size forward_not_taken, .-forward_not_taken

        .balign 8
FUNC late_flags                 /* flags set 2 cycles before a mispredicted branch: 8 */
        eor.w r1, r12, #1   /* r12 = 0: r1 = 1 (EOR: no same-cycle forward) */
1:      subs.w r1, r1, #1
        mul r2, r3, r12
        mul r2, r3, r12
        mul r2, r3, r12
        bne 1b
        bx lr
        .size late_flags, .-late_flags

        .balign 8
FUNC early_flags                /* flags set 3 cycles before a mispredicted branch: 6 */
        eor.w r1, r12, #1   /* r12 = 0: r1 = 1 (EOR: no same-cycle forward) */
1:      subs.w r1, r1, #1
        mul r2, r3, r12
        mul r2, r3, r12
        mul r2, r3, r12
        mul r2, r3, r12
        bne 1b
        bx lr
        .size early_flags, .-early_flags

        .balign 8
FUNC it_load                    /* r1 = condition; predicated load then a use of it */
        cmp r1, #1
        it eq
        ldrbeq.w r2, [r0, #0]
        add.w r3, r2, #1
        bx lr
        .size it_load, .-it_load

        .balign 8
FUNC divide_ops                 /* udiv r0 = r0 / r1 */
        udiv r0, r0, r1
        bx lr
        .size divide_ops, .-divide_ops

        .balign 8
FUNC dsp_ops                    /* v7E-M DSP instructions the M7 has */
        uadd8 r2, r0, r1
        smlad r3, r0, r1, r2
        umaal r2, r3, r0, r1
        bx lr
        .size dsp_ops, .-dsp_ops

        .balign 8
FUNC read_cpuid                 /* SCB->CPUID */
        ldr r0, =0xE000ED00
        ldr r0, [r0]
        bx lr
        .size read_cpuid, .-read_cpuid
        .ltorg

        .balign 8
FUNC carry_chain                /* dependent ADCS chain: the carry is read one cycle after it is set */
        adds.w r1, r1, r1
        adcs.w r2, r2, r2
        adcs.w r3, r3, r3
        add.w r12, r0, #1
        bx lr
        .size carry_chain, .-carry_chain

        .balign 8
FUNC computed_return            /* MOV PC, LR: a computed jump, never predicted */
        mov pc, lr
        .size computed_return, .-computed_return

        .balign 8
FUNC extend_with_shifted        /* UXTB (older) pairs with an inline-shifted op: no shift unit */
        uxtb.w r1, r0
        eor.w r2, r0, r0, ror #3
        uxtb.w r3, r0
        eor.w r12, r0, r0, ror #5
        bx lr
        .size extend_with_shifted, .-extend_with_shifted

        .balign 8
FUNC shift_to_address           /* a shift's result is an address the next cycle */
        lsl.w r1, r12, #2
        ldr.w r2, [r0, r1]
        bx lr
        .size shift_to_address, .-shift_to_address

        .balign 8
FUNC shift_address_shared       /* ... unless its pair partner used the early shifter */
        lsl.w r1, r12, #2
        eor.w r3, r0, r0, ror #3
        ldr.w r2, [r0, r1]
        bx lr
        .size shift_address_shared, .-shift_address_shared

        .balign 8
FUNC older_add_address          /* an ADD issued as the older op feeds an address next cycle */
        add.w r1, r0, #4
        mov.w r2, #0
        ldr.w r3, [r1]
        bx lr
        .size older_add_address, .-older_add_address

        .balign 8
FUNC younger_add_address        /* as the younger op it goes to the late ALU: one cycle more */
        mov.w r2, #0
        add.w r1, r0, #4
        ldr.w r3, [r1]
        bx lr
        .size younger_add_address, .-younger_add_address

        .balign 8
FUNC rotated_extend             /* a rotated UXTB reads its source normally */
        ldr.w r1, [r0]
        uxtb.w r2, r1, ror #8
        bx lr
        .size rotated_extend, .-rotated_extend

        .balign 8
FUNC extract_early              /* UBFX reads its source in the early ALU */
        ldr.w r1, [r0]
        ubfx r2, r1, #8, #8
        bx lr
        .size extract_early, .-extract_early

        .balign 8
FUNC preload_pairs              /* PLD takes a load pipe and pairs */
        pld [r0, #32]
        add.w r1, r0, #1
        bx lr
        .size preload_pairs, .-preload_pairs

        .balign 8
FUNC preload_address            /* PLD waits for its address like a load */
        ldr.w r1, [r0]
        pld [r1]
        bx lr
        .size preload_address, .-preload_address

        .balign 8
FUNC forward_mostly_taken       /* a forward BNE taken 8 times in 9, in a 9-iteration loop */
        eor.w r1, r12, #9       /* r12 = 0: r1 = 9 */
1:      cmp r1, #1
        bne 2f
        add.w r3, r3, #1
2:      subs r1, #1
        bne 1b
        bx lr
        .size forward_mostly_taken, .-forward_mostly_taken



        .balign 8
FUNC bank_pairs                 /* two loads pair only from different banks (even/odd words) */
        ldr.w r1, [r0]
        ldr.w r2, [r0, #8]
        ldr.w r3, [r0, #12]
        bx lr
        .size bank_pairs, .-bank_pairs

        .balign 8
FUNC bank_writeback             /* a written-back base: the banks are not compared */
        ldr r1, [r0], #4
        ldr.w r2, [r0, #4]
        bx lr
        .size bank_writeback, .-bank_writeback


        .balign 8
FUNC branch_on_bits             /* r0: 32 outcomes, low bit first; the forward BCS is taken on a 1 */
        movs r1, #32
1:      lsrs r0, r0, #1
        bcs 2f
        add.w r3, r3, #1
2:      subs r1, #1
        bne 1b
        bx lr
        .size branch_on_bits, .-branch_on_bits
