/* Native per-block accounting for cortexm_emu.
 *
 * cme_block_hook is registered with uc_hook_add(UC_HOOK_BLOCK) on the Unicorn
 * handle the Python binding holds. Each time Unicorn enters a translated block
 * it counts the EDGE (previous block -> this block) in an open-addressing hash
 * table and adds the edge's precomputed cost (cycles, instructions). A new edge
 * calls back into Python once (cme_state.discover), which decodes and prices
 * the block; from then on the edge costs one hash probe in C.
 *
 * cme_block_hook_traced (registered instead when a board memory system with history --
 * caches, prefetch -- needs it) does the same and also appends the address of every block it
 * counts to a growing trace buffer, so that the memory model can replay the exact block
 * sequence after the run. The untraced hook is unchanged by the trace: the traced one wraps it.
 *
 * Dynamic branch prediction (cortexm_emu.timing.prediction): an edge whose previous block ends in
 * a conditional branch the timing model predicts from history carries that branch in
 * cme_edge.branch (address, misprediction cycles, taken or not on this edge, the counter's initial
 * value; 0: none). Each time such an edge is counted, the branch's two-bit counter (one per branch
 * address, cleared by cme_reset) gives the prediction; a misprediction adds its cycles to the
 * count and to cme_edge.mispredicted, and the counter saturates toward the outcome.
 *
 * Built on first use by cortexm_emu.native with the host C compiler; no
 * Unicorn header is needed (the hook receives an opaque engine pointer and
 * uc_emu_stop is passed in as a function pointer).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define CME_NO_PREV 0xFFFFFFFFu

enum {
    CME_RUNNING = 0,
    CME_STOP_INSN_BUDGET = 1,
    CME_STOP_CYCLE_BUDGET = 2,
    CME_STOP_DISCOVER = 3,
    CME_STOP_NO_MEMORY = 4,
};

typedef struct {
    uint32_t prev;
    uint32_t cur;
    uint32_t used;
    uint32_t insns;
    int64_t cost;
    uint64_t count;
    uint64_t next;  /* 1 + index of the edge that followed this one last time (0: none) */
    uint64_t branch;        /* predicted branch (CME_BRANCH_* fields below); 0: none */
    uint64_t counter;       /* 1 + index of the branch's counter in cme_state.counters (0: none) */
    uint64_t mispredicted;  /* mispredictions counted on this edge */
} cme_edge;

/* cme_edge.branch: bits 0..31 branch address, 32..39 misprediction cycles, bit 40 taken on this
 * edge, bits 41..42 the counter's value before the branch first executes, bit 47 valid. */
#define CME_BRANCH_VALID (1ull << 47)
#define CME_BRANCH_ADDRESS(b) ((uint32_t)((b) & 0xFFFFFFFFu))
#define CME_BRANCH_CYCLES(b) ((int64_t)(((b) >> 32) & 0xFFu))
#define CME_BRANCH_TAKEN(b) ((uint8_t)(((b) >> 40) & 1u))
#define CME_BRANCH_INITIAL(b) ((uint8_t)(((b) >> 41) & 3u))

typedef int (*cme_discover_fn)(uint32_t prev, uint32_t cur, uint32_t size, int64_t *cost, uint32_t *insns,
                               uint64_t *branch);
typedef int (*cme_stop_fn)(void *uc);

typedef struct {
    int64_t cycles;          /* sum of the costs of the edges taken so far (current block included) */
    uint64_t instructions;
    uint64_t blocks;
    uint64_t insn_limit;     /* the instruction budget (UINT64_MAX: none; cme_reset sets it) */
    int64_t cycle_limit;     /* the cycle budget (INT64_MAX: none) */
    uint32_t prev;           /* block entered last, CME_NO_PREV before the first */
    int32_t stop_reason;
    uint64_t last;           /* 1 + index of the edge taken last (0: none) */
    uint64_t edges_used;
    uint64_t capacity;       /* power of two */
    cme_edge *table;
    cme_discover_fn discover;
    cme_stop_fn stop;
    /* block trace (appended; see cortexm_emu.native.State for the same order) */
    uint32_t *trace;         /* addresses of the blocks counted, in execution order */
    uint64_t trace_len;
    uint64_t trace_cap;
    /* branch predictor: two-bit counters, dense, found by branch address through an open hash */
    uint8_t *counters;
    uint64_t counters_used;
    uint64_t counters_cap;
    uint32_t *counter_keys;  /* hash: branch address, 0 = empty slot (Thumb code is never at 0 here) */
    uint64_t *counter_slots; /* hash: 1 + dense index */
    uint64_t counter_hash_cap;  /* power of two, or 0 before the first branch */
    int64_t branch_cycles;   /* misprediction cycles counted so far (included in cycles) */
} cme_state;

