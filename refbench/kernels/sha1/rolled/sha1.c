/* SHA-1, rolled: one loop of 80 rounds over the 16-word circular message
 * schedule of FIPS 180-4 §6.1.3 (the "alternate method"); small code. */
#include "sha1_common.h"

void sha1_compress(uint32_t H[5], const uint8_t block[64])
{
    uint32_t W[16];
    uint32_t a = H[0], b = H[1], c = H[2], d = H[3], e = H[4];
    uint32_t t, s, f, k, T;

    for (t = 0; t < 16; t++) {
        W[t] = load32_be(block + 4 * t);
    }
    for (t = 0; t < 80; t++) {
        s = t & 15;
        if (t >= 16) {
            W[s] = ROTL32(W[(s + 13) & 15] ^ W[(s + 8) & 15] ^ W[(s + 2) & 15] ^ W[s], 1);
        }
        if (t < 20) {
            f = SHA1_CH(b, c, d);
            k = SHA1_K0;
        } else if (t < 40) {
            f = SHA1_PARITY(b, c, d);
            k = SHA1_K1;
        } else if (t < 60) {
            f = SHA1_MAJ(b, c, d);
            k = SHA1_K2;
        } else {
            f = SHA1_PARITY(b, c, d);
            k = SHA1_K3;
        }
        T = ROTL32(a, 5) + f + e + k + W[s];
        e = d;
        d = c;
        c = ROTL32(b, 30);
        b = a;
        a = T;
    }
    H[0] += a; H[1] += b; H[2] += c; H[3] += d; H[4] += e;
}
