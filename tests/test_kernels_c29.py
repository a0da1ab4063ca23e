"""bignum/c29: CycloneCRYPTO's own field code -- GF(2^255 - 19) in 9 limbs of 29 bits
(c29/fe25519.c) and GF(2^448 - 2^224 - 1) in 16 limbs of 28 bits (c29/fe448.c), limbs in and limbs
out -- against Python integers, on operands at the limb boundaries, at and next to p, and seeded
random ones; results at the ends of the field; chains of calls on the partly reduced limbs the
previous call left (as the library chains them). The whole X25519 over it (conversion at its ends
only) is checked against `cryptography` by test_kernels_pubkey.py's per-variant tests, and every
field operation through the harness's conversion by its test_field_equals_reference_and_integers."""

from __future__ import annotations

import hashlib

import pytest
from field_calls import field_harness

from cortexm_emu import Buffer
from refbench.kernels import catalog
from refbench.kernels.harness import KernelHarness
from refbench.kernels.references import FIELDS
from refbench.kernels.representation import from_limbs, to_limbs

P = FIELDS["25519"][0]
P448 = FIELDS["448"][0]
#: field -> (C prefix, bits per limb, limbs)
SHAPES = {"25519": ("fe25519", 29, 9), "448": ("fe448", 28, 16)}


def harness(core: str) -> KernelHarness:
    return field_harness("c29", core)


def limbs(field: str, x: int) -> bytes:
    _, bits, count = SHAPES[field]
    return to_limbs(x.to_bytes(FIELDS[field][1], "little"), bits, count)


def value(field: str, data: bytes) -> int:
    return int.from_bytes(from_limbs(data, SHAPES[field][1], field), "little")


def call(h: KernelHarness, field: str, op: str, *operands: int | bytes) -> bytes:
    """``<prefix>_<op>(r, a, b)`` on limbs (an int operand is converted, bytes are passed as they
    are: a previous call's limbs); the limbs it writes to ``r``."""
    prefix, _, count = SHAPES[field]
    args = [Buffer(x if isinstance(x, bytes) else limbs(field, x)) for x in operands]
    return h.machine.call(f"{prefix}_{op}", Buffer(bytes(4 * count), "r"), *args).buffer("r")


