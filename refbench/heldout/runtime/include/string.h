/* Freestanding declarations for the held-out programs (refbench/heldout/runner.py);
 * the definitions are in ../runtime.c. */
#ifndef CORTEXM_EMU_HELD_OUT_STRING_H
#define CORTEXM_EMU_HELD_OUT_STRING_H
#include <stddef.h>
void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);
#endif
