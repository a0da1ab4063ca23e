/* Loads and stores that ARMv7-M/ARMv8-M require aligned whatever CCR.UNALIGN_TRP says
   (ARMv7-M ARM DDI 0403E A3.2.1), each at r0 + 1 so an aligned buffer makes them unaligned;
   plus the unaligned-capable LDR for contrast. Each takes (buffer, value). */
    .syntax unified
    .thumb
    .text
#include "../func.inc"

FUNC u_ldrd
    adds r0, #1
    ldrd r2, r3, [r0]
    adds r0, r2, r3
    bx lr
    .size u_ldrd, .-u_ldrd
FUNC u_strd
    adds r0, #1
    strd r1, r1, [r0]
    bx lr
    .size u_strd, .-u_strd
FUNC u_ldm
    adds r0, #1
    ldm r0, {r1, r2}
    adds r0, r1, r2
    bx lr
    .size u_ldm, .-u_ldm
FUNC u_stm
    adds r0, #1
    stm r0!, {r1, r2}
    bx lr
    .size u_stm, .-u_stm
FUNC u_ldrex
    adds r0, #1
    ldrex r1, [r0]
    mov r0, r1
    bx lr
    .size u_ldrex, .-u_ldrex
FUNC u_strex
    adds r0, #1
    strex r2, r1, [r0]
    mov r0, r2
    bx lr
    .size u_strex, .-u_strex
FUNC u_ldr
    adds r0, #1
    ldr r0, [r0]
    bx lr
    .size u_ldr, .-u_ldr
/* LDRD in an IT block whose condition fails: no access, no fault (r1 = 0 skips it). */
FUNC u_ldrd_skipped
    adds r0, #1
    cmp r1, #0
    it ne
    ldrdne r2, r3, [r0]
    movs r0, #7
    bx lr
    .size u_ldrd_skipped, .-u_ldrd_skipped
/* The same instructions on an aligned address run. */
FUNC a_ldrd_ldm
    ldrd r2, r3, [r0]
    ldm r0, {r1, r2}
    adds r0, r1, r3
    bx lr
    .size a_ldrd_ldm, .-a_ldrd_ldm
