"""CycloneCRYPTO's generic multi-precision arithmetic in its own shape (bignum ``cy-mont-mul``,
``cy-mod``: refbench/kernels/bignum/mpi_cyclone.h) against plain Python integers: the Montgomery
product a b 2^(-32k) mod n and the remainder of a 2k-word number, on edge cases of the carry
propagation and the bit-serial reduction and on seeded random operands, on the Cortex-M0+ and
Cortex-M4, at 256 and 1024 bits. The reduction's cost grows with the modulus' length squared
(one shift and compare per bit of the quotient, over the number's words): checked by cycles."""

from __future__ import annotations

import hashlib
from functools import cache

import pytest

from refbench.kernels.catalog import family
from refbench.kernels.harness import KernelHarness
from refbench.kernels.references import prepare, reference

CORES = ("m0plus", "m4")


@cache
def harness(core: str) -> KernelHarness:
    return KernelHarness("bignum", "c32", core)


def le(x: int, size: int) -> bytes:
    return x.to_bytes(size, "little")


def seeded(label: str, size: int) -> bytes:
    return hashlib.shake_256(label.encode()).digest(size)


def operands(size: int) -> list[tuple[str, dict[str, bytes]]]:
    ones = (1 << (8 * size)) - 1  # all-ones limbs: every carry ripples through the propagation loops
    low = (1 << (8 * size - 1)) + 1  # the top bit alone: the largest quotient words
    out = [("zero", {"a": le(0, size), "b": le(0, size), "modulus": le(ones, size)}),
           ("one", {"a": le(1, size), "b": le(1, size), "modulus": le(low, size)}),
           ("n-1", {"a": le(ones - 1, size), "b": le(ones - 1, size), "modulus": le(ones, size)}),
           ("2^k+1", {"a": le(low - 1, size), "b": le(low - 2, size), "modulus": le(low, size)})]
    for i in range(3):
        out.append((f"random{i}", {r: seeded(f"cy/{r}/{size}/{i}", size) for r in ("a", "b", "modulus")}))
    return out


def expected(operation: str, inputs: dict[str, bytes]) -> bytes:
    n, a, b = (int.from_bytes(inputs[r], "little") for r in ("modulus", "a", "b"))
    size = len(inputs["a"])
    if operation == "cy-mod":
        return le((a + (b << (8 * size))) % n, size)
    if operation == "cy-mont-red":
        return le(a * pow(1 << (8 * size), -1, n) % n, size)
    return le(a * b * pow(1 << (8 * size), -1, n) % n, size)


@pytest.mark.parametrize("core", CORES)
@pytest.mark.parametrize("operation", ["cy-mont-mul", "cy-mont-red", "cy-mod"])
@pytest.mark.parametrize("size", [32, 128])
def test_cyclone_shape_equals_integers(core, operation, size, subtests):
    h = harness(core)
    for label, raw in operands(size):
        with subtests.test(msg=f"{operation}:{core}:{size}B:{label}"):
            inputs = prepare_for(operation, raw)
            # the reference the run is verified against is the plain-integer answer
            assert reference_for(operation)(inputs)["r"] == expected(operation, inputs)
            run = h.run(raw, operation)
            assert run.verified, run.mismatch


def reference_name(operation: str) -> str:
    return next(o for o in family("bignum").operations if o.name == operation).reference


def prepare_for(operation: str, raw: dict[str, bytes]) -> dict[str, bytes]:
    return prepare(reference_name(operation))(raw)


def reference_for(operation: str):
    return reference(reference_name(operation))


def test_the_reference_of_the_reduction_is_the_remainder_of_the_wide_number():
    raw = {r: seeded(f"ref/{r}", 32) for r in ("a", "b", "modulus")}
    inputs = prepare("mont-mod-wide")(raw)
    n, a, b = (int.from_bytes(inputs[r], "little") for r in ("modulus", "a", "b"))
    assert int.from_bytes(reference("mont-mod-wide")(inputs)["r"], "little") == (a + (b << 256)) % n


def test_bit_serial_reduction_costs_grow_with_the_square_of_the_length():
    h = harness("m4")
    cycles = {size: h.run({r: seeded(f"cost/{r}/{size}", size) for r in ("a", "b", "modulus")}, "cy-mod").cycles
              for size in (32, 64)}
    raw = {r: seeded(f"cost/{r}/64", 64) for r in ("a", "b", "modulus")}
    mont, red = h.run(raw, "cy-mont-mul").cycles, h.run(raw, "cy-mont-red").cycles
    # the reduction's rows multiply by one word instead of k: between a third and three quarters of the product
    assert 0.33 * mont < red < 0.75 * mont
    # twice the words: twice the bits to shift out, each over twice the words
    assert 3.0 < cycles[64] / cycles[32] < 5.0
    # one bit-serial reduction of a 2k-word number is several Montgomery products of k words
    assert cycles[64] > 3 * mont


