/* ECDSA over P-256 as whole operations (FIPS 186-4 §6.4 signing and §6.4.2 verification; SEC 1
 * v2 §4.1.3, §4.1.4), over the Montgomery-form field of p256_mont.h with the point formulas and
 * the constant-time base-point multiplication of p256_ct.h, and the arithmetic modulo the order n
 * of p256_order.h:
 *
 *   p256_ecdsa_sign(rs, a, b)     a = e || d, b = k: rs = r || s with (x1, y1) = [k]G,
 *                                 r = x1 mod n, s = k^-1 (e + r d) mod n
 *   p256_ecdsa_verify(ok, a, b)   a = r || s, b = e || Q (x || y): ok[0] = 1 when the signature
 *                                 holds, else 0 (ok[1..15] = 0)
 *
 * e is the hash's integer (FIPS 186-4 §6.4: the leftmost 256 bits of the hash, big-endian), d the
 * private key, k the nonce, all given explicitly (the caller draws k: FIPS 186-4 B.5, RFC 6979),
 * so a signature is a deterministic function of the inputs; every value is 32 bytes
 * little-endian. Signing takes d and k in [1, n - 1]; r = 0 or s = 0 (probability about 2^-255)
 * is returned as it is, for the caller to draw another k (FIPS 186-4 §6.4). Verification takes Q
 * on the curve and not the point at infinity (the caller validates the public key, SEC 1 v2
 * §3.2.2).
 *
 * Signing is constant time: the base-point multiplication of p256_ct.h (odd signed 4-bit digits
 * over a table of 64 x 8 affine multiples read by masked scans), k^-1 by Fermat over the public
 * exponent n - 2, and additions and reductions by masks; no branch or address depends on d or k.
 * Signing's work: [k]G; r = x mod n (a product by R mod n); the Montgomery-form inverse of k
 * taken as the Montgomery form of k R^-1, k^-1 R^2 (39 order products, 253 order squarings);
 * then with no conversion into the Montgomery form: r d R^-1 and e R^-1 (a product by 1, which
 * also reduces e mod n), their sum, and its product by k^-1 R^2, k^-1 (e + r d) (4 order
 * products in all, and one modular addition).
 *
 * Verification is variable time (every input is public). w = s^-1 (the inversion of signing),
 * u1 = e w, u2 = r w; then R = [u1]G + [u2]Q by Straus's interleaving ("Shamir's trick", HAC
 * Algorithm 14.88) of the width-w NAFs of u1 and u2 (HAC Algorithm 14.33: odd digits in
 * [-(2^(w-1) - 1), 2^(w-1) - 1] or 0, about one in w + 1 non-zero), with one accumulator and one
 * doubling chain from the top digit:
 *   - per digit below the top one a doubling (dbl-2004-hmv);
 *   - a non-zero digit of u2 (w = 5) adds +-Q, +-3Q, .., +-15Q (Jacobian, the negatives made once;
 *     add-1998-cmo-2);
 *   - a non-zero digit of u1 (w = 7: about 32 digits instead of 43 with w = 5) adds +-G, +-3G, ..,
 *     +-63G, from p256_table.h's P256_BASE_ODD (affine, in flash; a negative digit's entry negated
 *     into a copy), by a mixed addition (madd-2004-hmv);
 * then x(R) mod n = r is tested with no inversion: r Z^2 = X, or (r + n) Z^2 = X when r + n < p
 * (p256m_x_mod_n_is).
 * (A Jacobian table of Q made affine by one shared inversion, as p256_scalarmult_ct does, would save
 * 4M + 1S on each of about 43 additions, 172 M + 43 S, less than it costs: the inversion's 255 S +
 * 12 M and 39 M + 7 S for the seven points; a wider window for Q costs more additions to build its
 * table than it saves.)
 * Exceptional cases: Q is a multiple of G the signer may know, so a partial sum may equal, or be
 * the negative of, the point added, at any digit (crafted inputs; about 2^-250 otherwise). Every
 * addition checks: the accumulator at infinity (Z = 0) takes the point; H = R = 0 (the same point)
 * gives the point's double; P + (-P) gives Z = 0 by the formulas; a doubling keeps Z = 0. R at
 * infinity fails the signature.
 *
 * The published anchor these kernels are compared with (issue 29's target, 1.3x on the M4): E.
 * Lenngren, P256-Cortex-M4 (github.com/Emill/P256-Cortex-M4, commit
 * ecd3ec2222fc9e18b6b44c86bb7183971a2041fc, README.md "Performance": sign 375k, verify 976k cycles
 * on an nRF52840 (Cortex-M4F, ICACHE on, GCC -O2)).
 */
#ifndef REFBENCH_BIGNUM_P256_ECDSA_H
#define REFBENCH_BIGNUM_P256_ECDSA_H

#include "p256_ct.h"
#include "p256_order.h"

static uint32_t p256_words_zero(const uint32_t a[8])
{
    uint32_t acc = 0;
    for (uint32_t i = 0; i < 8; i++) {
        acc |= a[i];
    }
    return acc == 0;
}

