/* Arithmetic modulo the P-256 group order n (FIPS 186-4 D.1.2.3), the scalar side of ECDSA
 * (FIPS 186-4 §6.4: s = k^-1 (e + r d) mod n; w = s^-1, u1 = e w, u2 = r w mod n).
 *
 * n has no special form: -n^-1 mod 2^32 = 0xee00bc4f, not 1 as for p, so REDC needs the
 * quotient word's row of products. Montgomery multiplication and squaring modulo n at the fixed
 * size of 8 words (p256_order_mul, p256_order_sqr: r = a b R^-1 mod n, R = 2^256): in C the
 * 512-bit product of limbs.h and word-by-word REDC (HAC 14.32) with the quotient word t_i n' and
 * the variant's multiply-accumulate; the umaal_asm variant supplies both unrolled in assembly
 * (umaal_asm/p256_order.S). This is the shape of wolfSSL SP's order arithmetic
 * (sp_256_mont_mul_order_8 = the product and the generic reduction with mp = -n^-1), the library
 * arithmetic pubkey_costs.toml [pricing] order_kinds prices. Additions are limbs.h's mod_add with
 * m = n. The products are exported kernel operations (p256-order-mul, p256-order-sqr), so a
 * composition can price each one.
 *
 * Inversion a^-1 = a^(n-2) (Fermat; n is prime) by an addition chain over the public exponent
 * n - 2 (p256_order_inv: 253 squarings and 39 products, against 252 and 69 of a fixed 4-bit
 * window). The exponent is a constant, so which products happen and which table entry each reads
 * are the same for every a: constant time for a secret a (the nonce k of signing).
 */
#ifndef REFBENCH_BIGNUM_P256_ORDER_H
#define REFBENCH_BIGNUM_P256_ORDER_H

#include "fe.h"
#include "mont.h"

/* mont.h's context for n: limbs, n0 = -n^-1 mod 2^32, n (the remaining limbs are unused) */
static const bn_mont_ctx P256_N_CTX = {
    8u, 0xee00bc4fu,
    {0xfc632551u, 0xf3b9cac2u, 0xa7179e84u, 0xbce6faadu, 0xffffffffu, 0xffffffffu, 0x00000000u, 0xffffffffu}};
/* R^2 mod n, R = 2^256: an order product by it takes a value into Montgomery form */
static const uint32_t P256_N_RR[8] = {0xbe79eea2u, 0x83244c95u, 0x49bd6fa6u, 0x4699799cu,
                                      0x2b6bec59u, 0x2845b239u, 0xf3d95620u, 0x66e12d94u};
/* n - 2, the Fermat exponent */
static const uint32_t P256_N_MINUS_2[8] = {0xfc63254fu, 0xf3b9cac2u, 0xa7179e84u, 0xbce6faadu,
                                           0xffffffffu, 0xffffffffu, 0x00000000u, 0xffffffffu};

#ifdef P256_ORDER_ASM
FE_CALL void p256_order_mul(uint32_t *r, const uint32_t *a, const uint32_t *b);
FE_CALL void p256_order_sqr(uint32_t *r, const uint32_t *a);
#else
/* r = t R^-1 mod n for t < n R (16 words) */
static void p256_order_redc(uint32_t r[8], uint32_t t[16])
{
    uint32_t top = 0;
    for (uint32_t i = 0; i < 8; i++) {
        const uint32_t q = t[i] * P256_N_CTX.n0;
        uint32_t c = 0;
        for (uint32_t j = 0; j < 8; j++) {
            MAC(c, t[i + j], q, P256_N_CTX.n[j], t[i + j], c);
        }
        const uint32_t w = t[i + 8];
        const uint32_t s = w + c;
        const uint32_t c1 = ct_carry(w, c, s);
        t[i + 8] = s + top;
        top = c1 + ct_carry(s, top, s + top);
    }
    sub_if_ge(r, t + 8, top, P256_N_CTX.n, 8);
}

FE_CALL void p256_order_mul(uint32_t *r, const uint32_t *a, const uint32_t *b)
{
    uint32_t t[16];
    mul_wide(t, a, b, 8);
    p256_order_redc(r, t);
}

