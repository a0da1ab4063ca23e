/* AES, byte-oriented (FIPS 197 §5.1 and §5.3 step by step): the 256-byte S-box and its
 * inverse are the only tables; MixColumns and InvMixColumns multiply with xtime (§4.2.1).
 * Smallest tables, most instructions per byte: the tinyAES style. */
#include "aes.h"
#include "aes_tables.h"

static uint8_t xtime(uint8_t b)
{
    return (uint8_t)((b << 1) ^ ((b >> 7) * 0x1b));
}

/* AddRoundKey (§5.1.4) with round key words rk[0..3]; state bytes s[r + 4c]. */
static void add_round_key(uint8_t s[16], const uint32_t *rk)
{
    uint32_t c;
    for (c = 0; c < 4; c++) {
        s[4 * c] ^= (uint8_t)(rk[c] >> 24);
        s[4 * c + 1] ^= (uint8_t)(rk[c] >> 16);
        s[4 * c + 2] ^= (uint8_t)(rk[c] >> 8);
        s[4 * c + 3] ^= (uint8_t)rk[c];
    }
}

/* SubBytes (§5.1.1) and ShiftRows (§5.1.2): s'[r][c] = S(s[r][(c + r) mod 4]). */
static void sub_shift(uint8_t s[16])
{
    uint8_t t;
    s[0] = aes_sbox[s[0]];
    s[4] = aes_sbox[s[4]];
    s[8] = aes_sbox[s[8]];
    s[12] = aes_sbox[s[12]];
    t = s[1];
    s[1] = aes_sbox[s[5]];
    s[5] = aes_sbox[s[9]];
    s[9] = aes_sbox[s[13]];
    s[13] = aes_sbox[t];
    t = s[2];
    s[2] = aes_sbox[s[10]];
    s[10] = aes_sbox[t];
    t = s[6];
    s[6] = aes_sbox[s[14]];
    s[14] = aes_sbox[t];
    t = s[15];
    s[15] = aes_sbox[s[11]];
    s[11] = aes_sbox[s[7]];
    s[7] = aes_sbox[s[3]];
    s[3] = aes_sbox[t];
}

/* InvShiftRows (§5.3.1) and InvSubBytes (§5.3.2): s'[r][(c + r) mod 4] = InvS(s[r][c]). */
static void inv_shift_sub(uint8_t s[16])
{
    uint8_t t;
    s[0] = aes_inv_sbox[s[0]];
    s[4] = aes_inv_sbox[s[4]];
    s[8] = aes_inv_sbox[s[8]];
    s[12] = aes_inv_sbox[s[12]];
    t = s[13];
    s[13] = aes_inv_sbox[s[9]];
    s[9] = aes_inv_sbox[s[5]];
    s[5] = aes_inv_sbox[s[1]];
    s[1] = aes_inv_sbox[t];
    t = s[2];
    s[2] = aes_inv_sbox[s[10]];
    s[10] = aes_inv_sbox[t];
    t = s[6];
    s[6] = aes_inv_sbox[s[14]];
    s[14] = aes_inv_sbox[t];
    t = s[3];
    s[3] = aes_inv_sbox[s[7]];
    s[7] = aes_inv_sbox[s[11]];
    s[11] = aes_inv_sbox[s[15]];
    s[15] = aes_inv_sbox[t];
}

/* MixColumns (§5.1.3): s'_r = 2 s_r + 3 s_(r+1) + s_(r+2) + s_(r+3) = s_r + all + 2 (s_r + s_(r+1)). */
static void mix_columns(uint8_t s[16])
{
    uint32_t c;
    for (c = 0; c < 16; c += 4) {
        uint8_t a0 = s[c], a1 = s[c + 1], a2 = s[c + 2], a3 = s[c + 3];
        uint8_t all = a0 ^ a1 ^ a2 ^ a3;
        s[c] = a0 ^ all ^ xtime(a0 ^ a1);
        s[c + 1] = a1 ^ all ^ xtime(a1 ^ a2);
        s[c + 2] = a2 ^ all ^ xtime(a2 ^ a3);
        s[c + 3] = a3 ^ all ^ xtime(a3 ^ a0);
    }
}

/* InvMixColumns (§5.3.3) as MixColumns after multiplying by 04 x^2 + 05
 * (Daemen & Rijmen, The Design of Rijndael, §4.1.3: d(x) = c(x)(04 x^2 + 05) mod x^4 + 1). */
static void inv_mix_columns(uint8_t s[16])
{
    uint32_t c;
    for (c = 0; c < 16; c += 4) {
        uint8_t u = xtime(xtime(s[c] ^ s[c + 2]));
        uint8_t v = xtime(xtime(s[c + 1] ^ s[c + 3]));
        s[c] ^= u;
        s[c + 1] ^= v;
        s[c + 2] ^= u;
        s[c + 3] ^= v;
    }
    mix_columns(s);
}

void aes_setkey(void *ctx, const uint8_t *key, uint32_t key_len)
{
    aes_expand_key((aes_ctx *)ctx, key, key_len);
}

/* The inverse cipher of §5.3 runs the same schedule backwards. */
void aes_setkey_dec(void *ctx, const uint8_t *key, uint32_t key_len)
{
    aes_expand_key((aes_ctx *)ctx, key, key_len);
}

void aes_encrypt_block(const void *ctx, const uint8_t in[16], uint8_t out[16])
{
    const aes_ctx *k = (const aes_ctx *)ctx;
    uint8_t s[16];
    uint32_t i, round;
    for (i = 0; i < 16; i++) {
        s[i] = in[i];
    }
    add_round_key(s, k->rk);
    for (round = 1; round < k->rounds; round++) {
        sub_shift(s);
        mix_columns(s);
        add_round_key(s, k->rk + 4 * round);
    }
    sub_shift(s);
    add_round_key(s, k->rk + 4 * k->rounds);
    for (i = 0; i < 16; i++) {
        out[i] = s[i];
    }
}

void aes_decrypt_block(const void *ctx, const uint8_t in[16], uint8_t out[16])
{
    const aes_ctx *k = (const aes_ctx *)ctx;
    uint8_t s[16];
    uint32_t i, round;
    for (i = 0; i < 16; i++) {
        s[i] = in[i];
    }
    add_round_key(s, k->rk + 4 * k->rounds);
    for (round = k->rounds - 1; round > 0; round--) {
        inv_shift_sub(s);
        add_round_key(s, k->rk + 4 * round);
        inv_mix_columns(s);
    }
    inv_shift_sub(s);
    add_round_key(s, k->rk);
    for (i = 0; i < 16; i++) {
        out[i] = s[i];
    }
}
