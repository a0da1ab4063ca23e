/* ARMv7-M instructions that Unicorn's Cortex-M0 model still executes (IT, CBZ): built for
   m3 and loaded into an m0/m0plus Machine, which must refuse them before they run. */
    .syntax unified
    .thumb
    .text
    .global uses_it
    .type uses_it, %function
    .thumb_func
uses_it:
    cmp r0, r1
    ite eq
    moveq r0, #1
    movne r0, #0
    bx lr
    .size uses_it, .-uses_it

    .global uses_cbz
    .type uses_cbz, %function
    .thumb_func
uses_cbz:
    cbz r0, 1f
    movs r0, #2
1:  bx lr
    .size uses_cbz, .-uses_cbz

/* A 32-bit Thumb-2 data-processing instruction: Unicorn's Cortex-M0 model refuses it itself
   (it would run if Unicorn had been opened with UC_MODE_MCLASS, which forces a Cortex-M33). */
    .global uses_add_w
    .type uses_add_w, %function
    .thumb_func
uses_add_w:
    add.w r0, r0, r1
    bx lr
    .size uses_add_w, .-uses_add_w

    .global cortexm_emu_halt
    .type cortexm_emu_halt, %function
    .thumb_func
cortexm_emu_halt:
    b cortexm_emu_halt
    .size cortexm_emu_halt, .-cortexm_emu_halt
