/* CycloneCRYPTO's elliptic-curve field code in its own shape (refbench's code, written from a reading of
 * Oryx-Embedded/CycloneCRYPTO 62f78fe0a15ea50b4c838970ef7d88d285cc8af3, "Version 2.5.0"): ecFieldMulMod and
 * ecFieldSqrMod (ecc/ec_misc.c:1286, :1308) are the double-length product ecScalarMul or square ecScalarSqr
 * (:766, :832), then the curve's reduction through a function pointer (curve->fieldMod; secp256r1FieldMod,
 * ecc/ec_curves.c:3934: the FIPS 186-4 D.2.3 word sums with a signed 64-bit accumulator and folding passes,
 * the shape of fe.h's p256_reduce; secp384r1FieldMod, secp521r1FieldMod and sm2FieldMod (:4172, :4457,
 * :5702) likewise: fe.h's p384_reduce, p521_reduce, sm2_reduce).
 *
 * Both products are Comba's column by column over two 64-bit accumulators: per word product
 * temp += a[j] b[i - j]; c += temp >> 32; temp &= 0xFFFFFFFF, and at the bottom of each column the
 * low word written and (temp, c) shifted down by a word; the square computes each cross product
 * once and adds it twice, with the same carry handling after each addition. One product, one square
 * and one addition loop serve every curve here: the NIST curves' operations (cy_p256_mul...) call them
 * with the field's length as a constant, SM2's (fe_sm2_mul..., with FE_SM2_OWN) with the length read
 * from the curve record at run time, as the library reads pLen = (curve->fieldSize + 31) / 32 in every
 * call. Also the field additions (ecFieldAddMod, ecFieldSubMod) and the brainpool curves' Barrett
 * reduction.
 */
#ifndef REFBENCH_BIGNUM_EC_CYCLONE_H
#define REFBENCH_BIGNUM_EC_CYCLONE_H

/* ecScalarMul and ecScalarSqr are out of line, at the length their caller passes: the library declares both
 * __weak_func (ec_misc.c:766, :832), which Oryx Embedded's common/compiler_port.h makes __attribute__((weak))
 * for GCC-compatible compilers and Arm Compiler 6 ("@version 2.4.4" as the search index stores it, repository
 * not identified), and a compiler may not inline a weak definition, which the linker may replace (LLVM Language
 * Reference Manual, "Linkage Types": linkonce "does not actually allow the optimizer to inline the body of this
 * function into callers", weak "has the same merging semantics"). So no caller's constant length reaches their
 * loops: noinline here.
 *
 * ecScalarMul: the low half of a b into rl and the high half into rh, either NULL to leave it
 * unwritten (the low columns are summed in any case: their carries feed the high ones). */
static __attribute__((noinline)) void cy_ec_scalar_mul(uint32_t *rl, uint32_t *rh, const uint32_t *a, const uint32_t *b, uint32_t n)
{
    uint64_t temp = 0, c = 0;
    uint32_t i, j;
    for (i = 0; i < n; i++) {
        for (j = 0; j <= i; j++) {
            temp += (uint64_t)a[j] * b[i - j];
            c += temp >> 32;
            temp &= 0xFFFFFFFFu;
        }
        if (rl != 0) {
            rl[i] = (uint32_t)temp;
        }
        temp = c & 0xFFFFFFFFu;
        c >>= 32;
    }
    if (rh != 0) {
        for (i = n; i < 2 * n; i++) {
            for (j = i + 1 - n; j < n; j++) {
                temp += (uint64_t)a[j] * b[i - j];
                c += temp >> 32;
                temp &= 0xFFFFFFFFu;
            }
            rh[i - n] = (uint32_t)temp;
            temp = c & 0xFFFFFFFFu;
            c >>= 32;
        }
    }
}

/* ecScalarSqr: r[0..2n) = a^2. */
static __attribute__((noinline)) void cy_ec_scalar_sqr(uint32_t *r, const uint32_t *a, uint32_t n)
{
    uint64_t temp = 0, c = 0, p;
    uint32_t i, j;
    for (i = 0; i < 2 * n; i++) {
        for (j = (i < n) ? 0 : i + 1 - n; j <= i && j <= i - j; j++) {
            p = (uint64_t)a[j] * a[i - j];
            temp += p;
            c += temp >> 32;
            temp &= 0xFFFFFFFFu;
            if (j < i - j) {
                temp += p;
                c += temp >> 32;
                temp &= 0xFFFFFFFFu;
            }
        }
        r[i] = (uint32_t)temp;
        temp = c & 0xFFFFFFFFu;
        c >>= 32;
    }
}

FE_CALL void cy_p256_mul(uint32_t *r, const uint32_t *a, const uint32_t *b)
{
    uint32_t t[16];
    cy_ec_scalar_mul(t, t + 8, a, b, 8);
    p256_reduce(r, t);
}

FE_CALL void cy_p256_sqr(uint32_t *r, const uint32_t *a)
{
    uint32_t t[16];
    cy_ec_scalar_sqr(t, a, 8);
    p256_reduce(r, t);
}

