/* One-shot Poly1305 (RFC 8439 §2.5.1) shared by the limb variants: whole
 * 16-byte blocks with the 2^128 bit, then the last partial block with its
 * 0x01 byte appended and zero-padded (no 2^128 bit). */
#include "poly1305.h"

/* The 16-byte tag of len bytes at msg under the one-time key[32]. */
void poly1305_mac(const uint8_t *key, const uint8_t *msg, uint32_t len, uint8_t *tag)
{
    poly1305_state st;
    uint8_t last[16];
    uint32_t full = len & ~15u, rest = len - full, i;

    poly1305_init(&st, key);
    poly1305_blocks(&st, msg, full, 1);
    if (rest) {
        for (i = 0; i < rest; i++) {
            last[i] = msg[full + i];
        }
        last[rest] = 1;
        for (i = rest + 1; i < 16; i++) {
            last[i] = 0;
        }
        poly1305_blocks(&st, last, 16, 0);
    }
    poly1305_finish(&st, tag);
}
