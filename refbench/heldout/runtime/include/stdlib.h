/* Freestanding declarations for the held-out programs; definitions in ../runtime.c. */
#ifndef CORTEXM_EMU_HELD_OUT_STDLIB_H
#define CORTEXM_EMU_HELD_OUT_STDLIB_H
#include <stddef.h>
void *malloc(size_t n);
void free(void *p);
void abort(void);
#define EXIT_FAILURE 1
void exit(int status);
#endif
