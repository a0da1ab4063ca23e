"""EdDSA (RFC 8032): Ed25519, Ed25519ctx, Ed25519ph (§5.1) and Ed448, Ed448ph (§5.2).

Key generation (§5.1.5 / §5.2.5): h = H(sk); s = h[0:b/8] with the cofactor
bits cleared and the top bit set ("clamping"); A = [s]B; the public key is
ENC(A). Signing (§5.1.6 / §5.2.6): r = H(dom ∥ h[b/8:] ∥ PH(M)) mod L;
R = [r]B; k = H(dom ∥ ENC(R) ∥ ENC(A) ∥ PH(M)) mod L; S = (r + k·s) mod L.
Verification (§5.1.7 / §5.2.7): decode R and A strictly, require S < L, and
check the cofactored equation [2^c·S]B = [2^c]R + [2^c·k]A, evaluated as
[2^c]([S]B + [L − k]A − R) = O with Shamir's trick.

H is SHA-512 for Ed25519 and SHAKE256 with 114 output bytes for Ed448 (both
refbench's own, via :mod:`refbench.ref.hashes`). dom2/dom4 carry the variant
flag and the context (at most 255 bytes).
"""

from __future__ import annotations

from typing import Literal

from refbench.errors import InvalidSignature
from refbench.ref import edwards, modarith
from refbench.ref.edwards import ED448, ED25519, EdwardsCurve
from refbench.ref.pkutil import digest

__all__ = ["VARIANTS", "Variant", "public_key", "sign", "verify"]

Variant = Literal["Ed25519", "Ed25519ctx", "Ed25519ph", "Ed448", "Ed448ph"]
VARIANTS: tuple[str, ...] = ("Ed25519", "Ed25519ctx", "Ed25519ph", "Ed448", "Ed448ph")


def _curve(variant: str) -> EdwardsCurve:
    if variant not in VARIANTS:
        raise ValueError(f"Invalid EdDSA variant ({variant!r}); accepted: {', '.join(VARIANTS)}")
    return ED25519 if variant.startswith("Ed25519") else ED448


def _H(curve: EdwardsCurve, data: bytes) -> bytes:
    if curve is ED25519:
        return digest("sha-512", data)
    return digest("shake256", data, 114)


def _dom(variant: str, context: bytes) -> bytes:
    """dom2(phflag, C) for Ed25519ctx/ph (empty for plain Ed25519) and dom4 for Ed448 (RFC 8032 §2)."""
    if not isinstance(context, (bytes, bytearray)) or len(context) > 255:
        n = len(context) if isinstance(context, (bytes, bytearray)) else type(context).__name__
        raise ValueError(f"Invalid context length ({n}) for {variant}; accepted: 0..255 bytes")
    if variant == "Ed25519":
        if context:
            raise ValueError(
                f"Invalid context length ({len(context)}) for Ed25519; accepted: 0 (use Ed25519ctx)"
            )
        return b""
    if variant == "Ed25519ctx" and not context:
        raise ValueError("Invalid context length (0) for Ed25519ctx; accepted: 1..255 bytes")
    flag = 1 if variant.endswith("ph") else 0
    prefix = b"SigEd25519 no Ed25519 collisions" if variant.startswith("Ed25519") else b"SigEd448"
    return prefix + bytes([flag, len(context)]) + bytes(context)


def _PH(variant: str, message: bytes) -> bytes:
    if variant == "Ed25519ph":
        return digest("sha-512", message)
    if variant == "Ed448ph":
        return digest("shake256", message, 64)
    return bytes(message)


def _expand(curve: EdwardsCurve, secret: bytes) -> tuple[int, bytes]:
    """(s, prefix) from the secret key: clamp the first half of H(sk) (RFC 8032 §5.1.5 steps 1–3, §5.2.5)."""
    if not isinstance(secret, (bytes, bytearray)) or len(secret) != curve.size:
        got = len(secret) if isinstance(secret, (bytes, bytearray)) else type(secret).__name__
        raise ValueError(
            f"Invalid private key length ({got} bytes) for {curve.name}; accepted: {curve.size}"
        )
    h = _H(curve, bytes(secret))
    a = bytearray(h[: curve.size])
    if curve is ED25519:
        a[0] &= 248
        a[31] &= 127
        a[31] |= 64
    else:
        a[0] &= 252
        a[56] = 0
        a[55] |= 128
    return int.from_bytes(a, "little"), h[curve.size :]


def public_key(secret: bytes, variant: Variant = "Ed25519") -> bytes:
    """ENC([s]B) for the secret key ``secret`` (32 bytes for Ed25519*, 57 for Ed448*)."""
    curve = _curve(variant)
    s, _ = _expand(curve, secret)
    return edwards.encode(curve, edwards.scalar_mult(curve, s, curve.B))


def sign(
    secret: bytes, message: bytes, variant: Variant = "Ed25519", context: bytes = b""
) -> bytes:
    """The signature ENC(R) ∥ S of ``message`` (RFC 8032 §5.1.6 / §5.2.6)."""
    curve = _curve(variant)
    dom = _dom(variant, context)
    s, prefix = _expand(curve, secret)
    A = edwards.encode(curve, edwards.scalar_mult(curve, s, curve.B))
    ph = _PH(variant, message)
    r = int.from_bytes(_H(curve, dom + prefix + ph), "little") % curve.L
    R = edwards.encode(curve, edwards.scalar_mult(curve, r, curve.B))
    k = int.from_bytes(_H(curve, dom + R + A + ph), "little") % curve.L
    S = (r + modarith.mod_mul(k, s, curve.L)) % curve.L  # the one product mod L, counted
    return R + S.to_bytes(curve.size, "little")


def verify(
    public: bytes,
    message: bytes,
    signature: bytes,
    variant: Variant = "Ed25519",
    context: bytes = b"",
) -> None:
    """Return if ``signature`` is valid for ``message`` under ``public``; raise ``InvalidSignature`` otherwise.

    A public key that is not a valid point encoding raises ``InvalidSignature``
    too (verification cannot succeed), as do a malformed R and S ≥ L.
    """
    curve = _curve(variant)
    dom = _dom(variant, context)
    n = curve.size
    if not isinstance(signature, (bytes, bytearray)) or len(signature) != 2 * n:
        raise InvalidSignature()
    if not isinstance(public, (bytes, bytearray)) or len(public) != n:
        raise InvalidSignature()
    try:
        A = edwards.decode(curve, bytes(public))
        R = edwards.decode(curve, bytes(signature[:n]))
    except ValueError:
        raise InvalidSignature() from None
    S = int.from_bytes(signature[n:], "little")
    if S >= curve.L:
        raise InvalidSignature()
    k = (
        int.from_bytes(
            _H(curve, dom + bytes(signature[:n]) + bytes(public) + _PH(variant, message)), "little"
        )
        % curve.L
    )
    # [2^c]([S]B − [k]A − R) = O, with [S]B + [L − k]A computed in one shared chain of doublings.
    combined = edwards.double_scalar_mult(curve, S, curve.B, (curve.L - k) % curve.L, A)
    difference = edwards.add(curve, combined, edwards.negate(curve, R))
    for _ in range(curve.c):
        difference = edwards.double(curve, difference)
    if not edwards.equal(curve, difference, edwards.identity(curve)):
        raise InvalidSignature()
