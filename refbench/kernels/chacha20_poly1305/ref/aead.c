/* ChaCha20-Poly1305 AEAD encryption (RFC 8439 §2.8), built from the chacha20
 * kernel (chacha20/ref/chacha20.c) and the limb32 Poly1305
 * (poly1305/limb32/poly1305.c): the one-time key is the first 32 bytes of
 * keystream block 0 (§2.6), the plaintext is encrypted from block 1, and the
 * tag is Poly1305 over aad || pad16 || ciphertext || pad16 || le64(aad_len) || le64(len). */
#include "poly1305.h"

void chacha20_xor(const uint8_t *key, const uint8_t *nonce, uint32_t counter,
                  const uint8_t *in, uint8_t *out, uint32_t len);

/* Absorb data, its last partial block zero-padded to 16 bytes (§2.8 pad16). */
static void poly1305_padded(poly1305_state *st, const uint8_t *data, uint32_t len)
{
    uint8_t last[16];
    uint32_t full = len & ~15u, i;

    poly1305_blocks(st, data, full, 1);
    if (len != full) {
        for (i = 0; i < 16; i++) {
            last[i] = full + i < len ? data[full + i] : 0;
        }
        poly1305_blocks(st, last, 16, 1);
    }
}

/* Encrypt len bytes of in into out under key[32] and nonce[12] with aad[aad_len]; tag[16]. */
void chacha20_poly1305_encrypt(const uint8_t *key, const uint8_t *nonce, const uint8_t *aad, uint32_t aad_len,
                               const uint8_t *in, uint8_t *out, uint32_t len, uint8_t *tag)
{
    poly1305_state st;
    uint8_t otk[32], lengths[16];
    uint32_t i;

    for (i = 0; i < 32; i++) {
        otk[i] = 0;
    }
    chacha20_xor(key, nonce, 0, otk, otk, 32);      /* poly1305_key_gen (§2.6) */
    chacha20_xor(key, nonce, 1, in, out, len);
    poly1305_init(&st, otk);
    poly1305_padded(&st, aad, aad_len);
    poly1305_padded(&st, out, len);
    store32_le(lengths, aad_len);
    store32_le(lengths + 4, 0);
    store32_le(lengths + 8, len);
    store32_le(lengths + 12, 0);
    poly1305_blocks(&st, lengths, 16, 1);
    poly1305_finish(&st, tag);
}
