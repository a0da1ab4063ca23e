/* HMAC (FIPS 198-1 §4; RFC 2104 §2 for HMAC-MD5), written once over any
 * Merkle-Damgard hash (common/merkle_damgard.h) with block size B and digest
 * size L: K0 from the key (hashed if longer than B, then zero-padded to B), and
 * H((K0 ^ opad) || H((K0 ^ ipad) || text)). The hashes are the md_hash
 * descriptors of the md5, sha1, sha256 and sha512 families (their
 * <name>_digest.c, linked with the variant's compressions). */
#include "md5_common.h"
#include "sha1_common.h"
#include "sha256_common.h"
#include "sha512_common.h"

static void hmac(const md_hash *hash, const uint8_t *key, uint32_t key_len,
                 const uint8_t *msg, uint32_t len, uint8_t *tag)
{
    md_stream s;
    uint8_t pad[128], inner[64];    /* pad holds K0, then K0 ^ ipad, then K0 ^ opad */
    uint32_t B = hash->block_bytes, L = hash->digest_bytes, i;

    if (key_len > B) {              /* step 2: K0 = H(K) || 00...00 */
        md_stream_init(hash, &s);
        md_stream_update(hash, &s, key, key_len);
        md_stream_final(hash, &s, pad);
        key_len = L;
    } else {                        /* steps 1, 3: K0 = K || 00...00 */
        for (i = 0; i < key_len; i++) {
            pad[i] = key[i];
        }
    }
    for (i = key_len; i < B; i++) {
        pad[i] = 0;
    }
    for (i = 0; i < B; i++) {       /* steps 4-6: inner hash of K0 ^ ipad || text */
        pad[i] ^= 0x36;
    }
    md_stream_init(hash, &s);
    md_stream_update(hash, &s, pad, B);
    md_stream_update(hash, &s, msg, len);
    md_stream_final(hash, &s, inner);
    for (i = 0; i < B; i++) {       /* steps 7-9: outer hash; K0 ^ opad = (K0 ^ ipad) ^ (ipad ^ opad) */
        pad[i] ^= 0x36 ^ 0x5c;
    }
    md_stream_init(hash, &s);
    md_stream_update(hash, &s, pad, B);
    md_stream_update(hash, &s, inner, L);
    md_stream_final(hash, &s, tag);
}

/* The tag of len bytes at msg under key[key_len]: tag[16]. */
void hmac_md5(const uint8_t *key, uint32_t key_len, const uint8_t *msg, uint32_t len, uint8_t *tag)
{
    hmac(&MD5_HASH, key, key_len, msg, len, tag);
}

/* tag[20] */
void hmac_sha1(const uint8_t *key, uint32_t key_len, const uint8_t *msg, uint32_t len, uint8_t *tag)
{
    hmac(&SHA1_HASH, key, key_len, msg, len, tag);
}

/* tag[28] */
void hmac_sha224(const uint8_t *key, uint32_t key_len, const uint8_t *msg, uint32_t len, uint8_t *tag)
{
    hmac(&SHA224_HASH, key, key_len, msg, len, tag);
}

/* tag[32] */
void hmac_sha256(const uint8_t *key, uint32_t key_len, const uint8_t *msg, uint32_t len, uint8_t *tag)
{
    hmac(&SHA256_HASH, key, key_len, msg, len, tag);
}

/* tag[48] */
void hmac_sha384(const uint8_t *key, uint32_t key_len, const uint8_t *msg, uint32_t len, uint8_t *tag)
{
    hmac(&SHA384_HASH, key, key_len, msg, len, tag);
}

/* tag[64] */
void hmac_sha512(const uint8_t *key, uint32_t key_len, const uint8_t *msg, uint32_t len, uint8_t *tag)
{
    hmac(&SHA512_HASH, key, key_len, msg, len, tag);
}
