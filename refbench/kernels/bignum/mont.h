/* Montgomery multiplication and squaring on 32-bit limbs, for moduli of 1 to 128 limbs
 * (32 to 4096 bits) given at call time: the arithmetic under RSA and finite-field DH.
 *
 * Montgomery (1985); the word-level algorithms are those of Koc, Acar and Kaliski,
 * "Analyzing and comparing Montgomery multiplication algorithms", IEEE Micro 16(3), 1996:
 *   bn_mont_mul -- CIOS (coarsely integrated operand scanning), one multiply-accumulate pass
 *                  and one reduction pass per limb of b, t of limbs+2 words;
 *   bn_mont_sqr -- SOS (separated operand scanning): the square first, each cross product
 *                  a[i]a[j] (i<j) computed once and doubled (HAC 14.16), then word-by-word
 *                  REDC (HAC 14.32) over the 2*limbs-word square.
 * Both return a*b*R^-1 mod n (a*a*R^-1 mod n), R = 2^(32*limbs), fully reduced to [0, n) by a
 * final masked subtraction (no branch on secret data). Inputs: a, b < n, n odd.
 *
 * The variants differ only in the multiply-accumulate primitive of limbs.h.
 * Operand layout: little-endian 32-bit limbs, least significant first.
 */
#ifndef REFBENCH_BIGNUM_MONT_H
#define REFBENCH_BIGNUM_MONT_H

#include "limbs.h"

#define BN_MAX_LIMBS 128

/* 8 + 4 * BN_MAX_LIMBS = 520 bytes (the manifest's context_bytes). */
typedef struct {
    uint32_t limbs;
    uint32_t n0;                /* -n^-1 mod 2^32 */
    uint32_t n[BN_MAX_LIMBS];   /* the modulus */
} bn_mont_ctx;

/* The context: a copy of the modulus and n0 = -n^-1 mod 2^32 by Newton's iteration
 * x <- x(2 - nx), each step doubling the correct low bits from 3 (n*n = 1 mod 8 for odd n;
 * Dusse and Kaliski, EUROCRYPT 1990). */
void bn_mont_setup(bn_mont_ctx *ctx, const uint32_t *n, uint32_t limbs)
{
    uint32_t x = n[0];
    for (int k = 0; k < 4; k++) {
        x *= 2u - n[0] * x;     /* 3 -> 6 -> 12 -> 24 -> 48 correct bits */
    }
    ctx->limbs = limbs;
    ctx->n0 = 0u - x;
    for (uint32_t i = 0; i < limbs; i++) {
        ctx->n[i] = n[i];
    }
}

#ifdef MONT_ASM
/* the variant supplies these in assembly (umaal_asm/mont.S), same contracts */
void bn_mont_mul(const bn_mont_ctx *ctx, uint32_t *r, const uint32_t *a, const uint32_t *b);
void bn_mont_sqr(const bn_mont_ctx *ctx, uint32_t *r, const uint32_t *a);
#else
void bn_mont_mul(const bn_mont_ctx *ctx, uint32_t *r, const uint32_t *a, const uint32_t *b)
{
    const uint32_t limbs = ctx->limbs;
    const uint32_t *n = ctx->n;
    uint32_t t[BN_MAX_LIMBS + 2];
    for (uint32_t j = 0; j < limbs + 2; j++) {
        t[j] = 0;
    }
    for (uint32_t i = 0; i < limbs; i++) {
        uint32_t c = 0, s, lo;
        const uint32_t bi = b[i];
        for (uint32_t j = 0; j < limbs; j++) {
            MAC(c, t[j], a[j], bi, t[j], c);
        }
        const uint32_t w = t[limbs];
        s = w + c;
        t[limbs + 1] = ct_carry(w, c, s);
        t[limbs] = s;
        const uint32_t q = t[0] * ctx->n0;
        MAC(c, lo, q, n[0], t[0], 0);               /* lo is 0 by the choice of q */
        (void)lo;
        for (uint32_t j = 1; j < limbs; j++) {
            MAC(c, t[j - 1], q, n[j], t[j], c);
        }
        const uint32_t u = t[limbs];
        s = u + c;
        t[limbs - 1] = s;
        t[limbs] = t[limbs + 1] + ct_carry(u, c, s);
    }
    sub_if_ge(r, t, t[limbs], n, limbs);
}

