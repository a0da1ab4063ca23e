"""The public-key arithmetic kernels in the emulated Cortex-M (family ``bignum``): Montgomery
multiplication, squaring and 4-bit-window exponentiation on 32-bit limbs for run-time lengths
(the exponentiation at 256 bits by default, up to 544 in the matrix), and fixed-size field
multiplication and squaring with special reduction (P-256, P-384, P-521, 2^255 - 19,
2^448 - 2^224 - 1), against the references, plain Python integers and `cryptography`.

Default run: every variant x operation on the cores of its manifest among Cortex-M0+ and
Cortex-M4 (zig, -Os), at 256 and 2048 bits for the bignum kernels, on edge-case operands
(0, 1, n-1, all-ones limbs) and seeded random ones. The full set (m0plus, m3, m4, m7, m33 x
32..4096-bit operands x the standard primes of P-256/P-384/P-521, brainpool and SM2 as
Montgomery moduli x zig/gcc) runs with ``-m matrix``.
"""

from __future__ import annotations

import hashlib
from functools import cache

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, x448, x25519

from cortexm_emu import Buffer, IllegalInstruction, Machine
from cortexm_emu.datafile import DataFileError
from cortexm_emu.toolchain import gcc_available
from refbench.kernels import catalog
from refbench.kernels.harness import KernelHarness
from refbench.kernels.references import FIELDS, prepare, reference
from refbench.measure import Job, Measurer, ResultCache, make_inputs, plan
from refbench.ref import curves

DEFAULT_CORES = ("m0plus", "m4")
MATRIX_CORES = ("m0plus", "m3", "m4", "m7", "m33")
P256 = FIELDS["p256"][0]
P25519 = FIELDS["25519"][0]
P448 = FIELDS["448"][0]


def field_of(operation: str) -> tuple[int, int]:
    """(p, operand bytes) of a field operation such as ``p384-sqr``."""
    p, size, _ = FIELDS[operation.rsplit("-", 1)[0]]
    return p, size


@cache
def harness(family: str, variant: str, core: str, compiler: str = "zig") -> KernelHarness:
    return KernelHarness(family, variant, core, compiler=compiler)


MONT_OPS = ("mont-mul", "mont-sqr", "mont-add", "mont-sub")
FIELD_OPS = tuple(f"{field}-{op}" for field in FIELDS for op in ("mul", "sqr", "add", "sub"))
#: Every other operation of the family: the whole-operation kernels, the 2^255 - 19 and 2^448 - 2^224 - 1
#: multiplications by a24, the constant-time select and swap, and the caller's side of a call (each with
#: its own test below; the cy-* operations, CycloneCRYPTO's shape, in tests/test_kernels_mpi_cyclone.py).
OTHER_OPS = ("mont-exp", "cy-mont-mul", "cy-mont-red", "cy-mod", "cy-p256-mul", "cy-p256-sqr", "cy-p384-mul", "cy-p384-sqr",
             "cy-p521-mul", "cy-p521-sqr", "cy-ec-add", "cy-ec-sub", "cy-bp-mul", "cy-bp-sqr", "x25519", "p256-base-mult",
             "ed25519-base-mult", "ed25519-double-mult", "25519-mul-a24", "448-mul-const", "select", "25519-cswap", "call",
             "p256-mont-mul", "p256-mont-sqr", "p256-base-mult-ct", "p256-scalar-mult",  # tests/test_kernels_p256.py
             "p256-ecdsa-sign", "p256-ecdsa-verify", "p256-order-mul", "p256-order-sqr", "p256-halve",  # tests/test_kernels_ecdsa.py
             "sp-table-read", "ref10-cmov-table")  # tests/test_kernels_table_read.py


def cases(operations: tuple[str, ...], cores: tuple[str, ...]) -> list[tuple[str, str, str]]:
    """(variant, operation, core) for every bignum variant on the cores its manifest allows."""
    fam = catalog.family("bignum")
    assert {op.name for op in fam.operations} == set(MONT_OPS + FIELD_OPS + OTHER_OPS)
    return [(v.name, op, core) for v in fam.variants.values() for op in operations for core in cores
            if v.supports(core)]


def le(x: int, size: int) -> bytes:
    return x.to_bytes(size, "little")


def seeded(label: str, size: int) -> bytes:
    return hashlib.shake_256(label.encode()).digest(size)


def mont_operands(size: int, modulus: int | None = None) -> list[tuple[str, dict[str, bytes]]]:
    """(label, raw inputs): edge cases of the carry chains and the final subtraction, then random."""
    n = modulus if modulus is not None else (1 << (8 * size)) - 1  # all-ones limbs: every carry ripples
    out = [
        ("zero", {"a": le(0, size), "b": le(n - 1, size), "modulus": le(n, size)}),
        ("one", {"a": le(1, size), "b": le(1, size), "modulus": le(n, size)}),
        ("n-1", {"a": le(n - 1, size), "b": le(n - 1, size), "modulus": le(n, size)}),
        ("n-2,n-1", {"a": le(n - 2, size), "b": le(n - 1, size), "modulus": le(n, size)}),
    ]
    if modulus is None:  # a modulus just above 2^(bits-1): the largest quotients in REDC
        m = (1 << (8 * size - 1)) + 1
        out.append(("2^k+1", {"a": le(m - 1, size), "b": le(m - 2, size), "modulus": le(m, size)}))
    for i in range(3):
        raw = {role: seeded(f"{role}/{size}/{i}", size) for role in ("a", "b")}
        raw["modulus"] = le(n, size) if modulus is not None else seeded(f"modulus/{size}/{i}", size)
        out.append((f"random{i}", raw))
    return out


