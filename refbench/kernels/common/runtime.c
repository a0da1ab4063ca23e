/* The few runtime pieces a freestanding kernel ELF needs: the halt loop the
 * emulator returns to (the linker script's ENTRY), and memcpy/memset, which
 * compilers emit for struct copies and zeroing even with -ffreestanding. */
#include "kernel.h"

void cortexm_emu_halt(void)
{
    for (;;) {
    }
}

void *memcpy(void *dst, const void *src, size_t n)
{
    uint8_t *d = dst;
    const uint8_t *s = src;
    while (n--) {
        *d++ = *s++;
    }
    return dst;
}

void *memset(void *dst, int c, size_t n)
{
    uint8_t *d = dst;
    while (n--) {
        *d++ = (uint8_t)c;
    }
    return dst;
}
