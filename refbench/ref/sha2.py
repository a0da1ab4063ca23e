"""SHA-224, SHA-256, SHA-384, SHA-512, SHA-512/224 and SHA-512/256 (FIPS 180-4, August 2015).

Read beside FIPS 180-4:

* §4.1.2 / §4.1.3 the functions Ch, Maj, Σ0, Σ1, σ0, σ1 (:func:`Ch`, :func:`Maj`,
  :func:`SIGMA0_256` ...);
* §4.2.2 / §4.2.3 the constants K, and §5.3 the initial hash values H(0): both
  are *derived* here as the standard describes them (first 32 or 64 bits of the
  fractional parts of the cube / square roots of the first primes) using exact
  integer roots, and ``tests/test_sha2.py`` checks them against the printed tables;
* §5.1 padding (in :class:`refbench.ref.hashes.MerkleDamgardHash`);
* §6.2.2 / §6.4.2 the hash computation (:func:`sha256_rounds`, :func:`sha512_rounds`);
* §5.3.6 the SHA-512/t IV generation function (:func:`sha512_t_initial_hash_value`).

Each class streams like :mod:`hashlib`: ``h = SHA256(); h.update(b); h.digest(); h.copy()``.
Plain functions :func:`sha256` etc. hash in one call.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache

from refbench.ref.hashes import MerkleDamgardHash

MASK32 = 0xFFFFFFFF
MASK64 = 0xFFFFFFFFFFFFFFFF


# --- derivation of the constants (§4.2.2, §4.2.3, §5.3) -----------------------------------------
def first_primes(count: int) -> list[int]:
    """The first ``count`` prime numbers (2, 3, 5, ...), by trial division."""
    primes: list[int] = []
    candidate = 2
    while len(primes) < count:
        if all(candidate % p for p in primes if p * p <= candidate):
            primes.append(candidate)
        candidate += 1
    return primes


def integer_square_root(n: int) -> int:
    """floor(sqrt(n)) exactly (Newton's method on integers)."""
    if n < 0:
        raise ValueError(f"Invalid n ({n}) for integer_square_root; accepted: n >= 0")
    if n == 0:
        return 0
    x = 1 << ((n.bit_length() + 1) // 2)  # >= sqrt(n)
    while True:
        y = (x + n // x) // 2
        if y >= x:
            return x
        x = y


def integer_cube_root(n: int) -> int:
    """floor(cbrt(n)) exactly (Newton's method on integers)."""
    if n < 0:
        raise ValueError(f"Invalid n ({n}) for integer_cube_root; accepted: n >= 0")
    if n == 0:
        return 0
    x = 1 << ((n.bit_length() + 2) // 3)  # >= cbrt(n)
    while True:
        y = (2 * x + n // (x * x)) // 3
        if y >= x:
            return x
        x = y


def fractional_bits_of_root(prime: int, root: int, bits: int) -> int:
    """The first ``bits`` bits of the fractional part of prime^(1/root), root 2 or 3.

    floor(frac(p^(1/r)) * 2^bits) = floor((p * 2^(r*bits))^(1/r)) mod 2^bits, computed exactly.
    """
    scaled = prime << (root * bits)
    whole = integer_square_root(scaled) if root == 2 else integer_cube_root(scaled)
    return whole & ((1 << bits) - 1)


#: §4.2.2: "the first thirty-two bits of the fractional parts of the cube roots of the first
#: sixty-four prime numbers".
K256: tuple[int, ...] = tuple(fractional_bits_of_root(p, 3, 32) for p in first_primes(64))
#: §4.2.3: "the first sixty-four bits of the fractional parts of the cube roots of the first
#: eighty prime numbers".
K512: tuple[int, ...] = tuple(fractional_bits_of_root(p, 3, 64) for p in first_primes(80))
#: §5.3.3: "the first thirty-two bits of the fractional parts of the square roots of the first
#: eight prime numbers".
H0_SHA256: tuple[int, ...] = tuple(fractional_bits_of_root(p, 2, 32) for p in first_primes(8))
#: §5.3.5: "the first sixty-four bits of the fractional parts of the square roots of the first
#: eight prime numbers".
H0_SHA512: tuple[int, ...] = tuple(fractional_bits_of_root(p, 2, 64) for p in first_primes(8))
#: §5.3.4: "the first sixty-four bits of the fractional parts of the square roots of the ninth
#: through sixteenth prime numbers".
H0_SHA384: tuple[int, ...] = tuple(fractional_bits_of_root(p, 2, 64) for p in first_primes(16)[8:])
#: §5.3.2 prints SHA-224's H(0) without a derivation; the words are the second thirty-two bits (bits 33-64)
#: of the fractional parts of the square roots of the ninth through sixteenth primes, i.e. the low halves
#: of SHA-384's H(0) words (checked against the printed values in tests/test_sha2.py).
H0_SHA224: tuple[int, ...] = tuple(word & MASK32 for word in H0_SHA384)


# --- §4.1.2 SHA-224 and SHA-256 functions (32-bit words) ----------------------------------------
# The Σ/σ functions spell out ROTR^n(x) = (x >> n) | (x << (w - n)) inline (masked once) for speed;
# each docstring gives the standard's form. ROTR32/ROTR64 are the §3.2 operation itself.
def ROTR32(x: int, n: int) -> int:
    """§3.2 ROTR^n(x) on a 32-bit word."""
    return ((x >> n) | (x << (32 - n))) & MASK32


def Ch(x: int, y: int, z: int) -> int:
    """§4.1.2 (4.2) and §4.1.3 (4.8): Ch(x, y, z) = (x AND y) XOR (NOT x AND z), any word size."""
    return (x & y) ^ (~x & z)


def Maj(x: int, y: int, z: int) -> int:
    """§4.1.2 (4.3) and §4.1.3 (4.9): Maj(x, y, z) = (x AND y) XOR (x AND z) XOR (y AND z)."""
    return (x & y) ^ (x & z) ^ (y & z)


def SIGMA0_256(x: int) -> int:
    """§4.1.2 (4.4): Σ0{256}(x) = ROTR^2(x) XOR ROTR^13(x) XOR ROTR^22(x)."""
    return ((x >> 2 | x << 30) ^ (x >> 13 | x << 19) ^ (x >> 22 | x << 10)) & MASK32


def SIGMA1_256(x: int) -> int:
    """§4.1.2 (4.5): Σ1{256}(x) = ROTR^6(x) XOR ROTR^11(x) XOR ROTR^25(x)."""
    return ((x >> 6 | x << 26) ^ (x >> 11 | x << 21) ^ (x >> 25 | x << 7)) & MASK32


def sigma0_256(x: int) -> int:
    """§4.1.2 (4.6): σ0{256}(x) = ROTR^7(x) XOR ROTR^18(x) XOR SHR^3(x)."""
    return ((x >> 7 | x << 25) ^ (x >> 18 | x << 14)) & MASK32 ^ (x >> 3)


def sigma1_256(x: int) -> int:
    """§4.1.2 (4.7): σ1{256}(x) = ROTR^17(x) XOR ROTR^19(x) XOR SHR^10(x)."""
    return ((x >> 17 | x << 15) ^ (x >> 19 | x << 13)) & MASK32 ^ (x >> 10)


# --- §4.1.3 SHA-384, SHA-512, SHA-512/t functions (64-bit words) --------------------------------
def ROTR64(x: int, n: int) -> int:
    """§3.2 ROTR^n(x) on a 64-bit word."""
    return ((x >> n) | (x << (64 - n))) & MASK64


def SIGMA0_512(x: int) -> int:
    """§4.1.3 (4.10): Σ0{512}(x) = ROTR^28(x) XOR ROTR^34(x) XOR ROTR^39(x)."""
    return ((x >> 28 | x << 36) ^ (x >> 34 | x << 30) ^ (x >> 39 | x << 25)) & MASK64


def SIGMA1_512(x: int) -> int:
    """§4.1.3 (4.11): Σ1{512}(x) = ROTR^14(x) XOR ROTR^18(x) XOR ROTR^41(x)."""
    return ((x >> 14 | x << 50) ^ (x >> 18 | x << 46) ^ (x >> 41 | x << 23)) & MASK64


def sigma0_512(x: int) -> int:
    """§4.1.3 (4.12): σ0{512}(x) = ROTR^1(x) XOR ROTR^8(x) XOR SHR^7(x)."""
    return ((x >> 1 | x << 63) ^ (x >> 8 | x << 56)) & MASK64 ^ (x >> 7)


def sigma1_512(x: int) -> int:
    """§4.1.3 (4.13): σ1{512}(x) = ROTR^19(x) XOR ROTR^61(x) XOR SHR^6(x)."""
    return ((x >> 19 | x << 45) ^ (x >> 61 | x << 3)) & MASK64 ^ (x >> 6)


# --- §6.2.2 SHA-256 hash computation --------------------------------------------------------------
def sha256_message_schedule(block: bytes) -> list[int]:
    """§6.2.2 step 1: W0..W63 from a 64-byte block M(i)."""
    W = [int.from_bytes(block[4 * t : 4 * t + 4], "big") for t in range(16)]
    for t in range(16, 64):
        W.append((sigma1_256(W[t - 2]) + W[t - 7] + sigma0_256(W[t - 15]) + W[t - 16]) & MASK32)
    return W


def sha256_rounds(H: list[int], block: bytes) -> Iterator[tuple[int, ...]]:
    """§6.2.2 steps 2-3: the working variables (a, b, c, d, e, f, g, h) after each round t = 0..63."""
    W = sha256_message_schedule(block)
    a, b, c, d, e, f, g, h = H
    for t in range(64):
        T1 = (h + SIGMA1_256(e) + Ch(e, f, g) + K256[t] + W[t]) & MASK32
        T2 = (SIGMA0_256(a) + Maj(a, b, c)) & MASK32
        h, g, f, e, d, c, b, a = g, f, e, (d + T1) & MASK32, c, b, a, (T1 + T2) & MASK32
        yield (a, b, c, d, e, f, g, h)


def sha256_compress(H: list[int], block: bytes) -> list[int]:
    """§6.2.2 step 4: H(i) = H(i-1) + working variables after round 63."""
    *_, last = sha256_rounds(H, block)
    return [(x + y) & MASK32 for x, y in zip(H, last)]


# --- §6.4.2 SHA-512 hash computation --------------------------------------------------------------
def sha512_message_schedule(block: bytes) -> list[int]:
    """§6.4.2 step 1: W0..W79 from a 128-byte block M(i)."""
    W = [int.from_bytes(block[8 * t : 8 * t + 8], "big") for t in range(16)]
    for t in range(16, 80):
        W.append((sigma1_512(W[t - 2]) + W[t - 7] + sigma0_512(W[t - 15]) + W[t - 16]) & MASK64)
    return W


def sha512_rounds(H: list[int], block: bytes) -> Iterator[tuple[int, ...]]:
    """§6.4.2 steps 2-3: the working variables (a, ..., h) after each round t = 0..79."""
    W = sha512_message_schedule(block)
    a, b, c, d, e, f, g, h = H
    for t in range(80):
        T1 = (h + SIGMA1_512(e) + Ch(e, f, g) + K512[t] + W[t]) & MASK64
        T2 = (SIGMA0_512(a) + Maj(a, b, c)) & MASK64
        h, g, f, e, d, c, b, a = g, f, e, (d + T1) & MASK64, c, b, a, (T1 + T2) & MASK64
        yield (a, b, c, d, e, f, g, h)


def sha512_compress(H: list[int], block: bytes) -> list[int]:
    """§6.4.2 step 4: H(i) = H(i-1) + working variables after round 79."""
    *_, last = sha512_rounds(H, block)
    return [(x + y) & MASK64 for x, y in zip(H, last)]


# --- the hash objects ---------------------------------------------------------------------------------
class _SHA256Family(MerkleDamgardHash):
    """SHA-224 and SHA-256: 512-bit blocks, 32-bit words, 64-bit length field (§5.1.1)."""

    block_size = 64
    length_size = 8
    byte_order = "big"

    def compress(self, state: list[int], block: bytes) -> list[int]:
        return sha256_compress(state, block)

    def output(self, state: list[int]) -> bytes:
        """§6.2.2 / §6.3: the words H0..H7 big-endian, truncated to the digest size."""
        return b"".join(word.to_bytes(4, "big") for word in state)[: self.digest_size]


class SHA256(_SHA256Family):
    """SHA-256 (FIPS 180-4 §6.2): 256-bit digest."""

    name = "sha-256"
    digest_size = 32

    def initial_hash_value(self) -> list[int]:
        return list(H0_SHA256)


class SHA224(_SHA256Family):
    """SHA-224 (FIPS 180-4 §6.3): SHA-256 with its own H(0) (§5.3.2), output truncated to 224 bits."""

    name = "sha-224"
    digest_size = 28

    def initial_hash_value(self) -> list[int]:
        return list(H0_SHA224)


class _SHA512Family(MerkleDamgardHash):
    """SHA-384, SHA-512, SHA-512/t: 1024-bit blocks, 64-bit words, 128-bit length field (§5.1.2)."""

    block_size = 128
    length_size = 16
    byte_order = "big"

    def compress(self, state: list[int], block: bytes) -> list[int]:
        return sha512_compress(state, block)

    def output(self, state: list[int]) -> bytes:
        """§6.4.2 / §6.5 / §6.6 / §6.7: H0..H7 big-endian, leftmost digest_size bytes."""
        return b"".join(word.to_bytes(8, "big") for word in state)[: self.digest_size]


class SHA512(_SHA512Family):
    """SHA-512 (FIPS 180-4 §6.4): 512-bit digest."""

    name = "sha-512"
    digest_size = 64

    def initial_hash_value(self) -> list[int]:
        return list(H0_SHA512)


class SHA384(_SHA512Family):
    """SHA-384 (FIPS 180-4 §6.5): SHA-512 with H(0) of §5.3.4, truncated to 384 bits."""

    name = "sha-384"
    digest_size = 48

    def initial_hash_value(self) -> list[int]:
        return list(H0_SHA384)


@cache
def sha512_t_initial_hash_value(t: int) -> tuple[int, ...]:
    """§5.3.6 SHA-512/t IV generation function.

    H(0)'' = each word of SHA-512's H(0) XOR a5a5a5a5a5a5a5a5; the SHA-512 hash computation is then
    run from H(0)'' on the ASCII string "SHA-512/t" (t in decimal), and its result is H(0) for SHA-512/t.
    t is any multiple of 8 with 0 < t < 512, except 384 (SHA-384 has its own H(0)).
    """
    if not isinstance(t, int) or not 0 < t < 512 or t == 384 or t % 8:
        raise ValueError(
            f"Invalid t ({t!r}) for SHA-512/t; accepted: multiples of 8 with 0 < t < 512, except 384"
        )
    modified = [word ^ 0xA5A5A5A5A5A5A5A5 for word in H0_SHA512]
    generator = SHA512()
    generator._state = modified
    generator.update(f"SHA-512/{t}".encode("ascii"))
    final = generator.copy()
    final.update(generator.padding())
    return tuple(final._state)


class SHA512_224(_SHA512Family):
    """SHA-512/224 (FIPS 180-4 §6.7): SHA-512 from the §5.3.6 IV for t = 224, truncated to 224 bits."""

    name = "sha-512/224"
    digest_size = 28

    def initial_hash_value(self) -> list[int]:
        return list(sha512_t_initial_hash_value(224))


class SHA512_256(_SHA512Family):
    """SHA-512/256 (FIPS 180-4 §6.7): SHA-512 from the §5.3.6 IV for t = 256, truncated to 256 bits."""

    name = "sha-512/256"
    digest_size = 32

    def initial_hash_value(self) -> list[int]:
        return list(sha512_t_initial_hash_value(256))


# --- one-call functions -------------------------------------------------------------------------------
def sha224(data: bytes) -> bytes:
    """SHA-224 of ``data``."""
    return SHA224(data).digest()


def sha256(data: bytes) -> bytes:
    """SHA-256 of ``data``."""
    return SHA256(data).digest()


def sha384(data: bytes) -> bytes:
    """SHA-384 of ``data``."""
    return SHA384(data).digest()


def sha512(data: bytes) -> bytes:
    """SHA-512 of ``data``."""
    return SHA512(data).digest()


def sha512_224(data: bytes) -> bytes:
    """SHA-512/224 of ``data``."""
    return SHA512_224(data).digest()


def sha512_256(data: bytes) -> bytes:
    """SHA-512/256 of ``data``."""
    return SHA512_256(data).digest()
