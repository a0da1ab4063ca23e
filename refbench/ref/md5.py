"""MD5 (RFC 1321, April 1992).

Read beside RFC 1321 §3:

* §3.1-3.2 padding with a 64-bit little-endian bit length (in :class:`refbench.ref.hashes.MerkleDamgardHash`);
* §3.3 the buffer A, B, C, D (:data:`INITIAL_BUFFER`);
* §3.4 the auxiliary functions F, G, H, I, the table T[1..64] and the four rounds;
* §3.5 output: A, B, C, D little-endian.

T[i] is "the integer part of 4294967296 times abs(sin(i)), where i is in radians". A
double-precision ``math.sin`` happens to give the right integers, but nothing guarantees it,
so :func:`sine_table` computes sin(i) with exact integer (fixed-point) arithmetic instead;
``tests/test_md5.py`` checks the result against the table printed in the RFC's appendix A.3.

MD5 is broken for collision resistance; it is here because benchmark tables still list it.
"""

from __future__ import annotations

from refbench.ref.hashes import MerkleDamgardHash

MASK32 = 0xFFFFFFFF


def fixed_point_sine(i: int, fraction_bits: int = 256) -> int:
    """sin(i) for an integer i (radians), scaled by 2^fraction_bits, by its Taylor series.

    sin(x) = x - x^3/3! + x^5/5! - ... ; each term is kept as an integer multiple of
    2^-fraction_bits, so the error is a few units in the last place, far below the 2^-32
    needed for T[i] (the terms for |i| <= 64 never exceed e^64 < 2^93).
    """
    term = i << fraction_bits  # x^1 / 1!
    total = 0
    k = 1
    while term:
        total += term
        term = -term * i * i // ((k + 1) * (k + 2))
        k += 2
    return total


def sine_table() -> tuple[int, ...]:
    """RFC 1321 §3.4: T[i] = floor(4294967296 * |sin(i)|) for i = 1..64 (returned 0-indexed)."""
    bits = 256
    return tuple((abs(fixed_point_sine(i, bits)) << 32) >> bits for i in range(1, 65))


#: T[1..64] of RFC 1321 §3.4, at index i - 1.
T: tuple[int, ...] = sine_table()

#: §3.3: word A: 01 23 45 67, B: 89 ab cd ef, C: fe dc ba 98, D: 76 54 32 10 (low-order byte first).
INITIAL_BUFFER: tuple[int, int, int, int] = (0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476)

#: §3.4: the shift amounts s of each step, round by round ([abcd k s i] lines of the RFC).
SHIFTS: tuple[tuple[int, int, int, int], ...] = (
    (7, 12, 17, 22),
    (5, 9, 14, 20),
    (4, 11, 16, 23),
    (6, 10, 15, 21),
)


def F(X: int, Y: int, Z: int) -> int:
    """§3.4: F(X,Y,Z) = XY v not(X) Z."""
    return (X & Y) | (~X & Z)


def G(X: int, Y: int, Z: int) -> int:
    """§3.4: G(X,Y,Z) = XZ v Y not(Z)."""
    return (X & Z) | (Y & ~Z)


def H(X: int, Y: int, Z: int) -> int:
    """§3.4: H(X,Y,Z) = X xor Y xor Z."""
    return X ^ Y ^ Z


def I(X: int, Y: int, Z: int) -> int:
    """§3.4: I(X,Y,Z) = Y xor (X v not(Z))."""
    return (Y ^ (X | (~Z & MASK32))) & MASK32


def message_word_index(step: int) -> int:
    """§3.4: which X[k] step 0..63 uses: k = i, 5i+1, 3i+5, 7i (mod 16) in rounds 1..4."""
    round_number, i = divmod(step, 16)
    return (i, 5 * i + 1, 3 * i + 5, 7 * i)[round_number] % 16


def md5_compress(buffer: list[int], block: bytes) -> list[int]:
    """§3.4: process one 16-word block X, returning the new (A, B, C, D)."""
    X = [int.from_bytes(block[4 * j : 4 * j + 4], "little") for j in range(16)]
    A, B, C, D = buffer
    for step in range(64):
        round_number = step // 16
        f = (F, G, H, I)[round_number](B, C, D)
        s = SHIFTS[round_number][step % 4]
        # a = b + ((a + f(b,c,d) + X[k] + T[i]) <<< s), then the roles rotate: (a, b, c, d) <- (d, a', b, c)
        value = (A + f + X[message_word_index(step)] + T[step]) & MASK32
        rotated = ((value << s) | (value >> (32 - s))) & MASK32
        A, B, C, D = D, (B + rotated) & MASK32, B, C
    return [(x + y) & MASK32 for x, y in zip(buffer, (A, B, C, D))]


class MD5(MerkleDamgardHash):
    """MD5 (RFC 1321): 512-bit blocks, 128-bit digest, little-endian words and length."""

    name = "md5"
    digest_size = 16
    block_size = 64
    length_size = 8
    byte_order = "little"

    def initial_hash_value(self) -> list[int]:
        return list(INITIAL_BUFFER)

    def compress(self, state: list[int], block: bytes) -> list[int]:
        return md5_compress(state, block)

    def output(self, state: list[int]) -> bytes:
        """§3.5: A, B, C, D, each low-order byte first."""
        return b"".join(word.to_bytes(4, "little") for word in state)


def md5(data: bytes) -> bytes:
    """MD5 of ``data``."""
    return MD5(data).digest()
