/* Calling-convention cases: an internal-ABI function taking r4/r5, functions that break the
   AAPCS (clobber r4, r9 or r11, or return with SP moved), a struct of two pointers, a pointer
   into a buffer. */
    .syntax unified
    .thumb
    .text
#include "../func.inc"

FUNC cortexm_emu_halt
    b cortexm_emu_halt
    .size cortexm_emu_halt, .-cortexm_emu_halt
/* internal ABI: r0 = r4 * 2 + r5 + r12 */
FUNC internal_sum
    adds r0, r4, r4
    adds r0, r0, r5
    add r0, r0, r12
    movs r4, #0
    bx lr
    .size internal_sum, .-internal_sum
FUNC clobber_r4
    movs r4, #1
    bx lr
    .size clobber_r4, .-clobber_r4
FUNC clobber_r11
    mov r11, r0
    bx lr
    .size clobber_r11, .-clobber_r11
FUNC leaves_sp_moved
    sub sp, #8
    bx lr
    .size leaves_sp_moved, .-leaves_sp_moved
FUNC saves_r4
    push {r4, lr}
    movs r4, #9
    adds r0, r0, r4
    pop {r4, pc}
    .size saves_r4, .-saves_r4
/* r0 -> struct { uint32_t *a; uint32_t *b; }: return *a + *b */
FUNC sum_pair
    ldr r1, [r0, #4]
    ldr r0, [r0]
    ldr r0, [r0]
    ldr r1, [r1]
    adds r0, r0, r1
    bx lr
    .size sum_pair, .-sum_pair
/* return the word at r0 */
FUNC load_word
    ldr r0, [r0]
    bx lr
    .size load_word, .-load_word
