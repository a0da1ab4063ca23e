/* The SHA-512 family one-shot drivers shared by the variants (FIPS 180-4 §5.1.2,
 * §5.3.4-5.3.6, §6.4-6.7): the initial hash values, padding, the hash of a whole
 * message and the truncated digests; each variant supplies sha512_compress(). */
#include "sha512_common.h"

/* §5.3.4 SHA-384, §5.3.5 SHA-512, §5.3.6.1 SHA-512/224, §5.3.6.2 SHA-512/256 initial hash values
 * (from refbench.ref.sha2; the SHA-512/t IVs are derived there by the §5.3.6 generation function). */
static const uint64_t H0_SHA384[8] = {
    0xcbbb9d5dc1059ed8ULL, 0x629a292a367cd507ULL, 0x9159015a3070dd17ULL, 0x152fecd8f70e5939ULL,
    0x67332667ffc00b31ULL, 0x8eb44a8768581511ULL, 0xdb0c2e0d64f98fa7ULL, 0x47b5481dbefa4fa4ULL,
};
static const uint64_t H0_SHA512[8] = {
    0x6a09e667f3bcc908ULL, 0xbb67ae8584caa73bULL, 0x3c6ef372fe94f82bULL, 0xa54ff53a5f1d36f1ULL,
    0x510e527fade682d1ULL, 0x9b05688c2b3e6c1fULL, 0x1f83d9abfb41bd6bULL, 0x5be0cd19137e2179ULL,
};
static const uint64_t H0_SHA512_224[8] = {
    0x8c3d37c819544da2ULL, 0x73e1996689dcd4d6ULL, 0x1dfab7ae32ff9c82ULL, 0x679dd514582f9fcfULL,
    0x0f6d2b697bd44da8ULL, 0x77e36f7304c48942ULL, 0x3f9d85a86a1d36c8ULL, 0x1112e6ad91d692a1ULL,
};
static const uint64_t H0_SHA512_256[8] = {
    0x22312194fc2bf72cULL, 0x9f555fa3c84c64c2ULL, 0x2393b86b6f53b151ULL, 0x963877195940eabdULL,
    0x96283ee2a88effe3ULL, 0xbe5e1e2553863992ULL, 0x2b0199fc2c85b8aaULL, 0x0eb72ddc81c52ca2ULL,
};

/* Padding (§5.1.2: 0x80, zeros, 128-bit big-endian bit length), the hash, and the
 * leftmost out_bytes bytes of H0..H7 big-endian (§6.4.2, §6.5, §6.7). */
static void sha512_family(const uint64_t H0[8], const uint8_t *msg, uint32_t len, uint8_t *digest, uint32_t out_bytes)
{
    uint64_t H[8];
    uint8_t last[256];
    uint32_t full = len & ~127u, rest = len - full, i, nblocks;

    for (i = 0; i < 8; i++) {
        H[i] = H0[i];
    }
    for (i = 0; i < full; i += 128) {
        sha512_compress(H, msg + i);
    }
    for (i = 0; i < rest; i++) {
        last[i] = msg[full + i];
    }
    last[rest] = 0x80;
    nblocks = (rest < 112) ? 1 : 2;
    for (i = rest + 1; i < nblocks * 128 - 8; i++) {
        last[i] = 0;
    }
    store32_be(last + nblocks * 128 - 8, len >> 29);
    store32_be(last + nblocks * 128 - 4, len << 3);
    for (i = 0; i < nblocks; i++) {
        sha512_compress(H, last + 128 * i);
    }
    for (i = 0; i < out_bytes; i += 8) {
        store32_be(last, (uint32_t)(H[i / 8] >> 32));
        store32_be(last + 4, (uint32_t)H[i / 8]);
        for (nblocks = 0; nblocks < 8 && i + nblocks < out_bytes; nblocks++) {
            digest[i + nblocks] = last[nblocks];
        }
    }
}

void sha384_digest(const uint8_t *msg, uint32_t len, uint8_t *digest)
{
    sha512_family(H0_SHA384, msg, len, digest, 48);
}

void sha512_digest(const uint8_t *msg, uint32_t len, uint8_t *digest)
{
    sha512_family(H0_SHA512, msg, len, digest, 64);
}

/* §6.7: SHA-512/224 is the leftmost 224 bits, i.e. 3.5 words of H. */
void sha512_224_digest(const uint8_t *msg, uint32_t len, uint8_t *digest)
{
    sha512_family(H0_SHA512_224, msg, len, digest, 28);
}

void sha512_256_digest(const uint8_t *msg, uint32_t len, uint8_t *digest)
{
    sha512_family(H0_SHA512_256, msg, len, digest, 32);
}
