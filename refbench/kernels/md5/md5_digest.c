/* The MD5 one-shot driver shared by the variants: padding (RFC 1321 §3.1-3.2,
 * the 64-bit length little-endian), the §3.3 initial buffer, the hash of a whole
 * message and the digest; each variant supplies md5_compress(). */
#include "md5_common.h"

/* The MD5 digest of len bytes at msg into digest[16] (padding: §3.1-3.2, length little-endian). */
void md5_digest(const uint8_t *msg, uint32_t len, uint8_t *digest)
{
    uint32_t H[4] = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476}; /* §3.3 */
    uint8_t last[128];
    uint32_t full = len & ~63u, rest = len - full, i, nblocks;

    for (i = 0; i < full; i += 64) {
        md5_compress(H, msg + i);
    }
    for (i = 0; i < rest; i++) {
        last[i] = msg[full + i];
    }
    last[rest] = 0x80;
    nblocks = (rest < 56) ? 1 : 2;
    for (i = rest + 1; i < nblocks * 64 - 8; i++) {
        last[i] = 0;
    }
    store32_le(last + nblocks * 64 - 8, len << 3);
    store32_le(last + nblocks * 64 - 4, len >> 29);
    for (i = 0; i < nblocks; i++) {
        md5_compress(H, last + 64 * i);
    }
    for (i = 0; i < 4; i++) {
        store32_le(digest + 4 * i, H[i]);
    }
}
