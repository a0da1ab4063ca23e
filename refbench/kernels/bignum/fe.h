/* Fixed-size prime-field multiplication and squaring with special-form reduction on 32-bit
 * limbs: the field arithmetic under the ECDSA/ECDH and X25519 figures.
 *
 *   P-256    p = 2^256 - 2^224 + 2^192 + 2^96 - 1 (FIPS 186-4 D.1.2.3): Solinas reduction of
 *            the 512-bit product by the word sums of FIPS 186-4 Appendix D.2.3 (s1 + 2s2 + 2s3
 *            + s4 + s5 - d1 - d2 - d3 - d4) with signed carries, then folds of the top word
 *            with 2^256 = 2^224 - 2^192 - 2^96 + 1 (mod p).
 *   P-384    p = 2^384 - 2^128 - 2^96 + 2^32 - 1 (FIPS 186-4 D.1.2.4): the word sums of
 *            Appendix D.2.4 (T + 2S1 + S2 + S3 + S4 + S5 + S6 - D1 - D2 - D3), signed carries,
 *            folds with 2^384 = 2^128 + 2^96 - 2^32 + 1 (mod p).
 *   P-521    p = 2^521 - 1 (FIPS 186-4 D.1.2.5, D.2.5): the bits above 521 added to the low
 *            521 bits, twice.
 *   SM2      p = 2^256 - 2^224 - 2^96 + 2^64 - 1 (GB/T 32918.5-2017): the same shape, word sums
 *            derived from 2^256 = 2^224 + 2^96 - 2^64 + 1 (mod p), then folds of the top word.
 *   25519    p = 2^255 - 19 (RFC 7748 §4.1): the top 256 bits folded with 2^256 = 38 (mod p),
 *            then bit 255 with 2^255 = 19.
 *   448      p = 2^448 - 2^224 - 1 (RFC 7748 §4.2): the top 448 bits H folded with
 *            2^448 = 2^224 + 1, i.e. L + H + (H_lo + H_hi) 2^224 + H_hi for H = H_lo + H_hi 2^224.
 *
 * Each field also has its modular addition and subtraction (limbs.h mod_add, mod_sub: one pass
 * and one masked correction), the additive work of the curve formulas.
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

/* Every field operation stays a function of its own, called by the curve code: libraries compile
 * their field arithmetic apart from the curve code (wolfSSL fe_operations.c under curve25519.c,
 * sp_256_mont_mul_8 under the point functions), so the compiler cannot inline it there; and the
 * composition (refbench/sanity/pubkey_cost.py) prices one call per counted operation. */
#define FE_CALL __attribute__((noinline))

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

#ifdef FE_P256_ASM
/* the variant supplies these and fe_p256_add/sub in assembly (umaal_asm/p256.S), same contracts */
FE_CALL void fe_p256_mul(uint32_t *r, const uint32_t *a, const uint32_t *b);
FE_CALL void fe_p256_sqr(uint32_t *r, const uint32_t *a);
#elif defined(FE_P256_MUL_ASM)
/* the variant supplies mul/sqr in assembly (m0_asm/fe25519.S), same contracts; add/sub: FE_P256_ADD_ASM below */
FE_CALL void fe_p256_mul(uint32_t *r, const uint32_t *a, const uint32_t *b);
FE_CALL void fe_p256_sqr(uint32_t *r, const uint32_t *a);
#else
FE_CALL void fe_p256_mul(uint32_t *r, const uint32_t *a, const uint32_t *b)
{
    uint32_t t[16];
    mul_wide(t, a, b, 8);
    p256_reduce(r, t);
}

FE_CALL void fe_p256_sqr(uint32_t *r, const uint32_t *a)
{
    uint32_t t[16];
    sqr_wide(t, a, 8);
    p256_reduce(r, t);
}
#endif

