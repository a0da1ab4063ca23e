"""The block-cipher kernels (AES, GCM, CCM, CMAC, TDEA, SM4) in the emulator equal the references.

Default run: every variant x operation on Cortex-M0+ and Cortex-M4 (zig, -Os) with official
vectors (CAVP files from cryptography_vectors, the SM4 draft's examples) and random inputs of
lengths 0..1100 (hypothesis). The full core x optimisation x compiler matrix is behind
``-m matrix``. An emulator fault propagates with the emulator's message and fails the test.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterator
from functools import cache
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cortexm_emu import Buffer
from cortexm_emu.errors import EmulatorError
from cortexm_emu.toolchain import gcc_available
from refbench.kernels import catalog
from refbench.kernels.harness import KernelHarness
from refbench.kernels.references import reference
from refbench.loaders import cryptography_vector, load_nist_rsp

FAMILIES = ("aes", "gcm", "ccm", "cmac", "tdea", "sm4")
DEFAULT_CORES = ("m0plus", "m4")
MATRIX_CORES = ("m0plus", "m3", "m4", "m7", "m33")
#: Key lengths each family's operations accept (bytes).
KEY_LENGTHS = {
    "aes": (16, 24, 32),
    "gcm": (16, 24, 32),
    "ccm": (16, 24, 32),
    "cmac": (16, 24, 32),
    "tdea": (24, 16),
    "sm4": (16,),
}
BLOCK = {"tdea": 8}

CASES = [
    (fam, variant, op.name)
    for fam in FAMILIES
    for variant in catalog.family(fam).variants
    for op in catalog.family(fam).operations
]


def _case_id(case: tuple[str, str, str]) -> str:
    return "/".join(case)


def _on_cores(cases: list[tuple[str, str, str]], cores: tuple[str, ...]) -> list[Any]:
    """(case, core) for each core the case's variant is built for (its manifest's ``cores``:
    a Thumb-2 assembly variant has no Cortex-M0+ build)."""
    return [
        pytest.param(case, core, id=f"{_case_id(case)}-{core}")
        for case in cases
        for core in cores
        if catalog.family(case[0]).variant(case[1]).supports(core)
    ]


@cache
def harness(
    fam: str, variant: str, core: str, opt: str = "Os", compiler: str = "zig"
) -> KernelHarness:
    return KernelHarness(fam, variant, core, opt=opt, compiler=compiler)


def whole_blocks(fam: str, op: str) -> bool:
    """ECB and CBC (SP 800-38A §6.1-6.2) take whole blocks only."""
    return op.startswith(("ecb", "cbc"))


def make_inputs(
    fam: str, op: str, key: bytes, length: int, aad_length: int, nonce_length: int, seed: bytes
) -> dict[str, Any]:
    """Inputs by role for one operation, the bytes expanded from ``seed`` (SHAKE128) so examples shrink well."""
    block = BLOCK.get(fam, 16)
    stream = hashlib.shake_128(seed).digest(length + aad_length + 64)
    data, aad, rest = (
        stream[:length],
        stream[length : length + aad_length],
        stream[length + aad_length :],
    )
    if op == "cmac":
        return {"key": key, "msg": data}
    if op == "gmac":
        return {"key": key, "nonce": rest[:12], "aad": data}
    if op == "gcm-encrypt":
        return {"key": key, "nonce": rest[:12], "aad": aad, "in": data}
    if op == "ccm-encrypt":
        return {"key": key, "nonce": rest[:nonce_length], "aad": aad, "in": data}
    if op == "ctr":
        return {"key": key, "counter": rest[:block], "in": data}
    if op.startswith("cbc"):
        return {"key": key, "iv": rest[:block], "in": data}
    return {"key": key, "in": data}


def check(h: KernelHarness, inputs: dict[str, Any], op: str, label: str = "") -> None:
    run = h.run(inputs, op)
    assert run.verified, f"{h.variant.path} {op} on {h.core} {label}: {run.mismatch}"


# ---------------------------------------------------------------- official vectors


@cache
def _rsp(path: str) -> tuple:
    return tuple(load_nist_rsp(cryptography_vector(path)))


def _block_mode_vectors(
    fam: str, op: str
) -> Iterator[tuple[str, dict[str, Any], dict[str, bytes]]]:
    encrypt = op in ("ecb-encrypt", "cbc-encrypt", "ctr")
    if fam == "aes":
        mode = op.split("-")[0].upper()
        files = (
            [f"ciphers/AES/CTR/aes-{bits}-ctr.txt" for bits in (128, 192, 256)]
            if mode == "CTR"
            else [f"ciphers/AES/{mode}/{mode}MMT{bits}.rsp" for bits in (128, 192, 256)]
        )
    elif fam == "tdea":
        files = ["ciphers/3DES/CBC/TCBCMMT3.rsp"] if op != "ctr" else []
    else:
        files = [f"ciphers/SM4/draft-ribose-cfrg-sm4-10-{op.split('-')[0]}.txt"]
    for path in files:  # ENCRYPT and DECRYPT records both give a (plaintext, ciphertext) pair
        taken = 0
        for rec in _rsp(path):
            if "PLAINTEXT" not in rec.fields or taken >= 2:
                continue
            taken += 1
            key = (
                rec.hex("KEY")
                if "KEY" in rec.fields
                else rec.hex("KEY1") + rec.hex("KEY2") + rec.hex("KEY3")
            )
            plain, cipher = rec.hex("PLAINTEXT"), rec.hex("CIPHERTEXT")
            source, target = (plain, cipher) if encrypt else (cipher, plain)
            inputs: dict[str, Any] = {"key": key, "in": source}
            if op.startswith("cbc"):
                inputs["iv"] = rec.hex("IV")
            if op == "ctr":
                inputs["counter"] = rec.hex("IV")
            yield f"{path}:{rec.line}", inputs, {"out": target}


def official_vectors(fam: str, op: str) -> list[tuple[str, dict[str, Any], dict[str, bytes]]]:
    if op in ("ecb-encrypt", "cbc-encrypt", "cbc-decrypt", "ctr"):
        return list(_block_mode_vectors(fam, op))
    out = []
    if op in ("gcm-encrypt", "gmac") and fam == "gcm":
        for bits in (128, 256):
            path = f"ciphers/AES/GCM/gcmEncryptExtIV{bits}.rsp"
            for rec in _rsp(path):
                s = rec.section
                if s.get("IVlen") != "96" or s.get("Taglen") != "128":
                    continue
                if (op == "gmac") != (s.get("PTlen") == "0") or int(rec.text("Count")) > 0:
                    continue
                if s.get("AADlen") not in (
                    ("160", "720") if op == "gmac" else ("0", "160")
                ) or s.get("PTlen") not in ("0", "128", "408"):
                    continue
                inputs = {"key": rec.hex("Key"), "nonce": rec.hex("IV"), "aad": rec.hex("AAD")}
                expected = {"tag": rec.hex("Tag")}
                if op == "gcm-encrypt":
                    inputs["in"] = rec.hex("PT")
                    expected["out"] = rec.hex("CT")
                out.append((f"{path}:{rec.line}", inputs, expected))
    if op == "gcm-encrypt" and fam == "sm4":
        path = "ciphers/SM4/rfc8998.txt"  # RFC 8998 A.2, SM4-GCM
        for rec in _rsp(path):
            inputs = {
                "key": rec.hex("KEY"),
                "nonce": rec.hex("IV"),
                "aad": rec.hex("AAD"),
                "in": rec.hex("PLAINTEXT"),
            }
            out.append(
                (
                    f"{path}:{rec.line}",
                    inputs,
                    {"out": rec.hex("CIPHERTEXT"), "tag": rec.hex("TAG")},
                )
            )
    if op == "ccm-encrypt" and fam == "ccm":
        path = "ciphers/AES/CCM/VPT128.rsp"
        key = nonce = b""
        alen = 0
        for rec in _rsp(path):
            if "Alen" in rec.fields:  # the file header: Alen, Nlen, Tlen (16)
                alen = rec.int("Alen")
            if "Key" in rec.fields:
                key, nonce = rec.hex("Key"), rec.hex("Nonce")
            if "Payload" in rec.fields and int(rec.text("Count")) % 30 == 0:
                plen = int(rec.section["Plen"])  # an empty payload is written "00"
                sealed = rec.hex("CT")[: plen + 16]
                inputs = {
                    "key": key,
                    "nonce": nonce,
                    "aad": rec.hex("Adata")[:alen],
                    "in": rec.hex("Payload")[:plen],
                }
                out.append(
                    (f"{path}:{rec.line}", inputs, {"out": sealed[:-16], "tag": sealed[-16:]})
                )
    if op == "cmac":
        path = "CMAC/nist-800-38b-aes128.txt"
        for rec in _rsp(path):
            out.append(
                (
                    f"{path}:{rec.line}",
                    {"key": rec.hex("KEY"), "msg": rec.hex("MESSAGE")},
                    {"tag": rec.hex("OUTPUT")},
                )
            )
    return out


VECTOR_CASES = [case for case in CASES if official_vectors(case[0], case[2])]


def test_every_family_has_official_vectors():
    """Each family is covered by at least one official file (SM4-CCM and TDEA-CTR have none here:
    they are checked against the references only)."""
    assert {fam for fam, _, _ in VECTOR_CASES} == set(FAMILIES)


@pytest.mark.parametrize(("case", "core"), _on_cores(VECTOR_CASES, DEFAULT_CORES))
def test_official_vectors(case, core):
    fam, variant, op = case
    h = harness(fam, variant, core)
    ref = reference(h.operation(op).reference)
    vectors = official_vectors(fam, op)
    assert vectors
    for label, inputs, expected in vectors:
        got = ref(inputs)
        for role, want in expected.items():
            assert got[role] == want, f"reference disagrees with {label} on {role}"
        check(h, inputs, op, label)


#: Variants built only for some cores (assembly), checked by default on those cores too.
CORE_LIMITED_CASES = [
    case for case in VECTOR_CASES if catalog.family(case[0]).variant(case[1]).cores is not None
]


@pytest.mark.parametrize(
    ("case", "core"),
    _on_cores(CORE_LIMITED_CASES, tuple(c for c in MATRIX_CORES if c not in DEFAULT_CORES)),
)
def test_official_vectors_on_the_other_cores_of_an_assembly_variant(case, core):
    """An assembly variant (thumb2_asm) on every core it is built for beyond the default ones:
    the official vectors, then the edge lengths with every key length."""
    fam, variant, op = case
    h = harness(fam, variant, core)
    for label, inputs, _expected in official_vectors(fam, op):
        check(h, inputs, op, label)
    for i, length in enumerate(EDGE_LENGTHS):
        if whole_blocks(fam, op) and length % BLOCK.get(fam, 16):
            continue
        key_len = KEY_LENGTHS[fam][i % len(KEY_LENGTHS[fam])]
        inputs = make_inputs(fam, op, os.urandom(key_len), length, 5 * i, 7 + i % 7, os.urandom(16))
        check(h, inputs, op, f"length {length}")


def test_an_assembly_variant_is_refused_on_the_cortex_m0plus():
    variants = [(fam, v) for fam in FAMILIES for v, spec in catalog.family(fam).variants.items()
                if spec.cores is not None]
    assert variants
    for fam, name in variants:
        with pytest.raises(ValueError, match=name):
            catalog.family(fam).variant(name).check_core("m0plus")


# ---------------------------------------------------------------- random inputs


@st.composite
def random_inputs(draw, fam: str, op: str) -> dict[str, Any]:
    block = BLOCK.get(fam, 16)
    key = draw(st.binary(min_size=32, max_size=32))
    key_len = draw(st.sampled_from(KEY_LENGTHS[fam]))
    key = (key * 2)[:key_len]
    length = draw(st.integers(0, 1100))
    if whole_blocks(fam, op):
        length -= length % block
    aad_length = draw(st.integers(0, 80))
    nonce_length = draw(st.integers(7, 13))
    seed = draw(st.binary(min_size=1, max_size=64))
    return make_inputs(fam, op, key, length, aad_length, nonce_length, seed)


@pytest.mark.parametrize(("case", "core"), _on_cores(CASES, DEFAULT_CORES))
@settings(max_examples=2, deadline=None)
@given(data=st.data())
def test_random_inputs(case, core, data):
    fam, variant, op = case
    check(harness(fam, variant, core), data.draw(random_inputs(fam, op)), op)


#: Lengths at the edges: empty, one byte, a block -1 and +1, three blocks.
EDGE_LENGTHS = (0, 1, 15, 16, 17, 32, 33, 48)  # 32: the two blocks bitsliced AES ciphers per call


@pytest.mark.parametrize(("case", "core"), _on_cores(CASES, DEFAULT_CORES))
def test_edge_lengths(case, core):
    fam, variant, op = case
    block = BLOCK.get(fam, 16)
    h = harness(fam, variant, core)
    for i, length in enumerate(EDGE_LENGTHS):
        if whole_blocks(fam, op) and length % block:
            continue
        key_len = KEY_LENGTHS[fam][i % len(KEY_LENGTHS[fam])]
        inputs = make_inputs(
            fam, op, os.urandom(key_len), length, (7 * i) % 40, 7 + i % 7, os.urandom(16)
        )
        check(h, inputs, op, f"length {length}")


def test_ctr_counter_wraps_whole_block():
    """CTR increments the whole counter block (SP 800-38A B.1): the carry crosses every byte."""
    for fam, variant in (
        ("aes", "ttable4"),
        ("aes", "bitsliced"),
        ("aes", "thumb2_asm"),
        ("tdea", "sptable"),
        ("sm4", "bytewise"),
    ):
        block = BLOCK.get(fam, 16)
        inputs = {
            "key": bytes(range(KEY_LENGTHS[fam][0])),
            "counter": b"\xff" * block,
            "in": bytes(3 * block + 5),
        }
        check(harness(fam, variant, "m4"), inputs, "ctr")


def test_ccm_long_associated_data():
    """Associated data of 2^16 - 2^8 bytes or more uses the 0xfffe || [a]_32 encoding (SP 800-38C A.2.2)."""
    inputs = {
        "key": bytes(16),
        "nonce": bytes(range(13)),
        "aad": bytes(range(256)) * 255,
        "in": b"x" * 20,
    }
    check(harness("ccm", "aes_ttable4", "m4"), inputs, "ccm-encrypt")


def test_emulator_fault_propagates_with_its_message():
    """A kernel writing outside its buffers stops with the emulator's error naming core, symbol and address."""
    h = harness("aes", "ttable4", "m4")
    setup = h.machine.call("aes_setkey", Buffer(bytes(484), "ctx"), Buffer(bytes(16), "key"), 16)
    with pytest.raises(EmulatorError) as info:
        h.machine.call(
            "ecb_encrypt",
            Buffer(setup.buffer("ctx"), "ctx"),
            Buffer(bytes(16), "in"),
            0x6000_0000,
            16,
        )
    message = str(info.value)
    assert "0x60000000" in message and "aes_encrypt_block" in message and "Cortex-M4" in message


