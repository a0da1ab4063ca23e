/* GHASH with Shoup's 4-bit tables (V. Shoup, "On Fast and Provably Secure Message
 * Authentication Based on Universal Hashing", CRYPTO 1996; the GCM specification of McGrew
 * and Viega, §4.1): M[n] = n * H for the 16 four-bit polynomials n (256 bytes in the context),
 * and Horner's rule over the 32 nibbles of X from the last: Z = Z * x^4 + M[nibble].
 * The four bits shifted out by * x^4 come back reduced from the 16-entry table REM4.
 * Table lookups are indexed by data (not constant time). */
#include "ghash.h"
#include "ghash_4bit_table.h"

/* REM4[r]: the top 16 bits of the reduction of r's bits shifted out by * x^4: bit j of r
 * (the coefficient of x^(127-j)) becomes x^(128+3-j), that is R >> (3-j): 0xe100 >> (3 - j). */
static const uint16_t REM4[16] = {
    0x0000, 0x1c20, 0x3840, 0x2460, 0x7080, 0x6ca0, 0x48c0, 0x54e0,
    0xe100, 0xfd20, 0xd940, 0xc560, 0x9180, 0x8da0, 0xa9c0, 0xb5e0,
};

/* M[n] = n * H (ghash_4bit_table.h). */
void ghash_init(uint32_t table[GHASH_TABLE_WORDS], const uint8_t h[16])
{
    ghash_4bit_table(table, h);
}

void ghash_mul(uint8_t x[16], const uint32_t table[GHASH_TABLE_WORDS])
{
    const uint32_t (*m)[4] = (const uint32_t (*)[4])table;
    uint32_t z0 = 0, z1 = 0, z2 = 0, z3 = 0, r, n, half;
    int i;
    for (i = 15; i >= 0; i--) {
        for (half = 0; half < 2; half++) {
            n = half ? (uint32_t)x[i] >> 4 : (uint32_t)x[i] & 0xf;
            r = z3 & 0xf;                                          /* Z = Z * x^4 */
            z3 = (z3 >> 4) | (z2 << 28);
            z2 = (z2 >> 4) | (z1 << 28);
            z1 = (z1 >> 4) | (z0 << 28);
            z0 = (z0 >> 4) ^ ((uint32_t)REM4[r] << 16);
            z0 ^= m[n][0];                                         /* Z = Z + M[n] */
            z1 ^= m[n][1];
            z2 ^= m[n][2];
            z3 ^= m[n][3];
        }
    }
    store32_be(x, z0);
    store32_be(x + 4, z1);
    store32_be(x + 8, z2);
    store32_be(x + 12, z3);
}
