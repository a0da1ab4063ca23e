/* GCM authenticated encryption (NIST SP 800-38D §7.1, Algorithm 4) with a 96-bit IV and a
 * 128-bit tag, and GMAC (§3: GCM with no plaintext), over the family's block cipher
 * (CIPHER_HEADER) and the variant's GHASH multiplication (ghash.h).
 *
 * The context holds the GHASH table (first, for alignment) and the cipher's key schedule;
 * gcm_setkey fills both (H = CIPH_K(0^128), Algorithm 4 step 1). */
#ifndef CIPHER_HEADER
#error "CIPHER_HEADER must name the block cipher's header (the family manifest's defines, e.g. \"aes_cipher.h\")"
#endif
#include CIPHER_HEADER  /* the block cipher's interface: aes_cipher.h, or sm4_cipher.h for sm4 */
#include "ghash.h"

#ifdef GCM_WHOLE_BLOCKS
/* The variant's own passes over whole blocks (len a multiple of 16), as wolfSSL's WOLFSSL_ARMASM
 * GCM runs AES_GCM_encrypt and GCM_gmult_len (gcm/thumb2_asm, whose manifest defines this):
 * GCTR with inc32 (cb receives the last counter) and Y = (Y ^ D_i) * H over the blocks. */
void gctr32_blocks(const void *ctx, uint8_t cb[16], const uint8_t *in, uint8_t *out, uint32_t len);
void ghash_blocks(uint8_t y[16], const uint32_t *table, const uint8_t *data, uint32_t len);
#endif

typedef struct {
    uint32_t table[GHASH_TABLE_WORDS];
    uint32_t cipher[CIPHER_CTX_WORDS];
} gcm_ctx;

void gcm_setkey(void *ctx, const uint8_t *key, uint32_t key_len)
{
    gcm_ctx *g = (gcm_ctx *)ctx;
    uint8_t h[16] = {0};
    block_setkey(g->cipher, key, key_len);
    block_encrypt(g->cipher, h, h);
    ghash_init(g->table, h);
}

/* Y = GHASH update over data zero-padded to whole blocks (Algorithm 2, on A || 0^v or C || 0^u). */
static void ghash_update(uint8_t y[16], const uint32_t *table, const uint8_t *data, uint32_t len)
{
    uint32_t i = 0, j, n;
#ifdef GCM_WHOLE_BLOCKS
    i = len & ~15u;
    ghash_blocks(y, table, data, i);
#endif
    for (; i < len; i += 16) {
        n = len - i < 16 ? len - i : 16;
        for (j = 0; j < n; j++) {
            y[j] ^= data[i + j];
        }
        ghash_mul(y, table);
    }
}

static void inc32(uint8_t block[16])
{
    uint32_t j;
    for (j = 16; j-- > 12;) {
        if (++block[j] != 0) {
            break;
        }
    }
}

/* C = GCTR_K(inc32(J0), P), S = GHASH_H(A || 0^v || C || 0^u || [len(A)]_64 || [len(C)]_64),
 * T = GCTR_K(J0, S) with J0 = IV || 0^31 || 1 (Algorithm 4 steps 2-6). */
void gcm_encrypt(void *ctx, const uint8_t nonce[12], const uint8_t *aad, uint32_t aad_len,
                 const uint8_t *in, uint8_t *out, uint32_t len, uint8_t tag[16])
{
    const gcm_ctx *g = (const gcm_ctx *)ctx;
    uint8_t j0[16], cb[16], ks[16], y[16] = {0};
    uint32_t i, j, n;

    for (j = 0; j < 12; j++) {
        j0[j] = nonce[j];
        cb[j] = nonce[j];
    }
    j0[12] = cb[12] = 0;
    j0[13] = cb[13] = 0;
    j0[14] = cb[14] = 0;
    j0[15] = cb[15] = 1;
    ghash_update(y, g->table, aad, aad_len);
    i = 0;
#ifdef GCM_WHOLE_BLOCKS
    i = len & ~15u;
    gctr32_blocks(g->cipher, cb, in, out, i);
    ghash_blocks(y, g->table, out, i);
#endif
    for (; i < len; i += 16) {
        inc32(cb);
        block_encrypt(g->cipher, cb, ks);
        n = len - i < 16 ? len - i : 16;
        for (j = 0; j < n; j++) {
            out[i + j] = in[i + j] ^ ks[j];
            y[j] ^= out[i + j];
        }
        ghash_mul(y, g->table);
    }
    store32_be(y + 4, load32_be(y + 4) ^ (aad_len << 3));        /* [len(A)]_64, lengths < 2^29 bytes */
    store32_be(y, load32_be(y) ^ (aad_len >> 29));
    store32_be(y + 12, load32_be(y + 12) ^ (len << 3));          /* [len(C)]_64 */
    store32_be(y + 8, load32_be(y + 8) ^ (len >> 29));
    ghash_mul(y, g->table);
    block_encrypt(g->cipher, j0, ks);
    for (j = 0; j < 16; j++) {
        tag[j] = ks[j] ^ y[j];
    }
}

/* GMAC_K(IV, A): the tag of GCM over A with an empty plaintext (§3). */
void gmac(void *ctx, const uint8_t nonce[12], const uint8_t *aad, uint32_t aad_len, uint8_t tag[16])
{
    gcm_encrypt(ctx, nonce, aad, aad_len, (const uint8_t *)0, (uint8_t *)0, 0, tag);
}
