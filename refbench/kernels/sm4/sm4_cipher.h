/* The block cipher interface of aes/aes_cipher.h (which lists the names) bound to SM4, 16-byte
 * blocks: the cipher under aes/block_modes.c, gcm/gcm.c and ccm/ccm.c for this family. */
#ifndef REFBENCH_SM4_CIPHER_H
#define REFBENCH_SM4_CIPHER_H
#include "sm4.h"

#define BLOCK_SIZE 16
#define CIPHER_CTX_WORDS 32
#define block_setkey sm4_setkey
#define block_encrypt sm4_encrypt_block
#define block_decrypt sm4_decrypt_block
#endif