static inline uint64_t cme_slot(uint32_t prev, uint32_t cur, uint64_t mask) {
    uint64_t h = (((uint64_t)prev << 32) | cur) * 0x9E3779B97F4A7C15ull;
    h ^= h >> 29;
    return h & mask;
}

static cme_edge *cme_find(cme_edge *table, uint64_t mask, uint32_t prev, uint32_t cur) {
    /* open addressing, linear probing; the table is at most half full */
    uint64_t i = cme_slot(prev, cur, mask);
    for (;;) {
        cme_edge *e = &table[i];
        if (!e->used || (e->prev == prev && e->cur == cur)) {
            return e;
        }
        i = (i + 1) & mask;
    }
}

static int cme_grow(cme_state *s) {
    uint64_t capacity = s->capacity * 2;
    cme_edge *table = calloc(capacity, sizeof(cme_edge));
    if (table == NULL) {
        return -1;
    }
    for (uint64_t i = 0; i < s->capacity; i++) {
        cme_edge *old = &s->table[i];
        if (old->used) {
            cme_edge *moved = cme_find(table, capacity - 1, old->prev, old->cur);
            *moved = *old;
            moved->next = 0; /* indices changed: forget the successor hints */
        }
    }
    free(s->table);
    s->table = table;
    s->capacity = capacity;
    s->last = 0;
    return 0;
}

cme_state *cme_new(uint64_t capacity) {
    uint64_t cap = 64;
    while (cap < capacity) {
        cap *= 2;
    }
    cme_state *s = calloc(1, sizeof(cme_state));
    if (s == NULL) {
        return NULL;
    }
    s->table = calloc(cap, sizeof(cme_edge));
    if (s->table == NULL) {
        free(s);
        return NULL;
    }
    s->capacity = cap;
    s->prev = CME_NO_PREV;
    s->insn_limit = UINT64_MAX;
    s->cycle_limit = INT64_MAX;
    return s;
}

void cme_free(cme_state *s) {
    if (s != NULL) {
        free(s->trace);
        free(s->table);
        free(s->counters);
        free(s->counter_keys);
        free(s->counter_slots);
        free(s);
    }
}

/* A new call: forget every count and set the budgets (0: none); keep the callbacks and the
 * capacity. With keep_edges the priced edges stay (the caller knows that no code changed: their
 * costs still hold), their counts and mispredictions go to 0 and each branch counter goes back
 * to its initial value, so the call counts exactly as after a full reset without asking Python
 * again for each edge; without it the edges are forgotten too. */
void cme_reset(cme_state *s, uint64_t insn_budget, int64_t cycle_budget, int keep_edges) {
    s->insn_limit = insn_budget ? insn_budget : UINT64_MAX;
    s->cycle_limit = cycle_budget > 0 ? cycle_budget : INT64_MAX;
    if (keep_edges) {
        for (uint64_t i = 0; i < s->capacity; i++) {
            cme_edge *e = &s->table[i];
            if (e->used) {
                e->count = 0;
                e->mispredicted = 0;
                if (e->counter != 0) {
                    s->counters[e->counter - 1] = CME_BRANCH_INITIAL(e->branch);
                }
            }
        }
    } else {
        memset(s->table, 0, s->capacity * sizeof(cme_edge));
        s->edges_used = 0;
        s->counters_used = 0;
        if (s->counter_hash_cap) {
            memset(s->counter_keys, 0, s->counter_hash_cap * sizeof(uint32_t));
        }
    }
    s->cycles = 0;
    s->instructions = 0;
    s->blocks = 0;
    s->prev = CME_NO_PREV;
    s->stop_reason = CME_RUNNING;
    s->last = 0;
    s->trace_len = 0;
    s->branch_cycles = 0;
}

static inline uint64_t cme_counter_hash(uint32_t address, uint64_t mask) {
    uint64_t h = (uint64_t)address * 0x9E3779B97F4A7C15ull;
    return (h ^ (h >> 29)) & mask;
}

/* 1 + index of the counter of the branch at address (made, with its initial value, if new);
 * 0 if memory runs out. */
