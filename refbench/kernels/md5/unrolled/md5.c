/* MD5 (RFC 1321 §3.1-3.5), unrolled: the 64 steps of §3.4 written out, one
 * macro per round function, with each step's message word index, shift
 * amount and sine constant T[i] as literals in the code (no table indexed by
 * step, no per-step selection). The sixteen little-endian message words (§2)
 * are loaded once into X. This is the speed-optimised form (RFC 1321's own
 * md5c.c, Appendix A.3, writes the steps out the same way); it trades code
 * size for speed. */
#include "md5_common.h"

/* §3.4 auxiliary functions, written with one operation fewer than the RFC's forms:
 * F(X,Y,Z) = XY v not(X) Z = Z xor (X and (Y xor Z)); G(X,Y,Z) = XZ v Y not(Z) = Y xor (Z and (X xor Y)). */
#define MD5_F(x, y, z) ((z) ^ ((x) & ((y) ^ (z))))
#define MD5_G(x, y, z) ((y) ^ ((z) & ((x) ^ (y))))
#define MD5_H(x, y, z) ((x) ^ (y) ^ (z))
#define MD5_I(x, y, z) ((y) ^ ((x) | ~(z)))

/* §3.4 step [abcd k s i]: a = b + ((a + fun(b,c,d) + X[k] + T[i]) <<< s). */
#define STEP(fun, a, b, c, d, k, s, t)             \
    do {                                           \
        (a) += fun((b), (c), (d)) + X[k] + (t);    \
        (a) = ROTL32((a), (s)) + (b);              \
    } while (0)

