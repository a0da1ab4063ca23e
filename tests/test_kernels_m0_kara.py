"""bignum/m0_kara and m0_kara_loop: Montgomery multiplication and squaring for ARMv6-M in the shape of wolfSSL's
SP Thumb code without WOLFSSL_SP_SMALL (m0_asm/kara.c: Karatsuba in C over an 8-word base in assembly,
m0_asm/kara.S: straight-line in m0_kara, a product-scanning loop in m0_kara_loop; then a word-by-word
reduction), against Python integers at the Karatsuba lengths (16, 32, 64, 128 words) and at lengths that fall
back to m0_asm/mont.S's loops, on the Cortex-M0+ and the Cortex-M3 (where MULS-only multiplication is the
constant-time one); the products' MULS counts (Karatsuba's 3^k base products, not L^2 word products) and
refbench leakage on both variants."""

from __future__ import annotations

import pytest
from test_kernels_m0_asm import executed, moduli, mont_call

from refbench.kernels.harness import KernelHarness
from refbench.leakage.check import analyze
from refbench.leakage.runner import make_target

VARIANTS = ("m0_kara", "m0_kara_loop")


def harness(variant: str, core: str) -> KernelHarness:
    return KernelHarness("bignum", variant, core)


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("core", ["m0plus", "m3"])
@pytest.mark.parametrize("limbs", [1, 8, 16, 32, 33, 64, 128])
def test_m0_kara_montgomery_equals_python(variant, core, limbs):
    """a b R^-1 mod n and a^2 R^-1 mod n, fully reduced, at the Karatsuba lengths and others (1, 8, 33: the
    loops of mont.S), for operands 0, 1, n - 1, n - 2, all-ones words and alternating halves: the half sums'
    carries (a0 + a1 >= 2^(32 h): the masked additions), middle terms of every sign, every 16x16 split."""
    h = harness(variant, core)
    for n in moduli(limbs)[: 2 if limbs >= 64 else None]:
        r_inv = pow(2 ** (32 * limbs), -1, n)
        halves = int("ffff0000" * limbs, 16) % n
        low_ones = (2 ** (16 * limbs) - 1) % n  # one half all ones, the other zero: one carry without the other
        values = [0, 1, n - 1, n - 2, halves, (2 ** (32 * limbs) - 1) % n, n // 3, low_ones]
        step = 1 if limbs < 64 else 3
        for i, a in enumerate(values[::step] if limbs >= 64 else values):
            got, _ = mont_call(h, "bn_mont_sqr", n, limbs, a)
            assert got == a * a * r_inv % n, (variant, limbs, hex(n), hex(a))
            for b in values[i::3]:
                got, _ = mont_call(h, "bn_mont_mul", n, limbs, a, b)
                assert got == a * b * r_inv % n, (variant, limbs, hex(n), hex(a), hex(b))


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("limbs", [16, 32, 64])
def test_m0_kara_products_are_karatsuba_over_8_words(variant, limbs):
    """Counted on the executed code: the product is 3^k 8-word products (k = log2(L / 8)), 64 word
    products of four MULS each; the square 3^k 8-word squares, 28 cross products of four MULS and 8
    squares of three; the reduction mu and four MULS per word step, 4 L^2 + L."""
    h = harness(variant, "m0plus")
    n = moduli(limbs)[3]
    bases = 3 ** ((limbs // 8).bit_length() - 1)
    _, sqr = mont_call(h, "bn_mont_sqr", n, limbs, n // 3)
    _, mul = mont_call(h, "bn_mont_mul", n, limbs, n // 3, n // 5)
    reduction = 4 * limbs**2 + limbs
    assert executed(h, mul, {"muls", "mul"}) == bases * 64 * 4 + reduction
    assert executed(h, sqr, {"muls", "mul"}) == bases * (28 * 4 + 8 * 3) + reduction
    assert sqr.cycles < mul.cycles


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("core", ["m0plus", "m3"])
def test_m0_kara_runs_no_long_multiply(variant, core):
    """Built for the Cortex-M3 too, the instructions the Montgomery calls execute (the assembly, the
    Karatsuba layers' C, mont.S's loops at the other lengths) multiply with MUL/MULS (32-bit result)
    only: no UMULL/UMLAL/SMULL, whose cycles on the M3 depend on the operands (Cortex-M3 TRM 100165_0201
    Table 3-1)."""
    h = harness(variant, core)
    seen: set[str] = set()
    for limbs in (8, 32):
        n = moduli(limbs)[3]
        for function, operands in (("bn_mont_mul", (n // 3, n // 5)), ("bn_mont_sqr", (n // 3,))):
            _, result = mont_call(h, function, n, limbs, *operands)
            seen |= {insn.mnemonic for address in result.block_counts for insn in h.machine.block(address).insns}
    assert seen & {"mul", "muls"}
    assert not seen & {"umull", "umlal", "umaal", "smull", "smlal"}, (variant, core)


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("core", ["m0plus", "m3"])
def test_m0_kara_montgomery_is_constant_time(variant, core):
    """refbench leakage at 1024 bits (the Karatsuba path): every branch and address depends on the length
    only (the carries of the half sums become masks), and MULS/MUL take a fixed time on both cores."""
    for operation in ("mont-mul", "mont-sqr"):
        report = analyze("bignum", variant, operation, make_target(core, None), secrets=4, size=128)
        assert report.verdict == "constant-time", (operation, report.verdict)
        assert not report.memory_findings and not report.control_findings and not report.operand_findings
