/* Cortex-M4 DSP-extension microbenchmark (DDI 0439D Table 3-2: each 1 cycle). Rejected on the M3. */
        .syntax unified
        .thumb
        .text

        .balign 4
        .global dsp_run
        .type dsp_run, %function
        .thumb_func
dsp_run:
        uadd8 r2, r0, r1
        sadd16 r3, r0, r1
        qadd r2, r0, r1
        sel r3, r0, r1
        usad8 r2, r0, r1
        smlad r3, r0, r1, r2
        smulbb r2, r0, r1
        umaal r2, r3, r0, r1
        pkhbt r2, r0, r1, lsl #16
        sxtab r3, r0, r1
        bx lr
        .size dsp_run, .-dsp_run

        .balign 4
        .global cortexm_emu_halt
        .type cortexm_emu_halt, %function
        .thumb_func
cortexm_emu_halt:
        b cortexm_emu_halt
        .size cortexm_emu_halt, .-cortexm_emu_halt
