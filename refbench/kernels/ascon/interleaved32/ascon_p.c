/* Ascon-p on bit-interleaved 32-bit words, SP 800-232 §3: each 64-bit word
 * S_k is kept as e (its even bits) and o (its odd bits). The S-box is bitwise,
 * so it runs on e and o alike; a 64-bit rotation right by 2m is a rotation of
 * both words by m, and by 2m + 1 swaps them: e' = o >>> m, o' = e >>> (m + 1).
 * Every rotation of p_L is then a single 32-bit rotation (free in the next
 * ARMv7-M data instruction). Words are (de)interleaved at load and extract. */
#include "ascon.h"
#include "ascon_constants.h"

#define ROR(x, n) (((x) >> (n)) | ((x) << ((32 - (n)) & 31)))
/* The even and odd word of (e, o) rotated right by n as a 64-bit word (n a constant). */
#define ROTR_E(e, o, n) (((n) & 1) ? ROR(o, (n) >> 1) : ROR(e, (n) >> 1))
#define ROTR_O(e, o, n) (((n) & 1) ? ROR(e, ((n) >> 1) + 1) : ROR(o, (n) >> 1))
/* p_L on one word: S ^= (S >>> a) ^ (S >>> b). */
#define LINEAR(e, o, a, b)                                              \
    do {                                                                \
        uint32_t e_ = (e), o_ = (o);                                    \
        (e) = e_ ^ ROTR_E(e_, o_, a) ^ ROTR_E(e_, o_, b);               \
        (o) = o_ ^ ROTR_O(e_, o_, a) ^ ROTR_O(e_, o_, b);               \
    } while (0)

/* Move the even bits of x to its low half and the odd bits to its high half. */
static uint32_t unzip32(uint32_t x)
{
    uint32_t t;

    t = (x ^ (x >> 1)) & 0x22222222u; x ^= t ^ (t << 1);
    t = (x ^ (x >> 2)) & 0x0c0c0c0cu; x ^= t ^ (t << 2);
    t = (x ^ (x >> 4)) & 0x00f000f0u; x ^= t ^ (t << 4);
    t = (x ^ (x >> 8)) & 0x0000ff00u; x ^= t ^ (t << 8);
    return x;
}

/* The inverse of unzip32. */
static uint32_t zip32(uint32_t x)
{
    uint32_t t;

    t = (x ^ (x >> 8)) & 0x0000ff00u; x ^= t ^ (t << 8);
    t = (x ^ (x >> 4)) & 0x00f000f0u; x ^= t ^ (t << 4);
    t = (x ^ (x >> 2)) & 0x0c0c0c0cu; x ^= t ^ (t << 2);
    t = (x ^ (x >> 1)) & 0x22222222u; x ^= t ^ (t << 1);
    return x;
}

void ascon_xor_word(ascon_state *s, uint32_t k, const uint8_t bytes[8])
{
    uint32_t lo = unzip32(load32_le(bytes)), hi = unzip32(load32_le(bytes + 4));

    s->w[2 * k] ^= (lo & 0xffffu) | (hi << 16);
    s->w[2 * k + 1] ^= (lo >> 16) | (hi & 0xffff0000u);
}

void ascon_extract_word(const ascon_state *s, uint32_t k, uint8_t bytes[8])
{
    uint32_t e = s->w[2 * k], o = s->w[2 * k + 1];

    store32_le(bytes, zip32((e & 0xffffu) | (o << 16)));
    store32_le(bytes + 4, zip32((e >> 16) | (o & 0xffff0000u)));
}

/* The bitsliced S-box of §3.3 on one 32-bit slice of each of the five words. */
#define SBOX(x0, x1, x2, x3, x4)                                                         \
    do {                                                                                 \
        uint32_t t0, t1, t2, t3, t4;                                                     \
        x0 ^= x4; x4 ^= x3; x2 ^= x1;                                                    \
        t0 = ~x0 & x1; t1 = ~x1 & x2; t2 = ~x2 & x3; t3 = ~x3 & x4; t4 = ~x4 & x0;       \
        x0 ^= t1; x1 ^= t2; x2 ^= t3; x3 ^= t4; x4 ^= t0;                                \
        x1 ^= x0; x0 ^= x4; x3 ^= x2; x2 = ~x2;                                          \
    } while (0)

void ascon_permute(ascon_state *s, uint32_t rounds)
{
    uint32_t e0 = s->w[0], o0 = s->w[1], e1 = s->w[2], o1 = s->w[3], e2 = s->w[4], o2 = s->w[5];
    uint32_t e3 = s->w[6], o3 = s->w[7], e4 = s->w[8], o4 = s->w[9];
    const uint8_t *rc = ascon_rc_bi + 2 * (12 - rounds);
    const uint8_t *end = ascon_rc_bi + 24;

    for (; rc < end; rc += 2) {
        e2 ^= rc[0];                        /* p_C */
        o2 ^= rc[1];
        SBOX(e0, e1, e2, e3, e4);           /* p_S on even and odd slices */
        SBOX(o0, o1, o2, o3, o4);
        LINEAR(e0, o0, 19, 28);             /* p_L */
        LINEAR(e1, o1, 61, 39);
        LINEAR(e2, o2, 1, 6);
        LINEAR(e3, o3, 10, 17);
        LINEAR(e4, o4, 7, 41);
    }
    s->w[0] = e0; s->w[1] = o0; s->w[2] = e1; s->w[3] = o1; s->w[4] = e2;
    s->w[5] = o2; s->w[6] = e3; s->w[7] = o3; s->w[8] = e4; s->w[9] = o4;
}
