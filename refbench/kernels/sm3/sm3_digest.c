/* The SM3 one-shot driver shared by the variants: padding (GB/T 32905-2016 §5.2),
 * the initial value IV (§4.1), the hash of a whole message and the digest; each
 * variant supplies sm3_compress(). */
#include "sm3_common.h"

/* The SM3 hash of len bytes at msg into digest[32]. */
void sm3_digest(const uint8_t *msg, uint32_t len, uint8_t *digest)
{
    uint32_t V[8] = {0x7380166f, 0x4914b2b9, 0x172442d7, 0xda8a0600,
                     0xa96f30bc, 0x163138aa, 0xe38dee4d, 0xb0fb0e4e}; /* §4.1 IV */
    uint8_t last[128];
    uint32_t full = len & ~63u, rest = len - full, i, nblocks;

    for (i = 0; i < full; i += 64) {
        sm3_compress(V, msg + i);
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
        sm3_compress(V, last + 64 * i);
    }
    for (i = 0; i < 8; i++) {
        store32_be(digest + 4 * i, V[i]);
    }
}
