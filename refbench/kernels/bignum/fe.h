/* Fixed-size prime-field multiplication and squaring with special-form reduction on 32-bit
 * limbs: the field arithmetic under the ECDSA/ECDH and X25519 figures.
 *
 *   P-256    p = 2^256 - 2^224 + 2^192 + 2^96 - 1 (FIPS 186-4 D.1.2.3): Solinas reduction of
 *            the 512-bit product by the word sums of FIPS 186-4 Appendix D.2.3 (s1 + 2s2 + 2s3
 *            + s4 + s5 - d1 - d2 - d3 - d4) with signed carries, then folds of the top word
 *            with 2^256 = 2^224 - 2^192 - 2^96 + 1 (mod p).
 *   25519    p = 2^255 - 19 (RFC 7748 §4.1): the top 256 bits folded with 2^256 = 38 (mod p),
 *            then bit 255 with 2^255 = 19.
 *
 * The 512-bit product and square come from limbs.h. Every result is canonical, in [0, p), so
 * it can be compared byte for byte; libraries keep intermediate results only partly reduced,
 * so the final masked subtraction (P-256) or +19 pass (25519) here is a cost they pay once per
 * scalar multiplication, not per multiplication: these counts are upper bounds by one 8-word
 * pass or two. Inputs: canonical, below p.
 */
#ifndef REFBENCH_BIGNUM_FE_H
#define REFBENCH_BIGNUM_FE_H

#include "limbs.h"

typedef int int32_t;
typedef long long int64_t;

/* ---------------------------------------------------------------------------------------- */
/* P-256 */

static const uint32_t P256_P[8] = {0xffffffffu, 0xffffffffu, 0xffffffffu, 0x00000000u,
                                   0x00000000u, 0x00000000u, 0x00000001u, 0xffffffffu};

/* One signed carry pass adding top * (2^224 - 2^192 - 2^96 + 1), i.e. top * 2^256 mod p;
 * returns the new top word. */
static int32_t p256_fold(uint32_t r[8], int32_t top)
{
    int64_t acc = (int64_t)r[0] + top;
    r[0] = (uint32_t)acc; acc >>= 32;
    acc += r[1]; r[1] = (uint32_t)acc; acc >>= 32;
    acc += r[2]; r[2] = (uint32_t)acc; acc >>= 32;
    acc += (int64_t)r[3] - top; r[3] = (uint32_t)acc; acc >>= 32;
    acc += r[4]; r[4] = (uint32_t)acc; acc >>= 32;
    acc += r[5]; r[5] = (uint32_t)acc; acc >>= 32;
    acc += (int64_t)r[6] - top; r[6] = (uint32_t)acc; acc >>= 32;
    acc += (int64_t)r[7] + top; r[7] = (uint32_t)acc; acc >>= 32;
    return (int32_t)acc;
}

static void p256_reduce(uint32_t r[8], const uint32_t c[16])
{
    /* word w of s1 + 2s2 + 2s3 + s4 + s5 - d1 - d2 - d3 - d4 (FIPS 186-4 D.2.3); the final
     * carry (the top word) is in [-4, 6] */
    int64_t acc;
    acc = (int64_t)c[0] + c[8] + c[9] - c[11] - c[12] - c[13] - c[14];
    r[0] = (uint32_t)acc; acc >>= 32;
    acc += (int64_t)c[1] + c[9] + c[10] - c[12] - c[13] - c[14] - c[15];
    r[1] = (uint32_t)acc; acc >>= 32;
    acc += (int64_t)c[2] + c[10] + c[11] - c[13] - c[14] - c[15];
    r[2] = (uint32_t)acc; acc >>= 32;
    acc += (int64_t)c[3] + c[11] + c[11] + c[12] + c[12] + c[13] - c[15] - c[8] - c[9];
    r[3] = (uint32_t)acc; acc >>= 32;
    acc += (int64_t)c[4] + c[12] + c[12] + c[13] + c[13] + c[14] - c[9] - c[10];
    r[4] = (uint32_t)acc; acc >>= 32;
    acc += (int64_t)c[5] + c[13] + c[13] + c[14] + c[14] + c[15] - c[10] - c[11];
    r[5] = (uint32_t)acc; acc >>= 32;
    acc += (int64_t)c[6] + c[13] + c[14] + c[14] + c[14] + c[15] + c[15] - c[8] - c[9];
    r[6] = (uint32_t)acc; acc >>= 32;
    acc += (int64_t)c[7] + c[8] + c[15] + c[15] + c[15] - c[10] - c[11] - c[12] - c[13];
    r[7] = (uint32_t)acc; acc >>= 32;
    /* two folds bring the top word to 0: after the first it is -1, 0 or 1, and then the low
     * 256 bits are within 6 * 2^224 of 0 or 2^256, so the second cannot carry out */
    const int32_t top = p256_fold(r, (int32_t)acc);
    p256_fold(r, top);
    sub_if_ge(r, r, 0, P256_P, 8); /* below 2^256 < 2p: one subtraction at most */
}

void fe_p256_mul(uint32_t *r, const uint32_t *a, const uint32_t *b)
{
    uint32_t t[16];
    mul_wide(t, a, b, 8);
    p256_reduce(r, t);
}

void fe_p256_sqr(uint32_t *r, const uint32_t *a)
{
    uint32_t t[16];
    sqr_wide(t, a, 8);
    p256_reduce(r, t);
}

/* ---------------------------------------------------------------------------------------- */
/* 2^255 - 19 */

/* r += 19 * q for q < 2^27, rippling the carry through the 8 words. */
static void add19(uint32_t r[8], uint32_t q)
{
    uint32_t c = q * 19u;
    for (uint32_t i = 0; i < 8; i++) {
        const uint32_t s = r[i] + c;
        c = s < c;
        r[i] = s;
    }
}

static void fe25519_reduce(uint32_t r[8], const uint32_t t[16])
{
    uint32_t c = 0, q, u[8];
    for (uint32_t i = 0; i < 8; i++) {
        MAC(c, r[i], t[i + 8], 38u, t[i], c);      /* 2^256 = 38 (mod p); c < 39 */
    }
    q = (c << 1) | (r[7] >> 31);                    /* 2^255 = 19 (mod p) */
    r[7] &= 0x7fffffffu;
    add19(r, q);                                    /* below 2^255 + 19 * 79 */
    q = r[7] >> 31;
    r[7] &= 0x7fffffffu;
    add19(r, q);                                    /* below 2^255 */
    /* freeze: r >= p exactly when r + 19 has bit 255 set; then r - p = r + 19 - 2^255 */
    for (uint32_t i = 0; i < 8; i++) {
        u[i] = r[i];
    }
    add19(u, 1);
    const uint32_t keep = 0u - (u[7] >> 31);
    u[7] &= 0x7fffffffu;
    for (uint32_t i = 0; i < 8; i++) {
        r[i] = (u[i] & keep) | (r[i] & ~keep);
    }
}

void fe25519_mul(uint32_t *r, const uint32_t *a, const uint32_t *b)
{
    uint32_t t[16];
    mul_wide(t, a, b, 8);
    fe25519_reduce(r, t);
}

void fe25519_sqr(uint32_t *r, const uint32_t *a)
{
    uint32_t t[16];
    sqr_wide(t, a, 8);
    fe25519_reduce(r, t);
}

#endif
