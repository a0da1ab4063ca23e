/* The block cipher interface of aes/aes_cipher.h (which lists the names) bound to TDEA, 8-byte
 * blocks: the cipher under aes/block_modes.c for this family (ECB, CBC, CTR only). */
#ifndef REFBENCH_TDEA_CIPHER_H
#define REFBENCH_TDEA_CIPHER_H
#include "tdea.h"

#define BLOCK_SIZE 8
#define block_encrypt tdea_encrypt_block
#define block_decrypt tdea_decrypt_block
#endif
