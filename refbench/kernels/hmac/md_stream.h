/* Merkle-Damgard streaming, written once for the hashes whose compression
 * folds one block into a chaining value H: MD5 (RFC 1321 §3), SHA-1,
 * SHA-224/256 and SHA-384/512 (FIPS 180-4 §5-6). A hash plugs in as an
 * md_hash: its compression, initial hash value, block size B, digest size L
 * and byte order. Whole blocks are compressed straight from the caller's data;
 * only a partial block is copied. Header-only (static inline), so a family that
 * links one stream source (drbg: sha256_stream.c) needs nothing more. */
#ifndef REFBENCH_MD_STREAM_H
#define REFBENCH_MD_STREAM_H
#include "kernel.h"

/* The chaining value: up to sixteen 32-bit words or eight 64-bit words. */
typedef union {
    uint32_t w[16];
    uint64_t q[8];
} md_chain;

enum md_byte_order {
    MD_LITTLE_ENDIAN32,   /* MD5 (RFC 1321 §2, §3.2): words and length little-endian */
    MD_BIG_ENDIAN32,      /* SHA-1, SHA-224, SHA-256 (FIPS 180-4 §3.1) */
    MD_BIG_ENDIAN64       /* SHA-384, SHA-512: 64-bit words, big-endian */
};

typedef struct {
    void (*compress)(md_chain *H, const uint8_t *block);
    const md_chain *H0;        /* initial hash value */
    uint32_t chain_words;      /* 32-bit words of H: 4 (MD5), 5, 8, 16 (SHA-384/512) */
    uint32_t block_bytes;      /* B: 64, or 128 for SHA-384/512; the length field is B/8 bytes */
    uint32_t digest_bytes;     /* L: the leftmost L bytes of H, a whole number of 32-bit words */
    enum md_byte_order order;
} md_hash;

typedef struct {
    md_chain H;
    uint8_t buffer[128];
    uint32_t fill;    /* bytes waiting in buffer */
    uint32_t total;   /* bytes hashed so far (messages here stay below 2^29 bytes) */
} md_stream;

static inline void md_stream_init(const md_hash *hash, md_stream *s)
{
    uint32_t i;

    for (i = 0; i < hash->chain_words; i++) {
        s->H.w[i] = hash->H0->w[i];
    }
    s->fill = 0;
    s->total = 0;
}

static inline void md_stream_update(const md_hash *hash, md_stream *s, const uint8_t *data, uint32_t len)
{
    uint32_t B = hash->block_bytes;

    s->total += len;
    while (len > 0) {
        if (s->fill == 0 && len >= B) {
            hash->compress(&s->H, data);
            data += B;
            len -= B;
            continue;
        }
        s->buffer[s->fill++] = *data++;
        len--;
        if (s->fill == B) {
            hash->compress(&s->H, s->buffer);
            s->fill = 0;
        }
    }
}

/* Padding (FIPS 180-4 §5.1.1-5.1.2, RFC 1321 §3.1-3.2): 0x80, zeros, and the
 * bit length in the last B/8 bytes; then the leftmost L bytes of H. */
static inline void md_stream_final(const md_hash *hash, md_stream *s, uint8_t *digest)
{
    uint32_t B = hash->block_bytes, i, fill = s->fill;

    s->buffer[fill++] = 0x80;
    if (fill > B - B / 8) {
        while (fill < B) {
            s->buffer[fill++] = 0;
        }
        hash->compress(&s->H, s->buffer);
        fill = 0;
    }
    while (fill < B - 8) {
        s->buffer[fill++] = 0;
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
#endif
