"""Point arithmetic on short Weierstrass curves y² = x³ + a·x + b over GF(p).

Two coordinate systems, as an embedded library would offer them:

* **affine** (x, y), the point at infinity O written ``None``. Every addition
  or doubling costs one field inversion (SEC 1 v2 §2.2.1).
* **Jacobian** (X, Y, Z) standing for (X/Z², Y/Z³), O written with Z = 0.
  No inversion until the final conversion back to affine. Formulas from the
  Explicit-Formulas Database (Bernstein–Lange, hyperelliptic.org/EFD,
  ``g1p/auto-shortw-jacobian``):

  ========================  =============================================
  ``dbl-2001-b``  (a = −3)  3M + 5S
  ``dbl-2007-bl`` (any a)   1M + 8S + one multiplication by a (counted M)
  ``add-2007-bl``           11M + 5S
  ``madd-2007-bl`` (Z2 = 1) 7M + 4S
  ========================  =============================================

Scalar multiplication: left-to-right double-and-add (affine or Jacobian),
fixed-window (width w, 2^w-entry table) — the default — and Shamir's trick for
u1·G + u2·Q in signature verification.

Point encoding and validation follow SEC 1 v2 §2.3.3–2.3.4 and
NIST SP 800-56A Rev. 3 §5.6.2.3.3 (full public-key validation).
"""

from __future__ import annotations

from refbench.ref.curves import WeierstrassCurve

__all__ = [
    "INFINITY",
    "AffinePoint",
    "JacobianPoint",
    "affine_add",
    "affine_double",
    "affine_neg",
    "decode_point",
    "double_scalar_mult",
    "encode_point",
    "is_on_curve",
    "jacobian_add",
    "jacobian_add_mixed",
    "jacobian_double",
    "scalar_mult",
    "scalar_mult_affine",
    "scalar_mult_double_and_add",
    "scalar_mult_fixed_window",
    "to_affine",
    "to_jacobian",
    "validate_public_key",
]

AffinePoint = tuple[int, int] | None
JacobianPoint = tuple[int, int, int]

#: The point at infinity O in Jacobian coordinates (any triple with Z = 0).
INFINITY: JacobianPoint = (1, 1, 0)


def is_on_curve(curve: WeierstrassCurve, P: AffinePoint) -> bool:
    """True for O and for (x, y) with 0 ≤ x, y < p and y² = x³ + a·x + b."""
    if P is None:
        return True
    x, y = P
    p = curve.p
    if not (0 <= x < p and 0 <= y < p):
        return False
    F = curve.field
    rhs = F.add(F.mul(F.add(F.sqr(x), curve.a), x), curve.b)
    return F.sqr(y) == rhs


# --- affine -----------------------------------------------------------------


def affine_neg(curve: WeierstrassCurve, P: AffinePoint) -> AffinePoint:
    if P is None:
        return None
    return (P[0], (-P[1]) % curve.p)


def affine_double(curve: WeierstrassCurve, P: AffinePoint) -> AffinePoint:
    """2P with λ = (3x² + a) / (2y): 1I + 2M + 2S (SEC 1 v2 §2.2.1, rule 5)."""
    if P is None or P[1] == 0:
        return None
    F = curve.field
    x, y = P
    lam = F.mul(F.add(F.small(3, F.sqr(x)), curve.a), F.inv(F.small(2, y)))
    x3 = F.sub(F.sqr(lam), F.small(2, x))
    y3 = F.sub(F.mul(lam, F.sub(x, x3)), y)
    return (x3, y3)


def affine_add(curve: WeierstrassCurve, P: AffinePoint, Q: AffinePoint) -> AffinePoint:
    """P + Q with λ = (y2 − y1) / (x2 − x1): 1I + 2M + 1S (SEC 1 v2 §2.2.1, rules 1–4)."""
    if P is None:
        return Q
    if Q is None:
        return P
    x1, y1 = P
    x2, y2 = Q
    if x1 == x2:
        return affine_double(curve, P) if y1 == y2 else None
    F = curve.field
    lam = F.mul(F.sub(y2, y1), F.inv(F.sub(x2, x1)))
    x3 = F.sub(F.sub(F.sqr(lam), x1), x2)
    y3 = F.sub(F.mul(lam, F.sub(x1, x3)), y1)
    return (x3, y3)


