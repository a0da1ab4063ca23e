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
"""

from __future__ import annotations

from refbench.ref import opcount
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


__all__ = ["affinify", "dblu", "mul_regular", "zaddc", "zaddu"]
