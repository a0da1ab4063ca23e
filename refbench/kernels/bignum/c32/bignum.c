/* Portable C: the 32x32->64 product through uint64_t. What the compiler makes of it is the
 * point: UMAAL or UMLAL on ARMv7-M and later, a call to the 64x64 multiply helper
 * (__aeabi_lmul) on ARMv6-M, which has only MULS (32x32->32). */
#include "kernel.h"

static inline __attribute__((always_inline)) void mac(uint32_t *hi, uint32_t *lo, uint32_t a, uint32_t b,
                                                      uint32_t c, uint32_t d)
{
    const uint64_t p = (uint64_t)a * b + c + d;
    *lo = (uint32_t)p;
    *hi = (uint32_t)(p >> 32);
}

#include "mont.h"
#include "fe.h"
#include "exp.h"
#include "x25519.h"
#include "ed25519.h"
#include "p256.h"
#include "p256_ecdsa.h"