def scalar_mult_affine(curve: WeierstrassCurve, k: int, P: AffinePoint) -> AffinePoint:
    """k·P by left-to-right double-and-add in affine coordinates (one inversion per step)."""
    _check_scalar(k)
    R: AffinePoint = None
    for bit in bin(k)[2:] if k else "":
        R = affine_double(curve, R)
        if bit == "1":
            R = affine_add(curve, R, P)
    return R


# --- Jacobian ---------------------------------------------------------------


def to_jacobian(P: AffinePoint) -> JacobianPoint:
    return INFINITY if P is None else (P[0], P[1], 1)


def to_affine(curve: WeierstrassCurve, P: JacobianPoint) -> AffinePoint:
    """(X/Z², Y/Z³): 1I + 3M + 1S."""
    X, Y, Z = P
    if Z == 0:
        return None
    F = curve.field
    z_inv = F.inv(Z)
    z_inv2 = F.sqr(z_inv)
    return (F.mul(X, z_inv2), F.mul(F.mul(Y, z_inv2), z_inv))


def jacobian_double(curve: WeierstrassCurve, P: JacobianPoint) -> JacobianPoint:
    """2P: ``dbl-2001-b`` (3M + 5S) when a = −3, else ``dbl-2007-bl`` (1M + 8S + 1·a)."""
    X1, Y1, Z1 = P
    if Z1 == 0 or Y1 == 0:
        return INFINITY
    F = curve.field
    if curve.a_is_minus_3:
        delta = F.sqr(Z1)
        gamma = F.sqr(Y1)
        beta = F.mul(X1, gamma)
        alpha = F.small(3, F.mul(F.sub(X1, delta), F.add(X1, delta)))
        X3 = F.sub(F.sqr(alpha), F.small(8, beta))
        Z3 = F.sub(F.sub(F.sqr(F.add(Y1, Z1)), gamma), delta)
        Y3 = F.sub(F.mul(alpha, F.sub(F.small(4, beta), X3)), F.small(8, F.sqr(gamma)))
        return (X3, Y3, Z3)
    XX = F.sqr(X1)
    YY = F.sqr(Y1)
    YYYY = F.sqr(YY)
    ZZ = F.sqr(Z1)
    S = F.small(2, F.sub(F.sub(F.sqr(F.add(X1, YY)), XX), YYYY))
    M = F.add(F.small(3, XX), F.mul(curve.a, F.sqr(ZZ)))
    T = F.sub(F.sqr(M), F.small(2, S))
    Y3 = F.sub(F.mul(M, F.sub(S, T)), F.small(8, YYYY))
    Z3 = F.sub(F.sub(F.sqr(F.add(Y1, Z1)), YY), ZZ)
    return (T, Y3, Z3)


def jacobian_add(curve: WeierstrassCurve, P: JacobianPoint, Q: JacobianPoint) -> JacobianPoint:
    """P + Q: ``add-2007-bl`` (11M + 5S); falls back to doubling when P = Q."""
    X1, Y1, Z1 = P
    X2, Y2, Z2 = Q
    if Z1 == 0:
        return Q
    if Z2 == 0:
        return P
    F = curve.field
    Z1Z1 = F.sqr(Z1)
    Z2Z2 = F.sqr(Z2)
    U1 = F.mul(X1, Z2Z2)
    U2 = F.mul(X2, Z1Z1)
    S1 = F.mul(F.mul(Y1, Z2), Z2Z2)
    S2 = F.mul(F.mul(Y2, Z1), Z1Z1)
    H = F.sub(U2, U1)
    r = F.small(2, F.sub(S2, S1))
    if H == 0:
        return jacobian_double(curve, P) if r == 0 else INFINITY
    I = F.sqr(F.small(2, H))
    J = F.mul(H, I)
    V = F.mul(U1, I)
    X3 = F.sub(F.sub(F.sqr(r), J), F.small(2, V))
    Y3 = F.sub(F.mul(r, F.sub(V, X3)), F.small(2, F.mul(S1, J)))
    Z3 = F.mul(F.sub(F.sub(F.sqr(F.add(Z1, Z2)), Z1Z1), Z2Z2), H)
    return (X3, Y3, Z3)


