/* Hash_DRBG with SHA-256 (NIST SP 800-90A Rev. 1 §10.1.1), no prediction
 * resistance, no additional input: Instantiate (§10.1.1.2) fills the working
 * state, Generate (§10.1.1.4) returns bytes and updates it. seedlen = 440 bits
 * (Table 2), so V and C are 55 bytes, big-endian integers. Hash is SHA-256 streamed
 * over the sha256 family's md_hash (sha256_digest.c, common/merkle_damgard.h). */
#include "sha256_common.h"

#define SEEDLEN 55   /* bytes (440 bits) */

/* The working state (§10.1.1.1) as bytes, so the caller's buffer needs no alignment:
 * V[55], C[55], reseed_counter as 4 bytes little-endian. */
#define DRBG_V(ctx) (ctx)
#define DRBG_C(ctx) ((ctx) + SEEDLEN)
#define DRBG_COUNTER(ctx) ((ctx) + 2 * SEEDLEN)
#define DRBG_CONTEXT_BYTES (2 * SEEDLEN + 4)

/* Hash_df (§10.3.1) of the concatenation of up to three byte strings, to seedlen bits. */
static void hash_df(const uint8_t *a, uint32_t a_len, const uint8_t *b, uint32_t b_len,
                    const uint8_t *c, uint32_t c_len, uint8_t out[SEEDLEN])
{
    md_stream s;
    uint8_t prefix[5], digest[32];
    uint32_t counter, i, n;

    prefix[1] = 0; prefix[2] = 0; prefix[3] = 0x01; prefix[4] = 0xb8;   /* no_of_bits_to_return = 440 */
    for (counter = 1; counter <= 2; counter++) {                         /* len = ceil(440 / 256) = 2 */
        prefix[0] = (uint8_t)counter;
        md_stream_init(&SHA256_HASH, &s);
        md_stream_update(&SHA256_HASH, &s, prefix, 5);
        md_stream_update(&SHA256_HASH, &s, a, a_len);
        md_stream_update(&SHA256_HASH, &s, b, b_len);
        md_stream_update(&SHA256_HASH, &s, c, c_len);
        md_stream_final(&SHA256_HASH, &s, digest);
        n = counter == 1 ? 32 : SEEDLEN - 32;
        for (i = 0; i < n; i++) {
            out[32 * (counter - 1) + i] = digest[i];
        }
    }
}

/* acc = (acc + addend) mod 2^440, addend of addend_len <= 55 bytes, both big-endian. */
static void add_mod_seedlen(uint8_t acc[SEEDLEN], const uint8_t *addend, uint32_t addend_len)
{
    uint32_t carry = 0, i;

    for (i = 0; i < SEEDLEN; i++) {
        carry += acc[SEEDLEN - 1 - i];
        if (i < addend_len) {
            carry += addend[addend_len - 1 - i];
        }
        acc[SEEDLEN - 1 - i] = (uint8_t)carry;
        carry >>= 8;
    }
}

/* Instantiate (§10.1.1.2): seed = Hash_df(entropy_input || nonce || personalization_string);
 * V = seed, C = Hash_df(0x00 || V), reseed_counter = 1. */
void hash_drbg_instantiate(const uint8_t *entropy, uint32_t entropy_len, const uint8_t *nonce, uint32_t nonce_len,
                           const uint8_t *personalization, uint32_t personalization_len, uint8_t *ctx)
{
    static const uint8_t zero = 0x00;

    hash_df(entropy, entropy_len, nonce, nonce_len, personalization, personalization_len, DRBG_V(ctx));
    hash_df(&zero, 1, DRBG_V(ctx), SEEDLEN, 0, 0, DRBG_C(ctx));
    store32_le(DRBG_COUNTER(ctx), 1);
}

/* Generate (§10.1.1.4) out_len bytes into out: Hashgen (§10.1.1.4 step 3, the
 * hash of V, V + 1, ...), then V = V + Hash(0x03 || V) + C + reseed_counter. */
void hash_drbg_generate(uint8_t *ctx, uint8_t *out, uint32_t out_len)
{
    static const uint8_t three = 0x03;
    md_stream s;
    uint8_t data[SEEDLEN], w[32], be_counter[4];
    uint32_t i, n, counter;

    for (i = 0; i < SEEDLEN; i++) {
        data[i] = DRBG_V(ctx)[i];
    }
    while (out_len > 0) {
        md_digest(&SHA256_HASH, data, SEEDLEN, w);   /* w = Hash(data) */
        n = out_len < 32 ? out_len : 32;
        for (i = 0; i < n; i++) {
            out[i] = w[i];
        }
        out += n;
        out_len -= n;
        be_counter[0] = 0; be_counter[1] = 0; be_counter[2] = 0; be_counter[3] = 1;
        add_mod_seedlen(data, be_counter, 4);   /* data = (data + 1) mod 2^seedlen */
    }
    md_stream_init(&SHA256_HASH, &s);            /* step 4: H = Hash(0x03 || V) */
    md_stream_update(&SHA256_HASH, &s, &three, 1);
    md_stream_update(&SHA256_HASH, &s, DRBG_V(ctx), SEEDLEN);
    md_stream_final(&SHA256_HASH, &s, w);
    counter = load32_le(DRBG_COUNTER(ctx));
    store32_be(be_counter, counter);
    add_mod_seedlen(DRBG_V(ctx), w, 32);         /* step 5: V = (V + H + C + reseed_counter) mod 2^seedlen */
    add_mod_seedlen(DRBG_V(ctx), DRBG_C(ctx), SEEDLEN);
    add_mod_seedlen(DRBG_V(ctx), be_counter, 4);
    store32_le(DRBG_COUNTER(ctx), counter + 1);  /* step 6 */
}
