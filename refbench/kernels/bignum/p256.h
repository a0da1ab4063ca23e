/* A whole P-256 base-point scalar multiplication Q = [k]G (FIPS 186-4 D.1.2.3; SEC 1 v2 §3.2.1
 * key generation) over the P-256 field operations of fe.h, written step for step as the Python
 * reference computes it (refbench/ref/weierstrass.py scalar_mult_fixed_window, width 4), so the
 * whole operation's cycles check the composition of its counted operations
 * (tests/test_pubkey_composition.py):
 *   - a table of 0G..15G in Jacobian coordinates, 2G..15G by 14 mixed additions (madd-2007-bl,
 *     7M + 4S; 2G = G + G falls back to the doubling, as in the reference);
 *   - ceil(bits(k) / 4) windows from the most significant, each 4 doublings (dbl-2001-b for
 *     a = -3: 3M + 5S) and, when the digit is not 0, one addition (add-2007-bl: 11M + 5S);
 *   - the affine result by one Fermat inversion (Z^(p-2), left-to-right binary, HAC 14.79:
 *     255 S + 127 M, the count of refbench/sanity/pubkey_cost.py fermat_counts) and 3M + 1S.
 * The multiples 2a, 3a, 4a, 8a of the formulas are the additions they take (1, 2, 2, 3), as
 * refbench/ref/modarith.py counts them. The point at infinity is Z = 0 and is skipped as the
 * reference skips it (the first window costs no doubling); like the reference this is not
 * constant time (the table index and the zero digits show in the timing), which is the
 * simplest embedded code, not what a hardened library ships.
 * Scalar: 32 bytes little-endian, reduced mod n by the caller (the reference's preparation).
 */
#ifndef REFBENCH_BIGNUM_P256_H
#define REFBENCH_BIGNUM_P256_H

#include "fe.h"
#include "p256_mont.h"
#include "p256_ct.h"

typedef struct {
    uint32_t x[8], y[8], z[8];
} p256_jac;

static const uint32_t P256_GX[8] = {0xd898c296u, 0xf4a13945u, 0x2deb33a0u, 0x77037d81u,
                                    0x63a440f2u, 0xf8bce6e5u, 0xe12c4247u, 0x6b17d1f2u};
static const uint32_t P256_GY[8] = {0x37bf51f5u, 0xcbb64068u, 0x6b315eceu, 0x2bce3357u,
                                    0x7c0f9e16u, 0x8ee7eb4au, 0xfe1a7f9bu, 0x4fe342e2u};
/* p - 2, the Fermat exponent */
static const uint32_t P256_PM2[8] = {0xfffffffdu, 0xffffffffu, 0xffffffffu, 0x00000000u,
                                     0x00000000u, 0x00000000u, 0x00000001u, 0xffffffffu};

static uint32_t p256_is_zero(const uint32_t a[8])
{
    uint32_t acc = 0;
    for (uint32_t i = 0; i < 8; i++) {
        acc |= a[i];
    }
    return acc == 0;
}

static void p256_copy(uint32_t r[8], const uint32_t a[8])
{
    for (uint32_t i = 0; i < 8; i++) {
        r[i] = a[i];
    }
}

