/* SM4 with the 256-byte S-box only: T(a) = L(τ(a)), L(B) = B ^ B<<<2 ^ B<<<10 ^ B<<<18 ^ B<<<24
 * computed with four rotations per round (GB/T 32907-2016 §6.2). Smallest table. */
#include "kernel.h"

static inline uint32_t sm4_l(uint32_t b)
{
    return b ^ ROTL32(b, 2) ^ ROTL32(b, 10) ^ ROTL32(b, 18) ^ ROTL32(b, 24);
}

#define SM4_T(a) sm4_l(sm4_tau(a))
#include "sm4_core.h"
