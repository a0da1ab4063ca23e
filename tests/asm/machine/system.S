/* Self-measuring code for cortexm_emu's machine tests: DWT->CYCCNT (ARMv7-M) and SysTick.
   Hand-written so the instructions between the two counter reads are known exactly. */
    .syntax unified
    .thumb
    .text

/* uint32_t dwt_delta(void): enable DEMCR.TRCENA and DWT_CTRL.CYCCNTENA, zero CYCCNT,
   read it, run 10 NOPs, read it again, return the difference. */
    .global dwt_delta
    .type dwt_delta, %function
    .thumb_func
dwt_delta:
    ldr r0, =0xE000EDFC
    ldr r1, [r0]
    movs r2, #1
    lsls r2, r2, #24
    orrs r1, r2
    str r1, [r0]
    ldr r0, =0xE0001000
    movs r1, #0
    str r1, [r0, #4]
    ldr r1, [r0]
    movs r2, #1
    orrs r1, r2
    str r1, [r0]
    ldr r2, [r0, #4]
    nop
    nop
    nop
    nop
    nop
    nop
    nop
    nop
    nop
    nop
    ldr r3, [r0, #4]
    subs r0, r3, r2
    bx lr
    .size dwt_delta, .-dwt_delta

/* uint32_t systick_delta(void): RVR = 0xFFFFFF, clear CVR, enable (core clock), read CVR,
   10 NOPs, read CVR; returns first - second (the counter counts down). */
    .global systick_delta
    .type systick_delta, %function
    .thumb_func
systick_delta:
    ldr r0, =0xE000E010
    ldr r1, =0x00FFFFFF
    str r1, [r0, #4]
    movs r1, #0
    str r1, [r0, #8]
    movs r1, #5
    str r1, [r0]
    ldr r2, [r0, #8]
    nop
    nop
    nop
    nop
    nop
    nop
    nop
    nop
    nop
    nop
    ldr r3, [r0, #8]
    subs r0, r2, r3
    bx lr
    .size systick_delta, .-systick_delta

/* uint32_t read_cpuid(void) */
    .global read_cpuid
    .type read_cpuid, %function
    .thumb_func
read_cpuid:
    ldr r0, =0xE000ED00
    ldr r0, [r0]
    bx lr
    .size read_cpuid, .-read_cpuid

/* uint32_t ret_only(uint32_t x): just the return */
    .global ret_only
    .type ret_only, %function
    .thumb_func
ret_only:
    bx lr
    .size ret_only, .-ret_only

/* void undefined(void): UDF -> HardFault */
    .global undefined
    .type undefined, %function
    .thumb_func
undefined:
    udf #7
    bx lr
    .size undefined, .-undefined

    .global cortexm_emu_halt
    .type cortexm_emu_halt, %function
    .thumb_func
cortexm_emu_halt:
    b cortexm_emu_halt
    .size cortexm_emu_halt, .-cortexm_emu_halt
    .ltorg
