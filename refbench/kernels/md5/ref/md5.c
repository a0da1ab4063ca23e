/* MD5 (RFC 1321 §3.1-3.5), the compact form most embedded libraries use: the
 * 64 steps in one loop, the round function, shift amount and message word
 * index chosen by step number; words are read little-endian (§2). */
#include "md5_common.h"

/* RFC 1321 §3.4: T[i] = floor(2^32 * |sin(i)|), i = 1..64 (radians). */
static const uint32_t T[64] = {
    0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501,
    0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
    0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
    0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a,
    0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
    0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
    0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
    0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391,
};

/* §3.4: the shift amounts s of each round, four per round, repeating. */
static const uint8_t S[16] = {7, 12, 17, 22, 5, 9, 14, 20, 4, 11, 16, 23, 6, 10, 15, 21};

void md5_compress(uint32_t H[4], const uint8_t block[64])
{
    uint32_t X[16];
    uint32_t a = H[0], b = H[1], c = H[2], d = H[3], f, tmp;
    uint32_t i, k;

    for (i = 0; i < 16; i++) {
        X[i] = load32_le(block + 4 * i);
    }
    for (i = 0; i < 64; i++) {
        if (i < 16) {        /* round 1: F(X,Y,Z) = XY v not(X) Z, k = i */
            f = d ^ (b & (c ^ d));
            k = i;
        } else if (i < 32) { /* round 2: G(X,Y,Z) = XZ v Y not(Z), k = 5i + 1 */
            f = c ^ (d & (b ^ c));
            k = (5 * i + 1) & 15;
        } else if (i < 48) { /* round 3: H(X,Y,Z) = X xor Y xor Z, k = 3i + 5 */
            f = b ^ c ^ d;
            k = (3 * i + 5) & 15;
        } else {             /* round 4: I(X,Y,Z) = Y xor (X v not(Z)), k = 7i */
            f = c ^ (b | ~d);
            k = (7 * i) & 15;
        }
        tmp = d;
        d = c;
        c = b;
        b = b + ROTL32(a + f + X[k] + T[i], S[(i >> 4) * 4 + (i & 3)]);
        a = tmp;
    }
    H[0] += a; H[1] += b; H[2] += c; H[3] += d;
}
