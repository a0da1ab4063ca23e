/* ChaCha20 (RFC 8439 §2.3-2.4), unrolled: the twenty rounds (ten double rounds
 * of §2.3) written out with the sixteen state words in locals and the quarter
 * round (§2.1) as a macro, and the keystream added to the input state and
 * XORed into the output a 32-bit word at a time for every whole 64-byte block
 * (portable little-endian word loads and stores, §2.4); a final partial
 * block is copied through a buffer. The speed style of libraries that skip the
 * intermediate keystream block; it trades code size for speed. */
#include "kernel.h"

/* §2.1: the quarter round on four state words. */
#define QR(a, b, c, d)                       \
    do {                                     \
        a += b; d ^= a; d = ROTL32(d, 16);   \
        c += d; b ^= c; b = ROTL32(b, 12);   \
        a += b; d ^= a; d = ROTL32(d, 8);    \
        c += d; b ^= c; b = ROTL32(b, 7);    \
    } while (0)

/* §2.3 inner_block: a column round then a diagonal round. */
#define DOUBLE_ROUND()                                                                          \
    do {                                                                                        \
        QR(x0, x4, x8, x12); QR(x1, x5, x9, x13); QR(x2, x6, x10, x14); QR(x3, x7, x11, x15);   \
        QR(x0, x5, x10, x15); QR(x1, x6, x11, x12); QR(x2, x7, x8, x13); QR(x3, x4, x9, x14);   \
    } while (0)

/* §2.4: output word i = in word i xor (working word i + state word i), little-endian. */
#define XOR_WORD(i, x) store32_le(out + 4 * (i), load32_le(in + 4 * (i)) ^ ((x) + state[i]))

/* One whole block: out[0..63] = in[0..63] xor ChaCha20 block(state) (§2.3.1, §2.4.1); in may equal out. */
static void chacha20_xor_block(const uint32_t state[16], const uint8_t *in, uint8_t *out)
{
    uint32_t x0 = state[0], x1 = state[1], x2 = state[2], x3 = state[3], x4 = state[4], x5 = state[5];
    uint32_t x6 = state[6], x7 = state[7], x8 = state[8], x9 = state[9], x10 = state[10];
    uint32_t x11 = state[11], x12 = state[12], x13 = state[13], x14 = state[14], x15 = state[15];

    DOUBLE_ROUND(); DOUBLE_ROUND(); DOUBLE_ROUND(); DOUBLE_ROUND(); DOUBLE_ROUND();
    DOUBLE_ROUND(); DOUBLE_ROUND(); DOUBLE_ROUND(); DOUBLE_ROUND(); DOUBLE_ROUND();
    XOR_WORD(0, x0);   XOR_WORD(1, x1);   XOR_WORD(2, x2);   XOR_WORD(3, x3);
    XOR_WORD(4, x4);   XOR_WORD(5, x5);   XOR_WORD(6, x6);   XOR_WORD(7, x7);
    XOR_WORD(8, x8);   XOR_WORD(9, x9);   XOR_WORD(10, x10); XOR_WORD(11, x11);
    XOR_WORD(12, x12); XOR_WORD(13, x13); XOR_WORD(14, x14); XOR_WORD(15, x15);
}

/* Encrypt (or decrypt) len bytes of in into out with key[32], nonce[12] and the initial block counter. */
void chacha20_xor(const uint8_t *key, const uint8_t *nonce, uint32_t counter,
                  const uint8_t *in, uint8_t *out, uint32_t len)
{
    uint32_t state[16];
    uint8_t block[64];
    uint32_t i;

    state[0] = 0x61707865; state[1] = 0x3320646e; state[2] = 0x79622d32; state[3] = 0x6b206574; /* §2.3 */
    for (i = 0; i < 8; i++) {
        state[4 + i] = load32_le(key + 4 * i);
    }
    state[12] = counter;
    state[13] = load32_le(nonce);
    state[14] = load32_le(nonce + 4);
    state[15] = load32_le(nonce + 8);
    while (len >= 64) {
        chacha20_xor_block(state, in, out);
        state[12]++;
        in += 64;
        out += 64;
        len -= 64;
    }
    if (len > 0) { /* a final partial block, through a buffer */
        for (i = 0; i < len; i++) {
            block[i] = in[i];
        }
        chacha20_xor_block(state, block, block);
        for (i = 0; i < len; i++) {
            out[i] = block[i];
        }
    }
}
