"""ECDSA (FIPS 186-4 §6; SEC 1 v2 §4.1) over the curves of :mod:`refbench.ref.curves`.

Signing: e = leftmost min(N, outlen) bits of Hash(M) (FIPS 186-4 §6.4);
(x1, y1) = k·G; r = x1 mod n; s = k⁻¹(e + r·d) mod n. The nonce k is random
(FIPS 186-4 Appendix B.5.2), deterministic (RFC 6979 §3.2), or supplied by the
caller (CAVP known-answer tests).

Verification (FIPS 186-4 §6.4.2): 1 ≤ r, s < n; w = s⁻¹; u1 = e·w; u2 = r·w;
R = u1·G + u2·Q (Shamir's trick); accept iff R ≠ O and x_R mod n = r. A
failure raises :class:`refbench.errors.InvalidSignature`.

Signatures travel as DER (SEC 1 §C.8 ``ECDSA-Sig-Value``) or as the fixed-size
concatenation r ∥ s (IEEE P1363), see :func:`decode_der` and :func:`decode_raw`.
"""

from __future__ import annotations

from collections.abc import Callable

from refbench.errors import InvalidSignature
from refbench.ref import modarith, rfc6979
from refbench.ref.curves import WeierstrassCurve
from refbench.ref.pkutil import der_decode_signature, der_encode_signature, digest
from refbench.ref.weierstrass import (
    AffinePoint,
    double_scalar_mult,
    scalar_mult,
    validate_public_key,
)

__all__ = [
    "decode_der",
    "decode_raw",
    "encode_der",
    "encode_raw",
    "generate_private_key",
    "hash_to_integer",
    "public_key",
    "sign",
    "sign_digest",
    "verify",
    "verify_digest",
]

Nonce = rfc6979.NonceKind


def _check_private_key(curve: WeierstrassCurve, d: int) -> None:
    if not isinstance(d, int) or not 1 <= d < curve.n:
        raise ValueError(f"Invalid private key (d = {d!r}) for {curve.name}; accepted: 1 <= d < n")


def public_key(curve: WeierstrassCurve, d: int) -> tuple[int, int]:
    """Q = d·G (FIPS 186-4 Appendix B.4)."""
    _check_private_key(curve, d)
    Q = scalar_mult(curve, d, curve.G)
    assert Q is not None  # d < n and G has order n
    return Q


def generate_private_key(curve: WeierstrassCurve, rng: Callable[[int], int] | None = None) -> int:
    """d uniform in [1, n − 1] (FIPS 186-4 Appendix B.4.2, testing candidates)."""
    return modarith.random_below(curve.n, rng)


def hash_to_integer(curve: WeierstrassCurve, h: bytes) -> int:
    """e: the leftmost min(N, outlen) bits of the hash, N = bit length of n (FIPS 186-4 §6.4)."""
    return rfc6979.bits2int(h, curve.n.bit_length())


def sign_digest(
    curve: WeierstrassCurve,
    d: int,
    h: bytes,
    *,
    k: int | None = None,
    nonce: Nonce = "random",
    hash_name: str = "sha-256",
    rng: Callable[[int], int] | None = None,
) -> tuple[int, int]:
    """(r, s) for the hash value ``h``.

    ``k`` fixes the nonce (known-answer tests; ``ValueError`` if it gives r = 0
    or s = 0). Otherwise ``nonce`` chooses "random" (FIPS 186-4 B.5.2) or
    "rfc6979" (RFC 6979 §3.2 with ``hash_name`` as the HMAC hash).
    """
    _check_private_key(curve, d)
    n = curve.n
    e = hash_to_integer(curve, h)
    candidates = rfc6979.nonce_candidates(n, d, h, hash_name, k=k, kind=nonce, rng=rng, name="n")
    for candidate in candidates:
        R = scalar_mult(curve, candidate, curve.G)
        assert R is not None
        r = R[0] % n
        if r == 0:
            continue
        s = modarith.mod_mul(modarith.inverse(candidate, n), (e + modarith.mod_mul(r, d, n)) % n, n)
        if s == 0:
            continue
        return (r, s)
    raise ValueError(f"Invalid nonce (k = {k}) for {curve.name}: it gives r = 0 or s = 0")


def sign(
    curve: WeierstrassCurve,
    d: int,
    message: bytes,
    hash_name: str = "sha-256",
    *,
    k: int | None = None,
    nonce: Nonce = "random",
    rng: Callable[[int], int] | None = None,
) -> tuple[int, int]:
    """(r, s) = ECDSA signature of ``message`` hashed with ``hash_name``."""
    return sign_digest(
        curve, d, digest(hash_name, message), k=k, nonce=nonce, hash_name=hash_name, rng=rng
    )


def verify_digest(
    curve: WeierstrassCurve, Q: AffinePoint, h: bytes, signature: tuple[int, int]
) -> None:
    """Return if (r, s) is a valid signature of hash ``h`` under Q; else raise ``InvalidSignature``.

    An invalid public key (O, off the curve) raises ``ValueError``.
    """
    validate_public_key(curve, Q)
    r, s = signature
    n = curve.n
    if not (1 <= r < n and 1 <= s < n):
        raise InvalidSignature()
    e = hash_to_integer(curve, h)
    w = modarith.inverse(s, n)
    u1 = modarith.mod_mul(e % n, w, n)
    u2 = modarith.mod_mul(r, w, n)
    R = double_scalar_mult(curve, u1, curve.G, u2, Q)
    if R is None or R[0] % n != r:
        raise InvalidSignature()


def verify(
    curve: WeierstrassCurve,
    Q: AffinePoint,
    message: bytes,
    signature: tuple[int, int],
    hash_name: str = "sha-256",
) -> None:
    """Verify (r, s) on ``message`` hashed with ``hash_name``; raise ``InvalidSignature`` if it does not hold."""
    verify_digest(curve, Q, digest(hash_name, message), signature)


def encode_der(signature: tuple[int, int]) -> bytes:
    return der_encode_signature(*signature)


def decode_der(data: bytes) -> tuple[int, int]:
    """(r, s) from strict DER; malformed encodings raise ``InvalidSignature`` (a signature that cannot verify)."""
    try:
        return der_decode_signature(data)
    except ValueError:
        raise InvalidSignature() from None


def encode_raw(curve: WeierstrassCurve, signature: tuple[int, int]) -> bytes:
    L = curve.order_byte_length
    return signature[0].to_bytes(L, "big") + signature[1].to_bytes(L, "big")


def decode_raw(curve: WeierstrassCurve, data: bytes) -> tuple[int, int]:
    """(r, s) from r ∥ s (IEEE P1363), each ⌈log₂ n / 8⌉ bytes; another length raises ``InvalidSignature``."""
    L = curve.order_byte_length
    if len(data) != 2 * L:
        raise InvalidSignature()
    return int.from_bytes(data[:L], "big"), int.from_bytes(data[L:], "big")
