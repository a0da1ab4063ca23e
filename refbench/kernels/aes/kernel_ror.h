/* Rotation by a count that may be 0 (ROTR32 in kernel.h needs 1..31); compiles to one ROR. */
#ifndef REFBENCH_KERNEL_ROR_H
#define REFBENCH_KERNEL_ROR_H
#include "kernel.h"

static inline uint32_t ror32(uint32_t x, uint32_t n)
{
    return (x >> n) | (x << ((32 - n) & 31));
}
#endif
