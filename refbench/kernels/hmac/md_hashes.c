/* MD5, SHA-1, SHA-384 and SHA-512 as md_hash descriptors over their families'
 * compression functions (SHA-224 and SHA-256: sha256_stream.c). */
#include "md5_common.h"
#include "sha1_common.h"
#include "sha512_common.h"
#include "md_hashes.h"

static void md5_chain_compress(md_chain *H, const uint8_t *block)
{
    md5_compress(H->w, block);
}

static void sha1_chain_compress(md_chain *H, const uint8_t *block)
{
    sha1_compress(H->w, block);
}

static void sha512_chain_compress(md_chain *H, const uint8_t *block)
{
    sha512_compress(H->q, block);
}

static const md_chain H0_MD5 = {.w = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476}}; /* RFC 1321 §3.3 */
static const md_chain H0_SHA1 = {.w = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0}}; /* §5.3.1 */
static const md_chain H0_SHA384 = {.q = {                                                            /* §5.3.4 */
    0xcbbb9d5dc1059ed8ULL, 0x629a292a367cd507ULL, 0x9159015a3070dd17ULL, 0x152fecd8f70e5939ULL,
    0x67332667ffc00b31ULL, 0x8eb44a8768581511ULL, 0xdb0c2e0d64f98fa7ULL, 0x47b5481dbefa4fa4ULL,
}};
static const md_chain H0_SHA512 = {.q = {                                                            /* §5.3.5 */
    0x6a09e667f3bcc908ULL, 0xbb67ae8584caa73bULL, 0x3c6ef372fe94f82bULL, 0xa54ff53a5f1d36f1ULL,
    0x510e527fade682d1ULL, 0x9b05688c2b3e6c1fULL, 0x1f83d9abfb41bd6bULL, 0x5be0cd19137e2179ULL,
}};

const md_hash MD5_HASH = {md5_chain_compress, &H0_MD5, 4, 64, 16, MD_LITTLE_ENDIAN32};
const md_hash SHA1_HASH = {sha1_chain_compress, &H0_SHA1, 5, 64, 20, MD_BIG_ENDIAN32};
const md_hash SHA384_HASH = {sha512_chain_compress, &H0_SHA384, 16, 128, 48, MD_BIG_ENDIAN64};
const md_hash SHA512_HASH = {sha512_chain_compress, &H0_SHA512, 16, 128, 64, MD_BIG_ENDIAN64};
