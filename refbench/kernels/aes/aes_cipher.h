/* The block cipher interface the shared modes are written against, bound to AES (FIPS 197).
 *
 * The modes (aes/block_modes.c: ECB, CBC, CTR; gcm/gcm.c; ccm/ccm.c; cmac/cmac.c) include the
 * header their family's manifest names (defines = ['CIPHER_HEADER="aes_cipher.h"'] in aes, gcm,
 * ccm and cmac) and use only these names; sm4/sm4_cipher.h and tdea/tdea_cipher.h bind the
 * same names to SM4 and TDEA.
 *
 *   BLOCK_SIZE              bytes per block
 *   CIPHER_CTX_WORDS        32-bit words of the key schedule, for mode contexts that embed it
 *   block_setkey            (ctx, key, key_len): the encryption key schedule
 *   block_encrypt           (ctx, in, out): the cipher on one block; in and out may be the same buffer
 *   block_decrypt           (ctx, in, out): the inverse cipher (ECB/CBC decryption)
 *   CIPHER_PARALLEL_BLOCKS  blocks the variant ciphers per call, 1 unless the variant's manifest
 *                           defines more (aes/bitsliced: 2); above 1, block_encrypt_parallel and
 *                           block_decrypt_parallel (ctx, in, out) take that many consecutive blocks
 *                           and block_modes.c uses them wherever the mode is parallel. */
#ifndef REFBENCH_AES_CIPHER_H
#define REFBENCH_AES_CIPHER_H
#include "aes.h"

#define BLOCK_SIZE 16
#define CIPHER_CTX_WORDS 61          /* sizeof(aes_ctx) / 4: the table variants' schedule, which gcm,
                                      * ccm and cmac link; the bitsliced one is larger (AES_CTX_BYTES) */
#define block_setkey aes_setkey
#define block_encrypt aes_encrypt_block
#define block_decrypt aes_decrypt_block
#define block_encrypt_parallel aes_encrypt_parallel
#define block_decrypt_parallel aes_decrypt_parallel

typedef char cipher_ctx_fits[(sizeof(aes_ctx) <= 4 * CIPHER_CTX_WORDS) ? 1 : -1];
#endif
