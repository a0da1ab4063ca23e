/* Key schedules and tables of aes/thumb2_asm (the block functions are thumb2_asm/aes.S).
 *
 * The encryption schedule is KeyExpansion (FIPS 197 §5.2, aes_key.c); the decryption schedule
 * is that of the equivalent inverse cipher (§5.3.5): the round keys in reverse order,
 * InvMixColumns applied to rounds 1..Nr-1 (wolfSSL's AES_invert_key does the same after
 * AES_set_encrypt_key). The assembly reads its tables through aes_thumb2_tables: the
 * encryption T-table ROR8(Te0) (aes_te1, whose byte 0 is the S-box), the decryption T-table
 * ROR8(Td0) (aes_td1) and the inverse S-box, the layout wolfSSL's L_AES_Thumb2_te_data,
 * L_AES_Thumb2_td_data and L_AES_Thumb2_td4 have. */
#include "aes.h"
#include "aes_tables.h"

const void *const aes_thumb2_tables[3] = {aes_te1, aes_td1, aes_inv_sbox};

void aes_setkey(void *ctx, const uint8_t *key, uint32_t key_len)
{
    aes_expand_key((aes_ctx *)ctx, key, key_len);
}

/* InvMixColumns of one column (§5.3.3): Td0[S[b]] is InvMixColumns of the byte b in byte 0. */
static uint32_t inv_mix_column(uint32_t w)
{
    return aes_td0[aes_sbox[w >> 24]] ^ aes_td1[aes_sbox[(w >> 16) & 0xff]] ^
           aes_td2[aes_sbox[(w >> 8) & 0xff]] ^ aes_td3[aes_sbox[w & 0xff]];
}

void aes_setkey_dec(void *ctx, const uint8_t *key, uint32_t key_len)
{
    aes_ctx *k = (aes_ctx *)ctx;
    uint32_t i, j, c, t;
    aes_expand_key(k, key, key_len);
    for (i = 0, j = 4 * k->rounds; i < j; i += 4, j -= 4) {
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
