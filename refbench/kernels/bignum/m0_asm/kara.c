/* The m0 variant (m0/bignum.c, included: one translation unit) with Montgomery multiplication and
 * squaring in the shape of wolfSSL's SP ARMv6-M Thumb code without WOLFSSL_SP_SMALL
 * (wolfcrypt/src/sp_armthumb.c; for 2048-bit RSA sp_2048_mont_mul_32 = sp_2048_mul_32 then
 * sp_2048_mont_reduce_32): the double-length product by Karatsuba in C down to the straight-line
 * 8-word product or square in assembly (kara.S), then the word-by-word reduction (kara.S). The
 * Karatsuba layer is the additive form of sp_2048_mul_64 (MarkAtwood/wolfssl-lineage
 * 03e44abd8dc619c9163d963f12cd5176f6e3a556, the same template at 16 and 32 words): z0 = a0 b0,
 * z2 = a1 b1, z1 = (a0 + a1)(b0 + b1) over the half-length sums with their carries ca, cb folded back
 * by masked additions ("sp_2048_mask_32(a1, a1, 0 - cb)"), z1 - z0 - z2 added at the middle and the
 * count u of the carries and borrows added at the top ("a1[0] = u"). The square takes one sum:
 * (a0 + a1)^2 with its carry c is the square of the sum plus 2 c (the sum) at the middle plus c at the
 * top: the additive form of wolfSSL's older sp_2048_sqr_16 ("u = sp_2048_add_8(a1, a, &a[8])",
 * "sp_2048_mask_8(r + 16, a1, 0 - u)"; later generations square |a0 - a1| instead, the same three half
 * squares and a few more vector passes; which one the 2023 sp_armthumb.c has was not read). Operand
 * lengths other than 8 2^k words (k = 1..4) go to mont.S's loops (kara.S). */
#include "m0/bignum.c"

void kara_mul_8(uint32_t r[16], const uint32_t a[8], const uint32_t b[8]);
void kara_sqr_8(uint32_t r[16], const uint32_t a[8]);
uint32_t kara_add(uint32_t *r, const uint32_t *a, const uint32_t *b, uint32_t n);
uint32_t kara_sub(uint32_t *r, const uint32_t *a, const uint32_t *b, uint32_t n);
void kara_mont_reduce(const bn_mont_ctx *ctx, uint32_t *r, uint32_t *t);
void bn_mont_mul_scan(const bn_mont_ctx *ctx, uint32_t *r, const uint32_t *a, const uint32_t *b);
void bn_mont_sqr_scan(const bn_mont_ctx *ctx, uint32_t *r, const uint32_t *a);

/* r = a & mask over n words; the mask (0 or all ones, from a carry) hidden from the optimiser */
static void kara_mask(uint32_t *r, const uint32_t *a, uint32_t mask, uint32_t n)
{
    mask = ct_opaque(mask);
    for (uint32_t i = 0; i < n; i++) {
        r[i] = a[i] & mask;
    }
}

/* r[n + h .. 2 n) += u (u below 2^32, the whole product fits in 2 n words), h = n / 2 */
static void kara_add_top(uint32_t *r, uint32_t u, uint32_t n)
{
    uint32_t w[BN_MAX_LIMBS / 2];
    const uint32_t h = n / 2;
    w[0] = u;
    for (uint32_t i = 1; i < h; i++) {
        w[i] = 0;
    }
    (void)kara_add(r + n + h, r + n + h, w, h);
}

/* r (2 n words) = a b, n = 8 2^k words */
static void kara_mul(uint32_t *r, const uint32_t *a, const uint32_t *b, uint32_t n)
{
    if (n == 8) {
        kara_mul_8(r, a, b);
        return;
    }
    const uint32_t h = n / 2;
    uint32_t z1[BN_MAX_LIMBS], a1[BN_MAX_LIMBS / 2], b1[BN_MAX_LIMBS / 2];
    const uint32_t ca = kara_add(a1, a, a + h, h);
    const uint32_t cb = kara_add(b1, b, b + h, h);
    uint32_t u = ca & cb;
    kara_mul(r + n, a + h, b + h, h);
    kara_mul(r, a, b, h);
    kara_mul(z1, a1, b1, h);
    u += kara_sub(z1, z1, r, n);
    u += kara_sub(z1, z1, r + n, n);
    kara_mask(a1, a1, 0u - cb, h);
    u += kara_add(z1 + h, z1 + h, a1, h);
    kara_mask(b1, b1, 0u - ca, h);
    u += kara_add(z1 + h, z1 + h, b1, h);
    u += kara_add(r + h, r + h, z1, n);
    kara_add_top(r, u, n);
}

/* r (2 n words) = a^2, n = 8 2^k words */
static void kara_sqr(uint32_t *r, const uint32_t *a, uint32_t n)
{
    if (n == 8) {
        kara_sqr_8(r, a);
        return;
    }
    const uint32_t h = n / 2;
    uint32_t z1[BN_MAX_LIMBS], a1[BN_MAX_LIMBS / 2];
    const uint32_t c = kara_add(a1, a, a + h, h);
    uint32_t u = c;
    kara_sqr(r + n, a + h, h);
    kara_sqr(r, a, h);
    kara_sqr(z1, a1, h);
    u += kara_sub(z1, z1, r, n);
    u += kara_sub(z1, z1, r + n, n);
    kara_mask(a1, a1, 0u - c, h);
    u += kara_add(z1 + h, z1 + h, a1, h);
    u += kara_add(z1 + h, z1 + h, a1, h);
    u += kara_add(r + h, r + h, z1, n);
    kara_add_top(r, u, n);
}

/* the lengths of the Karatsuba path: 16, 32, 64, 128 words (public: the modulus' length) */
static int kara_length(uint32_t limbs)
{
    return limbs == 16 || limbs == 32 || limbs == 64 || limbs == 128;
}

void bn_mont_mul(const bn_mont_ctx *ctx, uint32_t *r, const uint32_t *a, const uint32_t *b)
{
    if (!kara_length(ctx->limbs)) {
        bn_mont_mul_scan(ctx, r, a, b);
        return;
    }
    uint32_t t[2 * BN_MAX_LIMBS];
    kara_mul(t, a, b, ctx->limbs);
    kara_mont_reduce(ctx, r, t);
}

void bn_mont_sqr(const bn_mont_ctx *ctx, uint32_t *r, const uint32_t *a)
{
    if (!kara_length(ctx->limbs)) {
        bn_mont_sqr_scan(ctx, r, a);
        return;
    }
    uint32_t t[2 * BN_MAX_LIMBS];
    kara_sqr(t, a, ctx->limbs);
    kara_mont_reduce(ctx, r, t);
}