def jacobian_add_mixed(curve: WeierstrassCurve, P: JacobianPoint, Q: AffinePoint) -> JacobianPoint:
    """P + Q with Q affine (Z2 = 1): ``madd-2007-bl`` (7M + 4S)."""
    if Q is None:
        return P
    X1, Y1, Z1 = P
    if Z1 == 0:
        return to_jacobian(Q)
    X2, Y2 = Q
    F = curve.field
    Z1Z1 = F.sqr(Z1)
    U2 = F.mul(X2, Z1Z1)
    S2 = F.mul(F.mul(Y2, Z1), Z1Z1)
    H = F.sub(U2, X1)
    r = F.small(2, F.sub(S2, Y1))
    if H == 0:
        return jacobian_double(curve, P) if r == 0 else INFINITY
    HH = F.sqr(H)
    I = F.small(4, HH)
    J = F.mul(H, I)
    V = F.mul(X1, I)
    X3 = F.sub(F.sub(F.sqr(r), J), F.small(2, V))
    Y3 = F.sub(F.mul(r, F.sub(V, X3)), F.small(2, F.mul(Y1, J)))
    Z3 = F.sub(F.sub(F.sqr(F.add(Z1, H)), Z1Z1), HH)
    return (X3, Y3, Z3)


def _check_scalar(k: int) -> None:
    if not isinstance(k, int) or k < 0:
        raise ValueError(f"Invalid scalar ({k!r}); accepted: an integer >= 0")


def scalar_mult_double_and_add(curve: WeierstrassCurve, k: int, P: AffinePoint) -> AffinePoint:
    """k·P, left-to-right double-and-add in Jacobian coordinates with mixed additions."""
    _check_scalar(k)
    R = INFINITY
    for bit in bin(k)[2:] if k else "":
        R = jacobian_double(curve, R)
        if bit == "1":
            R = jacobian_add_mixed(curve, R, P)
    return to_affine(curve, R)


