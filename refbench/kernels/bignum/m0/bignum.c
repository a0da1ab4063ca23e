/* ARMv6-M (Cortex-M0/M0+): only MULS, 32x32->32. The 64-bit product of two limbs is put
 * together from four 16x16->32 products (the schoolbook split of HAC 14.12 with base 2^16),
 * and the middle products and the two addends are summed in 16-bit halves (no carry by comparison). Runs on
 * every core; the point is what an M0 library pays without UMULL. */
#include "kernel.h"

/* No carry is formed by a comparison (clang makes those branches on ARMv6-M, on secret data):
 * the low word is summed in its two 16-bit halves, whose 32-bit sums cannot overflow, and the
 * high half's sum carries into the high word by a shift. */
static inline __attribute__((always_inline)) void mac(uint32_t *hi, uint32_t *lo, uint32_t a, uint32_t b,
                                                      uint32_t c, uint32_t d)
{
    const uint32_t al = a & 0xffffu, ah = a >> 16, bl = b & 0xffffu, bh = b >> 16;
    const uint32_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
    const uint32_t x0 = (ll & 0xffffu) + (c & 0xffffu) + (d & 0xffffu);                /* < 3 * 2^16 */
    const uint32_t x1 = (ll >> 16) + (lh & 0xffffu) + (hl & 0xffffu) + (c >> 16) + (d >> 16)
                        + (x0 >> 16);                                                     /* < 6 * 2^16 */
    *lo = (x0 & 0xffffu) | (x1 << 16);
    *hi = hh + (lh >> 16) + (hl >> 16) + (x1 >> 16);
}

#include "mont.h"
#include "fe.h"
#include "exp.h"
#include "x25519.h"
#include "ed25519.h"
#include "p256.h"
#include "p256_ecdsa.h"
