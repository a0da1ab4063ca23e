"""DES (FIPS 46-3) and the Triple Data Encryption Algorithm, TDEA (NIST SP 800-67 Rev. 2).

Read beside the standards:

* FIPS 46-3, "Data Encryption Standard", 1999: the cipher function ``f`` (Figure 2),
  the permutations IP, E, P, the selection functions S1..S8 and the key schedule
  with PC-1, PC-2 and the left-shift schedule (Appendix 1 and 2 tables).
* SP 800-67 Rev. 2, "Recommendation for the Triple Data Encryption Algorithm (TDEA)
  Block Cipher", 2017: §3.1 the TDEA forward and inverse cipher (E-D-E), §3.2 the
  keying options. Modes of operation come from :mod:`refbench.ref.modes`.

Bits are numbered as in FIPS 46-3: bit 1 is the leftmost (most significant) bit of a
block. A block is held as a Python ``int`` of the stated width.

Parity: FIPS 46-3 reserves the low bit of every key byte for odd parity. PC-1 never
selects those bits, so they are ignored here (as SP 800-67 allows implementations to do).
"""

from __future__ import annotations

from collections.abc import Sequence

from refbench.ref.modes import cbc_decrypt, cbc_encrypt

# --- FIPS 46-3 tables -------------------------------------------------------------------
# Each permutation table lists, for output bit i (1-based, left to right), the input bit
# it is taken from (1-based, bit 1 = leftmost).

#: Initial permutation IP (FIPS 46-3, "Enciphering", table IP).
IP: tuple[int, ...] = (
    58, 50, 42, 34, 26, 18, 10, 2,
    60, 52, 44, 36, 28, 20, 12, 4,
    62, 54, 46, 38, 30, 22, 14, 6,
    64, 56, 48, 40, 32, 24, 16, 8,
    57, 49, 41, 33, 25, 17, 9, 1,
    59, 51, 43, 35, 27, 19, 11, 3,
    61, 53, 45, 37, 29, 21, 13, 5,
    63, 55, 47, 39, 31, 23, 15, 7,
)  # fmt: skip

#: E bit-selection table (FIPS 46-3, "The Cipher Function f", table E): 32 -> 48 bits.
E: tuple[int, ...] = (
    32, 1, 2, 3, 4, 5,
    4, 5, 6, 7, 8, 9,
    8, 9, 10, 11, 12, 13,
    12, 13, 14, 15, 16, 17,
    16, 17, 18, 19, 20, 21,
    20, 21, 22, 23, 24, 25,
    24, 25, 26, 27, 28, 29,
    28, 29, 30, 31, 32, 1,
)  # fmt: skip

#: Permutation P (FIPS 46-3, "The Cipher Function f", table P): 32 -> 32 bits.
P: tuple[int, ...] = (
    16, 7, 20, 21,
    29, 12, 28, 17,
    1, 15, 23, 26,
    5, 18, 31, 10,
    2, 8, 24, 14,
    32, 27, 3, 9,
    19, 13, 30, 6,
    22, 11, 4, 25,
)  # fmt: skip

