/* P-256 field multiplication and squaring in Montgomery form, r = a b R^-1 mod p with R = 2^256
 * (HAC 14.36; the form of wolfSSL's SP code, sp_256_mont_mul_8, and of the fast Cortex-M4
 * P-256 code): canonical operands and result, in [0, p). p = -1 mod 2^32, so the REDC quotient
 * digit is the low word itself (n0 = -p^-1 mod 2^32 = 1).
 * The C versions: the 512-bit product of limbs.h, then word-by-word REDC (HAC 14.32) with the
 * variant's multiply-accumulate; the umaal_asm variant supplies both in assembly
 * (umaal_asm/p256.S: REDC by shifts and additions, squaring by its symmetry), and the m0_asm variant
 * these two only (P256_MONT_MUL_ASM: m0_asm/p256_mont.S, wolfSSL SP Thumb small's shape).
 */
#ifndef REFBENCH_BIGNUM_P256_MONT_H
#define REFBENCH_BIGNUM_P256_MONT_H

#include "fe.h"

#if defined(P256_MONT_ASM) || defined(P256_MONT_MUL_ASM)
FE_CALL void p256_mont_mul(uint32_t *r, const uint32_t *a, const uint32_t *b);
FE_CALL void p256_mont_sqr(uint32_t *r, const uint32_t *a);
#else
/* r = t R^-1 mod p for t < p R (16 words) */
static void p256_mont_reduce(uint32_t r[8], uint32_t t[16])
{
    uint32_t top = 0;
    for (uint32_t i = 0; i < 8; i++) {
        const uint32_t q = t[i];
        uint32_t c = 0;
        for (uint32_t j = 0; j < 8; j++) {
            MAC(c, t[i + j], q, P256_P[j], t[i + j], c);
        }
        const uint32_t w = t[i + 8];
        const uint32_t s = w + c;
        const uint32_t c1 = ct_carry(w, c, s);
        t[i + 8] = s + top;
        top = c1 + ct_carry(s, top, s + top);
    }
    sub_if_ge(r, t + 8, top, P256_P, 8);
}

FE_CALL void p256_mont_mul(uint32_t *r, const uint32_t *a, const uint32_t *b)
{
    uint32_t t[16];
    mul_wide(t, a, b, 8);
    p256_mont_reduce(r, t);
}

FE_CALL void p256_mont_sqr(uint32_t *r, const uint32_t *a)
{
    uint32_t t[16];
    sqr_wide(t, a, 8);
    p256_mont_reduce(r, t);
}
#endif

#endif
