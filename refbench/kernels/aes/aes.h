/* AES (FIPS 197) kernel interface shared by the variants and by the modes built on them.
 *
 * The context is the harness's `ctx` buffer (8-byte aligned): the number of rounds Nr
 * (§5, Table 4: 10, 12 or 14 for 16-, 24- and 32-byte keys) and the expanded key. Its
 * layout belongs to the variant; AES_CTX_BYTES is the largest any variant needs. */
#ifndef REFBENCH_AES_H
#define REFBENCH_AES_H
#include "kernel.h"

/* Nr and 4 (Nr + 1) round-key words (table variants) or 8 (Nr + 1) bit planes (bitsliced), Nr <= 14;
 * the manifest's context_bytes. */
#define AES_CTX_BYTES 484

typedef struct {
    uint32_t rounds;   /* Nr */
    uint32_t rk[60];   /* w[0 .. 4 Nr + 3] (§5.2), big-endian words; decryption keys in the variant's order */
} aes_ctx;

typedef char aes_ctx_fits_the_context[(sizeof(aes_ctx) <= AES_CTX_BYTES) ? 1 : -1];

/* Key schedule for encryption; key_len is 16, 24 or 32 bytes. */
void aes_setkey(void *ctx, const uint8_t *key, uint32_t key_len);
/* Key schedule for decryption (the variant's inverse cipher may need a transformed schedule). */
void aes_setkey_dec(void *ctx, const uint8_t *key, uint32_t key_len);
/* One block: Cipher (§5.1) and its inverse (§5.3 or §5.3.5). in and out may be the same buffer. */
void aes_encrypt_block(const void *ctx, const uint8_t in[16], uint8_t out[16]);
void aes_decrypt_block(const void *ctx, const uint8_t in[16], uint8_t out[16]);
/* Several consecutive blocks at once, only in variants whose manifest defines
 * CIPHER_PARALLEL_BLOCKS (bitsliced: 2 blocks, in[32] and out[32]; aes_cipher.h). */
void aes_encrypt_parallel(const void *ctx, const uint8_t *in, uint8_t *out);
void aes_decrypt_parallel(const void *ctx, const uint8_t *in, uint8_t *out);

/* KeyExpansion (§5.2) into ctx->rk with the S-box table; shared by the table variants (aes_key.c). */
void aes_expand_key(aes_ctx *ctx, const uint8_t *key, uint32_t key_len);
#endif
