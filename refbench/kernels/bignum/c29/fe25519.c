/* GF(2^255 - 19) in the shape of CycloneCRYPTO's own field code (Oryx-Embedded/CycloneCRYPTO
 * 13471b478f713eb324c64e1ea8756bc50760ed1a, ecc/curve25519.c, "@version 2.5.4"): an element is 9
 * signed 32-bit limbs of 29 bits (the ninth holding 23), value sum l[i] 2^(29 i), kept partly
 * reduced between operations; a product is 81 signed 32x32->64 products summed column by column
 * (product scanning) into one 64-bit accumulator, each column's low 29 bits kept and the rest
 * carried; the 18-limb product is folded once with 2^261 = 2^6 2^255 = 64 * 19 = 1216 (mod p) and
 * the bits from 2^255 up once more with 19, leaving the result partly reduced (not canonical);
 * squaring is a call of the multiplication with the operand twice (curve25519Sqr calls
 * curve25519Mul); additions and subtractions are one carry pass with the top folded by 19; the
 * multiplication by a one-word constant is one row of nine products folded the same way. Loops are
 * fully unrolled, as the library's CURVE25519_SPEED_OPTIMIZATION_LEVEL >= 1 writes them out.
 *
 * Every field operation takes and returns elements in these limbs, as the library's do (the
 * variant's manifest `limbs`: the harness converts canonical operands to limbs before a call and
 * the result back after it, outside the measured call). Conversion happens only at the ends of a
 * whole operation: x25519_scalarmult here imports u into limbs, runs the ladder and the inversion
 * on limbs and exports the canonical result (the library's x25519.c: curve25519Import, the ladder,
 * curve25519Inv, curve25519Canonicalize, curve25519Export).
 *
 * Defines FE25519_ASM's and X25519_OWN's functions (fe.h, x25519.h: "the variant supplies these"),
 * written in C. Constant time: no branch or index depends on secret data.
 */
#include "kernel.h"

typedef signed int s32;
typedef signed long long s64;

#define M29 0x1fffffff
#define M23 0x007fffff

void fe25519_mul(s32 *r, const s32 *a, const s32 *b);

/* 8 words (value below 2^256) -> 9 limbs of 29 bits (the ninth holds the top 24 bits). */
static void unpack29(s32 l[9], const uint32_t w[8])
{
    l[0] = (s32)(w[0] & M29);
    l[1] = (s32)(((w[0] >> 29) | (w[1] << 3)) & M29);
    l[2] = (s32)(((w[1] >> 26) | (w[2] << 6)) & M29);
    l[3] = (s32)(((w[2] >> 23) | (w[3] << 9)) & M29);
    l[4] = (s32)(((w[3] >> 20) | (w[4] << 12)) & M29);
    l[5] = (s32)(((w[4] >> 17) | (w[5] << 15)) & M29);
    l[6] = (s32)(((w[5] >> 14) | (w[6] << 18)) & M29);
    l[7] = (s32)(((w[6] >> 11) | (w[7] << 21)) & M29);
    l[8] = (s32)(w[7] >> 8);
}

/* Signed limbs of a value above -p and below 2^261 -> the canonical residue in 8 words: p added
 * (its limbs: 2^29 - 19, seven of 2^29 - 1, 2^23 - 1), two carry passes, each folding the bits
 * from 2^255 up with 19 (the second leaves a value below 2^255), then the final subtraction of p
 * exactly when value + 19 reaches 2^255, by masks. */
