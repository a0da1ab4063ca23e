/* The SHA-512 family (FIPS 180-4 §6.4-6.7), unrolled: the 80 rounds of §6.4.2
 * written out eight at a time with the working variables rotated by name
 * instead of moved, over a 16-word circular message schedule, as
 * sha256/unrolled does for SHA-256. This is the speed-optimised style: wolfSSL,
 * for instance, unrolls its SHA-512 rounds unless USE_SLOW_SHA512 is defined
 * (documented there as "over twice as small, but 50% slower"). On a 32-bit
 * core every working variable is a register pair, so the eight moves per round
 * of the rolled loop cost twice as much as in SHA-256; naming the variables
 * removes them, at the price of larger code. Constants (sha512_rounds.h),
 * padding and output (sha512_digest.c) are shared with ref/sha512.c. */
#include "sha512_rounds.h"

/* §6.4.2 step 3, round t with the variables named as they stand after t mod 8 rotations:
 * T1 = h + BSIG1(e) + Ch(e,f,g) + K_t + W_t; d = d + T1; h = T1 + BSIG0(a) + Maj(a,b,c). */
#define ROUND(a, b, c, d, e, f, g, h, t)                                          \
    do {                                                                          \
        uint64_t T1_ = h + BSIG1(e) + CH(e, f, g) + K512[t] + W[(t) & 15];        \
        d += T1_;                                                                 \
        h = T1_ + BSIG0(a) + MAJ(a, b, c);                                        \
    } while (0)

/* §6.4.2 step 1 for t >= 16, in place in the 16-word window. */
#define SCHEDULE(t)                                                               \
    (W[(t) & 15] += SSIG1(W[((t) - 2) & 15]) + W[((t) - 7) & 15] +                \
                    SSIG0(W[((t) - 15) & 15]))

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

/* §6.4.2: one 1024-bit block into H. */
void sha512_compress(uint64_t H[8], const uint8_t block[128])
{
    uint64_t W[16];
    uint64_t a = H[0], b = H[1], c = H[2], d = H[3], e = H[4], f = H[5], g = H[6], h = H[7];
    uint32_t t;

    for (t = 0; t < 16; t++) {
        W[t] = load64_be(block + 8 * t);
    }
    EIGHT_ROUNDS(0);
    EIGHT_ROUNDS(8);
    for (t = 16; t < 80; t += 8) {
        SCHEDULE(t + 0); SCHEDULE(t + 1); SCHEDULE(t + 2); SCHEDULE(t + 3);
        SCHEDULE(t + 4); SCHEDULE(t + 5); SCHEDULE(t + 6); SCHEDULE(t + 7);
        EIGHT_ROUNDS(t);
    }
    H[0] += a; H[1] += b; H[2] += c; H[3] += d;
    H[4] += e; H[5] += f; H[6] += g; H[7] += h;
}
