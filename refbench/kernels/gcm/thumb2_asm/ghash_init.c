/* The table of gcm/thumb2_asm's GHASH (thumb2_asm/ghash.S): Shoup's 4-bit table of H multiples. */
#include "ghash.h"
#include "ghash_4bit_table.h"

void ghash_init(uint32_t table[GHASH_TABLE_WORDS], const uint8_t h[16])
{
    ghash_4bit_table(table, h);
}