def scalar_mult_fixed_window(
    curve: WeierstrassCurve, k: int, P: AffinePoint, width: int = 4
) -> AffinePoint:
    """k·P with a fixed window of ``width`` bits (table 0·P … (2^w − 1)·P, in Jacobian form).

    Per window: ``width`` doublings and at most one addition, so the cost is
    nearly independent of the scalar's bit pattern (but not constant-time: the
    table index is data-dependent, as it is in the simplest embedded code).
    """
    _check_scalar(k)
    if not isinstance(width, int) or not 1 <= width <= 8:
        raise ValueError(f"Invalid window width ({width!r}); accepted: 1..8")
    if k == 0 or P is None:
        return None
    table = [INFINITY, to_jacobian(P)]
    for _ in range(2, 1 << width):
        table.append(jacobian_add_mixed(curve, table[-1], P))
    windows = -(-k.bit_length() // width)
    mask = (1 << width) - 1
    R = INFINITY
    for i in reversed(range(windows)):
        for _ in range(width):
            R = jacobian_double(curve, R)
        digit = (k >> (i * width)) & mask
        if digit:
            R = jacobian_add(curve, R, table[digit])
    return to_affine(curve, R)


def scalar_mult(curve: WeierstrassCurve, k: int, P: AffinePoint) -> AffinePoint:
    """k·P with the default method (fixed window, w = 4)."""
    return scalar_mult_fixed_window(curve, k, P, 4)


def double_scalar_mult(
    curve: WeierstrassCurve, u1: int, P: AffinePoint, u2: int, Q: AffinePoint
) -> AffinePoint:
    """u1·P + u2·Q with Shamir's trick: one shared chain of doublings (HAC Algorithm 14.88)."""
    _check_scalar(u1)
    _check_scalar(u2)
    Pj, Qj = to_jacobian(P), to_jacobian(Q)
    PQ = jacobian_add(curve, Pj, Qj)
    R = INFINITY
    for i in reversed(range(max(u1.bit_length(), u2.bit_length()))):
        R = jacobian_double(curve, R)
        b1, b2 = (u1 >> i) & 1, (u2 >> i) & 1
        if b1 and b2:
            R = jacobian_add(curve, R, PQ)
        elif b1:
            R = jacobian_add(curve, R, Pj)
        elif b2:
            R = jacobian_add(curve, R, Qj)
    return to_affine(curve, R)


# --- encoding and validation --------------------------------------------------


def encode_point(curve: WeierstrassCurve, P: AffinePoint, compressed: bool = False) -> bytes:
    """Elliptic-Curve-Point-to-Octet-String (SEC 1 v2 §2.3.3)."""
    if P is None:
        return b"\x00"
    L = curve.byte_length
    x, y = P
    if compressed:
        return bytes([2 + (y & 1)]) + x.to_bytes(L, "big")
    return b"\x04" + x.to_bytes(L, "big") + y.to_bytes(L, "big")


def decode_point(curve: WeierstrassCurve, data: bytes) -> tuple[int, int]:
    """Octet-String-to-Elliptic-Curve-Point (SEC 1 v2 §2.3.4), rejecting O and points off the curve.

    Accepts the uncompressed (04 || X || Y) and compressed (02/03 || X) forms.
    Raises ``ValueError`` naming what is wrong.
    """
    L = curve.byte_length
    if not data:
        raise ValueError(
            f"Invalid point encoding (empty) for {curve.name}; accepted: 04||X||Y or 02/03||X"
        )
    prefix = data[0]
    if prefix == 0x04 and len(data) == 1 + 2 * L:
        x = int.from_bytes(data[1 : 1 + L], "big")
        y = int.from_bytes(data[1 + L :], "big")
        if x >= curve.p or y >= curve.p:
            raise ValueError(f"Invalid point for {curve.name}: coordinate not below p")
        if not is_on_curve(curve, (x, y)):
            raise ValueError(f"Invalid point for {curve.name}: not on the curve")
        return (x, y)
    if prefix in (0x02, 0x03) and len(data) == 1 + L:
        x = int.from_bytes(data[1:], "big")
        if x >= curve.p:
            raise ValueError(f"Invalid point for {curve.name}: x not below p")
        F = curve.field
        rhs = F.add(F.mul(F.add(F.sqr(x), curve.a), x), curve.b)
        y = F.sqrt(rhs)
        if y is None:
            raise ValueError(
                f"Invalid compressed point for {curve.name}: x³ + ax + b is not a square"
            )
        if (y & 1) != (prefix & 1):
            y = (curve.p - y) % curve.p
        return (x, y)
    if prefix == 0x00 and len(data) == 1:
        raise ValueError(f"Invalid point for {curve.name}: the point at infinity")
    raise ValueError(
        f"Invalid point encoding (prefix 0x{prefix:02x}, {len(data)} bytes) for {curve.name}; "
        f"accepted: 04||X||Y ({1 + 2 * L} bytes) or 02/03||X ({1 + L} bytes)"
    )


def validate_public_key(curve: WeierstrassCurve, Q: AffinePoint) -> tuple[int, int]:
    """Full public-key validation (NIST SP 800-56A Rev. 3 §5.6.2.3.3).

    1. Q ≠ O; 2. 0 ≤ x, y < p; 3. Q on the curve; 4. n·Q = O. Step 4 is
    implied by step 3 when the cofactor is 1 (every point then has order n),
    so it is computed only for h > 1.
    """
    if Q is None:
        raise ValueError(f"Invalid public key for {curve.name}: the point at infinity")
    if not is_on_curve(curve, Q):
        raise ValueError(
            f"Invalid public key for {curve.name}: not on the curve or coordinates out of range"
        )
    if curve.h != 1 and scalar_mult(curve, curve.n, Q) is not None:
        raise ValueError(f"Invalid public key for {curve.name}: not in the subgroup of order n")
    return Q
