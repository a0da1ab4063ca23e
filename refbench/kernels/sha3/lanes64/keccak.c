/* Keccak-f[1600] with 64-bit lanes (uint64_t), FIPS 202 §3.2-3.3, in the
 * usual C form: θ with the five columns written out, ρ and π together along
 * π's single 24-lane cycle with constant rotations, χ row by row, ι; the round
 * loop is kept. On a 32-bit core every lane operation is a pair of 32-bit
 * operations and each 64-bit rotation costs shifts and ORs across the two
 * halves (ARMv7-M folds one shift into each ORR; ARMv6-M cannot). */
#include "keccak.h"
#include "keccak_constants.h"

#define ROTL64(x, n) (((x) << (n)) | ((x) >> (64 - (n))))

void keccak_absorb_lanes(keccak_state *s, const uint8_t *bytes, uint32_t lanes)
{
    uint32_t i;

    for (i = 0; i < lanes; i++) {
        s->q[i] ^= (uint64_t)load32_le(bytes + 8 * i) | ((uint64_t)load32_le(bytes + 8 * i + 4) << 32);
    }
}

void keccak_extract_lanes(const keccak_state *s, uint8_t *bytes, uint32_t lanes)
{
    uint32_t i;

    for (i = 0; i < lanes; i++) {
        store32_le(bytes + 8 * i, (uint32_t)s->q[i]);
        store32_le(bytes + 8 * i + 4, (uint32_t)(s->q[i] >> 32));
    }
}

/* χ on row y (§3.2.4): A[x, y] ^= ~A[x + 1, y] & A[x + 2, y], from a copy of the row. */
#define CHI_ROW(y)                                                              \
    do {                                                                        \
        uint64_t a0 = A[(y) + 0], a1 = A[(y) + 1], a2 = A[(y) + 2], a3 = A[(y) + 3], a4 = A[(y) + 4]; \
        A[(y) + 0] = a0 ^ (~a1 & a2);                                           \
        A[(y) + 1] = a1 ^ (~a2 & a3);                                           \
        A[(y) + 2] = a2 ^ (~a3 & a4);                                           \
        A[(y) + 3] = a3 ^ (~a4 & a0);                                           \
        A[(y) + 4] = a4 ^ (~a0 & a1);                                           \
    } while (0)

/* One step of the ρ-π cycle: the carried lane t, rotated, replaces lane `lane`, whose old value is carried on. */
#define RHO_PI_STEP(lane, r) u = A[lane]; A[lane] = ROTL64(t, r); t = u;

void keccak_f1600(keccak_state *s)
{
    uint64_t *A = s->q;
    uint64_t C0, C1, C2, C3, C4, D0, D1, D2, D3, D4, t, u;
    uint32_t round, y;

    for (round = 0; round < 24; round++) {
        /* θ (§3.2.1): C[x] = xor of column x; A[x, y] ^= C[x - 1] ^ ROT(C[x + 1], 1). */
        C0 = A[0] ^ A[5] ^ A[10] ^ A[15] ^ A[20];
        C1 = A[1] ^ A[6] ^ A[11] ^ A[16] ^ A[21];
        C2 = A[2] ^ A[7] ^ A[12] ^ A[17] ^ A[22];
        C3 = A[3] ^ A[8] ^ A[13] ^ A[18] ^ A[23];
        C4 = A[4] ^ A[9] ^ A[14] ^ A[19] ^ A[24];
        D0 = C4 ^ ROTL64(C1, 1);
        D1 = C0 ^ ROTL64(C2, 1);
        D2 = C1 ^ ROTL64(C3, 1);
        D3 = C2 ^ ROTL64(C4, 1);
        D4 = C3 ^ ROTL64(C0, 1);
        for (y = 0; y < 25; y += 5) {
            A[y] ^= D0; A[y + 1] ^= D1; A[y + 2] ^= D2; A[y + 3] ^= D3; A[y + 4] ^= D4;
        }
        /* ρ and π (§3.2.2-3.2.3) along π's single 24-lane cycle, constant rotations. */
        t = A[1];
        KECCAK_RHO_PI_CYCLE(RHO_PI_STEP)
        /* χ (§3.2.4), row by row. */
        CHI_ROW(0); CHI_ROW(5); CHI_ROW(10); CHI_ROW(15); CHI_ROW(20);
        /* ι (§3.2.5). */
        A[0] ^= keccak_rc[round];
    }
}
