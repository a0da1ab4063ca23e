/* A function linked into .data (writable SRAM, restored from the ELF before each call): for the
   machine test that code rewritten between two calls is priced again, not counted with the
   edges an earlier call priced. */
    .syntax unified
    .thumb
    .data
    .align 2
    .global ram_add
    .type ram_add, %function
    .thumb_func
ram_add:
    movs r1, #2
    adds r0, r0, r1
    bx lr
    .size ram_add, .-ram_add
