"""The hash, HMAC and Hash_DRBG kernels in the emulated Cortex-M, against the references.

Default run: every variant x operation on Cortex-M0+ and Cortex-M4 (zig, -Os) with a few
official vectors per algorithm and random messages of 0..1100 bytes (hypothesis). For each
official vector two facts are checked: the reference gives the vector's value, and the kernel
output equals the reference (``KernelRun.verified``, compared byte for byte by the harness).
The full matrix (m0plus, m3, m4, m7, m33 x Os/O2/O3 x zig/gcc) runs with ``-m matrix``.
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cortexm_emu import Buffer
from cortexm_emu.toolchain import gcc_available
from refbench.kernels import catalog
from refbench.kernels.harness import KernelHarness
from refbench.kernels.references import reference
from refbench.loaders import (
    MergedTest,
    Record,
    cryptography_vector,
    load_nist_rsp,
    merge_split_records,
    project_vector,
)
from refbench.ref import sha2
from refbench.ref.drbg import HashDRBG

KERNELS = Path(catalog.__file__).resolve().parent
DEFAULT_CORES = ("m0plus", "m4")
MATRIX_CORES = ("m0plus", "m3", "m4", "m7", "m33")


def _every(
    family: str, variants: tuple[str, ...], operations: tuple[str, ...]
) -> list[tuple[str, str, str]]:
    return [(family, variant, operation) for variant in variants for operation in operations]


#: (family, variant, operation) of every kernel this file proves.
CASES: tuple[tuple[str, str, str], ...] = (
    *_every("md5", ("ref", "unrolled"), ("md5",)),
    *_every("sha1", ("rolled", "unrolled"), ("sha-1",)),
    *_every("sha256", ("rolled", "unrolled"), ("sha-256", "sha-224")),
    *_every("sha512", ("ref", "unrolled"), ("sha-512", "sha-384", "sha-512/224", "sha-512/256")),
    *_every(
        "sha3",
        ("lanes64", "interleaved32"),
        ("sha3-224", "sha3-256", "sha3-384", "sha3-512", "shake128-256", "shake256-256"),
    ),
    *_every("sm3", ("ref", "unrolled"), ("sm3",)),
    *_every(
        "hmac",
        ("rolled", "unrolled"),
        ("hmac-md5", "hmac-sha-1", "hmac-sha-224", "hmac-sha-256", "hmac-sha-384", "hmac-sha-512"),
    ),
    ("drbg", "rolled", "hash-drbg-sha-256-generate"),
    ("drbg", "unrolled", "hash-drbg-sha-256-generate"),
)
CASE_IDS = [f"{f}/{v}:{op}" for f, v, op in CASES]


@cache
def harness(
    family: str, variant: str, core: str, opt: str = "Os", compiler: str = "zig"
) -> KernelHarness:
    return KernelHarness(family, variant, core, opt=opt, compiler=compiler)


# --------------------------------------------------------------------------- official vectors


def _message(record: Record) -> bytes:
    """The message of a NIST hash record: ``Len`` is in bits (``Msg = 00`` stands for the empty one)."""
    return record.hex("Msg")[: record.int("Len") // 8]


def _hash_records(path: Path, lengths: set[int]) -> list[Record]:
    records = [r for r in load_nist_rsp(path) if "Msg" in r.fields and r.int("Len") in lengths]
    assert records, f"no record of {path.name} has Len in {sorted(lengths)}"
    return records


#: Per fixed-length hash operation: the official files and the message lengths (bits) taken from each;
#: the lengths sit at the padding edges (empty, one byte, last length with one padded block, one block).
HASH_VECTORS: dict[str, list[tuple[Path, set[int]]]] = {
    "md5": [(cryptography_vector("hashes/MD5/rfc-1321.txt"), {0, 8, 24, 112, 208, 496, 640})],
    "sha-1": [(cryptography_vector("hashes/SHA1/SHA1ShortMsg.rsp"), {0, 8, 440, 448, 512})],
    "sha-224": [(cryptography_vector("hashes/SHA2/SHA224ShortMsg.rsp"), {0, 8, 440, 448, 512})],
    "sha-256": [(cryptography_vector("hashes/SHA2/SHA256ShortMsg.rsp"), {0, 8, 440, 448, 512})],
    "sha-512": [(cryptography_vector("hashes/SHA2/SHA512ShortMsg.rsp"), {0, 8, 888, 896, 1024})],
    "sha-384": [(cryptography_vector("hashes/SHA2/SHA384ShortMsg.rsp"), {0, 8, 888, 896, 1024})],
    "sha-512/224": [
        (cryptography_vector("hashes/SHA2/SHA512_224ShortMsg.rsp"), {0, 8, 888, 896, 1024})
    ],
    "sha-512/256": [
        (cryptography_vector("hashes/SHA2/SHA512_256ShortMsg.rsp"), {0, 8, 888, 896, 1024})
    ],
    "sha3-224": [
        (cryptography_vector("hashes/SHA3/SHA3_224ShortMsg.rsp"), {0, 8, 1144, 1152, 1160})
    ],
    "sha3-256": [
        (cryptography_vector("hashes/SHA3/SHA3_256ShortMsg.rsp"), {0, 8, 1080, 1088, 1096})
    ],
    "sha3-384": [(cryptography_vector("hashes/SHA3/SHA3_384ShortMsg.rsp"), {0, 8, 824, 832, 840})],
    "sha3-512": [(cryptography_vector("hashes/SHA3/SHA3_512ShortMsg.rsp"), {0, 8, 568, 576, 584})],
    # SHAKE128ShortMsg gives 128 output bits: the first 16 of the kernel's 32 bytes (an XOF's prefix).
    "shake128-256": [
        (cryptography_vector("hashes/SHAKE/SHAKE128ShortMsg.rsp"), {0, 8, 1336, 1344, 1352})
    ],
    "shake256-256": [
        (cryptography_vector("hashes/SHAKE/SHAKE256ShortMsg.rsp"), {0, 8, 1080, 1088, 1096})
    ],
    "sm3": [
        (cryptography_vector("hashes/SM3/oscca.txt"), {0, 8, 24, 512}),
        (project_vector("sm3/gbt32905-appendix-a.txt"), {24, 512}),
    ],
}

#: Per HMAC operation: the RFC test cases as cryptography_vectors ships them (RFC 2202 for
#: MD5 and SHA-1, RFC 4231 for SHA-2); they include keys longer than the block (hashed first).
HMAC_VECTORS: dict[str, str] = {
    "hmac-md5": "HMAC/rfc-2202-md5.txt",
    "hmac-sha-1": "HMAC/rfc-2202-sha1.txt",
    "hmac-sha-224": "HMAC/rfc-4231-sha224.txt",
    "hmac-sha-256": "HMAC/rfc-4231-sha256.txt",
    "hmac-sha-384": "HMAC/rfc-4231-sha384.txt",
    "hmac-sha-512": "HMAC/rfc-4231-sha512.txt",
}


def official_vectors(
    operation: str,
) -> Iterator[tuple[str, dict[str, bytes | int], dict[str, bytes]]]:
    """(label, inputs by role, expected outputs by role; a shorter expected value is a prefix)."""
    if operation in HASH_VECTORS:
        for path, lengths in HASH_VECTORS[operation]:
            for r in _hash_records(path, lengths):
                expected = r.hex("Output") if "Output" in r.fields else r.hex("MD")
                yield r.label, {"msg": _message(r)}, {"digest": expected}
    elif operation in HMAC_VECTORS:
        # The files split a test around comment lines; the HMAC suite's merger joins them again.
        for test in merge_split_records(
            load_nist_rsp(cryptography_vector(HMAC_VECTORS[operation])), "Len"
        ):
            yield (
                test.label,
                {"key": test.hex("Key"), "msg": test.hex("Msg")},
                {"tag": test.hex("MD")},
            )
    elif operation == "hash-drbg-sha-256-generate":
        return  # the DRBG's official vectors need two Generate calls: test_hash_drbg_cavp_no_reseed
    else:
        raise AssertionError(f"no official vectors listed for {operation}")


HASH_CASES = [case for case in CASES if case[0] != "drbg"]


@pytest.mark.parametrize("core", DEFAULT_CORES)
@pytest.mark.parametrize(
    ("family", "variant", "operation"), HASH_CASES, ids=[f"{f}/{v}:{op}" for f, v, op in HASH_CASES]
)
def test_kernel_equals_official_vectors(
    family: str, variant: str, operation: str, core: str, subtests
) -> None:
    h = harness(family, variant, core)
    op = h.operation(operation)
    vectors = list(official_vectors(operation))
    assert vectors
    for label, inputs, expected in vectors:
        with subtests.test(msg=label):
            want_from_reference = reference(op.reference)(inputs)
            for role, value in expected.items():
                assert want_from_reference[role][: len(value)] == value, (
                    f"{label}: the reference disagrees with the vector"
                )
            run = h.run(inputs, operation)
            assert run.verified, f"{label} on {core}: {run.mismatch}"


# --------------------------------------------------------------------------- Hash_DRBG (SP 800-90A)


def _drbg_vectors() -> Iterator[tuple[str, MergedTest]]:
    """CAVP Hash_DRBG no-reseed tests without additional input (the kernel's Generate takes none).

    The file repeats ``AdditionalInput`` within a test, so the loader splits it; the DRBG suite's
    merger joins the pieces again.
    """
    for test in merge_split_records(
        load_nist_rsp(project_vector("drbg/Hash_DRBG_SHA-256_no_reseed.rsp")), "COUNT"
    ):
        if test.first.section.get("AdditionalInputLen") == "0":
            yield test.label, test


def _check_drbg_record(h: KernelHarness, r: MergedTest) -> None:
    """DRBGVS no-reseed: Instantiate; Generate; Generate; ReturnedBits is the second output."""
    returned = r.hex("ReturnedBits")
    op = h.operation("hash-drbg-sha-256-generate")
    entropy, nonce, perso = r.hex("EntropyInput"), r.hex("Nonce"), r.hex("PersonalizationString")
    # The reference agrees with the vector...
    drbg = HashDRBG(entropy, nonce, perso)
    drbg.generate(len(returned))
    assert drbg.generate(len(returned)) == returned, (
        f"{r.label}: the reference disagrees with the vector"
    )
    # ...and so does the kernel, driven through the same functions the manifest names.
    setup = h.machine.call(
        op.setup,
        Buffer(entropy, "entropy"),
        len(entropy),
        Buffer(nonce, "nonce"),
        len(nonce),
        Buffer(perso, "personalization"),
        len(perso),
        Buffer(bytes(op.context_bytes), "ctx"),
    )
    ctx = setup.buffer("ctx")
    for _ in range(2):
        result = h.machine.call(
            op.function, Buffer(ctx, "ctx"), Buffer(bytes(len(returned)), "out"), len(returned)
        )
        ctx = result.buffer("ctx")
    assert result.buffer("out") == returned, f"{r.label}: kernel gave {result.buffer('out').hex()}"


@pytest.mark.parametrize("variant", ["rolled", "unrolled"])
@pytest.mark.parametrize("core", DEFAULT_CORES)
def test_hash_drbg_kernel_equals_cavp_no_reseed(core: str, variant: str, subtests) -> None:
    vectors = list(_drbg_vectors())
    assert len(vectors) >= 4, [label for label, _ in vectors]
    for label, record in vectors:
        with subtests.test(msg=label):
            _check_drbg_record(harness("drbg", variant, core), record)


# --------------------------------------------------------------------------- random inputs


def _random_inputs(operation: str, data: st.DataObject) -> dict[str, bytes | int]:
    length = data.draw(st.integers(0, 1100), label="length")
    if operation == "hash-drbg-sha-256-generate":
        return {
            "entropy": data.draw(st.binary(min_size=32, max_size=64), label="entropy"),
            "nonce": data.draw(st.binary(min_size=16, max_size=16), label="nonce"),
            "personalization": data.draw(st.binary(max_size=40), label="personalization"),
            "out_len": max(length, 1),
        }
    inputs: dict[str, bytes | int] = {
        "msg": data.draw(st.binary(min_size=length, max_size=length), label="msg")
    }
    if operation.startswith("hmac"):
        inputs["key"] = data.draw(st.binary(max_size=140), label="key")
    return inputs


@pytest.mark.parametrize(("family", "variant", "operation"), CASES, ids=CASE_IDS)
@settings(
    max_examples=3,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_kernel_equals_reference_on_random_inputs(
    family: str, variant: str, operation: str, data
) -> None:
    inputs = _random_inputs(operation, data)
    for core in DEFAULT_CORES:
        run = harness(family, variant, core).run(inputs, operation)
        assert run.verified, f"{core}: {run.mismatch}"


#: The block (sponge rate for SHA-3/SHAKE) in bytes of each operation, where padding and HMAC's
#: key handling change; the DRBG's edge is its 16-byte output granularity.
BLOCK_BYTES: dict[str, int] = {
    "md5": 64,
    "sha-1": 64,
    "sha-224": 64,
    "sha-256": 64,
    "sha-384": 128,
    "sha-512": 128,
    "sha-512/224": 128,
    "sha-512/256": 128,
    "sha3-224": 144,
    "sha3-256": 136,
    "sha3-384": 104,
    "sha3-512": 72,
    "shake128-256": 168,
    "shake256-256": 136,
    "sm3": 64,
    "hash-drbg-sha-256-generate": 16,
}


def block_bytes(operation: str) -> int:
    return BLOCK_BYTES[operation.removeprefix("hmac-")]


def edge_lengths(block: int) -> list[int]:
    """Empty, one byte, the padding limit, one block either side, and more than two blocks."""
    return sorted({0, 1, block - 9, block - 8, block - 1, block, block + 1, 2 * block + 3})


def test_every_operation_of_the_hash_families_is_proven() -> None:
    """New operations or variants of these families must join CASES (and with it the matrix), or
    THUMB2_CASES for the Thumb-2 assembly variants (which no Thumb-1 core builds)."""
    families = {family for family, _, _ in CASES}
    catalogued = {
        (name, variant, op.name)
        for name in families
        for variant in catalog.family(name).variants
        for op in catalog.family(name).operations
    }
    assert catalogued == set(CASES) | {(family, "thumb2_asm", op) for family, op, _ in THUMB2_CASES}


@pytest.mark.parametrize(("family", "variant", "operation"), CASES, ids=CASE_IDS)
def test_kernel_equals_reference_at_block_edges(family: str, variant: str, operation: str) -> None:
    """Lengths around the block size B and the padding limit, where drivers go wrong (M4 only).

    For HMAC the key has the message's length: empty, shorter than, equal to and longer than
    B (hashed first, FIPS 198-1 §4 step 2).
    """
    block = block_bytes(operation)
    rng = random.Random(f"{family}/{variant}/{operation}")
    h = harness(family, variant, "m4")
    for length in edge_lengths(block):
        inputs: dict[str, bytes | int]
        if family == "drbg":
            inputs = {
                "entropy": rng.randbytes(32),
                "nonce": rng.randbytes(16),
                "personalization": b"",
                "out_len": max(2 * length, 1),
            }
        else:
            inputs = {"msg": rng.randbytes(length)}
            if family == "hmac":
                inputs["key"] = rng.randbytes(length)
        run = h.run(inputs, operation)
        assert run.verified, f"length {length}: {run.mismatch}"


# --------------------------------------------------------------------------- constants in the C sources


def test_keccak_header_equals_generator() -> None:
    from refbench.kernels.sha3 import gen_constants

    assert gen_constants.HEADER.read_text(encoding="utf-8") == gen_constants.render()


def test_keccak_interleaved_constants_recombine() -> None:
    from refbench.kernels.sha3.gen_constants import split_even_odd
    from refbench.ref.sha3 import ROUND_CONSTANTS

    for rc in ROUND_CONSTANTS:
        even, odd = split_even_odd(rc)
        rebuilt = sum(
            (((even >> i) & 1) << (2 * i)) | (((odd >> i) & 1) << (2 * i + 1)) for i in range(32)
        )
        assert rebuilt == rc


def _c_array(path: Path, name: str) -> list[int]:
    text = path.read_text(encoding="utf-8")
    match = re.search(rf"{re.escape(name)}\[\d+\]\s*=\s*\{{(.*?)\}};", text, re.DOTALL)
    assert match, f"{name} not found in {path}"
    return [int(token, 16) for token in re.findall(r"0x([0-9a-fA-F]+)", match.group(1))]


def test_sha512_round_constants_equal_the_derived_ones() -> None:
    assert _c_array(KERNELS / "sha512" / "sha512_rounds.h", "K512") == list(sha2.K512)


def test_sm3_unrolled_round_constants_equal_the_rotated_t_j() -> None:
    """GB/T 32905-2016 §5.3.3: round j adds T_j <<< (j mod 32); sm3/unrolled tabulates them."""
    from refbench.ref import sm3

    table = _c_array(KERNELS / "sm3" / "unrolled" / "sm3.c", "TJ_ROTATED")
    assert table == [sm3.ROTL(sm3.T(j), j % 32) for j in range(64)]


def _c_initialisers(path: Path, pattern: str) -> list[list[int]]:
    """The hex constants of every brace initialiser whose left-hand side matches ``pattern``."""
    text = path.read_text(encoding="utf-8")
    found = re.findall(rf"{pattern}\s*=\s*\{{(?:\.[wq]\s*=\s*\{{)?(.*?)\}}", text, re.DOTALL)
    assert found, f"{pattern} not found in {path}"
    return [[int(token, 16) for token in re.findall(r"0x([0-9a-fA-F]+)", body)] for body in found]


def test_initial_hash_values_equal_the_references() -> None:
    """Each family's md_hash (<family>_digest.c) starts from its standard's initial hash value;
    the digests, HMAC and Hash_DRBG all read them from there."""
    from refbench.ref import md5, sha1, sm3

    expected = {
        ("md5", "H0_MD5"): list(md5.INITIAL_BUFFER),
        ("sha1", "H0_SHA1"): list(sha1.INITIAL_HASH_VALUE),
        ("sha256", "H0_SHA224"): list(sha2.H0_SHA224),
        ("sha256", "H0_SHA256"): list(sha2.H0_SHA256),
        ("sha512", "H0_SHA384"): list(sha2.H0_SHA384),
        ("sha512", "H0_SHA512"): list(sha2.H0_SHA512),
        ("sha512", "H0_SHA512_224"): list(sha2.sha512_t_initial_hash_value(224)),
        ("sha512", "H0_SHA512_256"): list(sha2.sha512_t_initial_hash_value(256)),
        ("sm3", "IV_SM3"): list(sm3.IV),
    }
    for (family, name), words in expected.items():
        source = KERNELS / family / f"{family}_digest.c"
        assert _c_initialisers(source, rf"md_chain {name}") == [words], name


def test_md5_sine_table_equals_rfc1321_definition() -> None:
    """RFC 1321 §3.4: T[i] = floor(4294967296 * abs(sin(i))), i in radians."""
    table = _c_array(KERNELS / "md5" / "ref" / "md5.c", "T")
    assert table == [math.floor(abs(math.sin(i)) * 2**32) for i in range(1, 65)]


def test_md5_unrolled_steps_follow_rfc1321() -> None:
    """md5/unrolled writes each §3.4 step's function, word index k, shift s and T[i] as literals:
    they must be the RFC's (round r uses F, G, H, I; k = i, 5i+1, 3i+5, 7i mod 16)."""
    text = (KERNELS / "md5" / "unrolled" / "md5.c").read_text(encoding="utf-8")
    steps = re.findall(
        r"STEP\(MD5_([FGHI]), (\w), (\w), (\w), (\w), (\d+), (\d+), 0x([0-9a-f]{8})\);", text
    )
    shifts = (7, 12, 17, 22, 5, 9, 14, 20, 4, 11, 16, 23, 6, 10, 15, 21)
    expected = []
    for i in range(64):
        r = i // 16
        k = (i, 5 * i + 1, 3 * i + 5, 7 * i)[r] % 16
        registers = "abcd"[-(i % 4) :] + "abcd"[: -(i % 4)] if i % 4 else "abcd"
        t = math.floor(abs(math.sin(i + 1)) * 2**32)
        expected.append(("FGHI"[r], *registers, str(k), str(shifts[4 * r + i % 4]), f"{t:08x}"))
    assert steps == expected


# --------------------------------------------------------------------------- negative


def test_kernel_output_differing_from_reference_is_not_verified() -> None:
    """A kernel is verified only if its output is the reference's: SHA-384 checked as SHA-512 must fail."""
    h = KernelHarness("sha512", "ref", "m4")
    op = h.operation("sha-384")
    wrong = catalog.Operation(op.name, op.function, op.args, "sha-512", 64)
    h.family = catalog.Family(
        h.family.name, h.family.standard, h.family.folder, (wrong,), h.family.variants
    )
    run = h.run({"msg": b"abc"}, "sha-384")
    assert not run.verified
    assert run.mismatch.startswith("digest: expected ")


def test_hash_drbg_generate_advances_the_state() -> None:
    """SP 800-90A §10.1.1.4 steps 4-6: two Generate calls from one instantiation must differ."""
    h = harness("drbg", "rolled", "m4")
    op = h.operation("hash-drbg-sha-256-generate")
    ctx = h.machine.call(
        op.setup,
        Buffer(bytes(range(32)), "entropy"),
        32,
        Buffer(bytes(16), "nonce"),
        16,
        Buffer(b"", "personalization"),
        0,
        Buffer(bytes(op.context_bytes), "ctx"),
    ).buffer("ctx")
    first = h.machine.call(op.function, Buffer(ctx, "ctx"), Buffer(bytes(32), "out"), 32)
    second = h.machine.call(
        op.function, Buffer(first.buffer("ctx"), "ctx"), Buffer(bytes(32), "out"), 32
    )
    assert first.buffer("ctx") != ctx
    assert first.buffer("out") != second.buffer("out")


# --------------------------------------------------------------------------- full matrix


MATRIX_LENGTHS = (0, 1, 55, 56, 64, 103, 104, 111, 112, 128, 135, 136, 143, 144, 168, 1100)


@pytest.mark.matrix
@pytest.mark.parametrize("compiler", ["zig", "gcc"])
@pytest.mark.parametrize("opt", ["Os", "O2", "O3"])
@pytest.mark.parametrize("core", MATRIX_CORES)
@pytest.mark.parametrize(("family", "variant", "operation"), CASES, ids=CASE_IDS)
def test_kernel_matrix(
    family: str, variant: str, operation: str, core: str, opt: str, compiler: str
) -> None:
    if compiler == "gcc":
        assert gcc_available(), "the matrix needs arm-none-eabi-gcc (Debian gcc-arm-none-eabi)"
    h = KernelHarness(family, variant, core, opt=opt, compiler=compiler)
    rng = random.Random(f"{family}/{variant}/{operation}/{core}/{opt}/{compiler}")
    for length in MATRIX_LENGTHS:
        if family == "drbg":
            inputs: dict[str, bytes | int] = {
                "entropy": rng.randbytes(32),
                "nonce": rng.randbytes(16),
                "personalization": rng.randbytes(length % 33),
                "out_len": max(length, 1),
            }
        else:
            inputs = {"msg": rng.randbytes(length)}
            if family == "hmac":
                inputs["key"] = rng.randbytes(length % 140)
        run = h.run(inputs, operation)
        assert run.verified, f"length {length}: {run.mismatch}"
    if family != "drbg":
        for label, inputs, _ in official_vectors(operation):
            run = h.run(inputs, operation)
            assert run.verified, f"{label}: {run.mismatch}"


# --------------------------------------------------------------------------- Thumb-2 assembly

#: The cores sha256/thumb2_asm is built for (ARMv7-M and ARMv8-M Mainline: Thumb-2, REV, LDRD).
THUMB2_CORES = ("m3", "m4", "m7", "m33")


#: (family, operation) of every operation a thumb2_asm variant computes, and the block size whose
#: padding cases the messages cover.
THUMB2_CASES = (
    *(("sha256", op, 64) for op in ("sha-256", "sha-224")),
    *(("sha512", op, 128) for op in ("sha-512", "sha-384", "sha-512/224", "sha-512/256")),
    *(("hmac", op, 64) for op in ("hmac-md5", "hmac-sha-1", "hmac-sha-224", "hmac-sha-256")),
    *(("hmac", op, 128) for op in ("hmac-sha-384", "hmac-sha-512")),
)


@pytest.mark.parametrize("core", THUMB2_CORES)
@pytest.mark.parametrize(("family", "operation", "block"), THUMB2_CASES, ids=[f"{f}:{op}" for f, op, _ in THUMB2_CASES])
def test_thumb2_asm_equals_vectors_and_reference(family: str, operation: str, block: int, core: str,
                                                  subtests) -> None:
    """The hand-written Thumb-2 compressions: the official vectors, then messages around every
    padding case of one to three blocks against the reference."""
    h = harness(family, "thumb2_asm", core)
    for label, inputs, _ in official_vectors(operation):
        with subtests.test(msg=label):
            assert h.run(inputs, operation).verified
    rng = random.Random(operation)
    for length in (0, 1, block - 9, block - 8, block - 1, block, block + 1, 2 * block + 7):
        inputs: dict[str, bytes | int] = {"msg": bytes(rng.randrange(256) for _ in range(length))}
        if family == "hmac":
            inputs["key"] = bytes(rng.randrange(256) for _ in range(length % 150))
        run = h.run(inputs, operation)
        assert run.verified, f"{length} bytes on {core}: {run.mismatch}"


@pytest.mark.parametrize("family", ["sha256", "sha512", "hmac"])
def test_thumb2_asm_is_refused_on_thumb1_cores(family: str) -> None:
    variant = catalog.family(family).variant("thumb2_asm")
    assert not variant.supports("m0plus") and all(variant.supports(core) for core in THUMB2_CORES)
    with pytest.raises(ValueError, match="thumb2_asm"):
        variant.check_core("m0plus")
