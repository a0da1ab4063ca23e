/* The interface between the sponge (sponge.c, FIPS 202 §4 and §6) and a
 * Keccak-f[1600] variant: how lanes are stored is the variant's business. */
#ifndef REFBENCH_KECCAK_H
#define REFBENCH_KECCAK_H
#include "kernel.h"

/* The 1600-bit state: 25 lanes of 64 bits, stored as the variant chooses
 * (lanes64: q[x + 5y]; interleaved32: w[2(x + 5y)] even bits, w[2(x + 5y) + 1] odd bits). */
typedef union {
    uint64_t q[25];
    uint32_t w[50];
} keccak_state;

/* XOR `lanes` whole 64-bit lanes, read little-endian from bytes (FIPS 202 Appendix B.1), into lanes 0.. */
void keccak_absorb_lanes(keccak_state *s, const uint8_t *bytes, uint32_t lanes);
/* Write lanes 0..lanes-1 little-endian into bytes. */
void keccak_extract_lanes(const keccak_state *s, uint8_t *bytes, uint32_t lanes);
/* Keccak-f[1600] = Keccak-p[1600, 24] (§3.3-3.4), in place. */
void keccak_f1600(keccak_state *s);
#endif
