"""bignum/c29: GF(2^255 - 19) in CycloneCRYPTO's limb shape (9 limbs of 29 bits, c29/fe25519.c)
and GF(2^448 - 2^224 - 1) in its shape (16 limbs of 28 bits, c29/fe448.c) against Python integers, on operands at the limb boundaries (2^29, 2^58, ...), at and next to p,
and seeded random ones; results at the ends of the field. The whole X25519 ladder over it is
checked against `cryptography` by test_kernels_pubkey.py's per-variant tests."""

from __future__ import annotations

import hashlib

import pytest
from field_calls import call, field_harness, le

from cortexm_emu import Buffer
from refbench.kernels import catalog
from refbench.kernels.harness import KernelHarness
from refbench.kernels.references import FIELDS

P = FIELDS["25519"][0]
P448 = FIELDS["448"][0]


def harness(core: str) -> KernelHarness:
    return field_harness("c29", core)


def operands() -> list[int]:
    """0, 1, 19, every limb boundary 2^(29 i) and the all-ones limb below it, the 23-bit top limb
    full, values at and next to p, and seeded random ones."""
    edge = [0, 1, 2, 19, 38, 121666, (P - 1) // 2, P - 1, P - 2, P - 19, P - 20, 2**255 - 20, 2**254]
    edge += [2 ** (29 * i) for i in range(1, 9)] + [2 ** (29 * i) - 1 for i in range(1, 9)]
    edge += [sum((2**29 - 1) << (29 * i) for i in range(8)) % P, (2**23 - 1) << 232]
    return edge + [int.from_bytes(hashlib.shake_256(f"c29 {i}".encode()).digest(32), "little") % P
                   for i in range(16)]


@pytest.mark.parametrize("core", ["m4", "m0plus"])
def test_c29_fe25519_equals_python(core):
    """mul, sqr, add, sub and mul-by-a24 give the canonical residue; cswap swaps exactly when told."""
    h = harness(core)
    values = operands()
    for i, a in enumerate(values):
        assert call(h, "fe25519_sqr", a) == a * a % P, hex(a)
        assert call(h, "fe25519_mul_a24", a) == a * 121665 % P, hex(a)
        for b in values[i::5]:
            assert call(h, "fe25519_mul", a, b) == a * b % P, (hex(a), hex(b))
            assert call(h, "fe25519_add", a, b) == (a + b) % P, (hex(a), hex(b))
            assert call(h, "fe25519_sub", a, b) == (a - b) % P, (hex(a), hex(b))
            assert call(h, "fe25519_sub", b, a) == (b - a) % P, (hex(a), hex(b))
    a, b = values[-1], values[-2]
    for swap in (0, 1):
        result = h.machine.call("fe25519_cswap", Buffer(le(a), "a"), Buffer(le(b), "b"), swap)
        got = (int.from_bytes(result.buffer("a"), "little"), int.from_bytes(result.buffer("b"), "little"))
        assert got == ((b, a) if swap else (a, b))


def test_c29_results_at_the_ends_of_the_field():
    """Products whose residue is 0, 1, 18, 19, 20, p - 20, p - 19 or p - 1 (the final subtraction
    of p at its edges) and differences that wrap below 0."""
    h = harness("m4")
    for i in range(6):
        a = int.from_bytes(hashlib.shake_256(f"c29 edge {i}".encode()).digest(32), "little") % (P - 1) + 1
        for target in (0, 1, 18, 19, 20, P - 20, P - 19, P - 1):
            b = target * pow(a, -1, P) % P
            assert call(h, "fe25519_mul", a, b) == target, (hex(a), hex(b))
        for d in (0, 1, 18, 19, 20):
            assert call(h, "fe25519_sub", a, (a + d) % P) == (-d) % P
            assert call(h, "fe25519_add", a, (P - a + d) % P) == d % P


def operands448() -> list[int]:
    """0, 1, every 28-bit limb boundary 2^(28 i) and the all-ones limbs below it, values next to
    2^224 and p (whose limb 8 is the one not all ones), and seeded random ones."""
    edge = [0, 1, 2, (P448 - 1) // 2, P448 - 1, P448 - 2, 2**224, 2**224 - 1, 2**224 + 1, 2**448 - 2**224 - 2]
    edge += [2 ** (28 * i) for i in range(1, 16)] + [2 ** (28 * i) - 1 for i in range(1, 16)]
    return edge + [int.from_bytes(hashlib.shake_256(f"c29 448 {i}".encode()).digest(56), "little") % P448
                   for i in range(12)]


@pytest.mark.parametrize("core", ["m4", "m0plus"])
def test_c29_fe448_equals_python(core):
    """mul, sqr, add and sub of 2^448 - 2^224 - 1 give the canonical residue, products whose
    residue sits at the ends of the field too (0, 1, 2^224, p - 1: the final subtraction of p)."""
    h = harness(core)
    values = operands448()
    for i, a in enumerate(values):
        assert call(h, "fe448_sqr", a, size=56) == a * a % P448, hex(a)
        for b in values[i::4]:
            assert call(h, "fe448_mul", a, b, size=56) == a * b % P448, (hex(a), hex(b))
            assert call(h, "fe448_add", a, b, size=56) == (a + b) % P448, (hex(a), hex(b))
            assert call(h, "fe448_sub", a, b, size=56) == (a - b) % P448, (hex(a), hex(b))
            assert call(h, "fe448_sub", b, a, size=56) == (b - a) % P448, (hex(a), hex(b))
    a = values[-1]
    for target in (0, 1, 2**224, 2**224 + 1, P448 - 2**224, P448 - 1):
        assert call(h, "fe448_mul", a, target * pow(a, -1, P448) % P448, size=56) == target


def test_c29_switches_only_cyclone_field_code_in():
    """The variant builds the portable C of c32 with FE25519_ASM and FE448_OWN, the guards under
    which fe.h and x25519.h take the 2^255 - 19 and 2^448 - 2^224 - 1 operations from the variant's
    own sources, and runs on every core."""
    variant = catalog.family("bignum").variants["c29"]
    assert variant.defines == ("FE25519_ASM", "FE448_OWN")
    assert [str(s).rsplit("bignum/", 1)[1] for s in variant.sources] == ["c32/bignum.c", "c29/fe25519.c",
                                                                          "c29/fe448.c"]
    assert variant.supports("m0plus") and variant.supports("m4")
