/* Ed25519's group operations as whole operations (RFC 8032 §5.1) over the 2^255 - 19 field
 * operations of fe.h, in the shape of wolfSSL's table-less small build (CURVED25519_SMALL turns on
 * ED25519_SMALL: wolfcrypt/src/ge_low_mem.c, "Based from Daniel Beer's public domain work",
 * wolfSSL/wolfssl 217440c88530044464a2d13f491669d01ee40684), the recipe refbench/sanity/
 * pubkey_costs.toml [[scalar_mult.small_builds]] prices:
 *   - ed25519_smult: 256 steps over the scalar's bits 255..0, each one doubling of R, one
 *     addition S = R + P and four constant-time selects R = bit ? S : R of the four coordinates
 *     (ge_low_mem.c ed25519_smult): no table, no secret branch or address;
 *   - the base-point multiplication (ge_scalarmult_base: ed25519_smult of the base point) and its
 *     encoding (ge_tobytes: Z^-1, x = X Z^-1, y = Y Z^-1, y with the low bit of x on top);
 *   - verification's double scalar multiplication (ge_double_scalarmult_vartime there): two
 *     ed25519_smult, [S]B and [h](-A), and one addition; -A from the public key's affine (x, y)
 *     as (-x, y, 1, -x y) (the tail of ge_frombytes_negate_vartime).
 * The point formulas are those of the Python reference (refbench/ref/edwards.py add, double:
 * RFC 8032 §5.1.4, Hisil-Wong-Carter-Dawson 2008 add-2008-hwcd-3 and dbl-2008-hwcd, extended
 * coordinates (X : Y : Z : T)), operation for operation as refbench/ref/opcount.py counts them:
 * addition 9 M + 5 additions + 4 subtractions, doubling 4 M + 4 S + 4 additions + 2 subtractions,
 * so the whole operations check the composition of their counted operations
 * (refbench/sanity/pubkey_whole.py). One difference, the library's: the addition's constant
 * k = 2d is stored (ge_low_mem.c ed25519_k), where the reference counts the doubling of d as one
 * more addition. Every field element is canonical, in [0, p); the inversion is x25519.h's
 * addition chain (254 S + 11 M). Scalars: 32 bytes little-endian, all 256 bits used (the
 * caller clamps, RFC 8032 §5.1.5, as wolfSSL's wc_ed25519_make_public does before
 * ge_scalarmult_base).
 */
#ifndef REFBENCH_BIGNUM_ED25519_H
#define REFBENCH_BIGNUM_ED25519_H

#include "x25519.h"

#ifdef X25519_OWN
/* The variant keeps its elements in limbs of its own between operations (c29/fe25519.c: 9 limbs
 * of 29 bits, the library's shape); the constants and the operands are converted to them once at
 * the start and the results once at the end, as CycloneCRYPTO's ed25519.c does. */
#define ED_N 9
void fe25519_from_words(uint32_t *l, const uint32_t *w);
void fe25519_to_words(uint32_t *w, const uint32_t *l);
void fe25519_invert(uint32_t *r, const uint32_t *z);
#define ed_load fe25519_from_words
#define ed_store fe25519_to_words
#else
#define ED_N 8
static void ed_load(uint32_t r[8], const uint32_t w[8])
{
    for (uint32_t i = 0; i < 8; i++) {
        r[i] = w[i];
    }
}
#define ed_store ed_load
#endif

typedef struct {
    uint32_t x[ED_N], y[ED_N], z[ED_N], t[ED_N];
} ed25519_pt;

/* k = 2d, d = -121665/121666 (RFC 8032 §5.1) */
static const uint32_t ED25519_K[8] = {0x26b2f159u, 0xebd69b94u, 0x8283b156u, 0x00e0149au,
                                      0xeef3d130u, 0x198e80f2u, 0x56dffce7u, 0x2406d9dcu};
/* the base point B (RFC 8032 §5.1: y = 4/5, x even) with Z = 1, T = x y */
static const ed25519_pt ED25519_B = {
    {0x8f25d51au, 0xc9562d60u, 0x9525a7b2u, 0x692cc760u, 0xfdd6dc5cu, 0xc0a4e231u, 0xcd6e53feu, 0x216936d3u},
    {0x66666658u, 0x66666666u, 0x66666666u, 0x66666666u, 0x66666666u, 0x66666666u, 0x66666666u, 0x66666666u},
    {1u, 0u, 0u, 0u, 0u, 0u, 0u, 0u},
    {0xa5b7dda3u, 0x6dde8ab3u, 0x775152f5u, 0x20f09f80u, 0x64abe37du, 0x66ea4e8eu, 0xd78b7665u, 0x67875f0fu},
};

/* r = bit ? b : a (bit in {0, 1}), by masks: ge_low_mem.c's fe_select, a call per coordinate */
FE_CALL void fe25519_select(uint32_t *r, const uint32_t *a, const uint32_t *b, uint32_t bit)
{
    bn_select_bit(r, a, b, bit, ED_N);  /* the loop bn_select runs (mont.h) */
}

/* k = 2d in the elements' representation, loaded by each whole operation (ed_constants) */
static uint32_t ed_k[ED_N];

