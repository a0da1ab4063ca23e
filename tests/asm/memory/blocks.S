/* Memory-block microbenchmarks (tests/test_memory_blocks.py): load/store pairs that the
   Cortex-M4 model prices as pipelined (an LDR/STR right after an LDR whose result it does not
   use for its address, DDI 0439D §3.3.2), with their two accesses in the same or in different
   memory blocks (the flash table below, the stack, the buffers). Expected counts are derived in
   the tests from the pairs written here, never from a run. */
        .syntax unified
        .thumb
        .text

#include "../func.inc"

/* r0 = a, r1 = b: one pipelined pair, LDR [r0] then LDR [r1]. */
        .balign 32
FUNC pair_loads
        ldr r2, [r0]
        ldr r3, [r1]
        bx lr
        .size pair_loads, .-pair_loads

/* r0 = buffer, r1 = n >= 1: n iterations of LDR (flash table) then LDR (buffer): n pairs. */
        .balign 32
FUNC flash_then_buffer
        adr r3, flash_word
1:      ldr r2, [r3]
        ldr r12, [r0]
        subs r1, r1, #1
        bne 1b
        bx lr
        .size flash_then_buffer, .-flash_then_buffer

/* r0 = buffer, r1 = n >= 1: n iterations of LDR then LDR, both in the buffer: n pairs. */
        .balign 32
FUNC buffer_twice
1:      ldr r2, [r0]
        ldr r3, [r0, #4]
        subs r1, r1, #1
        bne 1b
        bx lr
        .size buffer_twice, .-buffer_twice

/* r0 = buffer, r1 = index: LDR from the flash table at [table, r1 LSL 2], then STR to the
   buffer at [r0, r1 LSL 2]: one load -> store pair (register-offset addresses). */
        .balign 32
FUNC table_to_buffer
        adr r3, flash_word
        nop                             /* the two 32-bit accesses below on word boundaries */
        ldr.w r2, [r3, r1, lsl #2]
        str.w r2, [r0, r1, lsl #2]
        bx lr
        .size table_to_buffer, .-table_to_buffer

/* r0 = buffer: LDR from the stack, then LDR from the buffer: one pair. */
        .balign 32
FUNC stack_then_buffer
        push {r4, lr}
        ldr r2, [sp]
        ldr r3, [r0]
        pop {r4, pc}
        .size stack_then_buffer, .-stack_then_buffer

/* r0 = buffer, r1 = n: conditional pairs are not checked (APPROXIMATIONS.md 49). */
        .balign 32
FUNC conditional_pair
        adr r3, flash_word
        cmp r1, #0
        itt ne
        ldrne r2, [r3]
        ldrne r12, [r0]
        bx lr
        .size conditional_pair, .-conditional_pair

/* r0 = buffer, r1 = address for LDRD: a pair, then LDRD (which must be word aligned whatever
   CCR.UNALIGN_TRP says, ARMv7-M ARM A3.2.1) in the same block of code. */
        .balign 32
FUNC pair_then_ldrd
        adr r3, flash_word
        ldr r2, [r3]
        ldr r12, [r0]
        ldrd r2, r3, [r1]
        bx lr
        .size pair_then_ldrd, .-pair_then_ldrd

        .balign 4
flash_word:
        .word 0x12345678, 1, 2, 3, 4, 5, 6, 7