FE_CALL void p256_order_sqr(uint32_t *r, const uint32_t *a)
{
    uint32_t t[16];
    sqr_wide(t, a, 8);
    p256_order_redc(r, t);
}
#endif

/* r = a mod n for any 256-bit a (a < 2^256 < 2n: one masked subtraction) */
static void p256_order_reduce(uint32_t r[8], const uint32_t a[8])
{
    sub_if_ge(r, a, 0, P256_N_CTX.n, 8);
}

/* R mod n: a product by it takes a value below 2^256 out of nothing into its residue, x R R^-1 = x mod n */
static const uint32_t P256_N_R[8] = {0x039cdaafu, 0x0c46353du, 0x58e8617bu, 0x43190552u,
                                     0x00000000u, 0x00000000u, 0xffffffffu, 0x00000000u};

/* The sliding windows of up to 4 bits over the low 128 bits of n - 2 (bce6faad a7179e84 f3b9cac2
 * fc63254f), most significant first, each as (squarings before it, including the zero bits
 * skipped since the previous window; index j of its odd value 2j + 1), found by HAC 14.85's rule
 * from the constant exponent (the rule in Python: refbench/sanity/pubkey_whole.py
 * order_inversion_counts; a wrong entry gives a wrong inverse, which the signing tests see) */
static const uint8_t P256_N2_WINDOWS[27][2] = {
    {4, 5}, {2, 1}, {5, 3}, {6, 6}, {4, 7}, {4, 2}, {5, 5}, {5, 6}, {5, 3}, {7, 5}, {2, 1}, {6, 7}, {2, 0}, {8, 4},
    {3, 3}, {5, 3}, {4, 3}, {5, 3}, {5, 2}, {3, 1}, {8, 5}, {4, 7}, {5, 1}, {5, 1}, {6, 4}, {4, 2}, {6, 7}};

/* t = t^(2^k) (Montgomery form) */
static void p256_order_sqr_n(uint32_t t[8], uint32_t k)
{
    for (uint32_t i = 0; i < k; i++) {
        p256_order_sqr(t, t);
    }
}

/* r = a^-1 R mod n for a = x R mod n in Montgomery form (so r = x^-1 R: Montgomery form in and
 * out; r not a); 0 for 0. a^(n-2) by an addition chain over the public exponent: the top half of n - 2,
 * ffffffff 00000000 ffffffff ffffffff, from x_k = a^(2^k - 1) (x4 = a^15, x8, x16, x32), the low
 * half by a sliding window of up to 4 bits over the odd powers a, a^3, .., a^15 (HAC 14.85):
 * 253 squarings and 39 products. */
static void p256_order_inv(uint32_t r[8], const uint32_t a[8])
{
    uint32_t odd[8][8], a2[8], x8[8], x16[8], x32[8];
    p256_order_sqr(a2, a);
    for (uint32_t k = 0; k < 8; k++) {
        odd[0][k] = a[k];
    }
    for (uint32_t j = 1; j < 8; j++) {
        p256_order_mul(odd[j], odd[j - 1], a2);    /* a^(2j + 1) */
    }
    p256_order_sqr(x8, odd[7]);                    /* from x4 = a^15 */
    p256_order_sqr_n(x8, 3);
    p256_order_mul(x8, x8, odd[7]);
    p256_order_sqr(x16, x8);
    p256_order_sqr_n(x16, 7);
    p256_order_mul(x16, x16, x8);
    p256_order_sqr(x32, x16);
    p256_order_sqr_n(x32, 15);
    p256_order_mul(x32, x32, x16);
    p256_order_sqr(r, x32);
    p256_order_sqr_n(r, 63);
    p256_order_mul(r, r, x32);                     /* ffffffff 00000000 ffffffff */
    p256_order_sqr_n(r, 32);
    p256_order_mul(r, r, x32);                     /* ffffffff 00000000 ffffffff ffffffff */
    for (uint32_t w = 0; w < 27; w++) {            /* the low 128 bits: 27 windows */
        p256_order_sqr_n(r, P256_N2_WINDOWS[w][0]);
        p256_order_mul(r, r, odd[P256_N2_WINDOWS[w][1]]);
    }
}

#endif
