/* The block cipher under block_modes.c for this family: TDEA, 8-byte blocks. */
#ifndef REFBENCH_CIPHER_H
#define REFBENCH_CIPHER_H
#include "tdea.h"

#define BLOCK_SIZE 8
#define block_encrypt tdea_encrypt_block
#define block_decrypt tdea_decrypt_block
#endif
