"""X25519 (RFC 7748): differential tests against pyca/cryptography, small-order points, bad lengths."""

import pytest
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from hypothesis import given, settings
from hypothesis import strategies as st

from refbench.ref import montgomery

RAW = (Encoding.Raw, PublicFormat.Raw)

# Points of small order on Curve25519 (u-coordinates, little-endian): 0, 1, and the order-8 points.
SMALL_ORDER = [
    "0000000000000000000000000000000000000000000000000000000000000000",
    "0100000000000000000000000000000000000000000000000000000000000000",
    "e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b800",
    "5f9c95bca3508c24b1d0b1559c83ef5b04445cc4581c8e86d8224eddd09f1157",
    "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",  # p − 1
]


@settings(max_examples=30, deadline=None)
@given(k=st.binary(min_size=32, max_size=32))
def test_public_key_and_exchange_match_cryptography(k):
    peer = X25519PrivateKey.generate()
    mine = X25519PrivateKey.from_private_bytes(k)
    assert montgomery.x25519_public_key(k) == mine.public_key().public_bytes(*RAW)
    assert montgomery.x25519(k, peer.public_key().public_bytes(*RAW)) == mine.exchange(
        peer.public_key()
    )


@pytest.mark.parametrize("u", SMALL_ORDER)
def test_small_order_point_gives_error_not_zero_secret(u):
    with pytest.raises(ValueError, match="all zero"):
        montgomery.x25519(bytes(range(1, 33)), bytes.fromhex(u))


def test_non_canonical_u_is_reduced_and_top_bit_masked():
    k = bytes(range(32))
    nine = (9).to_bytes(32, "little")
    p_plus_9 = (montgomery.CURVE25519.p + 9).to_bytes(
        32, "little"
    )  # < 2^255: accepted and reduced (RFC 7748 §5)
    top_bit_set = (9 | (1 << 255)).to_bytes(32, "little")  # the unused top bit is masked
    assert montgomery.x25519(k, p_plus_9) == montgomery.x25519(k, nine)
    assert montgomery.x25519(k, top_bit_set) == montgomery.x25519(k, nine)


@pytest.mark.parametrize("k, u", [(31, 32), (32, 31), (33, 32), (0, 0)])
def test_wrong_lengths_are_rejected(k, u):
    with pytest.raises(ValueError, match="length"):
        montgomery.x25519(bytes(k), bytes(u) if u else b"")


def test_cryptography_public_key_accepted_by_ours():
    a, b = X25519PrivateKey.generate(), X25519PrivateKey.generate()
    ka = a.private_bytes_raw()
    assert montgomery.x25519(ka, b.public_key().public_bytes(*RAW)) == a.exchange(
        X25519PublicKey.from_public_bytes(b.public_key().public_bytes(*RAW))
    )
