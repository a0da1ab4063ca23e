/* AES, bitsliced and constant time: no table lookup and no branch depends on the key or the data.
 *
 * Two blocks are processed at once in eight 32-bit words ("planes"): plane b holds bit b of all
 * 32 state bytes, byte (row r, column c) of block k at bit 8r + 4k + c. Packing is an 8x8 bit
 * transposition per byte lane by three SWAPMOVE stages. In this layout
 *  - SubBytes (FIPS 197 §5.1.1) is the 113-gate straight-line program of Boyar and Peralta,
 *    "A Small Depth-16 Circuit for the AES S-Box", SEC 2012 (IACR ePrint 2011/332, Figures 5, 7, 8),
 *    and InvSubBytes (§5.3.2) the same paper's inverse circuit (Figures 6, 7, 9), applied to the planes;
 *  - ShiftRows (§5.1.2) rotates the 4-bit column groups of each row byte: shifts and masks;
 *  - MixColumns (§5.1.3) needs row r+1 at row r: a rotation of the word by 8 bits; xtime (§4.2.1)
 *    is a renaming of planes with three XORs;
 *  - InvMixColumns (§5.3.3) is MixColumns after multiplying by 04 x^2 + 05 (Daemen & Rijmen,
 *    The Design of Rijndael, §4.1.3).
 * This is plain bitslicing with explicit ShiftRows, not the fixslicing of Adomnicai & Peyrin
 * (TCHES 2021), which removes ShiftRows by alternating MixColumns variants.
 * The trade: constant time and no tables, for several times the cycles of the T-table variants
 * (three to four times on Cortex-M4 at -Os); CBC encryption can use only one of the two slots,
 * which doubles its cost again. The modes are the shared ones (block_modes.c), which hand this
 * variant two blocks per call where the mode allows. */
#include "aes.h"

typedef struct {
    uint32_t rounds;         /* Nr */
    uint32_t planes[15][8];  /* round keys 0..Nr, bitsliced, the same key in both block slots */
} bs_ctx;

typedef char bs_ctx_fits_the_context[(sizeof(bs_ctx) <= AES_CTX_BYTES) ? 1 : -1];

#define SWAPMOVE(a, b, mask, n)                   \
    do {                                          \
        uint32_t tmp_ = ((b) ^ ((a) >> (n))) & (mask); \
        (b) ^= tmp_;                              \
        (a) ^= tmp_ << (n);                       \
    } while (0)

/* Transpose w[i] (column i % 4 of block i / 4, row r in byte r) into planes, and back (an involution). */
static void transpose(uint32_t w[8])
{
    SWAPMOVE(w[0], w[1], 0x55555555u, 1);
    SWAPMOVE(w[2], w[3], 0x55555555u, 1);
    SWAPMOVE(w[4], w[5], 0x55555555u, 1);
    SWAPMOVE(w[6], w[7], 0x55555555u, 1);
    SWAPMOVE(w[0], w[2], 0x33333333u, 2);
    SWAPMOVE(w[1], w[3], 0x33333333u, 2);
    SWAPMOVE(w[4], w[6], 0x33333333u, 2);
    SWAPMOVE(w[5], w[7], 0x33333333u, 2);
    SWAPMOVE(w[0], w[4], 0x0f0f0f0fu, 4);
    SWAPMOVE(w[1], w[5], 0x0f0f0f0fu, 4);
    SWAPMOVE(w[2], w[6], 0x0f0f0f0fu, 4);
    SWAPMOVE(w[3], w[7], 0x0f0f0f0fu, 4);
}

static void pack(uint32_t p[8], const uint8_t *block0, const uint8_t *block1)
{
    uint32_t c;
    for (c = 0; c < 4; c++) {
        p[c] = load32_le(block0 + 4 * c);
        p[c + 4] = load32_le(block1 + 4 * c);
    }
    transpose(p);
}

static void unpack(uint8_t *block0, uint8_t *block1, uint32_t p[8])
{
    uint32_t c;
    transpose(p);
    for (c = 0; c < 4; c++) {
        store32_le(block0 + 4 * c, p[c]);
        store32_le(block1 + 4 * c, p[c + 4]);
    }
}

