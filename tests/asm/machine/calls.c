/* Test program for cortexm_emu's machine tests: AAPCS calls, buffers, state and faults.
   Built by tests/test_machine.py with cortexm_emu.toolchain.build for each core. */
#include <stdint.h>

uint32_t weighted(uint32_t a, uint32_t b, uint32_t c, uint32_t d, uint32_t e, uint32_t f, uint32_t g, uint32_t h) {
    return a + 2u * b + 3u * c + 4u * d + 5u * e + 6u * f + 7u * g + 8u * h;
}

/* a in r0, b in r2:r3 (even pair), c on the stack at [sp], d at [sp+8] (8-aligned). */
uint64_t mix64(uint32_t a, uint64_t b, uint32_t c, uint64_t d) {
    return (b ^ (d << 1)) + a + ((uint64_t)c << 32);
}

int32_t negate(int32_t x) { return -x; }

void xor_into(uint8_t *dst, const uint8_t *src, uint32_t n) {
    for (uint32_t i = 0; i < n; i++) {
        dst[i] ^= src[i];
    }
}

void fill(uint8_t *dst, uint32_t n, uint32_t value) {
    for (uint32_t i = 0; i < n; i++) {
        ((volatile uint8_t *)dst)[i] = (uint8_t)(value + i);
    }
}

/* Touches `depth` bytes of stack below its frame (volatile: not optimised away). */
uint32_t stack_user(uint32_t depth) {
    volatile uint8_t local[512];
    uint32_t sum = 0;
    for (uint32_t i = 0; i < depth && i < sizeof local; i++) {
        local[sizeof local - 1 - i] = (uint8_t)i;
    }
    for (uint32_t i = 0; i < depth && i < sizeof local; i++) {
        sum += local[sizeof local - 1 - i];
    }
    return sum;
}

static uint32_t counter = 5;
static uint32_t zeroed;

uint32_t bump(void) {
    counter += 1;
    zeroed += 2;
    return counter + zeroed;
}

__attribute__((noinline)) uint32_t leaf(uint32_t x) { return x * 3u + 1u; }

uint32_t calls_leaf(uint32_t x) { return leaf(x) + leaf(x + 1u); }

uint32_t recurse(uint32_t n) {
    volatile uint32_t pad[16];
    pad[0] = n;
    return recurse(n + 1u) + pad[0];
}

void spin(void) {
    for (;;) {
        __asm__ volatile("");
    }
}

void write_to_code(void) { *(volatile uint32_t *)((uintptr_t)&leaf & ~3u) = 0; }

/* A word store at an odd address: fine on ARMv7-M, a HardFault on ARMv6-M. */
void store_unaligned(uint8_t *p, uint32_t value) { *(volatile uint32_t *)(p + 1) = value; }

uint32_t read_unmapped(void) { return *(volatile uint32_t *)0x60000000u; }

void write_past_data(void) { *(volatile uint32_t *)((uintptr_t)&counter + 0x8000u) = 1; }

uint32_t divide(uint32_t a, uint32_t b) { return a / b; }

void cortexm_emu_halt(void) {
    for (;;) {
    }
}
