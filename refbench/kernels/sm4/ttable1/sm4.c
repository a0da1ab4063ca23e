/* SM4 with one 1 KB table t0[x] = L(Sbox(x) << 24): since L is linear and commutes with
 * rotations, T(a) = t0[a0] ^ ROR8(t0[a1]) ^ ROR16(t0[a2]) ^ ROR24(t0[a3]) (GB/T 32907-2016 §6.2),
 * four lookups and three rotations per round instead of four S-box lookups and L. */
#include "kernel.h"
#include "sm4_tables.h"

static inline uint32_t sm4_t_table(uint32_t a)
{
    return sm4_t0[a >> 24] ^ ROTR32(sm4_t0[(a >> 16) & 0xff], 8) ^ ROTR32(sm4_t0[(a >> 8) & 0xff], 16) ^
           ROTR32(sm4_t0[a & 0xff], 24);
}

#define SM4_T(a) sm4_t_table(a)
#include "sm4_core.h"
