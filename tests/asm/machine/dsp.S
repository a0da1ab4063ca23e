/* A DSP-extension instruction (ARMv7E-M): refused on an m3 Machine, runs on m4. */
    .syntax unified
    .thumb
    .text
    .global uses_dsp
    .type uses_dsp, %function
    .thumb_func
uses_dsp:
    uadd8 r0, r0, r1
    bx lr
    .size uses_dsp, .-uses_dsp

    .global cortexm_emu_halt
    .type cortexm_emu_halt, %function
    .thumb_func
cortexm_emu_halt:
    b cortexm_emu_halt
    .size cortexm_emu_halt, .-cortexm_emu_halt
