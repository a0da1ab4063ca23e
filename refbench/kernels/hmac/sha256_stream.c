/* SHA-224 and SHA-256 as md_hash descriptors over the sha256 variant's
 * compression, and the SHA-256 streaming functions Hash_DRBG calls. */
#include "sha256_common.h"
#include "sha256_stream.h"
#include "md_hashes.h"

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

void sha256_stream_init(sha256_stream *s)
{
    md_stream_init(&SHA256_HASH, s);
}

void sha256_stream_update(sha256_stream *s, const uint8_t *data, uint32_t len)
{
    md_stream_update(&SHA256_HASH, s, data, len);
}

void sha256_stream_final(sha256_stream *s, uint8_t digest[32])
{
    md_stream_final(&SHA256_HASH, s, digest);
}