#: Selection functions S1..S8 (FIPS 46-3, "The Cipher Function f", Primitive Functions
#: S1..S8, also Appendix 1). ``S[n][row][column]``: the row is bits 1 and 6 of the 6-bit
#: input, the column bits 2..5.
S: tuple[tuple[tuple[int, ...], ...], ...] = (
    (  # S1
        (14, 4, 13, 1, 2, 15, 11, 8, 3, 10, 6, 12, 5, 9, 0, 7),
        (0, 15, 7, 4, 14, 2, 13, 1, 10, 6, 12, 11, 9, 5, 3, 8),
        (4, 1, 14, 8, 13, 6, 2, 11, 15, 12, 9, 7, 3, 10, 5, 0),
        (15, 12, 8, 2, 4, 9, 1, 7, 5, 11, 3, 14, 10, 0, 6, 13),
    ),
    (  # S2
        (15, 1, 8, 14, 6, 11, 3, 4, 9, 7, 2, 13, 12, 0, 5, 10),
        (3, 13, 4, 7, 15, 2, 8, 14, 12, 0, 1, 10, 6, 9, 11, 5),
        (0, 14, 7, 11, 10, 4, 13, 1, 5, 8, 12, 6, 9, 3, 2, 15),
        (13, 8, 10, 1, 3, 15, 4, 2, 11, 6, 7, 12, 0, 5, 14, 9),
    ),
    (  # S3
        (10, 0, 9, 14, 6, 3, 15, 5, 1, 13, 12, 7, 11, 4, 2, 8),
        (13, 7, 0, 9, 3, 4, 6, 10, 2, 8, 5, 14, 12, 11, 15, 1),
        (13, 6, 4, 9, 8, 15, 3, 0, 11, 1, 2, 12, 5, 10, 14, 7),
        (1, 10, 13, 0, 6, 9, 8, 7, 4, 15, 14, 3, 11, 5, 2, 12),
    ),
    (  # S4
        (7, 13, 14, 3, 0, 6, 9, 10, 1, 2, 8, 5, 11, 12, 4, 15),
        (13, 8, 11, 5, 6, 15, 0, 3, 4, 7, 2, 12, 1, 10, 14, 9),
        (10, 6, 9, 0, 12, 11, 7, 13, 15, 1, 3, 14, 5, 2, 8, 4),
        (3, 15, 0, 6, 10, 1, 13, 8, 9, 4, 5, 11, 12, 7, 2, 14),
    ),
    (  # S5
        (2, 12, 4, 1, 7, 10, 11, 6, 8, 5, 3, 15, 13, 0, 14, 9),
        (14, 11, 2, 12, 4, 7, 13, 1, 5, 0, 15, 10, 3, 9, 8, 6),
        (4, 2, 1, 11, 10, 13, 7, 8, 15, 9, 12, 5, 6, 3, 0, 14),
        (11, 8, 12, 7, 1, 14, 2, 13, 6, 15, 0, 9, 10, 4, 5, 3),
    ),
    (  # S6
        (12, 1, 10, 15, 9, 2, 6, 8, 0, 13, 3, 4, 14, 7, 5, 11),
        (10, 15, 4, 2, 7, 12, 9, 5, 6, 1, 13, 14, 0, 11, 3, 8),
        (9, 14, 15, 5, 2, 8, 12, 3, 7, 0, 4, 10, 1, 13, 11, 6),
        (4, 3, 2, 12, 9, 5, 15, 10, 11, 14, 1, 7, 6, 0, 8, 13),
    ),
    (  # S7
        (4, 11, 2, 14, 15, 0, 8, 13, 3, 12, 9, 7, 5, 10, 6, 1),
        (13, 0, 11, 7, 4, 9, 1, 10, 14, 3, 5, 12, 2, 15, 8, 6),
        (1, 4, 11, 13, 12, 3, 7, 14, 10, 15, 6, 8, 0, 5, 9, 2),
        (6, 11, 13, 8, 1, 4, 10, 7, 9, 5, 0, 15, 14, 2, 3, 12),
    ),
    (  # S8
        (13, 2, 8, 4, 6, 15, 11, 1, 10, 9, 3, 14, 5, 0, 12, 7),
        (1, 15, 13, 8, 10, 3, 7, 4, 12, 5, 6, 11, 0, 14, 9, 2),
        (7, 11, 4, 1, 9, 12, 14, 2, 0, 6, 10, 13, 15, 3, 5, 8),
        (2, 1, 14, 7, 4, 10, 8, 13, 15, 12, 9, 0, 3, 5, 6, 11),
    ),
)

#: Permuted choice 1 (FIPS 46-3, Appendix 2, table PC-1): 64 key bits -> C0 (28) || D0 (28).
PC_1: tuple[int, ...] = (
    57, 49, 41, 33, 25, 17, 9,
    1, 58, 50, 42, 34, 26, 18,
    10, 2, 59, 51, 43, 35, 27,
    19, 11, 3, 60, 52, 44, 36,
    63, 55, 47, 39, 31, 23, 15,
    7, 62, 54, 46, 38, 30, 22,
    14, 6, 61, 53, 45, 37, 29,
    21, 13, 5, 28, 20, 12, 4,
)  # fmt: skip

#: Permuted choice 2 (FIPS 46-3, Appendix 2, table PC-2): Cn || Dn (56) -> Kn (48).
PC_2: tuple[int, ...] = (
    14, 17, 11, 24, 1, 5,
    3, 28, 15, 6, 21, 10,
    23, 19, 12, 4, 26, 8,
    16, 7, 27, 20, 13, 2,
    41, 52, 31, 37, 47, 55,
    30, 40, 51, 45, 33, 48,
    44, 49, 39, 56, 34, 53,
    46, 42, 50, 36, 29, 32,
)  # fmt: skip

#: Number of left shifts of C and D for iterations 1..16 (FIPS 46-3, Appendix 2).
LEFT_SHIFTS: tuple[int, ...] = (1, 1, 2, 2, 2, 2, 2, 2, 1, 2, 2, 2, 2, 2, 2, 1)


def inverse_permutation(table: Sequence[int]) -> tuple[int, ...]:
    """The inverse of a bijective permutation table (1-based positions).

    FIPS 46-3 prints IP^-1 as its own table; it is by definition the inverse of IP,
    so it is derived here.
    """
    inverse = [0] * len(table)
    for output_bit, input_bit in enumerate(table, start=1):
        inverse[input_bit - 1] = output_bit
    return tuple(inverse)


