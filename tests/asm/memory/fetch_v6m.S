/* Memory-system microbenchmarks for ARMv6-M boards (Cortex-M0+: STM32G071, STM32WL33);
   see tests/asm/memory/fetch.S. Expected stalls are derived in tests/test_board_machine.py. */
        .syntax unified
        .thumb
        .text

#include "../func.inc"

/* 64 16-bit ADDS (1 cycle each on the M0+, DDI 0484C Table 3.1), then BX LR:
   130 bytes from a 32-byte boundary. */
        .balign 32
FUNC straight16
        .rept 64
        adds r1, r1, #1
        .endr
        bx lr
        .size straight16, .-straight16

/* r0 iterations of a loop in one 4-byte word (one flash read on every profiled part). */
        .balign 32
FUNC loop_in_line
1:      subs r0, r0, #1
        bne 1b
        bx lr
        .size loop_in_line, .-loop_in_line
