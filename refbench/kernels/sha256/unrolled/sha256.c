/* SHA-256, unrolled: the 64 rounds written out eight at a time with the
 * working variables rotated by name instead of moved (FIPS 180-4 §6.2.2), the
 * speed-optimised style of C crypto libraries. */
#include "sha256_common.h"

#define ROUND(a, b, c, d, e, f, g, h, t)                                                  \
    do {                                                                                  \
        uint32_t T1_ = h + SHA256_BSIG1(e) + SHA256_CH(e, f, g) + K256[t] + W[(t) & 15];  \
        d += T1_;                                                                         \
        h = T1_ + SHA256_BSIG0(a) + SHA256_MAJ(a, b, c);                                  \
    } while (0)

#define SCHEDULE(t)                                                                       \
    (W[(t) & 15] += SHA256_SSIG1(W[((t) - 2) & 15]) + W[((t) - 7) & 15] +                 \
                    SHA256_SSIG0(W[((t) - 15) & 15]))

#define EIGHT_ROUNDS(t)                          \
    do {                                         \
        ROUND(a, b, c, d, e, f, g, h, (t) + 0);  \
        ROUND(h, a, b, c, d, e, f, g, (t) + 1);  \
        ROUND(g, h, a, b, c, d, e, f, (t) + 2);  \
        ROUND(f, g, h, a, b, c, d, e, (t) + 3);  \
        ROUND(e, f, g, h, a, b, c, d, (t) + 4);  \
        ROUND(d, e, f, g, h, a, b, c, (t) + 5);  \
        ROUND(c, d, e, f, g, h, a, b, (t) + 6);  \
        ROUND(b, c, d, e, f, g, h, a, (t) + 7);  \
    } while (0)

void sha256_compress(uint32_t H[8], const uint8_t block[64])
{
    uint32_t W[16];
    uint32_t a = H[0], b = H[1], c = H[2], d = H[3], e = H[4], f = H[5], g = H[6], h = H[7];
    uint32_t t;

    for (t = 0; t < 16; t++) {
        W[t] = load32_be(block + 4 * t);
    }
    EIGHT_ROUNDS(0);
    EIGHT_ROUNDS(8);
    for (t = 16; t < 64; t += 8) {
        SCHEDULE(t + 0); SCHEDULE(t + 1); SCHEDULE(t + 2); SCHEDULE(t + 3);
        SCHEDULE(t + 4); SCHEDULE(t + 5); SCHEDULE(t + 6); SCHEDULE(t + 7);
        EIGHT_ROUNDS(t);
    }
    H[0] += a; H[1] += b; H[2] += c; H[3] += d;
    H[4] += e; H[5] += f; H[6] += g; H[7] += h;
}
