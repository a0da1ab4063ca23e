/* SM2's curve record and field reduction for c29's SM2 field code (ec_sm2.c), in a unit of its own as
 * CycloneCRYPTO's ec_curves.c is (Oryx-Embedded/CycloneCRYPTO 62f78fe0a15ea50b4c838970ef7d88d285cc8af3,
 * 2.5.0: ecc/ec_curves.c:1794-1837 sm2Curve, :5702-5787 sm2FieldMod): the reduction of the 16-word
 * product is one pass of word sums with signed 64-bit carries (each high word c[k], k = 8..15, enters the
 * low words with its coefficients in W^k mod p, W = 2^32; derived from W^8 = W^7 + W^3 - W^2 + 1 mod p,
 * as fe.h's sm2_reduce), two carry passes folding the top word back with the same identity, and
 * ecFieldCanonicalize's masked subtraction of p. The code is refbench's own.
 */
#include "kernel.h"
#include "ec_sm2.h"

/* one carry pass adding c * (W^7 + W^3 - W^2 + 1), i.e. c * 2^256 mod p; returns the carry out of word 7 */
static int64_t fold(uint32_t r[8], int64_t c)
{
    int64_t t = (int64_t)r[0] + c;
    r[0] = (uint32_t)t; t >>= 32;
    t += r[1]; r[1] = (uint32_t)t; t >>= 32;
    t += (int64_t)r[2] - c; r[2] = (uint32_t)t; t >>= 32;
    t += (int64_t)r[3] + c; r[3] = (uint32_t)t; t >>= 32;
    t += r[4]; r[4] = (uint32_t)t; t >>= 32;
    t += r[5]; r[5] = (uint32_t)t; t >>= 32;
    t += r[6]; r[6] = (uint32_t)t; t >>= 32;
    t += (int64_t)r[7] + c; r[7] = (uint32_t)t;
    return t >> 32;
}

static void sm2_field_mod(const ec_curve *curve, uint32_t *r, const uint32_t *a)
{
    int64_t t;
    t = (int64_t)a[0] + a[8] + a[9] + a[10] + a[11] + a[12] + 2 * ((int64_t)a[13] + a[14] + a[15]);
    r[0] = (uint32_t)t; t >>= 32;
    t += (int64_t)a[1] + a[9] + a[10] + a[11] + a[12] + a[13] + 2 * ((int64_t)a[14] + a[15]);
    r[1] = (uint32_t)t; t >>= 32;
    t += (int64_t)a[2] - a[8] - a[9] - a[13] - a[14];
    r[2] = (uint32_t)t; t >>= 32;
    t += (int64_t)a[3] + a[8] + a[11] + a[12] + 2 * (int64_t)a[13] + a[14] + a[15];
    r[3] = (uint32_t)t; t >>= 32;
    t += (int64_t)a[4] + a[9] + a[12] + a[13] + 2 * (int64_t)a[14] + a[15];
    r[4] = (uint32_t)t; t >>= 32;
    t += (int64_t)a[5] + a[10] + a[13] + a[14] + 2 * (int64_t)a[15];
    r[5] = (uint32_t)t; t >>= 32;
    t += (int64_t)a[6] + a[11] + a[14] + a[15];
    r[6] = (uint32_t)t; t >>= 32;
    t += (int64_t)a[7] + a[8] + a[9] + a[10] + a[11] + 2 * ((int64_t)a[12] + a[13] + a[14]) + 3 * (int64_t)a[15];
    r[7] = (uint32_t)t;
    int64_t c = t >> 32;
    /* two passes folding the top word (2^256 = W^7 + W^3 - W^2 + 1 mod p), the second for the
     * first's carry, then r < 2p: one masked subtraction */
    fold(r, fold(r, c));
    ec_field_canonicalize(curve, r, r);
}

static const ec_curve SM2_CURVE = {
    256,
    {0xffffffffu, 0xffffffffu, 0x00000000u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xfffffffeu, 0},
    sm2_field_mod,
};

const ec_curve *ec_sm2_curve(void)
{
    return &SM2_CURVE;
}