def field_operands(p: int, size: int) -> list[tuple[str, dict[str, bytes]]]:
    """Edge cases of the special reductions (0, 1, p-1, an unreduced all-ones input, single
    high bits), then random operands."""
    top = 1 << (p.bit_length() - 1)
    out = [
        ("zero", {"a": le(0, size), "b": le(p - 1, size)}),
        ("one", {"a": le(1, size), "b": le(1, size)}),
        ("p-1", {"a": le(p - 1, size), "b": le(p - 1, size)}),
        ("p-1,2", {"a": le(p - 1, size), "b": le(2, size)}),
        ("top-bit", {"a": le(top, size), "b": le(top - 1, size)}),
        ("unreduced", {"a": le(2 ** (8 * size) - 1, size), "b": le(2**128 + 1, size)}),  # reduced by the preparation
    ]
    out += [(f"random{i}", {r: seeded(f"fe/{size}/{r}/{i}", size) for r in ("a", "b")}) for i in range(3)]
    return out


def expected_mont(operation: str, inputs: dict[str, bytes]) -> bytes:
    """Plain Python integers: a*b*R^-1 mod n, R = 2^(32*limbs) (an oracle independent of modarith);
    a + b, a - b mod n for the additive operations."""
    n = int.from_bytes(inputs["modulus"], "little")
    a = int.from_bytes(inputs["a"], "little")
    b = a if operation == "mont-sqr" else int.from_bytes(inputs["b"], "little")
    size = len(inputs["a"])
    if operation in ("mont-add", "mont-sub"):
        return le((a + b if operation == "mont-add" else a - b) % n, size)
    return le(a * b * pow(1 << (8 * size), -1, n) % n, size)


def expected_field(operation: str, inputs: dict[str, bytes]) -> bytes:
    p, size = field_of(operation)
    a = int.from_bytes(inputs["a"], "little")
    b = a if operation.endswith("sqr") else int.from_bytes(inputs["b"], "little")
    if operation.endswith(("-add", "-sub")):
        return le((a + b if operation.endswith("add") else a - b) % p, size)
    return le(a * b % p, size)


def check_mont(h: KernelHarness, operation: str, label: str, raw: dict[str, bytes], subtests) -> None:
    with subtests.test(msg=f"{h.variant.path}:{operation}:{h.core}:{len(raw['a'])}B:{label}"):
        inputs = prepare(operation)(raw)
        assert reference(operation)(inputs)["r"] == expected_mont(operation, inputs)
        run = h.run(raw, operation)
        assert run.verified, run.mismatch


# ------------------------------------------------------------------------------ default run


@pytest.mark.parametrize("variant, operation, core", cases(MONT_OPS, DEFAULT_CORES),
                         ids=[f"{v}:{o}:{c}" for v, o, c in cases(MONT_OPS, DEFAULT_CORES)])
@pytest.mark.parametrize("size", [32, 256], ids=["256bit", "2048bit"])
def test_bignum_equals_reference_and_integers(variant, operation, core, size, subtests):
    h = harness("bignum", variant, core)
    for label, raw in mont_operands(size)[: 6 if size == 32 else 3]:
        check_mont(h, operation, label, raw, subtests)


@pytest.mark.parametrize("variant, operation, core", cases(FIELD_OPS, DEFAULT_CORES),
                         ids=[f"{v}:{o}:{c}" for v, o, c in cases(FIELD_OPS, DEFAULT_CORES)])
def test_field_equals_reference_and_integers(variant, operation, core, subtests):
    h = harness("bignum", variant, core)
    for label, raw in field_operands(*field_of(operation)):
        with subtests.test(msg=f"bignum/{variant}:{operation}:{core}:{label}"):
            inputs = prepare(f"fe-{operation}")(raw)
            assert reference(f"fe-{operation}")(inputs)["r"] == expected_field(operation, inputs)
            run = h.run(raw, operation)
            assert run.verified, run.mismatch


@pytest.mark.parametrize("core", DEFAULT_CORES)
def test_mul_a24_and_select_equal_their_references(core, subtests):
    """121665 a mod 2^255 - 19 and 39081 a mod 2^448 - 2^224 - 1 (RFC 7748 §5 a24) against integers; the select takes b exactly when
    a is odd, at the field sizes."""
    for variant in ("c32", "m0"):
        h = harness("bignum", variant, core)
        for label, raw in field_operands(P25519, 32):
            with subtests.test(msg=f"bignum/{variant}:25519-mul-a24:{core}:{label}"):
                a = int.from_bytes(prepare("fe-25519-mul-a24")(raw)["a"], "little")
                assert reference("fe-25519-mul-a24")(raw)["r"] == le(a * 121665 % P25519, 32)
                run = h.run(raw, "25519-mul-a24")
                assert run.verified, run.mismatch
        for label, raw in field_operands(P448, 56):
            with subtests.test(msg=f"bignum/{variant}:448-mul-const:{core}:{label}"):
                a = int.from_bytes(prepare("fe-448-mul-const")(raw)["a"], "little")
                assert reference("fe-448-mul-const")(raw)["r"] == le(a * 39081 % P448, 56)
                run = h.run(raw, "448-mul-const")
                assert run.verified, run.mismatch
        for size in (32, 68):
            for odd in (0, 1):
                raw = {"a": bytes([0x10 | odd]) + seeded(f"sel a {size}", size - 1), "b": seeded(f"sel b {size}", size)}
                with subtests.test(msg=f"bignum/{variant}:select:{core}:{size}B:odd={odd}"):
                    assert reference("select")(raw)["r"] == (raw["b"] if odd else raw["a"])
                    run = h.run(raw, "select")
                    assert run.verified, run.mismatch


