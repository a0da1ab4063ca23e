/* The return stub linked first: with ideal.ld it sits at address 0x00000000. */
    .syntax unified
    .thumb
    .text
    .global cortexm_emu_halt
    .type cortexm_emu_halt, %function
    .thumb_func
cortexm_emu_halt:
    b cortexm_emu_halt
    .size cortexm_emu_halt, .-cortexm_emu_halt

    .global add_two
    .type add_two, %function
    .thumb_func
add_two:
    adds r0, r0, #2
    bx lr
    .size add_two, .-add_two
