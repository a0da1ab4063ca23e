/* SM4 (GB/T 32907-2016) kernel interface: the context holds the 32 round keys (§7.3). */
#ifndef REFBENCH_SM4_H
#define REFBENCH_SM4_H
#include "kernel.h"

void sm4_setkey(void *ctx, const uint8_t *key, uint32_t key_len);       /* key_len is 16 */
void sm4_setkey_dec(void *ctx, const uint8_t *key, uint32_t key_len);   /* round keys reversed (§7.2) */
void sm4_encrypt_block(const void *ctx, const uint8_t in[16], uint8_t out[16]);
void sm4_decrypt_block(const void *ctx, const uint8_t in[16], uint8_t out[16]);
#endif
