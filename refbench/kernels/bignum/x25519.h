/* A whole X25519 scalar multiplication (RFC 7748 §5) over the 2^255 - 19 field operations of
 * fe.h: the constant-time Montgomery ladder, 255 steps of 5 M + 4 S + 1 multiplication by
 * a24 = 121665 + 4 additions + 4 subtractions + 2 conditional swaps, then x2 * z2^(p - 2) with
 * the inversion z2^(p - 2) by the addition chain of ref10's fe_invert (254 S + 11 M, below), the
 * pricing of refbench/sanity/pubkey_costs.toml [pricing] inv_chains. It is the operation rule e composes from
 * counted field operations; its cycles, emulated whole, check that composition
 * (tests/test_pubkey_composition.py). Every intermediate value is canonical, in [0, p).
 * Scalar: 32 bytes, clamped as RFC 7748 §5 decodeScalar25519; u: 32 bytes, top bit masked
 * (decodeUCoordinate), non-canonical values reduced.
 */
#ifndef REFBENCH_BIGNUM_X25519_H
#define REFBENCH_BIGNUM_X25519_H

#include "fe.h"

#ifdef FE25519_ASM
void fe25519_cswap(uint32_t *a, uint32_t *b, uint32_t swap); /* umaal_asm/fe25519.S */
#else
FE_CALL void fe25519_cswap(uint32_t *a, uint32_t *b, uint32_t swap) { cswap_words(a, b, swap, 8); }
#endif

#ifndef X25519_OWN /* else the variant supplies the rest on its own element representation (c29/fe25519.c) */

/* a <-> b when a[0] is odd: the ladder's conditional swap as one kernel operation (25519-cswap),
 * the swap bit from the data so the reference can state the result; the composition prices each
 * counted cswap with it (refbench/sanity/pubkey_costs.toml [pricing] cswap). */
void fe25519_cswap_odd(uint32_t *a, uint32_t *b) { fe25519_cswap(a, b, a[0] & 1u); }

/* r^(2^n) in r, n >= 1: the runs of squarings of the inversion chain */
static void fe25519_sqr_n(uint32_t r[8], uint32_t n)
{
    do {
        fe25519_sqr(r, r);
    } while (--n);
}

/* r = z^(p - 2) = z^(2^255 - 21), z != r: the addition chain of ref10's fe_invert (SUPERCOP
 * crypto_scalarmult/curve25519/ref10/fe_invert.c, the chain RFC 7748's implementations share):
 * z^11 and z^(2^5 - 1) from 4 S + 3 M, then z^(2^k - 1) for k = 10, 20, 40, 50, 100, 200, 250 by
 * squaring runs and one multiplication each, then 5 S and z^11: 254 S + 11 M. */
static void fe25519_invert(uint32_t r[8], const uint32_t z[8])
{
    uint32_t z9[8], z11[8], a[8], b[8];
    fe25519_sqr(a, z);            /* z^2 */
    fe25519_sqr(b, a);            /* z^4 */
    fe25519_sqr(b, b);            /* z^8 */
    fe25519_mul(z9, b, z);        /* z^9 */
    fe25519_mul(z11, z9, a);      /* z^11 */
    fe25519_sqr(b, z11);          /* z^22 */
    fe25519_mul(a, b, z9);        /* z^(2^5 - 1) */
    fe25519_sqr(b, a);
    fe25519_sqr_n(b, 4);
    fe25519_mul(a, b, a);         /* z^(2^10 - 1) */
    fe25519_sqr(b, a);
    fe25519_sqr_n(b, 9);
    fe25519_mul(b, b, a);         /* z^(2^20 - 1) */
    fe25519_sqr(r, b);
    fe25519_sqr_n(r, 19);
    fe25519_mul(r, r, b);         /* z^(2^40 - 1) */
    fe25519_sqr_n(r, 10);
    fe25519_mul(a, r, a);         /* z^(2^50 - 1) */
    fe25519_sqr(b, a);
    fe25519_sqr_n(b, 49);
    fe25519_mul(b, b, a);         /* z^(2^100 - 1) */
    fe25519_sqr(r, b);
    fe25519_sqr_n(r, 99);
    fe25519_mul(r, r, b);         /* z^(2^200 - 1) */
    fe25519_sqr_n(r, 50);
    fe25519_mul(r, r, a);         /* z^(2^250 - 1) */
    fe25519_sqr_n(r, 5);
    fe25519_mul(r, r, z11);       /* z^(2^255 - 32 + 11) = z^(p - 2) */
}

#ifdef X25519_ASM
/* the variant supplies the whole scalar multiplication in assembly (umaal_asm/x25519.S): the same
 * ladder and inversion chain with weakly reduced field elements and inline additions */
void x25519_scalarmult(uint32_t *r, const uint32_t *a, const uint32_t *b);
#else

void x25519_scalarmult(uint32_t *r, const uint32_t *a, const uint32_t *b)
{
    uint32_t k[8], x1[8], x2[8], z2[8], x3[8], z3[8];
    uint32_t t0[8], t1[8], aa[8], bb[8], e[8], da[8], cb[8];
    for (uint32_t i = 0; i < 8; i++) {
        k[i] = a[i];
        x1[i] = b[i];
        x2[i] = i == 0;
        z2[i] = 0;
        z3[i] = i == 0;
    }
    k[0] &= 0xfffffff8u;                             /* decodeScalar25519 */
    k[7] = (k[7] & 0x7fffffffu) | 0x40000000u;
    x1[7] &= 0x7fffffffu;                            /* decodeUCoordinate */
    fe25519_freeze(x1, x1);
    for (uint32_t i = 0; i < 8; i++) {
        x3[i] = x1[i];
    }
    uint32_t swap = 0;
    for (int t = 254; t >= 0; t--) {
        const uint32_t kt = (k[t >> 5] >> (t & 31)) & 1u;
        swap ^= kt;
        fe25519_cswap(x2, x3, swap);
        fe25519_cswap(z2, z3, swap);
        swap = kt;
        fe25519_add(t0, x2, z2);       /* A */
        fe25519_sub(t1, x2, z2);       /* B */
        fe25519_sqr(aa, t0);           /* AA */
        fe25519_sqr(bb, t1);           /* BB */
        fe25519_sub(e, aa, bb);        /* E */
        fe25519_add(x2, x3, z3);       /* C (x2 is free until x2 = AA BB) */
        fe25519_sub(z2, x3, z3);       /* D */
        fe25519_mul(da, z2, t0);       /* DA */
        fe25519_mul(cb, x2, t1);       /* CB */
        fe25519_add(t0, da, cb);
        fe25519_sqr(x3, t0);           /* x3 = (DA + CB)^2 */
        fe25519_sub(t1, da, cb);
        fe25519_sqr(t0, t1);
        fe25519_mul(z3, x1, t0);       /* z3 = x1 (DA - CB)^2 */
        fe25519_mul(x2, aa, bb);       /* x2 = AA BB */
        fe25519_mul_a24(t0, e);
        fe25519_add(t0, aa, t0);
        fe25519_mul(z2, e, t0);        /* z2 = E (AA + a24 E) */
    }
    fe25519_cswap(x2, x3, swap);
    fe25519_cswap(z2, z3, swap);
    fe25519_invert(t0, z2);
    fe25519_mul(r, x2, t0);
}
#endif

#endif /* X25519_OWN */

#endif
