/* The few C-library functions the held-out programs need, written for this project
 * (refbench/heldout/runner.py): a deterministic randombytes, a bump allocator for
 * PQClean's incremental SHAKE contexts, and word-at-a-time memcpy/memset.
 *
 * randombytes: a 32-bit xorshift generator seeded from `held_out_seed` (.data, restored before
 * every call), so each call sees the same bytes: the emulated runs are deterministic.
 * The published runs read the board's hardware RNG instead; that costs a few cycles per word. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <stdlib.h>

/* GCC would turn the copy loops below into calls to memcpy/memset themselves. */
#define NO_LIBCALL __attribute__((optimize("no-tree-loop-distribute-patterns")))

uint32_t held_out_seed = 0x6d2b79f5u;

int PQCLEAN_randombytes(uint8_t *out, size_t n) {
    uint32_t x = held_out_seed;
    for (size_t i = 0; i < n; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        out[i] = (uint8_t)x;
    }
    held_out_seed = x;
    return 0;
}

int randombytes(uint8_t *out, size_t n) {
    return PQCLEAN_randombytes(out, n);
}

/* Bump allocator: PQClean's fips202.c allocates one SHAKE context at a time and frees it. */
static uint64_t heap[2048];
static size_t heap_used;

void *malloc(size_t n) {
    size_t words = (n + 7) / 8;
    if (heap_used + words > sizeof heap / sizeof heap[0]) {
        return NULL;
    }
    void *p = &heap[heap_used];
    heap_used += words;
    return p;
}

void free(void *p) {
    /* contexts are released last-allocated first: freeing one releases it and all after it */
    uint64_t *q = p;
    if (q >= &heap[0] && q < &heap[heap_used]) {
        heap_used = (size_t)(q - &heap[0]);
    }
}

void abort(void) {
    for (;;) {
    }
}

void exit(int status) {
    (void)status;
    abort();
}

NO_LIBCALL void *memcpy(void *dst, const void *src, size_t n) {
    uint8_t *d = dst;
    const uint8_t *s = src;
    if ((((uintptr_t)d | (uintptr_t)s) & 3u) == 0) {
        for (; n >= 4; n -= 4, d += 4, s += 4) {
            *(uint32_t *)d = *(const uint32_t *)s;
        }
    }
    while (n--) {
        *d++ = *s++;
    }
    return dst;
}

NO_LIBCALL void *memmove(void *dst, const void *src, size_t n) {
    uint8_t *d = dst;
    const uint8_t *s = src;
    if (d < s) {
        while (n--) {
            *d++ = *s++;
        }
    } else {
        while (n--) {
            d[n] = s[n];
        }
    }
    return dst;
}

NO_LIBCALL void *memset(void *dst, int c, size_t n) {
    uint8_t *d = dst;
    while (n && ((uintptr_t)d & 3u)) {
        *d++ = (uint8_t)c;
        n--;
    }
    uint32_t w = (uint8_t)c * 0x01010101u;
    for (; n >= 4; n -= 4, d += 4) {
        *(uint32_t *)d = w;
    }
    while (n--) {
        *d++ = (uint8_t)c;
    }
    return dst;
}

NO_LIBCALL int memcmp(const void *a, const void *b, size_t n) {
    const uint8_t *x = a;
    const uint8_t *y = b;
    for (size_t i = 0; i < n; i++) {
        if (x[i] != y[i]) {
            return x[i] - y[i];
        }
    }
    return 0;
}

size_t strlen(const char *s) {
    size_t n = 0;
    while (s[n]) {
        n++;
    }
    return n;
}

void cortexm_emu_halt(void) {
    for (;;) {
    }
}
