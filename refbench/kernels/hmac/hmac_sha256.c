/* HMAC-SHA-256 (FIPS 198-1 §4): K0 from the key (hashed if longer than the
 * block size B = 64, then zero-padded), H((K0 ^ opad) || H((K0 ^ ipad) || text)). */
#include "sha256_stream.h"

/* The 32-byte HMAC-SHA-256 tag of len bytes at msg under key[key_len]. */
void hmac_sha256(const uint8_t *key, uint32_t key_len, const uint8_t *msg, uint32_t len, uint8_t *tag)
{
    sha256_stream s;
    uint8_t K0[64], pad[64], inner[32];
    uint32_t i;

    if (key_len > 64) {             /* step 2: K0 = H(K) || 00...00 */
        sha256_stream_init(&s);
        sha256_stream_update(&s, key, key_len);
        sha256_stream_final(&s, K0);
        key_len = 32;
    } else {                        /* steps 1, 3: K0 = K || 00...00 */
        for (i = 0; i < key_len; i++) {
            K0[i] = key[i];
        }
    }
    for (i = key_len; i < 64; i++) {
        K0[i] = 0;
    }
    for (i = 0; i < 64; i++) {      /* steps 4-6: inner hash */
        pad[i] = K0[i] ^ 0x36;
    }
    sha256_stream_init(&s);
    sha256_stream_update(&s, pad, 64);
    sha256_stream_update(&s, msg, len);
    sha256_stream_final(&s, inner);
    for (i = 0; i < 64; i++) {      /* steps 7-9: outer hash */
        pad[i] = K0[i] ^ 0x5c;
    }
    sha256_stream_init(&s);
    sha256_stream_update(&s, pad, 64);
    sha256_stream_update(&s, inner, 32);
    sha256_stream_final(&s, tag);
}
