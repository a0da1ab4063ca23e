/* Native board-memory replay for cortexm_emu.flash_replay (rules R1-R7 of flash.py).
 *
 * Two parts, both equivalent to Python code that stays the reference and the fallback:
 *
 * 1. cfr_read_hook, registered with uc_hook_add(UC_HOOK_MEM_READ) bounded to the ranges read
 *    as flash, appends (index in the block trace, address) of every flash data read to a
 *    cfr_reads log -- what Machine._on_flash_read does in Python. The trace index is the
 *    native block counter's count of executed blocks minus one: the log holds a pointer to
 *    that count (cme_state.blocks of blockcount.c), it never changes the counter.
 *
 * 2. cfr_replay walks the executed block trace once or twice (warm start) with the flash line
 *    buffer, the prefetch buffer and presence-only LRU caches, exactly as
 *    flash_replay.walk and caches.LruCache do, and returns the same stall cycles and counts.
 *
 * Built on first use by cortexm_emu.native.compile_library with the host C compiler and loaded
 * by cortexm_emu.flash_native; no Unicorn header is needed (the hook receives an opaque engine
 * pointer).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define CFR_NO_PREV 0xFFFFFFFFu

enum {
    CFR_OK = 0,
    CFR_NO_MEMORY = 1,
    CFR_UNKNOWN_BLOCK = 2,  /* a trace address without a plan */
    CFR_BAD_GEOMETRY = 3,
};

/* ------------------------------------------------------------------------------------------ */
/* 1. the flash data-read log                                                                 */

typedef struct {
    const uint64_t *blocks;  /* executed-block count of the native counter (read only) */
    int64_t *positions;      /* index in the block trace of the block that read */
    uint32_t *addresses;
    uint64_t len;
    uint64_t cap;
    int32_t failed;          /* a buffer could not grow: reads after it were lost */
} cfr_reads;

cfr_reads *cfr_reads_new(const uint64_t *blocks) {
    cfr_reads *r = calloc(1, sizeof(cfr_reads));
    if (r != NULL) {
        r->blocks = blocks;
    }
    return r;
}

void cfr_reads_free(cfr_reads *r) {
    if (r != NULL) {
        free(r->positions);
        free(r->addresses);
        free(r);
    }
}

void cfr_reads_reset(cfr_reads *r) {
    r->len = 0;
    r->failed = 0;
}

static int cfr_reads_grow(cfr_reads *r) {
    uint64_t capacity = r->cap ? r->cap * 2 : 65536;
    int64_t *positions = realloc(r->positions, capacity * sizeof(int64_t));
    if (positions == NULL) {
        return -1;
    }
    r->positions = positions;
    uint32_t *addresses = realloc(r->addresses, capacity * sizeof(uint32_t));
    if (addresses == NULL) {
        return -1;
    }
    r->addresses = addresses;
    r->cap = capacity;
    return 0;
}

void cfr_read_hook(void *uc, int type, uint64_t address, int size, int64_t value, void *user_data) {
    (void)uc;
    (void)type;
    (void)size;
    (void)value;
    cfr_reads *r = (cfr_reads *)user_data;
    if (r->failed) {
        return;
    }
    if (r->len == r->cap && cfr_reads_grow(r) != 0) {
        r->failed = 1;
        return;
    }
    r->positions[r->len] = (int64_t)*r->blocks - 1;
    r->addresses[r->len] = (uint32_t)address;
    r->len++;
}

/* ------------------------------------------------------------------------------------------ */
/* 2. the replay                                                                              */

/* One cache as caches.LruCache models it: sets of `ways` lines, each line a bit mask of valid
 * sectors. LRU by a use stamp per line (the Python model keeps the same order as dict
 * insertion order: a hit or a fill makes a line the most recent, a miss changes nothing). */
typedef struct {
    int64_t present;
    int64_t line_bytes;
    int64_t sector_bytes;
    int64_t ways;
    int64_t sets;
} cfr_geometry;

typedef struct {
    int64_t wait_cycles;       /* BoardMemory.wait_cycles */
    int64_t read_cycles;       /* (WS + 1) x hclk_divider: a whole flash read */
    int64_t line_bytes;        /* flash line (read width) */
    int64_t prefetch;          /* prefetch buffer on */
    int64_t passes;            /* 2: warm start, 1: cold */
    int64_t allocate_prefetched; /* the I-cache copies prefetched lines too (not the ART) */
    int64_t shared;            /* the data cache is the instruction cache (M33 ICACHE) */
    cfr_geometry icache;
    cfr_geometry dcache;
} cfr_config;

