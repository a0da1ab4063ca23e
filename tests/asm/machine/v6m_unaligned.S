/* ARMv6-M loads and stores at r0 + 1 (every unaligned access faults on ARMv6-M, DDI 0419E A3.2). */
    .syntax unified
    .thumb
    .text
#include "../func.inc"
FUNC v6_ldr
    adds r0, #1
    ldr r0, [r0]
    bx lr
    .size v6_ldr, .-v6_ldr
FUNC v6_strh
    adds r0, #1
    strh r1, [r0, #2]
    bx lr
    .size v6_strh, .-v6_strh
FUNC v6_stm
    adds r0, #1
    stm r0!, {r1, r2}
    bx lr
    .size v6_stm, .-v6_stm
FUNC v6_ldrb
    adds r0, #1
    ldrb r0, [r0]
    bx lr
    .size v6_ldrb, .-v6_ldrb
/* SP written with bits[1:0] set: the hardware ignores them (ARMv7-M ARM B1.4.1), so the PUSH
   and POP run at the aligned SP and r0 returns the call's SP. */
FUNC sp_misalign
    mov r1, sp
    adds r1, #2
    mov sp, r1
    push {r4, r5}
    pop {r4, r5}
    mov r0, sp
    bx lr
    .size sp_misalign, .-sp_misalign
FUNC cortexm_emu_halt
    b cortexm_emu_halt
    .size cortexm_emu_halt, .-cortexm_emu_halt
