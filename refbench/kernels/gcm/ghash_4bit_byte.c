/* GHASH with two 16-entry 4-bit tables, a byte per step: the shape of wolfSSL's GCM_TABLE_4BIT
 * (wolfSSL 4.6.0 on, PR #3388 "AES-GCM: GMULT using 4-bit table"; wolfcrypt/src/aes.c GenerateM0
 * and GMULT, read for the algorithm, this code is refbench's own).
 *
 * Shoup's 4-bit method (ghash_4bit.c) does Z = Z * x^4 + M[nibble] twice per byte of X, two
 * 128-bit shifts by 4. Here a second table holds the same multiples already multiplied by x^4,
 * M[16 + n] = M[n] * x^4 without reduction (the four bits it drops are reduced separately), so
 * one 128-bit shift by 8 serves a whole byte. Horner's rule over the bytes of X from the last:
 *
 *     Z = (Z + M[lo]) * x^8 + M[hi] * x^4        (bytes 15 .. 1)
 *     Z = (Z + M[lo]) * x^4 + M[hi]              (byte 0)
 *
 * with lo the low nibble (the coefficients of the higher powers) and hi the high nibble. The
 * byte shifted out by * x^8 is two nibbles, n1 (shifted out first) and n2; the nibble d that
 * M[hi] * x^4 drops joins n2, reduction being linear: the top 16 bits gain
 * (REM4[n1] >> 4) ^ REM4[n2 ^ d]. Per key: 32 x 16 bytes; per byte of X: two 16-byte table
 * XORs, one 128-bit shift by 8 and two reduction lookups. Indexed by data (not constant time). */
#include "ghash.h"

/* REM4[r]: the top 16 bits of the reduction of the nibble r shifted out by * x^4 (bit j of r,
 * the coefficient of x^(127-j), becomes x^(128+3-j): R >> (3-j), 0xe100 >> (3 - j)); REM4[16 + r]
 * = REM4[r] >> 4, the same reduction after a further * x^4 (REM4's low nibble is zero, so no bit
 * is lost). */
static const uint16_t REM4[32] = {
    0x0000, 0x1c20, 0x3840, 0x2460, 0x7080, 0x6ca0, 0x48c0, 0x54e0,
    0xe100, 0xfd20, 0xd940, 0xc560, 0x9180, 0x8da0, 0xa9c0, 0xb5e0,
    0x0000, 0x01c2, 0x0384, 0x0246, 0x0708, 0x06ca, 0x048c, 0x054e,
    0x0e10, 0x0fd2, 0x0d94, 0x0c56, 0x0918, 0x08da, 0x0a9c, 0x0b5e,
};

/* M[n] for the nibble n = b0 b1 b2 b3 (b0 the coefficient of x^0): M[8] = H, M[4] = H x,
 * M[2] = H x^2, M[1] = H x^3, the others by linearity; M[16 + n] = M[n] shifted by four bits. */
void ghash_init(uint32_t table[GHASH_TABLE_WORDS], const uint8_t h[16])
{
    uint32_t (*m)[4] = (uint32_t (*)[4])table;
    uint32_t i, j, w;
    for (w = 0; w < 4; w++) {
        m[0][w] = 0;
        m[8][w] = load32_be(h + 4 * w);
    }
    for (i = 4; i > 0; i >>= 1) {
        for (w = 0; w < 4; w++) {
            m[i][w] = m[2 * i][w];
        }
        ghash_times_x(m[i]);
    }
    for (i = 2; i < 16; i <<= 1) {
        for (j = 1; j < i; j++) {
            for (w = 0; w < 4; w++) {
                m[i + j][w] = m[i][w] ^ m[j][w];
            }
        }
    }
    for (i = 0; i < 16; i++) {
        m[16 + i][3] = (m[i][3] >> 4) | (m[i][2] << 28);
        m[16 + i][2] = (m[i][2] >> 4) | (m[i][1] << 28);
        m[16 + i][1] = (m[i][1] >> 4) | (m[i][0] << 28);
        m[16 + i][0] = m[i][0] >> 4;
    }
}

void ghash_mul(uint8_t x[16], const uint32_t table[GHASH_TABLE_WORDS])
{
    const uint32_t (*m)[4] = (const uint32_t (*)[4])table;
    uint32_t z0 = 0, z1 = 0, z2 = 0, z3 = 0, r, lo, hi;
    int i;
    for (i = 15; i > 0; i--) {
        lo = (uint32_t)x[i] & 0xf;
        hi = (uint32_t)x[i] >> 4;
        z0 ^= m[lo][0];                                            /* Z = Z + M[lo] */
        z1 ^= m[lo][1];
        z2 ^= m[lo][2];
        z3 ^= m[lo][3];
        r = z3 & 0xff;                                             /* Z = Z * x^8 */
        z3 = (z3 >> 8) | (z2 << 24);
        z2 = (z2 >> 8) | (z1 << 24);
        z1 = (z1 >> 8) | (z0 << 24);
        z0 = z0 >> 8;
        r ^= (m[hi][3] & 0xf) << 4;                                /* + the nibble M[hi] * x^4 drops */
        z0 ^= ((uint32_t)REM4[16 + (r & 0xf)] ^ REM4[r >> 4]) << 16;
        z0 ^= m[16 + hi][0];                                       /* Z = Z + M[hi] * x^4 */
        z1 ^= m[16 + hi][1];
        z2 ^= m[16 + hi][2];
        z3 ^= m[16 + hi][3];
    }
    lo = (uint32_t)x[0] & 0xf;
    hi = (uint32_t)x[0] >> 4;
    z0 ^= m[lo][0];
    z1 ^= m[lo][1];
    z2 ^= m[lo][2];
    z3 ^= m[lo][3];
    r = z3 & 0xf;                                                  /* Z = Z * x^4 */
    z3 = (z3 >> 4) | (z2 << 28);
    z2 = (z2 >> 4) | (z1 << 28);
    z1 = (z1 >> 4) | (z0 << 28);
    z0 = (z0 >> 4) ^ ((uint32_t)REM4[r] << 16);
    z0 ^= m[hi][0];                                                /* Z = Z + M[hi] */
    z1 ^= m[hi][1];
    z2 ^= m[hi][2];
    z3 ^= m[hi][3];
    store32_be(x, z0);
    store32_be(x + 4, z1);
    store32_be(x + 8, z2);
    store32_be(x + 12, z3);
}
