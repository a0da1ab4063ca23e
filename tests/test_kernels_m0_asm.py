"""bignum/m0_asm: the hand-written ARMv6-M GF(2^255 - 19) assembly (m0_asm/fe25519.S) against
Python integers on operands that reach every carry of its chains and every sign of its Karatsuba
middle products, on the cores it is meant for
(Cortex-M0+, Cortex-M0, and the Cortex-M3, where its MULS-only multiplication is the
constant-time one), and its Montgomery multiplication and squaring at run-time length
(m0_asm/mont.S, wolfSSL SP Thumb's shape) against Python integers at every length class, and P-256's
Montgomery-form multiplication and squaring (m0_asm/p256_mont.S, the same build's sp_256_mont_mul_8 shape). The whole
X25519 ladder over it is checked against `cryptography` by test_kernels_pubkey.py's per-variant tests."""

from __future__ import annotations

import hashlib

import pytest
from field_calls import call, field_harness, le
from test_kernels_pubkey import mont_ctx

from cortexm_emu import Buffer
from refbench.kernels import catalog
from refbench.kernels.harness import KernelHarness
from refbench.kernels.references import FIELDS
from refbench.leakage.check import analyze
from refbench.leakage.runner import make_target

P = FIELDS["25519"][0]


def harness(core: str) -> KernelHarness:
    return field_harness("m0_asm", core)


def operands() -> list[int]:
    """0, 1, word and half-word boundaries (the 16x16 splits), values at and next to p, all-ones
    limbs below p, single top bits, and seeded random ones."""
    edge = [0, 1, 2, 19, 0xffff, 0x10000, 2**32 - 1, 2**64 - 1, 2**224, 2**254, 2**255 - 20, P - 1, P - 2,
            P - 19, P - 38, (2**255 - 1) // 3, 2**128 - 1, P - 2**128, 121666, (P - 1) // 2,
            int("ffff0000" * 8, 16) % P, int("0000ffff" * 8, 16)]
    return edge + [int.from_bytes(hashlib.shake_256(f"m0 asm {i}".encode()).digest(32), "little") % P
                   for i in range(20)]


@pytest.mark.parametrize("core", ["m0plus", "m0", "m3"])
def test_m0_asm_fe25519_equals_python(core):
    """mul, sqr, add, sub and mul-by-a24 give the canonical residue for products near 2^510,
    sums near 2p and differences near -p; cswap swaps exactly when told to."""
    h = harness(core)
    values = operands()
    for i, a in enumerate(values):
        assert call(h, "fe25519_sqr", a) == a * a % P, hex(a)
        assert call(h, "fe25519_mul_a24", a) == a * 121665 % P, hex(a)
        for b in values[i::4]:
            assert call(h, "fe25519_mul", a, b) == a * b % P, (hex(a), hex(b))
            assert call(h, "fe25519_add", a, b) == (a + b) % P, (hex(a), hex(b))
            assert call(h, "fe25519_sub", a, b) == (a - b) % P, (hex(a), hex(b))
            assert call(h, "fe25519_sub", b, a) == (b - a) % P, (hex(a), hex(b))
    a, b = values[-1], values[-2]
    for swap in (0, 1):
        result = h.machine.call("fe25519_cswap", Buffer(le(a), "a"), Buffer(le(b), "b"), swap)
        got = (int.from_bytes(result.buffer("a"), "little"), int.from_bytes(result.buffer("b"), "little"))
        assert got == ((b, a) if swap else (a, b))


def test_m0_asm_is_built_for_every_core_and_switches_the_field_code_in():
    """The variant lists no cores (ARMv6-M code runs on every later core) and defines
    FE25519_ASM, FE_P256_MUL_ASM, MONT_ASM, P256_MONT_MUL_ASM and FE_P256_ADD_ASM, the guards of fe.h,
    x25519.h, mont.h and p256_mont.h that declare the assembly functions."""
    variant = catalog.family("bignum").variants["m0_asm"]
    assert variant.cores is None
    assert variant.defines == ("FE25519_ASM", "FE_P256_MUL_ASM", "MONT_ASM", "P256_MONT_MUL_ASM", "FE_P256_ADD_ASM")
    for source in ("m0_asm/fe25519.S", "m0_asm/mont.S", "m0_asm/p256_mont.S"):
        assert any(s.endswith(source) for s in map(str, variant.sources)), source


