/* SHA-512 family (FIPS 180-4 §6.4-6.7) declarations, for the digests here and for
 * constructions that reuse the hashes (the hmac kernels). */
#ifndef REFBENCH_SHA512_COMMON_H
#define REFBENCH_SHA512_COMMON_H
#include "merkle_damgard.h"

/* §6.4.2: one 1024-bit block into the eight 64-bit words of H. */
void sha512_compress(uint64_t H[8], const uint8_t block[128]);

/* SHA-384, SHA-512, SHA-512/224 and SHA-512/256 as Merkle-Damgard hashes over the
 * variant's sha512_compress (sha512_digest.c). */
extern const md_hash SHA384_HASH;
extern const md_hash SHA512_HASH;
extern const md_hash SHA512_224_HASH;
extern const md_hash SHA512_256_HASH;

void sha384_digest(const uint8_t *msg, uint32_t len, uint8_t *digest);
void sha512_digest(const uint8_t *msg, uint32_t len, uint8_t *digest);
void sha512_224_digest(const uint8_t *msg, uint32_t len, uint8_t *digest);
void sha512_256_digest(const uint8_t *msg, uint32_t len, uint8_t *digest);
#endif
