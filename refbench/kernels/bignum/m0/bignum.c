/* ARMv6-M (Cortex-M0/M0+): only MULS, 32x32->32. The 64-bit product of two limbs is put
 * together from four 16x16->32 products (the schoolbook split of HAC 14.12 with base 2^16),
 * and the carries of the middle sum and of the two addends are added back explicitly. Runs on
 * every core; the point is what an M0 library pays without UMULL. */
#include "kernel.h"
#include "ct.h"

/* the carries by ct.h's formulas: as comparisons, clang makes them branches on ARMv6-M */
static inline __attribute__((always_inline)) void mac(uint32_t *hi, uint32_t *lo, uint32_t a, uint32_t b,
                                                      uint32_t c, uint32_t d)
{
    const uint32_t al = a & 0xffffu, ah = a >> 16, bl = b & 0xffffu, bh = b >> 16;
    const uint32_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
    const uint32_t mid = lh + hl;
    const uint32_t mid_carry = ct_carry(lh, hl, mid); /* weight 2^48 */
    const uint32_t ml = mid << 16;
    const uint32_t l1 = ll + ml;
    uint32_t h = hh + (mid >> 16) + (mid_carry << 16) + ct_carry(ll, ml, l1);
    const uint32_t l2 = l1 + c;
    h += ct_carry(l1, c, l2);
    const uint32_t l3 = l2 + d;
    h += ct_carry(l2, d, l3);
    *hi = h;
    *lo = l3;
}

#include "mont.h"
#include "fe.h"
#include "exp.h"
#include "x25519.h"
#include "ed25519.h"
#include "p256.h"
#include "p256_ecdsa.h"
