/* The SHA-512 family (FIPS 180-4 §6.4-6.7) as Merkle-Damgard hashes (merkle_damgard.h):
 * 128-byte blocks, 64-bit big-endian words, a 128-bit big-endian length (§5.1.2), over
 * the variant's sha512_compress(); the four differ only in the initial hash value and in
 * how many leftmost bytes of H are the digest (§6.4.2, §6.5, §6.7). */
#include "sha512_common.h"

static void sha512_chain_compress(md_chain *H, const uint8_t *block)
{
    sha512_compress(H->q, block);
}

/* §5.3.4 SHA-384, §5.3.5 SHA-512, §5.3.6.1 SHA-512/224, §5.3.6.2 SHA-512/256 initial hash values
 * (from refbench.ref.sha2; the SHA-512/t IVs are derived there by the §5.3.6 generation function). */
static const md_chain H0_SHA384 = {.q = {
    0xcbbb9d5dc1059ed8ULL, 0x629a292a367cd507ULL, 0x9159015a3070dd17ULL, 0x152fecd8f70e5939ULL,
    0x67332667ffc00b31ULL, 0x8eb44a8768581511ULL, 0xdb0c2e0d64f98fa7ULL, 0x47b5481dbefa4fa4ULL,
}};
static const md_chain H0_SHA512 = {.q = {
    0x6a09e667f3bcc908ULL, 0xbb67ae8584caa73bULL, 0x3c6ef372fe94f82bULL, 0xa54ff53a5f1d36f1ULL,
    0x510e527fade682d1ULL, 0x9b05688c2b3e6c1fULL, 0x1f83d9abfb41bd6bULL, 0x5be0cd19137e2179ULL,
}};
static const md_chain H0_SHA512_224 = {.q = {
    0x8c3d37c819544da2ULL, 0x73e1996689dcd4d6ULL, 0x1dfab7ae32ff9c82ULL, 0x679dd514582f9fcfULL,
    0x0f6d2b697bd44da8ULL, 0x77e36f7304c48942ULL, 0x3f9d85a86a1d36c8ULL, 0x1112e6ad91d692a1ULL,
}};
static const md_chain H0_SHA512_256 = {.q = {
    0x22312194fc2bf72cULL, 0x9f555fa3c84c64c2ULL, 0x2393b86b6f53b151ULL, 0x963877195940eabdULL,
    0x96283ee2a88effe3ULL, 0xbe5e1e2553863992ULL, 0x2b0199fc2c85b8aaULL, 0x0eb72ddc81c52ca2ULL,
}};

/* The digest is the leftmost L bytes of H: 48, 64, 28 (3.5 words, §6.7) and 32. */
const md_hash SHA384_HASH = {sha512_chain_compress, &H0_SHA384, 16, 128, 48, MD_BIG_ENDIAN64};
const md_hash SHA512_HASH = {sha512_chain_compress, &H0_SHA512, 16, 128, 64, MD_BIG_ENDIAN64};
const md_hash SHA512_224_HASH = {sha512_chain_compress, &H0_SHA512_224, 16, 128, 28, MD_BIG_ENDIAN64};
const md_hash SHA512_256_HASH = {sha512_chain_compress, &H0_SHA512_256, 16, 128, 32, MD_BIG_ENDIAN64};

void sha384_digest(const uint8_t *msg, uint32_t len, uint8_t *digest)
{
    md_digest(&SHA384_HASH, msg, len, digest);
}

void sha512_digest(const uint8_t *msg, uint32_t len, uint8_t *digest)
{
    md_digest(&SHA512_HASH, msg, len, digest);
}

void sha512_224_digest(const uint8_t *msg, uint32_t len, uint8_t *digest)
{
    md_digest(&SHA512_224_HASH, msg, len, digest);
}

void sha512_256_digest(const uint8_t *msg, uint32_t len, uint8_t *digest)
{
    md_digest(&SHA512_256_HASH, msg, len, digest);
}