/* in assembly: umaal_asm/p256.S (FE_P256_ASM), m0_asm/p256_mont.S (FE_P256_ADD_ASM), same contracts */
#if defined(FE_P256_ASM) || defined(FE_P256_ADD_ASM)
FE_CALL void fe_p256_add(uint32_t *r, const uint32_t *a, const uint32_t *b);
FE_CALL void fe_p256_sub(uint32_t *r, const uint32_t *a, const uint32_t *b);
#else
FE_CALL void fe_p256_add(uint32_t *r, const uint32_t *a, const uint32_t *b) { mod_add(r, a, b, P256_P, 8); }
FE_CALL void fe_p256_sub(uint32_t *r, const uint32_t *a, const uint32_t *b) { mod_sub(r, a, b, P256_P, 8); }
#endif

/* ---------------------------------------------------------------------------------------- */
/* SM2: p = 2^256 - 2^224 - 2^96 + 2^64 - 1 (GB/T 32918.5-2017 §3, the sm2p256v1 prime), reduced
 * the way P-256 is: with W = 2^32, W^8 = W^7 + W^3 - W^2 + 1 (mod p), so each high word c[k]
 * (k = 8..15) of the 512-bit product adds small multiples of itself to the low words; substituting
 * until no power reaches W^8 gives the word sums below (derived here: W^k mod p as a combination
 * of W^0..W^7 with coefficients 1 to 3, and -1 in word 2), then folds of the top word. */

static const uint32_t SM2_P[8] = {0xffffffffu, 0xffffffffu, 0x00000000u, 0xffffffffu,
                                  0xffffffffu, 0xffffffffu, 0xffffffffu, 0xfffffffeu};

/* One signed carry pass adding top * (W^7 + W^3 - W^2 + 1), i.e. top * 2^256 mod p; returns
 * the new top word. */
static int32_t sm2_fold(uint32_t r[8], int32_t top)
{
    int64_t acc = (int64_t)r[0] + top;
    r[0] = (uint32_t)acc; acc >>= 32;
    acc += r[1]; r[1] = (uint32_t)acc; acc >>= 32;
    acc += (int64_t)r[2] - top; r[2] = (uint32_t)acc; acc >>= 32;
    acc += (int64_t)r[3] + top; r[3] = (uint32_t)acc; acc >>= 32;
    acc += r[4]; r[4] = (uint32_t)acc; acc >>= 32;
    acc += r[5]; r[5] = (uint32_t)acc; acc >>= 32;
    acc += r[6]; r[6] = (uint32_t)acc; acc >>= 32;
    acc += (int64_t)r[7] + top; r[7] = (uint32_t)acc; acc >>= 32;
    return (int32_t)acc;
}

static void sm2_reduce(uint32_t r[8], const uint32_t c[16])
{
    /* every W^k mod p (k >= 8) is a positive number, so the sum is too and its top word is in
     * [0, 14] */
    int64_t acc;
    acc = (int64_t)c[0] + c[8] + c[9] + c[10] + c[11] + c[12] + 2 * ((int64_t)c[13] + c[14] + c[15]);
    r[0] = (uint32_t)acc; acc >>= 32;
    acc += (int64_t)c[1] + c[9] + c[10] + c[11] + c[12] + c[13] + 2 * ((int64_t)c[14] + c[15]);
    r[1] = (uint32_t)acc; acc >>= 32;
    acc += (int64_t)c[2] - c[8] - c[9] - c[13] - c[14];
    r[2] = (uint32_t)acc; acc >>= 32;
    acc += (int64_t)c[3] + c[8] + c[11] + c[12] + 2 * (int64_t)c[13] + c[14] + c[15];
    r[3] = (uint32_t)acc; acc >>= 32;
    acc += (int64_t)c[4] + c[9] + c[12] + c[13] + 2 * (int64_t)c[14] + c[15];
    r[4] = (uint32_t)acc; acc >>= 32;
    acc += (int64_t)c[5] + c[10] + c[13] + c[14] + 2 * (int64_t)c[15];
    r[5] = (uint32_t)acc; acc >>= 32;
    acc += (int64_t)c[6] + c[11] + c[14] + c[15];
    r[6] = (uint32_t)acc; acc >>= 32;
    acc += (int64_t)c[7] + c[8] + c[9] + c[10] + c[11] + 2 * ((int64_t)c[12] + c[13] + c[14]) + 3 * (int64_t)c[15];
    r[7] = (uint32_t)acc; acc >>= 32;
    /* after the first fold the top word is 0 or 1 and then the low words are below 15 * 2^224
     * or 2^256, so the second cannot carry out */
    sm2_fold(r, sm2_fold(r, (int32_t)acc));
    sub_if_ge(r, r, 0, SM2_P, 8); /* below 2^256 < 2p: one subtraction at most */
}

