/* GHASH bit by bit on bytes, the shape of wolfSSL's GCM_SMALL option (wolfcrypt/src/aes.c,
 * "#ifdef GCM_SMALL ... static void GMULT(byte* X, byte* Y)"; its benchmark prints the GMAC row
 * as "GMAC Small"). SP 800-38D §6.3 Algorithm 1 with the roles of the operands swapped (the
 * product commutes): the 128 bits of H are scanned from bit 0, V starts as X, and for each set
 * bit Z ^= V is a 16-byte XOR; V * x is a right shift of the 16 bytes one at a time, carrying
 * each byte's low bit into the next byte's top bit, then R = 0xe1 is folded into byte 0.
 * Written here from Algorithm 1 (no wolfSSL code); what it keeps from GCM_SMALL is the cost
 * shape: byte operations, a branch per bit of H (time depends on H, not on the data), and no
 * table (the context holds H only). */
#include "ghash.h"

void ghash_init(uint32_t table[GHASH_TABLE_WORDS], const uint8_t h[16])
{
    uint8_t *stored = (uint8_t *)table;
    uint32_t i;
    for (i = 0; i < 16; i++) {
        stored[i] = h[i];
    }
}

/* V = V * x on 16 bytes (bit 0 = the top bit of byte 0). */
static void times_x_bytes(uint8_t v[16])
{
    uint32_t i, carry = 0, low;
    uint8_t reduce = (uint8_t)(0xe1u & (0u - (v[15] & 1u)));
    for (i = 0; i < 16; i++) {
        low = v[i] & 1u;
        v[i] = (uint8_t)((v[i] >> 1) | (carry << 7));
        carry = low;
    }
    v[0] ^= reduce;
}

void ghash_mul(uint8_t x[16], const uint32_t table[GHASH_TABLE_WORDS])
{
    const uint8_t *h = (const uint8_t *)table;
    uint8_t z[16], v[16];
    uint32_t i, j, bits;
    for (i = 0; i < 16; i++) {
        z[i] = 0;
        v[i] = x[i];
    }
    for (i = 0; i < 16; i++) {
        bits = h[i];
        for (j = 0; j < 8; j++) {
            if (bits & 0x80u) {                            /* bit 8i+j of H is set: Z = Z xor V */
                uint32_t k;
                for (k = 0; k < 16; k++) {
                    z[k] ^= v[k];
                }
            }
            times_x_bytes(v);
            bits <<= 1;
        }
    }
    for (i = 0; i < 16; i++) {
        x[i] = z[i];
    }
}
