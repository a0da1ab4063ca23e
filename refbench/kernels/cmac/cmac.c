/* CMAC (NIST SP 800-38B §6.1-6.2) with a full-block tag over the family's block cipher (CIPHER_HEADER).
 * cmac_setkey computes the subkeys K1 and K2 once (§6.1); cmac runs the MAC generation (§6.2). */
#ifndef CIPHER_HEADER
#error "CIPHER_HEADER must name the block cipher's header (the family manifest's defines, e.g. \"aes_cipher.h\")"
#endif
#include CIPHER_HEADER  /* the block cipher's interface: aes_cipher.h, or sm4_cipher.h for sm4 */

typedef struct {
    uint32_t cipher[CIPHER_CTX_WORDS];
    uint8_t k1[16];
    uint8_t k2[16];
} cmac_ctx;

/* out = in << 1, xor R_128 = 0^120 || 10000111 if the bit shifted out was set (§6.1 steps 2-3). */
static void dbl(uint8_t out[16], const uint8_t in[16])
{
    uint32_t j;
    uint8_t carry = in[0] >> 7;
    for (j = 0; j < 15; j++) {
        out[j] = (uint8_t)((in[j] << 1) | (in[j + 1] >> 7));
    }
    out[15] = (uint8_t)((in[15] << 1) ^ (0x87 & (0u - carry)));
}

void cmac_setkey(void *ctx, const uint8_t *key, uint32_t key_len)
{
    cmac_ctx *c = (cmac_ctx *)ctx;
    uint8_t l[16] = {0};
    block_setkey(c->cipher, key, key_len);
    block_encrypt(c->cipher, l, l);    /* L = CIPH_K(0^b) */
    dbl(c->k1, l);
    dbl(c->k2, c->k1);
}

void cmac(void *ctx, const uint8_t *msg, uint32_t len, uint8_t tag[16])
{
    const cmac_ctx *c = (const cmac_ctx *)ctx;
    uint8_t y[16] = {0};
    uint32_t i = 0, j, rest;

    /* All blocks but the last: C_i = CIPH_K(C_(i-1) xor M_i). */
    while (len - i > 16) {
        for (j = 0; j < 16; j++) {
            y[j] ^= msg[i + j];
        }
        block_encrypt(c->cipher, y, y);
        i += 16;
    }
    /* The last block: complete -> xor K1; else M_n* || 10^j, xor K2 (§6.2 step 4; n = 1 for empty M). */
    rest = len - i;
    for (j = 0; j < rest; j++) {
        y[j] ^= msg[i + j];
    }
    if (rest == 16) {
        for (j = 0; j < 16; j++) {
            y[j] ^= c->k1[j];
        }
    } else {
        y[rest] ^= 0x80;
        for (j = 0; j < 16; j++) {
            y[j] ^= c->k2[j];
        }
    }
    block_encrypt(c->cipher, y, tag);
}
