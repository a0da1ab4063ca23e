/* The block cipher under block_modes.c, gcm.c and ccm.c for this family: SM4, 16-byte blocks. */
#ifndef REFBENCH_CIPHER_H
#define REFBENCH_CIPHER_H
#include "sm4.h"

#define BLOCK_SIZE 16
#define CIPHER_CTX_WORDS 32
#define block_setkey sm4_setkey
#define block_encrypt sm4_encrypt_block
#define block_decrypt sm4_decrypt_block
#endif
