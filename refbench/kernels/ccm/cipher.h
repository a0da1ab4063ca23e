/* The block cipher under ccm.c for this family: AES (FIPS 197) with four
 * T-tables (aes/ttable4), so that this kernel times the mode on the usual fast AES. */
#ifndef REFBENCH_CIPHER_H
#define REFBENCH_CIPHER_H
#include "../aes/aes.h"

#define BLOCK_SIZE 16
#define CIPHER_CTX_WORDS 61          /* sizeof(aes_ctx) / 4 */
#define block_setkey aes_setkey
#define block_encrypt aes_encrypt_block

typedef char cipher_ctx_fits[(sizeof(aes_ctx) <= 4 * CIPHER_CTX_WORDS) ? 1 : -1];
#endif
