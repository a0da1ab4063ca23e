/* The SHA-512 family (FIPS 180-4 §6.4-6.7): SHA-384, SHA-512, SHA-512/224 and
 * SHA-512/256 share one compression function on 64-bit words (uint64_t). On ARMv7-M the
 * compiler builds 64-bit rotations from pairs of 32-bit shifts and ORRs (the
 * barrel shifter folds one shift into each ORR); on ARMv6-M (M0/M0+), which
 * has no shifted operands, every 64-bit rotation becomes a longer sequence of
 * separate shifts, and variable 64-bit shifts go through __aeabi_llsl/llsr. */
#include "sha512_rounds.h"

/* §6.4.2: one 1024-bit block into H, with a 16-word circular message schedule. */
void sha512_compress(uint64_t H[8], const uint8_t block[128])
{
    uint64_t W[16];
    uint64_t a = H[0], b = H[1], c = H[2], d = H[3], e = H[4], f = H[5], g = H[6], h = H[7];
    uint64_t T1, T2;
    uint32_t t;

    for (t = 0; t < 16; t++) {
        W[t] = load64_be(block + 8 * t);
    }
    for (t = 0; t < 80; t++) {
        if (t >= 16) {
            W[t & 15] += SSIG1(W[(t - 2) & 15]) + W[(t - 7) & 15] + SSIG0(W[(t - 15) & 15]);
        }
        T1 = h + BSIG1(e) + CH(e, f, g) + K512[t] + W[t & 15];
        T2 = BSIG0(a) + MAJ(a, b, c);
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
