"""Deterministic nonces for DSA and ECDSA (RFC 6979 §3.2), built on HMAC.

The nonce k is derived from the private key x and the message hash h1 with
HMAC_DRBG-like steps, so the same message always gets the same signature and
no random-number generator is needed at signing time.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterator
from typing import Literal

from refbench.ref import modarith
from refbench.ref.pkutil import digest_size, hmac_digest

__all__ = [
    "NonceKind",
    "bits2int",
    "bits2octets",
    "int2octets",
    "nonce",
    "nonce_candidates",
    "nonces",
]

#: How a DSA/ECDSA signer picks k when the caller does not fix it.
NonceKind = Literal["random", "rfc6979"]


def bits2int(b: bytes, qlen: int) -> int:
    """The leftmost ``qlen`` bits of ``b`` as an integer (RFC 6979 §2.3.2)."""
    x = int.from_bytes(b, "big")
    blen = 8 * len(b)
    return x >> (blen - qlen) if blen > qlen else x


def int2octets(x: int, qlen: int) -> bytes:
    """x as ⌈qlen/8⌉ big-endian octets (RFC 6979 §2.3.3)."""
    return x.to_bytes((qlen + 7) // 8, "big")


def bits2octets(b: bytes, q: int) -> bytes:
    """bits2int(b) mod q as octets (RFC 6979 §2.3.4)."""
    qlen = q.bit_length()
    return int2octets(bits2int(b, qlen) % q, qlen)


def nonces(q: int, x: int, h1: bytes, hash_name: str) -> Iterator[int]:
    """The successive candidate nonces k of RFC 6979 §3.2 steps b–h (the first one is used unless rejected)."""
    qlen = q.bit_length()
    hlen = digest_size(hash_name)
    V = b"\x01" * hlen  # step b
    K = b"\x00" * hlen  # step c
    seed = int2octets(x, qlen) + bits2octets(h1, q)
    K = hmac_digest(hash_name, K, V + b"\x00" + seed)  # step d
    V = hmac_digest(hash_name, K, V)  # step e
    K = hmac_digest(hash_name, K, V + b"\x01" + seed)  # step f
    V = hmac_digest(hash_name, K, V)  # step g
    while True:  # step h
        T = b""
        while 8 * len(T) < qlen:
            V = hmac_digest(hash_name, K, V)
            T += V
        k = bits2int(T, qlen)
        if 1 <= k < q:
            yield k
        K = hmac_digest(hash_name, K, V + b"\x00")
        V = hmac_digest(hash_name, K, V)


def nonce(q: int, x: int, h1: bytes, hash_name: str) -> int:
    """The first nonce of :func:`nonces`."""
    return next(nonces(q, x, h1, hash_name))


def nonce_candidates(
    q: int,
    x: int,
    h1: bytes,
    hash_name: str,
    *,
    k: int | None = None,
    kind: NonceKind = "random",
    rng: Callable[[int], int] | None = None,
    name: str = "q",
) -> Iterator[int]:
    """The nonces a DSA or ECDSA signer tries in turn until r ≠ 0 and s ≠ 0.

    * ``k`` given: that one value (known-answer tests); ``ValueError`` unless 1 ≤ k < q.
    * ``kind`` "rfc6979": the deterministic sequence of :func:`nonces` (RFC 6979 §3.2).
    * ``kind`` "random": fresh uniform values in [1, q − 1] (FIPS 186-4 Appendix B.2.2 /
      B.5.2, "testing candidates"), from ``rng(n)`` (uniform in [0, n)) or :mod:`secrets`.

    ``name`` is the order's symbol in the caller's standard ("q" for DSA, "n" for ECDSA),
    used in error messages.
    """
    if k is not None:
        if not isinstance(k, int) or not 1 <= k < q:
            raise ValueError(f"Invalid nonce (k = {k!r}); accepted: 1 <= k < {name}")
        return iter([k])
    if kind == "rfc6979":
        return nonces(q, x, h1, hash_name)
    if kind == "random":
        return iter(lambda: modarith.random_below(q, rng or secrets.randbelow), None)
    raise ValueError(f"Invalid nonce kind ({kind!r}); accepted: 'random', 'rfc6979'")
