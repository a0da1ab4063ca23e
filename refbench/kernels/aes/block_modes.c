/* ECB, CBC and CTR (NIST SP 800-38A §6.1-6.3, §6.5) over the block cipher of CIPHER_HEADER
 * (block_encrypt, block_decrypt, BLOCK_SIZE), shared by AES, SM4 and TDEA.
 *
 * ECB and CBC take whole blocks only (len a multiple of BLOCK_SIZE; SP 800-38A §6.1-6.2
 * has no padding). CBC leaves the last ciphertext block in iv so calls can be chained;
 * CTR increments the whole counter block as a big-endian integer (Appendix B.1) once per
 * block, a final partial block included, and leaves the next counter in counter.
 *
 * A cipher variant that ciphers CIPHER_PARALLEL_BLOCKS > 1 blocks per call (aes/bitsliced:
 * two, defined in its manifest) gets them in the modes that are parallel: ECB, CBC
 * decryption and CTR take that many blocks per call while at least that many remain (CTR:
 * while more than one block remains), then one block at a time. CBC encryption is serial
 * (C_j needs C_(j-1)) and always takes one block per call. */
#ifndef CIPHER_HEADER
#error "CIPHER_HEADER must name the block cipher's header (the family manifest's defines, e.g. \"aes_cipher.h\")"
#endif
#include CIPHER_HEADER  /* the block cipher's interface: aes_cipher.h, sm4_cipher.h or tdea_cipher.h */

#ifndef CIPHER_PARALLEL_BLOCKS
#define CIPHER_PARALLEL_BLOCKS 1
#endif
#define PARALLEL_BYTES (CIPHER_PARALLEL_BLOCKS * BLOCK_SIZE)

/* T_(j+1) = T_j + 1 mod 2^(8 BLOCK_SIZE): the standard incrementing function (Appendix B.1). */
static inline void increment_counter(uint8_t *counter)
{
    uint32_t j;
    for (j = BLOCK_SIZE; j-- > 0;) {
        if (++counter[j] != 0) {
            break;
        }
    }
}

void ecb_encrypt(const void *ctx, const uint8_t *in, uint8_t *out, uint32_t len)
{
    uint32_t i = 0;
#if CIPHER_PARALLEL_BLOCKS > 1
    for (; len - i >= PARALLEL_BYTES; i += PARALLEL_BYTES) {
        block_encrypt_parallel(ctx, in + i, out + i);
    }
#endif
    for (; i < len; i += BLOCK_SIZE) {
        block_encrypt(ctx, in + i, out + i);
    }
}

void cbc_encrypt(const void *ctx, uint8_t *iv, const uint8_t *in, uint8_t *out, uint32_t len)
{
    uint32_t i, j;
    for (i = 0; i < len; i += BLOCK_SIZE) {
        for (j = 0; j < BLOCK_SIZE; j++) {
            iv[j] ^= in[i + j];              /* C_j = CIPH_K(P_j xor C_(j-1)) */
        }
        block_encrypt(ctx, iv, iv);
        for (j = 0; j < BLOCK_SIZE; j++) {
            out[i + j] = iv[j];
        }
    }
}

void cbc_decrypt(const void *ctx, uint8_t *iv, const uint8_t *in, uint8_t *out, uint32_t len)
{
    uint8_t block[BLOCK_SIZE], saved[BLOCK_SIZE];
    uint32_t i = 0, j;
#if CIPHER_PARALLEL_BLOCKS > 1
    uint8_t blocks[PARALLEL_BYTES], saved_blocks[PARALLEL_BYTES];
    for (; len - i >= PARALLEL_BYTES; i += PARALLEL_BYTES) {
        for (j = 0; j < PARALLEL_BYTES; j++) {
            saved_blocks[j] = in[i + j];     /* in and out may overlap */
        }
        block_decrypt_parallel(ctx, saved_blocks, blocks);
        for (j = 0; j < BLOCK_SIZE; j++) {   /* P_j = CIPH^-1_K(C_j) xor C_(j-1) */
            out[i + j] = blocks[j] ^ iv[j];
        }
        for (j = BLOCK_SIZE; j < PARALLEL_BYTES; j++) {
            out[i + j] = blocks[j] ^ saved_blocks[j - BLOCK_SIZE];
        }
        for (j = 0; j < BLOCK_SIZE; j++) {
            iv[j] = saved_blocks[PARALLEL_BYTES - BLOCK_SIZE + j];
        }
    }
#endif
    for (; i < len; i += BLOCK_SIZE) {
        for (j = 0; j < BLOCK_SIZE; j++) {
            saved[j] = in[i + j];            /* in and out may overlap */
        }
        block_decrypt(ctx, saved, block);    /* P_j = CIPH^-1_K(C_j) xor C_(j-1) */
        for (j = 0; j < BLOCK_SIZE; j++) {
            out[i + j] = block[j] ^ iv[j];
            iv[j] = saved[j];
        }
    }
}

void ctr_crypt(const void *ctx, uint8_t *counter, const uint8_t *in, uint8_t *out, uint32_t len)
{
    uint8_t keystream[BLOCK_SIZE];
    uint32_t i = 0, j, n;
#if CIPHER_PARALLEL_BLOCKS > 1
    uint8_t counters[PARALLEL_BYTES], keystreams[PARALLEL_BYTES];
    uint32_t k;
    for (; len - i > BLOCK_SIZE; i += n) {   /* T_j, T_(j+1), ... ciphered in one call */
        n = len - i < PARALLEL_BYTES ? len - i : PARALLEL_BYTES;
        for (k = 0; k < PARALLEL_BYTES; k += BLOCK_SIZE) {
            for (j = 0; j < BLOCK_SIZE; j++) {
                counters[k + j] = counter[j];
            }
            if (k < n) {                     /* the counter advances only over blocks used */
                increment_counter(counter);
            }
        }
        block_encrypt_parallel(ctx, counters, keystreams);
        for (j = 0; j < n; j++) {
            out[i + j] = in[i + j] ^ keystreams[j];
        }
    }
#endif
    for (; i < len; i += BLOCK_SIZE) {
        block_encrypt(ctx, counter, keystream);
        n = len - i < BLOCK_SIZE ? len - i : BLOCK_SIZE;
        for (j = 0; j < n; j++) {
            out[i + j] = in[i + j] ^ keystream[j];
        }
        increment_counter(counter);
    }
}
