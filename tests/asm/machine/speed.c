/* Kernels for benchmarks/test_emulator_speed.py: long runs of typical compiled code.
   sha256_like: the shape of a SHA-256 compression (message schedule, 64 rounds of rotates,
   adds, Ch/Maj) with generated round constants; not a hash, just its instruction mix.
   xorshift: a tight ALU loop (short blocks, one branch per few instructions). */
#include <stdint.h>

static inline uint32_t ror(uint32_t x, unsigned n) { return (x >> n) | (x << (32u - n)); }

void sha256_like(uint32_t state[8], const uint32_t block[16], uint32_t repeats) {
    uint32_t w[64];
    for (uint32_t r = 0; r < repeats; r++) {
        for (unsigned i = 0; i < 16; i++) {
            w[i] = block[i] ^ r;
        }
        for (unsigned i = 16; i < 64; i++) {
            uint32_t s0 = ror(w[i - 15], 7) ^ ror(w[i - 15], 18) ^ (w[i - 15] >> 3);
            uint32_t s1 = ror(w[i - 2], 17) ^ ror(w[i - 2], 19) ^ (w[i - 2] >> 10);
            w[i] = w[i - 16] + s0 + w[i - 7] + s1;
        }
        uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
        uint32_t e = state[4], f = state[5], g = state[6], h = state[7];
        for (unsigned i = 0; i < 64; i++) {
            uint32_t k = 0x428A2F98u + i * 0x9E3779B9u;
            uint32_t t1 = h + (ror(e, 6) ^ ror(e, 11) ^ ror(e, 25)) + ((e & f) ^ (~e & g)) + k + w[i];
            uint32_t t2 = (ror(a, 2) ^ ror(a, 13) ^ ror(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
            h = g; g = f; f = e; e = d + t1; d = c; c = b; b = a; a = t1 + t2;
        }
        state[0] += a; state[1] += b; state[2] += c; state[3] += d;
        state[4] += e; state[5] += f; state[6] += g; state[7] += h;
    }
}

uint32_t xorshift(uint32_t x, uint32_t n) {
    uint32_t acc = 0;
    for (uint32_t i = 0; i < n; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        acc += x;
    }
    return acc;
}

void cortexm_emu_halt(void) {
    for (;;) {
    }
}
