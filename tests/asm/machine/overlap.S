/* A loop entered in its middle: the first pass starts a Unicorn block at 2:, the later passes
   one at 1:, so the UDIV (operand-dependent on M3/M4) and the BNE (predicted on M7) sit in two
   overlapping blocks. r0 = passes (>= 1), r1 = dividend; returns the last quotient / 3. */
    .syntax unified
    .thumb
    .text
#include "../func.inc"

FUNC cortexm_emu_halt
    b cortexm_emu_halt
    .size cortexm_emu_halt, .-cortexm_emu_halt
FUNC enter_mid_loop
    movs r2, #3
    movs r3, #0
    b 2f
1:  adds r1, r1, r3
2:  udiv r3, r1, r2
    subs r0, r0, #1
    bne 1b
    mov r0, r3
    bx lr
    .size enter_mid_loop, .-enter_mid_loop
