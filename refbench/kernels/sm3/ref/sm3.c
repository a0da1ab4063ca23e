/* SM3 (GB/T 32905-2016 §5): message expansion §5.3.2 and compression
 * function CF §5.3.3 (padding §5.2 is the shared driver's, sm3_digest.c). The expansion keeps a 16-word window
 * W[j..j+15] instead of the standard's 68 + 64 words (W'_j = W_j xor W_{j+4}
 * is formed when used); the constant T_j <<< (j mod 32) is kept as a running
 * rotation. Big-endian words (§5.1). */
#include "sm3_common.h"

#define P0(x) ((x) ^ ROTL32(x, 9) ^ ROTL32(x, 17))   /* §4.4 */
#define P1(x) ((x) ^ ROTL32(x, 15) ^ ROTL32(x, 23))

void sm3_compress(uint32_t V[8], const uint8_t block[64])
{
    uint32_t W[16];
    uint32_t A = V[0], B = V[1], C = V[2], D = V[3], E = V[4], F = V[5], G = V[6], H = V[7];
    uint32_t SS1, SS2, TT1, TT2, Tj, w4, j;

    for (j = 0; j < 16; j++) {
        W[j] = load32_be(block + 4 * j);
    }
    Tj = 0x79cc4519;   /* §4.2: T_j for 0 <= j <= 15 */
    for (j = 0; j < 64; j++) {
        if (j == 16) {
            Tj = 0x9d8a7a87; /* T_j = 7a879d8a for 16 <= j <= 63, already rotated by 16 mod 32 */
        }
        /* W_{j+4} (§5.3.2 step b): W_j = P1(W_{j-16} ^ W_{j-9} ^ (W_{j-3} <<< 15)) ^ (W_{j-13} <<< 7) ^ W_{j-6}. */
        if (j + 4 >= 16) {
            uint32_t k = j + 4;
            W[k & 15] = P1(W[k & 15] ^ W[(k - 9) & 15] ^ ROTL32(W[(k - 3) & 15], 15))
                        ^ ROTL32(W[(k - 13) & 15], 7) ^ W[(k - 6) & 15];
        }
        w4 = W[(j + 4) & 15];
        SS1 = ROTL32(ROTL32(A, 12) + E + Tj, 7);
        SS2 = SS1 ^ ROTL32(A, 12);
        if (j < 16) {   /* FF_j, GG_j (§4.3) */
            TT1 = (A ^ B ^ C) + D + SS2 + (W[j & 15] ^ w4);
            TT2 = (E ^ F ^ G) + H + SS1 + W[j & 15];
        } else {
            TT1 = ((A & B) | (A & C) | (B & C)) + D + SS2 + (W[j & 15] ^ w4);
            TT2 = ((E & F) | (~E & G)) + H + SS1 + W[j & 15];
        }
        D = C;
        C = ROTL32(B, 9);
        B = A;
        A = TT1;
        H = G;
        G = ROTL32(F, 19);
        F = E;
        E = P0(TT2);
        Tj = ROTL32(Tj, 1);
    }
    V[0] ^= A; V[1] ^= B; V[2] ^= C; V[3] ^= D;
    V[4] ^= E; V[5] ^= F; V[6] ^= G; V[7] ^= H;
}
