/* XTEA (Needham and Wheeler, "Tea extensions", 1997): 64-bit block, 128-bit key, 32 cycles of two
 * Feistel rounds. Tutorial 8's example of your own kernel: plain C, no library, no globals. */
#include <stdint.h>

void xtea_encrypt(uint32_t v[2], const uint32_t key[4], uint32_t cycles)
{
    uint32_t v0 = v[0], v1 = v[1], sum = 0;
    const uint32_t delta = 0x9E3779B9u;
    for (uint32_t i = 0; i < cycles; i++) {
        v0 += (((v1 << 4) ^ (v1 >> 5)) + v1) ^ (sum + key[sum & 3]);
        sum += delta;
        v1 += (((v0 << 4) ^ (v0 >> 5)) + v0) ^ (sum + key[(sum >> 11) & 3]);
    }
    v[0] = v0;
    v[1] = v1;
}