FE_CALL void cy_p384_mul(uint32_t *r, const uint32_t *a, const uint32_t *b)
{
    uint32_t t[24];
    cy_ec_scalar_mul(t, t + 12, a, b, 12);
    p384_reduce(r, t);
}

FE_CALL void cy_p384_sqr(uint32_t *r, const uint32_t *a)
{
    uint32_t t[24];
    cy_ec_scalar_sqr(t, a, 12);
    p384_reduce(r, t);
}

FE_CALL void cy_p521_mul(uint32_t *r, const uint32_t *a, const uint32_t *b)
{
    uint32_t t[34];
    cy_ec_scalar_mul(t, t + 17, a, b, 17);
    p521_reduce(r, t);
}

FE_CALL void cy_p521_sqr(uint32_t *r, const uint32_t *a)
{
    uint32_t t[34];
    cy_ec_scalar_sqr(t, a, 17);
    p521_reduce(r, t);
}

/* ecScalarAdd, ecScalarSub (returning the carry or the borrow) and ecScalarSelect (r = c ? b : a
 * by masks), the word loops of the field additions (ecc/ec_misc.c:651, :707, :576). */
static uint32_t cy_ec_add(uint32_t *r, const uint32_t *a, const uint32_t *b, uint32_t n)
{
    uint64_t temp = 0;
    for (uint32_t i = 0; i < n; i++) {
        temp += a[i];
        temp += b[i];
        r[i] = (uint32_t)temp;
        temp >>= 32;
    }
    return (uint32_t)temp & 1u;
}

static uint32_t cy_ec_sub(uint32_t *r, const uint32_t *a, const uint32_t *b, uint32_t n)
{
    int64_t temp = 0;
    for (uint32_t i = 0; i < n; i++) {
        temp += a[i];
        temp -= b[i];
        r[i] = (uint32_t)temp;
        temp >>= 32;
    }
    return (uint32_t)temp & 1u;
}

static void cy_ec_select(uint32_t *r, const uint32_t *a, const uint32_t *b, uint32_t c, uint32_t n)
{
    const uint32_t mask = c - 1u;
    for (uint32_t i = 0; i < n; i++) {
        r[i] = (a[i] & mask) | (b[i] & ~mask);
    }
}

#define CY_EC_MAX_WORDS 18

/* ecFieldAddMod (:1235): u = a + b over n words and its carry word, v = u - p over n + 1 words
 * (p has a zero word above its n, as the library's curve->p array has), r = v unless that borrowed. */
static void cy_ec_field_add(uint32_t *r, const uint32_t *a, const uint32_t *b, const uint32_t *p, uint32_t n)
{
    uint32_t u[CY_EC_MAX_WORDS + 1], v[CY_EC_MAX_WORDS + 1];
    u[n] = cy_ec_add(u, a, b, n);
    const uint32_t c = cy_ec_sub(v, u, p, n + 1);
    cy_ec_select(r, v, u, c, n);
}

/* ecFieldSubMod (:1261): r = a - b, u = r + p, r = u when the subtraction borrowed. */
static void cy_ec_field_sub(uint32_t *r, const uint32_t *a, const uint32_t *b, const uint32_t *p, uint32_t n)
{
    uint32_t u[CY_EC_MAX_WORDS];
    const uint32_t c = cy_ec_sub(r, a, b, n);
    cy_ec_add(u, r, p, n);
    cy_ec_select(r, r, u, c, n);
}

/* The field additions at any field length, the modulus from the context (the loops do not depend on it). */
FE_CALL void cy_ec_add_mod(const bn_mont_ctx *ctx, uint32_t *r, const uint32_t *a, const uint32_t *b)
{
    const uint32_t n = ctx->limbs;
    uint32_t p[CY_EC_MAX_WORDS + 1];
    for (uint32_t i = 0; i < n; i++) {
        p[i] = ctx->n[i];
    }
    p[n] = 0;
    cy_ec_field_add(r, a, b, p, n);
}

FE_CALL void cy_ec_sub_mod(const bn_mont_ctx *ctx, uint32_t *r, const uint32_t *a, const uint32_t *b)
{
    cy_ec_field_sub(r, a, b, ctx->n, ctx->limbs);
}

#ifdef FE_SM2_OWN
/* SM2 (GB/T 32918.5) in the library's generic shape: the curve record (c29/ec_sm2_curve.c, a unit of its own
 * as ec_curves.c is, so that no length or reduction is known here) gives the length and the reduction,
 * sm2FieldMod (ec_curves.c:5702: fe.h's sm2_reduce, reached through the record's function pointer). */
#include "c29/ec_sm2.h"

FE_CALL void cy_sm2_field_mod(const ec_curve *curve, uint32_t *r, const uint32_t *a)
{
    (void)curve;
    sm2_reduce(r, a);
}

static uint32_t cy_ec_words(const ec_curve *curve)
{
    return (curve->field_bits + 31) / 32;
}

