"""X448 (RFC 7748): differential tests against pyca/cryptography, small-order points, bad lengths."""

import pytest
from cryptography.hazmat.primitives.asymmetric.x448 import X448PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from hypothesis import given, settings
from hypothesis import strategies as st

from refbench.ref import montgomery

RAW = (Encoding.Raw, PublicFormat.Raw)
P448 = montgomery.CURVE448.p


@settings(max_examples=15, deadline=None)
@given(k=st.binary(min_size=56, max_size=56))
def test_public_key_and_exchange_match_cryptography(k):
    peer = X448PrivateKey.generate()
    mine = X448PrivateKey.from_private_bytes(k)
    assert montgomery.x448_public_key(k) == mine.public_key().public_bytes(*RAW)
    assert montgomery.x448(k, peer.public_key().public_bytes(*RAW)) == mine.exchange(
        peer.public_key()
    )


@pytest.mark.parametrize("u", [0, 1, P448 - 1])
def test_small_order_point_gives_error_not_zero_secret(u):
    with pytest.raises(ValueError, match="all zero"):
        montgomery.x448(bytes(range(56)), u.to_bytes(56, "little"))


@pytest.mark.parametrize("k, u", [(55, 56), (56, 57), (32, 32)])
def test_wrong_lengths_are_rejected(k, u):
    with pytest.raises(ValueError, match="length"):
        montgomery.x448(bytes(k), bytes(u))