/* 2P, dbl-2001-b (a = -3): 3M + 5S; P not at infinity */
static void p256_double(p256_jac *r, const p256_jac *p)
{
    uint32_t delta[8], gamma[8], beta[8], alpha[8], t[8], u[8];
    fe_p256_sqr(delta, p->z);
    fe_p256_sqr(gamma, p->y);
    fe_p256_mul(beta, p->x, gamma);
    fe_p256_sub(t, p->x, delta);
    fe_p256_add(u, p->x, delta);
    fe_p256_mul(alpha, t, u);
    fe_p256_add(t, alpha, alpha);          /* alpha = 3 (X - delta)(X + delta) */
    fe_p256_add(alpha, t, alpha);
    /* Z3 = (Y + Z)^2 - gamma - delta (before X3, Y3 overwrite r, which may be p) */
    fe_p256_add(t, p->y, p->z);
    fe_p256_sqr(u, t);
    fe_p256_sub(u, u, gamma);
    fe_p256_sub(r->z, u, delta);
    /* X3 = alpha^2 - 8 beta */
    fe_p256_add(t, beta, beta);
    fe_p256_add(t, t, t);                  /* 4 beta */
    fe_p256_add(u, t, t);                  /* 8 beta */
    fe_p256_sqr(delta, alpha);
    fe_p256_sub(r->x, delta, u);
    /* Y3 = alpha (4 beta - X3) - 8 gamma^2 */
    fe_p256_add(beta, beta, beta);         /* 2 beta */
    fe_p256_add(beta, beta, beta);         /* 4 beta: the reference's small(4, beta), 2 additions */
    fe_p256_sub(t, beta, r->x);
    fe_p256_mul(u, alpha, t);
    fe_p256_sqr(delta, gamma);
    fe_p256_add(delta, delta, delta);
    fe_p256_add(delta, delta, delta);
    fe_p256_add(delta, delta, delta);      /* 8 gamma^2 */
    fe_p256_sub(r->y, u, delta);
}

/* P + Q, add-2007-bl: 11M + 5S; P, Q not at infinity; P = Q falls back to the doubling */
static void p256_add(p256_jac *r, const p256_jac *p, const p256_jac *q)
{
    uint32_t z1z1[8], z2z2[8], u1[8], u2[8], s1[8], s2[8], h[8], rr[8], i[8], j[8], v[8], t[8];
    fe_p256_sqr(z1z1, p->z);
    fe_p256_sqr(z2z2, q->z);
    fe_p256_mul(u1, p->x, z2z2);
    fe_p256_mul(u2, q->x, z1z1);
    fe_p256_mul(t, p->y, q->z);
    fe_p256_mul(s1, t, z2z2);
    fe_p256_mul(t, q->y, p->z);
    fe_p256_mul(s2, t, z1z1);
    fe_p256_sub(h, u2, u1);
    fe_p256_sub(t, s2, s1);
    fe_p256_add(rr, t, t);
    if (p256_is_zero(h)) {
        if (p256_is_zero(rr)) {
            p256_double(r, p);
        } else {
            for (uint32_t k = 0; k < 8; k++) {
                r->x[k] = r->y[k] = r->z[k] = 0;
            }
        }
        return;
    }
    fe_p256_add(t, h, h);
    fe_p256_sqr(i, t);
    fe_p256_mul(j, h, i);
    fe_p256_mul(v, u1, i);
    /* Z3 = ((Z1 + Z2)^2 - Z1Z1 - Z2Z2) H first: r may be p or q */
    fe_p256_add(t, p->z, q->z);
    fe_p256_sqr(u2, t);
    fe_p256_sub(u2, u2, z1z1);
    fe_p256_sub(u2, u2, z2z2);
    fe_p256_mul(r->z, u2, h);
    /* X3 = r^2 - J - 2V */
    fe_p256_sqr(t, rr);
    fe_p256_sub(t, t, j);
    fe_p256_add(u2, v, v);
    fe_p256_sub(r->x, t, u2);
    /* Y3 = r (V - X3) - 2 S1 J */
    fe_p256_sub(t, v, r->x);
    fe_p256_mul(u2, rr, t);
    fe_p256_mul(t, s1, j);
    fe_p256_add(t, t, t);
    fe_p256_sub(r->y, u2, t);
}

