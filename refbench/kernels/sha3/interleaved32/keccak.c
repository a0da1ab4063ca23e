/* Keccak-f[1600] on bit-interleaved 32-bit words (the Keccak team's 32-bit
 * "bit interleaving" technique, as in the in-place 32-bit implementations):
 * each 64-bit lane is kept as two 32-bit words, one holding its even bits and
 * one its odd bits. A 64-bit rotation by an even amount 2k is then two 32-bit
 * rotations by k, and by an odd amount 2k + 1 the two words swap and rotate by
 * k + 1 and k. On cores with a barrel shifter (ARMv7-M) a rotation is free in
 * the next logical instruction, so θ, ρ and χ stay 32-bit work. The price is
 * paid at the edge: lanes are (de)interleaved when absorbed and extracted. */
#include "keccak.h"
#include "keccak_constants.h"

/* 32-bit left rotation, defined for n = 0 as well. */
#define ROL(x, n) (((x) << (n)) | ((x) >> ((32 - (n)) & 31)))

/* Move the even bits of x to its low half and the odd bits to its high half. */
static uint32_t unzip32(uint32_t x)
{
    uint32_t t;

    t = (x ^ (x >> 1)) & 0x22222222u; x ^= t ^ (t << 1);
    t = (x ^ (x >> 2)) & 0x0c0c0c0cu; x ^= t ^ (t << 2);
    t = (x ^ (x >> 4)) & 0x00f000f0u; x ^= t ^ (t << 4);
    t = (x ^ (x >> 8)) & 0x0000ff00u; x ^= t ^ (t << 8);
    return x;
}

/* The inverse of unzip32: low half to the even bits, high half to the odd bits. */
static uint32_t zip32(uint32_t x)
{
    uint32_t t;

    t = (x ^ (x >> 8)) & 0x0000ff00u; x ^= t ^ (t << 8);
    t = (x ^ (x >> 4)) & 0x00f000f0u; x ^= t ^ (t << 4);
    t = (x ^ (x >> 2)) & 0x0c0c0c0cu; x ^= t ^ (t << 2);
    t = (x ^ (x >> 1)) & 0x22222222u; x ^= t ^ (t << 1);
    return x;
}

void keccak_absorb_lanes(keccak_state *s, const uint8_t *bytes, uint32_t lanes)
{
    uint32_t i, lo, hi;

    for (i = 0; i < lanes; i++) {
        lo = unzip32(load32_le(bytes + 8 * i));
        hi = unzip32(load32_le(bytes + 8 * i + 4));
        s->w[2 * i] ^= (lo & 0xffffu) | (hi << 16);
        s->w[2 * i + 1] ^= (lo >> 16) | (hi & 0xffff0000u);
    }
}

void keccak_extract_lanes(const keccak_state *s, uint8_t *bytes, uint32_t lanes)
{
    uint32_t i, even, odd;

    for (i = 0; i < lanes; i++) {
        even = s->w[2 * i];
        odd = s->w[2 * i + 1];
        store32_le(bytes + 8 * i, zip32((even & 0xffffu) | (odd << 16)));
        store32_le(bytes + 8 * i + 4, zip32((even >> 16) | (odd & 0xffff0000u)));
    }
}

/* χ on row y (lanes y..y + 4) for the word of parity p (0 even, 1 odd). */
#define CHI_ROW(y, p)                                                                            \
    do {                                                                                         \
        uint32_t a0 = A[2 * (y) + (p)], a1 = A[2 * (y) + 2 + (p)], a2 = A[2 * (y) + 4 + (p)];    \
        uint32_t a3 = A[2 * (y) + 6 + (p)], a4 = A[2 * (y) + 8 + (p)];                           \
        A[2 * (y) + (p)] = a0 ^ (~a1 & a2);                                                      \
        A[2 * (y) + 2 + (p)] = a1 ^ (~a2 & a3);                                                  \
        A[2 * (y) + 4 + (p)] = a2 ^ (~a3 & a4);                                                  \
        A[2 * (y) + 6 + (p)] = a3 ^ (~a4 & a0);                                                  \
        A[2 * (y) + 8 + (p)] = a4 ^ (~a0 & a1);                                                  \
    } while (0)

