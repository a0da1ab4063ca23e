/* The block cipher under block_modes.c for this family: AES (FIPS 197), 16-byte blocks. */
#ifndef REFBENCH_CIPHER_H
#define REFBENCH_CIPHER_H
#include "aes.h"

#define BLOCK_SIZE 16
#define block_encrypt aes_encrypt_block
#define block_decrypt aes_decrypt_block
#endif
