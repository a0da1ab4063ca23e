/* Poly1305 (RFC 8439 §2.5): the interface between the MAC drivers and a limb
 * representation (limb26/, limb32/). */
#ifndef REFBENCH_POLY1305_H
#define REFBENCH_POLY1305_H
#include "kernel.h"

/* Room for either representation: r (clamped) and its multiples by 5,
 * the accumulator h, and s (the second key half, added at the end). */
typedef struct {
    uint32_t r[5];
    uint32_t r5[4];
    uint32_t h[5];
    uint32_t s[4];
} poly1305_state;

/* Clamp r = key[0..15] (§2.5.1), keep s = key[16..31], h = 0. */
void poly1305_init(poly1305_state *st, const uint8_t key[32]);
/* Absorb len bytes (a multiple of 16): h = (h + block + hibit * 2^128) * r mod 2^130 - 5. */
void poly1305_blocks(poly1305_state *st, const uint8_t *m, uint32_t len, uint32_t hibit);
/* Fully reduce h mod 2^130 - 5 and write (h + s) mod 2^128, little-endian. */
void poly1305_finish(poly1305_state *st, uint8_t tag[16]);
#endif