@pytest.mark.parametrize("core", DEFAULT_CORES)
def test_cswap_exchanges_exactly_when_a_is_odd_and_call_costs_a_few_cycles(core, subtests):
    """25519-cswap (the ladder's swap, every variant) exchanges a and b exactly when a is odd and
    leaves them otherwise; "call" (the caller's side of a call: three ADDs and a branch) runs."""
    for variant, _, _ in cases(("25519-cswap",), (core,)):
        h = harness("bignum", variant, core)
        for odd in (0, 1):
            raw = {"a": bytes([0x10 | odd]) + seeded("swap a", 31), "b": seeded("swap b", 32)}
            with subtests.test(msg=f"bignum/{variant}:25519-cswap:{core}:odd={odd}"):
                want = reference("fe-25519-cswap")(raw)
                assert (want["a"], want["b"]) == ((raw["b"], raw["a"]) if odd else (raw["a"], raw["b"]))
                run = h.run(raw, "25519-cswap")
                assert run.verified, run.mismatch
        with subtests.test(msg=f"bignum/{variant}:call:{core}"):
            run = h.run({"a": seeded("call a", 32), "b": seeded("call b", 32)}, "call")
            assert run.verified and run.instructions == 4 and 0 < run.cycles < 10, run


def field_call(h: KernelHarness, function: str, size: int, *operands: int) -> int:
    """Call a field kernel directly and read its result buffer back from the emulator."""
    result = h.machine.call(function, Buffer(bytes(size), "r"), *(Buffer(le(x, size)) for x in operands))
    return int.from_bytes(result.buffer("r"), "little")


@pytest.mark.parametrize("core", ["m0plus", "m4"])
@pytest.mark.parametrize("curve, field, prefix", [
    (ec.SECP256R1(), "p256", "fe_p256"), (ec.SECP384R1(), "p384", "fe_p384"), (ec.SECP521R1(), "p521", "fe_p521"),
], ids=["P-256", "P-384", "P-521"])
def test_nist_field_kernels_put_cryptography_public_keys_on_the_curve(core, curve, field, prefix):
    """y^2 = x^3 - 3x + b (FIPS 186-4 D.1.2) for keys made by `cryptography`, with every square
    and product computed by the kernel."""
    h = harness("bignum", "c32", core)
    p, size, _ = FIELDS[field]
    b = curves.get_curve(curve.name).b
    for k in (1, 2, 0xC0FFEE, curves.get_curve(curve.name).n - 1):
        numbers = ec.derive_private_key(k, curve).public_key().public_numbers()
        x, y = numbers.x, numbers.y
        x3 = field_call(h, f"{prefix}_mul", size, field_call(h, f"{prefix}_sqr", size, x), x)
        assert field_call(h, f"{prefix}_sqr", size, y) == (x3 - 3 * x + b) % p


