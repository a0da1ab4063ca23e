"""Elliptic-curve Diffie-Hellman: the ECC CDH primitive (NIST SP 800-56A Rev. 3 §5.7.1.2; SEC 1 v2 §3.3.2).

Z = x-coordinate of h·d·Q (the cofactor h is 1 on every curve here), encoded
as ⌈log₂ p / 8⌉ bytes. The peer's public key is fully validated first
(SP 800-56A §5.6.2.3.3): a point at infinity, a point off the curve or a
coordinate ≥ p raises ``ValueError`` — the invalid-curve attack needs exactly
such points, and must be refused before any multiplication.
"""

from __future__ import annotations

from collections.abc import Callable

from refbench.ref import modarith
from refbench.ref.curves import WeierstrassCurve
from refbench.ref.pkutil import der_oid, der_parse, der_tlv
from refbench.ref.weierstrass import (
    AffinePoint,
    decode_point,
    encode_point,
    scalar_mult,
    validate_public_key,
)

__all__ = [
    "decode_spki",
    "encode_public_key",
    "generate_keypair",
    "public_key",
    "shared_secret",
    "shared_secret_from_bytes",
]

#: id-ecPublicKey (RFC 5480 §2.1.1).
EC_PUBLIC_KEY_OID = "1.2.840.10045.2.1"


def _check_private_key(curve: WeierstrassCurve, d: int) -> None:
    if not isinstance(d, int) or not 1 <= d < curve.n:
        raise ValueError(f"Invalid private key (d = {d!r}) for {curve.name}; accepted: 1 <= d < n")


def public_key(curve: WeierstrassCurve, d: int) -> tuple[int, int]:
    """Q = d·G."""
    _check_private_key(curve, d)
    Q = scalar_mult(curve, d, curve.G)
    assert Q is not None
    return Q


def generate_keypair(
    curve: WeierstrassCurve, rng: Callable[[int], int] | None = None
) -> tuple[int, tuple[int, int]]:
    """(d, Q) with d uniform in [1, n − 1] (SP 800-56A §5.6.1.2.2)."""
    d = modarith.random_below(curve.n, rng)
    return d, public_key(curve, d)


def shared_secret(curve: WeierstrassCurve, d: int, Q: AffinePoint) -> bytes:
    """Z = x(h·d·Q) as ⌈log₂ p / 8⌉ big-endian bytes, after full validation of Q."""
    _check_private_key(curve, d)
    validate_public_key(curve, Q)
    P = scalar_mult(curve, curve.h * d, Q)
    # Impossible for a validated Q of prime order n and 1 <= d < n; kept as the standard's step 2.
    if P is None:
        raise ValueError(f"Invalid shared secret for {curve.name}: the point at infinity")
    return P[0].to_bytes(curve.byte_length, "big")


def shared_secret_from_bytes(curve: WeierstrassCurve, d: int, peer: bytes) -> bytes:
    """:func:`shared_secret` with the peer's key as a SEC 1 octet string (compressed or not)."""
    return shared_secret(curve, d, decode_point(curve, peer))


def encode_public_key(
    curve: WeierstrassCurve, Q: tuple[int, int], compressed: bool = False
) -> bytes:
    """Q as a SEC 1 octet string (SEC 1 v2 §2.3.3), uncompressed unless ``compressed``."""
    return encode_point(curve, Q, compressed)


def decode_spki(curve: WeierstrassCurve, der: bytes) -> tuple[int, int]:
    """The point of a DER SubjectPublicKeyInfo for ``curve`` (RFC 5480 §2).

    Only the form RFC 5480 §2.1.1 requires is accepted: AlgorithmIdentifier
    {id-ecPublicKey, namedCurve OID of ``curve``} and a BIT STRING with no unused
    bits holding a SEC 1 point. Explicit curve parameters, another curve, BER
    encodings and trailing data raise ``ValueError``.
    """
    spki = der_parse(der)
    if spki.tag != 0x30:
        raise ValueError("Invalid SubjectPublicKeyInfo: not a SEQUENCE")
    parts = spki.children()
    if len(parts) != 2 or parts[0].tag != 0x30 or parts[1].tag != 0x03:
        raise ValueError(
            "Invalid SubjectPublicKeyInfo: expected SEQUENCE { AlgorithmIdentifier, BIT STRING }"
        )
    algorithm = parts[0].children()
    expected = [der_oid(EC_PUBLIC_KEY_OID), der_oid(curve.oid)]
    if [der_tlv(a.tag, a.content) for a in algorithm] != expected:
        raise ValueError(
            f"Invalid SubjectPublicKeyInfo: algorithm is not id-ecPublicKey with namedCurve {curve.name}"
        )
    bits = parts[1].content
    if not bits or bits[0] != 0:
        raise ValueError("Invalid SubjectPublicKeyInfo: BIT STRING with unused bits")
    return decode_point(curve, bits[1:])
