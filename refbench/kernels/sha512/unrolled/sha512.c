/* The SHA-512 family (FIPS 180-4 §6.4-6.7), unrolled: the 80 rounds of §6.4.2
 * written out eight at a time with the working variables rotated by name
 * instead of moved, over a 16-word circular message schedule, as
 * sha256/unrolled does for SHA-256. This is the speed-optimised style: wolfSSL,
 * for instance, unrolls its SHA-512 rounds unless USE_SLOW_SHA512 is defined
 * (documented there as "over twice as small, but 50% slower"). On a 32-bit
 * core every working variable is a register pair, so the eight moves per round
 * of the rolled loop cost twice as much as in SHA-256; naming the variables
 * removes them, at the price of larger code. Constants, padding and output are
 * those of ref/sha512.c. */
#include "sha512_common.h"

#define ROTR64(x, n) (((x) >> (n)) | ((x) << (64 - (n))))
#define CH(x, y, z) ((z) ^ ((x) & ((y) ^ (z))))
#define MAJ(x, y, z) (((x) & (y)) | ((z) & ((x) | (y))))
#define BSIG0(x) (ROTR64(x, 28) ^ ROTR64(x, 34) ^ ROTR64(x, 39))
#define BSIG1(x) (ROTR64(x, 14) ^ ROTR64(x, 18) ^ ROTR64(x, 41))
#define SSIG0(x) (ROTR64(x, 1) ^ ROTR64(x, 8) ^ ((x) >> 7))
#define SSIG1(x) (ROTR64(x, 19) ^ ROTR64(x, 61) ^ ((x) >> 6))

/* §4.2.3: first 64 bits of the fractional parts of the cube roots of the first 80 primes
 * (written out from refbench.ref.sha2.K512, which derives them; a test compares). */
static const uint64_t K512[80] = {
    0x428a2f98d728ae22ULL, 0x7137449123ef65cdULL, 0xb5c0fbcfec4d3b2fULL, 0xe9b5dba58189dbbcULL,
    0x3956c25bf348b538ULL, 0x59f111f1b605d019ULL, 0x923f82a4af194f9bULL, 0xab1c5ed5da6d8118ULL,
    0xd807aa98a3030242ULL, 0x12835b0145706fbeULL, 0x243185be4ee4b28cULL, 0x550c7dc3d5ffb4e2ULL,
    0x72be5d74f27b896fULL, 0x80deb1fe3b1696b1ULL, 0x9bdc06a725c71235ULL, 0xc19bf174cf692694ULL,
    0xe49b69c19ef14ad2ULL, 0xefbe4786384f25e3ULL, 0x0fc19dc68b8cd5b5ULL, 0x240ca1cc77ac9c65ULL,
    0x2de92c6f592b0275ULL, 0x4a7484aa6ea6e483ULL, 0x5cb0a9dcbd41fbd4ULL, 0x76f988da831153b5ULL,
    0x983e5152ee66dfabULL, 0xa831c66d2db43210ULL, 0xb00327c898fb213fULL, 0xbf597fc7beef0ee4ULL,
    0xc6e00bf33da88fc2ULL, 0xd5a79147930aa725ULL, 0x06ca6351e003826fULL, 0x142929670a0e6e70ULL,
    0x27b70a8546d22ffcULL, 0x2e1b21385c26c926ULL, 0x4d2c6dfc5ac42aedULL, 0x53380d139d95b3dfULL,
    0x650a73548baf63deULL, 0x766a0abb3c77b2a8ULL, 0x81c2c92e47edaee6ULL, 0x92722c851482353bULL,
    0xa2bfe8a14cf10364ULL, 0xa81a664bbc423001ULL, 0xc24b8b70d0f89791ULL, 0xc76c51a30654be30ULL,
    0xd192e819d6ef5218ULL, 0xd69906245565a910ULL, 0xf40e35855771202aULL, 0x106aa07032bbd1b8ULL,
    0x19a4c116b8d2d0c8ULL, 0x1e376c085141ab53ULL, 0x2748774cdf8eeb99ULL, 0x34b0bcb5e19b48a8ULL,
    0x391c0cb3c5c95a63ULL, 0x4ed8aa4ae3418acbULL, 0x5b9cca4f7763e373ULL, 0x682e6ff3d6b2b8a3ULL,
    0x748f82ee5defb2fcULL, 0x78a5636f43172f60ULL, 0x84c87814a1f0ab72ULL, 0x8cc702081a6439ecULL,
    0x90befffa23631e28ULL, 0xa4506cebde82bde9ULL, 0xbef9a3f7b2c67915ULL, 0xc67178f2e372532bULL,
    0xca273eceea26619cULL, 0xd186b8c721c0c207ULL, 0xeada7dd6cde0eb1eULL, 0xf57d4f7fee6ed178ULL,
    0x06f067aa72176fbaULL, 0x0a637dc5a2c898a6ULL, 0x113f9804bef90daeULL, 0x1b710b35131c471bULL,
    0x28db77f523047d84ULL, 0x32caab7b40c72493ULL, 0x3c9ebe0a15c9bebcULL, 0x431d67c49c100d4cULL,
    0x4cc5d4becb3e42b6ULL, 0x597f299cfc657e2aULL, 0x5fcb6fab3ad6faecULL, 0x6c44198c4a475817ULL,
};

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