#ifdef FE_SM2_OWN
/* the variant supplies these in C in a library's shape (c29/ec_sm2.c), same contracts */
FE_CALL void fe_sm2_mul(uint32_t *r, const uint32_t *a, const uint32_t *b);
FE_CALL void fe_sm2_sqr(uint32_t *r, const uint32_t *a);
FE_CALL void fe_sm2_add(uint32_t *r, const uint32_t *a, const uint32_t *b);
FE_CALL void fe_sm2_sub(uint32_t *r, const uint32_t *a, const uint32_t *b);
#else
FE_CALL void fe_sm2_mul(uint32_t *r, const uint32_t *a, const uint32_t *b)
{
    uint32_t t[16];
    mul_wide(t, a, b, 8);
    sm2_reduce(r, t);
}

FE_CALL void fe_sm2_sqr(uint32_t *r, const uint32_t *a)
{
    uint32_t t[16];
    sqr_wide(t, a, 8);
    sm2_reduce(r, t);
}

FE_CALL void fe_sm2_add(uint32_t *r, const uint32_t *a, const uint32_t *b) { mod_add(r, a, b, SM2_P, 8); }
FE_CALL void fe_sm2_sub(uint32_t *r, const uint32_t *a, const uint32_t *b) { mod_sub(r, a, b, SM2_P, 8); }
#endif

/* ---------------------------------------------------------------------------------------- */
/* 2^255 - 19 */

static const uint32_t P25519_P[8] = {0xffffffedu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
                                     0xffffffffu, 0xffffffffu, 0xffffffffu, 0x7fffffffu};

/* r += 19 * q for q < 2^27, rippling the carry through the 8 words. */
static void add19(uint32_t r[8], uint32_t q)
{
    uint32_t c = q * 19u;
    for (uint32_t i = 0; i < 8; i++) {
        const uint32_t ri = r[i];
        const uint32_t s = ri + c;
        c = ct_carry(ri, c, s);
        r[i] = s;
    }
}

/* r = x mod p for x < 2^255 (r may be x): x - p when x + 19 has bit 255 set. */
static void fe25519_freeze(uint32_t r[8], const uint32_t x[8])
{
    uint32_t u[8];
    for (uint32_t i = 0; i < 8; i++) {
        u[i] = x[i];
    }
    add19(u, 1);
    const uint32_t keep = ct_opaque(0u - (u[7] >> 31));
    u[7] &= 0x7fffffffu;
    for (uint32_t i = 0; i < 8; i++) {
        r[i] = (u[i] & keep) | (x[i] & ~keep);
    }
}

#ifdef FE25519_ASM
/* the variant supplies these in assembly (umaal_asm/fe25519.S, m0_asm/fe25519.S), same contracts, or
 * in C on its own limbs (c29/fe25519.c, with X25519_OWN: the manifest's `limbs`) */
FE_CALL void fe25519_add(uint32_t *r, const uint32_t *a, const uint32_t *b);
FE_CALL void fe25519_sub(uint32_t *r, const uint32_t *a, const uint32_t *b);
FE_CALL void fe25519_mul(uint32_t *r, const uint32_t *a, const uint32_t *b);
FE_CALL void fe25519_sqr(uint32_t *r, const uint32_t *a);
FE_CALL void fe25519_mul_a24(uint32_t *r, const uint32_t *a);
#else
/* r = a + b, r = a - b mod p (the sum is below 2p < 2^256: one masked subtraction) */
FE_CALL void fe25519_add(uint32_t *r, const uint32_t *a, const uint32_t *b) { mod_add(r, a, b, P25519_P, 8); }
FE_CALL void fe25519_sub(uint32_t *r, const uint32_t *a, const uint32_t *b) { mod_sub(r, a, b, P25519_P, 8); }

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
    const uint32_t keep = ct_opaque(0u - (u[7] >> 31));
    u[7] &= 0x7fffffffu;
    for (uint32_t i = 0; i < 8; i++) {
        r[i] = (u[i] & keep) | (r[i] & ~keep);
    }
}

