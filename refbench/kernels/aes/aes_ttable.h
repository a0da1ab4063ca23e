/* AES with 32-bit T-tables (Daemen & Rijmen, AES Proposal: Rijndael, §5.2.1), written once
 * for the table variants. Before including, a variant defines TE(i, x) and TD(i, x), the
 * entries of Te_i and Td_i (from four tables, or one table and rotations).
 *
 * A round is four words t_c = Te0[s_c >> 24] ^ Te1[s_(c+1) >> 16 & ff] ^ Te2[s_(c+2) >> 8 & ff]
 * ^ Te3[s_(c+3) & ff] ^ rk_c (SubBytes, ShiftRows and MixColumns of FIPS 197 §5.1 at once);
 * the last round uses the S-box. Decryption is the equivalent inverse cipher (§5.3.5):
 * the same structure with Td and a key schedule with InvMixColumns applied to rounds 1..Nr-1. */
#ifndef REFBENCH_AES_TTABLE_H
#define REFBENCH_AES_TTABLE_H
#include "aes.h"
#include "aes_tables.h"

#define B0(w) ((w) >> 24)
#define B1(w) (((w) >> 16) & 0xff)
#define B2(w) (((w) >> 8) & 0xff)
#define B3(w) ((w) & 0xff)

void aes_setkey(void *ctx, const uint8_t *key, uint32_t key_len)
{
    aes_expand_key((aes_ctx *)ctx, key, key_len);
}

/* InvMixColumns of one column (§5.3.3): Td_i[x] holds InvMixColumns of InvS[x] in byte i,
 * so Td_i[S[b]] is InvMixColumns of b. */
static uint32_t inv_mix_column(uint32_t w)
{
    return TD(0, aes_sbox[B0(w)]) ^ TD(1, aes_sbox[B1(w)]) ^ TD(2, aes_sbox[B2(w)]) ^ TD(3, aes_sbox[B3(w)]);
}

/* The decryption schedule dw of §5.3.5 (Figure 15): rounds reversed, InvMixColumns on rounds 1..Nr-1. */
void aes_setkey_dec(void *ctx, const uint8_t *key, uint32_t key_len)
{
    aes_ctx *k = (aes_ctx *)ctx;
    uint32_t i, j, t;
    aes_expand_key(k, key, key_len);
    for (i = 0, j = 4 * k->rounds; i < j; i += 4, j -= 4) {
        uint32_t c;
        for (c = 0; c < 4; c++) {
            t = k->rk[i + c];
            k->rk[i + c] = k->rk[j + c];
            k->rk[j + c] = t;
        }
    }
    for (i = 4; i < 4 * k->rounds; i++) {
        k->rk[i] = inv_mix_column(k->rk[i]);
    }
}

void aes_encrypt_block(const void *ctx, const uint8_t in[16], uint8_t out[16])
{
    const aes_ctx *k = (const aes_ctx *)ctx;
    const uint32_t *rk = k->rk;
    uint32_t s0, s1, s2, s3, t0, t1, t2, t3, round;

    s0 = load32_be(in) ^ rk[0];
    s1 = load32_be(in + 4) ^ rk[1];
    s2 = load32_be(in + 8) ^ rk[2];
    s3 = load32_be(in + 12) ^ rk[3];
    for (round = 1; round < k->rounds; round++) {
        rk += 4;
        t0 = TE(0, B0(s0)) ^ TE(1, B1(s1)) ^ TE(2, B2(s2)) ^ TE(3, B3(s3)) ^ rk[0];
        t1 = TE(0, B0(s1)) ^ TE(1, B1(s2)) ^ TE(2, B2(s3)) ^ TE(3, B3(s0)) ^ rk[1];
        t2 = TE(0, B0(s2)) ^ TE(1, B1(s3)) ^ TE(2, B2(s0)) ^ TE(3, B3(s1)) ^ rk[2];
        t3 = TE(0, B0(s3)) ^ TE(1, B1(s0)) ^ TE(2, B2(s1)) ^ TE(3, B3(s2)) ^ rk[3];
        s0 = t0;
        s1 = t1;
        s2 = t2;
        s3 = t3;
    }
    rk += 4;
#define LAST(a, b, c, d) (((uint32_t)aes_sbox[B0(a)] << 24) | ((uint32_t)aes_sbox[B1(b)] << 16) | \
                          ((uint32_t)aes_sbox[B2(c)] << 8) | (uint32_t)aes_sbox[B3(d)])
    store32_be(out, LAST(s0, s1, s2, s3) ^ rk[0]);
    store32_be(out + 4, LAST(s1, s2, s3, s0) ^ rk[1]);
    store32_be(out + 8, LAST(s2, s3, s0, s1) ^ rk[2]);
    store32_be(out + 12, LAST(s3, s0, s1, s2) ^ rk[3]);
#undef LAST
}

void aes_decrypt_block(const void *ctx, const uint8_t in[16], uint8_t out[16])
{
    const aes_ctx *k = (const aes_ctx *)ctx;
    const uint32_t *rk = k->rk;
    uint32_t s0, s1, s2, s3, t0, t1, t2, t3, round;

    s0 = load32_be(in) ^ rk[0];
    s1 = load32_be(in + 4) ^ rk[1];
    s2 = load32_be(in + 8) ^ rk[2];
    s3 = load32_be(in + 12) ^ rk[3];
    for (round = 1; round < k->rounds; round++) {
        rk += 4;
        t0 = TD(0, B0(s0)) ^ TD(1, B1(s3)) ^ TD(2, B2(s2)) ^ TD(3, B3(s1)) ^ rk[0];
        t1 = TD(0, B0(s1)) ^ TD(1, B1(s0)) ^ TD(2, B2(s3)) ^ TD(3, B3(s2)) ^ rk[1];
        t2 = TD(0, B0(s2)) ^ TD(1, B1(s1)) ^ TD(2, B2(s0)) ^ TD(3, B3(s3)) ^ rk[2];
        t3 = TD(0, B0(s3)) ^ TD(1, B1(s2)) ^ TD(2, B2(s1)) ^ TD(3, B3(s0)) ^ rk[3];
        s0 = t0;
        s1 = t1;
        s2 = t2;
        s3 = t3;
    }
    rk += 4;
#define LAST(a, b, c, d) (((uint32_t)aes_inv_sbox[B0(a)] << 24) | ((uint32_t)aes_inv_sbox[B1(b)] << 16) | \
                          ((uint32_t)aes_inv_sbox[B2(c)] << 8) | (uint32_t)aes_inv_sbox[B3(d)])
    store32_be(out, LAST(s0, s3, s2, s1) ^ rk[0]);
    store32_be(out + 4, LAST(s1, s0, s3, s2) ^ rk[1]);
    store32_be(out + 8, LAST(s2, s1, s0, s3) ^ rk[2]);
    store32_be(out + 12, LAST(s3, s2, s1, s0) ^ rk[3]);
#undef LAST
}
#endif