/* SubBytes on the planes: Boyar-Peralta Figures 5 (top), 7 (middle, D = U7), 8 (bottom);
 * U0 and S0 are the most significant bits (plane 7) */
static void sub_bytes(uint32_t p[8])
{
    uint32_t U0 = p[7];
    uint32_t U1 = p[6];
    uint32_t U2 = p[5];
    uint32_t U3 = p[4];
    uint32_t U4 = p[3];
    uint32_t U5 = p[2];
    uint32_t U6 = p[1];
    uint32_t U7 = p[0];
    uint32_t D, L0, L1, L2, L3, L4, L5, L6, L7, L8, L9, L10, L11, L12, L13, L14, L15, L16, L17, L18, L19, L20,
        L21, L22, L23, L24, L25, L26, L27, L28, L29, M1, M2, M3, M4, M5, M6, M7, M8, M9, M10, M11, M12, M13,
        M14, M15, M16, M17, M18, M19, M20, M21, M22, M23, M24, M25, M26, M27, M28, M29, M30, M31, M32, M33,
        M34, M35, M36, M37, M38, M39, M40, M41, M42, M43, M44, M45, M46, M47, M48, M49, M50, M51, M52, M53,
        M54, M55, M56, M57, M58, M59, M60, M61, M62, M63, T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, T12,
        T13, T14, T15, T16, T17, T18, T19, T20, T21, T22, T23, T24, T25, T26, T27, S0, S1, S2, S3, S4, S5, S6,
        S7;
    T1 = U0 ^ U3;
    T2 = U0 ^ U5;
    T3 = U0 ^ U6;
    T4 = U3 ^ U5;
    T5 = U4 ^ U6;
    T6 = T1 ^ T5;
    T7 = U1 ^ U2;
    T8 = U7 ^ T6;
    T9 = U7 ^ T7;
    T10 = T6 ^ T7;
    T11 = U1 ^ U5;
    T12 = U2 ^ U5;
    T13 = T3 ^ T4;
    T14 = T6 ^ T11;
    T15 = T5 ^ T11;
    T16 = T5 ^ T12;
    T17 = T9 ^ T16;
    T18 = U3 ^ U7;
    T19 = T7 ^ T18;
    T20 = T1 ^ T19;
    T21 = U6 ^ U7;
    T22 = T7 ^ T21;
    T23 = T2 ^ T22;
    T24 = T2 ^ T10;
    T25 = T20 ^ T17;
    T26 = T3 ^ T16;
    T27 = T1 ^ T12;
    D = U7;
    M1 = T13 & T6;
    M2 = T23 & T8;
    M3 = T14 ^ M1;
    M4 = T19 & D;
    M5 = M4 ^ M1;
    M6 = T3 & T16;
    M7 = T22 & T9;
    M8 = T26 ^ M6;
    M9 = T20 & T17;
    M10 = M9 ^ M6;
    M11 = T1 & T15;
    M12 = T4 & T27;
    M13 = M12 ^ M11;
    M14 = T2 & T10;
    M15 = M14 ^ M11;
    M16 = M3 ^ M2;
    M17 = M5 ^ T24;
    M18 = M8 ^ M7;
    M19 = M10 ^ M15;
    M20 = M16 ^ M13;
    M21 = M17 ^ M15;
    M22 = M18 ^ M13;
    M23 = M19 ^ T25;
    M24 = M22 ^ M23;
    M25 = M22 & M20;
    M26 = M21 ^ M25;
    M27 = M20 ^ M21;
    M28 = M23 ^ M25;
    M29 = M28 & M27;
    M30 = M26 & M24;
    M31 = M20 & M23;
    M32 = M27 & M31;
    M33 = M27 ^ M25;
    M34 = M21 & M22;
    M35 = M24 & M34;
    M36 = M24 ^ M25;
    M37 = M21 ^ M29;
    M38 = M32 ^ M33;
    M39 = M23 ^ M30;
    M40 = M35 ^ M36;
    M41 = M38 ^ M40;
    M42 = M37 ^ M39;
    M43 = M37 ^ M38;
    M44 = M39 ^ M40;
    M45 = M42 ^ M41;
    M46 = M44 & T6;
    M47 = M40 & T8;
    M48 = M39 & D;
    M49 = M43 & T16;
    M50 = M38 & T9;
    M51 = M37 & T17;
    M52 = M42 & T15;
    M53 = M45 & T27;
    M54 = M41 & T10;
    M55 = M44 & T13;
    M56 = M40 & T23;
    M57 = M39 & T19;
    M58 = M43 & T3;
    M59 = M38 & T22;
    M60 = M37 & T20;
    M61 = M42 & T1;
    M62 = M45 & T4;
    M63 = M41 & T2;
    L0 = M61 ^ M62;
    L1 = M50 ^ M56;
    L2 = M46 ^ M48;
    L3 = M47 ^ M55;
    L4 = M54 ^ M58;
    L5 = M49 ^ M61;
    L6 = M62 ^ L5;
    L7 = M46 ^ L3;
    L8 = M51 ^ M59;
    L9 = M52 ^ M53;
    L10 = M53 ^ L4;
    L11 = M60 ^ L2;
    L12 = M48 ^ M51;
    L13 = M50 ^ L0;
    L14 = M52 ^ M61;
    L15 = M55 ^ L1;
    L16 = M56 ^ L0;
    L17 = M57 ^ L1;
    L18 = M58 ^ L8;
    L19 = M63 ^ L4;
    L20 = L0 ^ L1;
    L21 = L1 ^ L7;
    L22 = L3 ^ L12;
    L23 = L18 ^ L2;
    L24 = L15 ^ L9;
    L25 = L6 ^ L10;
    L26 = L7 ^ L9;
    L27 = L8 ^ L10;
    L28 = L11 ^ L14;
    L29 = L11 ^ L17;
    S0 = L6 ^ L24;
    S1 = ~(L16 ^ L26);
    S2 = ~(L19 ^ L28);
    S3 = L6 ^ L21;
    S4 = L20 ^ L22;
    S5 = L25 ^ L29;
    S6 = ~(L13 ^ L27);
    S7 = ~(L6 ^ L23);
    p[7] = S0;
    p[6] = S1;
    p[5] = S2;
    p[4] = S3;
    p[3] = S4;
    p[2] = S5;
    p[1] = S6;
    p[0] = S7;
}