@pytest.mark.parametrize("core", ["m0plus", "m3"])
def test_m0_asm_has_no_long_multiply_on_any_core(core):
    """Built for the Cortex-M3 too, the variant's hand-written functions (every ``.global`` of its ``.S``
    sources) multiply with MUL/MULS (32-bit result) only: no UMULL/UMLAL/SMULL, whose cycles on the M3
    depend on the operands (Cortex-M3 TRM 100165_0201 Table 3-1). (The C every variant compiles, such as
    CycloneCRYPTO's portable products, is the compiler's and may use them.)"""
    import re

    import capstone
    from elftools.elf.elffile import ELFFile

    variant = catalog.family("bignum").variant("m0_asm")
    own = {name for source in variant.sources if str(source).endswith(".S")
           for name in re.findall(r"^\s*\.globa?l\s+(\w+)", source.read_text(), re.M)}
    assert {"fe25519_mul", "fe25519_sqr"} <= own
    elf = catalog.build_variant(variant, core).elf
    with elf.open("rb") as f:
        e = ELFFile(f)
        text = e.get_section_by_name(".text")
        code, address = text.data(), text["sh_addr"]
        # a function runs to the next function's start (hand-written ones carry no .size)
        starts = sorted({(s["st_value"] & ~1, s.name) for s in e.get_section_by_name(".symtab").iter_symbols()
                         if s["st_info"]["type"] == "STT_FUNC"} | {(address + len(code), "")})
    spans = [(start, end - start) for (start, name), (end, _) in zip(starts, starts[1:]) if name in own]
    assert len(spans) == len(own)
    cs = capstone.Cs(capstone.CS_ARCH_ARM, capstone.CS_MODE_THUMB | capstone.CS_MODE_MCLASS)
    mnemonics = {insn.mnemonic for start, size in spans
                 for insn in cs.disasm(code[start - address:start - address + size], start)}
    assert mnemonics & {"mul", "muls"}
    assert not mnemonics & {"umull", "umlal", "umaal", "smull", "smlal"}


@pytest.mark.parametrize("core", ["m0plus", "m3"])
def test_m0_asm_p256_product_equals_python(core):
    """P-256 multiplication and squaring over the assembly's 512-bit product and square (and
    the product alone) give the right values for operands at and next to p and words of all
    ones, where every column of the product carries."""
    p = FIELDS["p256"][0]
    h = harness(core)
    values = [0, 1, 2**32 - 1, p - 1, p - 2, 2**256 - 2**224 - 1, 2**255, 2**192 - 1, p - 2**96,
              int("ffffffff" * 4 + "00000000" * 4, 16) % p, int("00000000ffffffff" * 4, 16)]
    values += [int.from_bytes(hashlib.shake_256(f"m0 asm p256 {i}".encode()).digest(32), "little") % p
               for i in range(10)]
    for i, a in enumerate(values):
        assert call(h, "fe_p256_sqr", a) == a * a % p, hex(a)
        wide = h.machine.call("fe_sqr8_wide", Buffer(bytes(64), "t"), Buffer(le(a)))
        assert int.from_bytes(wide.buffer("t"), "little") == a * a, hex(a)
        for b in values[i::3]:
            assert call(h, "fe_p256_mul", a, b) == a * b % p, (hex(a), hex(b))
            wide = h.machine.call("fe_mul8_wide", Buffer(bytes(64), "t"), Buffer(le(a)), Buffer(le(b)))
            assert int.from_bytes(wide.buffer("t"), "little") == a * b, (hex(a), hex(b))


@pytest.mark.parametrize("core", ["m0plus", "m3"])
def test_m0_asm_fe25519_results_at_the_ends_of_the_field(core):
    """Products whose residue is 0, 1, 18, 19, 20, p - 20, p - 19 or p - 1, and sums from p - 1
    to 2p - 2: the last pass's choice between S - 19 and S - 2^255 (S + 19 q, S - 2^255 q for
    the sum) at its edges, for seeded operands."""
    h = harness(core)
    for i in range(8):
        a = int.from_bytes(hashlib.shake_256(f"m0 asm edge {i}".encode()).digest(32), "little") % (P - 1) + 1
        for target in (0, 1, 18, 19, 20, P - 20, P - 19, P - 1):
            b = target * pow(a, -1, P) % P
            assert call(h, "fe25519_mul", a, b) == target, (hex(a), hex(b))
            assert call(h, "fe25519_mul_a24", b) == b * 121665 % P, hex(b)
        # sums from p - 1 to 2^255 + 19 (the carry of S + 19 into bit 255) and differences near 0
        for total in (P - 1, P, P + 1, P + 18, 2**255 - 1, 2**255, 2**255 + 19, 2 * P - 2):
            b = total - a if 0 <= total - a < P else total - (P - 1)
            c = total - b
            assert call(h, "fe25519_add", c, b) == total % P, (hex(c), hex(b))
            assert call(h, "fe25519_sub", c, c) == 0 and call(h, "fe25519_sub", b, c) == (b - c) % P


