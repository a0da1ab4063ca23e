/* SHA-1 one-shot driver shared by the variants: padding (FIPS 180-4 §5.1.1)
 * and the digest of a whole message; each variant supplies sha1_compress(). */
#include "sha1_common.h"

/* The hash of len bytes at msg into digest[20]. */
void sha1_digest(const uint8_t *msg, uint32_t len, uint8_t *digest)
{
    uint32_t H[5] = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0}; /* §5.3.1 */
    uint8_t last[128];
    uint32_t full = len & ~63u, rest = len - full, i, nblocks;

    for (i = 0; i < full; i += 64) {
        sha1_compress(H, msg + i);
    }
    for (i = 0; i < rest; i++) {
        last[i] = msg[full + i];
    }
    last[rest] = 0x80;
    nblocks = (rest < 56) ? 1 : 2;
    for (i = rest + 1; i < nblocks * 64 - 8; i++) {
        last[i] = 0;
    }
    store32_be(last + nblocks * 64 - 8, len >> 29);
    store32_be(last + nblocks * 64 - 4, len << 3);
    for (i = 0; i < nblocks; i++) {
        sha1_compress(H, last + 64 * i);
    }
    for (i = 0; i < 5; i++) {
        store32_be(digest + 4 * i, H[i]);
    }
}
