/* Poly1305 with five 26-bit limbs (radix 2^26), the poly1305-donna-32 idea:
 * h and r as 26-bit limbs, so every product h_i * r_j fits 32x32 -> 64 bits
 * and five of them summed still fit 64 bits; limbs past 2^130 wrap around
 * multiplied by 5 (2^130 = 5 mod p), so r_j * 5 is precomputed. Carries are
 * propagated once per block; the message is split into 26-bit pieces. */
#include "poly1305.h"

#define MASK26 0x3ffffffu

void poly1305_init(poly1305_state *st, const uint8_t key[32])
{
    uint32_t t0 = load32_le(key), t1 = load32_le(key + 4), t2 = load32_le(key + 8), t3 = load32_le(key + 12);
    uint32_t i;

    /* r &= 0x0ffffffc0ffffffc0ffffffc0fffffff (§2.5.1), split into 26-bit limbs. */
    st->r[0] = t0 & 0x3ffffff;
    st->r[1] = ((t0 >> 26) | (t1 << 6)) & 0x3ffff03;
    st->r[2] = ((t1 >> 20) | (t2 << 12)) & 0x3ffc0ff;
    st->r[3] = ((t2 >> 14) | (t3 << 18)) & 0x3f03fff;
    st->r[4] = (t3 >> 8) & 0x00fffff;
    for (i = 0; i < 4; i++) {
        st->r5[i] = st->r[i + 1] * 5;
        st->s[i] = load32_le(key + 16 + 4 * i);
    }
    for (i = 0; i < 5; i++) {
        st->h[i] = 0;
    }
}

void poly1305_blocks(poly1305_state *st, const uint8_t *m, uint32_t len, uint32_t hibit)
{
    const uint32_t r0 = st->r[0], r1 = st->r[1], r2 = st->r[2], r3 = st->r[3], r4 = st->r[4];
    const uint32_t s1 = st->r5[0], s2 = st->r5[1], s3 = st->r5[2], s4 = st->r5[3];
    uint32_t h0 = st->h[0], h1 = st->h[1], h2 = st->h[2], h3 = st->h[3], h4 = st->h[4];
    uint64_t d0, d1, d2, d3, d4;
    uint32_t c;

    hibit <<= 24;
    for (; len >= 16; len -= 16, m += 16) {
        h0 += load32_le(m) & MASK26;
        h1 += (load32_le(m + 3) >> 2) & MASK26;
        h2 += (load32_le(m + 6) >> 4) & MASK26;
        h3 += (load32_le(m + 9) >> 6) & MASK26;
        h4 += (load32_le(m + 12) >> 8) | hibit;

        d0 = (uint64_t)h0 * r0 + (uint64_t)h1 * s4 + (uint64_t)h2 * s3 + (uint64_t)h3 * s2 + (uint64_t)h4 * s1;
        d1 = (uint64_t)h0 * r1 + (uint64_t)h1 * r0 + (uint64_t)h2 * s4 + (uint64_t)h3 * s3 + (uint64_t)h4 * s2;
        d2 = (uint64_t)h0 * r2 + (uint64_t)h1 * r1 + (uint64_t)h2 * r0 + (uint64_t)h3 * s4 + (uint64_t)h4 * s3;
        d3 = (uint64_t)h0 * r3 + (uint64_t)h1 * r2 + (uint64_t)h2 * r1 + (uint64_t)h3 * r0 + (uint64_t)h4 * s4;
        d4 = (uint64_t)h0 * r4 + (uint64_t)h1 * r3 + (uint64_t)h2 * r2 + (uint64_t)h3 * r1 + (uint64_t)h4 * r0;

        c = (uint32_t)(d0 >> 26); h0 = (uint32_t)d0 & MASK26;
        d1 += c; c = (uint32_t)(d1 >> 26); h1 = (uint32_t)d1 & MASK26;
        d2 += c; c = (uint32_t)(d2 >> 26); h2 = (uint32_t)d2 & MASK26;
        d3 += c; c = (uint32_t)(d3 >> 26); h3 = (uint32_t)d3 & MASK26;
        d4 += c; c = (uint32_t)(d4 >> 26); h4 = (uint32_t)d4 & MASK26;
        h0 += c * 5; c = h0 >> 26; h0 &= MASK26;
        h1 += c;
    }
    st->h[0] = h0; st->h[1] = h1; st->h[2] = h2; st->h[3] = h3; st->h[4] = h4;
}

void poly1305_finish(poly1305_state *st, uint8_t tag[16])
{
    uint32_t h0 = st->h[0], h1 = st->h[1], h2 = st->h[2], h3 = st->h[3], h4 = st->h[4];
    uint32_t g0, g1, g2, g3, g4, c, mask;
    uint64_t f;

    /* Complete the carries: h < 2^130 with every limb < 2^26 (h1 may keep a 1-bit excess no more). */
    c = h1 >> 26; h1 &= MASK26;
    h2 += c; c = h2 >> 26; h2 &= MASK26;
    h3 += c; c = h3 >> 26; h3 &= MASK26;
    h4 += c; c = h4 >> 26; h4 &= MASK26;
    h0 += c * 5; c = h0 >> 26; h0 &= MASK26;
    h1 += c;

    /* g = h + 5 - 2^130; if it is not negative, h >= p and the result is g (branch-free select). */
    g0 = h0 + 5; c = g0 >> 26; g0 &= MASK26;
    g1 = h1 + c; c = g1 >> 26; g1 &= MASK26;
    g2 = h2 + c; c = g2 >> 26; g2 &= MASK26;
    g3 = h3 + c; c = g3 >> 26; g3 &= MASK26;
    g4 = h4 + c - (1u << 26);
    mask = (g4 >> 31) - 1;   /* all ones when g4 >= 0 */
    h0 = (h0 & ~mask) | (g0 & mask);
    h1 = (h1 & ~mask) | (g1 & mask);
    h2 = (h2 & ~mask) | (g2 & mask);
    h3 = (h3 & ~mask) | (g3 & mask);
    h4 = (h4 & ~mask) | (g4 & mask);

    /* h mod 2^128 as four 32-bit words, plus s. */
    h0 = h0 | (h1 << 26);
    h1 = (h1 >> 6) | (h2 << 20);
    h2 = (h2 >> 12) | (h3 << 14);
    h3 = (h3 >> 18) | (h4 << 8);
    f = (uint64_t)h0 + st->s[0];             store32_le(tag, (uint32_t)f);
    f = (uint64_t)h1 + st->s[1] + (f >> 32); store32_le(tag + 4, (uint32_t)f);
    f = (uint64_t)h2 + st->s[2] + (f >> 32); store32_le(tag + 8, (uint32_t)f);
    f = (uint64_t)h3 + st->s[3] + (f >> 32); store32_le(tag + 12, (uint32_t)f);
}
