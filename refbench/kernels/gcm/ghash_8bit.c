/* GHASH with 8-bit tables (the GCM specification of McGrew and Viega, §4.1, "8-bit tables"):
 * M[n] = n * H for the 256 eight-bit polynomials n (4 KB in the context) and Horner's rule
 * over the 16 bytes of X from the last: Z = Z * x^8 + M[byte]. The byte shifted out by * x^8
 * comes back reduced from REM8 (256 x 16 bits, also in the context, computed here).
 * Twice fewer steps than the 4-bit table for 16 times the memory; data-indexed lookups. */
#include "ghash.h"

/* M[n] for n = b0..b7 (b0, the most significant bit, the coefficient of x^0): M[0x80] = H,
 * M[0x40] = H x, ..., M[0x01] = H x^7, and the others by linearity. REM8[r]: bit j of r (the
 * coefficient of x^(127-j)) becomes x^(128+7-j), that is R >> (7-j), whose top 16 bits are
 * 0xe100 >> (7 - j). */
void ghash_init(uint32_t table[GHASH_TABLE_WORDS], const uint8_t h[16])
{
    uint32_t (*m)[4] = (uint32_t (*)[4])table;
    uint16_t *rem8 = (uint16_t *)(table + 1024);
    uint32_t i, j, w;
    for (w = 0; w < 4; w++) {
        m[0][w] = 0;
        m[0x80][w] = load32_be(h + 4 * w);
    }
    for (i = 0x40; i > 0; i >>= 1) {
        for (w = 0; w < 4; w++) {
            m[i][w] = m[2 * i][w];
        }
        ghash_times_x(m[i]);
    }
    for (i = 2; i < 256; i <<= 1) {
        for (j = 1; j < i; j++) {
            for (w = 0; w < 4; w++) {
                m[i + j][w] = m[i][w] ^ m[j][w];
            }
        }
    }
    for (i = 0; i < 256; i++) {
        uint32_t v = 0;
        for (j = 0; j < 8; j++) {
            v ^= (0xe100u >> (7 - j)) & (0u - ((i >> j) & 1));
        }
        rem8[i] = (uint16_t)v;
    }
}

void ghash_mul(uint8_t x[16], const uint32_t table[GHASH_TABLE_WORDS])
{
    const uint32_t (*m)[4] = (const uint32_t (*)[4])table;
    const uint16_t *rem8 = (const uint16_t *)(table + 1024);
    uint32_t z0 = 0, z1 = 0, z2 = 0, z3 = 0, r, n;
    int i;
    for (i = 15; i >= 0; i--) {
        n = x[i];
        r = z3 & 0xff;                                             /* Z = Z * x^8 */
        z3 = (z3 >> 8) | (z2 << 24);
        z2 = (z2 >> 8) | (z1 << 24);
        z1 = (z1 >> 8) | (z0 << 24);
        z0 = (z0 >> 8) ^ ((uint32_t)rem8[r] << 16);
        z0 ^= m[n][0];                                             /* Z = Z + M[n] */
        z1 ^= m[n][1];
        z2 ^= m[n][2];
        z3 ^= m[n][3];
    }
    store32_be(x, z0);
    store32_be(x + 4, z1);
    store32_be(x + 8, z2);
    store32_be(x + 12, z3);
}
