"""SM3 (GB/T 32905-2016): constants, Appendix A examples, differential tests against cryptography."""

from __future__ import annotations

from cryptography.hazmat.primitives import hashes as crypto_hashes
from hypothesis import given, settings
from hypothesis import strategies as st

from refbench.loaders import load_nist_rsp, project_vector
from refbench.ref import sm3


def cryptography_sm3(data: bytes) -> bytes:
    h = crypto_hashes.Hash(crypto_hashes.SM3())
    h.update(data)
    return h.finalize()


def test_iv_and_constants_gbt32905_section_4():
    # §4.1 IV and §4.2 T_j, as printed.
    assert sm3.IV == (
        0x7380166F,
        0x4914B2B9,
        0x172442D7,
        0xDA8A0600,
        0xA96F30BC,
        0x163138AA,
        0xE38DEE4D,
        0xB0FB0E4E,
    )
    assert {sm3.T(j) for j in range(16)} == {0x79CC4519}
    assert {sm3.T(j) for j in range(16, 64)} == {0x7A879D8A}


def test_permutations_are_linear_and_rotations():
    assert sm3.P0(1) == 1 | (1 << 9) | (1 << 17)
    assert sm3.P1(1) == 1 | (1 << 15) | (1 << 23)
    assert sm3.ROTL(0x80000000, 1) == 1
    assert sm3.ROTL(0x12345678, 32) == 0x12345678  # j mod 32 for T_j <<< j


def test_appendix_a_examples():
    records = load_nist_rsp(project_vector("sm3/gbt32905-appendix-a.txt"))
    assert len(records) == 2
    assert sm3.sm3(b"abc").hex() == records[0].text("MD")
    assert sm3.sm3(b"abcd" * 16).hex() == records[1].text("MD")


def test_appendix_a1_message_expansion_first_words():
    # GB/T 32905-2016 A.1: the padded "abc" block starts 61626380 00000000 ... and ends 00000018.
    block = b"abc" + sm3.SM3(b"abc").padding()
    W, W_prime = sm3.message_expansion(block)
    assert W[0] == 0x61626380 and W[15] == 0x00000018
    assert W_prime[0] == W[0] ^ W[4]
    assert len(W) == 68 and len(W_prime) == 64


@settings(max_examples=50, deadline=None)
@given(st.binary(max_size=300))
def test_sm3_matches_cryptography(data):
    assert sm3.sm3(data) == cryptography_sm3(data)


def test_sm3_lengths_around_the_padding_boundary():
    for length in (0, 1, 55, 56, 57, 63, 64, 65, 128):
        data = bytes(range(length))
        assert sm3.SM3(data).digest() == cryptography_sm3(data), length