/* InvSubBytes on the planes: Boyar-Peralta Figures 6 (top), 7 (middle, D = Y5), 9 (bottom) */
static void inv_sub_bytes(uint32_t p[8])
{
    uint32_t U0 = p[7];
    uint32_t U1 = p[6];
    uint32_t U2 = p[5];
    uint32_t U3 = p[4];
    uint32_t U4 = p[3];
    uint32_t U5 = p[2];
    uint32_t U6 = p[1];
    uint32_t U7 = p[0];
    uint32_t D, M1, M2, M3, M4, M5, M6, M7, M8, M9, M10, M11, M12, M13, M14, M15, M16, M17, M18, M19, M20,
        M21, M22, M23, M24, M25, M26, M27, M28, M29, M30, M31, M32, M33, M34, M35, M36, M37, M38, M39, M40,
        M41, M42, M43, M44, M45, M46, M47, M48, M49, M50, M51, M52, M53, M54, M55, M56, M57, M58, M59, M60,
        M61, M62, M63, P0, P1, P2, P3, P4, P5, P6, P7, P8, P9, P10, P11, P12, P13, P14, P15, P16, P17, P18,
        P19, P20, P22, P23, P24, P25, P26, P27, P28, P29, R5, R13, R17, R18, R19, T1, T2, T3, T4, T6, T8, T9,
        T10, T13, T14, T15, T16, T17, T19, T20, T22, T23, T24, T25, T26, T27, Y5, W0, W1, W2, W3, W4, W5, W6,
        W7;
    T23 = U0 ^ U3;
    T22 = ~(U1 ^ U3);
    T2 = ~(U0 ^ U1);
    T1 = U3 ^ U4;
    T24 = ~(U4 ^ U7);
    R5 = U6 ^ U7;
    T8 = ~(U1 ^ T23);
    T19 = T22 ^ R5;
    T9 = ~(U7 ^ T1);
    T10 = T2 ^ T24;
    T13 = T2 ^ R5;
    T3 = T1 ^ R5;
    T25 = ~(U2 ^ T1);
    R13 = U1 ^ U6;
    T17 = ~(U2 ^ T19);
    T20 = T24 ^ R13;
    T4 = U4 ^ T8;
    R17 = ~(U2 ^ U5);
    R18 = ~(U5 ^ U6);
    R19 = ~(U2 ^ U4);
    Y5 = U0 ^ R17;
    T6 = T22 ^ R17;
    T16 = R13 ^ R19;
    T27 = T1 ^ R18;
    T15 = T10 ^ T27;
    T14 = T10 ^ R18;
    T26 = T3 ^ T16;
    D = Y5;
    M1 = T13 & T6;
    M2 = T23 & T8;
    M3 = T14 ^ M1;
    M4 = T19 & D;
    M5 = M4 ^ M1;
    M6 = T3 & T16;
    M7 = T22 & T9;
    M8 = T26 ^ M6;
    M9 = T20 & T17;
    M10 = M9 ^ M6;
    M11 = T1 & T15;
    M12 = T4 & T27;
    M13 = M12 ^ M11;
    M14 = T2 & T10;
    M15 = M14 ^ M11;
    M16 = M3 ^ M2;
    M17 = M5 ^ T24;
    M18 = M8 ^ M7;
    M19 = M10 ^ M15;
    M20 = M16 ^ M13;
    M21 = M17 ^ M15;
    M22 = M18 ^ M13;
    M23 = M19 ^ T25;
    M24 = M22 ^ M23;
    M25 = M22 & M20;
    M26 = M21 ^ M25;
    M27 = M20 ^ M21;
    M28 = M23 ^ M25;
    M29 = M28 & M27;
    M30 = M26 & M24;
    M31 = M20 & M23;
    M32 = M27 & M31;
    M33 = M27 ^ M25;
    M34 = M21 & M22;
    M35 = M24 & M34;
    M36 = M24 ^ M25;
    M37 = M21 ^ M29;
    M38 = M32 ^ M33;
    M39 = M23 ^ M30;
    M40 = M35 ^ M36;
    M41 = M38 ^ M40;
    M42 = M37 ^ M39;
    M43 = M37 ^ M38;
    M44 = M39 ^ M40;
    M45 = M42 ^ M41;
    M46 = M44 & T6;
    M47 = M40 & T8;
    M48 = M39 & D;
    M49 = M43 & T16;
    M50 = M38 & T9;
    M51 = M37 & T17;
    M52 = M42 & T15;
    M53 = M45 & T27;
    M54 = M41 & T10;
    M55 = M44 & T13;
    M56 = M40 & T23;
    M57 = M39 & T19;
    M58 = M43 & T3;
    M59 = M38 & T22;
    M60 = M37 & T20;
    M61 = M42 & T1;
    M62 = M45 & T4;
    M63 = M41 & T2;
    P0 = M52 ^ M61;
    P1 = M58 ^ M59;
    P2 = M54 ^ M62;
    P3 = M47 ^ M50;
    P4 = M48 ^ M56;
    P5 = M46 ^ M51;
    P6 = M49 ^ M60;
    P7 = P0 ^ P1;
    P8 = M50 ^ M53;
    P9 = M55 ^ M63;
    P10 = M57 ^ P4;
    P11 = P0 ^ P3;
    P12 = M46 ^ M48;
    P13 = M49 ^ M51;
    P14 = M49 ^ M62;
    P15 = M54 ^ M59;
    P16 = M57 ^ M61;
    P17 = M58 ^ P2;
    P18 = M63 ^ P5;
    P19 = P2 ^ P3;
    P20 = P4 ^ P6;
    P22 = P2 ^ P7;
    P23 = P7 ^ P8;
    P24 = P5 ^ P7;
    P25 = P6 ^ P10;
    P26 = P9 ^ P11;
    P27 = P10 ^ P18;
    P28 = P11 ^ P25;
    P29 = P15 ^ P20;
    W0 = P13 ^ P22;
    W1 = P26 ^ P29;
    W2 = P17 ^ P28;
    W3 = P12 ^ P22;
    W4 = P23 ^ P27;
    W5 = P19 ^ P24;
    W6 = P14 ^ P23;
    W7 = P9 ^ P16;
    p[7] = W0;
    p[6] = W1;
    p[5] = W2;
    p[4] = W3;
    p[3] = W4;
    p[2] = W5;
    p[1] = W6;
    p[0] = W7;
}

