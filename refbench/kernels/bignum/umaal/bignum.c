/* UMAAL (ARMv7E-M; ARMv8-M Mainline with the DSP extension): (hi:lo) = a*b + lo + hi in one
 * instruction, the exact shape of a multi-precision multiply-accumulate step (ARM DDI 0403E
 * A7.7.186). Per-limb inline assembly in a C loop is the approach of mbed TLS's
 * MULADDC_UMAAL (bn_mul.h); this code is refbench's own.
 *
 * The compilers' cortex-m33 target leaves the optional DSP extension out, while the M33
 * modelled by cortexm_emu (as most M33 parts) has it: the DSP feature is switched on for this
 * file only (clang: a target attribute on every function; GNU as: .arch_extension where the
 * target lacks it). */
#include "kernel.h"

#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("dsp"))), apply_to = function)
#define UMAAL_PREFIX ""
#elif defined(__ARM_FEATURE_DSP)
#define UMAAL_PREFIX ""
#else /* GNU as accepts the extension only where it is optional (ARMv8-M Mainline) */
#define UMAAL_PREFIX ".arch_extension dsp\n\t"
#endif

static inline __attribute__((always_inline)) void mac(uint32_t *hi, uint32_t *lo, uint32_t a, uint32_t b,
                                                      uint32_t c, uint32_t d)
{
    uint32_t l = c, h = d;
    __asm__(UMAAL_PREFIX "umaal %0, %1, %2, %3" : "+r"(l), "+r"(h) : "r"(a), "r"(b));
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

#if defined(__clang__)
#pragma clang attribute pop
#endif
