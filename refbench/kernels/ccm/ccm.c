/* CCM authenticated encryption (NIST SP 800-38C §6.1) with a 16-byte tag over the family's
 * block cipher (CIPHER_HEADER): CBC-MAC over the formatted B_0, associated data and payload
 * (Appendix A.2), then CTR with the counter blocks of A.3.
 *
 * nonce_len is 7..13 (q = 15 - nonce_len bytes of length, so len < 2^(8q)); aad_len < 2^32. */
#ifndef CIPHER_HEADER
#error "CIPHER_HEADER must name the block cipher's header (the family manifest's defines, e.g. \"aes_cipher.h\")"
#endif
#include CIPHER_HEADER  /* the block cipher's interface: aes_cipher.h, or sm4_cipher.h for sm4 */

#define CCM_TAG_BYTES 16

void ccm_setkey(void *ctx, const uint8_t *key, uint32_t key_len)
{
    block_setkey(ctx, key, key_len);
}

/* CBC-MAC state: Y and how many bytes of the current block have been absorbed. */
typedef struct {
    uint8_t y[16];
    uint32_t fill;
} cbc_mac;

static void mac_bytes(const void *ctx, cbc_mac *mac, const uint8_t *data, uint32_t len)
{
    uint32_t i;
    for (i = 0; i < len; i++) {
        mac->y[mac->fill++] ^= data[i];
        if (mac->fill == 16) {
            block_encrypt(ctx, mac->y, mac->y);
            mac->fill = 0;
        }
    }
}

/* Zero padding to a block boundary (A.2.2, A.2.3) is absorbing nothing more. */
static void mac_pad(const void *ctx, cbc_mac *mac)
{
    if (mac->fill != 0) {
        block_encrypt(ctx, mac->y, mac->y);
        mac->fill = 0;
    }
}

void ccm_encrypt(void *ctx, const uint8_t *nonce, uint32_t nonce_len, const uint8_t *aad, uint32_t aad_len,
                 const uint8_t *in, uint8_t *out, uint32_t len, uint8_t tag[16])
{
    cbc_mac mac = {{0}, 0};
    uint8_t ctr[16], ks[16], header[6];
    uint32_t q = 15 - nonce_len, i, j, n, value;

    /* B_0 = flags || N || Q (A.2.1), flags = 64 Adata + 8 (t-2)/2 + (q-1). */
    mac.y[0] = (uint8_t)((aad_len ? 0x40 : 0) | (((CCM_TAG_BYTES - 2) / 2) << 3) | (q - 1));
    for (j = 0; j < nonce_len; j++) {
        mac.y[1 + j] = nonce[j];
    }
    for (j = 15, value = len; j > nonce_len; j--, value >>= 8) {
        mac.y[j] = (uint8_t)value;
    }
    block_encrypt(ctx, mac.y, mac.y);

    /* Associated data with its length encoding (A.2.2): 2 bytes below 2^16 - 2^8, else 0xfffe || 4 bytes. */
    if (aad_len) {
        if (aad_len < 0xff00) {
            header[0] = (uint8_t)(aad_len >> 8);
            header[1] = (uint8_t)aad_len;
            mac_bytes(ctx, &mac, header, 2);
        } else {
            header[0] = 0xff;
            header[1] = 0xfe;
            store32_be(header + 2, aad_len);
            mac_bytes(ctx, &mac, header, 6);
        }
        mac_bytes(ctx, &mac, aad, aad_len);
        mac_pad(ctx, &mac);
    }

    /* Ctr_i = flags' || N || [i]_8q with flags' = q - 1 (A.3); Ctr_0 masks the tag. */
    ctr[0] = (uint8_t)(q - 1);
    for (j = 0; j < nonce_len; j++) {
        ctr[1 + j] = nonce[j];
    }
    for (j = nonce_len + 1; j < 16; j++) {
        ctr[j] = 0;
    }
    for (i = 0; i < len; i += 16) {
        n = len - i < 16 ? len - i : 16;
        for (j = 0; j < n; j++) {           /* the payload starts on a block boundary: whole-block CBC-MAC */
            mac.y[j] ^= in[i + j];
        }
        block_encrypt(ctx, mac.y, mac.y);
        for (j = 16; j-- > nonce_len + 1;) {
            if (++ctr[j] != 0) {
                break;
            }
        }
        block_encrypt(ctx, ctr, ks);
        for (j = 0; j < n; j++) {
            out[i + j] = in[i + j] ^ ks[j];
        }
    }
    for (j = nonce_len + 1; j < 16; j++) {
        ctr[j] = 0;
    }
    block_encrypt(ctx, ctr, ks);
    for (j = 0; j < CCM_TAG_BYTES; j++) {   /* T xor MSB_Tlen(S_0) */
        tag[j] = mac.y[j] ^ ks[j];
    }
}
