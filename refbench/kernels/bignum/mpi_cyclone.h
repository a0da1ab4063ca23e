/* CycloneCRYPTO's generic multi-precision arithmetic in its own shape (refbench's code, written
 * from a reading of Oryx-Embedded/CycloneCRYPTO 62f78fe0a15ea50b4c838970ef7d88d285cc8af3,
 * "Version 2.5.0", mpi/mpi.c; the same functions at 13471b478f71, 2.5.4, with mpiMulAccCore moved
 * to mpi/mpi_misc.c): the library computes every RSA, DH and DSA exponentiation with these
 * routines, on numbers whose length it finds by scanning for the top non-zero word at every step.
 *
 *   cy_mont_mul  -- mpiMontgomeryMul (mpi.c:2023): -1/p[0] mod 2^32 by four Newton steps at every
 *                   call; T (2k + 1 words) cleared; for each word a[i], q from T[i], a[i] b[0] and
 *                   that inverse, then two calls of mpiMulAccCore (T += a[i] b over b's k words,
 *                   T += q p over k words), each a row of 32x32->64 products with the carry
 *                   detected by comparisons (mpi.c:2127, MPI_ASM_SUPPORT disabled, the default)
 *                   and then propagated word by word; T shifted right by k words (mpiShiftRight
 *                   over T's 2k + 1 words), copied to R (mpiCopy: length scan, copy, clear),
 *                   compared with p (mpiComp: two length scans) and p subtracted when R >= p
 *                   (mpiSub -> mpiCompAbs and mpiSubAbs). Squarings are the same call (R = R R).
 *   cy_mont_red  -- mpiMontgomeryRed (mpi.c:2096): the same call with B the one-word number 1.
 *   cy_mpi_mod   -- mpiMod (mpi.c:1587) of a number of 2k words by a k-word p: bit-serial
 *                   shift-and-subtract (C = p << (bits(A) - bits(p)); while |R| >= p: if |R| >= C
 *                   then R = R - C; C = C >> 1), every comparison scanning both lengths from the top
 *                   of the numbers' allocated words. mpiExpMod calls it for C^2 mod p (C = 2^(32k))
 *                   at every exponentiation, rsadp for c mod p and c mod q, mpiMulMod after every
 *                   mpiMul.
 *
 * A number of the library is (words, size): size the allocated words (mpiGrow never shrinks),
 * its value in words[0..size). Operands: little-endian 32-bit limbs, the modulus of the Montgomery
 * context (mont.h bn_mont_setup, which also gives k). The library's sign handling and memory
 * management (mpiGrow reallocating only when a number grows; every buffer here is already as
 * large as the library's would be after its first call) are left out.
 */
#ifndef REFBENCH_BIGNUM_MPI_CYCLONE_H
#define REFBENCH_BIGNUM_MPI_CYCLONE_H

#define CY_MAX_WORDS (2 * BN_MAX_LIMBS + 2)

/* mpiGetLength: the words up to the top non-zero one. */
static uint32_t cy_length(const uint32_t *a, uint32_t size)
{
    int i;
    for (i = (int)size - 1; i >= 0; i--) {
        if (a[i] != 0) {
            break;
        }
    }
    return (uint32_t)(i + 1);
}

/* mpiGetBitLength. */
static uint32_t cy_bit_length(const uint32_t *a, uint32_t size)
{
    uint32_t n = cy_length(a, size);
    if (n == 0) {
        return 0;
    }
    uint32_t m = a[n - 1];
    n = (n - 1) * 32;
    for (; m != 0; m >>= 1) {
        n++;
    }
    return n;
}

/* mpiCompAbs: -1, 0, 1 as |a| <, =, > |b|. */
static int cy_comp_abs(const uint32_t *a, uint32_t a_size, const uint32_t *b, uint32_t b_size)
{
    uint32_t m = cy_length(a, a_size);
    uint32_t n = cy_length(b, b_size);
    if (m == 0 && n == 0) {
        return 0;
    }
    if (m > n) {
        return 1;
    }
    if (m < n) {
        return -1;
    }
    while (n-- > 0) {
        if (a[n] > b[n]) {
            return 1;
        }
        if (a[n] < b[n]) {
            return -1;
        }
    }
    return 0;
}

/* mpiSubAbs with |a| >= |b| and r the same number as a (the library's calls here): the borrow
 * kept as a flag and tested word by word, then propagated over a's remaining words. */
static void cy_sub_abs_in_place(uint32_t *r, uint32_t r_size, const uint32_t *b, uint32_t b_size)
{
    if (cy_comp_abs(r, r_size, b, b_size) < 0) {
        return;                 /* the library swaps; its callers here never need it */
    }
    uint32_t m = cy_length(r, r_size);
    uint32_t n = cy_length(b, b_size);
    uint32_t c = 0, i;
    for (i = 0; i < n; i++) {
        uint32_t d = r[i];
        if (c != 0) {
            if (d != 0) {
                c = 0;
            }
            d -= 1;
        }
        if (d < b[i]) {
            c = 1;
        }
        r[i] = d - b[i];
    }
    for (; c && i < m; i++) {
        if (r[i] != 0) {
            c = 0;
        }
        r[i] = r[i] - 1;
    }
}

/* mpiShiftRight by one bit over all size words. */
static void cy_shift_right_1(uint32_t *r, uint32_t size)
{
    uint32_t m = size - 1;
    for (uint32_t i = 0; i < m; i++) {
        r[i] = (r[i] >> 1) | (r[i + 1] << 31);
    }
    r[m] >>= 1;
}

