/* SM4 (GB/T 32907-2016 §6-7), written once for the variants. Before including, a variant
 * defines SM4_T(a), the round's mixer-substitution T(a) = L(τ(a)) (§6.2). */
#ifndef REFBENCH_SM4_CORE_H
#define REFBENCH_SM4_CORE_H
#include "sm4.h"
#include "sm4_tables.h"

/* τ (§6.2.1): the S-box on each byte. */
static inline uint32_t sm4_tau(uint32_t a)
{
    return ((uint32_t)sm4_sbox[a >> 24] << 24) | ((uint32_t)sm4_sbox[(a >> 16) & 0xff] << 16) |
           ((uint32_t)sm4_sbox[(a >> 8) & 0xff] << 8) | (uint32_t)sm4_sbox[a & 0xff];
}

/* Key expansion (§7.3): K_i = MK_i ^ FK_i, rk_i = K_(i+4) = K_i ^ T'(K_(i+1) ^ K_(i+2) ^ K_(i+3) ^ CK_i),
 * T' = L'(τ), L'(B) = B ^ B<<<13 ^ B<<<23; ck_(i,j) = (4i + j) * 7 mod 256. */
void sm4_setkey(void *ctx, const uint8_t *key, uint32_t key_len)
{
    static const uint32_t FK[4] = {0xa3b1bac6, 0x56aa3350, 0x677d9197, 0xb27022dc};   /* §7.3.1 */
    uint32_t *rk = (uint32_t *)ctx;
    uint32_t k[4], i, ck, b;
    (void)key_len;
    for (i = 0; i < 4; i++) {
        k[i] = load32_be(key + 4 * i) ^ FK[i];
    }
    for (i = 0; i < 32; i++) {
        ck = 28 * i;                                         /* ck_(i,j) = (4i + j) * 7 mod 256, j = 0..3 */
        ck = ((ck & 0xff) << 24) | (((ck + 7) & 0xff) << 16) | (((ck + 14) & 0xff) << 8) | ((ck + 21) & 0xff);
        b = sm4_tau(k[(i + 1) & 3] ^ k[(i + 2) & 3] ^ k[(i + 3) & 3] ^ ck);
        k[i & 3] ^= b ^ ROTL32(b, 13) ^ ROTL32(b, 23);
        rk[i] = k[i & 3];
    }
}

void sm4_setkey_dec(void *ctx, const uint8_t *key, uint32_t key_len)
{
    uint32_t *rk = (uint32_t *)ctx, i, t;
    sm4_setkey(ctx, key, key_len);
    for (i = 0; i < 16; i++) {
        t = rk[i];
        rk[i] = rk[31 - i];
        rk[31 - i] = t;
    }
}

/* The 32 rounds (§7.1), four per loop pass with the words renamed, then R = (X35, X34, X33, X32). */
static void sm4_crypt(const uint32_t *rk, const uint8_t in[16], uint8_t out[16])
{
    uint32_t x0 = load32_be(in), x1 = load32_be(in + 4), x2 = load32_be(in + 8), x3 = load32_be(in + 12);
    uint32_t i;
    for (i = 0; i < 32; i += 4) {
        x0 ^= SM4_T(x1 ^ x2 ^ x3 ^ rk[i]);
        x1 ^= SM4_T(x2 ^ x3 ^ x0 ^ rk[i + 1]);
        x2 ^= SM4_T(x3 ^ x0 ^ x1 ^ rk[i + 2]);
        x3 ^= SM4_T(x0 ^ x1 ^ x2 ^ rk[i + 3]);
    }
    store32_be(out, x3);
    store32_be(out + 4, x2);
    store32_be(out + 8, x1);
    store32_be(out + 12, x0);
}

void sm4_encrypt_block(const void *ctx, const uint8_t in[16], uint8_t out[16])
{
    sm4_crypt((const uint32_t *)ctx, in, out);
}

/* Decryption (§7.2) is the same with the reversed round keys of sm4_setkey_dec. */
void sm4_decrypt_block(const void *ctx, const uint8_t in[16], uint8_t out[16])
{
    sm4_crypt((const uint32_t *)ctx, in, out);
}
#endif