/* 1 when 1 <= a < n (a public value: verification's range check of r and s) */
static uint32_t p256_order_in_range(const uint32_t a[8])
{
    if (p256_words_zero(a)) {
        return 0;
    }
    for (int i = 7; i >= 0; i--) {
        if (a[i] != P256_N_CTX.n[i]) {
            return a[i] < P256_N_CTX.n[i];
        }
    }
    return 0;
}

void p256_ecdsa_sign(uint32_t *rs, const uint32_t *a, const uint32_t *b)
{
    static const uint32_t one[8] = {1u, 0, 0, 0, 0, 0, 0, 0};
    const uint32_t *e = a, *d = a + 8, *k = b;
    uint32_t x[8], t[8], kinv[8], u[8];
    uint32_t *r = rs, *s = rs + 8;
    p256_scalarmult_base_ct(x, k);             /* x1 = x([k]G), standard form, below p */
    p256_order_mul(r, x, P256_N_R);            /* r = x1 R R^-1 = x1 mod n */
    p256_order_inv(kinv, k);                   /* k is the Montgomery form of k R^-1: kinv = k^-1 R^2 */
    p256_order_mul(t, r, d);                   /* r d R^-1 */
    p256_order_mul(u, e, one);                 /* e R^-1 mod n (e may be above n: REDC reduces it) */
    mod_add(t, u, t, P256_N_CTX.n, 8);         /* (e + r d) R^-1 */
    p256_order_mul(s, kinv, t);                /* k^-1 R^2 (e + r d) R^-1 R^-1 = k^-1 (e + r d) */
}

/* naf[0..256]: the width-w non-adjacent form of k (HAC Algorithm 14.33), 2 <= w <= 8: digits odd in
 * [-(2^(w-1) - 1), 2^(w-1) - 1] or 0, of any w consecutive digits at most one non-zero, k = sum
 * naf_i 2^i; scanned from the bottom with the value of the bits not yet taken in k - (digits so
 * far), kept as a carry into the next bit (variable time: k is public). Returns the number of
 * digits up to the top non-zero one (0 for k = 0). */
static int p256_wnaf(signed char naf[257], const uint32_t k[8], int w)
{
    const uint32_t half = 1u << (w - 1);
    int len = 0;
    uint32_t carry = 0;
    for (int i = 0; i < 257; i++) {
        naf[i] = 0;
    }
    for (int i = 0; i < 257;) {
        const uint32_t bit = i < 256 ? (k[i >> 5] >> (i & 31)) & 1u : 0;
        if (bit == carry) {                    /* the remaining value is even at bit i: digit 0 */
            i++;
            continue;
        }
        uint32_t window = carry;               /* bits i .. i + w - 1 of the remaining value, odd */
        for (int j = 0; j < w; j++) {
            const int at = i + j;
            window += at < 256 ? ((k[at >> 5] >> (at & 31)) & 1u) << j : 0;
        }
        window &= 2 * half - 1;
        carry = window >= half;                /* half + 1 .. 2 half - 1 become window - 2 half, negative */
        naf[i] = (signed char)((int32_t)window - (int32_t)(carry * 2 * half));
        len = i + 1;
        i += w;
    }
    return len;
}

/* acc = acc + q (q Jacobian) for any points: acc at infinity (Z = 0) takes q; P + P (H = R = 0) is
 * the double of q; P + (-P) gives Z = 0 by the formula; variable time */
static void p256m_acc_add(p256m_jac *acc, uint32_t *started, const p256m_jac *q)
{
    uint32_t degenerate;
    if (!*started || p256_words_zero(acc->z)) {
        *acc = *q;
        *started = 1;
        return;
    }
    p256m_add(acc, acc, q, &degenerate);
    if (degenerate) {
        p256m_double(acc, q);
    }
}

/* acc = acc + (x, y) for an affine point qxy, as p256m_acc_add */
static void p256m_acc_add_affine(p256m_jac *acc, uint32_t *started, const uint32_t qxy[16])
{
    uint32_t degenerate;
    if (!*started || p256_words_zero(acc->z)) {
        for (uint32_t k = 0; k < 8; k++) {
            acc->x[k] = qxy[k];
            acc->y[k] = qxy[8 + k];
            acc->z[k] = P256M_ONE[k];
        }
        *started = 1;
        return;
    }
    p256m_add_affine(acc, acc, qxy, &degenerate);
    if (degenerate) {
        p256m_jac q;
        for (uint32_t k = 0; k < 8; k++) {
            q.x[k] = qxy[k];
            q.y[k] = qxy[8 + k];
            q.z[k] = P256M_ONE[k];
        }
        p256m_double(acc, &q);
    }
}

/* 1 when x0 * Z^2 = X (mod p) for q = (X : Y : Z), Montgomery form, and zz = Z^2: x0 (below p,
 * standard form) is q's affine x, X / Z^2 */
static uint32_t p256m_x_equals(const p256m_jac *q, const uint32_t zz[8], const uint32_t x0[8])
{
    uint32_t t[8];
    p256_mont_mul(t, x0, P256M_RR);            /* x0 R mod p */
    p256_mont_mul(t, t, zz);
    fe_p256_sub(t, t, q->x);                   /* canonical operands: 0 exactly when equal */
    return p256_words_zero(t);
}

