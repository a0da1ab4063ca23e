"""The ChaCha20, Poly1305, ChaCha20-Poly1305 and Ascon kernels in the emulated Cortex-M, against the references.

Default run: every variant x operation on Cortex-M0+ and Cortex-M4 (zig, -Os) with a few
official vectors per algorithm and random inputs of 0..1100 bytes (hypothesis). For each
official vector: the reference gives the vector's value, and the kernel output equals the
reference (``KernelRun.verified``, compared byte for byte by the harness). These kernels
encrypt or authenticate only; the vector files' decryption-failure cases (OpenSSL
``Result = CIPHERFINAL_ERROR``) have no encryption counterpart and are left to the reference
suites. The full matrix (m0plus, m3, m4, m7, m33 x Os/O2/O3 x zig/gcc) runs with ``-m matrix``.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cortexm_emu.toolchain import gcc_available
from refbench.kernels import catalog
from refbench.kernels.harness import KernelHarness
from refbench.kernels.references import reference
from refbench.loaders import cryptography_vector, iter_blocks, load_nist_rsp, project_vector

DEFAULT_CORES = ("m0plus", "m4")
MATRIX_CORES = ("m0plus", "m3", "m4", "m7", "m33")

CASES: tuple[tuple[str, str, str], ...] = (
    ("chacha20", "ref", "chacha20"),
    ("chacha20", "unrolled", "chacha20"),
    ("poly1305", "limb26", "poly1305"),
    ("poly1305", "limb32", "poly1305"),
    ("chacha20_poly1305", "ref", "chacha20-poly1305-encrypt"),
    ("chacha20_poly1305", "unrolled", "chacha20-poly1305-encrypt"),
    ("ascon", "lanes64", "ascon-aead128-encrypt"),
    ("ascon", "lanes64", "ascon-hash256"),
    ("ascon", "interleaved32", "ascon-aead128-encrypt"),
    ("ascon", "interleaved32", "ascon-hash256"),
)
CASE_IDS = [f"{f}/{v}:{op}" for f, v, op in CASES]

#: Ascon-AEAD128 KAT records taken (Count): empty/short inputs, every AD padding case of one
#: block, and the two-block plaintexts at the end of the subset.
ASCON_AEAD_COUNTS = {1, 2, 16, 17, 18, 34, 35, 50, 67, 1048, 1065, 1089}


@cache
def harness(
    family: str, variant: str, core: str, opt: str = "Os", compiler: str = "zig"
) -> KernelHarness:
    return KernelHarness(family, variant, core, opt=opt, compiler=compiler)


def official_vectors(
    operation: str,
) -> Iterator[tuple[str, dict[str, bytes | int], dict[str, bytes]]]:
    """(label, inputs by role, expected outputs by role)."""
    if operation == "chacha20":
        # RFC 7539 Appendix A.2 as cryptography_vectors ships it, and RFC 8439 §2.4.2.
        for r in load_nist_rsp(cryptography_vector("ciphers/ChaCha20/rfc7539.txt")):
            inputs = {
                "key": r.hex("KEY"),
                "nonce": r.hex("NONCE"),
                "counter32": r.int("INITIAL_BLOCK_COUNTER"),
                "in": r.hex("PLAINTEXT"),
            }
            yield r.label, inputs, {"out": r.hex("CIPHERTEXT")}
        for r in load_nist_rsp(project_vector("rfc8439/rfc8439-examples.txt")):
            if r.section.get("ENCRYPT") is not None and "CIPHERTEXT" in r.fields:
                inputs = {
                    "key": r.hex("KEY"),
                    "nonce": r.hex("NONCE"),
                    "counter32": r.int("COUNTER"),
                    "in": r.hex("PLAINTEXT"),
                }
                yield r.label, inputs, {"out": r.hex("CIPHERTEXT")}
    elif operation == "poly1305":
        for r in iter_blocks(
            load_nist_rsp(cryptography_vector("poly1305/rfc7539.txt")), "KEY", "MSG", "TAG"
        ):
            yield r.label, {"key": r.hex("KEY"), "msg": r.hex("MSG")}, {"tag": r.hex("TAG")}
        for r in load_nist_rsp(project_vector("rfc8439/rfc8439-examples.txt")):
            if r.section.get("POLY1305") is not None and "TAG" in r.fields:
                yield r.label, {"key": r.hex("KEY"), "msg": r.hex("MSG")}, {"tag": r.hex("TAG")}
    elif operation == "chacha20-poly1305-encrypt":
        for r in iter_blocks(
            load_nist_rsp(cryptography_vector("ciphers/ChaCha20Poly1305/openssl.txt")), "Key", "Tag"
        ):
            if "Result" in r.fields:
                continue  # a decryption failure case: not applicable to an encryption kernel
            inputs = {
                "key": r.hex("Key"),
                "nonce": r.hex("IV"),
                "aad": r.hex("AAD"),
                "in": r.hex("Plaintext"),
            }
            yield r.label, inputs, {"out": r.hex("Ciphertext"), "tag": r.hex("Tag")}
        for r in load_nist_rsp(project_vector("rfc8439/rfc8439-examples.txt")):
            if r.section.get("AEAD") is not None and "TAG" in r.fields:
                inputs = {
                    "key": r.hex("KEY"),
                    "nonce": r.hex("NONCE"),
                    "aad": r.hex("AAD"),
                    "in": r.hex("PLAINTEXT"),
                }
                yield r.label, inputs, {"out": r.hex("CIPHERTEXT"), "tag": r.hex("TAG")}
    elif operation == "ascon-aead128-encrypt":
        for r in load_nist_rsp(project_vector("ascon/LWC_AEAD_KAT_128_128.txt")):
            if r.int("Count") in ASCON_AEAD_COUNTS:
                sealed = r.hex("CT")
                inputs = {
                    "key": r.hex("Key"),
                    "nonce": r.hex("Nonce"),
                    "aad": r.hex("AD"),
                    "in": r.hex("PT"),
                }
                yield r.label, inputs, {"out": sealed[:-16], "tag": sealed[-16:]}
    elif operation == "ascon-hash256":
        for r in load_nist_rsp(
            project_vector("ascon/LWC_HASH_XOF_KAT_records_from_ACVP-Server.txt")
        ):
            if "Ascon-Hash256" in r.section and "MD" in r.fields:
                yield r.label, {"msg": r.hex("Msg")}, {"digest": r.hex("MD")}
    else:
        raise AssertionError(f"no official vectors listed for {operation}")


def test_every_variant_of_the_stream_families_is_proven() -> None:
    """New operations or variants of these families must join CASES (and with it the matrix)."""
    families = {family for family, _, _ in CASES}
    catalogued = {
        (name, variant, op.name)
        for name in families
        for variant in catalog.family(name).variants
        for op in catalog.family(name).operations
    }
    assert catalogued == set(CASES)


@pytest.mark.parametrize("operation", sorted({op for _, _, op in CASES}))
def test_official_vector_selection_is_not_empty(operation: str) -> None:
    vectors = list(official_vectors(operation))
    assert len(vectors) >= 2, [label for label, _, _ in vectors]


@pytest.mark.parametrize("core", DEFAULT_CORES)
@pytest.mark.parametrize(("family", "variant", "operation"), CASES, ids=CASE_IDS)
def test_kernel_equals_official_vectors(
    family: str, variant: str, operation: str, core: str, subtests
) -> None:
    h = harness(family, variant, core)
    op = h.operation(operation)
    for label, inputs, expected in official_vectors(operation):
        with subtests.test(msg=label):
            assert reference(op.reference)(inputs) == expected, (
                f"{label}: the reference disagrees with the vector"
            )
            run = h.run(inputs, operation)
            assert run.verified, f"{label} on {core}: {run.mismatch}"


def chacha20_inputs(key: bytes, nonce: bytes, counter: int, data: bytes) -> dict[str, bytes | int]:
    """Inputs of the chacha20 operation; the counter is lowered so that the 32-bit block counter
    does not wrap within the message (the reference refuses a wrapping counter with ValueError)."""
    blocks = -(-len(data) // 64)
    return {
        "key": key,
        "nonce": nonce,
        "counter32": min(counter, 2**32 - max(blocks, 1)),
        "in": data,
    }


def _random_inputs(operation: str, length: int, draw) -> dict[str, bytes | int]:
    data = draw(st.binary(min_size=length, max_size=length), label="data")
    if operation == "poly1305":
        return {"key": draw(st.binary(min_size=32, max_size=32), label="key"), "msg": data}
    if operation == "ascon-hash256":
        return {"msg": data}
    if operation == "chacha20":
        return chacha20_inputs(
            draw(st.binary(min_size=32, max_size=32), label="key"),
            draw(st.binary(min_size=12, max_size=12), label="nonce"),
            draw(st.integers(0, 2**32 - 1), label="counter"),
            data,
        )
    key_size, nonce_size = (32, 12) if operation.startswith("chacha20") else (16, 16)
    return {
        "key": draw(st.binary(min_size=key_size, max_size=key_size), label="key"),
        "nonce": draw(st.binary(min_size=nonce_size, max_size=nonce_size), label="nonce"),
        "aad": draw(st.binary(max_size=40), label="aad"),
        "in": data,
    }


@pytest.mark.parametrize(("family", "variant", "operation"), CASES, ids=CASE_IDS)
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_kernel_equals_reference_on_random_inputs(
    family: str, variant: str, operation: str, data
) -> None:
    length = data.draw(st.integers(0, 1100), label="length")
    inputs = _random_inputs(operation, length, data.draw)
    for core in DEFAULT_CORES:
        run = harness(family, variant, core).run(inputs, operation)
        assert run.verified, f"{core}: {run.mismatch}"


@pytest.mark.parametrize(("family", "variant", "operation"), CASES, ids=CASE_IDS)
def test_kernel_equals_reference_at_block_edges(family: str, variant: str, operation: str) -> None:
    """Lengths around the rate/block (8, 16 or 64 bytes) for data and associated data (M4 only).

    ChaCha20 runs its last block with the block counter at 2**32 - 1 (the top of the counter).
    """
    rng = random.Random(f"{family}/{variant}/{operation}")
    h = harness(family, variant, "m4")
    lengths = (0, 1, 7, 8, 9, 15, 16, 17, 31, 32, 33, 64)
    if family == "chacha20":
        lengths += (63, 65, 127, 128, 129)
    for length in lengths:
        for aad_length in (0, 15, 16, 17) if "encrypt" in operation else (0,):
            if operation == "chacha20":
                inputs: dict[str, bytes | int] = chacha20_inputs(
                    rng.randbytes(32), rng.randbytes(12), 2**32 - 1, rng.randbytes(length)
                )
            elif operation == "poly1305":
                inputs = {
                    "key": rng.randbytes(32),
                    "msg": rng.randbytes(length),
                }
            elif operation == "ascon-hash256":
                inputs = {"msg": rng.randbytes(length)}
            else:
                key_size, nonce_size = (32, 12) if family == "chacha20_poly1305" else (16, 16)
                inputs = {
                    "key": rng.randbytes(key_size),
                    "nonce": rng.randbytes(nonce_size),
                    "aad": rng.randbytes(aad_length),
                    "in": rng.randbytes(length),
                }
            run = h.run(inputs, operation)
            assert run.verified, f"length {length}, aad {aad_length}: {run.mismatch}"


def test_poly1305_limbs_reduce_the_largest_accumulator() -> None:
    """h close to 2^130 - 5 must be fully reduced: all-ones r and s and 0xff blocks push every limb to its top."""
    key = bytes([0xFF]) * 32
    for length in (16, 32, 1024):
        for variant in ("limb26", "limb32"):
            for core in DEFAULT_CORES:
                run = harness("poly1305", variant, core).run(
                    {"key": key, "msg": bytes([0xFF]) * length}
                )
                assert run.verified, f"{variant} {core} length {length}: {run.mismatch}"


def test_ascon_header_equals_generator() -> None:
    from refbench.kernels.ascon import gen_constants

    assert gen_constants.HEADER.read_text(encoding="utf-8") == gen_constants.render()


def test_ascon_interleaved_constants_recombine() -> None:
    from refbench.kernels.ascon.gen_constants import interleaved_round_constants
    from refbench.ref.ascon import round_constant

    pairs = interleaved_round_constants()
    for index, i in enumerate(range(4, 16)):
        even, odd = pairs[2 * index], pairs[2 * index + 1]
        rebuilt = sum(
            (((even >> b) & 1) << (2 * b)) | (((odd >> b) & 1) << (2 * b + 1)) for b in range(4)
        )
        assert rebuilt == round_constant(i)


def test_ascon_kernel_with_wrong_key_is_not_verified() -> None:
    """The harness must reject an AEAD output that is not the reference's: the kernel gets another key."""
    h = harness("ascon", "lanes64", "m4")
    key, nonce = bytes(range(16)), bytes(range(16, 32))
    run = h.run(
        {"key": key, "nonce": nonce, "aad": b"", "in": b"attack at dawn"}, "ascon-aead128-encrypt"
    )
    assert run.verified
    from refbench.kernels import references

    original = references.REFERENCES["ascon-aead128-encrypt"]
    references.REFERENCES["ascon-aead128-encrypt"] = lambda a: original({**a, "key": bytes(16)})
    try:
        run = h.run(
            {"key": key, "nonce": nonce, "aad": b"", "in": b"attack at dawn"},
            "ascon-aead128-encrypt",
        )
    finally:
        references.REFERENCES["ascon-aead128-encrypt"] = original
    assert not run.verified
    assert "tag: expected" in run.mismatch


MATRIX_LENGTHS = (0, 1, 15, 16, 17, 64, 1100)


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
        if operation == "chacha20":
            inputs: dict[str, bytes | int] = chacha20_inputs(
                rng.randbytes(32), rng.randbytes(12), rng.getrandbits(32), rng.randbytes(length)
            )
        elif operation == "poly1305":
            inputs = {
                "key": rng.randbytes(32),
                "msg": rng.randbytes(length),
            }
        elif operation == "ascon-hash256":
            inputs = {"msg": rng.randbytes(length)}
        else:
            key_size, nonce_size = (32, 12) if family == "chacha20_poly1305" else (16, 16)
            inputs = {
                "key": rng.randbytes(key_size),
                "nonce": rng.randbytes(nonce_size),
                "aad": rng.randbytes(length % 37),
                "in": rng.randbytes(length),
            }
        run = h.run(inputs, operation)
        assert run.verified, f"length {length}: {run.mismatch}"
    for label, inputs, _ in official_vectors(operation):
        run = h.run(inputs, operation)
        assert run.verified, f"{label}: {run.mismatch}"
