/* Native check of the F4 memory-block rule for cortexm_emu.memory_blocks: one UC_HOOK_CODE at the
 * first instruction of each load/store pair the core model priced as pipelined (an LDR followed
 * by an LDR/STR, DDI 0439D §3.3.2). The hook runs before that first instruction, when the
 * registers both address computations use hold their values (the pairing rule excludes a second
 * address that depends on the first instruction's results), computes both effective addresses,
 * and counts the pair when they lie in different memory blocks (jnk0le, cortex_m3m4.md: loads
 * and stores pipeline only within one block). No call back into Python.
 *
 * Built on first use by cortexm_emu.native.compile_library with the host C compiler; no Unicorn
 * header is needed (uc_reg_read is passed in as a function pointer).
 */
#include <stdint.h>

#define MB_MAX_RANGES 32

typedef int (*mb_reg_read_fn)(void *uc, int regid, void *value);

typedef struct {
    uint32_t start;  /* first address */
    uint32_t end;    /* last address (inclusive: a range may end at 0xFFFFFFFF) */
    int32_t block;
    int32_t pad;
} mb_range;

typedef struct {
    mb_reg_read_fn reg_read;  /* uc_reg_read */
    uint32_t n_ranges;
    int32_t other;            /* block of an address in no range */
    mb_range ranges[MB_MAX_RANGES];  /* first match wins */
    uint64_t pairs;           /* pipelined pairs executed */
    uint64_t switches;        /* ... whose two accesses were in different blocks */
} mb_state;

typedef struct {
    int32_t base;      /* Unicorn register id, or -1: base_value is the (aligned PC) base */
    int32_t index;     /* Unicorn register id, or -1 */
    uint32_t shift;    /* LSL of the index */
    int32_t subtract;  /* index subtracted */
    uint32_t disp;     /* added modulo 2^32 (two's complement) */
    uint32_t base_value;
} mb_operand;

typedef struct {
    mb_state *state;
    mb_operand first;
    mb_operand second;
} mb_pair;

static uint32_t mb_read(mb_state *s, void *uc, int32_t reg) {
    uint64_t value = 0;
    s->reg_read(uc, reg, &value);
    return (uint32_t)value;
}

static uint32_t mb_address(mb_state *s, void *uc, const mb_operand *op) {
    uint32_t value = op->base >= 0 ? mb_read(s, uc, op->base) : op->base_value;
    if (op->index >= 0) {
        uint32_t index = mb_read(s, uc, op->index) << op->shift;
        value = op->subtract ? value - index : value + index;
    }
    return value + op->disp;
}

static int32_t mb_block(const mb_state *s, uint32_t address) {
    for (uint32_t i = 0; i < s->n_ranges; i++) {
        if (s->ranges[i].start <= address && address <= s->ranges[i].end) {
            return s->ranges[i].block;
        }
    }
    return s->other;
}

void mb_pair_hook(void *uc, uint64_t address, uint32_t size, void *user) {
    mb_pair *pair = (mb_pair *)user;
    mb_state *s = pair->state;
    (void)address;
    (void)size;
    s->pairs++;
    if (mb_block(s, mb_address(s, uc, &pair->first)) != mb_block(s, mb_address(s, uc, &pair->second))) {
        s->switches++;
    }
}
