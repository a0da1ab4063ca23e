/* SHA-224 and SHA-256 one-shot drivers shared by the variants: padding
 * (FIPS 180-4 §5.1.1), the hash of a whole message, and the leftmost words of
 * H as the digest (§6.2.2, §6.3); each variant supplies sha256_compress(). */
#include "sha256_common.h"

/* The hash of len bytes at msg from the initial hash value in H, into the
 * first out_words big-endian words of H (8 for SHA-256, 7 for SHA-224).
 * Inlined into each digest so that SHA-256 runs the same code as a driver
 * written for it alone. */
static inline __attribute__((always_inline)) void sha256_family(uint32_t H[8], const uint8_t *msg, uint32_t len, uint8_t *digest,
                          uint32_t out_words)
{
    uint8_t last[128];
    uint32_t full = len & ~63u, rest = len - full, i, nblocks;
    uint64_t bits = (uint64_t)len * 8;

    for (i = 0; i < full; i += 64) {
        sha256_compress(H, msg + i);
    }
    for (i = 0; i < rest; i++) {
        last[i] = msg[full + i];
    }
    last[rest] = 0x80;
    nblocks = (rest < 56) ? 1 : 2;
    for (i = rest + 1; i < nblocks * 64 - 8; i++) {
        last[i] = 0;
    }
    store32_be(last + nblocks * 64 - 8, (uint32_t)(bits >> 32));
    store32_be(last + nblocks * 64 - 4, (uint32_t)bits);
    for (i = 0; i < nblocks; i++) {
        sha256_compress(H, last + 64 * i);
    }
    for (i = 0; i < out_words; i++) {
        store32_be(digest + 4 * i, H[i]);
    }
}

/* The SHA-256 hash of len bytes at msg into digest[32]. */
void sha256_digest(const uint8_t *msg, uint32_t len, uint8_t *digest)
{
    uint32_t H[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                     0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19}; /* §5.3.3 */

    sha256_family(H, msg, len, digest, 8);
}

/* The SHA-224 hash of len bytes at msg into digest[28]: the SHA-256 computation
 * from the §5.3.2 initial hash value, truncated to H0..H6 (§6.3). */
void sha224_digest(const uint8_t *msg, uint32_t len, uint8_t *digest)
{
    uint32_t H[8] = {0xc1059ed8, 0x367cd507, 0x3070dd17, 0xf70e5939,
                     0xffc00b31, 0x68581511, 0x64f98fa7, 0xbefa4fa4}; /* §5.3.2 */

    sha256_family(H, msg, len, digest, 7);
}
