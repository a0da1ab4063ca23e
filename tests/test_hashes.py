"""The shared hash registry (refbench.ref.hashes): names, sizes, streaming, copies, errors."""

from __future__ import annotations

import hashlib
import itertools

import pytest
from cryptography.hazmat.primitives import hashes as crypto_hashes
from hypothesis import given, settings
from hypothesis import strategies as st

from refbench.ref import hashes

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
    "shake128": "shake_128",
    "shake256": "shake_256",
}


def library_digest(name: str, data: bytes, length: int = 64) -> bytes:
    """The same hash from hashlib, or from cryptography for SM3."""
    if name == "sm3":
        h = crypto_hashes.Hash(crypto_hashes.SM3())
        h.update(data)
        return h.finalize()
    h = hashlib.new(HASHLIB_NAMES[name], data)
    return h.digest(length) if name in hashes.XOF_NAMES else h.digest()


def test_names_are_the_agreed_ones():
    assert hashes.NAMES == (
        "md5", "sha-1", "sha-224", "sha-256", "sha-384", "sha-512", "sha-512/224", "sha-512/256",
        "sha3-224", "sha3-256", "sha3-384", "sha3-512", "sm3",
    )  # fmt: skip
    assert hashes.XOF_NAMES == ("shake128", "shake256")


@pytest.mark.parametrize("name", hashes.NAMES)
def test_sizes_match_the_libraries(name):
    if name == "sm3":
        assert (hashes.digest_size(name), hashes.block_size(name)) == (32, 64)
    else:
        reference = hashlib.new(HASHLIB_NAMES[name])
        assert hashes.digest_size(name) == reference.digest_size
        assert hashes.block_size(name) == reference.block_size
    obj = hashes.new(name)
    assert obj.name == name and obj.digest_size == hashes.digest_size(name)


@pytest.mark.parametrize("name", hashes.XOF_NAMES)
def test_xof_block_size_is_the_rate_and_it_has_no_digest_size(name):
    assert hashes.block_size(name) == hashlib.new(HASHLIB_NAMES[name]).block_size
    with pytest.raises(
        ValueError, match=r"Invalid hash name .* an XOF has no fixed output length; accepted: md5"
    ):
        hashes.digest_size(name)


@pytest.mark.parametrize("bad", ["sha256", "SHA-256", "sha-3", "", None, "ripemd160"])
def test_unknown_hash_name_lists_the_valid_names(bad):
    for call in (
        lambda: hashes.new(bad),
        lambda: hashes.digest(bad, b""),
        lambda: hashes.block_size(bad),
    ):
        with pytest.raises(ValueError) as info:
            call()
        message = str(info.value)
        assert f"Unknown hash name ({bad!r})" in message
        assert all(name in message for name in hashes.NAMES + hashes.XOF_NAMES)


def test_xof_digest_needs_a_length():
    with pytest.raises(ValueError, match=r"Invalid length \(None\) for shake128"):
        hashes.digest("shake128", b"abc")
    assert hashes.digest("shake256", b"abc", 7) == hashlib.shake_256(b"abc").digest(7)


def test_fixed_hash_refuses_another_length():
    with pytest.raises(ValueError, match=r"Invalid length \(16\) for sha-256; accepted: 32"):
        hashes.digest("sha-256", b"abc", 16)
    assert hashes.digest("sha-256", b"abc", 32) == hashlib.sha256(b"abc").digest()


def test_text_is_refused_like_hashlib():
    with pytest.raises(TypeError, match="bytes-like"):
        hashes.new("sha-256", "abc")  # type: ignore[arg-type]


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(hashes.NAMES + hashes.XOF_NAMES), st.binary(max_size=400))
def test_every_hash_matches_its_library(name, data):
    if name in hashes.XOF_NAMES:
        assert hashes.digest(name, data, 64) == library_digest(name, data)
    else:
        assert hashes.digest(name, data) == library_digest(name, data)


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(hashes.NAMES + hashes.XOF_NAMES),
    st.binary(max_size=600),
    st.lists(st.integers(0, 600), max_size=8),
)
def test_streaming_equals_one_shot_under_random_chunking(name, data, cuts):
    obj = hashes.new(name)
    points = sorted({0, len(data), *(c for c in cuts if c <= len(data))})
    for start, end in itertools.pairwise(points):
        obj.update(data[start:end])
    if name in hashes.XOF_NAMES:
        assert obj.digest(50) == hashes.digest(name, data, 50)
    else:
        assert obj.digest() == hashes.digest(name, data)
        assert obj.hexdigest() == hashes.digest(name, data).hex()


@pytest.mark.parametrize("name", hashes.NAMES + hashes.XOF_NAMES)
def test_copy_is_independent(name):
    original = hashes.new(name, b"common prefix " * 10)
    twin = original.copy()
    twin.update(b"only in the copy")
    original.update(b"only in the original")
    args = (32,) if name in hashes.XOF_NAMES else ()
    assert (
        original.digest(*args)
        == library_digest(name, b"common prefix " * 10 + b"only in the original", 32)[
            : len(original.digest(*args))
        ]
    )
    assert (
        twin.digest(*args)
        == library_digest(name, b"common prefix " * 10 + b"only in the copy", 32)[
            : len(twin.digest(*args))
        ]
    )


@pytest.mark.parametrize("name", hashes.NAMES)
def test_digest_does_not_finalise(name):
    obj = hashes.new(name, b"abc")
    first = obj.digest()
    assert obj.digest() == first
    obj.update(b"def")
    assert obj.digest() == library_digest(name, b"abcdef")


def test_plain_functions():
    from refbench.ref.sha2 import sha256
    from refbench.ref.sm3 import sm3

    assert sha256(b"abc") == hashes.digest("sha-256", b"abc")
    assert sm3(b"abc") == hashes.digest("sm3", b"abc")
