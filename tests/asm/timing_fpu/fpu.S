/* FPU register moves, loads and stores: code that parks core values in FPU registers and
   brings them back. Expected cycles are written in tests/test_timing_fpu.py from the cited
   tables (Cortex-M4 TRM DDI 0439D Table 7-1; jnk0le cortex_m7.md), never from a run.
   Calling convention: r0 points to a zeroed 64-byte buffer; each function returns r0 = a value
   that went through the FPU registers (checked by the tests). */
        .syntax unified
        .thumb
        .fpu fpv5-d16
        .text

#include "../func.inc"

        .balign 8
FUNC park_pair                  /* two core registers to two floats and back */
        movw r2, #0x1234
        movw r3, #0x5678
        vmov s0, s1, r2, r3
        vmov r1, r0, s0, s1     /* r0 = 0x5678 */
        bx lr
        .size park_pair, .-park_pair

        .balign 8
FUNC park_single                /* one core register to one float and back */
        movw r2, #0x4321
        vmov s5, r2
        vmov r0, s5             /* r0 = 0x4321 */
        bx lr
        .size park_single, .-park_single

        .balign 8
FUNC load_store_single          /* VSTR.32 / VLDR.32 */
        movw r2, #0x2468
        vmov s2, r2
        vstr s2, [r0, #8]
        vldr s3, [r0, #8]
        vmov r0, s3             /* r0 = 0x2468 */
        bx lr
        .size load_store_single, .-load_store_single

        .balign 8
FUNC load_store_double          /* VSTR.64 / VLDR.64 */
        movw r2, #0x1357
        movw r3, #0x9bdf
        vmov d2, r2, r3
        vstr d2, [r0, #16]
        vldr d3, [r0, #16]
        vmov r1, r0, d3         /* r0 = 0x9bdf */
        bx lr
        .size load_store_double, .-load_store_double

        .balign 8
FUNC multiple                   /* VSTM.32 of 4 floats, VLDM.32 of 4 floats */
        movw r2, #0x0abc
        vmov s4, r2
        vmov s5, r2
        vmov s6, r2
        vmov s7, r2
        vstmia r0, {s4-s7}
        vldmia r0, {s8-s11}
        vmov r0, s11            /* r0 = 0x0abc */
        bx lr
        .size multiple, .-multiple

        .balign 8
FUNC push_pop                   /* VPUSH/VPOP of two doubles (four words) */
        movw r2, #0x0def
        vmov s16, r2
        vpush {d8-d9}
        vmov s16, r0
        vpop {d8-d9}
        vmov r0, s16            /* r0 = 0x0def */
        bx lr
        .size push_pop, .-push_pop

        .balign 8
FUNC status                     /* VMRS / VMSR: FPSCR to a core register and back */
        vmrs r1, fpscr
        vmsr fpscr, r1
        movs r0, #7
        bx lr
        .size status, .-status

        .balign 8
FUNC fp_add                     /* single-precision arithmetic: priced on the M4F only */
        vmov s0, r0
        vadd.f32 s1, s0, s0
        vmov r0, s1
        bx lr
        .size fp_add, .-fp_add

        .balign 8
FUNC fp_add_double              /* double-precision arithmetic: the M4F FPU is single precision */
        vmov d0, r0, r0
        vadd.f64 d1, d0, d0
        vmov r0, r1, d1
        bx lr
        .size fp_add_double, .-fp_add_double

        .balign 8
FUNC cortexm_emu_halt
        b cortexm_emu_halt
        .size cortexm_emu_halt, .-cortexm_emu_halt
