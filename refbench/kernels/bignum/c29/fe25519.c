/* GF(2^255 - 19) in the shape of CycloneCRYPTO's own field code (cyclone_crypto/ecc/curve25519.c,
 * 2.5.x): an element is 9 signed 32-bit limbs of 29 bits (the ninth holding 23), value
 * sum l[i] 2^(29 i); a product is 81 signed 32x32->64 products summed column by column (product
 * scanning) into one 64-bit accumulator, each column's low 29 bits kept and the rest carried; the
 * 18-limb product is folded once with 2^261 = 2^6 2^255 = 64 * 19 = 1216 (mod p) and the bits from
 * 2^255 up once more with 19, leaving the result partly reduced (below 2^255 plus a few bits, not
 * canonical); squaring is the same multiplication of the operand by itself (curve25519Sqr calls
 * curve25519Mul in 2.5.x); additions and subtractions are one carry pass with the top folded by 19;
 * the multiplication by a one-word constant is one row of nine products folded the same way. Loops
 * are fully unrolled, as the library's CURVE25519_SPEED_OPTIMIZATION_LEVEL >= 1 writes them out.
 *
 * The bignum family's contract is canonical 8-word operands and results (fe.h), so every call here
 * converts its operands into limbs and its result back, canonical: work CycloneCRYPTO does once per
 * scalar multiplication (curve25519.c import/export), not per call. That conversion is measured with
 * every call, so this variant's cycles are an upper estimate of the library's own by that much
 * (25519-add on this variant is mostly conversion: two unpacks, a carry pass and one pack).
 *
 * Defines FE25519_ASM's functions (fe.h, x25519.h: "the variant supplies these"), written in C.
 * Constant time: no branch or index depends on the operands.
 */
#include "kernel.h"

typedef signed int s32;
typedef signed long long s64;

#define M29 0x1fffffff
#define M23 0x007fffff

/* 8 words (value below 2^256) -> 9 limbs of 29 bits (the ninth holds the top 24 bits). */
static inline __attribute__((always_inline)) void unpack29(s32 l[9], const uint32_t w[8])
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

/* Signed limbs of a non-negative value below 2^262 -> the canonical residue in 8 words: two carry
 * passes, each folding the bits from 2^255 up with 19 (the second leaves a value below 2^255), then
 * the final subtraction of p exactly when value + 19 reaches 2^255, by masks. */
static void pack29(uint32_t w[8], const s32 l[9])
{
    s32 t[9];
    s32 c = 0;
#pragma GCC unroll 9
    for (int i = 0; i < 8; i++) {
        c += l[i];
        t[i] = c & M29;
        c >>= 29;
    }
    c += l[8];
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
static void mul29(s32 r[9], const s32 a[9], const s32 b[9])
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

void fe25519_mul(uint32_t *r, const uint32_t *a, const uint32_t *b)
{
    s32 x[9], y[9], z[9];
    unpack29(x, a);
    unpack29(y, b);
    mul29(z, x, y);
    pack29(r, z);
}

void fe25519_sqr(uint32_t *r, const uint32_t *a)
{
    s32 x[9], z[9];
    unpack29(x, a);
    mul29(z, x, x);
    pack29(r, z);
}

void fe25519_add(uint32_t *r, const uint32_t *a, const uint32_t *b)
{
    s32 x[9], y[9], z[9];
    unpack29(x, a);
    unpack29(y, b);
    addsub29(z, x, y, 1);
    pack29(r, z);
}

/* a - b + p would need a non-negative result for pack29: the signed pass gives a - b + 2^255 - 19
 * when a < b (the negative top carry folds as -19), a - b otherwise. */
void fe25519_sub(uint32_t *r, const uint32_t *a, const uint32_t *b)
{
    s32 x[9], y[9], z[9];
    unpack29(x, a);
    unpack29(y, b);
    addsub29(z, x, y, -1);
    pack29(r, z);
}

/* r = 121665 a mod p: one row of nine products (the library's curve25519MulInt). */
void fe25519_mul_a24(uint32_t *r, const uint32_t *a)
{
    s32 x[9], z[9];
    s64 acc = 0;
    unpack29(x, a);
#pragma GCC unroll 8
    for (int i = 0; i < 8; i++) {
        acc += (s64)x[i] * 121665;
        z[i] = (s32)acc & M29;
        acc >>= 29;
    }
    acc += (s64)x[8] * 121665;
    z[8] = (s32)acc & M23;
    acc >>= 23;
    acc = acc * 19 + z[0];
    z[0] = (s32)acc & M29;
    z[1] += (s32)(acc >> 29);
    pack29(r, z);
}

/* Swap a and b when swap is 1, by masks (the library's curve25519Swap, on the 8 words here). */
void fe25519_cswap(uint32_t *a, uint32_t *b, uint32_t swap)
{
    const uint32_t mask = 0u - swap;
#pragma GCC unroll 8
    for (int i = 0; i < 8; i++) {
        const uint32_t t = (a[i] ^ b[i]) & mask;
        a[i] ^= t;
        b[i] ^= t;
    }
}
