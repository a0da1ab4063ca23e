/* SM3 (GB/T 32905-2016 §5), unrolled: the 64 rounds of the compression
 * function CF (§5.3.3) written out four at a time with the eight registers
 * rotated by name instead of moved, sixteen rounds per pass over a 16-word
 * window of the expansion (§5.3.2) whose indices are constants, and the
 * rotated round constants T_j <<< (j mod 32) read from a table. This is the
 * speed style of libraries that unroll SM3 (OpenSSL's crypto/sm3 goes further
 * and writes all 64 rounds out with the message words in locals); it trades
 * code size for speed. Padding (§5.2) and output are the shared Merkle-Damgard
 * driver's (common/merkle_damgard.h, through sm3_digest.c). */
#include "sm3_common.h"

#define P0(x) ((x) ^ ROTL32(x, 9) ^ ROTL32(x, 17))   /* §4.4 */
#define P1(x) ((x) ^ ROTL32(x, 15) ^ ROTL32(x, 23))
/* §4.3: FF_j, GG_j for 0 <= j <= 15 (FF0, GG0) and 16 <= j <= 63 (FF1, GG1), the latter
 * written with one operation fewer than the standard's forms. */
#define FF0(x, y, z) ((x) ^ (y) ^ (z))
#define GG0(x, y, z) ((x) ^ (y) ^ (z))
#define FF1(x, y, z) (((x) & (y)) | ((z) & ((x) | (y))))
#define GG1(x, y, z) ((z) ^ ((x) & ((y) ^ (z))))

/* §4.2 and §5.3.3: T_j <<< (j mod 32), T_j = 79cc4519 (j < 16) or 7a879d8a (j >= 16). */
static const uint32_t TJ_ROTATED[64] = {
    0x79cc4519, 0xf3988a32, 0xe7311465, 0xce6228cb,
    0x9cc45197, 0x3988a32f, 0x7311465e, 0xe6228cbc,
    0xcc451979, 0x988a32f3, 0x311465e7, 0x6228cbce,
    0xc451979c, 0x88a32f39, 0x11465e73, 0x228cbce6,
    0x9d8a7a87, 0x3b14f50f, 0x7629ea1e, 0xec53d43c,
    0xd8a7a879, 0xb14f50f3, 0x629ea1e7, 0xc53d43ce,
    0x8a7a879d, 0x14f50f3b, 0x29ea1e76, 0x53d43cec,
    0xa7a879d8, 0x4f50f3b1, 0x9ea1e762, 0x3d43cec5,
    0x7a879d8a, 0xf50f3b14, 0xea1e7629, 0xd43cec53,
    0xa879d8a7, 0x50f3b14f, 0xa1e7629e, 0x43cec53d,
    0x879d8a7a, 0x0f3b14f5, 0x1e7629ea, 0x3cec53d4,
    0x79d8a7a8, 0xf3b14f50, 0xe7629ea1, 0xcec53d43,
    0x9d8a7a87, 0x3b14f50f, 0x7629ea1e, 0xec53d43c,
    0xd8a7a879, 0xb14f50f3, 0x629ea1e7, 0xc53d43ce,
    0x8a7a879d, 0x14f50f3b, 0x29ea1e76, 0x53d43cec,
    0xa7a879d8, 0x4f50f3b1, 0x9ea1e762, 0x3d43cec5,
};

/* §5.3.2 step b in place: W_k into slot i = k mod 16, from
 * W_{k-16} (slot i), W_{k-9} (i + 7), W_{k-3} (i + 13), W_{k-13} (i + 3), W_{k-6} (i + 10). */
#define EXPAND(i)                                                                        \
    (W[i] = P1(W[i] ^ W[((i) + 7) & 15] ^ ROTL32(W[((i) + 13) & 15], 15))                \
            ^ ROTL32(W[((i) + 3) & 15], 7) ^ W[((i) + 10) & 15])

#define EXPAND4(i) do { EXPAND(i); EXPAND((i) + 1); EXPAND((i) + 2); EXPAND((i) + 3); } while (0)

/* §5.3.3 round j with W_j in slot w and W'_j = W_j xor W_{j+4}. The standard's moves
 * (D = C, C = B <<< 9, B = A, A = TT1, H = G, G = F <<< 19, F = E, E = P0(TT2)) become:
 * TT1 into D, B <<< 9 in place, P0(TT2) into H, F <<< 19 in place; the next round then
 * names the registers (D, A, B, C, H, E, F, G). */
#define ROUND(A, B, C, D, E, F, G, H, FF, GG, w, t)                     \
    do {                                                                \
        uint32_t A12_ = ROTL32(A, 12);                                  \
        uint32_t SS1_ = ROTL32(A12_ + E + (t), 7);                      \
        uint32_t SS2_ = SS1_ ^ A12_;                                    \
        D = FF(A, B, C) + D + SS2_ + (W[w] ^ W[((w) + 4) & 15]);        \
        H = GG(E, F, G) + H + SS1_ + W[w];                              \
        B = ROTL32(B, 9);                                               \
        F = ROTL32(F, 19);                                              \
        H = P0(H);                                                      \
    } while (0)

#define FOUR_ROUNDS(FF, GG, w)                                          \
    do {                                                                \
        ROUND(A, B, C, D, E, F, G, H, FF, GG, (w) + 0, Tj[(w) + 0]);   \
        ROUND(D, A, B, C, H, E, F, G, FF, GG, (w) + 1, Tj[(w) + 1]);   \
        ROUND(C, D, A, B, G, H, E, F, FF, GG, (w) + 2, Tj[(w) + 2]);   \
        ROUND(B, C, D, A, F, G, H, E, FF, GG, (w) + 3, Tj[(w) + 3]);   \
    } while (0)

void sm3_compress(uint32_t V[8], const uint8_t block[64])
{
    uint32_t W[16];
    uint32_t A = V[0], B = V[1], C = V[2], D = V[3], E = V[4], F = V[5], G = V[6], H = V[7];
    const uint32_t *Tj = TJ_ROTATED;
    uint32_t j;

    for (j = 0; j < 16; j++) {
        W[j] = load32_be(block + 4 * j);
    }
    /* Rounds 0-15: rounds j..j+3 read W_j..W_{j+7}; W_16..W_19 are formed before rounds 12-15. */
    FOUR_ROUNDS(FF0, GG0, 0);
    FOUR_ROUNDS(FF0, GG0, 4);
    FOUR_ROUNDS(FF0, GG0, 8);
    EXPAND4(0);
    FOUR_ROUNDS(FF0, GG0, 12);
    /* Rounds 16-63, sixteen per pass (W_64..W_67 are formed for rounds 60-63). */
    for (j = 16; j < 64; j += 16) {
        Tj = TJ_ROTATED + j;
        EXPAND4(4);
        FOUR_ROUNDS(FF1, GG1, 0);
        EXPAND4(8);
        FOUR_ROUNDS(FF1, GG1, 4);
        EXPAND4(12);
        FOUR_ROUNDS(FF1, GG1, 8);
        EXPAND4(0);
        FOUR_ROUNDS(FF1, GG1, 12);
    }
    V[0] ^= A; V[1] ^= B; V[2] ^= C; V[3] ^= D;
    V[4] ^= E; V[5] ^= F; V[6] ^= G; V[7] ^= H;
}