/* mpiMulAccCore: r += a[0..m) * b, the carry propagated into r beyond m while it is not zero.
 * With CY_MUL_ACC_ASM (variant cy_asm) it is cy_asm/mul_acc.S, in the shape of the assembly the library
 * builds with MPI_ASM_SUPPORT enabled; otherwise the library's default C (mpi.c:2117-2174). */
#ifdef CY_MUL_ACC_ASM
void cy_mul_acc_core(uint32_t *r, const uint32_t *a, uint32_t m, uint32_t b);
#else
static void cy_mul_acc_core(uint32_t *r, const uint32_t *a, uint32_t m, uint32_t b)
{
    uint32_t c = 0, u, v, i;
    for (i = 0; i < m; i++) {
        const uint64_t p = (uint64_t)a[i] * b;
        u = (uint32_t)p;
        v = (uint32_t)(p >> 32);
        u += c;
        if (u < c) {
            v++;
        }
        u += r[i];
        if (u < r[i]) {
            v++;
        }
        r[i] = u;
        c = v;
    }
    for (; c != 0; i++) {
        r[i] += c;
        c = r[i] < c;
    }
}
#endif

/* r = a b 2^(-32k) mod n (a < n, b < n of b_words words), mpiMontgomeryMul's steps. */
static void cy_montgomery(const bn_mont_ctx *ctx, uint32_t *r, const uint32_t *a, const uint32_t *b,
                          uint32_t b_words)
{
    const uint32_t k = ctx->limbs;
    const uint32_t *p = ctx->n;
    const uint32_t t_size = 2 * k + 1;
    uint32_t t[CY_MAX_WORDS];
    uint32_t m = p[0], i;
    for (i = 0; i < 4; i++) {
        m = m * (2u - m * p[0]);
    }
    m = ~m + 1u;
    for (i = 0; i < t_size; i++) {              /* mpiSetValue(t, 0) */
        t[i] = 0;
    }
    for (i = 0; i < k; i++) {
        const uint32_t q = (t[i] + a[i] * b[0]) * m;
        cy_mul_acc_core(t + i, b, b_words, a[i]);
        cy_mul_acc_core(t + i, p, k, q);
    }
    for (i = 0; i < t_size - k; i++) {          /* mpiShiftRight(t, 32 k): whole words */
        t[i] = t[i + k];
    }
    for (; i < t_size; i++) {
        t[i] = 0;
    }
    /* mpiCopy(r, t): R grows to k + 1 words when T has reached 2^(32k) (T < 2p) */
    uint32_t x[BN_MAX_LIMBS + 1];
    const uint32_t n = cy_length(t, t_size);
    for (i = 0; i < n; i++) {
        x[i] = t[i];
    }
    for (; i < k + 1; i++) {
        x[i] = 0;
    }
    if (cy_comp_abs(x, k + 1, p, k) >= 0) {     /* mpiComp, then mpiSub(r, r, p) */
        cy_sub_abs_in_place(x, k + 1, p, k);
    }
    for (i = 0; i < k; i++) {
        r[i] = x[i];
    }
}

/* r = a b 2^(-32k) mod n: mpiMontgomeryMul, a product or a squaring (r = r r). */
void cy_mont_mul(const bn_mont_ctx *ctx, uint32_t *r, const uint32_t *a, const uint32_t *b)
{
    cy_montgomery(ctx, r, a, b, ctx->limbs);
}

/* r = a 2^(-32k) mod n: mpiMontgomeryRed (mpi.c:2096), mpiMontgomeryMul by the one-word number 1
 * (each row's first mpiMulAccCore one word long). */
void cy_mont_red(const bn_mont_ctx *ctx, uint32_t *r, const uint32_t *a)
{
    static const uint32_t one[1] = {1};
    cy_montgomery(ctx, r, a, one, 1);
}

/* r = (a + b 2^(32k)) mod n (a, b < n: a number of 2k words, the length of C^2 and of a product),
 * mpiMod's shift-and-subtract. */
void cy_mpi_mod(const bn_mont_ctx *ctx, uint32_t *r, const uint32_t *a, const uint32_t *b)
{
    const uint32_t k = ctx->limbs;
    const uint32_t *p = ctx->n;
    const uint32_t size = 2 * k;
    uint32_t x[CY_MAX_WORDS], c[CY_MAX_WORDS];
    uint32_t i;
    for (i = 0; i < k; i++) {                   /* mpiCopy(r, a) */
        x[i] = a[i];
        x[i + k] = b[i];
    }
    const uint32_t m = cy_bit_length(x, size);
    const uint32_t n = cy_bit_length(p, k);
    if (m >= n) {
        for (i = 0; i < k; i++) {               /* mpiCopy(&c, p) */
            c[i] = p[i];
        }
        for (; i < size; i++) {                 /* mpiShiftLeft grows c to m bits */
            c[i] = 0;
        }
        const uint32_t c_size = (m + 31) / 32;
        const uint32_t s1 = (m - n) / 32, s2 = (m - n) % 32;
        if (s1 > 0) {                           /* mpiShiftLeft(&c, m - n): words, then bits */
            for (i = c_size - 1; i >= s1; i--) {
                c[i] = c[i - s1];
            }
            for (i = 0; i < s1; i++) {
                c[i] = 0;
            }
        }
        if (s2 > 0) {
            for (i = c_size - 1; i >= 1; i--) {
                c[i] = (c[i] << s2) | (c[i - 1] >> (32 - s2));
            }
            c[0] <<= s2;
        }
        while (cy_comp_abs(x, size, p, k) >= 0) {
            if (cy_comp_abs(x, size, c, c_size) >= 0) {
                cy_sub_abs_in_place(x, size, c, c_size);
            }
            cy_shift_right_1(c, c_size);
        }
    }
    for (i = 0; i < k; i++) {
        r[i] = x[i];
    }
}

#endif
