"""X25519 and X448 (RFC 7748): the Montgomery ladder on the u-coordinate.

Curve25519: v² = u³ + 486662·u² + u over GF(2^255 − 19), base point u = 9.
Curve448:   v² = u³ + 156326·u² + u over GF(2^448 − 2^224 − 1), base point u = 5.

The ladder (RFC 7748 §5) keeps (x₂ : z₂) = [m]P and (x₃ : z₃) = [m+1]P and, for
each scalar bit, performs one combined differential addition and doubling —
5M + 4S + one multiplication by the one-word constant a24 = (A − 2)/4 (121665
for X25519, 39081 for X448; counted as ``mul_const`` in :mod:`refbench.ref.opcount`)
— with a conditional swap (done arithmetically, as the RFC writes it) instead of
a branch. One inversion z₂^(p−2) and one multiplication end it: 255 ladder steps
+ 1M + 1I for X25519, 448 steps + 1M + 1I for X448.

Decoding (RFC 7748 §5): scalars are clamped; the u-coordinate's unused top bit
is masked (X25519) and non-canonical values ≥ p are accepted and reduced.
An all-zero shared secret — the peer sent a point of small order — raises
``ValueError`` (RFC 7748 §6.1/§6.2, the check the RFC recommends).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field

from refbench.ref import opcount
from refbench.ref.modarith import PrimeField

__all__ = [
    "CURVE448",
    "CURVE25519",
    "MontgomeryCurve",
    "generate_private_key",
    "ladder",
    "x448",
    "x448_public_key",
    "x25519",
    "x25519_public_key",
]


@dataclass(frozen=True)
class MontgomeryCurve:
    """v² = u³ + A·u² + u over GF(p); scalars of ``bits`` bits in ``size``-byte strings."""

    name: str
    p: int
    A: int
    u_base: int
    bits: int
    size: int
    source: str
    field: PrimeField = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "field", PrimeField(self.p))

    @property
    def a24(self) -> int:
        """(A − 2) / 4, the constant of the ladder step (RFC 7748 §5)."""
        return (self.A - 2) // 4


CURVE25519 = MontgomeryCurve("curve25519", (1 << 255) - 19, 486662, 9, 255, 32, "RFC 7748 §4.1")
CURVE448 = MontgomeryCurve(
    "curve448", (1 << 448) - (1 << 224) - 1, 156326, 5, 448, 56, "RFC 7748 §4.2"
)


def decode_scalar(curve: MontgomeryCurve, k: bytes) -> int:
    """decodeScalar25519 / decodeScalar448 (RFC 7748 §5): clear the cofactor bits, set the top bit."""
    _check_length(curve, "scalar", k)
    b = bytearray(k)
    if curve is CURVE25519:
        b[0] &= 248
        b[31] &= 127
        b[31] |= 64
    else:
        b[0] &= 252
        b[55] |= 128
    return int.from_bytes(b, "little")


def decode_u(curve: MontgomeryCurve, u: bytes) -> int:
    """decodeUCoordinate (RFC 7748 §5): little-endian, unused top bits masked, reduced mod p."""
    _check_length(curve, "u-coordinate", u)
    b = bytearray(u)
    if curve.bits % 8:
        b[-1] &= (1 << (curve.bits % 8)) - 1
    return int.from_bytes(b, "little") % curve.p


def encode_u(curve: MontgomeryCurve, u: int) -> bytes:
    """encodeUCoordinate (RFC 7748 §5): u mod p as ``size`` little-endian bytes."""
    return (u % curve.p).to_bytes(curve.size, "little")


def _check_length(curve: MontgomeryCurve, what: str, data: bytes) -> None:
    if not isinstance(data, (bytes, bytearray)) or len(data) != curve.size:
        got = len(data) if isinstance(data, (bytes, bytearray)) else type(data).__name__
        raise ValueError(
            f"Invalid {what} length ({got} bytes) for {curve.name}; accepted: {curve.size}"
        )


def _cswap(swap: int, x2: int, x3: int, z2: int, z3: int) -> tuple[int, int, int, int]:
    """cswap of RFC 7748 §5 on both coordinate pairs: a mask of all ones (swap = 1) or zeros, no branch."""
    opcount.cswap(2)
    mask = -swap
    dx = mask & (x2 ^ x3)
    dz = mask & (z2 ^ z3)
    return x2 ^ dx, x3 ^ dx, z2 ^ dz, z3 ^ dz


def ladder(curve: MontgomeryCurve, k: int, u: int) -> int:
    """u([k]P) for P with u-coordinate ``u``: the Montgomery ladder of RFC 7748 §5 (0 for the point at infinity)."""
    F = curve.field
    a24 = curve.a24
    x1 = u
    x2, z2 = 1, 0
    x3, z3 = u, 1
    swap = 0
    for t in reversed(range(curve.bits)):
        k_t = (k >> t) & 1
        swap ^= k_t
        x2, x3, z2, z3 = _cswap(swap, x2, x3, z2, z3)
        swap = k_t
        A = F.add(x2, z2)
        AA = F.sqr(A)
        B = F.sub(x2, z2)
        BB = F.sqr(B)
        E = F.sub(AA, BB)
        C = F.add(x3, z3)
        D = F.sub(x3, z3)
        DA = F.mul(D, A)
        CB = F.mul(C, B)
        x3 = F.sqr(F.add(DA, CB))
        z3 = F.mul(x1, F.sqr(F.sub(DA, CB)))
        x2 = F.mul(AA, BB)
        z2 = F.mul(E, F.add(AA, F.mul_const(a24, E)))
    x2, x3, z2, z3 = _cswap(swap, x2, x3, z2, z3)
    if z2 == 0:
        return 0
    return F.mul(x2, F.inv(z2))


def _xdh(curve: MontgomeryCurve, k: bytes, u: bytes) -> bytes:
    result = encode_u(curve, ladder(curve, decode_scalar(curve, k), decode_u(curve, u)))
    if not any(result):
        raise ValueError(
            f"Invalid peer public key for {curve.name}: the shared secret is all zero "
            "(a point of small order, RFC 7748 §6)"
        )
    return result


def x25519(k: bytes, u: bytes) -> bytes:
    """X25519(k, u) (RFC 7748 §5); ``ValueError`` for an all-zero result (§6.1)."""
    return _xdh(CURVE25519, k, u)


def x448(k: bytes, u: bytes) -> bytes:
    """X448(k, u) (RFC 7748 §5); ``ValueError`` for an all-zero result (§6.2)."""
    return _xdh(CURVE448, k, u)


def x25519_public_key(k: bytes) -> bytes:
    """X25519(k, 9) (RFC 7748 §6.1)."""
    return x25519(k, encode_u(CURVE25519, CURVE25519.u_base))


def x448_public_key(k: bytes) -> bytes:
    """X448(k, 5) (RFC 7748 §6.2)."""
    return x448(k, encode_u(CURVE448, CURVE448.u_base))


def generate_private_key(curve: MontgomeryCurve) -> bytes:
    """``size`` random bytes (RFC 7748 §6: the clamping happens when the key is used)."""
    return secrets.token_bytes(curve.size)
