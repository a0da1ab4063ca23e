/* Memory-system microbenchmarks (tests/test_memory_board.py). Every function starts at a
   32-byte boundary so that its flash lines are known: on the STM32F4 a flash line is 16 bytes
   (128 bits, RM0090 §3.5.2). Expected stalls are derived in the tests from the rules in
   cortexm_emu/flash.py (R1-R6), never from a run. */
        .syntax unified
        .thumb
        .text

#include "../func.inc"

/* 8 lines of 8 16-bit ADDS (8 cycles per 16-byte line), then BX LR in a 9th line:
   a straight-line run whose lines each take >= WS+1 cycles up to 7 WS. */
        .balign 32
FUNC straight16
        .rept 64
        adds r1, r1, #1
        .endr
        bx lr
        .size straight16, .-straight16

/* 8 lines of 4 32-bit ADDS.W (4 cycles per line), then BX LR in a 9th line:
   the prefetcher hides up to 3 WS and leaves WS+1-4 per line above. */
        .balign 32
FUNC straight32
        .rept 32
        adds.w r1, r1, #1
        .endr
        bx lr
        .size straight32, .-straight32

/* r0 iterations of a loop that lies in one 16-byte line (R2: no flash read inside it). */
        .balign 32
FUNC loop_in_line
1:      subs r0, r0, #1
        bne 1b
        bx lr
        .size loop_in_line, .-loop_in_line

/* r0 iterations of 40 taken branches, each to the start of the next 32-byte slot (so never
   to the prefetched next line), then the loop test in a 41st slot: 41 branch-target lines. */
        .balign 32
FUNC hops41
        .rept 40
        b.n .+32
        .balign 32
        .endr
        subs r0, r0, #1
        bne.w hops41
        bx lr
        .size hops41, .-hops41

/* The same with 80 hops: 81 branch-target lines, more than the 64-line ART I-cache. */
        .balign 32
FUNC hops81
        .rept 80
        b.n .+32
        .balign 32
        .endr
        subs r0, r0, #1
        bne.w hops81
        bx lr
        .size hops81, .-hops81

/* Sum r0 words of the constant table `words` (in flash, .rodata): r0 <= 256. */
        .balign 32
FUNC sum_words
        ldr r2, =words
        movs r1, #0
1:      ldr r3, [r2], #4
        add r1, r1, r3
        subs r0, r0, #1
        bne 1b
        mov r0, r1
        bx lr
        .size sum_words, .-sum_words
        .ltorg

        .section .rodata
        .balign 32
        .global words
        .type words, %object
words:
        .set i, 0
        .rept 256
        .word i
        .set i, i + 1
        .endr
        .size words, .-words
