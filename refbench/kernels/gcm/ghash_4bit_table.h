/* Shoup's 4-bit table of H multiples (V. Shoup, CRYPTO 1996; McGrew and Viega's GCM
 * specification, §4.1): table[4 n .. 4 n + 3] = n * H as four big-endian words, for the 16
 * four-bit polynomials n; shared by gcm/ghash_4bit (C) and gcm/thumb2_asm (Thumb-2). */
#ifndef REFBENCH_GHASH_4BIT_TABLE_H
#define REFBENCH_GHASH_4BIT_TABLE_H
#include "ghash.h"

/* M[n] for the nibble n = b0 b1 b2 b3 (b0 the coefficient of x^0): M[8] = H, M[4] = H x,
 * M[2] = H x^2, M[1] = H x^3, and the others by linearity. */
static inline void ghash_4bit_table(uint32_t table[GHASH_TABLE_WORDS], const uint8_t h[16])
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
}
#endif
