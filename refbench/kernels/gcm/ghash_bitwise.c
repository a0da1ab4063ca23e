/* GHASH without a table: SP 800-38D §6.3 Algorithm 1, bit by bit (128 conditional XORs and
 * shifts per block). Conditions are masks, not branches, so the time does not depend on data.
 * The table holds only H (16 bytes). */
#include "ghash.h"

void ghash_init(uint32_t table[GHASH_TABLE_WORDS], const uint8_t h[16])
{
    uint32_t i;
    for (i = 0; i < 4; i++) {
        table[i] = load32_be(h + 4 * i);
    }
}

void ghash_mul(uint8_t x[16], const uint32_t table[GHASH_TABLE_WORDS])
{
    uint32_t v[4] = {table[0], table[1], table[2], table[3]};
    uint32_t z0 = 0, z1 = 0, z2 = 0, z3 = 0, i, bit, mask;
    for (i = 0; i < 16; i++) {
        for (bit = 8; bit-- > 0;) {
            mask = 0u - (((uint32_t)x[i] >> bit) & 1);    /* x_i of Algorithm 1 step 2 */
            z0 ^= v[0] & mask;
            z1 ^= v[1] & mask;
            z2 ^= v[2] & mask;
            z3 ^= v[3] & mask;
            ghash_times_x(v);
        }
    }
    store32_be(x, z0);
    store32_be(x + 4, z1);
    store32_be(x + 8, z2);
    store32_be(x + 12, z3);
}
