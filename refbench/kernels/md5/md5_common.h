/* MD5 (RFC 1321) declarations, for the digest here and for constructions that
 * reuse the hash (the hmac kernels, RFC 2104). */
#ifndef REFBENCH_MD5_COMMON_H
#define REFBENCH_MD5_COMMON_H
#include "merkle_damgard.h"

/* RFC 1321 §3.4: one 512-bit block, read as sixteen little-endian words, into the four words of H. */
void md5_compress(uint32_t H[4], const uint8_t block[64]);

/* MD5 as a Merkle-Damgard hash over the variant's md5_compress (md5_digest.c). */
extern const md_hash MD5_HASH;

void md5_digest(const uint8_t *msg, uint32_t len, uint8_t *digest);
#endif
