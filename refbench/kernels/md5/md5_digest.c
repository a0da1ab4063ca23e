/* MD5 (RFC 1321) as a Merkle-Damgard hash (merkle_damgard.h): the §3.3 initial
 * buffer, 64-byte blocks, length and words little-endian (§3.2, §3.5), over the
 * variant's md5_compress(); and the one-shot digest. */
#include "md5_common.h"

static void md5_chain_compress(md_chain *H, const uint8_t *block)
{
    md5_compress(H->w, block);
}

static const md_chain H0_MD5 = {.w = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476}}; /* §3.3 */

const md_hash MD5_HASH = {md5_chain_compress, &H0_MD5, 4, 64, 16, MD_LITTLE_ENDIAN32};

/* The MD5 digest of len bytes at msg into digest[16]. */
void md5_digest(const uint8_t *msg, uint32_t len, uint8_t *digest)
{
    md_digest(&MD5_HASH, msg, len, digest);
}
