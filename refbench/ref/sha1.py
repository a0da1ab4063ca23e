"""SHA-1 (FIPS 180-4, August 2015, §6.1).

Read beside FIPS 180-4: §4.1.1 the functions f_t, §4.2.1 the constants K_t,
§5.3.1 the initial hash value, §5.1.1 padding (in
:class:`refbench.ref.hashes.MerkleDamgardHash`), §6.1.2 the hash computation.

The four K_t are the integer parts of 2^30 * sqrt(2), sqrt(3), sqrt(5), sqrt(10)
(their well-known origin; FIPS 180-4 prints only the values); they are derived that
way in :func:`derive_K` and checked against §4.2.1 in ``tests/test_sha1.py``.

SHA-1 is broken for collision resistance; benchmark tables still list it.
"""

from __future__ import annotations

from collections.abc import Iterator

from refbench.ref.hashes import MerkleDamgardHash
from refbench.ref.sha2 import integer_square_root

MASK32 = 0xFFFFFFFF


def derive_K() -> tuple[int, int, int, int]:
    """floor(2^30 * sqrt(n)) for n = 2, 3, 5, 10, computed exactly as isqrt(n * 2^60)."""
    return tuple(integer_square_root(n << 60) for n in (2, 3, 5, 10))  # type: ignore[return-value]


#: §4.2.1: K_t for t = 0-19, 20-39, 40-59, 60-79.
K: tuple[int, int, int, int] = derive_K()

#: §5.3.1: H(0).
INITIAL_HASH_VALUE: tuple[int, ...] = (0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0)


def ROTL(x: int, n: int) -> int:
    """§3.2 ROTL^n(x) on a 32-bit word."""
    return ((x << n) | (x >> (32 - n))) & MASK32


def f(t: int, x: int, y: int, z: int) -> int:
    """§4.1.1 (4.1): Ch for t 0-19, Parity for 20-39 and 60-79, Maj for 40-59."""
    if t < 20:
        return (x & y) ^ (~x & z)
    if t < 40 or t >= 60:
        return x ^ y ^ z
    return (x & y) ^ (x & z) ^ (y & z)


def sha1_rounds(H: list[int], block: bytes) -> Iterator[tuple[int, ...]]:
    """§6.1.2 steps 1-3: the working variables (a, b, c, d, e) after each round t = 0..79."""
    W = [int.from_bytes(block[4 * t : 4 * t + 4], "big") for t in range(16)]
    for t in range(16, 80):
        W.append(ROTL(W[t - 3] ^ W[t - 8] ^ W[t - 14] ^ W[t - 16], 1))
    a, b, c, d, e = H
    for t in range(80):
        T = (ROTL(a, 5) + f(t, b, c, d) + e + K[t // 20] + W[t]) & MASK32
        e, d, c, b, a = d, c, ROTL(b, 30), a, T
        yield (a, b, c, d, e)


def sha1_compress(H: list[int], block: bytes) -> list[int]:
    """§6.1.2 step 4: H(i) = H(i-1) + (a, b, c, d, e)."""
    *_, last = sha1_rounds(H, block)
    return [(x + y) & MASK32 for x, y in zip(H, last)]


class SHA1(MerkleDamgardHash):
    """SHA-1: 512-bit blocks, 160-bit digest."""

    name = "sha-1"
    digest_size = 20
    block_size = 64
    length_size = 8
    byte_order = "big"

    def initial_hash_value(self) -> list[int]:
        return list(INITIAL_HASH_VALUE)

    def compress(self, state: list[int], block: bytes) -> list[int]:
        return sha1_compress(state, block)

    def output(self, state: list[int]) -> bytes:
        return b"".join(word.to_bytes(4, "big") for word in state)


def sha1(data: bytes) -> bytes:
    """SHA-1 of ``data``."""
    return SHA1(data).digest()