void md5_compress(uint32_t H[4], const uint8_t block[64])
{
    uint32_t X[16];
    uint32_t a = H[0], b = H[1], c = H[2], d = H[3];
    uint32_t i;

    for (i = 0; i < 16; i++) {
        X[i] = load32_le(block + 4 * i);
    }

    /* Round 1: k = i, s = 7, 12, 17, 22. */
    STEP(MD5_F, a, b, c, d, 0, 7, 0xd76aa478);
    STEP(MD5_F, d, a, b, c, 1, 12, 0xe8c7b756);
    STEP(MD5_F, c, d, a, b, 2, 17, 0x242070db);
    STEP(MD5_F, b, c, d, a, 3, 22, 0xc1bdceee);
    STEP(MD5_F, a, b, c, d, 4, 7, 0xf57c0faf);
    STEP(MD5_F, d, a, b, c, 5, 12, 0x4787c62a);
    STEP(MD5_F, c, d, a, b, 6, 17, 0xa8304613);
    STEP(MD5_F, b, c, d, a, 7, 22, 0xfd469501);
    STEP(MD5_F, a, b, c, d, 8, 7, 0x698098d8);
    STEP(MD5_F, d, a, b, c, 9, 12, 0x8b44f7af);
    STEP(MD5_F, c, d, a, b, 10, 17, 0xffff5bb1);
    STEP(MD5_F, b, c, d, a, 11, 22, 0x895cd7be);
    STEP(MD5_F, a, b, c, d, 12, 7, 0x6b901122);
    STEP(MD5_F, d, a, b, c, 13, 12, 0xfd987193);
    STEP(MD5_F, c, d, a, b, 14, 17, 0xa679438e);
    STEP(MD5_F, b, c, d, a, 15, 22, 0x49b40821);

    /* Round 2: k = (5i + 1) mod 16, s = 5, 9, 14, 20. */
    STEP(MD5_G, a, b, c, d, 1, 5, 0xf61e2562);
    STEP(MD5_G, d, a, b, c, 6, 9, 0xc040b340);
    STEP(MD5_G, c, d, a, b, 11, 14, 0x265e5a51);
    STEP(MD5_G, b, c, d, a, 0, 20, 0xe9b6c7aa);
    STEP(MD5_G, a, b, c, d, 5, 5, 0xd62f105d);
    STEP(MD5_G, d, a, b, c, 10, 9, 0x02441453);
    STEP(MD5_G, c, d, a, b, 15, 14, 0xd8a1e681);
    STEP(MD5_G, b, c, d, a, 4, 20, 0xe7d3fbc8);
    STEP(MD5_G, a, b, c, d, 9, 5, 0x21e1cde6);
    STEP(MD5_G, d, a, b, c, 14, 9, 0xc33707d6);
    STEP(MD5_G, c, d, a, b, 3, 14, 0xf4d50d87);
    STEP(MD5_G, b, c, d, a, 8, 20, 0x455a14ed);
    STEP(MD5_G, a, b, c, d, 13, 5, 0xa9e3e905);
    STEP(MD5_G, d, a, b, c, 2, 9, 0xfcefa3f8);
    STEP(MD5_G, c, d, a, b, 7, 14, 0x676f02d9);
    STEP(MD5_G, b, c, d, a, 12, 20, 0x8d2a4c8a);

    /* Round 3: k = (3i + 5) mod 16, s = 4, 11, 16, 23. */
    STEP(MD5_H, a, b, c, d, 5, 4, 0xfffa3942);
    STEP(MD5_H, d, a, b, c, 8, 11, 0x8771f681);
    STEP(MD5_H, c, d, a, b, 11, 16, 0x6d9d6122);
    STEP(MD5_H, b, c, d, a, 14, 23, 0xfde5380c);
    STEP(MD5_H, a, b, c, d, 1, 4, 0xa4beea44);
    STEP(MD5_H, d, a, b, c, 4, 11, 0x4bdecfa9);
    STEP(MD5_H, c, d, a, b, 7, 16, 0xf6bb4b60);
    STEP(MD5_H, b, c, d, a, 10, 23, 0xbebfbc70);
    STEP(MD5_H, a, b, c, d, 13, 4, 0x289b7ec6);
    STEP(MD5_H, d, a, b, c, 0, 11, 0xeaa127fa);
    STEP(MD5_H, c, d, a, b, 3, 16, 0xd4ef3085);
    STEP(MD5_H, b, c, d, a, 6, 23, 0x04881d05);
    STEP(MD5_H, a, b, c, d, 9, 4, 0xd9d4d039);
    STEP(MD5_H, d, a, b, c, 12, 11, 0xe6db99e5);
    STEP(MD5_H, c, d, a, b, 15, 16, 0x1fa27cf8);
    STEP(MD5_H, b, c, d, a, 2, 23, 0xc4ac5665);

    /* Round 4: k = 7i mod 16, s = 6, 10, 15, 21. */
    STEP(MD5_I, a, b, c, d, 0, 6, 0xf4292244);
    STEP(MD5_I, d, a, b, c, 7, 10, 0x432aff97);
    STEP(MD5_I, c, d, a, b, 14, 15, 0xab9423a7);
    STEP(MD5_I, b, c, d, a, 5, 21, 0xfc93a039);
    STEP(MD5_I, a, b, c, d, 12, 6, 0x655b59c3);
    STEP(MD5_I, d, a, b, c, 3, 10, 0x8f0ccc92);
    STEP(MD5_I, c, d, a, b, 10, 15, 0xffeff47d);
    STEP(MD5_I, b, c, d, a, 1, 21, 0x85845dd1);
    STEP(MD5_I, a, b, c, d, 8, 6, 0x6fa87e4f);
    STEP(MD5_I, d, a, b, c, 15, 10, 0xfe2ce6e0);
    STEP(MD5_I, c, d, a, b, 6, 15, 0xa3014314);
    STEP(MD5_I, b, c, d, a, 13, 21, 0x4e0811a1);
    STEP(MD5_I, a, b, c, d, 4, 6, 0xf7537e82);
    STEP(MD5_I, d, a, b, c, 11, 10, 0xbd3af235);
    STEP(MD5_I, c, d, a, b, 2, 15, 0x2ad7d2bb);
    STEP(MD5_I, b, c, d, a, 9, 21, 0xeb86d391);

    H[0] += a; H[1] += b; H[2] += c; H[3] += d;
}
