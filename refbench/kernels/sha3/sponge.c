/* SHA-3 and SHAKE one-shot sponges (FIPS 202 §4 SPONGE[Keccak-f[1600], pad10*1, r],
 * §6.1 SHA3-224/256/384/512, §6.2 SHAKE128/256), shared by the Keccak-f variants.
 * Whole rate blocks are absorbed straight from the message; the last block is
 * copied, given the domain suffix and the pad10*1 padding (§5.1, with the
 * suffix bits 01 for SHA-3 and 1111 for SHAKE: first byte 0x06 or 0x1f). */
#include "keccak.h"

static void keccak_sponge(const uint8_t *msg, uint32_t len, uint32_t rate, uint8_t suffix,
                          uint8_t *out, uint32_t out_len)
{
    keccak_state s;
    uint8_t block[168];
    uint32_t i, n;

    for (i = 0; i < 50; i++) {
        s.w[i] = 0;
    }
    while (len >= rate) {
        keccak_absorb_lanes(&s, msg, rate / 8);
        keccak_f1600(&s);
        msg += rate;
        len -= rate;
    }
    for (i = 0; i < len; i++) {
        block[i] = msg[i];
    }
    block[len] = suffix;
    for (i = len + 1; i < rate; i++) {
        block[i] = 0;
    }
    block[rate - 1] |= 0x80;
    keccak_absorb_lanes(&s, block, rate / 8);
    keccak_f1600(&s);
    for (;;) {
        n = out_len < rate ? out_len : rate;
        keccak_extract_lanes(&s, block, (n + 7) / 8);
        for (i = 0; i < n; i++) {
            out[i] = block[i];
        }
        out += n;
        out_len -= n;
        if (out_len == 0) {
            return;
        }
        keccak_f1600(&s);
    }
}

/* SHA3-224 (r = 1152 bits): digest[28]. */
void sha3_224_digest(const uint8_t *msg, uint32_t len, uint8_t *digest)
{
    keccak_sponge(msg, len, 144, 0x06, digest, 28);
}

/* SHA3-256 (r = 1088 bits): digest[32]. */
void sha3_256_digest(const uint8_t *msg, uint32_t len, uint8_t *digest)
{
    keccak_sponge(msg, len, 136, 0x06, digest, 32);
}

/* SHA3-384 (r = 832 bits): digest[48]. */
void sha3_384_digest(const uint8_t *msg, uint32_t len, uint8_t *digest)
{
    keccak_sponge(msg, len, 104, 0x06, digest, 48);
}

/* SHA3-512 (r = 576 bits): digest[64]. */
void sha3_512_digest(const uint8_t *msg, uint32_t len, uint8_t *digest)
{
    keccak_sponge(msg, len, 72, 0x06, digest, 64);
}

/* SHAKE128(M, 256) (r = 1344 bits): 32 bytes of output. */
void shake128_256_digest(const uint8_t *msg, uint32_t len, uint8_t *digest)
{
    keccak_sponge(msg, len, 168, 0x1f, digest, 32);
}

/* SHAKE256(M, 256) (r = 1088 bits): 32 bytes of output. */
void shake256_256_digest(const uint8_t *msg, uint32_t len, uint8_t *digest)
{
    keccak_sponge(msg, len, 136, 0x1f, digest, 32);
}
