"""DSA (FIPS 186-4 §4) with random, caller-given or RFC 6979 deterministic nonces.

Domain parameters (p, q, g) with (L, N) ∈ {(1024, 160), (2048, 224),
(2048, 256), (3072, 256)} (FIPS 186-4 §4.2). Key pair (§4.5 / B.1.2):
x ∈ [1, q − 1], y = g^x mod p. Signature (§4.6): r = (g^k mod p) mod q,
z = leftmost min(N, outlen) bits of Hash(M), s = k⁻¹(z + x·r) mod q.
Verification (§4.7): 0 < r, s < q; w = s⁻¹; u1 = z·w; u2 = r·w;
v = (g^u1 · y^u2 mod p) mod q; accept iff v = r — otherwise
:class:`refbench.errors.InvalidSignature`.

The exponentiations are :func:`refbench.ref.modarith.mod_pow` (sliding window),
so an operation count shows the cost of each step.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from refbench.errors import InvalidSignature
from refbench.ref import modarith, rfc6979
from refbench.ref.pkutil import digest

__all__ = [
    "SIZES",
    "DSAParameters",
    "generate_private_key",
    "public_key",
    "sign",
    "validate_public_key",
    "verify",
]

#: (L, N) pairs of FIPS 186-4 §4.2.
SIZES: tuple[tuple[int, int], ...] = ((1024, 160), (2048, 224), (2048, 256), (3072, 256))


@dataclass(frozen=True)
class DSAParameters:
    p: int
    q: int
    g: int

    def __post_init__(self) -> None:
        L, N = self.p.bit_length(), self.q.bit_length()
        if (L, N) not in SIZES:
            accepted = ", ".join(f"({a}, {b})" for a, b in SIZES)
            raise ValueError(f"Invalid DSA sizes (L, N) = ({L}, {N}); accepted: {accepted}")
        if (self.p - 1) % self.q or not 1 < self.g < self.p:
            raise ValueError("Invalid DSA parameters: q must divide p − 1 and 1 < g < p")


def generate_private_key(params: DSAParameters, rng: Callable[[int], int] | None = None) -> int:
    """x uniform in [1, q − 1] (FIPS 186-4 Appendix B.1.2)."""
    return modarith.random_below(params.q, rng)


def public_key(params: DSAParameters, x: int) -> int:
    """y = g^x mod p."""
    if not 1 <= x < params.q:
        raise ValueError(f"Invalid private key (x = {x}); accepted: 1 <= x < q")
    return modarith.mod_pow(params.g, x, params.p)


def validate_public_key(params: DSAParameters, y: int) -> None:
    """2 ≤ y ≤ p − 2 and y^q ≡ 1 (mod p) (NIST SP 800-89 §5.3.1); ``ValueError`` otherwise."""
    if not 2 <= y <= params.p - 2:
        raise ValueError("Invalid DSA public key: y not in [2, p − 2]")
    if modarith.mod_pow(y, params.q, params.p) != 1:
        raise ValueError("Invalid DSA public key: y is not in the subgroup of order q")


def _z(params: DSAParameters, h: bytes) -> int:
    return rfc6979.bits2int(h, params.q.bit_length())


def sign(
    params: DSAParameters,
    x: int,
    message: bytes,
    hash_name: str = "sha-256",
    *,
    k: int | None = None,
    nonce: rfc6979.NonceKind = "random",
    rng: Callable[[int], int] | None = None,
) -> tuple[int, int]:
    """(r, s) of ``message`` (FIPS 186-4 §4.6). ``k`` fixes the nonce; else "random" or "rfc6979"."""
    if not 1 <= x < params.q:
        raise ValueError(f"Invalid private key (x = {x}); accepted: 1 <= x < q")
    p, q, g = params.p, params.q, params.g
    h = digest(hash_name, message)
    z = _z(params, h)
    for candidate in rfc6979.nonce_candidates(q, x, h, hash_name, k=k, kind=nonce, rng=rng):
        r = modarith.mod_pow(g, candidate, p) % q
        if r == 0:
            continue
        s = modarith.mod_mul(modarith.inverse(candidate, q), (z + modarith.mod_mul(x, r, q)) % q, q)
        if s == 0:
            continue
        return (r, s)
    raise ValueError(f"Invalid nonce (k = {k}): it gives r = 0 or s = 0")


def verify(
    params: DSAParameters,
    y: int,
    message: bytes,
    signature: tuple[int, int],
    hash_name: str = "sha-256",
) -> None:
    """Verify (r, s) (FIPS 186-4 §4.7); raise ``InvalidSignature`` if it does not hold."""
    p, q, g = params.p, params.q, params.g
    r, s = signature
    if not (0 < r < q and 0 < s < q):
        raise InvalidSignature()
    if not 1 < y < p:
        raise InvalidSignature()
    z = _z(params, digest(hash_name, message))
    w = modarith.inverse(s, q)
    u1 = modarith.mod_mul(z % q, w, q)
    u2 = modarith.mod_mul(r, w, q)
    v = modarith.mod_mul(modarith.mod_pow(g, u1, p), modarith.mod_pow(y, u2, p), p) % q
    if v != r:
        raise InvalidSignature()