/* 1 when x(q) mod n = r for q not at infinity and 1 <= r < n, with no inversion (as
 * bitcoin-core/secp256k1 commit 01ee1b3b3c665bf22e06b92afa832ccc54de5119, src/ecdsa_impl.h,
 * secp256k1_ecdsa_sig_verify, explains it): x(q) < p < 2n, so x(q) mod n = r exactly when x(q) = r
 * or x(q) = r + n (only possible when r + n < p: r below p - n, about 2^126); x(q) = c exactly
 * when c Z^2 = X (mod p). Both candidates are tried when r + n < p (the count of calls then depends
 * on r alone). */
static uint32_t p256m_x_mod_n_is(const p256m_jac *q, const uint32_t r[8])
{
    uint32_t zz[8], c[8], carry = 0;
    p256_mont_sqr(zz, q->z);
    uint32_t ok = p256m_x_equals(q, zz, r);
    for (uint32_t k = 0; k < 8; k++) {         /* c = r + n, below 2n < 2^257 */
        const uint32_t s = r[k] + carry;
        const uint32_t c1 = s < carry;
        c[k] = s + P256_N[k];
        carry = c1 + (c[k] < s);
    }
    uint32_t borrow = 0;                       /* the borrow of c - p: 1 when c < p */
    for (uint32_t k = 0; k < 8; k++) {
        const uint32_t pk = P256_P[k];
        borrow = (c[k] < pk) | ((c[k] == pk) & borrow);
    }
    if (carry || !borrow) {
        return ok;
    }
    return ok | p256m_x_equals(q, zz, c);
}

void p256_ecdsa_verify(uint32_t *ok, const uint32_t *a, const uint32_t *b)
{
    static const uint32_t zero[8] = {0};
    const uint32_t *r = a, *s = a + 8, *e = b, *qxy = b + 8;
    uint32_t t[8], w[8], u1[8], u2[8], pt[16];
    signed char naf1[257], naf2[257];
    p256m_jac table[16], acc, twice;
    for (uint32_t i = 0; i < 16; i++) {
        ok[i] = 0;
    }
    if (!p256_order_in_range(r) || !p256_order_in_range(s)) {
        return;
    }
    p256_order_mul(t, s, P256_N_RR);           /* s R */
    p256_order_inv(w, t);                      /* w R = s^-1 R */
    p256_order_reduce(t, e);
    p256_order_mul(u1, t, w);                  /* u1 = e w */
    p256_order_mul(u2, r, w);                  /* u2 = r w (not 0: r and w are not) */
    const int len1 = p256_wnaf(naf1, u1, 7), len2 = p256_wnaf(naf2, u2, 5);
    /* table[j] = (2j + 1) Q and table[8 + j] = -(2j + 1) Q (Montgomery form, Jacobian) */
    p256_mont_mul(table[0].x, qxy, P256M_RR);
    p256_mont_mul(table[0].y, qxy + 8, P256M_RR);
    for (uint32_t k = 0; k < 8; k++) {
        table[0].z[k] = P256M_ONE[k];
    }
    p256m_double(&twice, &table[0]);
    for (uint32_t j = 1; j < 8; j++) {
        p256m_add(&table[j], &table[j - 1], &twice, 0);
    }
    for (uint32_t j = 0; j < 8; j++) {
        for (uint32_t k = 0; k < 8; k++) {
            table[8 + j].x[k] = table[j].x[k];
            table[8 + j].z[k] = table[j].z[k];
        }
        fe_p256_sub(table[8 + j].y, zero, table[j].y);
    }
    /* one doubling chain from the top digit of either scalar (u1's width-7 NAF, u2's width-5): per
     * digit a doubling, then the addition of u2's digit's multiple of Q and of u1's digit's multiple
     * of G when not 0 */
    uint32_t started = 0;
    for (int i = (len1 > len2 ? len1 : len2) - 1; i >= 0; i--) {
        if (started) {
            p256m_double(&acc, &acc);
        }
        const int32_t h = naf2[i], g = naf1[i];
        if (h != 0) {
            p256m_acc_add(&acc, &started, &table[h > 0 ? (uint32_t)h >> 1 : 8 + ((uint32_t)-h >> 1)]);
        }
        if (g > 0) {
            p256m_acc_add_affine(&acc, &started, P256_BASE_ODD[(uint32_t)g >> 1]);
        } else if (g < 0) {                    /* -(|g| G): x, and y = 0 - y */
            const uint32_t *entry = P256_BASE_ODD[(uint32_t)-g >> 1];
            for (uint32_t k = 0; k < 8; k++) {
                pt[k] = entry[k];
            }
            fe_p256_sub(pt + 8, zero, entry + 8);
            p256m_acc_add_affine(&acc, &started, pt);
        }
    }
    if (p256_words_zero(acc.z)) {
        return;                                /* R is the point at infinity: no x */
    }
    ok[0] = p256m_x_mod_n_is(&acc, r);
}

#endif
