/* GF(2^448 - 2^224 - 1) in the shape of CycloneCRYPTO's own field code (Oryx-Embedded/CycloneCRYPTO
 * 13471b478f713eb324c64e1ea8756bc50760ed1a, ecc/curve448.c and curve448.h, "@version 2.5.4"): an
 * element is 16 signed 32-bit limbs of 28 bits, value sum l[i] 2^(28 i), kept partly reduced; with
 * t = 2^224 (8 limbs) and t^2 = t + 1 (mod p) a product A B = (A0 + A1 t)(B0 + B1 t) is one level
 * of Karatsuba fused with the reduction: U = A0 B0, V = A1 B1 and W = (A0 + A1)(B0 + B1), each an
 * 8 x 8-limb product of 64 signed 32x32->64 products summed column by column into one 64-bit
 * accumulator (the library's curve448Mul224: 16 limbs of 28 bits, the carry out of limb 15 folded
 * into limbs 0 and 8 by 2^448 = 2^224 + 1), then
 *     A B = (U0 + V0 + W1 - U1) + (V1 + W0 + W1 - U0) t     (X = X0 + X1 t, 8 limbs each)
 * in one signed carry pass whose carry out folds into limbs 0 and 8 with one more carry each.
 * 192 products in all; squaring is a call of the multiplication with the operand twice
 * (curve448Sqr calls curve448Mul); additions and subtractions are one carry pass with the carry
 * out folded into limbs 0 and 8. Loops are fully unrolled, as curve448.h's default
 * CURVE448_SPEED_OPTIMIZATION_LEVEL 2 writes them out.
 *
 * Every operation takes and returns elements in these limbs, as the library's do between its
 * import and export (the variant's manifest `limbs`: the harness converts canonical operands to
 * limbs before a call and the result back after it, outside the measured call).
 *
 * Defines FE448_OWN's functions (fe.h: "the variant supplies these"), written in C.
 * Constant time: no branch or index depends on the operands.
 */
#include "kernel.h"

typedef signed int s32;
typedef signed long long s64;

#define M28 0x0fffffff

/* r = a b for 8-limb a, b: 64 products in 15 columns, 16 limbs of 28 bits, the carry out of limb
 * 15 folded into limbs 0 and 8 (the library's curve448Mul224, a function of its own called three
 * times per multiplication: not inlined here either). */
static __attribute__((noinline)) void mul224(s32 r[16], const s32 a[8], const s32 b[8])
{
    s64 acc = 0;
#pragma GCC unroll 15
    for (int k = 0; k < 15; k++) {
#pragma GCC unroll 8
        for (int i = (k < 8 ? 0 : k - 7); i <= (k < 8 ? k : 7); i++) {
            acc += (s64)a[i] * b[k - i];
        }
        r[k] = (s32)acc & M28;
        acc >>= 28;
    }
    r[15] = (s32)acc & M28;
    acc >>= 28;
    r[0] += (s32)acc;
    r[8] += (s32)acc;
}

/* r = a b mod p, partly reduced: one Karatsuba level fused with the reduction (see above). */
void fe448_mul(s32 *r, const s32 *a, const s32 *b)
{
    s32 sa[8], sb[8], u[16], v[16], w[16];
#pragma GCC unroll 8
    for (int i = 0; i < 8; i++) {
        sa[i] = a[i] + a[i + 8];
        sb[i] = b[i] + b[i + 8];
    }
    mul224(w, sa, sb);
    mul224(u, a, b);
    mul224(v, a + 8, b + 8);
    s32 c = 0;
#pragma GCC unroll 8
    for (int i = 0; i < 8; i++) {
        c += u[i] + v[i] + w[i + 8] - u[i + 8];
        r[i] = c & M28;
        c >>= 28;
    }
#pragma GCC unroll 8
    for (int i = 0; i < 8; i++) {
        c += v[i + 8] + w[i] + w[i + 8] - u[i];
        r[i + 8] = c & M28;
        c >>= 28;
    }
    s32 x = r[0] + c;
    r[0] = x & M28;
    r[1] += x >> 28;
    x = r[8] + c;
    r[8] = x & M28;
    r[9] += x >> 28;
}

/* r = a + k b mod p for k = +1 or -1 in one signed carry pass (the library's curve448Add/Sub). */
static inline __attribute__((always_inline)) void addsub28(s32 r[16], const s32 a[16], const s32 b[16], s32 k)
{
    s32 c = 0;
#pragma GCC unroll 16
    for (int i = 0; i < 16; i++) {
        c += a[i] + k * b[i];
        r[i] = c & M28;
        c >>= 28;
    }
    r[0] += c;
    r[8] += c;
}

void fe448_sqr(s32 *r, const s32 *a)
{
    fe448_mul(r, a, a);
}

void fe448_add(s32 *r, const s32 *a, const s32 *b)
{
    addsub28(r, a, b, 1);
}

/* For a < b the signed pass leaves a carry of -1, folded as -(2^224 + 1): a - b + p. */
void fe448_sub(s32 *r, const s32 *a, const s32 *b)
{
    addsub28(r, a, b, -1);
}

/* r = 39081 a mod p (X448's a24, RFC 7748 §5): one row of 16 signed 32x32->64 products into a 64-bit
 * accumulator, 28 bits kept per limb, the carry out of limb 15 folded into limbs 0 and 8 by
 * 2^448 = 2^224 + 1 (the library's curve448MulInt, ecc/curve448.c at 2.5.0 (62f78fe0a15e) :671-688,
 * which x448.c's ladder calls with CURVE448_A24 = 39082 for its (A + 2) / 4 form of the step: the same
 * work for any one-word constant below 2^28). */
void fe448_mul_const(s32 *r, const s32 *a)
{
    s64 acc = 0;
#pragma GCC unroll 16
    for (int i = 0; i < 16; i++) {
        acc += (s64)a[i] * 39081;
        r[i] = (s32)acc & M28;
        acc >>= 28;
    }
    r[0] += (s32)acc;
    r[8] += (s32)acc;
}