FE_CALL void fe25519_mul(uint32_t *r, const uint32_t *a, const uint32_t *b)
{
    uint32_t t[16];
    mul_wide(t, a, b, 8);
    fe25519_reduce(r, t);
}

FE_CALL void fe25519_sqr(uint32_t *r, const uint32_t *a)
{
    uint32_t t[16];
    sqr_wide(t, a, 8);
    fe25519_reduce(r, t);
}

/* r = 121665 a mod p (a24 of RFC 7748 §5, a multiplication by a one-word constant): one row
 * of word products (the 9th word below 2^17), folded with 2^255 = 19 twice, then frozen. */
FE_CALL void fe25519_mul_a24(uint32_t *r, const uint32_t *a)
{
    uint32_t c = 0, q;
    for (uint32_t i = 0; i < 8; i++) {
        MAC(c, r[i], a[i], 121665u, 0u, c);
    }
    q = (c << 1) | (r[7] >> 31);
    r[7] &= 0x7fffffffu;
    add19(r, q);
    q = r[7] >> 31;
    r[7] &= 0x7fffffffu;
    add19(r, q);
    fe25519_freeze(r, r);
}

#endif

/* ---------------------------------------------------------------------------------------- */
/* P-384 */

static const uint32_t P384_P[12] = {0xffffffffu, 0x00000000u, 0x00000000u, 0xffffffffu, 0xfffffffeu, 0xffffffffu,
                                    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu};

/* One signed carry pass adding top * (2^128 + 2^96 - 2^32 + 1), i.e. top * 2^384 mod p. */
static int32_t p384_fold(uint32_t r[12], int32_t top)
{
    int64_t acc = (int64_t)r[0] + top;
    r[0] = (uint32_t)acc; acc >>= 32;
    acc += (int64_t)r[1] - top; r[1] = (uint32_t)acc; acc >>= 32;
    acc += r[2]; r[2] = (uint32_t)acc; acc >>= 32;
    acc += (int64_t)r[3] + top; r[3] = (uint32_t)acc; acc >>= 32;
    acc += (int64_t)r[4] + top; r[4] = (uint32_t)acc; acc >>= 32;
    for (uint32_t i = 5; i < 12; i++) {
        acc += r[i]; r[i] = (uint32_t)acc; acc >>= 32;
    }
    return (int32_t)acc;
}

