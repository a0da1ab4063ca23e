"""CycloneCRYPTO's regular scalar multiplication in its own shape, counted field operation by operation.

refbench's own code, written from a reading of Oryx-Embedded/CycloneCRYPTO
62f78fe0a15ea50b4c838970ef7d88d285cc8af3 ("Version 2.5.0"): ecMulRegular (ecc/ec.c:1312), the
Montgomery ladder with co-Z addition formulae (Goundar, Joye, Miyaji, Rivain, Venelli, "Scalar
multiplication on Weierstrass elliptic curves from co-Z arithmetic", J. Cryptogr. Eng. 1(2),
2011) that the library runs for key generation (ec.c:226 ecGeneratePublicKey), ECDSA signing
(ecc/ecdsa.c:593) and the ECDH shared secret (ecc/ecdh.c:368), followed by ecAffinify (ec.c:749).
The step functions follow ecDblu, ecZaddc and ecZaddu (ecc/ec_misc.c:1625, :1535, :1466) field
operation for field operation, on the curve's counting field (refbench/ref/modarith.py
PrimeField: every multiplication, squaring, addition and subtraction reported to opcount).

Per bit below the top (orderSize - 1 of them, whatever the scalar): one ZADDC, one ZADDU, two
conditional swaps of the three coordinates (ecScalarSwap: six element swaps, opcount cswap) and six
ecScalarSelect of a coordinate (counted as three cswap, a swap being priced as two selects).

ECDSA verification (ecc/ecdsa.c:758) is ecTwinMul (ec.c:1418): u1 S + u2 T by a joint signed-digit
recoding of both scalars read five bits ahead (ecTwinMulF, ec_misc.c:1426), one doubling per bit and
an addition or subtraction of S, T, S + T or S - T (precomputed by one full addition and one full
subtraction) where a digit is not zero, then ecAffinify. :func:`twin_mul` follows that control flow;
its doublings and additions are the reference's Jacobian formulas (refbench/ref/weierstrass.py
jacobian_double, jacobian_add: the library's ecDouble and ecAdd are the same standard formulas, a = -3
special-cased), negations as one field subtraction.
"""

from __future__ import annotations

from refbench.ref import opcount, weierstrass
from refbench.ref.curves import WeierstrassCurve

Point3 = tuple[int, int, int]


def dblu(curve: WeierstrassCurve, x: int, y: int) -> tuple[Point3, Point3]:
    """(2P, P') with a common Z = 2y for the affine point P = (x, y), P' = P scaled (ecDblu)."""
    F = curve.field
    t0, t1, t2 = curve.a % curve.p, x, y
    t3 = F.add(t2, t2)
    t2 = F.sqr(t2)
    t4 = F.add(t1, t2)
    t4 = F.sqr(t4)
    t5 = F.sqr(t1)
    t4 = F.sub(t4, t5)
    t2 = F.sqr(t2)
    t4 = F.sub(t4, t2)
    t1 = F.add(t4, t4)
    t0 = F.add(t0, t5)
    t5 = F.add(t5, t5)
    t0 = F.add(t0, t5)
    t4 = F.sqr(t0)
    t5 = F.add(t1, t1)
    t4 = F.sub(t4, t5)
    t2 = F.add(t2, t2)
    t2 = F.add(t2, t2)
    t2 = F.add(t2, t2)
    t5 = F.sub(t1, t4)
    t5 = F.mul(t5, t0)
    t5 = F.sub(t5, t2)
    return (t4, t5, t3), (t1, t2, t3)


def zaddu(curve: WeierstrassCurve, p: Point3, q: Point3) -> tuple[Point3, Point3]:
    """(P + Q, P') for P, Q of the same Z, P' = P with the new Z (ecZaddu)."""
    F = curve.field
    t1, t2, t3 = p
    t4, t5 = q[0], q[1]
    t6 = F.sub(t1, t4)
    t3 = F.mul(t3, t6)
    t6 = F.sqr(t6)
    t1 = F.mul(t1, t6)
    t6 = F.mul(t6, t4)
    t5 = F.sub(t2, t5)
    t4 = F.sqr(t5)
    t4 = F.sub(t4, t1)
    t4 = F.sub(t4, t6)
    t6 = F.sub(t1, t6)
    t2 = F.mul(t2, t6)
    t6 = F.sub(t1, t4)
    t5 = F.mul(t5, t6)
    t5 = F.sub(t5, t2)
    return (t4, t5, t3), (t1, t2, t3)


