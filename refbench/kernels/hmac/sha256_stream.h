/* A streaming SHA-256 (FIPS 180-4 §6.2) over the sha256 kernel's compression
 * function, for constructions that hash concatenations: HMAC (FIPS 198-1) and
 * Hash_DRBG (SP 800-90A). The streaming itself is md_stream.h's. */
#ifndef REFBENCH_SHA256_STREAM_H
#define REFBENCH_SHA256_STREAM_H
#include "md_stream.h"

typedef md_stream sha256_stream;

void sha256_stream_init(sha256_stream *s);
void sha256_stream_update(sha256_stream *s, const uint8_t *data, uint32_t len);
void sha256_stream_final(sha256_stream *s, uint8_t digest[32]);
#endif