@pytest.mark.parametrize("core", ["m0plus", "m4"])
@pytest.mark.parametrize("make, field, prefix, A", [
    (x25519.X25519PrivateKey, "25519", "fe25519", 486662), (x448.X448PrivateKey, "448", "fe448", 156326),
], ids=["X25519", "X448"])
def test_montgomery_curve_field_kernels_find_cryptography_public_keys_on_the_curve(core, make, field, prefix, A):
    """u^3 + A u^2 + u is a square mod p for a public key u made by `cryptography` (a point of
    the curve, not of its twist: RFC 7748 §5), with u^2 and u^3 from the kernel."""
    h = harness("bignum", "c32", core)
    p, size, _ = FIELDS[field]
    for i in range(3):
        private = make.from_private_bytes(seeded(f"{field}/{i}", size))
        u = int.from_bytes(private.public_key().public_bytes(serialization.Encoding.Raw,
                                                              serialization.PublicFormat.Raw), "little")
        u2 = field_call(h, f"{prefix}_sqr", size, u)
        u3 = field_call(h, f"{prefix}_mul", size, u2, u)
        assert pow((u3 + A * u2 + u) % p, (p - 1) // 2, p) == 1


def test_bignum_with_a_standard_prime_as_modulus(subtests):
    """The Montgomery moduli of the brainpool and SM2 fields, through the run-time-size kernel."""
    h = harness("bignum", "umaal", "m4")
    for curve in (curves.BRAINPOOLP256R1, curves.SM2P256V1):
        for label, raw in mont_operands(32, curve.p)[:4]:
            check_mont(h, "mont-mul", f"{curve.name}:{label}", raw, subtests)


def exp_operands(size: int) -> list[tuple[str, dict[str, bytes]]]:
    """Exponents 0, 1, 65537 (RSA's public exponent, zero-padded to the operand length), n-1
    (every window non-zero in the top limb) and a random one; random odd moduli and bases."""
    out = []
    for i, (label, e) in enumerate([("e=0", 0), ("e=1", 1), ("e=65537", 65537), ("e=2^k-1", 2 ** (8 * size) - 1),
                                    ("random", None)]):
        raw = {role: seeded(f"exp/{role}/{size}/{i}", size) for role in ("a", "modulus", "exponent")}
        if e is not None:
            raw["exponent"] = le(e, size)
        out.append((label, raw))
    return out


@pytest.mark.parametrize("variant, core", [(v, c) for v, _, c in cases(("mont-exp",), DEFAULT_CORES)])
def test_mont_exp_equals_python_pow(variant, core, subtests):
    """a^e mod n with a full-length exponent at 256 bits (about 300 Montgomery operations; an
    RSA-2048 private exponentiation is about 2600 of them, 2e8 cycles and more, outside the
    default budget of the harness: the sizes here stay small)."""
    h = harness("bignum", variant, core)
    for label, raw in exp_operands(32):
        with subtests.test(msg=f"bignum/{variant}:mont-exp:{core}:{label}"):
            inputs = prepare("mont-exp")(raw)
            n, a, e = (int.from_bytes(inputs[r], "little") for r in ("modulus", "a", "exponent"))
            assert reference("mont-exp")(inputs)["r"] == le(pow(a, e, n), 32)
            run = h.run(raw, "mont-exp")
            assert run.verified, run.mismatch


# ------------------------------------------------------------------ instruction sets and cores


def x25519_cases() -> list[tuple[str, bytes, bytes, bytes]]:
    """(label, scalar, u, expected) from RFC 7748 §5.2 and seeded random inputs, the expected value
    from `cryptography` (which the reference must also give)."""
    rfc = [("RFC 7748 5.2 #1", "a546e36bf0527c9d3b16154b82465edd62144c0ac1fc5a18506a2244ba449ac4",
            "e6db6867583030db3594c1a424b15f7c726624ec26b3353b10a903a6d0ab1c4c"),
           ("RFC 7748 5.2 #2", "4b66e9d4d1b4673c5ad22691957d6af5c11b6421e0ea01d42ca4169e7918ba0d",
            "e5210f12786811d3f4b7959d0538ae2c31dbe7106fc03c3efc4cd549c715a493")]
    out = []
    for label, k_hex, u_hex in rfc + [(f"seeded {i}", seeded(f"x25519 k {i}", 32).hex(), seeded(f"x25519 u {i}", 32).hex())
                                      for i in range(2)]:
        k, u = bytes.fromhex(k_hex), bytes.fromhex(u_hex)
        # cryptography rejects non-canonical encodings only by result (all-zero); mask bit 255 as RFC 7748 does
        u_masked = u[:31] + bytes([u[31] & 0x7F])
        peer = x25519.X25519PublicKey.from_public_bytes(u_masked)
        want = x25519.X25519PrivateKey.from_private_bytes(k).exchange(peer)
        assert reference("x25519")({"a": k, "b": u})["r"] == want, label
        out.append((label, k, u, want))
    return out


def check_x25519(variant: str, core: str, subtests, compiler: str = "zig") -> None:
    h = harness("bignum", variant, core, compiler)
    for label, k, u, want in x25519_cases():
        with subtests.test(msg=label):
            result = h.machine.call("x25519_scalarmult", Buffer(bytes(32), "r"), Buffer(k, "a"), Buffer(u, "b"))
            assert result.buffer("r") == want
            run = h.run({"a": k, "b": u}, "x25519")
            assert run.verified, run.mismatch


@pytest.mark.parametrize("variant, core", [(v, c) for v, _, c in cases(("x25519",), DEFAULT_CORES)])
def test_x25519_ladder_equals_reference_and_cryptography(variant, core, subtests):
    check_x25519(variant, core, subtests)


@pytest.mark.matrix
@pytest.mark.parametrize("compiler", ["zig", "gcc"])
@pytest.mark.parametrize("variant, core", [(v, c) for v, _, c in cases(("x25519",), MATRIX_CORES)])
def test_matrix_x25519(variant, core, compiler, subtests):
    if compiler == "gcc" and not gcc_available():
        pytest.skip("arm-none-eabi-gcc is not installed (the second kernel compiler, .ci/run installs it)")
    check_x25519(variant, core, subtests, compiler)


def test_manifest_restricts_umaal_and_umlal_cores():
    fam = catalog.family("bignum")
    assert fam.variant("umaal").cores == ("m4", "m7", "m33")
    assert fam.variant("umlal").cores == ("m3", "m4", "m7", "m33")
    assert fam.variant("c32").cores is None and fam.variant("m0").supports("m0plus")
    with pytest.raises(ValueError, match=r"Invalid core \('m3'\) for kernel variant bignum/umaal; accepted: m4, m7, m33"):
        catalog.build_variant(fam.variant("umaal"), "m3")
    with pytest.raises(ValueError, match=r"Invalid core \('m0plus'\) for kernel variant bignum/umlal"):
        KernelHarness("bignum", "umlal", "m0plus")


def mont_ctx(n: int, limbs: int) -> bytes:
    """The bn_mont_ctx of mont.h made in Python: limbs, -n^-1 mod 2^32, the modulus (520 bytes)."""
    return le(limbs, 4) + le(-pow(n, -1, 2**32) % 2**32, 4) + le(n, 4 * 128)


def disassemble(elf) -> list:
    import capstone
    from elftools.elf.elffile import ELFFile

    with elf.open("rb") as f:
        text = ELFFile(f).get_section_by_name(".text")
        code, address = text.data(), text["sh_addr"]
    cs = capstone.Cs(capstone.CS_ARCH_ARM, capstone.CS_MODE_THUMB | capstone.CS_MODE_MCLASS)
    cs.detail = True
    return list(cs.disasm(code, address))


@pytest.mark.parametrize("variant, built_for, core, mnemonic", [
    ("umlal", "m3", "m0plus", "umlal"),
    ("umaal", "m4", "m3", "umaal"),
])
def test_emulator_refuses_a_multiply_the_core_lacks(variant, built_for, core, mnemonic):
    """An ELF built for a richer core, run on a poorer one, stops before it executes an
    instruction the core does not have: every UMLAL of the umlal build is refused on the M0+
    (ARMv6-M; the run stops at its first Thumb-2 instruction), the UMAAL on the M3 (no DSP)."""
    built = catalog.build_variant(catalog.family("bignum").variant(variant), built_for)
    machine = Machine(core)
    multiplies = [insn for insn in disassemble(built.elf) if insn.mnemonic == mnemonic]
    assert multiplies
    assert all(machine.timing.check(insn) for insn in multiplies)
    machine.load_elf(built.elf)
    n = 2**255 + 19
    with pytest.raises(IllegalInstruction, match=r"illegal instruction for Cortex-M" +
                       (r".*umaal" if core == "m3" else r"0\+")):
        machine.call("bn_mont_mul", Buffer(mont_ctx(n, 8), "ctx"), Buffer(bytes(32), "r"), Buffer(le(5, 32)),
                     Buffer(le(7, 32)))


@pytest.mark.parametrize("limbs", [8, 32])
def test_umull_asm_squaring_is_dedicated(limbs):
    """umull_asm's mont-sqr is a squaring, counted on the executed code (M4): each cross product once
    (L(L+1)/2 UMULL for the square, L^2 for the reduction, against 2 L^2 in the multiplication), as
    wolfSSL's sp_2048_sqr_64 computes it. (umaal_asm's bn_mont_sqr is its multiplication a a:
    umaal_asm/mont.S.)"""
    n = (1 << (32 * limbs - 1)) + 2**40 + 1
    a, b = n // 3, n // 7

    def count(variant: str, function: str, mnemonics: set[str], *operands: int) -> int:
        h = harness("bignum", variant, "m4")
        size = 4 * limbs
        result = h.machine.call(function, Buffer(mont_ctx(n, limbs), "ctx"), Buffer(bytes(size), "r"),
                                *(Buffer(le(x, size)) for x in operands))
        return sum(c * sum(i.mnemonic in mnemonics for i in h.machine.block(addr).insns)
                   for addr, c in result.block_counts.items())

    assert count("umull_asm", "bn_mont_sqr", {"umull"}, a) == limbs * (limbs + 1) // 2 + limbs**2
    assert count("umull_asm", "bn_mont_mul", {"umull"}, a, b) == 2 * limbs**2


def test_m0_variants_use_no_long_multiply():
    """The m0 and c32 builds for ARMv6-M contain MULS only: no UMULL/UMLAL/UMAAL in their code."""
    for variant in ("m0", "c32"):
        elf = catalog.build_variant(catalog.family("bignum").variant(variant), "m0plus").elf
        mnemonics = {i.mnemonic for i in disassemble(elf)}
        assert "muls" in mnemonics
        assert not mnemonics & {"umull", "umlal", "umaal", "smull"}, variant


# ------------------------------------------------------------------------ inputs and errors


@pytest.mark.parametrize("size", [0, 30, 516])
def test_mont_operand_length_is_checked_before_any_call(size):
    h = harness("bignum", "c32", "m4")
    raw = {r: bytes(size) for r in ("a", "b", "modulus")}
    with pytest.raises(ValueError, match=rf"Invalid operand length \({size} bytes\) for Montgomery arithmetic"):
        h.run(raw, "mont-mul")


def test_field_operand_length_and_mismatched_lengths_are_errors():
    with pytest.raises(ValueError, match=r"Invalid operand length \(48 bytes\) for the p256 field"):
        reference("fe-p256-mul")({"a": bytes(48), "b": bytes(48)})
    with pytest.raises(ValueError, match=r"Invalid operand length \(66 bytes\) for the p521 field.*accepted: 68 bytes"):
        reference("fe-p521-sqr")({"a": bytes(66)})
    with pytest.raises(ValueError, match=r"Invalid b length \(31 bytes\); accepted: the length of a, 32 bytes"):
        prepare("mont-mul")({"a": bytes(32), "b": bytes(31), "modulus": bytes(32)})


def test_preparation_makes_valid_idempotent_operands():
    raw = {"a": b"\xff" * 32, "b": b"\xff" * 32, "modulus": bytes(32)}
    once = prepare("mont-mul")(raw)
    n = int.from_bytes(once["modulus"], "little")
    assert n % 2 == 1 and n >> 255 == 1
    assert int.from_bytes(once["a"], "little") < n
    assert prepare("mont-mul")(once) == once
    p521 = {"a": bytes(68), "b": bytes(68), "modulus": le(curves.P521.p, 68)}
    assert prepare("mont-mul")(p521)["modulus"] == p521["modulus"]  # a non-zero top limb is kept


def test_unknown_core_in_manifest_names_file_and_field(tmp_path):
    folder = tmp_path / "bignum"
    folder.mkdir()
    (folder / "x.c").write_text("")
    (folder / "kernel.toml").write_text(
        'family = "bignum"\nstandard = "s"\n[[operations]]\nname = "mont-sqr"\nfunction = "f"\n'
        'args = ["r", "a"]\nreference = "mont-sqr"\n[variants.v]\nsources = ["x.c"]\ntrades = "t"\n'
        'cores = ["m4", "m5"]\n')
    with pytest.raises(DataFileError) as info:
        catalog.load_family(folder / "kernel.toml")
    message = str(info.value)
    assert "kernel.toml" in message and "variants.v.cores" in message and "m5" in message


def test_a_whole_operation_the_family_lacks_names_file_line_and_field(tmp_path):
    folder = tmp_path / "bignum"
    folder.mkdir()
    (folder / "x.c").write_text("")
    head = ('family = "bignum"\nstandard = "s"\n[[operations]]\nname = "x25519"\nfunction = "f"\n'
            'args = ["r", "a", "b"]\nreference = "x25519"\n[variants.v]\nsources = ["x.c"]\ntrades = "t"\n')
    (folder / "kernel.toml").write_text(head + 'whole = ["x25519"]\n')
    assert catalog.load_family(folder / "kernel.toml").variant("v").whole == ("x25519",)
    for bad, shown in (('whole = ["x448"]', "'x448'"), ('whole = [3]', "3"), ('whole = "x25519"', "must be a list")):
        (folder / "kernel.toml").write_text(f"{head}{bad}\n")
        with pytest.raises(DataFileError) as info:
            catalog.load_family(folder / "kernel.toml")
        message = str(info.value)
        assert "kernel.toml:11" in message and "variants.v.whole" in message and shown in message, message


def test_measurer_sizes_bignum_by_operand_and_skips_unsupported_cores(tmp_path):
    jobs = plan(["bignum"], ["umaal", "m0"], ["mont-mul"], [32])
    assert [(j.variant, j.size) for j in jobs] == [("umaal", 32), ("m0", 32)]
    op = catalog.family("bignum").operations[0]
    inputs = make_inputs(op, 32)
    assert {k: len(v) for k, v in inputs.items()} == {"a": 32, "b": 32, "modulus": 32}
    measurer = Measurer("m3", cache=ResultCache(tmp_path))
    umaal, m0 = measurer.measure_all(jobs)
    assert umaal.cycles is None and umaal.error.startswith("not applicable: bignum/umaal runs on m4, m7, m33")
    assert m0.verified and m0.cycles and m0.size == 32
    again = Measurer("m3", cache=ResultCache(tmp_path)).measure(Job("bignum", "m0", "mont-mul", 32))
    assert again.cached and again.cycles == m0.cycles


# ------------------------------------------------------------------------------ full matrix

MATRIX_SIZES = (4, 32, 48, 64, 68, 128, 384, 512)
STANDARD_PRIMES = (curves.P256, curves.P384, curves.P521, curves.BRAINPOOLP256R1, curves.BRAINPOOLP384R1,
                   curves.BRAINPOOLP512R1, curves.SM2P256V1)


@pytest.mark.matrix
@pytest.mark.parametrize("compiler", ["zig", "gcc"])
@pytest.mark.parametrize("variant, operation, core", cases(MONT_OPS, MATRIX_CORES),
                         ids=[f"{v}:{o}:{c}" for v, o, c in cases(MONT_OPS, MATRIX_CORES)])
def test_matrix_bignum(variant, operation, core, compiler, subtests):
    if compiler == "gcc" and not gcc_available():
        pytest.fail("arm-none-eabi-gcc is not installed; the matrix needs both compilers")
    h = harness("bignum", variant, core, compiler)
    for size in MATRIX_SIZES:
        for label, raw in mont_operands(size)[:5] if size <= 128 else mont_operands(size)[2:4]:
            check_mont(h, operation, label, raw, subtests)
    for curve in STANDARD_PRIMES:
        size = -(-curve.p.bit_length() // 32) * 4
        for label, raw in mont_operands(size, curve.p)[2:5]:
            check_mont(h, operation, f"{curve.name}:{label}", raw, subtests)


@pytest.mark.matrix
@pytest.mark.parametrize("compiler", ["zig", "gcc"])
@pytest.mark.parametrize("variant, core", [(v, c) for v, _, c in cases(("mont-exp",), MATRIX_CORES)])
def test_matrix_mont_exp(variant, core, compiler, subtests):
    if compiler == "gcc" and not gcc_available():
        pytest.fail("arm-none-eabi-gcc is not installed; the matrix needs both compilers")
    h = harness("bignum", variant, core, compiler)
    for size in (4, 32, 68):
        for label, raw in exp_operands(size):
            with subtests.test(msg=f"bignum/{variant}:mont-exp:{core}:{compiler}:{size}B:{label}"):
                inputs = prepare("mont-exp")(raw)
                n, a, e = (int.from_bytes(inputs[r], "little") for r in ("modulus", "a", "exponent"))
                assert reference("mont-exp")(inputs)["r"] == le(pow(a, e, n), size)
                run = h.run(raw, "mont-exp")
                assert run.verified, run.mismatch


@pytest.mark.matrix
@pytest.mark.parametrize("compiler", ["zig", "gcc"])
@pytest.mark.parametrize("variant, operation, core", cases(FIELD_OPS, MATRIX_CORES),
                         ids=[f"{v}:{o}:{c}" for v, o, c in cases(FIELD_OPS, MATRIX_CORES)])
def test_matrix_field(variant, operation, core, compiler, subtests):
    if compiler == "gcc" and not gcc_available():
        pytest.fail("arm-none-eabi-gcc is not installed; the matrix needs both compilers")
    h = harness("bignum", variant, core, compiler)
    p, size = field_of(operation)
    for label, raw in field_operands(p, size) + [(f"more{i}", {r: seeded(f"fe+/{size}/{r}/{i}", size) for r in "ab"})
                                                 for i in range(16)]:
        with subtests.test(msg=f"bignum/{variant}:{operation}:{core}:{compiler}:{label}"):
            inputs = prepare(f"fe-{operation}")(raw)
            assert reference(f"fe-{operation}")(inputs)["r"] == expected_field(operation, inputs)
            run = h.run(raw, operation)
            assert run.verified, run.mismatch


# ------------------------------------------------------------ P-256 base-point multiplication


def check_p256_base_mult(variant: str, core: str, scalars: tuple[int, ...], subtests) -> None:
    """The affine [k]G of the whole-operation kernel (p256.h) equals the public key `cryptography`
    derives from k, and the harness's run verifies it against the reference."""
    h = harness("bignum", variant, core)
    for k in scalars:
        with subtests.test(msg=f"bignum/{variant}:p256-base-mult:{core}:k={k:#x}"[:120]):
            numbers = ec.derive_private_key(k, ec.SECP256R1()).public_key().public_numbers()
            result = h.machine.call("p256_scalarmult_base_xy", Buffer(bytes(64), "r"), Buffer(le(k, 32), "a"))
            assert result.buffer("r") == le(numbers.x, 32) + le(numbers.y, 32)
    run = h.run({"a": le(scalars[-1], 32)}, "p256-base-mult")
    assert run.verified, run.mismatch


def test_p256_base_mult_equals_cryptography_on_m4(subtests):
    """k = 1 (no addition after the first digit), 2 (the table's 2G = G + G doubling fallback), n - 1
    (the last digit adds -G's table entry) and a seeded full-length scalar."""
    n = curves.P256.n
    check_p256_base_mult("c32", "m4", (1, 2, n - 1, int.from_bytes(seeded("p256 k", 32), "little") % n), subtests)


@pytest.mark.parametrize("variant, core", [("m0", "m0plus"), ("c32", "m0plus"), ("umaal", "m7"), ("umlal", "m33")])
def test_p256_base_mult_equals_cryptography_on_every_core(variant, core, subtests):
    check_p256_base_mult(variant, core, (2, int.from_bytes(seeded("p256 k2", 32), "little") % curves.P256.n), subtests)


# ------------------------------------------------------------------ hand-written 2^255 - 19 assembly


def fe25519_asm_operands() -> list[int]:
    """Operands that reach every carry of the assembly's chains: 0, 1, 2^32 - 1, values at and
    next to 2^255 - 19, all-ones limbs below p, single top bits, and seeded random ones."""
    p = P25519
    edge = [0, 1, 2, 19, 2**32 - 1, 2**64 - 1, 2**224, 2**254, 2**255 - 20, p - 1, p - 2, p - 19,
            (2**255 - 1) // 3, 2**128 - 1, p - 2**128, 121666, (p - 1) // 2]
    return edge + [int.from_bytes(seeded(f"fe25519 asm {i}", 32), "little") % p for i in range(24)]


@pytest.mark.parametrize("core", ["m4", "m7", "m33"])
def test_fe25519_assembly_equals_python_on_edge_and_random_operands(core):
    """umaal_asm's hand-written mul, sqr, add, sub and mul-by-a24 give the canonical residue for
    every pair of the operands (products near 2^510, sums near 2p, differences near -p), and its
    cswap swaps exactly when told to: the assembly's carry chains, checked beyond the
    harness's few operands, on each core it is built for."""
    h = harness("bignum", "umaal_asm", core)
    p, values = P25519, fe25519_asm_operands()
    for i, a in enumerate(values):
        assert field_call(h, "fe25519_sqr", 32, a) == a * a % p, hex(a)
        assert field_call(h, "fe25519_mul_a24", 32, a) == a * 121665 % p, hex(a)
        for b in values[i::5]:
            assert field_call(h, "fe25519_mul", 32, a, b) == a * b % p, (hex(a), hex(b))
            assert field_call(h, "fe25519_add", 32, a, b) == (a + b) % p, (hex(a), hex(b))
            assert field_call(h, "fe25519_sub", 32, a, b) == (a - b) % p, (hex(a), hex(b))
            assert field_call(h, "fe25519_sub", 32, b, a) == (b - a) % p, (hex(a), hex(b))
    a, b = values[-1], values[-2]
    for swap in (0, 1):
        result = h.machine.call("fe25519_cswap", Buffer(le(a, 32), "a"), Buffer(le(b, 32), "b"), swap)
        got = (int.from_bytes(result.buffer("a"), "little"), int.from_bytes(result.buffer("b"), "little"))
        assert got == ((b, a) if swap else (a, b))


def weak_operands() -> list[int]:
    """256-bit operands of the X25519 assembly's products (any value below 2^256): the ends of the range, values next to p, 2p and 2^255, words of
    all ones, and seeded random 256-bit ones."""
    p = P25519
    edge = [0, 1, 38, 2**32 - 1, 2**255 - 1, 2**255, p, p + 1, 2 * p - 1, 2 * p, 2 * p + 1, 2**256 - 39,
            2**256 - 38, 2**256 - 1, 2**256 - 2**224, 2**128 - 1, int("ffffffff00000000" * 4, 16)]
    return edge + [int.from_bytes(seeded(f"x25519 weak {i}", 32), "little") for i in range(12)]


@pytest.mark.parametrize("core", ["m4", "m7", "m33"])
def test_x25519_assembly_weak_mul_and_sqr_on_256_bit_operands(core):
    """umaal_asm/x25519.S's internal multiplication, squaring and run of n squarings (own calling
    convention: r0 result, r1, r2 operands or n, r4-r12 not preserved) take any 256-bit operands and give a 256-bit value of the
    product's residue mod p, half reduced (below 2^255 + 2^23, the bound the ladder's carry-free
    additions rely on): the folds of their carries, at the ends of the range."""
    h = harness("bignum", "umaal_asm", core)
    p, values = P25519, weak_operands()

    def run(function: str, *operands: int) -> int:
        result = h.machine.call(function, Buffer(bytes(32), "r"), *(Buffer(le(x, 32)) for x in operands), aapcs=False)
        out = int.from_bytes(result.buffer("r"), "little")
        assert out < 2**255 + 2**23, (function, [hex(x) for x in operands], hex(out))
        return out

    for i, a in enumerate(values):
        assert run("fe25519_sqr_w", a) % p == a * a % p, hex(a)
        for b in values[i::3]:
            assert run("fe25519_mul_w", a, b) % p == a * b % p, (hex(a), hex(b))
    for a in values[::4]:
        for n in (1, 2, 5):
            result = h.machine.call("fe25519_sqrn_w", Buffer(le(a, 32), "a"), n, aapcs=False)
            out = int.from_bytes(result.buffer("a"), "little")
            assert out < 2**255 + 2**23 and out % p == pow(a, 2**n, p), (hex(a), n, hex(out))


@pytest.mark.parametrize("core", ["m4", "m7", "m33"])
def test_x25519_assembly_on_edge_inputs_equals_reference(core, subtests):
    """umaal_asm_ladder's whole X25519 (umaal_asm/x25519.S with X25519_ASM) on u-coordinates at the
    edges of its non-canonical arithmetic (0, the low-order points 1 and p - 1, non-canonical p and 2^255 - 1, all-ones bytes) and scalars of
    all zeros and all ones (clamped): the reference's result, all zeros where the reference refuses
    the all-zero shared secret (RFC 7748 §6.1)."""
    h = harness("bignum", "umaal_asm_ladder", core)
    p = P25519
    us = [0, 1, 2, 9, p - 1, p, p + 1, 2**255 - 1, 2**256 - 1, int.from_bytes(seeded("x25519 edge u", 32), "little")]
    ks = [bytes(32), bytes([0xFF]) * 32, seeded("x25519 edge k", 32)]
    for k in ks:
        for u in us:
            with subtests.test(msg=f"k={k.hex()[:8]} u={u:#x}"[:60]):
                try:
                    want = reference("x25519")({"a": k, "b": le(u, 32)})["r"]
                except ValueError:
                    want = bytes(32)
                result = h.machine.call("x25519_scalarmult", Buffer(bytes(32), "r"), Buffer(k, "a"), Buffer(le(u, 32), "b"))
                assert result.buffer("r") == want


@pytest.mark.parametrize("core", ["m4", "m7", "m33"])
def test_p256_assembly_equals_python_on_edge_and_random_operands(core):
    """umaal_asm's hand-written P-256 multiplication and squaring (FIPS 186-4 D.2.3 word sums,
    signed top-word folds, one masked subtraction), addition and subtraction give the canonical
    residue for operands that drive the sums to both ends of their range: 0, 1, p - 1, words of
    all ones or zeros in the positions the sums add or subtract, and seeded random ones."""
    h = harness("bignum", "umaal_asm", core)
    p = P256
    edge = [0, 1, 2, 2**32 - 1, p - 1, p - 2, 2**256 - 2**224 - 1, 2**255, 2**224, 2**192 - 1, 2**96 - 1,
            p - 2**96, p - 2**192, (p - 1) // 2, int("ffffffff" * 4 + "00000000" * 4, 16) % p,
            int("00000000ffffffff" * 4, 16), int("ffffffff00000000" * 4, 16) % p]
    values = edge + [int.from_bytes(seeded(f"p256 asm {i}", 32), "little") % p for i in range(24)]
    for i, a in enumerate(values):
        assert field_call(h, "fe_p256_sqr", 32, a) == a * a % p, hex(a)
        for b in values[i::4]:
            assert field_call(h, "fe_p256_mul", 32, a, b) == a * b % p, (hex(a), hex(b))
            assert field_call(h, "fe_p256_add", 32, a, b) == (a + b) % p, (hex(a), hex(b))
            assert field_call(h, "fe_p256_sub", 32, a, b) == (a - b) % p, (hex(a), hex(b))
            assert field_call(h, "fe_p256_sub", 32, b, a) == (b - a) % p, (hex(a), hex(b))


def test_every_bignum_variant_builds_with_gcc():
    """Both kernel compilers build every bignum variant (a header that included <stdint.h> once broke every
    GCC build: newlib's uint32_t is long unsigned int, kernel.h's unsigned int); the -m matrix runs them."""
    if not gcc_available():
        pytest.fail("arm-none-eabi-gcc is not installed (the second kernel compiler, .ci/run installs it)")
    fam = catalog.family("bignum")
    for variant in fam.variants.values():
        core = next(c for c in ("m4", "m33", "m3", "m0plus") if variant.supports(c))
        build = catalog.build_variant(variant, core, compiler="gcc")
        assert build.elf.stat().st_size > 0, variant.name
