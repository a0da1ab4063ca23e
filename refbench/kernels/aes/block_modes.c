/* ECB, CBC and CTR (NIST SP 800-38A §6.1-6.3, §6.5) over the family's block cipher
 * (cipher.h: block_encrypt, block_decrypt, BLOCK_SIZE), shared by AES, SM4 and TDEA.
 *
 * ECB and CBC take whole blocks only (len a multiple of BLOCK_SIZE; SP 800-38A §6.1-6.2
 * has no padding). CBC leaves the last ciphertext block in iv so calls can be chained;
 * CTR increments the whole counter block as a big-endian integer (Appendix B.1) once per
 * block, a final partial block included, and leaves the next counter in counter. */
#include <cipher.h>  /* the family folder's cipher.h, on the include path */

void ecb_encrypt(const void *ctx, const uint8_t *in, uint8_t *out, uint32_t len)
{
    uint32_t i;
    for (i = 0; i < len; i += BLOCK_SIZE) {
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
    uint32_t i, j;
    for (i = 0; i < len; i += BLOCK_SIZE) {
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
    uint32_t i, j, n;
    for (i = 0; i < len; i += BLOCK_SIZE) {
        block_encrypt(ctx, counter, keystream);
        n = len - i < BLOCK_SIZE ? len - i : BLOCK_SIZE;
        for (j = 0; j < n; j++) {
            out[i + j] = in[i + j] ^ keystream[j];
        }
        for (j = BLOCK_SIZE; j-- > 0;) {     /* T_(j+1) = T_j + 1 mod 2^(8 BLOCK_SIZE) */
            if (++counter[j] != 0) {
                break;
            }
        }
    }
}
