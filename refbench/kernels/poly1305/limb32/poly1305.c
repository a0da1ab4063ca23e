/* Poly1305 with four 32-bit limbs plus a small fifth (radix 2^32): h = h0..h3
 * and h4 (a few bits above 2^128), r = r0..r3 clamped. Clamping clears the low
 * two bits of r1..r3, so s_j = r_j + (r_j >> 2) = 5 r_j / 4 exactly, and a
 * product landing at 2^128 or above folds back multiplied by 5/4
 * (2^130 = 5 mod p). Each column is a sum of 32x32 -> 64 products (UMULL /
 * UMLAL, UMAAL on ARMv7E-M); r_j < 2^28 keeps four of them below 2^63. Only a
 * partial reduction per block: h4 keeps 2 bits, the excess is added back times 5. */
#include "poly1305.h"

void poly1305_init(poly1305_state *st, const uint8_t key[32])
{
    uint32_t i;

    st->r[0] = load32_le(key) & 0x0fffffff;       /* §2.5.1 clamp */
    st->r[1] = load32_le(key + 4) & 0x0ffffffc;
    st->r[2] = load32_le(key + 8) & 0x0ffffffc;
    st->r[3] = load32_le(key + 12) & 0x0ffffffc;
    for (i = 1; i < 4; i++) {
        st->r5[i - 1] = st->r[i] + (st->r[i] >> 2);
    }
    for (i = 0; i < 4; i++) {
        st->s[i] = load32_le(key + 16 + 4 * i);
    }
    for (i = 0; i < 5; i++) {
        st->h[i] = 0;
    }
}

void poly1305_blocks(poly1305_state *st, const uint8_t *m, uint32_t len, uint32_t hibit)
{
    const uint32_t r0 = st->r[0], r1 = st->r[1], r2 = st->r[2], r3 = st->r[3];
    const uint32_t s1 = st->r5[0], s2 = st->r5[1], s3 = st->r5[2];
    uint32_t h0 = st->h[0], h1 = st->h[1], h2 = st->h[2], h3 = st->h[3], h4 = st->h[4];
    uint64_t d0, d1, d2, d3;
    uint32_t c;

    for (; len >= 16; len -= 16, m += 16) {
        /* h += block + hibit * 2^128 */
        d0 = (uint64_t)h0 + load32_le(m);
        d1 = (uint64_t)h1 + load32_le(m + 4) + (d0 >> 32);
        d2 = (uint64_t)h2 + load32_le(m + 8) + (d1 >> 32);
        d3 = (uint64_t)h3 + load32_le(m + 12) + (d2 >> 32);
        h0 = (uint32_t)d0; h1 = (uint32_t)d1; h2 = (uint32_t)d2; h3 = (uint32_t)d3;
        h4 += (uint32_t)(d3 >> 32) + hibit;

        /* h *= r, columns of 2^0, 2^32, 2^64, 2^96 (products at 2^128+ folded by 5/4) */
        d0 = (uint64_t)h0 * r0 + (uint64_t)h1 * s3 + (uint64_t)h2 * s2 + (uint64_t)h3 * s1;
        d1 = (uint64_t)h0 * r1 + (uint64_t)h1 * r0 + (uint64_t)h2 * s3 + (uint64_t)h3 * s2 + (uint64_t)h4 * s1;
        d2 = (uint64_t)h0 * r2 + (uint64_t)h1 * r1 + (uint64_t)h2 * r0 + (uint64_t)h3 * s3 + (uint64_t)h4 * s2;
        d3 = (uint64_t)h0 * r3 + (uint64_t)h1 * r2 + (uint64_t)h2 * r1 + (uint64_t)h3 * r0 + (uint64_t)h4 * s3;
        h4 = h4 * r0;

        /* carry up the columns into h4 */
        h0 = (uint32_t)d0;
        d1 += d0 >> 32; h1 = (uint32_t)d1;
        d2 += d1 >> 32; h2 = (uint32_t)d2;
        d3 += d2 >> 32; h3 = (uint32_t)d3;
        h4 += (uint32_t)(d3 >> 32);

        /* partial reduction: (h4 >> 2) * 2^130 = (h4 >> 2) * 5 */
        c = (h4 >> 2) + (h4 & ~3u);
        h4 &= 3;
        d0 = (uint64_t)h0 + c;
        d1 = (uint64_t)h1 + (d0 >> 32);
        d2 = (uint64_t)h2 + (d1 >> 32);
        d3 = (uint64_t)h3 + (d2 >> 32);
        h0 = (uint32_t)d0; h1 = (uint32_t)d1; h2 = (uint32_t)d2; h3 = (uint32_t)d3;
        h4 += (uint32_t)(d3 >> 32);
    }
    st->h[0] = h0; st->h[1] = h1; st->h[2] = h2; st->h[3] = h3; st->h[4] = h4;
}

void poly1305_finish(poly1305_state *st, uint8_t tag[16])
{
    uint32_t h0 = st->h[0], h1 = st->h[1], h2 = st->h[2], h3 = st->h[3], h4 = st->h[4];
    uint32_t g0, g1, g2, g3, mask;
    uint64_t f;

    /* g = h + 5; if g reaches 2^130 then h >= p and h - p = g mod 2^130 (h < 2p here). */
    f = (uint64_t)h0 + 5;          g0 = (uint32_t)f;
    f = (uint64_t)h1 + (f >> 32);  g1 = (uint32_t)f;
    f = (uint64_t)h2 + (f >> 32);  g2 = (uint32_t)f;
    f = (uint64_t)h3 + (f >> 32);  g3 = (uint32_t)f;
    mask = 0u - ((h4 + (uint32_t)(f >> 32)) >> 2);   /* all ones when g >= 2^130 */
    h0 = (h0 & ~mask) | (g0 & mask);
    h1 = (h1 & ~mask) | (g1 & mask);
    h2 = (h2 & ~mask) | (g2 & mask);
    h3 = (h3 & ~mask) | (g3 & mask);

    f = (uint64_t)h0 + st->s[0];             store32_le(tag, (uint32_t)f);
    f = (uint64_t)h1 + st->s[1] + (f >> 32); store32_le(tag + 4, (uint32_t)f);
    f = (uint64_t)h2 + st->s[2] + (f >> 32); store32_le(tag + 8, (uint32_t)f);
    f = (uint64_t)h3 + st->s[3] + (f >> 32); store32_le(tag + 12, (uint32_t)f);
}
