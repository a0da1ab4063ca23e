/* SHA-1 (FIPS 180-4 §6.1) declarations shared by the variants, the digest and the
 * constructions that reuse the hash (the hmac kernels). */
#ifndef REFBENCH_SHA1_COMMON_H
#define REFBENCH_SHA1_COMMON_H
#include "merkle_damgard.h"

/* FIPS 180-4 §4.2.1: floor(2^30 * sqrt(2)), sqrt(3), sqrt(5), sqrt(10). */
#define SHA1_K0 0x5a827999u
#define SHA1_K1 0x6ed9eba1u
#define SHA1_K2 0x8f1bbcdcu
#define SHA1_K3 0xca62c1d6u

/* §4.1.1 functions f_t: Ch (t < 20), Parity (20-39, 60-79), Maj (40-59). */
#define SHA1_CH(x, y, z) ((z) ^ ((x) & ((y) ^ (z))))
#define SHA1_PARITY(x, y, z) ((x) ^ (y) ^ (z))
#define SHA1_MAJ(x, y, z) (((x) & (y)) | ((z) & ((x) | (y))))

/* §6.1.2: one 512-bit block into the five words of H. */
void sha1_compress(uint32_t H[5], const uint8_t block[64]);

/* SHA-1 as a Merkle-Damgard hash over the variant's sha1_compress (sha1_digest.c). */
extern const md_hash SHA1_HASH;

void sha1_digest(const uint8_t *msg, uint32_t len, uint8_t *digest);
#endif