static void pack29(uint32_t w[8], const s32 l[9])
{
    s32 t[9];
    s32 c = 0;
#pragma GCC unroll 9
    for (int i = 0; i < 8; i++) {
        c += l[i] + (i == 0 ? M29 - 18 : M29);
        t[i] = c & M29;
        c >>= 29;
    }
    c += l[8] + M23;
    t[8] = c & M23;
    c >>= 23;
    c = t[0] + 19 * c;
#pragma GCC unroll 9
    for (int i = 0; i < 8; i++) {
        t[i] = c & M29;
        c = (c >> 29) + t[i + 1];
    }
    t[8] = c & M23;
    t[0] += 19 * (c >> 23);                /* 0 or 19, and then t[0] < 2^29 (the value was below 2^255 + 2^29) */
    uint32_t v[8];
    v[0] = (uint32_t)t[0] | ((uint32_t)t[1] << 29);
    v[1] = ((uint32_t)t[1] >> 3) | ((uint32_t)t[2] << 26);
    v[2] = ((uint32_t)t[2] >> 6) | ((uint32_t)t[3] << 23);
    v[3] = ((uint32_t)t[3] >> 9) | ((uint32_t)t[4] << 20);
    v[4] = ((uint32_t)t[4] >> 12) | ((uint32_t)t[5] << 17);
    v[5] = ((uint32_t)t[5] >> 15) | ((uint32_t)t[6] << 14);
    v[6] = ((uint32_t)t[6] >> 18) | ((uint32_t)t[7] << 11);
    v[7] = ((uint32_t)t[7] >> 21) | ((uint32_t)t[8] << 8);
    /* v < 2^255: v >= p exactly when v + 19 has bit 255 set; then the result is v + 19 - 2^255 */
    uint32_t u[8];
    uint64_t s = 19;
#pragma GCC unroll 8
    for (int i = 0; i < 8; i++) {
        s += v[i];
        u[i] = (uint32_t)s;
        s >>= 32;
    }
    const uint32_t take = 0u - (u[7] >> 31);
    u[7] &= 0x7fffffffu;
#pragma GCC unroll 8
    for (int i = 0; i < 8; i++) {
        w[i] = (u[i] & take) | (v[i] & ~take);
    }
}

/* r = a b, partly reduced (the library's curve25519Mul shape): 81 products in 17 columns, one
 * fold by 1216 of the upper nine limbs, one by 19 of the bits from 2^255 up. */
void fe25519_mul(s32 *r, const s32 *a, const s32 *b)
{
    s32 u[18];
    s64 acc = 0;
#pragma GCC unroll 17
    for (int k = 0; k < 17; k++) {
#pragma GCC unroll 9
        for (int i = (k < 9 ? 0 : k - 8); i <= (k < 9 ? k : 8); i++) {
            acc += (s64)a[i] * b[k - i];
        }
        u[k] = (s32)acc & M29;
        acc >>= 29;
    }
    u[17] = (s32)acc;
    acc = 0;
#pragma GCC unroll 8
    for (int i = 0; i < 8; i++) {
        acc += u[i] + (s64)u[i + 9] * 1216;
        r[i] = (s32)acc & M29;
        acc >>= 29;
    }
    acc += u[8] + (s64)u[17] * 1216;
    r[8] = (s32)acc & M23;
    acc >>= 23;
    acc = acc * 19 + r[0];
    r[0] = (s32)acc & M29;
    r[1] += (s32)(acc >> 29);
}

void fe25519_sqr(s32 *r, const s32 *a)
{
    fe25519_mul(r, a, a);
}

/* r = a + k b mod p for k = +1 or -1 in one signed carry pass (the library's curve25519Add/Sub). */
static inline __attribute__((always_inline)) void addsub29(s32 r[9], const s32 a[9], const s32 b[9], s32 k)
{
    s32 c = 0;
#pragma GCC unroll 8
    for (int i = 0; i < 8; i++) {
        c += a[i] + k * b[i];
        r[i] = c & M29;
        c >>= 29;
    }
    c += a[8] + k * b[8];
    r[8] = c & M23;
    c >>= 23;
    r[0] += c * 19;
}

void fe25519_add(s32 *r, const s32 *a, const s32 *b)
{
    addsub29(r, a, b, 1);
}

/* a - b: when a < b the signed pass's top carry is negative and folds as -19, leaving a - b + p. */
void fe25519_sub(s32 *r, const s32 *a, const s32 *b)
{
    addsub29(r, a, b, -1);
}

/* r = 121665 a mod p: one row of nine products (the library's curve25519MulInt). */
void fe25519_mul_a24(s32 *r, const s32 *a)
{
    s64 acc = 0;
#pragma GCC unroll 8
    for (int i = 0; i < 8; i++) {
        acc += (s64)a[i] * 121665;
        r[i] = (s32)acc & M29;
        acc >>= 29;
    }
    acc += (s64)a[8] * 121665;
    r[8] = (s32)acc & M23;
    acc >>= 23;
    acc = acc * 19 + r[0];
    r[0] = (s32)acc & M29;
    r[1] += (s32)(acc >> 29);
}