#: Inverse initial permutation IP^-1 (FIPS 46-3, table IP^-1), derived from IP.
IP_INVERSE: tuple[int, ...] = inverse_permutation(IP)


def permute(value: int, table: Sequence[int], input_width: int) -> int:
    """Apply a FIPS 46-3 permutation/selection table to an ``input_width``-bit value.

    Output bit i is input bit ``table[i-1]`` (bit 1 = most significant). This is the
    textbook definition; :class:`_Permutation` evaluates the same map faster.
    """
    result = 0
    for input_bit in table:
        result = (result << 1) | ((value >> (input_width - input_bit)) & 1)
    return result


class _Permutation:
    """A permutation table evaluated byte by byte through lookup tables derived from it.

    ``permute(x) == OR over bytes b of x: lookup[b_index][b]``, because every output bit
    depends on exactly one input bit. The lookups are built with :func:`permute` itself,
    so they hold nothing that is not in the standard's table.
    """

    def __init__(self, table: Sequence[int], input_width: int) -> None:
        if input_width % 8:
            raise ValueError(f"Invalid input width ({input_width} bits); accepted: a multiple of 8")
        self.table = tuple(table)
        self.input_width = input_width
        self.shifts = tuple(range(input_width - 8, -1, -8))
        self.lookups = tuple(
            tuple(permute(byte << shift, self.table, input_width) for byte in range(256))
            for shift in self.shifts
        )

    def __call__(self, value: int) -> int:
        result = 0
        for shift, lookup in zip(self.shifts, self.lookups):
            result |= lookup[(value >> shift) & 0xFF]
        return result


_IP = _Permutation(IP, 64)
_IP_INVERSE = _Permutation(IP_INVERSE, 64)
_E = _Permutation(E, 32)
_P = _Permutation(P, 32)
_PC_1 = _Permutation(PC_1, 64)
_PC_2 = _Permutation(PC_2, 56)


def key_schedule(key: bytes) -> tuple[int, ...]:
    """The sixteen 48-bit round keys K1..K16 of FIPS 46-3 Appendix 2 ("KS").

    PC-1 splits the 64-bit key (parity bits dropped) into C0 and D0; each iteration
    rotates both halves left by ``LEFT_SHIFTS[n-1]`` and PC-2 selects Kn from Cn || Dn.
    """
    if len(key) != 8:
        raise ValueError(f"Invalid key size ({len(key)} bytes) for DES; accepted: 8")
    cd = _PC_1(int.from_bytes(key, "big"))
    c, d = cd >> 28, cd & 0x0FFFFFFF
    round_keys = []
    for shifts in LEFT_SHIFTS:
        c = ((c << shifts) | (c >> (28 - shifts))) & 0x0FFFFFFF
        d = ((d << shifts) | (d >> (28 - shifts))) & 0x0FFFFFFF
        round_keys.append(_PC_2((c << 28) | d))
    return tuple(round_keys)


def f(r: int, k: int) -> int:
    """The cipher function f(R, K) of FIPS 46-3 (Figure 2).

    E expands R to 48 bits, which are XORed with K; the eight 6-bit groups B1..B8 pass
    through S1..S8 (row = first and last bit, column = middle four bits), and P permutes
    the 32-bit result.
    """
    b = _E(r) ^ k
    output = 0
    for n in range(8):
        group = (b >> (42 - 6 * n)) & 0x3F
        row = ((group >> 4) & 0b10) | (group & 1)
        column = (group >> 1) & 0xF
        output = (output << 4) | S[n][row][column]
    return _P(output)


def des_block(block: int, round_keys: Sequence[int]) -> int:
    """One DES computation on a 64-bit block: IP, 16 iterations L' = R, R' = L xor f(R, K), IP^-1.

    Deciphering is the same computation with the round keys in reverse order
    (FIPS 46-3, "Deciphering"). The halves are swapped before IP^-1 (the preoutput R16 L16).
    """
    lr = _IP(block)
    left, right = lr >> 32, lr & 0xFFFFFFFF
    for k in round_keys:
        left, right = right, left ^ f(right, k)
    return _IP_INVERSE((right << 32) | left)


class DES:
    """Single DES (FIPS 46-3, withdrawn 2005), kept as TDEA's building block."""

    block_size = 8

    def __init__(self, key: bytes) -> None:
        self._encrypt_keys = key_schedule(bytes(key))
        self._decrypt_keys = tuple(reversed(self._encrypt_keys))

    def encrypt_block(self, block: bytes) -> bytes:
        _check_block(block)
        return des_block(int.from_bytes(block, "big"), self._encrypt_keys).to_bytes(8, "big")

    def decrypt_block(self, block: bytes) -> bytes:
        _check_block(block)
        return des_block(int.from_bytes(block, "big"), self._decrypt_keys).to_bytes(8, "big")


