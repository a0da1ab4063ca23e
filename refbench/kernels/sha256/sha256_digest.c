/* SHA-256 one-shot driver shared by the variants: padding (FIPS 180-4 §5.1.1)
 * and the digest of a whole message; each variant supplies sha256_compress(). */
#include "sha256_common.h"

/* The hash of len bytes at msg into digest[32]. */
void sha256_digest(const uint8_t *msg, uint32_t len, uint8_t *digest)
{
    uint32_t H[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                     0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19}; /* §5.3.3 */
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
    for (i = 0; i < 8; i++) {
        store32_be(digest + 4 * i, H[i]);
    }
}
