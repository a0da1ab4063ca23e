/* SHA-256, rolled: one loop of 64 rounds over a 16-word circular message
 * schedule (FIPS 180-4 §6.2.2 with the §6.2 "alternate" 16-word W). Small code,
 * the size-optimised style of most embedded libraries (-Os). */
#include "sha256_common.h"

void sha256_compress(uint32_t H[8], const uint8_t block[64])
{
    uint32_t W[16];
    uint32_t a = H[0], b = H[1], c = H[2], d = H[3], e = H[4], f = H[5], g = H[6], h = H[7];
    uint32_t t, T1, T2;

    for (t = 0; t < 16; t++) {
        W[t] = load32_be(block + 4 * t);
    }
    for (t = 0; t < 64; t++) {
        if (t >= 16) {
            W[t & 15] += SHA256_SSIG1(W[(t - 2) & 15]) + W[(t - 7) & 15] + SHA256_SSIG0(W[(t - 15) & 15]);
        }
        T1 = h + SHA256_BSIG1(e) + SHA256_CH(e, f, g) + K256[t] + W[t & 15];
        T2 = SHA256_BSIG0(a) + SHA256_MAJ(a, b, c);
        h = g;
        g = f;
        f = e;
        e = d + T1;
        d = c;
        c = b;
        b = a;
        a = T1 + T2;
    }
    H[0] += a; H[1] += b; H[2] += c; H[3] += d;
    H[4] += e; H[5] += f; H[6] += g; H[7] += h;
}