def karatsuba_operands() -> list[int]:
    """256-bit operands whose halves at every Karatsuba level (128-, 64- and 32-bit pieces) come
    in every order: ascending and descending words, alternating all-ones and zero words and
    double words, equal halves (a zero middle difference), all ones, and seeded random values."""
    ones = 2**32 - 1
    patterns = [[0] * 8, [ones] * 8, [0, ones] * 4, [ones, 0] * 4, [ones, ones, 0, 0] * 2,
                [0, 0, ones, ones] * 2, [ones] * 4 + [0] * 4, [0] * 4 + [ones] * 4,
                list(range(1, 9)), list(range(8, 0, -1)), [0x80000000, 0x7fffffff] * 4, [1, 0] * 4]
    values = [sum(w << (32 * i) for i, w in enumerate(words)) for words in patterns]
    return values + [int.from_bytes(hashlib.shake_256(f"m0 asm karatsuba {i}".encode()).digest(32), "little")
                     for i in range(4)]


@pytest.mark.parametrize("core", ["m0plus", "m3"])
def test_m0_asm_karatsuba_product_for_every_sign_of_the_middle_terms(core):
    """The 512-bit product and square (three Karatsuba levels, each middle product taken as
    |x1 - x0| |y0 - y1| with its sign) equal Python's for operands whose halves are below, equal
    to and above each other at each level, in every pairing."""
    h = harness(core)
    values = karatsuba_operands()
    for a in values:
        wide = h.machine.call("fe_sqr8_wide", Buffer(bytes(64), "t"), Buffer(le(a)))
        assert int.from_bytes(wide.buffer("t"), "little") == a * a, hex(a)
        for b in values:
            wide = h.machine.call("fe_mul8_wide", Buffer(bytes(64), "t"), Buffer(le(a)), Buffer(le(b)))
            assert int.from_bytes(wide.buffer("t"), "little") == a * b, (hex(a), hex(b))


@pytest.mark.parametrize("core", ["m0plus", "m3"])
def test_m0_asm_field_multiplication_is_constant_time(core):
    """refbench leakage on the Karatsuba product: the middle products' signs are masks, so no
    cycle count, data address or branch depends on the operands (on the Cortex-M3 too, where the
    MUL-only code leaves no operand-dependent multiply)."""
    for operation in ("25519-mul", "25519-sqr"):
        report = analyze("bignum", "m0_asm", operation, make_target(core, None), secrets=4)
        assert report.verdict == "constant-time", (operation, report.verdict)
        assert not report.memory_findings and not report.control_findings and not report.operand_findings


# ------------------------------------------------------------------ Montgomery at run-time length


def mont_call(h: KernelHarness, function: str, n: int, limbs: int, *operands: int):
    """``function(ctx, r, a[, b])`` on ``limbs``-word operands: (the integer written to r, the call)."""
    size = 4 * limbs
    result = h.machine.call(function, Buffer(mont_ctx(n, limbs), "ctx"), Buffer(bytes(size), "r"),
                            *(Buffer(x.to_bytes(size, "little")) for x in operands))
    return int.from_bytes(result.buffer("r"), "little"), result


def moduli(limbs: int) -> list[int]:
    """Odd moduli of exactly ``limbs`` words: all ones (every carry of REDC ripples), 2^(32 limbs - 1) + 1
    (the largest quotients), one with zero middle words, and seeded random ones."""
    bits = 32 * limbs
    out = [2**bits - 1, 2 ** (bits - 1) + 1, 2 ** (bits - 1) + 2**16 + 1]
    out += [int.from_bytes(hashlib.shake_256(f"m0 asm mont {limbs} {i}".encode()).digest(4 * limbs), "little")
            | 1 | 2 ** (bits - 1) for i in range(2)]
    return out