static uint64_t cme_counter_for(cme_state *s, uint32_t address, uint8_t initial) {
    if ((s->counters_used + 1) * 2 > s->counter_hash_cap) {
        uint64_t cap = s->counter_hash_cap ? s->counter_hash_cap * 2 : 256;
        uint32_t *keys = calloc(cap, sizeof(uint32_t));
        uint64_t *slots = calloc(cap, sizeof(uint64_t));
        uint8_t *counters = realloc(s->counters, cap);
        if (keys == NULL || slots == NULL || counters == NULL) {
            free(keys);
            free(slots);
            if (counters != NULL) {
                s->counters = counters;
            }
            return 0;
        }
        s->counters = counters;
        for (uint64_t i = 0; i < s->counter_hash_cap; i++) {
            if (s->counter_keys[i]) {
                uint64_t j = cme_counter_hash(s->counter_keys[i], cap - 1);
                while (keys[j]) {
                    j = (j + 1) & (cap - 1);
                }
                keys[j] = s->counter_keys[i];
                slots[j] = s->counter_slots[i];
            }
        }
        free(s->counter_keys);
        free(s->counter_slots);
        s->counter_keys = keys;
        s->counter_slots = slots;
        s->counter_hash_cap = cap;
        s->counters_cap = cap;
    }
    uint64_t mask = s->counter_hash_cap - 1;
    uint64_t i = cme_counter_hash(address, mask);
    while (s->counter_keys[i]) {
        if (s->counter_keys[i] == address) {
            return s->counter_slots[i];
        }
        i = (i + 1) & mask;
    }
    s->counter_keys[i] = address;
    s->counters[s->counters_used] = initial;
    s->counter_slots[i] = ++s->counters_used;
    return s->counter_slots[i];
}

/* Double the trace buffer; -1 if memory runs out. */
static int cme_trace_grow(cme_state *s) {
    uint64_t capacity = s->trace_cap ? s->trace_cap * 2 : 65536;
    uint32_t *trace = realloc(s->trace, capacity * sizeof(uint32_t));
    if (trace == NULL) {
        return -1;
    }
    s->trace = trace;
    s->trace_cap = capacity;
    return 0;
}

/* Copy the used edges into out (room for n); returns how many were copied. */
uint64_t cme_export(const cme_state *s, cme_edge *out, uint64_t n) {
    uint64_t k = 0;
    for (uint64_t i = 0; i < s->capacity && k < n; i++) {
        if (s->table[i].used) {
            out[k++] = s->table[i];
        }
    }
    return k;
}

/* A new edge (prev -> cur): discovered through Python, entered in the table, and made the
 * successor hint of the edge counted last. NULL when the run must stop (stop_reason says why). */
static __attribute__((noinline, cold)) cme_edge *cme_new_edge(void *uc, cme_state *s, uint32_t cur, uint32_t size) {
    uint32_t prev = s->prev;
    cme_edge *e = cme_find(s->table, s->capacity - 1, prev, cur);
    if (!e->used) {
        int64_t cost = 0;
        uint32_t insns = 0;
        uint64_t branch = 0;
        if (s->discover(prev, cur, size, &cost, &insns, &branch) != 0) {
            s->stop_reason = CME_STOP_DISCOVER;
            s->stop(uc);
            return NULL;
        }
        if ((s->edges_used + 1) * 2 > s->capacity) {
            if (cme_grow(s) != 0) {
                s->stop_reason = CME_STOP_NO_MEMORY;
                s->stop(uc);
                return NULL;
            }
            e = cme_find(s->table, s->capacity - 1, prev, cur);
        }
        e->prev = prev;
        e->cur = cur;
        e->used = 1;
        e->insns = insns;
        e->cost = cost;
        e->count = 0;
        e->next = 0;
        e->branch = branch;
        e->counter = 0;
        e->mispredicted = 0;
        if (branch & CME_BRANCH_VALID) {
            e->counter = cme_counter_for(s, CME_BRANCH_ADDRESS(branch), CME_BRANCH_INITIAL(branch));
            if (e->counter == 0) {
                e->used = 0;
                s->stop_reason = CME_STOP_NO_MEMORY;
                s->stop(uc);
                return NULL;
            }
        }
        s->edges_used++;
    }
    return e;
}

/* The edge prev -> cur when it is not the successor hint: found in the table (or new), and
 * made the hint of the edge counted last. */