static void p384_reduce(uint32_t r[12], const uint32_t c[24])
{
    /* word w of T + 2S1 + S2 + S3 + S4 + S5 + S6 - D1 - D2 - D3 (FIPS 186-4 D.2.4); the final
     * carry is in [-2, 4] */
    int64_t acc = 0;
    acc += (int64_t)c[0] + c[12] + c[20] + c[21] - c[23];
    r[0] = (uint32_t)acc; acc >>= 32;
    acc += (int64_t)c[1] + c[13] + c[22] + c[23] - c[12] - c[20];
    r[1] = (uint32_t)acc; acc >>= 32;
    acc += (int64_t)c[2] + c[14] + c[23] - c[13] - c[21];
    r[2] = (uint32_t)acc; acc >>= 32;
    acc += (int64_t)c[3] + c[12] + c[15] + c[20] + c[21] - c[14] - c[22] - c[23];
    r[3] = (uint32_t)acc; acc >>= 32;
    acc += (int64_t)c[4] + c[12] + c[13] + c[16] + c[20] + c[21] + c[21] + c[22] - c[15] - c[23] - c[23];
    r[4] = (uint32_t)acc; acc >>= 32;
    acc += (int64_t)c[5] + c[13] + c[14] + c[17] + c[21] + c[22] + c[22] + c[23] - c[16];
    r[5] = (uint32_t)acc; acc >>= 32;
    acc += (int64_t)c[6] + c[14] + c[15] + c[18] + c[22] + c[23] + c[23] - c[17];
    r[6] = (uint32_t)acc; acc >>= 32;
    acc += (int64_t)c[7] + c[15] + c[16] + c[19] + c[23] - c[18];
    r[7] = (uint32_t)acc; acc >>= 32;
    acc += (int64_t)c[8] + c[16] + c[17] + c[20] - c[19];
    r[8] = (uint32_t)acc; acc >>= 32;
    acc += (int64_t)c[9] + c[17] + c[18] + c[21] - c[20];
    r[9] = (uint32_t)acc; acc >>= 32;
    acc += (int64_t)c[10] + c[18] + c[19] + c[22] - c[21];
    r[10] = (uint32_t)acc; acc >>= 32;
    acc += (int64_t)c[11] + c[19] + c[20] + c[23] - c[22];
    r[11] = (uint32_t)acc; acc >>= 32;
    /* as for P-256: after one fold the top word is -1, 0 or 1 and the second cannot carry out */
    const int32_t top = p384_fold(r, (int32_t)acc);
    p384_fold(r, top);
    sub_if_ge(r, r, 0, P384_P, 12); /* below 2^384 < 2p */
}

FE_CALL void fe_p384_mul(uint32_t *r, const uint32_t *a, const uint32_t *b)
{
    uint32_t t[24];
    mul_wide(t, a, b, 12);
    p384_reduce(r, t);
}

FE_CALL void fe_p384_sqr(uint32_t *r, const uint32_t *a)
{
    uint32_t t[24];
    sqr_wide(t, a, 12);
    p384_reduce(r, t);
}

FE_CALL void fe_p384_add(uint32_t *r, const uint32_t *a, const uint32_t *b) { mod_add(r, a, b, P384_P, 12); }
FE_CALL void fe_p384_sub(uint32_t *r, const uint32_t *a, const uint32_t *b) { mod_sub(r, a, b, P384_P, 12); }

/* ---------------------------------------------------------------------------------------- */
/* P-521: 17 limbs, the top one holding 9 bits */

static const uint32_t P521_P[17] = {0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
                                    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
                                    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0x000001ffu};

static void p521_reduce(uint32_t r[17], const uint32_t t[34])
{
    /* t = L + H 2^521 = L + H (mod p): H is t shifted right by 521 bits (16 words and 9 bits) */
    uint32_t c = 0;
    for (uint32_t i = 0; i < 17; i++) {
        const uint32_t h = (t[16 + i] >> 9) | (t[17 + i] << 23); /* t[33] is 0: the product is below 2^1042 */
        const uint32_t l = i < 16 ? t[i] : (t[16] & 0x1ffu);
        const uint32_t s = l + h + c;
        c = ct_carry(l, h, s);
        r[i] = s;
    }
    /* below 2^522: fold bit 521 once more, then r <= 2^521 - 1 + 1 */
    c = r[16] >> 9;
    r[16] &= 0x1ffu;
    for (uint32_t i = 0; i < 17; i++) {
        const uint32_t ri = r[i];
        r[i] = ri + c;
        c = ct_carry(ri, c, ri + c);
    }
    sub_if_ge(r, r, 0, P521_P, 17); /* r = p gives 0 */
}

FE_CALL void fe_p521_mul(uint32_t *r, const uint32_t *a, const uint32_t *b)
{
    uint32_t t[34];
    mul_wide(t, a, b, 17);
    p521_reduce(r, t);
}

FE_CALL void fe_p521_sqr(uint32_t *r, const uint32_t *a)
{
    uint32_t t[34];
    sqr_wide(t, a, 17);
    p521_reduce(r, t);
}

FE_CALL void fe_p521_add(uint32_t *r, const uint32_t *a, const uint32_t *b) { mod_add(r, a, b, P521_P, 17); }
FE_CALL void fe_p521_sub(uint32_t *r, const uint32_t *a, const uint32_t *b) { mod_sub(r, a, b, P521_P, 17); }