@pytest.mark.parametrize("core", ["m0plus", "m0", "m3"])
@pytest.mark.parametrize("limbs", [1, 2, 3, 8, 33, 64, 128])
def test_m0_asm_montgomery_equals_python(core, limbs):
    """bn_mont_mul and bn_mont_sqr give a b R^-1 mod n and a^2 R^-1 mod n, fully reduced, at one
    limb, odd and even lengths and the largest (128 limbs, 4096 bits): the column bounds of the
    product scanning (min(k, limbs - 1), the middle of a square's column) at every length class, and
    operands 0, 1, n - 1, n - 2 and words of all ones and of alternating halves (every 16x16 split)."""
    h = harness(core)
    for n in moduli(limbs)[: 2 if limbs >= 64 else None]:
        r_inv = pow(2 ** (32 * limbs), -1, n)
        halves = int("ffff0000" * limbs, 16) % n
        values = [0, 1, n - 1, n - 2, halves, (2 ** (32 * limbs) - 1) % n, n // 3]
        for i, a in enumerate(values):
            got, _ = mont_call(h, "bn_mont_sqr", n, limbs, a)
            assert got == a * a * r_inv % n, (limbs, hex(n), hex(a))
            for b in values[i::3]:
                got, _ = mont_call(h, "bn_mont_mul", n, limbs, a, b)
                assert got == a * b * r_inv % n, (limbs, hex(n), hex(a), hex(b))


def executed(h: KernelHarness, result, mnemonics: set[str]) -> int:
    """How many instructions with one of ``mnemonics`` the call executed (its blocks' counts)."""
    return sum(count * sum(insn.mnemonic in mnemonics for insn in h.machine.block(address).insns)
               for address, count in result.block_counts.items())


@pytest.mark.parametrize("limbs", [8, 32, 64])
def test_m0_asm_squaring_is_dedicated(limbs):
    """The squaring computes each cross product once: 4 MULS per cross product (L(L-1)/2 of them),
    3 per square (L) and the reduction's 4 L^2 + L (mu and four per word step) make 6 L^2 + 2 L,
    against 8 L^2 + L for the multiplication (4 L^2 for the product): counted on the executed code."""
    h = harness("m0plus")
    n = moduli(limbs)[3]
    a, b = n // 3, n // 5
    _, sqr = mont_call(h, "bn_mont_sqr", n, limbs, a)
    _, mul = mont_call(h, "bn_mont_mul", n, limbs, a, b)
    assert executed(h, sqr, {"muls", "mul"}) == 6 * limbs**2 + 2 * limbs
    assert executed(h, mul, {"muls", "mul"}) == 8 * limbs**2 + limbs
    assert sqr.cycles < mul.cycles


@pytest.mark.parametrize("core", ["m0plus", "m3"])
def test_m0_asm_montgomery_is_constant_time(core):
    """refbench leakage on the Montgomery product and square: every branch and address depends on the
    length only, and MULS/MUL take a fixed time on both cores."""
    for operation in ("mont-mul", "mont-sqr"):
        report = analyze("bignum", "m0_asm", operation, make_target(core, None), secrets=4)
        assert report.verdict == "constant-time", (operation, report.verdict)
        assert not report.memory_findings and not report.control_findings and not report.operand_findings


# ------------------------------------------------------------------ P-256 in Montgomery form (mp = 1)


def p256_mont_operands() -> list[int]:
    """0, 1, p - 1, p - 2, words of all ones below p, single top bits, 2^256 mod p (R: one in
    Montgomery form), and seeded random ones: products whose REDC carries out of the top word and
    whose last subtraction is taken or not."""
    p = FIELDS["p256"][0]
    edge = [0, 1, 2, 2**32 - 1, p - 1, p - 2, p - 2**96, 2**255, 2**256 - 2**224 - 1, 2**256 % p,
            2**192 - 1, int("ffffffff" * 4 + "00000000" * 4, 16) % p, int("0000ffff" * 16, 16) % p]
    return edge + [int.from_bytes(hashlib.shake_256(f"m0 asm p256 mont {i}".encode()).digest(32), "little") % p
                   for i in range(12)]


@pytest.mark.parametrize("core", ["m0plus", "m3"])
def test_m0_asm_p256_montgomery_equals_python(core):
    """p256_mont_mul and p256_mont_sqr (m0_asm/p256_mont.S) give a b 2^-256 mod p and a^2 2^-256 mod p,
    canonical, for operands at the ends of the field, with the result written over an operand too."""
    p = FIELDS["p256"][0]
    r_inv = pow(2**256, -1, p)
    h = harness(core)
    values = p256_mont_operands()
    for i, a in enumerate(values):
        assert call(h, "p256_mont_sqr", a) == a * a * r_inv % p, hex(a)
        for b in values[i::3]:
            assert call(h, "p256_mont_mul", a, b) == a * b * r_inv % p, (hex(a), hex(b))
    a, b = values[5], values[-1]
    result = h.machine.call("p256_mont_mul", Buffer(le(a), "a"), Buffer(le(a)), Buffer(le(b)))
    assert int.from_bytes(result.buffer("a"), "little") == a * b * r_inv % p


@pytest.mark.parametrize("core", ["m0plus", "m3"])
def test_m0_asm_p256_addition_and_subtraction_equal_python(core):
    """fe_p256_add and fe_p256_sub (m0_asm/p256_mont.S) give canonical a + b and a - b mod p for sums
    from 0 to 2p - 2 (carrying out of 2^256 or not, at and next to p) and differences of both signs,
    with the result written over an operand too."""
    p = FIELDS["p256"][0]
    h = harness(core)
    values = p256_mont_operands() + [p - 2**255, 2**256 - p, (p + 1) // 2, (p - 1) // 2]
    for i, a in enumerate(values):
        for b in values[i::2]:
            assert call(h, "fe_p256_add", a, b) == (a + b) % p, (hex(a), hex(b))
            assert call(h, "fe_p256_sub", a, b) == (a - b) % p, (hex(a), hex(b))
            assert call(h, "fe_p256_sub", b, a) == (b - a) % p, (hex(a), hex(b))
    a, b = values[4], values[7]
    for function, want in (("fe_p256_add", (a + b) % p), ("fe_p256_sub", (a - b) % p)):
        result = h.machine.call(function, Buffer(le(a), "a"), Buffer(le(a)), Buffer(le(b)))
        assert int.from_bytes(result.buffer("a"), "little") == want, function


@pytest.mark.parametrize("core", ["m0plus", "m3"])
def test_m0_asm_p256_montgomery_is_constant_time(core):
    """refbench leakage on P-256's Montgomery product and square, addition and subtraction: the
    reduction's rows are word additions and the last subtractions masked, so no cycle count, data
    address or branch depends on the operands."""
    for operation in ("p256-mont-mul", "p256-mont-sqr", "p256-add", "p256-sub"):
        report = analyze("bignum", "m0_asm", operation, make_target(core, None), secrets=4)
        assert report.verdict == "constant-time", (operation, report.verdict)
        assert not report.memory_findings and not report.control_findings and not report.operand_findings


def test_m0_asm_p256_product_copy_calls_the_byte_loop_memcpy():
    """p256_mont_mul's XMEMCPY of the 64-byte product is a call (BL) to memcpy_bytes, the memcpy of newlib
    built with PREFER_SIZE_OVER_SPEED (how GNU Tools for STM32 builds both its C libraries): a loop of one
    LDRB and one STRB, no word or multiple loads and stores; p256_mont_mul itself copies nothing."""
    import capstone
    from elftools.elf.elffile import ELFFile

    elf = catalog.build_variant(catalog.family("bignum").variant("m0_asm"), "m0plus").elf
    with elf.open("rb") as f:
        e = ELFFile(f)
        text = e.get_section_by_name(".text")
        code, address = text.data(), text["sh_addr"]
        spans = {s.name: (s["st_value"] & ~1, s["st_size"]) for s in e.get_section_by_name(".symtab").iter_symbols()
                 if s["st_info"]["type"] == "STT_FUNC" and s.name in ("p256_mont_mul", "memcpy_bytes")}
    cs = capstone.Cs(capstone.CS_ARCH_ARM, capstone.CS_MODE_THUMB | capstone.CS_MODE_MCLASS)

    def insns(name: str) -> list:
        start, size = spans[name]
        assert size > 0, name
        return list(cs.disasm(code[start - address:start - address + size], start))

    calls = [i for i in insns("p256_mont_mul") if i.mnemonic == "bl"]
    assert [int(i.op_str.lstrip("#"), 16) for i in calls] == [spans["memcpy_bytes"][0]]
    assert not {i.mnemonic for i in insns("p256_mont_mul")} & {"ldm", "ldmia", "stm", "stmia"}
    copy = {i.mnemonic for i in insns("memcpy_bytes")}
    assert {"ldrb", "strb"} <= copy
    assert not copy & {"ldr", "str", "ldm", "ldmia", "stm", "stmia", "ldrh", "strh"}