# ---------------------------------------------------------------- generated tables


@pytest.mark.parametrize(
    "module",
    [
        "refbench.kernels.aes.gen_tables",
        "refbench.kernels.sm4.gen_tables",
        "refbench.kernels.tdea.gen_tables",
    ],
)
def test_committed_tables_equal_generator(module):
    import importlib

    gen = importlib.import_module(module)
    assert gen.HEADER.read_text() == gen.render(), (
        f"{gen.HEADER.name} is stale: run python -m {module}"
    )


# ---------------------------------------------------------------- full matrix

MATRIX = [
    (case, core, opt, compiler)
    for case in CASES
    for core in MATRIX_CORES
    if catalog.family(case[0]).variant(case[1]).supports(core)
    for opt in ("Os", "O2", "O3")
    for compiler in ("zig", "gcc")
]


@pytest.mark.matrix
@pytest.mark.parametrize(
    ("case", "core", "opt", "compiler"),
    MATRIX,
    ids=[f"{_case_id(c)}-{core}-{opt}-{comp}" for c, core, opt, comp in MATRIX],
)
def test_matrix(case, core, opt, compiler):
    if compiler == "gcc" and not gcc_available():
        pytest.fail("arm-none-eabi-gcc is not installed; the matrix needs both compilers")
    fam, variant, op = case
    h = harness(fam, variant, core, opt, compiler)
    for label, inputs, _expected in official_vectors(fam, op):
        check(h, inputs, op, label)
    block = BLOCK.get(fam, 16)
    for i, length in enumerate((0, 1, 17, 64, 1100, 1024)):
        if whole_blocks(fam, op):
            length -= length % block
        key_len = KEY_LENGTHS[fam][i % len(KEY_LENGTHS[fam])]
        inputs = make_inputs(fam, op, os.urandom(key_len), length, 5 * i, 7 + i, os.urandom(16))
        check(h, inputs, op, f"length {length}")
