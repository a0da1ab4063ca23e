/* Cortex-M3/M4 (ARMv7-M) timing microbenchmarks. Each function's expected cycle count is
   derived in tests/test_timing.py from the TRM tables and section 3.3.2, never from a run.
   Calling convention: r0 points to a zeroed 64-byte buffer where a function touches memory;
   the *_ops functions take their operands in r0 and r1. */
        .syntax unified
        .thumb
        .text

#include "../func.inc"

        .balign 4
FUNC alu_run                    /* 8 data-processing instructions, 16- and 32-bit */
        adds r1, r0, #1
        add.w r2, r1, r0, lsl #3
        orn r3, r2, r1
        ubfx r1, r3, #4, #8
        rbit r2, r1
        clz r3, r2
        movw r12, #0x1234
        movt r12, #0x5678
        bx lr
        .size alu_run, .-alu_run

        .balign 4
FUNC load_run                   /* 4 independent loads: the 2nd..4th pipeline */
        ldr r1, [r0, #0]
        ldr r2, [r0, #4]
        ldrb r3, [r0, #8]
        ldrh r12, [r0, #10]
        bx lr
        .size load_run, .-load_run

        .balign 4
FUNC load_dependent             /* 2nd load's address uses the 1st load's result: no pipelining */
        ldr r1, [r0, #0]
        ldr r2, [r0, r1]
        ldr r3, [r0, #4]
        bx lr
        .size load_dependent, .-load_dependent

        .balign 4
FUNC load_store_mix
        movs r3, #12
        ldr r1, [r0, #0]
        str r1, [r0, #4]
        ldr r2, [r0, #8]
        str r2, [r0, r3]
        ldr r12, [r0, #16]
        bx lr
        .size load_store_mix, .-load_store_mix

        .balign 4
FUNC address_interlock          /* address computed by the preceding ALU instruction */
        adds r1, r0, #4
        ldr r2, [r1]
        ldr r3, [r0, #8]
        bx lr
        .size address_interlock, .-address_interlock

        .balign 4
FUNC store_imm_run              /* immediate-offset stores: one cycle each */
        str r1, [r0, #0]
        str r2, [r0, #4]
        strb r3, [r0, #8]
        strh r3, [r0, #10]
        bx lr
        .size store_imm_run, .-store_imm_run

        .balign 4
FUNC store_writeback            /* pre-indexed stores: after a load, and chained on one base */
        ldr r1, [r0, #0]
        str r1, [r0, #4]!
        str r1, [r0, #4]!
        bx lr
        .size store_writeback, .-store_writeback

        .balign 4
FUNC ldrd_strd
        ldr r1, [r0, #0]
        ldrd r2, r3, [r0, #8]
        strd r2, r3, [r0, #16]
        bx lr
        .size ldrd_strd, .-ldrd_strd

        .balign 4
FUNC ldm_stm                    /* LDM of 4, STM of 2 */
        ldm r0, {r1, r2, r3, r12}
        stm r0, {r1, r2}
        bx lr
        .size ldm_stm, .-ldm_stm

        .balign 4
FUNC push_pop                   /* PUSH of 5, POP of 5 including PC (the return) */
        push {r4, r5, r6, r7, lr}
        pop {r4, r5, r6, r7, pc}
        .size push_pop, .-push_pop

        .balign 4
FUNC writeback_same_base        /* post-indexed loads chained on one base register */
        ldr r1, [r0], #4
        ldr r2, [r0], #4
        bx lr
        .size writeback_same_base, .-writeback_same_base

        .balign 4
FUNC writeback_two_bases        /* post-indexed loads alternating two base registers */
        adds r3, r0, #32
        ldr r1, [r0], #4
        ldr r2, [r3], #4
        bx lr
        .size writeback_two_bases, .-writeback_two_bases

        .balign 4
FUNC literal_load               /* two PC-relative literal loads */
        ldr r1, =0x12345678
        ldr r2, =0x9abcdef0
        bx lr
        .ltorg
        .size literal_load, .-literal_load

        .balign 4
FUNC branch_loop                /* 4 iterations: 3 taken, 1 not-taken conditional branch */
        movs r1, #4
1:      subs r1, #1
        bne 1b
        bx lr
        .size branch_loop, .-branch_loop

        .balign 4
FUNC wide_target_loop           /* taken branches to a 32-bit instruction on an odd halfword */
        movs r1, #4
1:      subs.w r1, r1, #1
        bne 1b
        bx lr
        .size wide_target_loop, .-wide_target_loop

        .balign 4
FUNC cbz_skip                   /* CBZ taken when r0 == 0, not taken otherwise */
        movs r1, #1
        cbz r0, 1f
        movs r1, #2
1:      bx lr
        .size cbz_skip, .-cbz_skip

        .balign 4
FUNC call_leaf                  /* BL to a leaf, BX LR back, POP {PC} return */
        push {r4, lr}
        bl v7m_leaf
        pop {r4, pc}
        .size call_leaf, .-call_leaf

        .balign 4
FUNC v7m_leaf
        adds r0, #1
        bx lr
        .size v7m_leaf, .-v7m_leaf

        .balign 4
FUNC mul_run                    /* MUL, MLA, MLS */
        movs r1, #3
        movs r2, #5
        mul r3, r1, r2
        mla r3, r1, r2, r3
        mls r3, r1, r2, r3
        bx lr
        .size mul_run, .-mul_run

        .balign 4
FUNC umull_ops                  /* r0:r1 = r0 * r1 (64-bit) */
        umull r2, r3, r0, r1
        mov r0, r2
        mov r1, r3
        bx lr
        .size umull_ops, .-umull_ops

        .balign 4
FUNC smull_ops
        smull r2, r3, r0, r1
        mov r0, r2
        mov r1, r3
        bx lr
        .size smull_ops, .-smull_ops

        .balign 4
FUNC umlal_ops                  /* r0:r1 = 7 + r0 * r1 */
        movs r2, #7
        movs r3, #0
        umlal r2, r3, r0, r1
        mov r0, r2
        mov r1, r3
        bx lr
        .size umlal_ops, .-umlal_ops

        .balign 4
FUNC smlal_ops
        movs r2, #7
        movs r3, #0
        smlal r2, r3, r0, r1
        mov r0, r2
        mov r1, r3
        bx lr
        .size smlal_ops, .-smlal_ops

        .balign 4
FUNC udiv_ops                   /* r0 = r0 / r1 */
        udiv r0, r0, r1
        bx lr
        .size udiv_ops, .-udiv_ops

        .balign 4
FUNC sdiv_ops
        sdiv r0, r0, r1
        bx lr
        .size sdiv_ops, .-sdiv_ops

        .balign 4
FUNC it_select                  /* r0 = (r0 == r1) ? 1 : 2, then + 0 */
        cmp r0, r1
        ite eq
        moveq r2, #1
        movne r2, #2
        adds r0, r2, #0
        bx lr
        .size it_select, .-it_select

        .balign 4
FUNC it_loads                   /* two loads executed only when r1 == 0; r0 = buffer */
        cmp r1, #0
        itt eq
        ldreq r2, [r0, #0]
        ldreq r3, [r0, #4]
        bx lr
        .size it_loads, .-it_loads

        .balign 4
FUNC it_unfolded                /* IT after a 32-bit instruction: not folded */
        cmp.w r0, #0
        it eq
        moveq r0, #5
        bx lr
        .size it_unfolded, .-it_unfolded

        .balign 4
FUNC system_run
        mrs r1, apsr
        dmb
        dsb
        isb
        bx lr
        .size system_run, .-system_run

        .balign 4
FUNC long_straight              /* 64 ALU + 8 loads, straight line (Unicorn may split it) */
        .rept 8
        adds r1, r1, #1
        eors r2, r1
        adds r3, r2, r1
        lsls r3, r3, #1
        ldr r12, [r0, #0]
        ldr r1, [r0, #4]
        eors r3, r1
        orrs r2, r3
        subs r1, r2, r3
        movs r3, #0
        .endr
        bx lr
        .size long_straight, .-long_straight

        .balign 4
FUNC wide_load_alignment        /* 32-bit loads after a load: at a word boundary, then at an odd halfword */
        ldr.w r1, [r0, #0]      /* +0: word aligned */
        ldr.w r2, [r0, #4]      /* +4: word aligned, pipelined */
        ldr r3, [r0, #8]        /* +8: 16-bit, pipelined */
        ldr.w r12, [r0, #12]    /* +10: 32-bit on an odd halfword */
        ldr r1, [r0, #16]       /* +14: 16-bit, pipelined after it */
        bx lr
        .size wide_load_alignment, .-wide_load_alignment

        .balign 4
FUNC store_then_load            /* a store after an ALU op, then a store after a load, each before a load */
        movs r3, #0
        str r3, [r0, #0]
        ldr r1, [r0, #4]
        str r1, [r0, #8]
        ldr r2, [r0, #12]
        bx lr
        .size store_then_load, .-store_then_load

        .balign 4
FUNC it_load_then_load          /* LDREQ runs only when r1 == 0; the next LDR pipelines only after it */
        cmp r1, #0
        it eq
        ldreq r2, [r0, #0]
        ldr r3, [r0, #4]
        bx lr
        .size it_load_then_load, .-it_load_then_load

        .balign 4
FUNC it_add_then_load           /* ADDEQ (r1 == 0) makes the next load's address: interlock only then */
        cmp r1, #0
        it eq
        addeq r0, r0, #4
        ldr r3, [r0, #0]
        bx lr
        .size it_add_then_load, .-it_add_then_load

        .balign 4
FUNC pop_pc_return              /* return through POP {PC} */
        push {lr}
        pop {pc}
        .size pop_pc_return, .-pop_pc_return

        .balign 4
FUNC ldr_pc_return              /* the same return through LDR PC, [SP], #4 */
        push {lr}
        ldr pc, [sp], #4
        .size ldr_pc_return, .-ldr_pc_return

        .balign 1024
        .space 1024 - 8         /* never executed: puts page_straddle 8 bytes before a 1 KiB boundary */
FUNC page_straddle              /* 8 independent loads across a page boundary: Unicorn splits the block */
        ldr r1, [r0, #0]
        ldr r2, [r0, #4]
        ldr r3, [r0, #8]
        ldr r1, [r0, #12]
        ldr r2, [r0, #16]
        ldr r3, [r0, #20]
        ldr r1, [r0, #24]
        ldr r2, [r0, #28]
        bx lr
        .size page_straddle, .-page_straddle

        .balign 4
FUNC preload                    /* PLD/PLI: hints, one issue cycle, no bus transfer */
        pld [r0, #32]
        ldr r1, [r0]
        pli [r0, #64]
        ldr r2, [r0, #4]
        bx lr
        .size preload, .-preload

        .balign 4
FUNC preload_forms              /* every PLD/PLI addressing form an AES-CTR kernel may use */
        pld [r0]
        pld [r0, #32]
        pld [r0, #-8]
        pld [r0, r1]
        pld [r0, r1, lsl #2]
        pld [pc, #16]
        pli [r0, #64]
        bx lr
        .size preload_forms, .-preload_forms

        .balign 4
FUNC nop_after_memory           /* a NOP hidden behind a load or a register-offset store, or not */
        ldr r1, [r0]
        nop                     /* eaten by the LDR */
        ldr r2, [r0, #4]        /* after a NOP: not pipelined */
        ldr r3, [r0, #8]        /* pipelined */
        nop.w                   /* eaten by the (pipelined) LDR */
        movs r2, #0
        str r1, [r0, r2]        /* register offset */
        nop                     /* eaten by the STR */
        str r1, [r0, r2]
        mov r3, r3              /* not a NOP: not eaten */
        ldr r1, [r0]
        cmp r1, #0              /* not a NOP: not eaten */
        str r1, [r0, #4]        /* immediate offset: 1 cycle, nothing to hide a NOP in */
        nop
        bx lr
        .size nop_after_memory, .-nop_after_memory

        .balign 4
FUNC it_load_then_nop           /* the NOP is eaten only when the conditional load runs */
        cmp r0, r1
        it eq
        ldreq r2, [r0]
        nop
        bx lr
        .size it_load_then_nop, .-it_load_then_nop

        .balign 1024
        .space 1024 - 4         /* never executed: puts the LDR of nop_page_straddle last before a 1 KiB boundary */
FUNC nop_page_straddle          /* LDR | NOP split by Unicorn at the page boundary */
        movs r2, #0
        ldr r1, [r0]
        nop
        bx lr
        .size nop_page_straddle, .-nop_page_straddle

        .balign 4
FUNC cortexm_emu_halt
        b cortexm_emu_halt
        .size cortexm_emu_halt, .-cortexm_emu_halt
