/* SHA-224 and SHA-256 (FIPS 180-4 §6.2-6.3) as Merkle-Damgard hashes (merkle_damgard.h):
 * their initial hash values, 64-byte blocks, big-endian words and length (§5.1.1), over
 * the variant's sha256_compress(); and the one-shot digests. SHA-224 is the same
 * computation from its own initial hash value, truncated to H0..H6 (§6.3). */
#include "sha256_common.h"

static void sha256_chain_compress(md_chain *H, const uint8_t *block)
{
    sha256_compress(H->w, block);
}

static const md_chain H0_SHA224 = {.w = {0xc1059ed8, 0x367cd507, 0x3070dd17, 0xf70e5939,
                                         0xffc00b31, 0x68581511, 0x64f98fa7, 0xbefa4fa4}}; /* §5.3.2 */
static const md_chain H0_SHA256 = {.w = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                         0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19}}; /* §5.3.3 */

const md_hash SHA224_HASH = {sha256_chain_compress, &H0_SHA224, 8, 64, 28, MD_BIG_ENDIAN32};
const md_hash SHA256_HASH = {sha256_chain_compress, &H0_SHA256, 8, 64, 32, MD_BIG_ENDIAN32};

/* The SHA-256 hash of len bytes at msg into digest[32]. */
void sha256_digest(const uint8_t *msg, uint32_t len, uint8_t *digest)
{
    md_digest(&SHA256_HASH, msg, len, digest);
}

/* The SHA-224 hash of len bytes at msg into digest[28]. */
void sha224_digest(const uint8_t *msg, uint32_t len, uint8_t *digest)
{
    md_digest(&SHA224_HASH, msg, len, digest);
}