void bn_mont_sqr(const bn_mont_ctx *ctx, uint32_t *r, const uint32_t *a)
{
    const uint32_t limbs = ctx->limbs;
    const uint32_t *n = ctx->n;
    uint32_t t[2 * BN_MAX_LIMBS];
    uint32_t c, s, top;
    sqr_wide(t, a, limbs);
    /* REDC word by word; the carry out of word i+limbs is deferred to the next step's word */
    top = 0;
    for (uint32_t i = 0; i < limbs; i++) {
        const uint32_t q = t[i] * ctx->n0;
        c = 0;
        for (uint32_t j = 0; j < limbs; j++) {
            MAC(c, t[i + j], q, n[j], t[i + j], c);
        }
        const uint32_t w = t[i + limbs];
        s = w + c;
        const uint32_t c1 = ct_carry(w, c, s);
        t[i + limbs] = s + top;
        top = c1 + ct_carry(s, top, s + top);
    }
    sub_if_ge(r, t + limbs, top, n, limbs);
}
#endif

/* r = a + b mod n, r = a - b mod n (a, b < n): the additive work of the Montgomery-form
 * fields (brainpool, SM2), whose elements stay in Montgomery form through additions. */
void bn_mod_add(const bn_mont_ctx *ctx, uint32_t *r, const uint32_t *a, const uint32_t *b)
{
    mod_add(r, a, b, ctx->n, ctx->limbs);
}

void bn_mod_sub(const bn_mont_ctx *ctx, uint32_t *r, const uint32_t *a, const uint32_t *b)
{
    mod_sub(r, a, b, ctx->n, ctx->limbs);
}

/* r = bit ? b : a (bit in {0, 1}) limb by limb, by masks (no branch): the one select loop, which
 * bn_select (the operation the composition prices a table read's select with) and ed25519.h's
 * coordinate selects both run, so the priced and the run select are the same code. */
__attribute__((noinline)) void bn_select_bit(uint32_t *r, const uint32_t *a, const uint32_t *b, uint32_t bit,
                                             uint32_t limbs)
{
    const uint32_t mask = ct_opaque(0u - bit);
    for (uint32_t i = 0; i < limbs; i++) {
        r[i] = a[i] ^ ((a[i] ^ b[i]) & mask);
    }
}

/* r = b if the low bit of a is 1, else a, by masks (no branch): a constant-time select of one
 * element, half of a conditional swap of two (which reads both, and writes both). The
 * condition comes from the data so the reference can state the result. */
void bn_select(uint32_t *r, const uint32_t *a, const uint32_t *b, uint32_t limbs)
{
    bn_select_bit(r, a, b, a[0] & 1u, limbs);
}

/* The caller's side of one call of a field or bignum operation, which the harness's measurement
 * of an operation leaves out (it counts the function up to and including its own return): the
 * set-up of three pointer arguments into the stack frame (ADD Rd, SP, #imm, how a compiled
 * caller passes its local field elements) and one branch. Its measured cycles (up to and
 * including this return) are that set-up and a BX LR, which costs what the caller's BL does on
 * ARMv7-M (both 1 + P: ARM DDI 0439D Table 3-1; DDI 0489F Table 3-1) and one cycle less on
 * ARMv6-M (BL 3, BX 2: ARM DDI 0484C Table 3-1): the per-call cost of the composition
 * (refbench/sanity/pubkey_cost.py, operation "call"). */
__attribute__((naked)) void bn_call(uint32_t *r, const uint32_t *a, const uint32_t *b)
{
    __asm__ volatile("add r0, sp, #0\n\tadd r1, sp, #32\n\tadd r2, sp, #64\n\tbx lr");
}

/* CycloneCRYPTO mpi.c in its own shape, over the same context (cy_mont_mul, cy_mpi_mod) */
#include "mpi_cyclone.h"

/* constant-time table reads in wolfSSL's shapes (bn_sp_table_read, bn_ref10_cmov_table) */
#include "table.h"

#endif