/* r = p + q (add-2008-hwcd-3, k = 2d; refbench/ref/edwards.py add); r may be p or q */
static void ed25519_add(ed25519_pt *r, const ed25519_pt *p, const ed25519_pt *q)
{
    uint32_t a[ED_N], b[ED_N], c[ED_N], d[ED_N], e[ED_N], f[ED_N], g[ED_N], h[ED_N];
    fe25519_sub(c, p->y, p->x);
    fe25519_sub(d, q->y, q->x);
    fe25519_mul(a, c, d);              /* A = (Y1 - X1)(Y2 - X2) */
    fe25519_add(c, p->y, p->x);
    fe25519_add(d, q->y, q->x);
    fe25519_mul(b, c, d);              /* B = (Y1 + X1)(Y2 + X2) */
    fe25519_mul(d, p->t, ed_k);
    fe25519_mul(c, d, q->t);           /* C = T1 2d T2 */
    fe25519_mul(d, p->z, q->z);
    fe25519_add(d, d, d);              /* D = 2 Z1 Z2 */
    fe25519_sub(e, b, a);              /* E = B - A */
    fe25519_sub(f, d, c);              /* F = D - C */
    fe25519_add(g, d, c);              /* G = D + C */
    fe25519_add(h, b, a);              /* H = B + A */
    fe25519_mul(r->x, e, f);
    fe25519_mul(r->y, g, h);
    fe25519_mul(r->z, f, g);
    fe25519_mul(r->t, e, h);
}

/* r = 2p (dbl-2008-hwcd for a = -1, the signs of refbench/ref/edwards.py double: E and G are
 * the formula's negated, so X3 and T3, Y3 and Z3 share the sign) */
static void ed25519_double(ed25519_pt *r, const ed25519_pt *p)
{
    uint32_t a[ED_N], b[ED_N], c[ED_N], e[ED_N], f[ED_N], g[ED_N], h[ED_N];
    fe25519_sqr(a, p->x);              /* A = X1^2 */
    fe25519_sqr(b, p->y);              /* B = Y1^2 */
    fe25519_sqr(c, p->z);
    fe25519_add(c, c, c);              /* C = 2 Z1^2 */
    fe25519_add(h, a, b);              /* H = A + B */
    fe25519_add(e, p->x, p->y);
    fe25519_sqr(e, e);
    fe25519_sub(e, h, e);              /* E = H - (X1 + Y1)^2 */
    fe25519_sub(g, a, b);              /* G = A - B */
    fe25519_add(f, c, g);              /* F = C + G */
    fe25519_mul(r->x, e, f);
    fe25519_mul(r->y, g, h);
    fe25519_mul(r->z, f, g);
    fe25519_mul(r->t, e, h);
}

/* r = [k]p, k 256 bits little-endian: double and always add, the sum kept by four selects */
static void ed25519_smult(ed25519_pt *r, const ed25519_pt *p, const uint32_t k[8])
{
    ed25519_pt s;
    for (uint32_t i = 0; i < ED_N; i++) {         /* the neutral element (0 : 1 : 1 : 0) */
        r->x[i] = 0;
        r->y[i] = i == 0;
        r->z[i] = i == 0;
        r->t[i] = 0;
    }
    for (int i = 255; i >= 0; i--) {
        const uint32_t bit = (k[i >> 5] >> (i & 31)) & 1u;
        ed25519_double(r, r);
        ed25519_add(&s, r, p);
        fe25519_select(r->x, r->x, s.x, bit);
        fe25519_select(r->y, r->y, s.y, bit);
        fe25519_select(r->z, r->z, s.z, bit);
        fe25519_select(r->t, r->t, s.t, bit);
    }
}

/* (x, y) = (X / Z, Y / Z) */
static void ed25519_affine(uint32_t x[ED_N], uint32_t y[ED_N], const ed25519_pt *p)
{
    uint32_t zi[ED_N];
    fe25519_invert(zi, p->z);
    fe25519_mul(x, p->x, zi);
    fe25519_mul(y, p->y, zi);
}

/* r = ENC([k]B) (RFC 8032 §5.1.2): the public key A = [s]B of key generation and R = [r]B of
 * signing (§5.1.5-5.1.6), for the clamped s or the nonce r the caller computed */
/* k = 2d and the base point B in the elements' representation */
static void ed_constants(ed25519_pt *base)
{
    ed_load(ed_k, ED25519_K);
    ed_load(base->x, ED25519_B.x);
    ed_load(base->y, ED25519_B.y);
    ed_load(base->z, ED25519_B.z);
    ed_load(base->t, ED25519_B.t);
}

void ed25519_scalarmult_base(uint32_t *r, const uint32_t *k)
{
    ed25519_pt q, base;
    uint32_t x[ED_N], y[ED_N], xw[8];
    ed_constants(&base);
    ed25519_smult(&q, &base, k);
    ed25519_affine(x, y, &q);
    ed_store(r, y);
    ed_store(xw, x);
    r[7] |= (xw[0] & 1u) << 31;
}

/* r = the affine (x, y) of [S]B - [h]A, verification's double scalar multiplication (RFC 8032
 * §5.1.7 step 3 as [S]B = R + [h]A, checked by encoding the left side minus [h]A against R):
 * a = S (words 0-7) and h (words 8-15), b = A's affine x (0-7) and y (8-15) */
void ed25519_double_scalarmult(uint32_t *r, const uint32_t *a, const uint32_t *b)
{
    ed25519_pt sb, na, ha, base;
    uint32_t ax[ED_N], x[ED_N], y[ED_N];
    static const uint32_t zero[ED_N];
    ed_constants(&base);
    ed_load(ax, b);
    ed_load(na.y, b + 8);
    for (uint32_t i = 0; i < ED_N; i++) {
        na.z[i] = i == 0;
    }
    fe25519_sub(na.x, zero, ax);      /* -A = (-x, y, 1, -x y) */
    fe25519_mul(na.t, na.x, na.y);
    ed25519_smult(&sb, &base, a);
    ed25519_smult(&ha, &na, a + 8);
    ed25519_add(&sb, &sb, &ha);
    ed25519_affine(x, y, &sb);
    ed_store(r, x);
    ed_store(r + 8, y);
}

#endif
