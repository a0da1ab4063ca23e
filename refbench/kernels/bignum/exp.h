/* Modular exponentiation a^e mod n over the Montgomery multiplication and squaring of mont.h:
 * left-to-right fixed 4-bit window (HAC 14.82 with k = 4; HAC 14.94 for Montgomery form), the
 * ladder of RSA private operations (without CRT) and finite-field DH. The exponent has the
 * modulus' length. Every window costs four squarings and one multiplication, by table[0] = R
 * mod n when the window is zero, so the sequence of operations does not depend on e; the
 * table entry is read by index (libraries that guard against cache timing scan the whole
 * table, which costs 16 limb-vector reads per window more).
 * Cost: 14 table multiplications + 2 domain changes + bits squarings + bits/4 multiplications.
 */
#ifndef REFBENCH_BIGNUM_EXP_H
#define REFBENCH_BIGNUM_EXP_H

#include "mont.h"

/* 8 + 4 * 128 + 4 * 128 = 1032 bytes (the manifest's context_bytes). */
typedef struct {
    bn_mont_ctx mont;
    uint32_t rr[BN_MAX_LIMBS]; /* R^2 mod n, to enter the Montgomery domain */
} bn_exp_ctx;

/* The Montgomery context and R^2 mod n by 64*limbs modular doublings of 1 (not timed). */
void bn_exp_setup(bn_exp_ctx *ctx, const uint32_t *n, uint32_t limbs)
{
    uint32_t *x = ctx->rr;
    bn_mont_setup(&ctx->mont, n, limbs);
    for (uint32_t i = 0; i < limbs; i++) {
        x[i] = i == 0;
    }
    for (uint32_t k = 0; k < 64 * limbs; k++) {
        uint32_t top = 0;
        for (uint32_t i = 0; i < limbs; i++) {
            const uint32_t w = x[i];
            x[i] = (w << 1) | top;
            top = w >> 31;
        }
        sub_if_ge(x, x, top, n, limbs);
    }
}

void bn_mont_exp(const bn_exp_ctx *ctx, uint32_t *r, const uint32_t *a, const uint32_t *e)
{
    const bn_mont_ctx *m = &ctx->mont;
    const uint32_t limbs = m->limbs;
    uint32_t table[16][BN_MAX_LIMBS];
    uint32_t x[BN_MAX_LIMBS];
    for (uint32_t i = 0; i < limbs; i++) {
        x[i] = i == 0;
    }
    bn_mont_mul(m, table[0], ctx->rr, x);   /* R mod n: 1 in Montgomery form */
    bn_mont_mul(m, table[1], ctx->rr, a);   /* a R mod n */
    for (uint32_t j = 2; j < 16; j++) {
        bn_mont_mul(m, table[j], table[j - 1], table[1]);
    }
    for (uint32_t i = 0; i < limbs; i++) {
        x[i] = table[0][i];
    }
    for (uint32_t w = 8 * limbs; w-- > 0;) { /* windows from the most significant */
        const uint32_t digit = (e[w >> 3] >> (4 * (w & 7))) & 0xfu;
        for (int s = 0; s < 4; s++) {
            bn_mont_sqr(m, x, x);
        }
        bn_mont_mul(m, x, x, table[digit]);
    }
    for (uint32_t i = 0; i < limbs; i++) {
        table[0][i] = i == 0;
    }
    bn_mont_mul(m, r, x, table[0]);          /* leave the domain */
}

#endif
