/* UMLAL (ARMv7-M, 32x32+64->64) then ADDS/ADC for the second addend: three instructions
 * (plus a zeroing move) per limb step, the best the Cortex-M3 has (ARM DDI 0403E A7: UMAAL is
 * ARMv7E-M only). Per-limb inline assembly in a C loop is the approach of mbed TLS's MULADDC
 * macros (bn_mul.h); this code is refbench's own. */
#include "kernel.h"

static inline __attribute__((always_inline)) void mac(uint32_t *hi, uint32_t *lo, uint32_t a, uint32_t b,
                                                      uint32_t c, uint32_t d)
{
    uint32_t l = c, h = 0;
    __asm__("umlal %0, %1, %2, %3\n\t"
            "adds %0, %0, %4\n\t"
            "adc %1, %1, #0"
            : "+&r"(l), "+&r"(h) /* early clobber: written by UMLAL before ADDS reads d */
            : "r"(a), "r"(b), "r"(d)
            : "cc");
    *hi = h;
    *lo = l;
}

#include "mont.h"
#include "fe.h"
#include "exp.h"
#include "x25519.h"
#include "ed25519.h"
#include "p256.h"
#include "p256_ecdsa.h"
