/* Branch-free carries and borrows for the C bignum code.
 *
 * ARMv6-M (Cortex-M0/M0+) has no IT block and no conditional select, so clang lowers a
 * comparison used as a value (`c = s < c;`) or a mask it can prove is 0 or all ones to a
 * conditional branch: on a secret operand the time then depends on the secret (refbench
 * leakage bignum/c32 --operation p256-add --core m0plus: three such branches in sub_if_ge).
 * Here the carry and the borrow of a word addition or subtraction come from the sign bits of
 * the operands and of the result (Warren, Hacker's Delight, 2nd ed. 2013, section 2-13,
 * "Overflow Detection", unsigned add and subtract), which hold with a carry or borrow into the
 * word too, and the result word passes through an empty assembly statement first, so the
 * compiler cannot see it is x + y (or x - y) and fold the formula back into a comparison. The
 * same device as BoringSSL's value_barrier_w (google/boringssl
 * f7543e6dbbcf555557fb8d53ef1ff5b9fe393a1d crypto/internal.h). */
#ifndef REFBENCH_BIGNUM_CT_H
#define REFBENCH_BIGNUM_CT_H

/* The fixed-width types as every kernel has them, not <stdint.h>: GCC's newlib spells uint32_t
 * "long unsigned int" and kernel.h's typedef then clashes (no bignum kernel built with gcc). */
#include "kernel.h"

/* x, with its value hidden from the optimiser (no instruction). Also the masks of the selects:
 * a mask the compiler can see is 0 or all ones becomes a branch (mont.h's bn_select on the M0+)
 * or a conditional pointer and a load from either operand, a secret-dependent address (IT MI;
 * ADDMI in fe.h's 2^255 - 19 freeze: refbench leakage on bignum/c32 ed25519-base-mult). */
static inline __attribute__((always_inline)) uint32_t ct_opaque(uint32_t x)
{
    __asm__("" : "+r"(x));
    return x;
}

/* the carry out of s = x + y (+ a carry in of 0 or 1): bit 31 of (x & y) | ((x | y) & ~s) */
static inline __attribute__((always_inline)) uint32_t ct_carry(uint32_t x, uint32_t y, uint32_t s)
{
    s = ct_opaque(s);
    return ((x & y) | ((x | y) & ~s)) >> 31;
}

/* the borrow out of d = x - y (- a borrow in of 0 or 1): bit 31 of (~x & y) | (~(x ^ y) & d) */
static inline __attribute__((always_inline)) uint32_t ct_borrow(uint32_t x, uint32_t y, uint32_t d)
{
    d = ct_opaque(d);
    return ((~x & y) | (~(x ^ y) & d)) >> 31;
}

/* all ones when x is 0, else 0: bit 31 of x | -x is set exactly when x != 0. A barrier between
 * the OR and the shift, or clang sees x != 0, and one between the shift and the decrement, or it
 * sees a sign test: either way it branched on the M0+ (p256_select8, BMI/BEQ on the index). */
static inline __attribute__((always_inline)) uint32_t ct_zero_mask(uint32_t x)
{
    return ct_opaque(ct_opaque(x | (0u - x)) >> 31) - 1u;
}

#endif
