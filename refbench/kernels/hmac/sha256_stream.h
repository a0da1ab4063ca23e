/* A streaming SHA-256 (FIPS 180-4 §6.2) over the sha256 kernel's compression
 * function, for constructions that hash concatenations: HMAC (FIPS 198-1) and
 * Hash_DRBG (SP 800-90A). */
#ifndef REFBENCH_SHA256_STREAM_H
#define REFBENCH_SHA256_STREAM_H
#include "sha256_common.h"

typedef struct {
    uint32_t H[8];
    uint8_t buffer[64];
    uint32_t fill;    /* bytes waiting in buffer */
    uint32_t total;   /* bytes hashed so far (messages here stay below 2^29 bytes) */
} sha256_stream;

void sha256_stream_init(sha256_stream *s);
void sha256_stream_update(sha256_stream *s, const uint8_t *data, uint32_t len);
void sha256_stream_final(sha256_stream *s, uint8_t digest[32]);
#endif