/* ShiftRows (§5.1.2): in row r, column c takes column c + r mod 4 (within each block's 4 bits). */
static void shift_rows(uint32_t p[8])
{
    uint32_t b, x;
    for (b = 0; b < 8; b++) {
        x = p[b];
        p[b] = (x & 0x000000ffu) | ((x >> 1) & 0x00007700u) | ((x << 3) & 0x00008800u) |
               ((x >> 2) & 0x00330000u) | ((x << 2) & 0x00cc0000u) |
               ((x >> 3) & 0x11000000u) | ((x << 1) & 0xee000000u);
    }
}

/* InvShiftRows (§5.3.1): in row r, column c takes column c - r mod 4. */
static void inv_shift_rows(uint32_t p[8])
{
    uint32_t b, x;
    for (b = 0; b < 8; b++) {
        x = p[b];
        p[b] = (x & 0x000000ffu) | ((x << 1) & 0x0000ee00u) | ((x >> 3) & 0x00001100u) |
               ((x >> 2) & 0x00330000u) | ((x << 2) & 0x00cc0000u) |
               ((x << 3) & 0x88000000u) | ((x >> 1) & 0x77000000u);
    }
}

/* xtime (§4.2.1) on planes: bit b of 2t is bit b-1 of t, plus bit 7 where 0x1b has a one. */
static void xtime_planes(uint32_t out[8], const uint32_t t[8])
{
    out[0] = t[7];
    out[1] = t[0] ^ t[7];
    out[2] = t[1];
    out[3] = t[2] ^ t[7];
    out[4] = t[3] ^ t[7];
    out[5] = t[4];
    out[6] = t[5];
    out[7] = t[6];
}

