/* SM3 (GB/T 32905-2016) declarations shared by the variants and the digest. */
#ifndef REFBENCH_SM3_COMMON_H
#define REFBENCH_SM3_COMMON_H
#include "merkle_damgard.h"

/* §5.3: one 512-bit block (sixteen big-endian words) into the eight words of V. */
void sm3_compress(uint32_t V[8], const uint8_t block[64]);

/* SM3 as a Merkle-Damgard hash over the variant's sm3_compress (sm3_digest.c). */
extern const md_hash SM3_HASH;

void sm3_digest(const uint8_t *msg, uint32_t len, uint8_t *digest);
#endif
