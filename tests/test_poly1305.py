"""Poly1305 (RFC 8439 §2.5): the clamp, differential tests, streaming and bad input.

The official vectors run in tests/test_vectors.py (suites in refbench/suites/chacha.py).
"""

import pytest
from cryptography.hazmat.primitives.poly1305 import Poly1305 as LibraryPoly1305
from hypothesis import given, settings
from hypothesis import strategies as st

from refbench.errors import InvalidTag
from refbench.ref.chacha import P1305, Poly1305, clamp, poly1305_mac

keys = st.binary(min_size=32, max_size=32)
FAST = settings(max_examples=80, deadline=None)


def test_clamp_clears_the_bits_listed_in_section_2_5():
    r = clamp((1 << 128) - 1).to_bytes(16, "little")
    for index in (3, 7, 11, 15):
        assert r[index] == 0x0F  # top four bits clear
    for index in (4, 8, 12):
        assert r[index] == 0xFC  # bottom two bits clear
    for index in (0, 1, 2, 5, 6, 9, 10, 13, 14):
        assert r[index] == 0xFF


def test_clamped_r_of_section_2_5_2():
    r = int.from_bytes(bytes.fromhex("85d6be7857556d337f4452fe42d506a8"), "little")
    assert clamp(r) == 0x806D5400E52447C036D555408BED685


def test_prime_is_2_to_the_130_minus_5():
    assert P1305 == 0x3FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFB


@given(keys, st.binary(max_size=300))
@FAST
def test_poly1305_matches_cryptography_including_empty_and_odd_lengths(key, message):
    assert poly1305_mac(message, key) == LibraryPoly1305.generate_tag(key, message)


@given(keys, st.binary(max_size=200), st.lists(st.integers(min_value=0, max_value=40), max_size=8))
@FAST
def test_streaming_equals_one_shot_under_random_chunking(key, message, cuts):
    mac, rest = Poly1305(key), message
    for cut in cuts:
        mac.update(rest[:cut])
        rest = rest[cut:]
    mac.update(rest)
    assert mac.finalize() == poly1305_mac(message, key)


def test_verify_accepts_the_right_tag_and_rejects_a_flipped_bit():
    key, message = bytes(range(32)), b"Cryptographic Forum Research Group"
    tag = poly1305_mac(message, key)
    Poly1305(key).update(message).verify(tag)
    with pytest.raises(InvalidTag):
        Poly1305(key).update(message).verify(tag[:-1] + bytes([tag[-1] ^ 0x80]))


@pytest.mark.parametrize("length", [0, 15, 17, 32])
def test_verify_with_a_tag_of_wrong_size_is_rejected_as_a_bad_parameter(length):
    mac = Poly1305(bytes(range(32))).update(b"abc")
    with pytest.raises(ValueError, match=rf"tag size \({length} bytes\) for Poly1305; accepted: 16"):
        mac.verify(bytes(length))


@pytest.mark.parametrize("length", [0, 16, 31, 33])
def test_key_of_wrong_size_is_rejected(length):
    with pytest.raises(
        ValueError, match=rf"key size \({length} bytes\) for Poly1305; accepted: 32"
    ):
        Poly1305(bytes(length))


def test_update_after_finalize_is_rejected():
    mac = Poly1305(bytes(32))
    mac.finalize()
    with pytest.raises(ValueError, match=r"update\(\) after finalize\(\)"):
        mac.update(b"x")
    with pytest.raises(ValueError, match=r"finalize\(\) twice"):
        mac.finalize()