/* P + Q with Q affine, madd-2007-bl: 7M + 4S; P not at infinity; P = Q falls back to the doubling */
static void p256_add_mixed(p256_jac *r, const p256_jac *p, const uint32_t qx[8], const uint32_t qy[8])
{
    uint32_t z1z1[8], u2[8], s2[8], h[8], rr[8], hh[8], i[8], j[8], v[8], t[8];
    fe_p256_sqr(z1z1, p->z);
    fe_p256_mul(u2, qx, z1z1);
    fe_p256_mul(t, qy, p->z);
    fe_p256_mul(s2, t, z1z1);
    fe_p256_sub(h, u2, p->x);
    fe_p256_sub(t, s2, p->y);
    fe_p256_add(rr, t, t);
    if (p256_is_zero(h)) {
        if (p256_is_zero(rr)) {
            p256_double(r, p);
        } else {
            for (uint32_t k = 0; k < 8; k++) {
                r->x[k] = r->y[k] = r->z[k] = 0;
            }
        }
        return;
    }
    fe_p256_sqr(hh, h);
    fe_p256_add(i, hh, hh);
    fe_p256_add(i, i, i);                  /* I = 4 HH */
    fe_p256_mul(j, h, i);
    fe_p256_mul(v, p->x, i);
    /* Z3 = (Z1 + H)^2 - Z1Z1 - HH */
    fe_p256_add(t, p->z, h);
    fe_p256_sqr(u2, t);
    fe_p256_sub(u2, u2, z1z1);
    fe_p256_sub(r->z, u2, hh);
    /* X3 = r^2 - J - 2V */
    fe_p256_sqr(t, rr);
    fe_p256_sub(t, t, j);
    fe_p256_add(u2, v, v);
    fe_p256_sub(u2, t, u2);
    /* Y3 = r (V - X3) - 2 Y1 J (Y1 read before r->y is written) */
    fe_p256_sub(t, v, u2);
    fe_p256_mul(s2, rr, t);
    fe_p256_mul(t, p->y, j);
    fe_p256_add(t, t, t);
    fe_p256_sub(r->y, s2, t);
    p256_copy(r->x, u2);
}

/* r = a^(p-2) = a^-1 (Fermat), left-to-right binary over the bits of p - 2 below the top one */
static void p256_inv(uint32_t r[8], const uint32_t a[8])
{
    uint32_t t[8];
    p256_copy(t, a);
    for (int bit = 254; bit >= 0; bit--) {
        fe_p256_sqr(t, t);
        if ((P256_PM2[bit >> 5] >> (bit & 31)) & 1u) {
            fe_p256_mul(t, t, a);
        }
    }
    p256_copy(r, t);
}

/* xy = the affine [k]G, x then y (64 bytes); both 0 for k = 0 */
void p256_scalarmult_base_xy(uint32_t *xy, const uint32_t *k)
{
    p256_jac table[16], acc;
    uint32_t in_acc = 0; /* acc is the point at infinity until the first non-zero digit */
    for (uint32_t i = 0; i < 8; i++) {
        table[1].x[i] = P256_GX[i];
        table[1].y[i] = P256_GY[i];
        table[1].z[i] = i == 0;
    }
    for (uint32_t j = 2; j < 16; j++) {
        p256_add_mixed(&table[j], &table[j - 1], P256_GX, P256_GY);
    }
    int bits = 256;
    while (bits > 0 && ((k[(bits - 1) >> 5] >> ((bits - 1) & 31)) & 1u) == 0) {
        bits--;
    }
    for (int w = (bits + 3) / 4 - 1; w >= 0; w--) {
        if (in_acc) {
            for (int s = 0; s < 4; s++) {
                p256_double(&acc, &acc);
            }
        }
        const uint32_t digit = (k[w >> 3] >> (4 * (w & 7))) & 0xfu;
        if (digit) {
            if (in_acc) {
                p256_add(&acc, &acc, &table[digit]);
            } else {
                acc = table[digit];
                in_acc = 1;
            }
        }
    }
    if (!in_acc || p256_is_zero(acc.z)) {
        for (uint32_t i = 0; i < 16; i++) {
            xy[i] = 0;
        }
        return;
    }
    uint32_t zi[8], zi2[8], t[8];
    p256_inv(zi, acc.z);
    fe_p256_sqr(zi2, zi);
    fe_p256_mul(xy, acc.x, zi2);
    fe_p256_mul(t, acc.y, zi2);
    fe_p256_mul(xy + 8, t, zi);
}

/* r = the x-coordinate of [k]G (what ECDH and ECDSA's r take from the point) */
void p256_scalarmult_base(uint32_t *r, const uint32_t *k)
{
    uint32_t xy[16];
    p256_scalarmult_base_xy(xy, k);
    for (uint32_t i = 0; i < 8; i++) {
        r[i] = xy[i];
    }
}

#endif
