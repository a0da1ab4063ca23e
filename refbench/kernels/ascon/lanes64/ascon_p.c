/* Ascon-p with 64-bit lanes (uint64_t), SP 800-232 §3: p_C, the bitsliced
 * 5-bit S-box p_S, the linear layer p_L with 64-bit rotations. On a 32-bit
 * core each lane is two registers and each rotation a shift pair per half. */
#include "ascon.h"

#define ROTR64(x, n) (((x) >> (n)) | ((x) << (64 - (n))))

void ascon_xor_word(ascon_state *s, uint32_t k, const uint8_t bytes[8])
{
    s->q[k] ^= (uint64_t)load32_le(bytes) | ((uint64_t)load32_le(bytes + 4) << 32);
}

void ascon_extract_word(const ascon_state *s, uint32_t k, uint8_t bytes[8])
{
    store32_le(bytes, (uint32_t)s->q[k]);
    store32_le(bytes + 4, (uint32_t)(s->q[k] >> 32));
}

void ascon_permute(ascon_state *s, uint32_t rounds)
{
    uint64_t x0 = s->q[0], x1 = s->q[1], x2 = s->q[2], x3 = s->q[3], x4 = s->q[4];
    uint64_t t0, t1, t2, t3, t4;
    uint32_t c;

    /* c_i = ((0xf - j) << 4) | j, j = i - 4: 0xf0, 0xe1, ..., 0x4b, falling by 0x0f per round. */
    for (c = 0xf0 - 0x0f * (12 - rounds); c >= 0x4b; c -= 0x0f) {
        x2 ^= c;                                  /* p_C (§3.2) */
        x0 ^= x4; x4 ^= x3; x2 ^= x1;             /* p_S (§3.3), bitsliced */
        t0 = ~x0 & x1; t1 = ~x1 & x2; t2 = ~x2 & x3; t3 = ~x3 & x4; t4 = ~x4 & x0;
        x0 ^= t1; x1 ^= t2; x2 ^= t3; x3 ^= t4; x4 ^= t0;
        x1 ^= x0; x0 ^= x4; x3 ^= x2; x2 = ~x2;
        x0 ^= ROTR64(x0, 19) ^ ROTR64(x0, 28);     /* p_L (§3.4) */
        x1 ^= ROTR64(x1, 61) ^ ROTR64(x1, 39);
        x2 ^= ROTR64(x2, 1) ^ ROTR64(x2, 6);
        x3 ^= ROTR64(x3, 10) ^ ROTR64(x3, 17);
        x4 ^= ROTR64(x4, 7) ^ ROTR64(x4, 41);
    }
    s->q[0] = x0; s->q[1] = x1; s->q[2] = x2; s->q[3] = x3; s->q[4] = x4;
}