static uint64_t load64_be(const uint8_t *p)
{
    return ((uint64_t)load32_be(p) << 32) | load32_be(p + 4);
}

/* §6.4.2 step 3, round t with the variables named as they stand after t mod 8 rotations:
 * T1 = h + BSIG1(e) + Ch(e,f,g) + K_t + W_t; d = d + T1; h = T1 + BSIG0(a) + Maj(a,b,c). */
#define ROUND(a, b, c, d, e, f, g, h, t)                                          \
    do {                                                                          \
        uint64_t T1_ = h + BSIG1(e) + CH(e, f, g) + K512[t] + W[(t) & 15];        \
        d += T1_;                                                                 \
        h = T1_ + BSIG0(a) + MAJ(a, b, c);                                        \
    } while (0)

/* §6.4.2 step 1 for t >= 16, in place in the 16-word window. */
#define SCHEDULE(t)                                                               \
    (W[(t) & 15] += SSIG1(W[((t) - 2) & 15]) + W[((t) - 7) & 15] +                \
                    SSIG0(W[((t) - 15) & 15]))

#define EIGHT_ROUNDS(t)                          \
    do {                                         \
        ROUND(a, b, c, d, e, f, g, h, (t) + 0);  \
        ROUND(h, a, b, c, d, e, f, g, (t) + 1);  \
        ROUND(g, h, a, b, c, d, e, f, (t) + 2);  \
        ROUND(f, g, h, a, b, c, d, e, (t) + 3);  \
        ROUND(e, f, g, h, a, b, c, d, (t) + 4);  \
        ROUND(d, e, f, g, h, a, b, c, (t) + 5);  \
        ROUND(c, d, e, f, g, h, a, b, (t) + 6);  \
        ROUND(b, c, d, e, f, g, h, a, (t) + 7);  \
    } while (0)

/* §6.4.2: one 1024-bit block into H. */
void sha512_compress(uint64_t H[8], const uint8_t block[128])
{
    uint64_t W[16];
    uint64_t a = H[0], b = H[1], c = H[2], d = H[3], e = H[4], f = H[5], g = H[6], h = H[7];
    uint32_t t;

    for (t = 0; t < 16; t++) {
        W[t] = load64_be(block + 8 * t);
    }
    EIGHT_ROUNDS(0);
    EIGHT_ROUNDS(8);
    for (t = 16; t < 80; t += 8) {
        SCHEDULE(t + 0); SCHEDULE(t + 1); SCHEDULE(t + 2); SCHEDULE(t + 3);
        SCHEDULE(t + 4); SCHEDULE(t + 5); SCHEDULE(t + 6); SCHEDULE(t + 7);
        EIGHT_ROUNDS(t);
    }
    H[0] += a; H[1] += b; H[2] += c; H[3] += d;
    H[4] += e; H[5] += f; H[6] += g; H[7] += h;
}

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