typedef struct {
    int64_t line_bytes;
    int64_t sector_bytes;
    int64_t ways;
    int64_t sets;
    uint64_t *tags;    /* line index per way */
    uint64_t *masks;   /* valid sectors per way */
    uint64_t *stamps;  /* last use per way */
    int64_t *used;     /* ways in use per set */
    uint64_t clock;
    uint64_t hits;
    uint64_t misses;
} cfr_cache;

static void cfr_cache_free(cfr_cache *c) {
    free(c->tags);
    free(c->masks);
    free(c->stamps);
    free(c->used);
}

static int cfr_cache_init(cfr_cache *c, const cfr_geometry *g) {
    memset(c, 0, sizeof(*c));
    if (g->line_bytes <= 0 || g->sector_bytes <= 0 || g->ways <= 0 || g->sets <= 0 ||
        g->line_bytes % g->sector_bytes != 0 || g->line_bytes / g->sector_bytes > 64) {
        return CFR_BAD_GEOMETRY;
    }
    c->line_bytes = g->line_bytes;
    c->sector_bytes = g->sector_bytes;
    c->ways = g->ways;
    c->sets = g->sets;
    uint64_t slots = (uint64_t)g->ways * (uint64_t)g->sets;
    c->tags = calloc(slots, sizeof(uint64_t));
    c->masks = calloc(slots, sizeof(uint64_t));
    c->stamps = calloc(slots, sizeof(uint64_t));
    c->used = calloc((uint64_t)g->sets, sizeof(int64_t));
    if (c->tags == NULL || c->masks == NULL || c->stamps == NULL || c->used == NULL) {
        cfr_cache_free(c);
        return CFR_NO_MEMORY;
    }
    return CFR_OK;
}

/* The way holding `line` in its set, or -1. */
static inline int64_t cfr_find(const cfr_cache *c, uint64_t base, int64_t used, uint64_t line) {
    for (int64_t w = 0; w < used; w++) {
        if (c->tags[base + (uint64_t)w] == line) {
            return w;
        }
    }
    return -1;
}

/* LruCache.lookup: 1 if the sector holding `address` is present (its line becomes the most
 * recent), else 0; counts hits and misses. */
static inline int cfr_lookup(cfr_cache *c, uint64_t address) {
    uint64_t line = address / (uint64_t)c->line_bytes;
    uint64_t bit = 1ull << ((address % (uint64_t)c->line_bytes) / (uint64_t)c->sector_bytes);
    uint64_t set = line % (uint64_t)c->sets;
    uint64_t base = set * (uint64_t)c->ways;
    int64_t w = cfr_find(c, base, c->used[set], line);
    if (w < 0 || !(c->masks[base + (uint64_t)w] & bit)) {
        c->misses++;
        return 0;
    }
    c->stamps[base + (uint64_t)w] = ++c->clock;
    c->hits++;
    return 1;
}

/* LruCache.fill: bring the sector in; a new line evicts the set's least recently used one. */
static inline void cfr_fill(cfr_cache *c, uint64_t address) {
    uint64_t line = address / (uint64_t)c->line_bytes;
    uint64_t bit = 1ull << ((address % (uint64_t)c->line_bytes) / (uint64_t)c->sector_bytes);
    uint64_t set = line % (uint64_t)c->sets;
    uint64_t base = set * (uint64_t)c->ways;
    int64_t used = c->used[set];
    int64_t w = cfr_find(c, base, used, line);
    if (w < 0) {
        if (used < c->ways) {
            w = used;
            c->used[set] = used + 1;
        } else {
            w = 0;
            for (int64_t k = 1; k < used; k++) {
                if (c->stamps[base + (uint64_t)k] < c->stamps[base + (uint64_t)w]) {
                    w = k;
                }
            }
        }
        c->tags[base + (uint64_t)w] = line;
        c->masks[base + (uint64_t)w] = 0;
    }
    c->masks[base + (uint64_t)w] |= bit;
    c->stamps[base + (uint64_t)w] = ++c->clock;
}

/* Open-addressing map from a 64-bit key to an index (key + 1 stored, 0 = empty). */
typedef struct {
    uint64_t *keys;
    int64_t *values;
    uint64_t mask;
} cfr_map;

static inline uint64_t cfr_hash(uint64_t key) {
    uint64_t h = key * 0x9E3779B97F4A7C15ull;
    return h ^ (h >> 29);
}