/* ---------------------------------------------------------------------------------------- */
/* 2^448 - 2^224 - 1: 14 limbs */

#ifdef FE448_OWN
/* the variant supplies these on its own limbs (c29/fe448.c: signed 28-bit limbs in and out, the
 * manifest's `limbs`; the harness converts outside the call) */
FE_CALL void fe448_mul(uint32_t *r, const uint32_t *a, const uint32_t *b);
FE_CALL void fe448_sqr(uint32_t *r, const uint32_t *a);
FE_CALL void fe448_add(uint32_t *r, const uint32_t *a, const uint32_t *b);
FE_CALL void fe448_sub(uint32_t *r, const uint32_t *a, const uint32_t *b);
FE_CALL void fe448_mul_const(uint32_t *r, const uint32_t *a);
#else
static const uint32_t P448_P[14] = {0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
                                    0xffffffffu, 0xfffffffeu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
                                    0xffffffffu, 0xffffffffu};

/* r += top * (2^224 + 1), i.e. top * 2^448 mod p; returns the carry out of word 13. */
static uint32_t p448_fold(uint32_t r[14], uint32_t top)
{
    uint64_t acc = 0;
    for (uint32_t i = 0; i < 14; i++) {
        acc += (uint64_t)r[i] + ((i == 0 || i == 7) ? top : 0u);
        r[i] = (uint32_t)acc;
        acc >>= 32;
    }
    return (uint32_t)acc;
}

static void p448_reduce(uint32_t r[14], const uint32_t t[28])
{
    const uint32_t *h = t + 14;
    uint64_t acc = 0;
    for (uint32_t i = 0; i < 7; i++) {        /* L + H + H_hi */
        acc += (uint64_t)t[i] + h[i] + h[i + 7];
        r[i] = (uint32_t)acc;
        acc >>= 32;
    }
    for (uint32_t i = 7; i < 14; i++) {       /* + (H_lo + H_hi) 2^224 */
        acc += (uint64_t)t[i] + h[i] + h[i] + h[i - 7];
        r[i] = (uint32_t)acc;
        acc >>= 32;
    }
    /* the top word is at most 4; after one fold at most 1, and then the second cannot carry */
    p448_fold(r, p448_fold(r, (uint32_t)acc));
    sub_if_ge(r, r, 0, P448_P, 14); /* below 2^448 < 2p */
}

FE_CALL void fe448_mul(uint32_t *r, const uint32_t *a, const uint32_t *b)
{
    uint32_t t[28];
    mul_wide(t, a, b, 14);
    p448_reduce(r, t);
}

FE_CALL void fe448_sqr(uint32_t *r, const uint32_t *a)
{
    uint32_t t[28];
    sqr_wide(t, a, 14);
    p448_reduce(r, t);
}

FE_CALL void fe448_add(uint32_t *r, const uint32_t *a, const uint32_t *b) { mod_add(r, a, b, P448_P, 14); }
FE_CALL void fe448_sub(uint32_t *r, const uint32_t *a, const uint32_t *b) { mod_sub(r, a, b, P448_P, 14); }

/* r = 39081 a mod p (X448's a24, RFC 7748 §5: a multiplication by a one-word constant): one row of
 * word products (the 15th word below 2^16), folded with 2^448 = 2^224 + 1 twice, then one masked
 * subtraction of p, as p448_reduce ends. */
FE_CALL void fe448_mul_const(uint32_t *r, const uint32_t *a)
{
    uint32_t c = 0;
    for (uint32_t i = 0; i < 14; i++) {
        MAC(c, r[i], a[i], 39081u, 0u, c);
    }
    p448_fold(r, p448_fold(r, c));
    sub_if_ge(r, r, 0, P448_P, 14); /* below 2^448 < 2p */
}
#endif

/* CycloneCRYPTO's NIST-curve products in its own shape, over these reductions (cy_p256_mul, ...) */
#include "ec_cyclone.h"

#endif
