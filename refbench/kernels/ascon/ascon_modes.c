/* Ascon-AEAD128 encryption (SP 800-232 §4.1, Algorithm 3) and Ascon-Hash256
 * (§5.1, Algorithm 5), shared by the permutation variants. Words are touched
 * only through ascon_xor_word / ascon_extract_word, so the same code drives
 * 64-bit lanes and bit-interleaved 32-bit words. */
#include "ascon.h"

/* The IVs of §4.1 and §5.1 as little-endian bytes: 0x00001000808c0001 and 0x0000080100cc0002. */
static const uint8_t AEAD128_IV[8] = {0x01, 0x00, 0x8c, 0x80, 0x00, 0x10, 0x00, 0x00};
static const uint8_t HASH256_IV[8] = {0x02, 0x00, 0xcc, 0x00, 0x01, 0x08, 0x00, 0x00};
/* Domain separation (§4.1.2): S ^= 0^319 || 1, the most significant bit of S4. */
static const uint8_t DSEP[8] = {0, 0, 0, 0, 0, 0, 0, 0x80};

static void ascon_zero(ascon_state *s)
{
    uint32_t i;

    for (i = 0; i < 10; i++) {
        s->w[i] = 0;
    }
}

/* data[0..len) (len < rate) followed by 0x01 and zeros to `rate` bytes (pad(X, r) for bytes). */
static void ascon_pad(uint8_t *block, const uint8_t *data, uint32_t len, uint32_t rate)
{
    uint32_t i;

    for (i = 0; i < rate; i++) {
        block[i] = i < len ? data[i] : (i == len ? 0x01 : 0x00);
    }
}

/* Encrypt len bytes of in into out under key[16] and nonce[16] with aad[aad_len]; tag[16]. */
void ascon_aead128_encrypt(const uint8_t *key, const uint8_t *nonce, const uint8_t *aad, uint32_t aad_len,
                           const uint8_t *in, uint8_t *out, uint32_t len, uint8_t *tag)
{
    ascon_state s;
    uint8_t block[16];
    uint32_t i;

    /* §4.1.1 initialization: S = IV || K || N, Ascon-p[12], S ^= 0^192 || K. */
    ascon_zero(&s);
    ascon_xor_word(&s, 0, AEAD128_IV);
    ascon_xor_word(&s, 1, key);
    ascon_xor_word(&s, 2, key + 8);
    ascon_xor_word(&s, 3, nonce);
    ascon_xor_word(&s, 4, nonce + 8);
    ascon_permute(&s, 12);
    ascon_xor_word(&s, 3, key);
    ascon_xor_word(&s, 4, key + 8);
    /* §4.1.2 associated data, only when there is some: 16-byte blocks, then the padded rest. */
    if (aad_len > 0) {
        for (; aad_len >= 16; aad_len -= 16, aad += 16) {
            ascon_xor_word(&s, 0, aad);
            ascon_xor_word(&s, 1, aad + 8);
            ascon_permute(&s, 8);
        }
        ascon_pad(block, aad, aad_len, 16);
        ascon_xor_word(&s, 0, block);
        ascon_xor_word(&s, 1, block + 8);
        ascon_permute(&s, 8);
    }
    ascon_xor_word(&s, 4, DSEP);
    /* §4.1.3 plaintext: C = S[0:127] after S ^= P, each full block followed by Ascon-p[8]. */
    for (; len >= 16; len -= 16, in += 16, out += 16) {
        ascon_xor_word(&s, 0, in);
        ascon_xor_word(&s, 1, in + 8);
        ascon_extract_word(&s, 0, out);
        ascon_extract_word(&s, 1, out + 8);
        ascon_permute(&s, 8);
    }
    ascon_pad(block, in, len, 16);
    ascon_xor_word(&s, 0, block);
    ascon_xor_word(&s, 1, block + 8);
    ascon_extract_word(&s, 0, block);
    ascon_extract_word(&s, 1, block + 8);
    for (i = 0; i < len; i++) {
        out[i] = block[i];
    }
    /* §4.1.4 finalization: S ^= 0^128 || K || 0^64, Ascon-p[12], T = S[192:319] ^ K. */
    ascon_xor_word(&s, 2, key);
    ascon_xor_word(&s, 3, key + 8);
    ascon_permute(&s, 12);
    ascon_extract_word(&s, 3, tag);
    ascon_extract_word(&s, 4, tag + 8);
    for (i = 0; i < 16; i++) {
        tag[i] ^= key[i];
    }
}

/* Ascon-Hash256 of len bytes at msg into digest[32]. */
void ascon_hash256(const uint8_t *msg, uint32_t len, uint8_t *digest)
{
    ascon_state s;
    uint8_t block[8];
    uint32_t i;

    ascon_zero(&s);                         /* S = IV || 0^256, Ascon-p[12] (computed, not precomputed) */
    ascon_xor_word(&s, 0, HASH256_IV);
    ascon_permute(&s, 12);
    for (; len >= 8; len -= 8, msg += 8) {  /* absorb 8-byte blocks */
        ascon_xor_word(&s, 0, msg);
        ascon_permute(&s, 12);
    }
    ascon_pad(block, msg, len, 8);
    ascon_xor_word(&s, 0, block);
    ascon_permute(&s, 12);
    for (i = 0; i < 4; i++) {               /* squeeze 4 x 64 bits */
        ascon_extract_word(&s, 0, digest + 8 * i);
        if (i < 3) {
            ascon_permute(&s, 12);
        }
    }
}
