/* Word-level multi-precision routines on 32-bit limbs (little-endian, least significant limb
 * first), shared by the Montgomery (mont.h) and the special-form field (fe.h) operations.
 *
 * Every product goes through one primitive that each variant's source defines before
 * including this file,
 *     mac(&hi, &lo, a, b, c, d):  (hi:lo) = a*b + c + d
 * which never overflows ((2^32-1)^2 + 2(2^32-1) = 2^64-1) and is the shape of a schoolbook
 * multiply-accumulate step: a 64-bit C product (c32), UMLAL plus carry adds (umlal), one
 * UMAAL (umaal), four 16x16 MULS (m0).
 */
#ifndef REFBENCH_BIGNUM_LIMBS_H
#define REFBENCH_BIGNUM_LIMBS_H

#include "kernel.h"
#include "ct.h"

/* the signed fixed-width types the bignum code uses beside kernel.h's unsigned ones (not <stdint.h>: see ct.h) */
typedef signed char int8_t;
typedef int int32_t;
typedef long long int64_t;

#define MAC(hi, lo, a, b, c, d)                   \
    do {                                          \
        uint32_t h_, l_;                          \
        mac(&h_, &l_, (a), (b), (c), (d));        \
        (lo) = l_;                                \
        (hi) = h_;                                \
    } while (0)

/* t[0..2n) = a * b by operand scanning (HAC 14.12): n^2 MACs. */
static void mul_wide(uint32_t *t, const uint32_t *a, const uint32_t *b, uint32_t n)
{
    for (uint32_t j = 0; j < 2 * n; j++) {
        t[j] = 0;
    }
    for (uint32_t i = 0; i < n; i++) {
        uint32_t c = 0;
        const uint32_t ai = a[i];
        for (uint32_t j = 0; j < n; j++) {
            MAC(c, t[i + j], ai, b[j], t[i + j], c);
        }
        t[i + n] = c;
    }
}

/* t[0..2n) = a^2 (HAC 14.16): each cross product a[i]a[j], i < j, once (n(n-1)/2 MACs),
 * doubled by a shift, then the n squares a[i]^2 added on the diagonal. */
static void sqr_wide(uint32_t *t, const uint32_t *a, uint32_t n)
{
    uint32_t c, s, top;
    for (uint32_t j = 0; j < 2 * n; j++) {
        t[j] = 0;
    }
    for (uint32_t i = 0; i < n; i++) {
        const uint32_t ai = a[i];
        c = 0;
        for (uint32_t j = i + 1; j < n; j++) {
            MAC(c, t[i + j], ai, a[j], t[i + j], c);
        }
        t[i + n] = c;
    }
    top = 0; /* the cross products sum to less than 2^(64n - 1): no bit leaves the top */
    for (uint32_t j = 0; j < 2 * n; j++) {
        const uint32_t w = t[j];
        t[j] = (w << 1) | top;
        top = w >> 31;
    }
    c = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t hi;
        MAC(hi, t[2 * i], a[i], a[i], t[2 * i], c);
        const uint32_t w = t[2 * i + 1];
        s = w + hi;
        c = ct_carry(w, hi, s);
        t[2 * i + 1] = s;
    }
}

/* r = x - m if top:x >= m, else x, for top:x < 2m (top is 0 or 1); r may be x. Constant time:
 * one pass finds the borrow of x - m, a second subtracts m masked by the outcome (borrows and
 * the mask by ct.h, which the compiler cannot turn into branches). */
static void sub_if_ge(uint32_t *r, const uint32_t *x, uint32_t top, const uint32_t *m, uint32_t n)
{
    uint32_t borrow = 0;
    for (uint32_t i = 0; i < n; i++) {
        const uint32_t xi = x[i], mi = m[i];
        borrow = ct_borrow(xi, mi, xi - mi - borrow);
    }
    const uint32_t mask = ct_opaque(0u - (top | (borrow ^ 1u))); /* all ones: subtract */
    borrow = 0;
    for (uint32_t i = 0; i < n; i++) {
        const uint32_t xi = x[i], mi = m[i] & mask;
        const uint32_t d = xi - mi - borrow;
        borrow = ct_borrow(xi, mi, d);
        r[i] = d;
    }
}

/* r = a + b mod m for a, b < m (r may be a or b): the word additions with their carry, then
 * one masked subtraction of m (the sum is below 2m). */
static void mod_add(uint32_t *r, const uint32_t *a, const uint32_t *b, const uint32_t *m, uint32_t n)
{
    uint32_t c = 0;
    for (uint32_t i = 0; i < n; i++) {
        const uint32_t ai = a[i], bi = b[i];
        const uint32_t s = ai + bi + c;
        c = ct_carry(ai, bi, s);
        r[i] = s;
    }
    sub_if_ge(r, r, c, m, n);
}

/* r = a - b mod m for a, b < m (r may be a or b): the word subtractions with their borrow,
 * then m added back, masked, when the difference borrows. */
static void mod_sub(uint32_t *r, const uint32_t *a, const uint32_t *b, const uint32_t *m, uint32_t n)
{
    uint32_t borrow = 0;
    for (uint32_t i = 0; i < n; i++) {
        const uint32_t ai = a[i], bi = b[i];
        const uint32_t d = ai - bi - borrow;
        borrow = ct_borrow(ai, bi, d);
        r[i] = d;
    }
    const uint32_t mask = ct_opaque(0u - borrow);
    uint32_t c = 0;
    for (uint32_t i = 0; i < n; i++) {
        const uint32_t ri = r[i], mi = m[i] & mask;
        const uint32_t s = ri + mi + c;
        c = ct_carry(ri, mi, s);
        r[i] = s;
    }
}

/* Swap a and b when swap is 1, by masks (constant time). */
static void cswap_words(uint32_t *a, uint32_t *b, uint32_t swap, uint32_t n)
{
    const uint32_t mask = ct_opaque(0u - swap);
    for (uint32_t i = 0; i < n; i++) {
        const uint32_t t = (a[i] ^ b[i]) & mask;
        a[i] ^= t;
        b[i] ^= t;
    }
}

#endif
