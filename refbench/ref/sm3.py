"""SM3 cryptographic hash (GB/T 32905-2016; also GM/T 0004-2012 and ISO/IEC 10118-3:2018).

Read beside GB/T 32905-2016 (section numbers of the standard's English translation):

* §4.1 the initial value IV, §4.2 the constants T_j;
* §4.3 the Boolean functions FF_j, GG_j; §4.4 the permutations P0, P1;
* §5.2 padding: 1 bit, zeros, 64-bit big-endian length (in :class:`refbench.ref.hashes.MerkleDamgardHash`);
* §5.3.2 message expansion (W_0..W_67, W'_0..W'_63), §5.3.3 the compression function CF.

Appendix A gives two worked examples ("abc" and "abcd" x 16); they are in
``vectors/sm3/gbt32905-appendix-a.txt``.
"""

from __future__ import annotations

from collections.abc import Iterator

from refbench.ref.hashes import MerkleDamgardHash

MASK32 = 0xFFFFFFFF

#: §4.1: IV = 7380166f 4914b2b9 172442d7 da8a0600 a96f30bc 163138aa e38dee4d b0fb0e4e.
IV: tuple[int, ...] = (
    0x7380166F,
    0x4914B2B9,
    0x172442D7,
    0xDA8A0600,
    0xA96F30BC,
    0x163138AA,
    0xE38DEE4D,
    0xB0FB0E4E,
)


def T(j: int) -> int:
    """§4.2: T_j = 79cc4519 for 0 <= j <= 15, 7a879d8a for 16 <= j <= 63."""
    return 0x79CC4519 if j < 16 else 0x7A879D8A


def ROTL(x: int, n: int) -> int:
    """X <<< n: 32-bit left rotation (n taken mod 32)."""
    n %= 32
    return ((x << n) | (x >> (32 - n))) & MASK32


def FF(j: int, X: int, Y: int, Z: int) -> int:
    """§4.3: X xor Y xor Z for j <= 15; (X and Y) or (X and Z) or (Y and Z) for j >= 16."""
    if j < 16:
        return X ^ Y ^ Z
    return (X & Y) | (X & Z) | (Y & Z)


def GG(j: int, X: int, Y: int, Z: int) -> int:
    """§4.3: X xor Y xor Z for j <= 15; (X and Y) or (not X and Z) for j >= 16."""
    if j < 16:
        return X ^ Y ^ Z
    return (X & Y) | (~X & Z)


def P0(X: int) -> int:
    """§4.4: P0(X) = X xor (X <<< 9) xor (X <<< 17)."""
    return X ^ ROTL(X, 9) ^ ROTL(X, 17)


def P1(X: int) -> int:
    """§4.4: P1(X) = X xor (X <<< 15) xor (X <<< 23)."""
    return X ^ ROTL(X, 15) ^ ROTL(X, 23)


def message_expansion(block: bytes) -> tuple[list[int], list[int]]:
    """§5.3.2: W_0..W_67 and W'_0..W'_63 from a 64-byte block B(i)."""
    W = [int.from_bytes(block[4 * j : 4 * j + 4], "big") for j in range(16)]
    for j in range(16, 68):
        W.append(P1(W[j - 16] ^ W[j - 9] ^ ROTL(W[j - 3], 15)) ^ ROTL(W[j - 13], 7) ^ W[j - 6])
    W_prime = [W[j] ^ W[j + 4] for j in range(64)]
    return W, W_prime


def sm3_rounds(V: list[int], block: bytes) -> Iterator[tuple[int, ...]]:
    """§5.3.3: the registers A..H after each iteration j = 0..63 of CF."""
    W, W_prime = message_expansion(block)
    A, B, C, D, E, F, G, H = V
    for j in range(64):
        SS1 = ROTL((ROTL(A, 12) + E + ROTL(T(j), j)) & MASK32, 7)
        SS2 = SS1 ^ ROTL(A, 12)
        TT1 = (FF(j, A, B, C) + D + SS2 + W_prime[j]) & MASK32
        TT2 = (GG(j, E, F, G) + H + SS1 + W[j]) & MASK32
        D = C
        C = ROTL(B, 9)
        B = A
        A = TT1
        H = G
        G = ROTL(F, 19)
        F = E
        E = P0(TT2)
        yield (A, B, C, D, E, F, G, H)


def CF(V: list[int], block: bytes) -> list[int]:
    """§5.3.3: V(i+1) = ABCDEFGH xor V(i)."""
    *_, last = sm3_rounds(V, block)
    return [x ^ y for x, y in zip(V, last)]


class SM3(MerkleDamgardHash):
    """SM3: 512-bit blocks, 256-bit digest, big-endian words and 64-bit length."""

    name = "sm3"
    digest_size = 32
    block_size = 64
    length_size = 8
    byte_order = "big"

    def initial_hash_value(self) -> list[int]:
        return list(IV)

    def compress(self, state: list[int], block: bytes) -> list[int]:
        return CF(state, block)

    def output(self, state: list[int]) -> bytes:
        """§5.4: y = V(n), the eight words big-endian."""
        return b"".join(word.to_bytes(4, "big") for word in state)


def sm3(data: bytes) -> bytes:
    """SM3 of ``data``."""
    return SM3(data).digest()