def zaddc(curve: WeierstrassCurve, p: Point3, q: Point3) -> tuple[Point3, Point3]:
    """(P + Q, P - Q) for P, Q of the same Z, both with the new Z (ecZaddc)."""
    F = curve.field
    t1, t2, t3 = p
    t4, t5 = q[0], q[1]
    t6 = F.sub(t1, t4)
    t3 = F.mul(t3, t6)
    t6 = F.sqr(t6)
    t7 = F.mul(t1, t6)
    t6 = F.mul(t6, t4)
    t1 = F.add(t2, t5)
    t4 = F.sqr(t1)
    t4 = F.sub(t4, t7)
    t4 = F.sub(t4, t6)
    t1 = F.sub(t2, t5)
    t1 = F.sqr(t1)
    t1 = F.sub(t1, t7)
    t1 = F.sub(t1, t6)
    t6 = F.sub(t6, t7)
    t6 = F.mul(t6, t2)
    t2 = F.sub(t2, t5)
    t5 = F.add(t5, t5)
    t5 = F.add(t2, t5)
    t7 = F.sub(t7, t4)
    t5 = F.mul(t5, t7)
    t5 = F.add(t5, t6)
    t7 = F.add(t4, t7)
    t7 = F.sub(t7, t1)
    t2 = F.mul(t2, t7)
    t2 = F.add(t2, t6)
    return (t1, t2, t3), (t4, t5, t3)


def affinify(curve: WeierstrassCurve, r: Point3) -> tuple[int, int] | None:
    """(X / Z^2, Y / Z^3), None for Z = 0 (ecAffinify: one inversion, one squaring, three products)."""
    F = curve.field
    x, y, z = r
    if z == 0:
        return None
    a = F.inv(z)
    b = F.sqr(a)
    rx = F.mul(b, x)
    b = F.mul(b, a)
    return rx, F.mul(b, y)


def mul_regular(curve: WeierstrassCurve, d: int, s: tuple[int, int]) -> tuple[int, int] | None:
    """[d] S for an affine point S and 0 < d < n by ecMulRegular then ecAffinify."""
    if not 0 < d < curve.n:
        raise ValueError(f"Invalid scalar: expected 0 < d < n, got {d}")
    bits = curve.n.bit_length()
    init = (d >> (bits - 1)) & 1
    p0, q0 = dblu(curve, *s)
    p, q = p0, q0
    for i in range(bits - 2, -1, -1):
        b = (d >> i) & 1
        opcount.cswap(3)
        if b:
            p, q = q, p
        p, q = zaddc(curve, q, p)
        q, p = zaddu(curve, p, q)
        opcount.cswap(3)
        if b:
            p, q = q, p
        opcount.cswap(3)  # six ecScalarSelect: while no bit has been set, the state stays (P0, Q0)
        if not init:
            p, q = p0, q0
        init |= b
    return affinify(curve, q)


def _twin_f(t: int) -> int:
    """ecTwinMulF: the threshold of the joint recoding."""
    if 18 <= t < 22:
        return 9
    if 14 <= t < 18:
        return 10
    if 22 <= t < 24:
        return 11
    if 4 <= t < 12:
        return 14
    return 12


def twin_mul(curve: WeierstrassCurve, d0: int, s: tuple[int, int], d1: int, t: tuple[int, int]) -> tuple[int, int] | None:
    """d0 S + d1 T for affine S, T and scalars 0 <= d0, d1 < n, by ecTwinMul then ecAffinify."""
    F = curve.field

    def neg(P: tuple[int, int, int]) -> tuple[int, int, int]:
        return P if P[2] == 0 else (P[0], F.neg(P[1]), P[2])

    S, T = weierstrass.to_jacobian(s), weierstrass.to_jacobian(t)
    spt = weierstrass.jacobian_add(curve, S, T)
    smt = weierstrass.jacobian_add(curve, S, neg(T))
    m = max(d0.bit_length(), d1.bit_length())

    def bit(d: int, i: int) -> int:
        return (d >> i) & 1 if i >= 0 else 0

    c0 = sum(bit(d0, m - 4 + j) << j for j in range(4))
    c1 = sum(bit(d1, m - 4 + j) << j for j in range(4))
    points = {(-1, -1): neg(spt), (-1, 0): neg(S), (-1, 1): neg(smt), (0, -1): neg(T), (0, 1): T,
              (1, -1): smt, (1, 0): S, (1, 1): spt}
    r = weierstrass.INFINITY
    for k in range(m, -1, -1):
        h0 = 31 - (c0 & 0x1F) if c0 & 0x20 else c0 & 0x1F
        h1 = 31 - (c1 & 0x1F) if c1 & 0x20 else c1 & 0x1F
        u0 = 0 if h0 < _twin_f(h1) else (-1 if c0 & 0x20 else 1)
        u1 = 0 if h1 < _twin_f(h0) else (-1 if c1 & 0x20 else 1)
        c0 = ((c0 << 1) | bit(d0, k - 5)) ^ (0x20 if u0 else 0)
        c1 = ((c1 << 1) | bit(d1, k - 5)) ^ (0x20 if u1 else 0)
        r = weierstrass.jacobian_double(curve, r)
        if (u0, u1) != (0, 0):
            r = weierstrass.jacobian_add(curve, r, points[(u0, u1)])
    return affinify(curve, r)


__all__ = ["affinify", "dblu", "mul_regular", "twin_mul", "zaddc", "zaddu"]
