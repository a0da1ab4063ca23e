/* ChaCha20 (RFC 8439 §2.3-2.4), the portable 32-bit C of most libraries:
 * the 16-word state in local variables, 10 double rounds, keystream XORed
 * byte by byte into the output. */
#include "kernel.h"

#define QR(a, b, c, d)                       \
    do {                                     \
        a += b; d ^= a; d = ROTL32(d, 16);   \
        c += d; b ^= c; b = ROTL32(b, 12);   \
        a += b; d ^= a; d = ROTL32(d, 8);    \
        c += d; b ^= c; b = ROTL32(b, 7);    \
    } while (0)

static void chacha20_block(const uint32_t in[16], uint8_t out[64])
{
    uint32_t x0 = in[0], x1 = in[1], x2 = in[2], x3 = in[3], x4 = in[4], x5 = in[5], x6 = in[6], x7 = in[7];
    uint32_t x8 = in[8], x9 = in[9], x10 = in[10], x11 = in[11], x12 = in[12], x13 = in[13], x14 = in[14], x15 = in[15];
    int i;

    for (i = 0; i < 10; i++) {
        QR(x0, x4, x8, x12); QR(x1, x5, x9, x13); QR(x2, x6, x10, x14); QR(x3, x7, x11, x15); /* column round */
        QR(x0, x5, x10, x15); QR(x1, x6, x11, x12); QR(x2, x7, x8, x13); QR(x3, x4, x9, x14); /* diagonal round */
    }
    store32_le(out + 0, x0 + in[0]);   store32_le(out + 4, x1 + in[1]);
    store32_le(out + 8, x2 + in[2]);   store32_le(out + 12, x3 + in[3]);
    store32_le(out + 16, x4 + in[4]);  store32_le(out + 20, x5 + in[5]);
    store32_le(out + 24, x6 + in[6]);  store32_le(out + 28, x7 + in[7]);
    store32_le(out + 32, x8 + in[8]);  store32_le(out + 36, x9 + in[9]);
    store32_le(out + 40, x10 + in[10]); store32_le(out + 44, x11 + in[11]);
    store32_le(out + 48, x12 + in[12]); store32_le(out + 52, x13 + in[13]);
    store32_le(out + 56, x14 + in[14]); store32_le(out + 60, x15 + in[15]);
}

/* Encrypt (or decrypt) len bytes of in into out with key[32], nonce[12] and the initial block counter. */
void chacha20_xor(const uint8_t *key, const uint8_t *nonce, uint32_t counter,
                  const uint8_t *in, uint8_t *out, uint32_t len)
{
    uint32_t state[16];
    uint8_t block[64];
    uint32_t i, n;

    state[0] = 0x61707865; state[1] = 0x3320646e; state[2] = 0x79622d32; state[3] = 0x6b206574; /* §2.3 */
    for (i = 0; i < 8; i++) {
        state[4 + i] = load32_le(key + 4 * i);
    }
    state[12] = counter;
    state[13] = load32_le(nonce);
    state[14] = load32_le(nonce + 4);
    state[15] = load32_le(nonce + 8);
    while (len > 0) {
        chacha20_block(state, block);
        n = len < 64 ? len : 64;
        for (i = 0; i < n; i++) {
            out[i] = in[i] ^ block[i];
        }
        state[12]++;
        in += n;
        out += n;
        len -= n;
    }
}
