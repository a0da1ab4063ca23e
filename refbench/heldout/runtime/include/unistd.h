/* PQClean's randombytes.h includes <unistd.h> for size_t only; nothing else is needed. */
#ifndef CORTEXM_EMU_HELD_OUT_UNISTD_H
#define CORTEXM_EMU_HELD_OUT_UNISTD_H
#include <stddef.h>
#endif
