/* Test-only kernels for tests/test_leakage_kernels.py: each has one known secret dependence, or none.
 * The line each test must find is marked with a LEAK comment naming the test. Built with the
 * project's toolchain (cortexm_emu.toolchain.build), freestanding, no libc. */
#include <stdint.h>

/* A table in .rodata: a secret-indexed read of it is an address leak (LEAK: index). */
static const uint8_t TABLE[256] = {
#define R16(b) b, b + 1, b + 2, b + 3, b + 4, b + 5, b + 6, b + 7, b + 8, b + 9, b + 10, b + 11, b + 12, b + 13, b + 14, b + 15
    R16(0x00), R16(0x10), R16(0x20), R16(0x30), R16(0x40), R16(0x50), R16(0x60), R16(0x70),
    R16(0x80), R16(0x90), R16(0xa0), R16(0xb0), R16(0xc0), R16(0xd0), R16(0xe0), R16(0xf0)
};

/* out[i] = in[i] ^ TABLE[secret[i]]: the load of TABLE depends on the secret, nothing else does. */
void leak_index(const uint8_t *secret, const uint8_t *in, uint8_t *out, uint32_t len)
{
    for (uint32_t i = 0; i < len; i++) {
        uint8_t t = TABLE[secret[i]]; /* LEAK: index */
        out[i] = (uint8_t)(in[i] ^ t);
    }
}

/* A secret-dependent branch: when the secret's low bit is set, extra work is done. */
__attribute__((noinline)) static uint32_t mix(uint32_t x, uint32_t rounds)
{
    for (uint32_t r = 0; r < rounds; r++) {
        x = x * 0x9e3779b9u + r;
    }
    return x;
}

uint32_t leak_branch(const uint8_t *secret, uint32_t public_value)
{
    uint32_t x = public_value;
    if (secret[0] & 1u) { /* LEAK: branch */
        x = mix(x, 7u); /* LEAK: branch (the body: a conditional call, BLNE in an IT block on ARMv7-M) */
    }
    return x ^ secret[1];
}

/* Constant time: a masked select and an XOR, no secret-dependent address or branch. The empty asm
 * hides the mask's two possible values from the compiler: without it, clang -Os for ARMv6-M turns
 * the select into a branch on the secret (found by this analysis), as constant-time libraries warn. */
uint32_t no_leak(const uint8_t *secret, uint32_t a, uint32_t b)
{
    uint32_t mask = 0u - (uint32_t)(secret[0] & 1u);
    __asm__ volatile("" : "+r"(mask));
    uint32_t acc = 0;
    for (uint32_t i = 0; i < 16; i++) {
        acc ^= (uint32_t)secret[i] << (8 * (i & 3));
    }
    return ((a & mask) | (b & ~mask)) ^ acc;
}
