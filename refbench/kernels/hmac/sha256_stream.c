/* Streaming SHA-256: whole blocks are compressed straight from the caller's
 * data; only a partial block is copied. Padding per FIPS 180-4 §5.1.1. */
#include "sha256_stream.h"

void sha256_stream_init(sha256_stream *s)
{
    static const uint32_t H0[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                   0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19}; /* §5.3.3 */
    uint32_t i;

    for (i = 0; i < 8; i++) {
        s->H[i] = H0[i];
    }
    s->fill = 0;
    s->total = 0;
}

void sha256_stream_update(sha256_stream *s, const uint8_t *data, uint32_t len)
{
    s->total += len;
    while (len > 0) {
        if (s->fill == 0 && len >= 64) {
            sha256_compress(s->H, data);
            data += 64;
            len -= 64;
            continue;
        }
        s->buffer[s->fill++] = *data++;
        len--;
        if (s->fill == 64) {
            sha256_compress(s->H, s->buffer);
            s->fill = 0;
        }
    }
}

void sha256_stream_final(sha256_stream *s, uint8_t digest[32])
{
    uint32_t i, fill = s->fill;

    s->buffer[fill++] = 0x80;
    if (fill > 56) {
        while (fill < 64) {
            s->buffer[fill++] = 0;
        }
        sha256_compress(s->H, s->buffer);
        fill = 0;
    }
    while (fill < 56) {
        s->buffer[fill++] = 0;
    }
    store32_be(s->buffer + 56, s->total >> 29);
    store32_be(s->buffer + 60, s->total << 3);
    sha256_compress(s->H, s->buffer);
    for (i = 0; i < 8; i++) {
        store32_be(digest + 4 * i, s->H[i]);
    }
}
