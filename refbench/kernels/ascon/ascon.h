/* The interface between the Ascon modes (ascon_modes.c, NIST SP 800-232 §4.1
 * and §5.1) and a permutation variant: how the 64-bit words S0..S4 are stored
 * is the variant's business. Bytes map to words little-endian (SP 800-232 §2.1). */
#ifndef REFBENCH_ASCON_H
#define REFBENCH_ASCON_H
#include "kernel.h"

/* The 320-bit state: lanes64 uses q[k] = S_k; interleaved32 uses w[2k] (even bits), w[2k + 1] (odd bits). */
typedef union {
    uint64_t q[5];
    uint32_t w[10];
} ascon_state;

/* S_k ^= the 8 bytes at bytes, read little-endian. */
void ascon_xor_word(ascon_state *s, uint32_t k, const uint8_t bytes[8]);
/* The 8 bytes of S_k, little-endian. */
void ascon_extract_word(const ascon_state *s, uint32_t k, uint8_t bytes[8]);
/* Ascon-p[rounds] (§3), rounds = 8 or 12, using round constants c_(16 - rounds) .. c_15. */
void ascon_permute(ascon_state *s, uint32_t rounds);
#endif
