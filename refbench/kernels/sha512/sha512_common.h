/* SHA-512 family (FIPS 180-4 §6.4-6.7) declarations, for the digests here and
 * for constructions that reuse the compression (the hmac kernels). */
#ifndef REFBENCH_SHA512_COMMON_H
#define REFBENCH_SHA512_COMMON_H
#include "kernel.h"

/* §6.4.2: one 1024-bit block into the eight 64-bit words of H. */
void sha512_compress(uint64_t H[8], const uint8_t block[128]);

void sha384_digest(const uint8_t *msg, uint32_t len, uint8_t *digest);
void sha512_digest(const uint8_t *msg, uint32_t len, uint8_t *digest);
void sha512_224_digest(const uint8_t *msg, uint32_t len, uint8_t *digest);
void sha512_256_digest(const uint8_t *msg, uint32_t len, uint8_t *digest);
#endif
