/* SHA-1, unrolled: FIPS 180-4 §6.1.2 with the rounds written out five at a
 * time. Instead of moving a..e every round, each round updates e and b in
 * place and the next round names the variables rotated by one, so five rounds
 * bring them back to their places. The 16-word schedule is expanded in place
 * (§6.1.3). Larger code, no per-round branches or moves. */
#include "sha1_common.h"

#define W16(t) (W[(t) & 15] = ROTL32(W[((t) + 13) & 15] ^ W[((t) + 8) & 15] ^ W[((t) + 2) & 15] ^ W[(t) & 15], 1))

/* One round: e += ROTL5(a) + f(b,c,d) + K + w; b = ROTL30(b). */
#define ROUND(a, b, c, d, e, F, K, w)                 \
    do {                                              \
        e += ROTL32(a, 5) + F(b, c, d) + (K) + (w);   \
        b = ROTL32(b, 30);                            \
    } while (0)

#define FIVE(t, F, K, WF)                         \
    do {                                          \
        ROUND(a, b, c, d, e, F, K, WF((t) + 0));  \
        ROUND(e, a, b, c, d, F, K, WF((t) + 1));  \
        ROUND(d, e, a, b, c, F, K, WF((t) + 2));  \
        ROUND(c, d, e, a, b, F, K, WF((t) + 3));  \
        ROUND(b, c, d, e, a, F, K, WF((t) + 4));  \
    } while (0)

#define W0(t) (W[t])

void sha1_compress(uint32_t H[5], const uint8_t block[64])
{
    uint32_t W[16];
    uint32_t a = H[0], b = H[1], c = H[2], d = H[3], e = H[4];
    uint32_t t;

    for (t = 0; t < 16; t++) {
        W[t] = load32_be(block + 4 * t);
    }
    FIVE(0, SHA1_CH, SHA1_K0, W0);
    FIVE(5, SHA1_CH, SHA1_K0, W0);
    FIVE(10, SHA1_CH, SHA1_K0, W0);
    ROUND(a, b, c, d, e, SHA1_CH, SHA1_K0, W[15]);
    ROUND(e, a, b, c, d, SHA1_CH, SHA1_K0, W16(16));
    ROUND(d, e, a, b, c, SHA1_CH, SHA1_K0, W16(17));
    ROUND(c, d, e, a, b, SHA1_CH, SHA1_K0, W16(18));
    ROUND(b, c, d, e, a, SHA1_CH, SHA1_K0, W16(19));
    FIVE(20, SHA1_PARITY, SHA1_K1, W16);
    FIVE(25, SHA1_PARITY, SHA1_K1, W16);
    FIVE(30, SHA1_PARITY, SHA1_K1, W16);
    FIVE(35, SHA1_PARITY, SHA1_K1, W16);
    FIVE(40, SHA1_MAJ, SHA1_K2, W16);
    FIVE(45, SHA1_MAJ, SHA1_K2, W16);
    FIVE(50, SHA1_MAJ, SHA1_K2, W16);
    FIVE(55, SHA1_MAJ, SHA1_K2, W16);
    FIVE(60, SHA1_PARITY, SHA1_K3, W16);
    FIVE(65, SHA1_PARITY, SHA1_K3, W16);
    FIVE(70, SHA1_PARITY, SHA1_K3, W16);
    FIVE(75, SHA1_PARITY, SHA1_K3, W16);
    H[0] += a; H[1] += b; H[2] += c; H[3] += d; H[4] += e;
}
