@ Microbenchmarks for tutorial 5: one loop per timing rule, valid Thumb-1 (runs on every core).
@ Each function's argument is the iteration count; the per-iteration cost is the difference of two
@ counts divided by the difference of iterations, which cancels the call and return.

    .syntax unified
    .thumb
    .text

@ Four dependent ALU instructions and a taken backward branch.
    .global alu_loop
    .type alu_loop, %function
    .thumb_func
alu_loop:                   @ r0 = iterations
1:  adds r1, r1, #1
    eors r2, r1
    adds r3, r2, r1
    subs r0, r0, #1
    bne 1b
    bx lr

@ Four independent loads from one buffer (r0), then the loop counter (r1).
    .global load_loop
    .type load_loop, %function
    .thumb_func
load_loop:                  @ r0 = buffer of 16 bytes, r1 = iterations
1:  ldr r2, [r0]
    ldr r3, [r0, #4]
    ldr r2, [r0, #8]
    ldr r3, [r0, #12]
    subs r1, r1, #1
    bne 1b
    bx lr

@ Eight ALU instructions in four independent pairs: what a dual-issue core can pair.
    .global pairs_loop
    .type pairs_loop, %function
    .thumb_func
pairs_loop:                 @ r0 = iterations
    push {r4, r5}
1:  adds r1, r1, #1
    adds r2, r2, #3
    eors r3, r1
    eors r4, r2
    adds r5, r3, r4
    subs r3, r3, #1
    adds r1, r1, r5
    subs r0, r0, #1
    bne 1b
    pop {r4, r5}
    bx lr