/* MixColumns (§5.1.3): s'_r = 2 (s_r + s_(r+1)) + s_(r+1) + s_(r+2) + s_(r+3); ROTR 8 brings row r+1 to row r. */
static void mix_columns(uint32_t p[8])
{
    uint32_t t[8], d[8], b;
    for (b = 0; b < 8; b++) {
        t[b] = p[b] ^ ROTR32(p[b], 8);
    }
    xtime_planes(d, t);
    for (b = 0; b < 8; b++) {
        p[b] = d[b] ^ ROTR32(p[b], 8) ^ ROTR32(t[b], 16);
    }
}

/* InvMixColumns (§5.3.3) = MixColumns after s_r += 4 (s_r + s_(r+2)) (The Design of Rijndael, §4.1.3). */
static void inv_mix_columns(uint32_t p[8])
{
    uint32_t t[8], d[8], b;
    for (b = 0; b < 8; b++) {
        t[b] = p[b] ^ ROTR32(p[b], 16);
    }
    xtime_planes(d, t);
    xtime_planes(t, d);
    for (b = 0; b < 8; b++) {
        p[b] ^= t[b];
    }
    mix_columns(p);
}

static void add_round_key(uint32_t p[8], const uint32_t rk[8])
{
    uint32_t b;
    for (b = 0; b < 8; b++) {
        p[b] ^= rk[b];
    }
}

/* Cipher (§5.1) on two packed blocks. */
static void encrypt2(const bs_ctx *k, uint32_t p[8])
{
    uint32_t round;
    add_round_key(p, k->planes[0]);
    for (round = 1; round < k->rounds; round++) {
        sub_bytes(p);
        shift_rows(p);
        mix_columns(p);
        add_round_key(p, k->planes[round]);
    }
    sub_bytes(p);
    shift_rows(p);
    add_round_key(p, k->planes[k->rounds]);
}