static int cfr_map_init(cfr_map *m, uint64_t n) {
    uint64_t capacity = 16;
    while (capacity < 2 * n + 1) {
        capacity *= 2;
    }
    m->keys = calloc(capacity, sizeof(uint64_t));
    m->values = calloc(capacity, sizeof(int64_t));
    m->mask = capacity - 1;
    if (m->keys == NULL || m->values == NULL) {
        free(m->keys);
        free(m->values);
        return CFR_NO_MEMORY;
    }
    return CFR_OK;
}

static void cfr_map_free(cfr_map *m) {
    free(m->keys);
    free(m->values);
}

/* Insert or overwrite (a later duplicate key wins, as in a Python dict built in order). */
static void cfr_map_put(cfr_map *m, uint64_t key, int64_t value) {
    uint64_t i = cfr_hash(key) & m->mask;
    while (m->keys[i] != 0 && m->keys[i] != key + 1) {
        i = (i + 1) & m->mask;
    }
    m->keys[i] = key + 1;
    m->values[i] = value;
}

static int cfr_map_get(const cfr_map *m, uint64_t key, int64_t *value) {
    uint64_t i = cfr_hash(key) & m->mask;
    while (m->keys[i] != 0) {
        if (m->keys[i] == key + 1) {
            *value = m->values[i];
            return 1;
        }
        i = (i + 1) & m->mask;
    }
    return 0;
}

/* counts[] order: cortexm_emu.flash_replay.COUNTS */
enum {
    K_SEQUENTIAL_STALL = 0,
    K_BRANCH_STALL,
    K_DATA_STALL,
    K_DEMAND_LINE_READS,
    K_PREFETCHED_LINES_USED,
    K_FLASH_DATA_READS,
    K_ICACHE_HITS,
    K_ICACHE_MISSES,
    K_DCACHE_HITS,
    K_DCACHE_MISSES,
    K_COUNT,
};

/* Replay `trace` (n block addresses in execution order).
 *   blocks: nblocks addresses; block b's fetch steps are steps_line/steps_cycles
 *           [plan_start[b], plan_start[b + 1]) (line -1: not fetched from flash)
 *   edges:  nedges (prev, cur, cycles before the block's own: memory extra + taken extra +
 *           pipeline carry-over); prev CFR_NO_PREV for the first block; an edge not listed
 *           adds nothing
 *   reads:  nreads (trace position, address) of flash data reads, positions not decreasing
 * counts: K_COUNT results. Returns CFR_OK or an error code. */