FE_CALL void fe_sm2_mul(uint32_t *r, const uint32_t *a, const uint32_t *b)
{
    const ec_curve *curve = ec_sm2_curve();
    uint32_t u[2 * EC_MAX_WORDS];
    const uint32_t n = cy_ec_words(curve);
    cy_ec_scalar_mul(u, u + n, a, b, n);
    curve->field_mod(curve, r, u);
}

FE_CALL void fe_sm2_sqr(uint32_t *r, const uint32_t *a)
{
    const ec_curve *curve = ec_sm2_curve();
    uint32_t u[2 * EC_MAX_WORDS];
    cy_ec_scalar_sqr(u, a, cy_ec_words(curve));
    curve->field_mod(curve, r, u);
}

FE_CALL void fe_sm2_add(uint32_t *r, const uint32_t *a, const uint32_t *b)
{
    const ec_curve *curve = ec_sm2_curve();
    cy_ec_field_add(r, a, b, curve->p, cy_ec_words(curve));
}

FE_CALL void fe_sm2_sub(uint32_t *r, const uint32_t *a, const uint32_t *b)
{
    const ec_curve *curve = ec_sm2_curve();
    cy_ec_field_sub(r, a, b, curve->p, cy_ec_words(curve));
}
#endif

/* Barrett reduction in the shape of brainpoolP256r1FieldMod (ecc/ec_curves.c:5126; the P-384 and
 * P-512 brainpool curves alike, :5382): for a modulus p of k words and mu = floor(b^(2k) / p)
 * (k + 1 words, the curve's pmu), the quotient estimate u = high half of (a / b^(k-1)) mu over
 * k + 1 words, v = low half of u p, u = a - v over k + 1 words, then two masked subtractions of p
 * (HAC 14.42). */
typedef struct {
    uint32_t limbs;
    uint32_t p[CY_EC_MAX_WORDS + 1];    /* the modulus, a zero word above it */
    uint32_t mu[CY_EC_MAX_WORDS + 1];
} cy_barrett_ctx;

/* The context (not timed): the modulus and mu by bit-serial long division of b^(2k) by p. */
void cy_barrett_setup(cy_barrett_ctx *ctx, const uint32_t *n, uint32_t limbs)
{
    uint32_t k = limbs > CY_EC_MAX_WORDS ? CY_EC_MAX_WORDS : limbs;
    uint32_t rem[CY_EC_MAX_WORDS + 2], d[CY_EC_MAX_WORDS + 2], i;
    ctx->limbs = k;
    for (i = 0; i < CY_EC_MAX_WORDS + 1; i++) {
        ctx->p[i] = i < k ? n[i] : 0;
        ctx->mu[i] = 0;
    }
    for (i = 0; i < k + 2; i++) {
        rem[i] = 0;
        d[i] = i < k ? n[i] : 0;
    }
    for (int bit = (int)(64 * k); bit >= 0; bit--) {
        uint32_t carry = bit == (int)(64 * k) ? 1u : 0u;
        for (i = 0; i < k + 2; i++) {       /* rem = 2 rem + the dividend's bit */
            const uint32_t top = rem[i] >> 31;
            rem[i] = (rem[i] << 1) | carry;
            carry = top;
        }
        uint32_t ge = 1;                    /* rem >= p ? */
        for (i = k + 2; i-- > 0;) {
            if (rem[i] != d[i]) {
                ge = rem[i] > d[i];
                break;
            }
        }
        if (ge) {
            cy_ec_sub(rem, rem, d, k + 2);
            if ((uint32_t)bit / 32 < k + 1) {
                ctx->mu[bit / 32] |= 1u << (bit % 32);
            }
        }
    }
}

static void cy_barrett_reduce(const cy_barrett_ctx *ctx, uint32_t *r, const uint32_t *a)
{
    const uint32_t k = ctx->limbs;
    uint32_t u[CY_EC_MAX_WORDS + 1], v[CY_EC_MAX_WORDS + 1];
    cy_ec_scalar_mul(0, u, a + k - 1, ctx->mu, k + 1);
    cy_ec_scalar_mul(v, 0, u, ctx->p, k + 1);
    cy_ec_sub(u, a, v, k + 1);
    uint32_t c = cy_ec_sub(v, u, ctx->p, k + 1);
    cy_ec_select(u, v, u, c, k + 1);
    c = cy_ec_sub(v, u, ctx->p, k + 1);
    cy_ec_select(r, v, u, c, k);
}

/* ecFieldMulMod / ecFieldSqrMod on a brainpool curve: the product, then the Barrett reduction. */
FE_CALL void cy_barrett_mul(const cy_barrett_ctx *ctx, uint32_t *r, const uint32_t *a, const uint32_t *b)
{
    uint32_t t[2 * CY_EC_MAX_WORDS];
    cy_ec_scalar_mul(t, t + ctx->limbs, a, b, ctx->limbs);
    cy_barrett_reduce(ctx, r, t);
}

FE_CALL void cy_barrett_sqr(const cy_barrett_ctx *ctx, uint32_t *r, const uint32_t *a)
{
    uint32_t t[2 * CY_EC_MAX_WORDS];
    cy_ec_scalar_sqr(t, a, ctx->limbs);
    cy_barrett_reduce(ctx, r, t);
}

#endif
