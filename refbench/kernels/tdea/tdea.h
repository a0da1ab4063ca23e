/* TDEA (NIST SP 800-67 Rev. 2) kernel interface: keying option 1 (key_len 24, K1 || K2 || K3);
 * key_len 16 (K1 || K2, K3 = K1) gives keying option 2, allowed only for legacy decryption (§3.2).
 * The context holds the three DES key schedules: 16 round keys each, stored as the eight
 * 6-bit groups that meet the S-boxes (3 x 16 x 8 bytes). */
#ifndef REFBENCH_TDEA_H
#define REFBENCH_TDEA_H
#include "kernel.h"

void tdea_setkey(void *ctx, const uint8_t *key, uint32_t key_len);
void tdea_encrypt_block(const void *ctx, const uint8_t in[8], uint8_t out[8]);   /* E_K3(D_K2(E_K1(P))) */
void tdea_decrypt_block(const void *ctx, const uint8_t in[8], uint8_t out[8]);   /* D_K1(E_K2(D_K3(C))) */
#endif