def _check_block(block: bytes) -> None:
    if len(block) != 8:
        raise ValueError(f"Invalid block size ({len(block)} bytes) for DES/TDEA; accepted: 8")


class TDEA:
    """The TDEA block cipher of SP 800-67 Rev. 2 §3.1, keyed with a bundle K1, K2, K3.

    Forward cipher: ``C = E_K3(D_K2(E_K1(P)))``; inverse: ``P = D_K1(E_K2(D_K3(C)))``.

    ``key`` is 24 bytes (K1 || K2 || K3, keying option 1 of §3.2) or 16 bytes (K1 || K2 with
    K3 = K1, keying option 2, which SP 800-67 Rev. 2 allows only for decrypting legacy data).
    A 24-byte key with K1 = K2 = K3 reduces TDEA to single DES (the withdrawn keying
    option 3); it is accepted because the CAVP KAT and MMT1 files use it.
    """

    block_size = 8

    def __init__(self, key: bytes) -> None:
        key = bytes(key)
        if len(key) == 24:
            k1, k2, k3 = key[:8], key[8:16], key[16:]
        elif len(key) == 16:
            k1, k2, k3 = key[:8], key[8:], key[:8]
        else:
            raise ValueError(
                f"Invalid key size ({len(key)} bytes) for TDEA; accepted: 16 (keying option 2, "
                "K1||K2), 24 (keying option 1, K1||K2||K3)"
            )
        self.key_size = len(key)
        schedules = [key_schedule(k) for k in (k1, k2, k3)]
        self._ks1, self._ks2, self._ks3 = schedules
        self._ks1_inv, self._ks2_inv, self._ks3_inv = (tuple(reversed(s)) for s in schedules)

    def encrypt_block(self, block: bytes) -> bytes:
        """TDEA forward cipher operation, SP 800-67 Rev. 2 §3.1: E_K3(D_K2(E_K1(block)))."""
        _check_block(block)
        x = int.from_bytes(block, "big")
        x = des_block(x, self._ks1)
        x = des_block(x, self._ks2_inv)
        x = des_block(x, self._ks3)
        return x.to_bytes(8, "big")

    def decrypt_block(self, block: bytes) -> bytes:
        """TDEA inverse cipher operation, SP 800-67 Rev. 2 §3.1: D_K1(E_K2(D_K3(block)))."""
        _check_block(block)
        x = int.from_bytes(block, "big")
        x = des_block(x, self._ks3_inv)
        x = des_block(x, self._ks2)
        x = des_block(x, self._ks1_inv)
        return x.to_bytes(8, "big")


def _interleave_cbc(cipher: TDEA, ivs: Sequence[bytes], data: bytes, decrypt: bool) -> bytes:
    if len(ivs) != 3:
        raise ValueError(f"Invalid number of IVs ({len(ivs)}) for TCBC-I; accepted: 3")
    if len(data) % 8:
        raise ValueError(
            f"Invalid data length ({len(data)} bytes) for TCBC-I; accepted: a multiple of 8 bytes"
        )
    blocks = [data[i : i + 8] for i in range(0, len(data), 8)]
    out: list[bytes] = [b""] * len(blocks)
    for chain, iv in enumerate(ivs):
        members = range(chain, len(blocks), 3)
        joined = b"".join(blocks[i] for i in members)
        result = cbc_decrypt(cipher, iv, joined) if decrypt else cbc_encrypt(cipher, iv, joined)
        for k, i in enumerate(members):
            out[i] = result[8 * k : 8 * k + 8]
    return b"".join(out)


def tcbc_i_encrypt(cipher: TDEA, ivs: Sequence[bytes], data: bytes) -> bytes:
    """TCBC-I, the interleaved TDEA CBC mode of ANSI X9.52 that CAVP's TDES tests also cover.

    Three CBC chains (SP 800-38A §6.2) run side by side: block i belongs to chain i mod 3,
    which starts from its own IV (IV1, IV2, IV3), so C_i = TDEA(P_i xor C_(i-3)). It lets
    three TDEA engines work in parallel; it is not an SP 800-38A mode.
    """
    return _interleave_cbc(cipher, ivs, data, decrypt=False)


def tcbc_i_decrypt(cipher: TDEA, ivs: Sequence[bytes], data: bytes) -> bytes:
    """The inverse of :func:`tcbc_i_encrypt`: P_i = TDEA^-1(C_i) xor C_(i-3)."""
    return _interleave_cbc(cipher, ivs, data, decrypt=True)
