/* Cortex-M0/M0+ (ARMv6-M) timing microbenchmarks. Each function's expected cycle count is
   derived in tests/test_timing.py from DDI 0484C / DDI 0432C Table 3.1, never from a run.
   Calling convention: r0 points to a zeroed 64-byte buffer where a function touches memory. */
        .syntax unified
        .thumb
        .text

#include "../func.inc"

        .balign 4
FUNC alu_run                    /* 8 data-processing instructions */
        adds r1, r0, #1
        subs r2, r1, r0
        eors r1, r2
        ands r1, r2
        orrs r1, r2
        lsls r3, r1, #3
        movs r2, #7
        mvns r3, r2
        bx lr
        .size alu_run, .-alu_run

        .balign 4
FUNC load_run                   /* 4 single loads */
        ldr r1, [r0, #0]
        ldr r2, [r0, #4]
        ldrb r3, [r0, #8]
        ldrh r1, [r0, #10]
        bx lr
        .size load_run, .-load_run

        .balign 4
FUNC store_run                  /* 4 single stores, immediate and register offset */
        movs r3, #12
        str r1, [r0, #0]
        strb r2, [r0, #4]
        strh r2, [r0, #6]
        str r2, [r0, r3]
        bx lr
        .size store_run, .-store_run

        .balign 4
FUNC ldm_stm                    /* LDM of 3, STM of 2 */
        ldm r0!, {r1, r2, r3}
        stm r0!, {r1, r2}
        bx lr
        .size ldm_stm, .-ldm_stm

        .balign 4
FUNC push_pop                   /* PUSH of 5, POP of 5 including PC (the return) */
        push {r4, r5, r6, r7, lr}
        pop {r4, r5, r6, r7, pc}
        .size push_pop, .-push_pop

        .balign 4
FUNC mul_run                    /* 4 MULS */
        movs r1, #3
        muls r1, r0, r1
        muls r1, r0, r1
        muls r1, r0, r1
        muls r1, r0, r1
        bx lr
        .size mul_run, .-mul_run

        .balign 4
FUNC branch_loop                /* 4 iterations: 3 taken, 1 not-taken conditional branch */
        movs r1, #4
1:      subs r1, #1
        bne 1b
        bx lr
        .size branch_loop, .-branch_loop

        .balign 4
FUNC uncond_branch              /* one taken unconditional B */
        movs r1, #1
        b 1f
        movs r1, #2
1:      bx lr
        .size uncond_branch, .-uncond_branch

        .balign 4
FUNC call_leaf                  /* BL to a leaf, BX LR back, POP {PC} return */
        push {r4, lr}
        bl v6m_leaf
        pop {r4, pc}
        .size call_leaf, .-call_leaf

        .balign 4
FUNC v6m_leaf
        adds r0, #1
        bx lr
        .size v6m_leaf, .-v6m_leaf

        .balign 4
FUNC system_run                 /* MRS and the three barriers (32-bit, allowed on ARMv6-M) */
        mrs r1, apsr
        dmb
        dsb
        isb
        bx lr
        .size system_run, .-system_run

        .balign 4
FUNC literal_load               /* two PC-relative literal loads */
        ldr r1, =0x12345678
        ldr r2, =0x9abcdef0
        bx lr
        .ltorg
        .size literal_load, .-literal_load

        .balign 4
FUNC cortexm_emu_halt
        b cortexm_emu_halt
        .size cortexm_emu_halt, .-cortexm_emu_halt
