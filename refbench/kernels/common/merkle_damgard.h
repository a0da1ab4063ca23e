/* The Merkle-Damgard construction, written once for every hash whose compression
 * folds one block into a chaining value H: MD5 (RFC 1321 §3), SHA-1, SHA-224/256,
 * SHA-384/512 and SHA-512/t (FIPS 180-4 §5-6), SM3 (GB/T 32905-2016 §5).
 *
 * A hash plugs in as an md_hash: its compression function, initial hash value, block
 * size B, digest size L and byte order. The family's <name>_digest.c defines the
 * md_hash next to its one-shot digest (md_digest); HMAC (hmac/) and Hash_DRBG (drbg/)
 * stream over the same md_hash (md_stream_*). Whole blocks are compressed straight from
 * the caller's data; only a partial block is copied.
 *
 * Header-only. The steps (md_start, md_absorb, md_finish) are always inlined into
 * md_digest, so each one-shot digest is a copy specialised for its descriptor (block size,
 * byte order, digest size and compression known at compile time): what a driver written
 * for one hash compiles to, as OpenSSL's md32_common.h gets by macros. The md_stream_*
 * functions leave inlining to the compiler, so a caller whose descriptor is known only at
 * run time (hmac.c) keeps one copy of each step. */
#ifndef REFBENCH_MERKLE_DAMGARD_H
#define REFBENCH_MERKLE_DAMGARD_H
#include "kernel.h"

#define MD_ALWAYS_INLINE static inline __attribute__((always_inline))

/* The chaining value: up to sixteen 32-bit words or eight 64-bit words. */
typedef union {
    uint32_t w[16];
    uint64_t q[8];
} md_chain;

enum md_byte_order {
    MD_LITTLE_ENDIAN32,   /* MD5 (RFC 1321 §2, §3.2): words and length little-endian */
    MD_BIG_ENDIAN32,      /* SHA-1, SHA-224, SHA-256 (FIPS 180-4 §3.1), SM3 (GB/T 32905-2016 §5.1) */
    MD_BIG_ENDIAN64       /* SHA-384, SHA-512, SHA-512/t: 64-bit words, big-endian */
};

typedef struct {
    void (*compress)(md_chain *H, const uint8_t *block);
    const md_chain *H0;        /* initial hash value */
    uint32_t chain_words;      /* 32-bit words of H: 4 (MD5), 5 (SHA-1), 8, 16 (SHA-384/512) */
    uint32_t block_bytes;      /* B: 64, or 128 for the SHA-512 family; the length field is B/8 bytes */
    uint32_t digest_bytes;     /* L: the leftmost L bytes of H, a whole number of 32-bit words */
    enum md_byte_order order;
} md_hash;

typedef struct {
    md_chain H;
    uint8_t buffer[128];
    uint32_t fill;    /* bytes waiting in buffer */
    uint32_t total;   /* bytes hashed so far; uint32_t, so the bit length is below 2^35 */
} md_stream;

/* Set H to the initial hash value (FIPS 180-4 §5.3, RFC 1321 §3.3, GB/T 32905-2016 §4.1). */
MD_ALWAYS_INLINE void md_start(const md_hash *hash, md_stream *s)
{
    uint32_t i;

    for (i = 0; i < hash->chain_words; i++) {
        s->H.w[i] = hash->H0->w[i];
    }
    s->fill = 0;
    s->total = 0;
}

/* Absorb len bytes: complete a block waiting in the buffer, compress whole blocks straight
 * from the data, keep the rest in the buffer (the block loop of FIPS 180-4 §6.x.2). */
MD_ALWAYS_INLINE void md_absorb(const md_hash *hash, md_stream *s, const uint8_t *data, uint32_t len)
{
    uint32_t B = hash->block_bytes;

    s->total += len;
    while (s->fill != 0 && len > 0) {
        s->buffer[s->fill++] = *data++;
        len--;
        if (s->fill == B) {
            hash->compress(&s->H, s->buffer);
            s->fill = 0;
        }
    }
    for (; len >= B; data += B, len -= B) {
        hash->compress(&s->H, data);
    }
    while (len > 0) {
        s->buffer[s->fill++] = *data++;
        len--;
    }
}

/* Padding (FIPS 180-4 §5.1.1-5.1.2, RFC 1321 §3.1-3.2, GB/T 32905-2016 §5.2): 0x80,
 * zeros, and the bit length in the last B/8 bytes, one more block if it does not fit;
 * then the digest, the leftmost L bytes of H (truncations: FIPS 180-4 §6.3, §6.5, §6.6). */
MD_ALWAYS_INLINE void md_finish(const md_hash *hash, md_stream *s, uint8_t *digest)
{
    uint32_t B = hash->block_bytes, i;
    uint8_t *p = s->buffer + s->fill, *end = s->buffer + B;

    *p++ = 0x80;
    if (p > end - B / 8) {    /* no room left for the length field: one more block */
        while (p < end) {
            *p++ = 0;
        }
        hash->compress(&s->H, s->buffer);
        p = s->buffer;
    }
    while (p < end - 8) {
        *p++ = 0;
    }
    if (hash->order == MD_LITTLE_ENDIAN32) {
        store32_le(s->buffer + B - 8, s->total << 3);
        store32_le(s->buffer + B - 4, s->total >> 29);
    } else {
        store32_be(s->buffer + B - 8, s->total >> 29);
        store32_be(s->buffer + B - 4, s->total << 3);
    }
    hash->compress(&s->H, s->buffer);
    for (i = 0; i < hash->digest_bytes / 4; i++) {
        if (hash->order == MD_LITTLE_ENDIAN32) {
            store32_le(digest + 4 * i, s->H.w[i]);
        } else if (hash->order == MD_BIG_ENDIAN32) {
            store32_be(digest + 4 * i, s->H.w[i]);
        } else {          /* the high half of q[i/2] is w[i+1] on little-endian Cortex-M */
            store32_be(digest + 4 * i, s->H.w[i ^ 1]);
        }
    }
}

/* Streaming, for constructions that hash concatenations (HMAC, Hash_DRBG). */
static inline void md_stream_init(const md_hash *hash, md_stream *s)
{
    md_start(hash, s);
}

static inline void md_stream_update(const md_hash *hash, md_stream *s, const uint8_t *data, uint32_t len)
{
    md_absorb(hash, s, data, len);
}

static inline void md_stream_final(const md_hash *hash, md_stream *s, uint8_t *digest)
{
    md_finish(hash, s, digest);
}

/* The one-shot digest of len bytes at msg into digest[L]: the hash families' operations. */
MD_ALWAYS_INLINE void md_digest(const md_hash *hash, const uint8_t *msg, uint32_t len, uint8_t *digest)
{
    md_stream s;

    md_start(hash, &s);
    md_absorb(hash, &s, msg, len);
    md_finish(hash, &s, digest);
}
#endif