int cfr_replay(const cfr_config *cfg, const uint32_t *trace, uint64_t n, const uint32_t *blocks,
               uint64_t nblocks, const uint64_t *plan_start, const int64_t *steps_line,
               const int64_t *steps_cycles, const uint32_t *edge_prev, const uint32_t *edge_cur,
               const int64_t *edge_cycles, uint64_t nedges, const int64_t *read_positions,
               const uint32_t *read_addresses, uint64_t nreads, int64_t *counts) {
    int status = CFR_OK;
    cfr_map block_map = {0}, edge_map = {0};
    cfr_cache icache_store, dcache_store;
    cfr_cache *icache = NULL, *dcache = NULL;
    int icache_ready = 0, dcache_ready = 0;
    uint32_t *block_at = NULL;
    int64_t *pre_at = NULL;
    memset(counts, 0, K_COUNT * sizeof(int64_t));

    if ((status = cfr_map_init(&block_map, nblocks)) != CFR_OK) {
        return status;
    }
    if ((status = cfr_map_init(&edge_map, nedges)) != CFR_OK) {
        cfr_map_free(&block_map);
        return status;
    }
    for (uint64_t b = 0; b < nblocks; b++) {
        cfr_map_put(&block_map, blocks[b], (int64_t)b);
    }
    for (uint64_t e = 0; e < nedges; e++) {
        cfr_map_put(&edge_map, ((uint64_t)edge_prev[e] << 32) | edge_cur[e], edge_cycles[e]);
    }
    /* each position's block and edge cycles, resolved once for both passes */
    block_at = malloc((n ? n : 1) * sizeof(uint32_t));
    pre_at = malloc((n ? n : 1) * sizeof(int64_t));
    if (block_at == NULL || pre_at == NULL) {
        status = CFR_NO_MEMORY;
        goto done;
    }
    uint32_t prev = CFR_NO_PREV;
    for (uint64_t i = 0; i < n; i++) {
        int64_t index = 0, pre = 0;
        if (!cfr_map_get(&block_map, trace[i], &index)) {
            status = CFR_UNKNOWN_BLOCK;
            goto done;
        }
        block_at[i] = (uint32_t)index;
        if (!cfr_map_get(&edge_map, ((uint64_t)prev << 32) | trace[i], &pre)) {
            pre = 0;
        }
        pre_at[i] = pre;
        prev = trace[i];
    }
    if (cfg->icache.present) {
        if ((status = cfr_cache_init(&icache_store, &cfg->icache)) != CFR_OK) {
            goto done;
        }
        icache_ready = 1;
        icache = &icache_store;
    }
    if (cfg->shared && icache != NULL) {
        dcache = icache;
    } else if (cfg->dcache.present) {
        if ((status = cfr_cache_init(&dcache_store, &cfg->dcache)) != CFR_OK) {
            goto done;
        }
        dcache_ready = 1;
        dcache = &dcache_store;
    }

    const int64_t ws = cfg->wait_cycles;
    const uint64_t line_bytes = (uint64_t)cfg->line_bytes;
    const int prefetch = cfg->prefetch != 0;
    const int allocate_prefetched = icache != NULL && cfg->allocate_prefetched;
    for (int64_t pass = 0; pass < cfg->passes; pass++) {
        if (icache != NULL) {
            icache->hits = icache->misses = 0;
        }
        if (dcache != NULL) {
            dcache->hits = dcache->misses = 0;
        }
        int64_t t = 0;
        int have_current = 0;
        int64_t current = 0;
        int64_t pf_line = -1;  /* no line prefetched (line indices are >= 0) */
        int64_t pf_ready = 0;
        int64_t seq_stall = 0, branch_stall = 0, data_stall = 0;
        int64_t line_reads = 0, prefetch_used = 0, data_reads = 0;
        uint64_t r = 0;
        for (uint64_t position = 0; position < n; position++) {
            t += pre_at[position];
            while (r < nreads && read_positions[r] == (int64_t)position) {
                data_reads++;
                uint64_t address = read_addresses[r];
                r++;
                if (dcache != NULL) {
                    if (cfr_lookup(dcache, address)) {
                        continue;
                    }
                    cfr_fill(dcache, address);
                }
                t += ws;
                data_stall += ws;
            }
            uint32_t b = block_at[position];
            for (uint64_t s = plan_start[b]; s < plan_start[b + 1]; s++) {
                int64_t line = steps_line[s];
                if (line >= 0 && (!have_current || line != current)) {
                    int sequential = have_current && line == current + 1;
                    int64_t stall;
                    if (icache != NULL && cfr_lookup(icache, (uint64_t)line * line_bytes)) {
                        stall = 0;
                    } else if (prefetch && line == pf_line) {
                        int64_t left = pf_ready - t;
                        stall = left < 0 ? 0 : left;
                        if (stall > ws) {
                            stall = ws;
                        }
                        prefetch_used++;
                        if (allocate_prefetched) {
                            cfr_fill(icache, (uint64_t)line * line_bytes);
                        }
                    } else {
                        stall = ws;
                        line_reads++;
                        if (icache != NULL) {
                            cfr_fill(icache, (uint64_t)line * line_bytes);
                        }
                    }
                    if (sequential) {
                        seq_stall += stall;
                    } else {
                        branch_stall += stall;
                    }
                    t += stall;
                    current = line;
                    have_current = 1;
                    if (prefetch) {
                        pf_line = line + 1;
                        pf_ready = t + cfg->read_cycles;
                    }
                }
                t += steps_cycles[s];
            }
        }
        counts[K_SEQUENTIAL_STALL] = seq_stall;
        counts[K_BRANCH_STALL] = branch_stall;
        counts[K_DATA_STALL] = data_stall;
        counts[K_DEMAND_LINE_READS] = line_reads;
        counts[K_PREFETCHED_LINES_USED] = prefetch_used;
        counts[K_FLASH_DATA_READS] = data_reads;
    }
    if (icache != NULL) {
        counts[K_ICACHE_HITS] = (int64_t)icache->hits;
        counts[K_ICACHE_MISSES] = (int64_t)icache->misses;
    }
    if (dcache != NULL && dcache != icache) {
        counts[K_DCACHE_HITS] = (int64_t)dcache->hits;
        counts[K_DCACHE_MISSES] = (int64_t)dcache->misses;
    }

done:
    if (icache_ready) {
        cfr_cache_free(&icache_store);
    }
    if (dcache_ready) {
        cfr_cache_free(&dcache_store);
    }
    free(block_at);
    free(pre_at);
    cfr_map_free(&block_map);
    cfr_map_free(&edge_map);
    return status;
}