def operands(field: str) -> list[int]:
    """0, 1, every limb boundary 2^(bits i) and the all-ones limb below it, values at and next to
    p (and 2^224 for 448), and seeded random ones."""
    p = FIELDS[field][0]
    _, bits, count = SHAPES[field]
    edge = [0, 1, 2, 19, (p - 1) // 2, p - 1, p - 2, p - 19, p - 20]
    edge += [2 ** (bits * i) for i in range(1, count)] + [2 ** (bits * i) - 1 for i in range(1, count)]
    edge += [2**224, 2**224 - 1, 2**224 + 1] if field == "448" else [121666, 2**254, 2**255 - 20]
    size = FIELDS[field][1]
    return edge + [int.from_bytes(hashlib.shake_256(f"c29 {field} {i}".encode()).digest(size), "little") % p
                   for i in range(12)]


@pytest.mark.parametrize("field", ["25519", "448"])
@pytest.mark.parametrize("core", ["m4", "m0plus"])
def test_c29_field_operations_equal_python(core, field):
    """mul, sqr, add and sub (and the multiplications by X25519's and X448's a24) give limbs of the right residue."""
    h = harness(core)
    p = FIELDS[field][0]
    values = operands(field)
    for i, a in enumerate(values):
        assert value(field, call(h, field, "sqr", a)) == a * a % p, hex(a)
        if field == "25519":
            assert value(field, call(h, field, "mul_a24", a)) == a * 121665 % p, hex(a)
        else:
            assert value(field, call(h, field, "mul_const", a)) == a * 39081 % p, hex(a)
        for b in values[i::5]:
            assert value(field, call(h, field, "mul", a, b)) == a * b % p, (hex(a), hex(b))
            assert value(field, call(h, field, "add", a, b)) == (a + b) % p, (hex(a), hex(b))
            assert value(field, call(h, field, "sub", a, b)) == (a - b) % p, (hex(a), hex(b))
            assert value(field, call(h, field, "sub", b, a)) == (b - a) % p, (hex(a), hex(b))


@pytest.mark.parametrize("field", ["25519", "448"])
def test_c29_chains_on_partly_reduced_limbs(field):
    """Two hundred calls, each taking the limbs the previous calls left (partly reduced, a
    subtraction's possibly negative), as the library's ladder chains them, stay equal to Python's."""
    h = harness("m4")
    p = FIELDS[field][0]
    want_x, want_y = operands(field)[-2:]
    x, y = limbs(field, want_x), limbs(field, want_y)
    for step in range(50):
        d, want_d = call(h, field, "sub", x, y), (want_x - want_y) % p
        x, want_x = call(h, field, "sqr", d), want_d * want_d % p
        s, want_s = call(h, field, "add", x, y), (want_x + want_y) % p
        y, want_y = call(h, field, "mul", s, d), want_s * want_d % p
        assert (value(field, d), value(field, x), value(field, y)) == (want_d, want_x, want_y), step


def test_c29_results_at_the_ends_of_the_field():
    """Products whose residue is 0, 1, 18, 19, 20, p - 20, p - 19 or p - 1 (25519) and 0, 1,
    2^224, p - 2^224, p - 1 (448); differences that wrap below 0."""
    h = harness("m4")
    for field, targets in (("25519", (0, 1, 18, 19, 20, P - 20, P - 19, P - 1)),
                           ("448", (0, 1, 2**224, 2**224 + 1, P448 - 2**224, P448 - 1))):
        p, size, _ = FIELDS[field]
        for i in range(4):
            a = int.from_bytes(hashlib.shake_256(f"c29 edge {field} {i}".encode()).digest(size), "little") % (p - 1) + 1
            for target in targets:
                assert value(field, call(h, field, "mul", a, target * pow(a, -1, p) % p)) == target, hex(a)
            for d in (0, 1, 18, 19, 20):
                assert value(field, call(h, field, "sub", a, (a + d) % p)) == (-d) % p
                assert value(field, call(h, field, "add", a, (p - a + d) % p)) == d % p


def test_c29_cswap_swaps_exactly_when_told():
    h = harness("m0plus")
    a, b = operands("25519")[-2:]
    for swap in (0, 1):
        result = h.machine.call("fe25519_cswap", Buffer(limbs("25519", a), "a"), Buffer(limbs("25519", b), "b"), swap)
        got = (value("25519", result.buffer("a")), value("25519", result.buffer("b")))
        assert got == ((b, a) if swap else (a, b))


def test_c29_switches_cyclone_field_code_in_and_says_its_limbs():
    """The variant builds the portable C of c32 with FE25519_ASM, X25519_OWN, FE448_OWN and FE_SM2_OWN
    (the guards under which fe.h and x25519.h take the 2^255 - 19, 2^448 - 2^224 - 1 and SM2 operations and
    the X25519 ladder from the variant's own sources), says its limbs in its manifest (SM2 keeps whole
    words: none), and runs on every core."""
    variant = catalog.family("bignum").variants["c29"]
    assert set(variant.defines) == {"FE25519_ASM", "X25519_OWN", "FE448_OWN", "FE_SM2_OWN"}
    assert [str(s).rsplit("bignum/", 1)[1] for s in variant.sources] == ["c32/bignum.c", "c29/fe25519.c",
                                                                          "c29/fe448.c", "c29/ec_sm2_curve.c"]
    assert dict(variant.limbs) == {field: bits for field, (_, bits, _) in SHAPES.items()}
    assert variant.supports("m0plus") and variant.supports("m4")


@pytest.mark.parametrize("core", ["m33", "m0plus"])
def test_c29_sm2_field_in_cyclones_ec_shape_equals_python(core):
    """SM2's mul, sqr, add and sub (ec_cyclone.h with FE_SM2_OWN: the NIST curves' Comba product, square and
    addition loops at the length read from c29/ec_sm2_curve.c's record at run time, the reduction through the
    record's function pointer) on canonical words: edge values around p, the
    words 2^(32 i) and all-ones words (every carry of the reduction's passes), and random ones."""
    h = harness(core)
    p = FIELDS["sm2"][0]
    edge = [0, 1, 2, p - 1, p - 2, (p - 1) // 2, 2**224, 2**255, p - 2**224, 2**256 - 2**224 - 2**96 - 1]
    edge += [2 ** (32 * i) for i in range(1, 8)] + [2 ** (32 * i) - 1 for i in range(1, 8)]
    values = edge + [int.from_bytes(hashlib.shake_256(f"c29 sm2 {i}".encode()).digest(32), "little") % p
                     for i in range(10)]

    def run(name, *operands):
        args = [Buffer(x.to_bytes(32, "little")) for x in operands]
        out = h.machine.call(f"fe_sm2_{name}", Buffer(bytes(32), "r"), *args).buffer("r")
        return int.from_bytes(out, "little")

    for i, a in enumerate(values):
        assert run("sqr", a) == a * a % p, hex(a)
        for b in values[i::3]:
            assert run("mul", a, b) == a * b % p, (hex(a), hex(b))
            assert run("add", a, b) == (a + b) % p, (hex(a), hex(b))
            assert run("sub", a, b) == (a - b) % p, (hex(a), hex(b))
            assert run("sub", b, a) == (b - a) % p, (hex(a), hex(b))


@pytest.mark.parametrize("core", ["m33", "m0plus"])
def test_one_out_of_line_comba_product_and_square_serve_every_length(core):
    """ec_cyclone.h's ecScalarMul and ecScalarSqr (the NIST curves', brainpool's Barrett and, with FE_SM2_OWN,
    SM2's products) are one out-of-line function each, as the library's weak functions are, taking the length
    at run time: called directly at the NIST, SM2 and Barrett lengths they give the double-length product, the
    high half alone when rl is NULL and the low half alone when rh is NULL."""
    h = harness(core)

    def words(tag: str, n: int) -> int:
        return int.from_bytes(hashlib.shake_256(f"c29 comba {tag} {n}".encode()).digest(4 * n), "little")

    for n in (8, 9, 12, 13, 17, 18):
        a, b = words("a", n), words("b", n)
        a_top = (1 << (32 * n)) - 1  # all-ones words: every column's carry accumulator at its largest
        for x, y in ((a, b), (a_top, a_top), (a_top, b)):
            out = h.machine.call("cy_ec_scalar_mul", Buffer(bytes(4 * n), "rl"), Buffer(bytes(4 * n), "rh"),
                                 Buffer(x.to_bytes(4 * n, "little")), Buffer(y.to_bytes(4 * n, "little")), n)
            low, high = (int.from_bytes(out.buffer(k), "little") for k in ("rl", "rh"))
            assert low + (high << (32 * n)) == x * y, (n, hex(x), hex(y))
            high_only = h.machine.call("cy_ec_scalar_mul", 0, Buffer(bytes(4 * n), "rh"),
                                       Buffer(x.to_bytes(4 * n, "little")), Buffer(y.to_bytes(4 * n, "little")), n)
            assert int.from_bytes(high_only.buffer("rh"), "little") == x * y >> (32 * n), n
            low_only = h.machine.call("cy_ec_scalar_mul", Buffer(bytes(4 * n), "rl"), 0,
                                      Buffer(x.to_bytes(4 * n, "little")), Buffer(y.to_bytes(4 * n, "little")), n)
            assert int.from_bytes(low_only.buffer("rl"), "little") == x * y % (1 << (32 * n)), n
            sq = h.machine.call("cy_ec_scalar_sqr", Buffer(bytes(8 * n), "r"), Buffer(x.to_bytes(4 * n, "little")), n)
            assert int.from_bytes(sq.buffer("r"), "little") == x * x, (n, hex(x))
