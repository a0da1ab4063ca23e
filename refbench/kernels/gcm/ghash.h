/* GHASH multiplication in GF(2^128) (NIST SP 800-38D §6.3), the part the GCM variants trade.
 *
 * Blocks are bit strings with bit 0 the most significant bit of byte 0, the coefficient of x^0
 * (§6.3); as a big-endian 128-bit integer, multiplying by x is a right shift by one and, when
 * the bit shifted out was set, XOR with R = 11100001 || 0^120 (Algorithm 1). */
#ifndef REFBENCH_GHASH_H
#define REFBENCH_GHASH_H
#include "kernel.h"

#define GHASH_TABLE_WORDS 1152       /* room for the largest variant (8-bit: 256 x 16 bytes + 256 x 2 bytes) */

/* Fill the variant's table from the hash subkey H. */
void ghash_init(uint32_t table[GHASH_TABLE_WORDS], const uint8_t h[16]);
/* x = x * H. */
void ghash_mul(uint8_t x[16], const uint32_t table[GHASH_TABLE_WORDS]);

/* V = V * x (Algorithm 1 step 3), V as four big-endian words, v[0] most significant. */
static inline void ghash_times_x(uint32_t v[4])
{
    uint32_t carry = v[3] & 1;
    v[3] = (v[3] >> 1) | (v[2] << 31);
    v[2] = (v[2] >> 1) | (v[1] << 31);
    v[1] = (v[1] >> 1) | (v[0] << 31);
    v[0] = (v[0] >> 1) ^ (0xe1000000u & (0u - carry));
}
#endif
