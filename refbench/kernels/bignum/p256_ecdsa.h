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
 * u1 = e w, u2 = r w; then R = [u1]G + [u2]Q in one pass over the 64 digits of both scalars,
 * from the top (Straus's interleaving, "Shamir's trick", HAC 14.88, with two accumulators):
 *   - [u1]G: the odd signed digits of u1 (p256_ct.h's recoding) select (2j + 1) 16^i G from the
 *     base-point table, one mixed addition per digit (madd-2004-hmv) and no doubling, the table
 *     holding the powers 16^i;
 *   - [u2]Q: the odd signed digits of u2 over +-Q, +-3Q, .., +-15Q (Jacobian, the negatives made
 *     once), per digit four doublings and one addition (add-1998-cmo-2), as p256_scalarmult_ct
 *     but with direct indexing and branches instead of masked scans;
 * then one addition of the two accumulators, one field inversion (p256_ct.h's chain) for the
 * affine x, x mod n and the comparison with r.
 * Exceptional cases: by p256_ct.h's argument, inside either loop the partial sum meets the added
 * point (H = 0) only at the last digit: there an addition that is a doubling (H = R = 0) doubles
 * the point instead, and P + (-P) gives Z = 0, the point at infinity (u1 = 0 when e = 0 mod n).
 * The final addition takes the other accumulator when one is at infinity, doubles when they are
 * equal, and gives infinity (the signature fails) when they are opposite.
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

/* q = q + p with q, p in Jacobian coordinates, any points (infinity: Z = 0); variable time */
static void p256m_add_any(p256m_jac *q, const p256m_jac *p)
{
    uint32_t degenerate;
    p256m_jac sum;
    if (p256_words_zero(p->z)) {
        return;
    }
    if (p256_words_zero(q->z)) {
        *q = *p;
        return;
    }
    p256m_add(&sum, q, p, &degenerate);
    if (degenerate) {
        p256m_double(q, p);
    } else {
        *q = sum;
    }
}

/* the base-point table's entry for digit g at window i: a pointer into the table, or for g < 0 the
 * negated entry in pt (x copied, y = 0 - y) */
static const uint32_t *p256_base_entry(uint32_t pt[16], int i, int32_t g)
{
    static const uint32_t zero[8] = {0};
    const uint32_t *entry = P256_BASE_TABLE[i][(uint32_t)(g < 0 ? -g : g) >> 1];
    if (g > 0) {
        return entry;
    }
    for (uint32_t k = 0; k < 8; k++) {
        pt[k] = entry[k];
    }
    fe_p256_sub(pt + 8, zero, entry + 8);
    return pt;
}

void p256_ecdsa_verify(uint32_t *ok, const uint32_t *a, const uint32_t *b)
{
    static const uint32_t zero[8] = {0};
    const uint32_t *r = a, *s = a + 8, *e = b, *qxy = b + 8;
    uint32_t t[8], w[8], u1[8], u2[8], pt[16], x[8];
    int32_t e1[64], e2[64];
    p256m_jac table[16], acc_q, acc_g, next;
    uint32_t degenerate;
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
    p256_order_mul(u2, r, w);                  /* u2 = r w */
    const uint32_t neg1 = p256_scalar_odd(t, u1);
    p256_recode(e1, t);
    const uint32_t neg2 = p256_scalar_odd(t, u2);
    p256_recode(e2, t);
    if (neg1) {                                /* [n - u1]G = -[u1]G: negate every digit */
        for (uint32_t i = 0; i < 64; i++) {
            e1[i] = -e1[i];
        }
    }
    if (neg2) {
        for (uint32_t i = 0; i < 64; i++) {
            e2[i] = -e2[i];
        }
    }
    /* table[j] = (2j + 1) Q and table[8 + j] = -(2j + 1) Q (Montgomery form, Jacobian) */
    p256_mont_mul(table[0].x, qxy, P256M_RR);
    p256_mont_mul(table[0].y, qxy + 8, P256M_RR);
    for (uint32_t k = 0; k < 8; k++) {
        table[0].z[k] = P256M_ONE[k];
    }
    p256m_double(&next, &table[0]);
    for (uint32_t j = 1; j < 8; j++) {
        p256m_add(&table[j], &table[j - 1], &next, 0);
    }
    for (uint32_t j = 0; j < 8; j++) {
        for (uint32_t k = 0; k < 8; k++) {
            table[8 + j].x[k] = table[j].x[k];
            table[8 + j].z[k] = table[j].z[k];
        }
        fe_p256_sub(table[8 + j].y, zero, table[j].y);
    }
    /* the top digits */
    const uint32_t *entry = p256_base_entry(pt, 63, e1[63]);
    for (uint32_t k = 0; k < 8; k++) {
        acc_g.x[k] = entry[k];
        acc_g.y[k] = entry[8 + k];
        acc_g.z[k] = P256M_ONE[k];
    }
    int32_t h = e2[63];
    acc_q = table[h > 0 ? (uint32_t)h >> 1 : 8 + ((uint32_t)-h >> 1)];
    for (int i = 62; i >= 0; i--) {
        entry = p256_base_entry(pt, i, e1[i]);
        h = e2[i];
        const p256m_jac *qi = &table[h > 0 ? (uint32_t)h >> 1 : 8 + ((uint32_t)-h >> 1)];
        for (int n = 0; n < 4; n++) {
            p256m_double(&acc_q, &acc_q);
        }
        if (i > 0) {
            p256m_add_affine(&acc_g, &acc_g, entry, 0);
            p256m_add(&acc_q, &acc_q, qi, 0);
        } else {                               /* the last digits: the sums may meet the points */
            p256m_add_affine(&next, &acc_g, entry, &degenerate);
            if (degenerate) {
                p256m_double(&acc_g, &acc_g);
            } else {
                acc_g = next;
            }
            p256m_add_any(&acc_q, qi);
        }
    }
    p256m_add_any(&acc_q, &acc_g);             /* R = [u1]G + [u2]Q */
    if (p256_words_zero(acc_q.z)) {
        return;                                /* the point at infinity: no x */
    }
    p256m_affine_x(x, &acc_q);
    p256_order_reduce(x, x);                   /* x mod n */
    for (uint32_t k = 0; k < 8; k++) {
        if (x[k] != r[k]) {
            return;
        }
    }
    ok[0] = 1;
}

#endif
