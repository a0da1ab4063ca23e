"""Hash_DRBG with SHA-256 (SP 800-90A Rev. 1 §10.1.1): structure, consistency and bad input.

Known-answer correctness is in the CAVP suites (refbench verify --algorithm Hash_DRBG, run by
tests/test_vectors.py); here the same file is also driven directly so a failure names the block.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from refbench.loaders import load_nist_rsp, merge_split_records, project_vector
from refbench.ref import drbg
from refbench.ref.drbg import Hash_df, HashDRBG, ReseedRequired
from refbench.ref.sha2 import sha256
from refbench.suites.drbg import run_cavp_test

ENTROPY = bytes(range(32))
NONCE = bytes(range(100, 116))


def test_table2_parameters_for_sha256():
    assert (drbg.OUTLEN, drbg.SEEDLEN, drbg.SECURITY_STRENGTH) == (256, 440, 256)
    assert drbg.RESEED_INTERVAL == 2**48 and drbg.MAX_BITS_PER_REQUEST == 2**19


def test_hash_df_follows_section_10_3_1():
    data = b"input string"
    expected = sha256(b"\x01" + (440).to_bytes(4, "big") + data) + sha256(
        b"\x02" + (440).to_bytes(4, "big") + data
    )
    assert Hash_df(data, 440) == expected[:55]


@pytest.mark.parametrize("bits", [0, 7, 255 * 256 + 8])
def test_hash_df_rejects_bad_lengths(bits):
    with pytest.raises(ValueError, match=rf"Invalid no_of_bits_to_return \({bits}\)"):
        Hash_df(b"x", bits)


def test_instantiate_sets_V_C_and_counter():
    d = HashDRBG(ENTROPY, NONCE, b"perso")
    assert d.V == Hash_df(ENTROPY + NONCE + b"perso", 440)
    assert d.C == Hash_df(b"\x00" + d.V, 440)
    assert d.reseed_counter == 1


def test_generate_updates_state_and_counter():
    d = HashDRBG(ENTROPY, NONCE)
    V, C = d.V, d.C
    out = d.generate(40)
    assert out == (sha256(V) + sha256((int.from_bytes(V, "big") + 1).to_bytes(55, "big")))[:40]
    H = sha256(b"\x03" + V)
    assert (
        int.from_bytes(d.V, "big")
        == (int.from_bytes(V, "big") + int.from_bytes(H, "big") + int.from_bytes(C, "big") + 1)
        % 2**440
    )
    assert d.reseed_counter == 2


@settings(max_examples=20, deadline=None)
@given(st.binary(min_size=32, max_size=48), st.binary(max_size=40), st.integers(1, 200))
def test_prediction_resistance_equals_reseed_then_generate(entropy_pr, additional, length):
    a = HashDRBG(ENTROPY, NONCE)
    b = HashDRBG(ENTROPY, NONCE)
    out_a = a.generate(length, additional, prediction_resistance_entropy=entropy_pr)
    b.reseed(entropy_pr, additional)
    out_b = b.generate(length)
    assert out_a == out_b and (a.V, a.C) == (b.V, b.C)


def test_same_inputs_same_stream_and_inputs_matter():
    assert HashDRBG(ENTROPY, NONCE).generate(64) == HashDRBG(ENTROPY, NONCE).generate(64)
    assert HashDRBG(ENTROPY, NONCE).generate(64) != HashDRBG(ENTROPY, NONCE, b"p").generate(64)
    assert HashDRBG(ENTROPY, NONCE).generate(64, b"a") != HashDRBG(ENTROPY, NONCE).generate(64)


def test_entropy_shorter_than_security_strength_is_rejected():
    with pytest.raises(
        ValueError,
        match=r"Invalid entropy_input length \(248 bits\) .* accepted: at least 256 bits",
    ):
        HashDRBG(bytes(31), NONCE)
    d = HashDRBG(ENTROPY, NONCE)
    with pytest.raises(ValueError, match=r"Invalid entropy_input length \(0 bits\)"):
        d.reseed(b"")


@pytest.mark.parametrize("count", [0, -1, 65537])
def test_request_size_limits(count):
    with pytest.raises(
        ValueError, match=rf"Invalid requested_number_of_bytes \({count}\) .* accepted: 1 to 65536"
    ):
        HashDRBG(ENTROPY, NONCE).generate(count)


def test_largest_request_is_allowed():
    assert len(HashDRBG(ENTROPY, NONCE).generate(65536)) == 65536


def test_reseed_required_after_reseed_interval():
    d = HashDRBG(ENTROPY, NONCE)
    d.reseed_counter = drbg.RESEED_INTERVAL + 1
    with pytest.raises(ReseedRequired):
        d.generate(16)
    d.reseed(ENTROPY)
    assert d.reseed_counter == 1 and len(d.generate(16)) == 16


@pytest.mark.parametrize("variant", ["no_reseed", "pr_false", "pr_true"])
def test_cavp_subset_blocks(variant):
    tests = merge_split_records(
        load_nist_rsp(project_vector(f"drbg/Hash_DRBG_SHA-256_{variant}.rsp")), "COUNT"
    )
    assert len(tests) >= 4
    for test in tests:
        assert run_cavp_test(test, variant) == test.hex("ReturnedBits"), test.label


def test_cavp_block_with_a_changed_entropy_fails():
    test = merge_split_records(
        load_nist_rsp(project_vector("drbg/Hash_DRBG_SHA-256_pr_true.rsp")), "COUNT"
    )[0]
    items = tuple(
        (n, ("00" + v[2:]) if n == "EntropyInputPR" else v, line) for n, v, line in test.items
    )
    changed = type(test)(test.first, items)
    assert run_cavp_test(changed, "pr_true") != test.hex("ReturnedBits")