FIELD_PRIMES = {"p256": 2**256 - 2**224 + 2**192 + 2**96 - 1, "p384": 2**384 - 2**128 - 2**96 + 2**32 - 1,
                "p521": 2**521 - 1}


@pytest.mark.parametrize("core", CORES)
@pytest.mark.parametrize("field", sorted(FIELD_PRIMES))
def test_cyclone_field_products_equal_integers(core, field, subtests):
    """cy-<field>-mul/sqr (ecScalarMul / ecScalarSqr's Comba columns, then the special reduction):
    a b mod p and a^2 mod p on edge cases of the column carries (all-ones words below p) and random."""
    p = FIELD_PRIMES[field]
    size = (p.bit_length() + 31) // 32 * 4
    values = [0, 1, p - 1, p - 2, (1 << (p.bit_length() - 1)) - 1,
              *(int.from_bytes(seeded(f"{field}/{i}", size), "little") % p for i in range(3))]
    h = harness(core)
    for i, a in enumerate(values):
        b = values[-1 - i]
        raw = {"a": le(a, size), "b": le(b, size)}
        for op, want in ((f"cy-{field}-mul", a * b % p), (f"cy-{field}-sqr", a * a % p)):
            with subtests.test(msg=f"{op}:{core}:{i}"):
                inputs = prepare_for(op, raw)
                assert int.from_bytes(reference_for(op)(inputs)["r"], "little") == want
                run = h.run(raw, op)
                assert run.verified, run.mismatch


@pytest.mark.parametrize("core", CORES)
@pytest.mark.parametrize("operation", ["cy-ec-add", "cy-ec-sub", "cy-bp-mul", "cy-bp-sqr"])
@pytest.mark.parametrize("size", [32, 48, 68])
def test_cyclone_field_additions_and_barrett_products_equal_integers(core, operation, size, subtests):
    """ecFieldAddMod / ecFieldSubMod and the brainpool Barrett product (mu computed by the setup) on the
    edge cases above (an all-ones modulus, one just above 2^(k-1)) and random ones, up to P-521's 17 words."""
    h = harness(core)
    for label, raw in operands(size):
        with subtests.test(msg=f"{operation}:{core}:{size}B:{label}"):
            inputs = prepare_for(operation, raw)
            n, a, b = (int.from_bytes(inputs[r], "little") for r in ("modulus", "a", "b"))
            want = {"cy-ec-add": a + b, "cy-ec-sub": a - b, "cy-bp-mul": a * b, "cy-bp-sqr": a * a}[operation] % n
            assert int.from_bytes(reference_for(operation)(inputs)["r"], "little") == want
            run = h.run(raw, operation)
            assert run.verified, run.mismatch


def test_barrett_operands_beyond_the_context_are_refused_before_any_call():
    with pytest.raises(ValueError, match="Barrett field product"):
        prepare_for("cy-bp-mul", {r: bytes(76) for r in ("a", "b", "modulus")})


ASM_CORES = tuple(c for c in ("m3", "m4", "m33") if family("bignum").variant("cy_asm").supports(c))


@cache
def asm_harness(core: str) -> KernelHarness:
    return KernelHarness("bignum", "cy_asm", core)


@pytest.mark.parametrize("core", ASM_CORES)
@pytest.mark.parametrize("operation", ["cy-mont-mul", "cy-mont-red"])
@pytest.mark.parametrize("size", [36, 128])
def test_assembly_core_equals_integers(core, operation, size, subtests):
    """bignum/cy_asm (mpiMulAccCore in hand-written assembly, the MPI_ASM_SUPPORT shape) gives the
    same Montgomery products: 9 words run the one-word steps before a pass of four, 32 words passes
    only, cy-mont-red's one-word rows the one-word step alone; all-ones operands ripple every carry."""
    h = asm_harness(core)
    for label, raw in operands(size):
        with subtests.test(msg=f"{operation}:{core}:{size}B:{label}"):
            run = h.run(raw, operation)
            assert run.verified, run.mismatch


def executed(h: KernelHarness, mnemonic: str) -> int:
    counts = h.last_call.block_counts
    return sum(c * sum(i.mnemonic == mnemonic for i in h.machine.block(addr).insns) for addr, c in counts.items())


@pytest.mark.parametrize("size", [36, 128])
def test_assembly_core_is_one_umlal_per_word_product(size):
    """cy_asm's rows are the assembly core: one UMLAL per word product (k rows of k words for a b and
    k of k for q p: 2 k^2; cy-mont-red's b is one word: k + k^2), and no UMAAL (the library's
    ARMv7-M file runs on the Cortex-M3); fewer cycles than the C core on the M4."""
    k = size // 4
    h = asm_harness("m4")
    raw = dict(operands(size))["random0"]
    mul = h.run(raw, "cy-mont-mul")
    assert mul.verified and executed(h, "umlal") == 2 * k * k and executed(h, "umaal") == 0
    red = h.run(raw, "cy-mont-red")
    assert red.verified and executed(h, "umlal") == k + k * k
    assert mul.cycles < harness("m4").run(raw, "cy-mont-mul").cycles
