/* TDEA with DES (FIPS 46-3) in the combined S-box/permutation ("SP") table form: f(R, K) is
 * eight lookups in 8 x 64 words (2 KB), the expansion E is eight rotations of R, and IP / IP^-1
 * are five SWAPMOVE steps each (the bit-matrix form of the initial permutation used by
 * Outerbridge's and most later C DES code, checked against FIPS 46-3's table by the tests).
 * Between the three DES operations IP^-1 then IP cancel, so IP and IP^-1 run once per block. */
#include "tdea.h"
#include "des_tables.h"

#define SWAPMOVE(a, b, mask, n)                        \
    do {                                               \
        uint32_t tmp_ = (((a) >> (n)) ^ (b)) & (mask); \
        (b) ^= tmp_;                                   \
        (a) ^= tmp_ << (n);                            \
    } while (0)

static void initial_permutation(uint32_t *l, uint32_t *r)
{
    SWAPMOVE(*l, *r, 0x0f0f0f0fu, 4);
    SWAPMOVE(*l, *r, 0x0000ffffu, 16);
    SWAPMOVE(*r, *l, 0x33333333u, 2);
    SWAPMOVE(*r, *l, 0x00ff00ffu, 8);
    SWAPMOVE(*l, *r, 0x55555555u, 1);
}

static void final_permutation(uint32_t *l, uint32_t *r)
{
    SWAPMOVE(*l, *r, 0x55555555u, 1);
    SWAPMOVE(*r, *l, 0x00ff00ffu, 8);
    SWAPMOVE(*r, *l, 0x33333333u, 2);
    SWAPMOVE(*l, *r, 0x0000ffffu, 16);
    SWAPMOVE(*l, *r, 0x0f0f0f0fu, 4);
}

/* KS (FIPS 46-3 Appendix 2): PC-1, left rotations of C and D, PC-2; each 48-bit Kn kept as its
 * eight 6-bit groups B1..B8. */
static void des_key_schedule(uint8_t sk[16][8], const uint8_t key[8])
{
    uint32_t c = 0, d = 0, n, i, bit, shift;
    for (i = 0; i < 56; i++) {
        n = des_pc1[i] - 1u;
        bit = ((uint32_t)key[n >> 3] >> (7 - (n & 7))) & 1;
        if (i < 28) {
            c = (c << 1) | bit;
        } else {
            d = (d << 1) | bit;
        }
    }
    for (n = 0; n < 16; n++) {
        shift = des_shifts[n];
        c = ((c << shift) | (c >> (28 - shift))) & 0x0fffffffu;
        d = ((d << shift) | (d >> (28 - shift))) & 0x0fffffffu;
        for (i = 0; i < 8; i++) {
            sk[n][i] = 0;
        }
        for (i = 0; i < 48; i++) {
            uint32_t from = des_pc2[i];    /* 1..28 in C, 29..56 in D */
            bit = from <= 28 ? (c >> (28 - from)) & 1 : (d >> (56 - from)) & 1;
            sk[n][i / 6] |= (uint8_t)(bit << (5 - i % 6));
        }
    }
}

void tdea_setkey(void *ctx, const uint8_t *key, uint32_t key_len)
{
    uint8_t (*sk)[16][8] = (uint8_t (*)[16][8])ctx;
    des_key_schedule(sk[0], key);
    des_key_schedule(sk[1], key + 8);
    des_key_schedule(sk[2], key_len == 16 ? key : key + 16);   /* keying option 2 (legacy): K3 = K1 */
}

/* f(R, K) (FIPS 46-3 Figure 2): group B_i of E(R) is bits 4i..4i+5 (1-based, cyclic) of R. */
static inline uint32_t des_f(uint32_t r, const uint8_t k[8])
{
    return des_sp[0][(ROTR32(r, 27) ^ k[0]) & 0x3f] ^ des_sp[1][((r >> 23) ^ k[1]) & 0x3f] ^
           des_sp[2][((r >> 19) ^ k[2]) & 0x3f] ^ des_sp[3][((r >> 15) ^ k[3]) & 0x3f] ^
           des_sp[4][((r >> 11) ^ k[4]) & 0x3f] ^ des_sp[5][((r >> 7) ^ k[5]) & 0x3f] ^
           des_sp[6][((r >> 3) ^ k[6]) & 0x3f] ^ des_sp[7][(ROTL32(r, 1) ^ k[7]) & 0x3f];
}

/* Sixteen iterations L' = R, R' = L ^ f(R, K_n), two per pass so the halves need no swap;
 * step is +1 (enciphering, K1..K16) or -1 (deciphering, K16..K1). Leaves the preoutput R16 L16
 * in (*l, *r) swapped back to (L, R) order for the next DES. */
static void des_rounds(uint32_t *l, uint32_t *r, const uint8_t sk[16][8], int step)
{
    uint32_t left = *l, right = *r, n;
    const uint8_t *k = step > 0 ? sk[0] : sk[15];
    int stride = 8 * step;
    for (n = 0; n < 8; n++) {
        left ^= des_f(right, k);
        k += stride;
        right ^= des_f(left, k);
        k += stride;
    }
    *l = right;
    *r = left;
}

void tdea_encrypt_block(const void *ctx, const uint8_t in[8], uint8_t out[8])
{
    const uint8_t (*sk)[16][8] = (const uint8_t (*)[16][8])ctx;
    uint32_t l = load32_be(in), r = load32_be(in + 4);
    initial_permutation(&l, &r);
    des_rounds(&l, &r, sk[0], 1);
    des_rounds(&l, &r, sk[1], -1);
    des_rounds(&l, &r, sk[2], 1);
    final_permutation(&l, &r);
    store32_be(out, l);
    store32_be(out + 4, r);
}

void tdea_decrypt_block(const void *ctx, const uint8_t in[8], uint8_t out[8])
{
    const uint8_t (*sk)[16][8] = (const uint8_t (*)[16][8])ctx;
    uint32_t l = load32_be(in), r = load32_be(in + 4);
    initial_permutation(&l, &r);
    des_rounds(&l, &r, sk[2], -1);
    des_rounds(&l, &r, sk[1], 1);
    des_rounds(&l, &r, sk[0], -1);
    final_permutation(&l, &r);
    store32_be(out, l);
    store32_be(out + 4, r);
}
