/* A program without cortexm_emu_halt: the Machine must place its own return trampoline. */
    .syntax unified
    .thumb
    .text
    .global add_one
    .type add_one, %function
    .thumb_func
add_one:
    adds r0, r0, #1
    bx lr
    .size add_one, .-add_one
