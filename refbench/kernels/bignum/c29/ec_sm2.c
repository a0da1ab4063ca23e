/* GF(p) of SM2 (p = 2^256 - 2^224 - 2^96 + 2^64 - 1) in the shape of CycloneCRYPTO's generic elliptic-
 * curve field code (Oryx-Embedded/CycloneCRYPTO 62f78fe0a15ea50b4c838970ef7d88d285cc8af3, "@version
 * 2.5.0", ecc/ec_misc.c): every operation reads the operand length from the curve at run time,
 * pLen = (fieldSize + 31) / 32 (ecFieldMulMod :1286-1300), so no loop has a length the compiler knows;
 *   - a product (ecScalarMul :766-826) scans the 2 pLen columns of the double-length product (Comba's
 *     method), each word product added into a 64-bit accumulator whose high half is moved to a second
 *     64-bit carry accumulator after every product, the column's low word stored at its bottom;
 *   - a square (ecScalarSqr :832-875) scans the same columns, each cross product computed once and
 *     added twice, each addition followed by the same carry move;
 *   - then the curve's reduction through the curve's function pointer (curve->fieldMod, sm2FieldMod of
 *     ec_curves.c: ec_sm2_curve.c here, a unit of its own, as the library compiles it);
 *   - an addition (ecFieldAddMod :1235-1253) is a carry pass over pLen words, a borrow pass subtracting
 *     p over pLen + 1 words, and a masked select of pLen words (ecScalarAdd, ecScalarSub,
 *     ecScalarSelect); a subtraction (ecFieldSubMod :1261-1278) a borrow pass, a carry pass adding p and
 *     the select.
 * The code is refbench's own, in that shape. Inputs and results are canonical 8-word elements (the
 * library's representation: fe.h's contracts). Constant time: no branch or index depends on the data.
 *
 * Defines FE_SM2_OWN's functions (fe.h: "the variant supplies these").
 */
#include "kernel.h"
#include "ec_sm2.h"

/* rl, rh = the low and high pLen words of a b (ecScalarMul's shape) */
static __attribute__((noinline)) void ec_scalar_mul(uint32_t *rl, uint32_t *rh, const uint32_t *a, const uint32_t *b,
                                                    uint32_t n)
{
    uint64_t acc = 0, carry = 0;
    for (uint32_t col = 0; col < 2 * n - 1; col++) {
        const uint32_t lo = col < n ? 0 : col + 1 - n;
        const uint32_t hi = col < n ? col : n - 1;
        for (uint32_t j = lo; j <= hi; j++) {
            acc += (uint64_t)a[j] * b[col - j];
            carry += acc >> 32;
            acc &= 0xffffffffu;
        }
        if (col < n) {
            rl[col] = (uint32_t)acc;
        } else {
            rh[col - n] = (uint32_t)acc;
        }
        acc = carry & 0xffffffffu;
        carry >>= 32;
    }
    rh[n - 1] = (uint32_t)acc;
}

/* r = a^2 over 2 pLen words (ecScalarSqr's shape: each cross product once, added twice) */
static __attribute__((noinline)) void ec_scalar_sqr(uint32_t *r, const uint32_t *a, uint32_t n)
{
    uint64_t acc = 0, carry = 0;
    for (uint32_t col = 0; col < 2 * n; col++) {
        for (uint32_t j = col < n ? 0 : col + 1 - n; j <= col && j <= col - j; j++) {
            const uint64_t p = (uint64_t)a[j] * a[col - j];
            acc += p;
            carry += acc >> 32;
            acc &= 0xffffffffu;
            if (j < col - j) {
                acc += p;
                carry += acc >> 32;
                acc &= 0xffffffffu;
            }
        }
        r[col] = (uint32_t)acc;
        acc = carry & 0xffffffffu;
        carry >>= 32;
    }
}

static uint32_t words(const ec_curve *curve)
{
    return (curve->field_bits + 31) / 32;
}

/* r = a + b over n words; returns the carry */
static __attribute__((noinline)) uint32_t ec_scalar_add(uint32_t *r, const uint32_t *a, const uint32_t *b, uint32_t n)
{
    uint64_t t = 0;
    for (uint32_t i = 0; i < n; i++) {
        t += a[i];
        t += b[i];
        r[i] = (uint32_t)t;
        t >>= 32;
    }
    return (uint32_t)t & 1;
}

/* r = a - b over n words; returns 1 when negative */
static __attribute__((noinline)) uint32_t ec_scalar_sub(uint32_t *r, const uint32_t *a, const uint32_t *b, uint32_t n)
{
    int64_t t = 0;
    for (uint32_t i = 0; i < n; i++) {
        t += a[i];
        t -= b[i];
        r[i] = (uint32_t)t;
        t >>= 32;
    }
    return (uint32_t)t & 1;
}

/* r = c ? b : a, word by word with a mask (c is 0 or 1) */
static __attribute__((noinline)) void ec_scalar_select(uint32_t *r, const uint32_t *a, const uint32_t *b, uint32_t c,
                                                       uint32_t n)
{
    const uint32_t mask = c - 1;
    for (uint32_t i = 0; i < n; i++) {
        r[i] = (a[i] & mask) | (b[i] & ~mask);
    }
}

/* r = r mod p for r < 2p (the reduction's last step, ecFieldCanonicalize's shape) */
void ec_field_canonicalize(const ec_curve *curve, uint32_t *r, const uint32_t *a)
{
    uint32_t b[EC_MAX_WORDS];
    const uint32_t n = words(curve);
    const uint32_t c = ec_scalar_sub(b, a, curve->p, n);
    ec_scalar_select(r, b, a, c, n);
}

__attribute__((noinline)) void fe_sm2_mul(uint32_t *r, const uint32_t *a, const uint32_t *b)
{
    const ec_curve *curve = ec_sm2_curve();
    uint32_t u[2 * EC_MAX_WORDS];
    const uint32_t n = words(curve);
    ec_scalar_mul(u, u + n, a, b, n);
    curve->field_mod(curve, r, u);
}

__attribute__((noinline)) void fe_sm2_sqr(uint32_t *r, const uint32_t *a)
{
    const ec_curve *curve = ec_sm2_curve();
    uint32_t u[2 * EC_MAX_WORDS];
    ec_scalar_sqr(u, a, words(curve));
    curve->field_mod(curve, r, u);
}

__attribute__((noinline)) void fe_sm2_add(uint32_t *r, const uint32_t *a, const uint32_t *b)
{
    const ec_curve *curve = ec_sm2_curve();
    uint32_t u[EC_MAX_WORDS + 1], v[EC_MAX_WORDS + 1];
    const uint32_t n = words(curve);
    u[n] = ec_scalar_add(u, a, b, n);
    const uint32_t c = ec_scalar_sub(v, u, curve->p, n + 1);
    ec_scalar_select(r, v, u, c, n);
}

__attribute__((noinline)) void fe_sm2_sub(uint32_t *r, const uint32_t *a, const uint32_t *b)
{
    const ec_curve *curve = ec_sm2_curve();
    uint32_t u[EC_MAX_WORDS];
    const uint32_t n = words(curve);
    const uint32_t c = ec_scalar_sub(r, a, b, n);
    ec_scalar_add(u, r, curve->p, n);
    ec_scalar_select(r, r, u, c, n);
}
