/* CycloneCRYPTO's NIST-curve field multiplication and squaring in its own shape (refbench's code,
 * written from a reading of Oryx-Embedded/CycloneCRYPTO 62f78fe0a15ea50b4c838970ef7d88d285cc8af3,
 * "Version 2.5.0"): ecFieldMulMod and ecFieldSqrMod (ecc/ec_misc.c:1286, :1308) are the double-length
 * product ecScalarMul or square ecScalarSqr (:766, :832), then the curve's reduction through a
 * function pointer (curve->fieldMod; secp256r1FieldMod, ecc/ec_curves.c:3934: the FIPS 186-4 D.2.3
 * word sums with a signed 64-bit accumulator and folding passes, the shape of fe.h's p256_reduce;
 * secp384r1FieldMod and secp521r1FieldMod likewise: fe.h's p384_reduce, p521_reduce).
 *
 * Both products are Comba's column by column over two 64-bit accumulators: per word product
 * temp += a[j] b[i - j]; c += temp >> 32; temp &= 0xFFFFFFFF, and at the bottom of each column the
 * low word written and (temp, c) shifted down by a word; the square computes each cross product
 * once and adds it twice, with the same carry handling after each addition.
 */
#ifndef REFBENCH_BIGNUM_EC_CYCLONE_H
#define REFBENCH_BIGNUM_EC_CYCLONE_H

/* ecScalarMul with both halves: r[0..2n) = a b. */
static void cy_ec_scalar_mul(uint32_t *r, const uint32_t *a, const uint32_t *b, uint32_t n)
{
    uint64_t temp = 0, c = 0;
    uint32_t i, j;
    for (i = 0; i < n; i++) {
        for (j = 0; j <= i; j++) {
            temp += (uint64_t)a[j] * b[i - j];
            c += temp >> 32;
            temp &= 0xFFFFFFFFu;
        }
        r[i] = (uint32_t)temp;
        temp = c & 0xFFFFFFFFu;
        c >>= 32;
    }
    for (i = n; i < 2 * n; i++) {
        for (j = i + 1 - n; j < n; j++) {
            temp += (uint64_t)a[j] * b[i - j];
            c += temp >> 32;
            temp &= 0xFFFFFFFFu;
        }
        r[i] = (uint32_t)temp;
        temp = c & 0xFFFFFFFFu;
        c >>= 32;
    }
}

/* ecScalarSqr: r[0..2n) = a^2. */
static void cy_ec_scalar_sqr(uint32_t *r, const uint32_t *a, uint32_t n)
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
    cy_ec_scalar_mul(t, a, b, 8);
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
    cy_ec_scalar_mul(t, a, b, 12);
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
    cy_ec_scalar_mul(t, a, b, 17);
    p521_reduce(r, t);
}

FE_CALL void cy_p521_sqr(uint32_t *r, const uint32_t *a)
{
    uint32_t t[34];
    cy_ec_scalar_sqr(t, a, 17);
    p521_reduce(r, t);
}

#endif
