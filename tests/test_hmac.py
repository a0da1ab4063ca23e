"""HMAC (FIPS 198-1 / RFC 2104) over every registry hash: stdlib/cryptography differential, errors."""

from __future__ import annotations

import hmac as stdlib_hmac
import itertools

import pytest
from cryptography.hazmat.primitives import hashes as crypto_hashes
from cryptography.hazmat.primitives import hmac as crypto_hmac
from hypothesis import given, settings
from hypothesis import strategies as st

from refbench.errors import InvalidTag
from refbench.ref import hashes
from refbench.ref.hmac import HMAC, K0, equal_constant_time, hmac, hmac_verify

HASHLIB_NAMES = {
    "md5": "md5",
    "sha-1": "sha1",
    "sha-224": "sha224",
    "sha-256": "sha256",
    "sha-384": "sha384",
    "sha-512": "sha512",
    "sha-512/224": "sha512_224",
    "sha-512/256": "sha512_256",
    "sha3-224": "sha3_224",
    "sha3-256": "sha3_256",
    "sha3-384": "sha3_384",
    "sha3-512": "sha3_512",
}


def library_hmac(name: str, key: bytes, message: bytes) -> bytes:
    if name == "sm3":
        h = crypto_hmac.HMAC(key, crypto_hashes.SM3())
        h.update(message)
        return h.finalize()
    return stdlib_hmac.new(key, message, HASHLIB_NAMES[name]).digest()


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(hashes.NAMES), st.binary(max_size=200), st.binary(max_size=300))
def test_hmac_matches_the_libraries(name, key, message):
    assert hmac(name, key, message) == library_hmac(name, key, message)


@pytest.mark.parametrize("name", hashes.NAMES)
def test_keys_around_the_block_size(name):
    B = hashes.block_size(name)
    for length in (0, 1, B - 1, B, B + 1, 2 * B + 3):
        key = bytes((i * 13) & 0xFF for i in range(length))
        assert hmac(name, key, b"message") == library_hmac(name, key, b"message"), length


def test_K0_pads_or_hashes_the_key():
    assert K0("sha-256", b"k") == b"k" + bytes(63)
    long_key = bytes(65)
    assert K0("sha-256", long_key) == hashes.digest("sha-256", long_key) + bytes(32)


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from(hashes.NAMES),
    st.binary(max_size=300),
    st.lists(st.integers(0, 300), max_size=6),
)
def test_streaming_equals_one_shot(name, message, cuts):
    mac = HMAC(name, b"key")
    points = sorted({0, len(message), *(c for c in cuts if c <= len(message))})
    for start, end in itertools.pairwise(points):
        mac.update(message[start:end])
    assert mac.digest() == hmac(name, b"key", message)
    assert mac.hexdigest() == hmac(name, b"key", message).hex()


def test_copy_is_independent():
    mac = HMAC("sha-256", b"key", b"prefix")
    twin = mac.copy()
    twin.update(b"-copy")
    mac.update(b"-original")
    assert mac.digest() == library_hmac("sha-256", b"key", b"prefix-original")
    assert twin.digest() == library_hmac("sha-256", b"key", b"prefix-copy")


def test_verify_accepts_full_and_truncated_tags():
    tag = hmac("sha-256", b"key", b"text")
    hmac_verify("sha-256", b"key", b"text", tag)
    hmac_verify("sha-256", b"key", b"text", tag[:16])  # RFC 4231 test case 5 style truncation


@pytest.mark.parametrize("position", [0, 15, 31])
def test_verify_rejects_a_flipped_bit_with_invalid_tag(position):
    tag = bytearray(hmac("sha-256", b"key", b"text"))
    tag[position] ^= 0x01
    with pytest.raises(InvalidTag) as info:
        hmac_verify("sha-256", b"key", b"text", bytes(tag))
    assert str(info.value) == ""


def test_verify_rejects_wrong_message():
    tag = hmac("sha-1", b"key", b"text")
    with pytest.raises(InvalidTag):
        hmac_verify("sha-1", b"key", b"texT", tag)


@pytest.mark.parametrize("length", [0, 3, 33])
def test_verify_tag_length_out_of_range(length):
    with pytest.raises(
        ValueError,
        match=rf"Invalid tag length \({length} bytes\) for HMAC-sha-256; accepted: 4 to 32",
    ):
        hmac_verify("sha-256", b"key", b"text", bytes(length))


def test_xof_is_not_an_hmac_hash():
    with pytest.raises(ValueError, match=r"Invalid hash name \('shake128'\) for HMAC"):
        HMAC("shake128", b"key")


def test_unknown_hash_name():
    with pytest.raises(ValueError, match=r"Unknown hash name \('sha256'\); accepted: md5, sha-1"):
        hmac("sha256", b"key", b"text")


def test_cavp_subset_agrees_with_stdlib_and_reference():
    from refbench.loaders import iter_blocks, load_nist_rsp, project_vector

    path = project_vector("hash/HMAC_SHA-256_CAVS21.3_subset.rsp")
    records = list(iter_blocks(load_nist_rsp(path), "Key", "Msg", "Mac"))
    assert [r.int("Count") for r in records] == [0, 15, 30, 60]
    for r in records:
        key, message, mac = r.hex("Key"), r.hex("Msg"), r.hex("Mac")
        assert len(key) == r.int("Klen") and len(mac) == r.int("Tlen")
        assert stdlib_hmac.new(key, message, "sha256").digest()[: len(mac)] == mac, r.label
        hmac_verify("sha-256", key, message, mac)


@pytest.mark.parametrize(
    ("a", "b", "equal"),
    [
        (b"", b"", True),
        (b"\x00" * 32, b"\x00" * 32, True),
        (b"\x00" * 32, b"\x00" * 31 + b"\x01", False),  # last byte differs
        (b"\x80" + b"\x00" * 31, b"\x00" * 32, False),  # first byte differs
        (b"abc", b"abcd", False),  # lengths differ
    ],
)
def test_equal_constant_time_agrees_with_equality(a, b, equal):
    assert equal_constant_time(a, b) is equal