/* One step of the ρ-π cycle with a constant 64-bit rotation r: r even -> both words by r/2;
 * r odd -> even' = ROL(odd, (r + 1)/2), odd' = ROL(even, (r - 1)/2). */
#define RHO_PI_STEP(lane, r)                                              \
    ue = A[2 * (lane)];                                                   \
    uo = A[2 * (lane) + 1];                                               \
    A[2 * (lane)] = ((r) & 1) ? ROL(to, ((r) + 1) >> 1) : ROL(te, (r) >> 1); \
    A[2 * (lane) + 1] = ((r) & 1) ? ROL(te, (r) >> 1) : ROL(to, (r) >> 1);   \
    te = ue;                                                              \
    to = uo;

void keccak_f1600(keccak_state *s)
{
    uint32_t *A = s->w;
    uint32_t Ce0, Ce1, Ce2, Ce3, Ce4, Co0, Co1, Co2, Co3, Co4, te, to, ue, uo;
    uint32_t D[10];
    uint32_t round, y;

    for (round = 0; round < 24; round++) {
        /* θ: D = C[x - 1] ^ ROT64(C[x + 1], 1); rotation by 1 swaps the words and rotates one by 1. */
        Ce0 = A[0] ^ A[10] ^ A[20] ^ A[30] ^ A[40];  Co0 = A[1] ^ A[11] ^ A[21] ^ A[31] ^ A[41];
        Ce1 = A[2] ^ A[12] ^ A[22] ^ A[32] ^ A[42];  Co1 = A[3] ^ A[13] ^ A[23] ^ A[33] ^ A[43];
        Ce2 = A[4] ^ A[14] ^ A[24] ^ A[34] ^ A[44];  Co2 = A[5] ^ A[15] ^ A[25] ^ A[35] ^ A[45];
        Ce3 = A[6] ^ A[16] ^ A[26] ^ A[36] ^ A[46];  Co3 = A[7] ^ A[17] ^ A[27] ^ A[37] ^ A[47];
        Ce4 = A[8] ^ A[18] ^ A[28] ^ A[38] ^ A[48];  Co4 = A[9] ^ A[19] ^ A[29] ^ A[39] ^ A[49];
        D[0] = Ce4 ^ ROL(Co1, 1);  D[1] = Co4 ^ Ce1;
        D[2] = Ce0 ^ ROL(Co2, 1);  D[3] = Co0 ^ Ce2;
        D[4] = Ce1 ^ ROL(Co3, 1);  D[5] = Co1 ^ Ce3;
        D[6] = Ce2 ^ ROL(Co4, 1);  D[7] = Co2 ^ Ce4;
        D[8] = Ce3 ^ ROL(Co0, 1);  D[9] = Co3 ^ Ce0;
        for (y = 0; y < 50; y += 10) {
            A[y] ^= D[0]; A[y + 1] ^= D[1]; A[y + 2] ^= D[2]; A[y + 3] ^= D[3]; A[y + 4] ^= D[4];
            A[y + 5] ^= D[5]; A[y + 6] ^= D[6]; A[y + 7] ^= D[7]; A[y + 8] ^= D[8]; A[y + 9] ^= D[9];
        }
        /* ρ and π along π's cycle, constant rotations of 32-bit words. */
        te = A[2];
        to = A[3];
        KECCAK_RHO_PI_CYCLE(RHO_PI_STEP)
        /* χ row by row, on even and odd words independently. */
        CHI_ROW(0, 0); CHI_ROW(0, 1); CHI_ROW(5, 0); CHI_ROW(5, 1); CHI_ROW(10, 0);
        CHI_ROW(10, 1); CHI_ROW(15, 0); CHI_ROW(15, 1); CHI_ROW(20, 0); CHI_ROW(20, 1);
        /* ι with the interleaved round constant. */
        A[0] ^= keccak_rc_bi[2 * round];
        A[1] ^= keccak_rc_bi[2 * round + 1];
    }
}
