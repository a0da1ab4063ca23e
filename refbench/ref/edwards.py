"""Twisted Edwards curves a·x² + y² = 1 + d·x²·y² for Ed25519 and Ed448 (RFC 8032 §5.1, §5.2).

* edwards25519: a = −1, d = −121665/121666 over GF(2^255 − 19), in extended
  coordinates (X : Y : Z : T) with x = X/Z, y = Y/Z, x·y = T/Z
  (Hisil–Wong–Carter–Dawson 2008; the formulas of RFC 8032 §5.1.4):
  addition 8M + 1 multiplication by 2d (counted M), doubling 4M + 4S.
* edwards448: a = 1, d = −39081 over GF(2^448 − 2^224 − 1), in projective
  coordinates (X : Y : Z) (RFC 8032 §5.2.4): addition 10M + 1S + one
  multiplication by the one-word constant d (counted ``mul_const``),
  doubling 3M + 4S.

The formulas are complete on these curves (no exceptional cases), so one
addition routine also doubles. Points are decoded strictly (RFC 8032 §5.1.3,
§5.2.3): a y-coordinate ≥ p, a non-square x², or x = 0 with the sign bit set is
refused with ``ValueError``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from refbench.ref import modarith
from refbench.ref.modarith import PrimeField

__all__ = [
    "ED448",
    "ED25519",
    "EdwardsCurve",
    "Point",
    "add",
    "decode",
    "double",
    "double_scalar_mult",
    "encode",
    "equal",
    "identity",
    "negate",
    "scalar_mult",
]

Point = tuple[int, ...]  # (X, Y, Z, T) for edwards25519, (X, Y, Z) for edwards448


@dataclass(frozen=True)
class EdwardsCurve:
    """a·x² + y² = 1 + d·x²·y² over GF(p) with base point B = (Bx, By) of prime order L (RFC 8032 §5.1, §5.2).

    ``c`` is log₂ of the cofactor (3 for edwards25519, 2 for edwards448) and ``b`` the
    encoding length in bits (256 and 456), as the RFC names them in §3.
    """

    name: str
    p: int
    a: int
    d: int
    L: int  # prime order of the base point
    c: int  # log2 of the cofactor
    b: int  # encoded length in bits
    Bx: int
    By: int
    source: str
    field: PrimeField = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "field", PrimeField(self.p))

    @property
    def size(self) -> int:
        """Encoded length of a point or scalar in bytes (b/8)."""
        return self.b // 8

    @property
    def extended(self) -> bool:
        """True for edwards25519 (a = −1), which uses extended coordinates (X : Y : Z : T)."""
        return self.a == -1

    @property
    def B(self) -> Point:
        return from_affine(self, self.Bx, self.By)


def _recover_x_25519_base() -> int:
    """x of the Ed25519 base point: y = 4/5, x even (RFC 8032 §5.1)."""
    p = (1 << 255) - 19
    d = (-121665 * modarith.inverse(121666, p)) % p
    y = 4 * modarith.inverse(5, p) % p
    x2 = (y * y - 1) * modarith.inverse(d * y * y + 1, p) % p
    x = modarith.sqrt_mod(x2, p)
    assert x is not None
    return x if x % 2 == 0 else p - x


_P25519 = (1 << 255) - 19

ED25519 = EdwardsCurve(
    name="edwards25519",
    p=_P25519,
    a=-1,
    d=(-121665 * modarith.inverse(121666, _P25519)) % _P25519,
    L=(1 << 252) + 27742317777372353535851937790883648493,
    c=3,
    b=256,
    Bx=_recover_x_25519_base(),
    By=4 * modarith.inverse(5, _P25519) % _P25519,
    source="RFC 8032 §5.1 (edwards25519)",
)

_P448 = (1 << 448) - (1 << 224) - 1

ED448 = EdwardsCurve(
    name="edwards448",
    p=_P448,
    a=1,
    d=_P448 - 39081,
    L=(1 << 446) - 13818066809895115352007386748515426880336692474882178609894547503885,
    c=2,
    b=456,
    Bx=224580040295924300187604334099896036246789641632564134246125461686950415467406032909029192869357953282578032075146446173674602635247710,
    By=298819210078481492676017930443930673437544040154080242095928241372331506189835876003536878655418784733982303233503462500531545062832660,
    source="RFC 8032 §5.2 (edwards448)",
)


def from_affine(curve: EdwardsCurve, x: int, y: int) -> Point:
    """(x, y) as (x : y : 1 : x·y) for edwards25519 (RFC 8032 §5.1.4) or (x : y : 1) for edwards448."""
    if curve.extended:
        return (x, y, 1, x * y % curve.p)
    return (x, y, 1)


def identity(curve: EdwardsCurve) -> Point:
    """The neutral element (0, 1) in the curve's coordinates."""
    return (0, 1, 1, 0) if curve.extended else (0, 1, 1)


def add(curve: EdwardsCurve, P: Point, Q: Point) -> Point:
    """P + Q (complete formulas of RFC 8032 §5.1.4 / §5.2.4)."""
    F = curve.field
    if curve.extended:
        X1, Y1, Z1, T1 = P
        X2, Y2, Z2, T2 = Q
        A = F.mul(F.sub(Y1, X1), F.sub(Y2, X2))
        B = F.mul(F.add(Y1, X1), F.add(Y2, X2))
        C = F.mul(F.mul(T1, F.small(2, curve.d)), T2)
        D = F.small(2, F.mul(Z1, Z2))
        E, Fv, G, H = F.sub(B, A), F.sub(D, C), F.add(D, C), F.add(B, A)
        return (F.mul(E, Fv), F.mul(G, H), F.mul(Fv, G), F.mul(E, H))
    X1, Y1, Z1 = P
    X2, Y2, Z2 = Q
    A = F.mul(Z1, Z2)
    B = F.sqr(A)
    C = F.mul(X1, X2)
    D = F.mul(Y1, Y2)
    E = F.mul(F.mul_const(curve.d - curve.p, C), D)  # d − p = −39081, a one-word constant
    Fv = F.sub(B, E)
    G = F.add(B, E)
    H = F.mul(F.add(X1, Y1), F.add(X2, Y2))
    X3 = F.mul(F.mul(A, Fv), F.sub(F.sub(H, C), D))
    Y3 = F.mul(F.mul(A, G), F.sub(D, C))
    Z3 = F.mul(Fv, G)
    return (X3, Y3, Z3)