/* Swap a and b when swap is 1, by masks (the library's curve25519Swap). */
void fe25519_cswap(s32 *a, s32 *b, uint32_t swap)
{
    const uint32_t mask = 0u - swap;
#pragma GCC unroll 9
    for (int i = 0; i < 9; i++) {
        const s32 t = (s32)(((uint32_t)a[i] ^ (uint32_t)b[i]) & mask);
        a[i] ^= t;
        b[i] ^= t;
    }
}

/* a <-> b when a[0] is odd (bignum 25519-cswap; limb 0 holds the value's low bits) */
void fe25519_cswap_odd(s32 *a, s32 *b)
{
    fe25519_cswap(a, b, (uint32_t)a[0] & 1u);
}

/* r^(2^n) in r, n >= 1 */
static void sqr_n(s32 r[9], uint32_t n)
{
    do {
        fe25519_sqr(r, r);
    } while (--n);
}

/* r = z^(p - 2), z != r: the addition chain of x25519.h's fe25519_invert (254 S + 11 M), on limbs. */
static void invert29(s32 r[9], const s32 z[9])
{
    s32 z9[9], z11[9], a[9], b[9];
    fe25519_sqr(a, z);
    fe25519_sqr(b, a);
    fe25519_sqr(b, b);
    fe25519_mul(z9, b, z);
    fe25519_mul(z11, z9, a);
    fe25519_sqr(b, z11);
    fe25519_mul(a, b, z9);        /* z^(2^5 - 1) */
    fe25519_sqr(b, a);
    sqr_n(b, 4);
    fe25519_mul(a, b, a);         /* z^(2^10 - 1) */
    fe25519_sqr(b, a);
    sqr_n(b, 9);
    fe25519_mul(b, b, a);         /* z^(2^20 - 1) */
    fe25519_sqr(r, b);
    sqr_n(r, 19);
    fe25519_mul(r, r, b);         /* z^(2^40 - 1) */
    sqr_n(r, 10);
    fe25519_mul(a, r, a);         /* z^(2^50 - 1) */
    fe25519_sqr(b, a);
    sqr_n(b, 49);
    fe25519_mul(b, b, a);         /* z^(2^100 - 1) */
    fe25519_sqr(r, b);
    sqr_n(r, 99);
    fe25519_mul(r, r, b);         /* z^(2^200 - 1) */
    sqr_n(r, 50);
    fe25519_mul(r, r, a);         /* z^(2^250 - 1) */
    sqr_n(r, 5);
    fe25519_mul(r, r, z11);       /* z^(p - 2) */
}

/* The conversions and the inversion for code that keeps its elements in these limbs between
 * operations and meets words only at its ends (ed25519.h under X25519_OWN, as CycloneCRYPTO's
 * ed25519.c imports and exports once per operation). */
void fe25519_from_words(s32 *l, const uint32_t *w) { unpack29(l, w); }
void fe25519_to_words(uint32_t *w, const s32 *l) { pack29(w, l); }
void fe25519_invert(s32 *r, const s32 *z) { invert29(r, z); }

/* The whole X25519 (RFC 7748 §5) on limbs: the ladder of x25519.h with the same operation counts
 * (5 M + 4 S + 1 a24 + 4 add + 4 sub + 2 cswap per bit), u imported once and the result exported
 * once. Scalar clamped (decodeScalar25519), u's top bit masked (decodeUCoordinate). */
void x25519_scalarmult(uint32_t *r, const uint32_t *a, const uint32_t *b)
{
    uint32_t k[8], u[8];
    s32 x1[9], x2[9], z2[9], x3[9], z3[9], t0[9], t1[9], aa[9], bb[9], e[9], da[9], cb[9];
    for (int i = 0; i < 8; i++) {
        k[i] = a[i];
        u[i] = b[i];
    }
    k[0] &= 0xfffffff8u;
    k[7] = (k[7] & 0x7fffffffu) | 0x40000000u;
    u[7] &= 0x7fffffffu;
    unpack29(x1, u);
    for (int i = 0; i < 9; i++) {
        x3[i] = x1[i];
        x2[i] = i == 0;
        z2[i] = 0;
        z3[i] = i == 0;
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
        fe25519_add(x2, x3, z3);       /* C */
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
    invert29(t0, z2);
    fe25519_mul(x3, x2, t0);
    pack29(r, x3);
}
