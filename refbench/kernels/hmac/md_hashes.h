/* The hashes that plug into the Merkle-Damgard stream (md_stream.h) and the
 * HMAC construction (hmac.c), each over its family's compression function. */
#ifndef REFBENCH_MD_HASHES_H
#define REFBENCH_MD_HASHES_H
#include "md_stream.h"

extern const md_hash MD5_HASH;      /* md_hashes.c, over md5/ref */
extern const md_hash SHA1_HASH;     /* md_hashes.c, over the sha1 variant */
extern const md_hash SHA224_HASH;   /* sha256_stream.c, over the sha256 variant */
extern const md_hash SHA256_HASH;   /* sha256_stream.c */
extern const md_hash SHA384_HASH;   /* md_hashes.c, over sha512/ref */
extern const md_hash SHA512_HASH;   /* md_hashes.c */
#endif