/* InvCipher (§5.3, Figure 12) on two packed blocks. */
static void decrypt2(const bs_ctx *k, uint32_t p[8])
{
    uint32_t round;
    add_round_key(p, k->planes[k->rounds]);
    for (round = k->rounds - 1; round > 0; round--) {
        inv_shift_rows(p);
        inv_sub_bytes(p);
        add_round_key(p, k->planes[round]);
        inv_mix_columns(p);
    }
    inv_shift_rows(p);
    inv_sub_bytes(p);
    add_round_key(p, k->planes[0]);
}

/* SubWord (§5.2) through the bitsliced S-box, so the key schedule has no table lookup either. */
static uint32_t sub_word(uint32_t w)
{
    uint8_t block[16] = {0}, other[16];
    uint32_t p[8];
    store32_be(block, w);
    pack(p, block, block);
    sub_bytes(p);
    unpack(block, other, p);
    return load32_be(block);
}

/* KeyExpansion (§5.2), then each round key packed into both block slots. */
void aes_setkey(void *ctx, const uint8_t *key, uint32_t key_len)
{
    bs_ctx *k = (bs_ctx *)ctx;
    uint32_t w[60], nk = key_len / 4, total, i, j, rcon = 1;
    uint8_t block[16];

    k->rounds = nk + 6;
    total = 4 * (k->rounds + 1);
    for (i = 0; i < nk; i++) {
        w[i] = load32_be(key + 4 * i);
    }
    for (i = nk, j = 0; i < total; i++) {
        uint32_t temp = w[i - 1];
        if (j == 0) {
            temp = sub_word(ROTL32(temp, 8)) ^ (rcon << 24);
            rcon = (rcon << 1) ^ ((rcon >> 7) * 0x11b);
        } else if (nk > 6 && j == 4) {
            temp = sub_word(temp);
        }
        w[i] = w[i - nk] ^ temp;
        if (++j == nk) {
            j = 0;
        }
    }
    for (i = 0; i <= k->rounds; i++) {
        for (j = 0; j < 4; j++) {
            store32_be(block + 4 * j, w[4 * i + j]);
        }
        pack(k->planes[i], block, block);
    }
}

/* The inverse cipher of §5.3 uses the same round keys. */
void aes_setkey_dec(void *ctx, const uint8_t *key, uint32_t key_len)
{
    aes_setkey(ctx, key, key_len);
}

/* The cipher interface of aes.h and aes_cipher.h: one block rides in both slots and the second
 * result is dropped, so a lone block costs as much as two. */
void aes_encrypt_block(const void *ctx, const uint8_t in[16], uint8_t out[16])
{
    uint8_t spare[16];
    uint32_t p[8];
    pack(p, in, in);
    encrypt2((const bs_ctx *)ctx, p);
    unpack(out, spare, p);
}

void aes_decrypt_block(const void *ctx, const uint8_t in[16], uint8_t out[16])
{
    uint8_t spare[16];
    uint32_t p[8];
    pack(p, in, in);
    decrypt2((const bs_ctx *)ctx, p);
    unpack(out, spare, p);
}

/* Two consecutive blocks per call, which the shared modes (block_modes.c) use wherever the mode
 * is parallel: ECB, CBC decryption, CTR. The manifest tells them (CIPHER_PARALLEL_BLOCKS=2). */
#if CIPHER_PARALLEL_BLOCKS != 2
#error "aes/bitsliced ciphers two blocks per call: its manifest must define CIPHER_PARALLEL_BLOCKS=2"
#endif

void aes_encrypt_parallel(const void *ctx, const uint8_t in[32], uint8_t out[32])
{
    uint32_t p[8];
    pack(p, in, in + 16);
    encrypt2((const bs_ctx *)ctx, p);
    unpack(out, out + 16, p);
}

void aes_decrypt_parallel(const void *ctx, const uint8_t in[32], uint8_t out[32])
{
    uint32_t p[8];
    pack(p, in, in + 16);
    decrypt2((const bs_ctx *)ctx, p);
    unpack(out, out + 16, p);
}
