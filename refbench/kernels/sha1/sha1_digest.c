/* SHA-1 (FIPS 180-4 §6.1) as a Merkle-Damgard hash (merkle_damgard.h): the §5.3.1
 * initial hash value, 64-byte blocks, big-endian words and length (§5.1.1), over
 * the variant's sha1_compress(); and the one-shot digest. */
#include "sha1_common.h"

static void sha1_chain_compress(md_chain *H, const uint8_t *block)
{
    sha1_compress(H->w, block);
}

static const md_chain H0_SHA1 = {.w = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0}}; /* §5.3.1 */

const md_hash SHA1_HASH = {sha1_chain_compress, &H0_SHA1, 5, 64, 20, MD_BIG_ENDIAN32};

/* The SHA-1 hash of len bytes at msg into digest[20]. */
void sha1_digest(const uint8_t *msg, uint32_t len, uint8_t *digest)
{
    md_digest(&SHA1_HASH, msg, len, digest);
}