static __attribute__((noinline)) cme_edge *cme_lookup(void *uc, cme_state *s, uint32_t cur, uint32_t size) {
    cme_edge *e = cme_find(s->table, s->capacity - 1, s->prev, cur);
    if (__builtin_expect(!e->used, 0)) {
        e = cme_new_edge(uc, s, cur, size);
        if (e == NULL) {
            return NULL;
        }
    }
    if (s->last != 0) {
        s->table[s->last - 1].next = (uint64_t)(e - s->table) + 1;
    }
    return e;
}

/* The budget that this edge would exceed: stop before the block runs. */
static __attribute__((noinline, cold)) void cme_over_budget(void *uc, cme_state *s, const cme_edge *e) {
    s->stop_reason = s->instructions + e->insns > s->insn_limit ? CME_STOP_INSN_BUDGET : CME_STOP_CYCLE_BUDGET;
    s->stop(uc);
}

/* The predictor (dynamic branch prediction), when the edge's branch counter is not saturated in
 * the direction of this edge's outcome: the misprediction cycles (if any) are returned and the
 * counter moves toward the outcome, exactly as step() in cortexm_emu.timing.prediction. */
static __attribute__((noinline)) int64_t cme_predict(cme_state *s, cme_edge *e, uint8_t *counter, uint8_t taken) {
    int mispredicted = (*counter >= 2) != taken;
    if (taken) {
        *counter += *counter < 3;
    } else {
        *counter -= *counter > 0;
    }
    if (!mispredicted) {
        return 0;
    }
    e->mispredicted++;
    s->branch_cycles += CME_BRANCH_CYCLES(e->branch);
    return CME_BRANCH_CYCLES(e->branch);
}

/* Unicorn's UC_HOOK_BLOCK callback: count the edge (previous block -> this block). The hot path
 * (the successor hint hits, the branch counter is saturated, no budget is reached) is a few loads
 * and stores; everything else is in the functions above, out of line. */
void cme_block_hook(void *uc, uint64_t address, uint32_t size, void *user_data) {
    cme_state *s = (cme_state *)user_data;
    uint32_t cur = (uint32_t)address;
    cme_edge *e = NULL;
    /* Fast path: the edge that followed the previous edge last time (loops, straight code). */
    if (__builtin_expect(s->last != 0, 1)) {
        uint64_t hint = s->table[s->last - 1].next;
        if (__builtin_expect(hint != 0, 1) && s->table[hint - 1].cur == cur) {
            e = &s->table[hint - 1];
        }
    }
    if (__builtin_expect(e == NULL, 0)) {
        e = cme_lookup(uc, s, cur, size);
        if (e == NULL) {
            return;
        }
    }
    int64_t cost = e->cost;
    /* In a steady loop the branch counter already sits saturated in the direction of this edge's
     * outcome (3 taken, 0 not taken): the prediction is right and the counter does not move, so
     * only one byte is read. The budgets are checked before anything is counted or moved. */
    uint8_t *counter = NULL;
    uint8_t taken = 0;
    if (e->counter != 0) {
        taken = CME_BRANCH_TAKEN(e->branch);
        uint8_t *c = &s->counters[e->counter - 1];
        if (__builtin_expect(*c != (uint8_t)(taken * 3u), 0)) {
            counter = c;
            cost += ((*c >= 2) != taken) ? CME_BRANCH_CYCLES(e->branch) : 0;
        }
    }
    if (__builtin_expect(s->instructions + e->insns > s->insn_limit || s->cycles + cost > s->cycle_limit, 0)) {
        cme_over_budget(uc, s, e);
        return;
    }
    if (__builtin_expect(counter != NULL, 0)) {
        cme_predict(s, e, counter, taken);
    }
    e->count++;
    s->cycles += cost;
    s->instructions += e->insns;
    s->blocks++;
    s->prev = cur;
    s->last = (uint64_t)(e - s->table) + 1;
}

/* The same count, and the block's address appended to the trace when it was counted. Room is
 * made first, so a block is never counted without its trace entry. */
void cme_block_hook_traced(void *uc, uint64_t address, uint32_t size, void *user_data) {
    cme_state *s = (cme_state *)user_data;
    if (s->trace_len == s->trace_cap && cme_trace_grow(s) != 0) {
        s->stop_reason = CME_STOP_NO_MEMORY;
        s->stop(uc);
        return;
    }
    uint64_t before = s->blocks;
    cme_block_hook(uc, address, size, user_data);
    if (s->blocks != before) {
        s->trace[s->trace_len++] = (uint32_t)address;
    }
}