def double(curve: EdwardsCurve, P: Point) -> Point:
    """2P (RFC 8032 §5.1.4 / §5.2.4 doubling formulas)."""
    F = curve.field
    if curve.extended:
        X1, Y1, Z1, _ = P
        A = F.sqr(X1)
        B = F.sqr(Y1)
        C = F.small(2, F.sqr(Z1))
        H = F.add(A, B)
        E = F.sub(H, F.sqr(F.add(X1, Y1)))
        G = F.sub(A, B)
        Fv = F.add(C, G)
        return (F.mul(E, Fv), F.mul(G, H), F.mul(Fv, G), F.mul(E, H))
    X1, Y1, Z1 = P
    B = F.sqr(F.add(X1, Y1))
    C = F.sqr(X1)
    D = F.sqr(Y1)
    E = F.add(C, D)
    H = F.sqr(Z1)
    J = F.sub(E, F.small(2, H))
    return (F.mul(F.sub(B, E), J), F.mul(E, F.sub(C, D)), F.mul(E, J))


def scalar_mult(curve: EdwardsCurve, k: int, P: Point) -> Point:
    """[k]P by left-to-right double-and-add."""
    if not isinstance(k, int) or k < 0:
        raise ValueError(f"Invalid scalar ({k!r}); accepted: an integer >= 0")
    R = identity(curve)
    for bit in bin(k)[2:] if k else "":
        R = double(curve, R)
        if bit == "1":
            R = add(curve, R, P)
    return R


def negate(curve: EdwardsCurve, P: Point) -> Point:
    """−P = (−x, y)."""
    p = curve.p
    if curve.extended:
        return ((-P[0]) % p, P[1], P[2], (-P[3]) % p)
    return ((-P[0]) % p, P[1], P[2])


def double_scalar_mult(curve: EdwardsCurve, u1: int, P: Point, u2: int, Q: Point) -> Point:
    """[u1]P + [u2]Q with one shared chain of doublings (Shamir's trick, HAC Algorithm 14.88)."""
    PQ = add(curve, P, Q)
    R = identity(curve)
    for i in reversed(range(max(u1.bit_length(), u2.bit_length()))):
        R = double(curve, R)
        b1, b2 = (u1 >> i) & 1, (u2 >> i) & 1
        if b1 and b2:
            R = add(curve, R, PQ)
        elif b1:
            R = add(curve, R, P)
        elif b2:
            R = add(curve, R, Q)
    return R


def equal(curve: EdwardsCurve, P: Point, Q: Point) -> bool:
    """Projective equality: X1·Z2 = X2·Z1 and Y1·Z2 = Y2·Z1."""
    F = curve.field
    return F.mul(P[0], Q[2]) == F.mul(Q[0], P[2]) and F.mul(P[1], Q[2]) == F.mul(Q[1], P[2])


def to_affine(curve: EdwardsCurve, P: Point) -> tuple[int, int]:
    """(x, y) = (X/Z, Y/Z): 1I + 2M."""
    F = curve.field
    z_inv = F.inv(P[2])
    return F.mul(P[0], z_inv), F.mul(P[1], z_inv)


def encode(curve: EdwardsCurve, P: Point) -> bytes:
    """y little-endian in b bits, the top bit holding the low bit of x (RFC 8032 §5.1.2, §5.2.2)."""
    x, y = to_affine(curve, P)
    return (y | ((x & 1) << (curve.b - 1))).to_bytes(curve.size, "little")


def decode(curve: EdwardsCurve, data: bytes) -> Point:
    """The point encoded by ``data`` (RFC 8032 §5.1.3, §5.2.3); ``ValueError`` if it encodes none."""
    if not isinstance(data, (bytes, bytearray)) or len(data) != curve.size:
        got = len(data) if isinstance(data, (bytes, bytearray)) else type(data).__name__
        raise ValueError(
            f"Invalid point encoding length ({got} bytes) for {curve.name}; accepted: {curve.size}"
        )
    value = int.from_bytes(data, "little")
    x0 = value >> (curve.b - 1)
    y = value & ((1 << (curve.b - 1)) - 1)
    if y >= curve.p:
        raise ValueError(
            f"Invalid point for {curve.name}: y is not below p (non-canonical encoding)"
        )
    F = curve.field
    y2 = F.sqr(y)
    u = F.sub(y2, 1)
    v = F.sub(F.mul(curve.d, y2), curve.a % curve.p)  # x² = (y² − 1) / (d·y² − a)
    if v == 0:
        raise ValueError(f"Invalid point for {curve.name}: d·y² = a")
    x = F.sqrt(F.mul(u, F.inv(v)))
    if x is None:
        raise ValueError(f"Invalid point for {curve.name}: x² is not a square")
    if x == 0 and x0 == 1:
        raise ValueError(f"Invalid point for {curve.name}: x = 0 with the sign bit set")
    if x & 1 != x0:
        x = curve.p - x
    return from_affine(curve, x, y)
