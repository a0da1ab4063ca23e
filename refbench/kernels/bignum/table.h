/* Constant-time reads of a precomputed table in the shapes two libraries use, so the composition
 * prices a table read by the code that does it rather than by selects of whole field elements.
 *
 *   bn_sp_table_read -- wolfSSL SP's C read of a 16-entry point table (sp_cortexm.c
 *     sp_256_get_point_16_8 and sp_256_get_entry_16_8, C even in the assembly build): the result
 *     cleared, then for every entry 1..15 a mask (all ones at the wanted index) and, word by word,
 *     r[j] |= mask & entry[j], the word loop written out in full as the library writes it. The
 *     result and the table are both reached through pointers of one type, so every word is a
 *     load of the entry, a load of the result, an AND, an ORR and a store (no register copy of
 *     the result). An entry is `limbs` words: the coordinates read (x and y of an affine entry,
 *     x, y and z of a projective point) times the field's words.
 *
 *   bn_ref10_cmov_table -- wolfSSL's WOLFSSL_ARMASM Ed25519 row read (thumb2-curve25519_c.c
 *     fe_cmov_table, constant-time form): one row of 8 precomputed points (yplusx, yminusx,
 *     xy2d: 96 bytes each) read at |b| (b a signed digit in -8..8; 0 reads the neutral point
 *     {1, 1, 0}) in four passes of two words of each coordinate, six accumulators in registers
 *     and blended by r ^= (r ^ entry) & mask, then for b < 0 yplusx and yminusx exchanged and
 *     xy2d negated as p - xy2d (the borrow carried from pass to pass), by masks.
 *
 * Both take their masks through ct.h (no branch, no address depends on the index). */
#ifndef REFBENCH_BIGNUM_TABLE_H
#define REFBENCH_BIGNUM_TABLE_H

#include "limbs.h" /* the fixed-width types (not <stdint.h>: see ct.h) and ct.h */

/* r = entry idx (1..15) of the 16-entry table t of W-word entries, zero for idx 0 (entry 0 is
 * never read: the library's entry 0 is the point at infinity, its flag set by the caller) */
#define SP_TABLE_READ16(NAME, W)                                                   \
    static void NAME(uint32_t *r, const uint32_t *t, uint32_t idx)                  \
    {                                                                               \
        _Pragma("GCC unroll 36") for (uint32_t j = 0; j < (W); j++) {               \
            r[j] = 0;                                                               \
        }                                                                           \
        for (uint32_t i = 1; i < 16; i++) {                                         \
            const uint32_t mask = ct_zero_mask(i ^ idx); /* all ones when i == idx */ \
            _Pragma("GCC unroll 36") for (uint32_t j = 0; j < (W); j++) {           \
                r[j] |= mask & t[i * (W) + j];                                      \
            }                                                                       \
        }                                                                           \
    }

SP_TABLE_READ16(sp_table_read16_w16, 16u) /* P-256 affine entry: x, y */
SP_TABLE_READ16(sp_table_read16_w24, 24u) /* P-256 point x, y, z; P-384 affine entry */
SP_TABLE_READ16(sp_table_read16_w36, 36u) /* P-384 point */

/* r = entry (a[0] & 15) of the 16-entry table b of `limbs`-word entries (16, 24 or 36 words, the
 * reference's accepted sizes; the size is public, so the dispatch is no leak) */
void bn_sp_table_read(uint32_t *r, const uint32_t *a, const uint32_t *b, uint32_t limbs)
{
    const uint32_t idx = a[0] & 15u;
    if (limbs == 16u) {
        sp_table_read16_w16(r, b, idx);
    } else if (limbs == 24u) {
        sp_table_read16_w24(r, b, idx);
    } else if (limbs == 36u) {
        sp_table_read16_w36(r, b, idx);
    }
}

/* r (24 words: yplusx, yminusx, xy2d) = the row b of 8 entries read at the signed digit in the low
 * byte of a[0], as fe_cmov_table does: |digit| selects entry |digit| - 1 (none: {1, 1, 0}); a
 * negative digit exchanges yplusx and yminusx and replaces xy2d by p - xy2d, p = 2^255 - 19 */
void bn_ref10_cmov_table(uint32_t *r, const uint32_t *a, const uint32_t *b)
{
    static const uint32_t p[8] = {0xffffffedu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
                                  0xffffffffu, 0xffffffffu, 0xffffffffu, 0x7fffffffu};
    const int32_t digit = (int32_t)(int8_t)(a[0] & 0xffu);
    const uint32_t sign = ct_opaque((uint32_t)(digit >> 31)); /* all ones when negative */
    const uint32_t mag = ((uint32_t)digit ^ sign) - sign;
    uint32_t borrow = 0;
    _Pragma("GCC unroll 4") for (uint32_t k = 0; k < 8; k += 2) {
        uint32_t p0 = k == 0 ? 1u : 0u, p1 = 0, m0 = k == 0 ? 1u : 0u, m1 = 0, x0 = 0, x1 = 0;
        _Pragma("GCC unroll 8") for (uint32_t j = 0; j < 8; j++) {
            const uint32_t mask = ct_zero_mask((j + 1u) ^ mag);
            const uint32_t *e = b + 24u * j + k;
            p0 ^= (p0 ^ e[0]) & mask;
            p1 ^= (p1 ^ e[1]) & mask;
            m0 ^= (m0 ^ e[8]) & mask;
            m1 ^= (m1 ^ e[9]) & mask;
            x0 ^= (x0 ^ e[16]) & mask;
            x1 ^= (x1 ^ e[17]) & mask;
        }
        /* p - xy2d for these two words, the borrow carried to the next pass */
        const uint32_t n0 = p[k] - x0 - borrow;
        borrow = ct_borrow(p[k], x0, n0);
        const uint32_t n1 = p[k + 1] - x1 - borrow;
        borrow = ct_borrow(p[k + 1], x1, n1);
        const uint32_t s0 = (p0 ^ m0) & sign, s1 = (p1 ^ m1) & sign;
        r[k] = p0 ^ s0;
        r[k + 1] = p1 ^ s1;
        r[8 + k] = m0 ^ s0;
        r[9 + k] = m1 ^ s1;
        r[16 + k] = x0 ^ ((x0 ^ n0) & sign);
        r[17 + k] = x1 ^ ((x1 ^ n1) & sign);
    }
}

#endif
