/* SM3 (GB/T 32905-2016 §5) as a Merkle-Damgard hash (merkle_damgard.h): the §4.1
 * initial value IV, 64-byte blocks, big-endian words and a 64-bit big-endian length
 * (§5.1-5.2, the padding of SHA-256), over the variant's sm3_compress(); and the
 * one-shot digest, all of V (§5.4). */
#include "sm3_common.h"

static void sm3_chain_compress(md_chain *H, const uint8_t *block)
{
    sm3_compress(H->w, block);
}

static const md_chain IV_SM3 = {.w = {0x7380166f, 0x4914b2b9, 0x172442d7, 0xda8a0600,
                                      0xa96f30bc, 0x163138aa, 0xe38dee4d, 0xb0fb0e4e}}; /* §4.1 */

const md_hash SM3_HASH = {sm3_chain_compress, &IV_SM3, 8, 64, 32, MD_BIG_ENDIAN32};

/* The SM3 hash of len bytes at msg into digest[32]. */
void sm3_digest(const uint8_t *msg, uint32_t len, uint8_t *digest)
{
    md_digest(&SM3_HASH, msg, len, digest);
}
