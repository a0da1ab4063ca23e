"""DSA (FIPS 186-4): differential tests against pyca/cryptography, RFC 6979 nonces, bad input."""

import hashlib

import pytest
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import dsa as their_dsa
from cryptography.hazmat.primitives.asymmetric.utils import (
    decode_dss_signature,
    encode_dss_signature,
)
from hypothesis import given, settings
from hypothesis import strategies as st

from refbench.errors import InvalidSignature
from refbench.loaders import project_vector
from refbench.ref import dsa
from refbench.ref.rfc6979 import bits2int
from refbench.suites.dsa import records

THEIR_HASHES = {
    "sha-1": hashes.SHA1(),
    "sha-224": hashes.SHA224(),
    "sha-256": hashes.SHA256(),
    "sha-512": hashes.SHA512(),
}
def _published_parameters() -> dsa.DSAParameters:
    """The fixed domain parameters of RFC 6979 A.2.1 (the project's vector file): the tests are the
    same on every run, and nothing is generated at import time."""
    record = next(r for r in records(project_vector("rfc6979/dsa_1024.txt")) if "P" in r)
    return dsa.DSAParameters(record.int("P", 16), record.int("Q", 16), record.int("G", 16))


PARAMS = _published_parameters()
_THEIR_PARAMS = their_dsa.DSAParameterNumbers(PARAMS.p, PARAMS.q, PARAMS.g).parameters()


@settings(max_examples=12, deadline=None)
@given(message=st.binary(max_size=300), hname=st.sampled_from(sorted(THEIR_HASHES)))
def test_signatures_interoperate_with_cryptography(message, hname):
    theirs = _THEIR_PARAMS.generate_private_key()
    x = theirs.private_numbers().x
    y = theirs.public_key().public_numbers().y
    assert dsa.public_key(PARAMS, x) == y
    ours = dsa.sign(PARAMS, x, message, hname)
    theirs.public_key().verify(encode_dss_signature(*ours), message, THEIR_HASHES[hname])
    dsa.verify(
        PARAMS, y, message, decode_dss_signature(theirs.sign(message, THEIR_HASHES[hname])), hname
    )


def test_rfc6979_nonce_is_deterministic_and_verifies():
    x = dsa.generate_private_key(PARAMS)
    y = dsa.public_key(PARAMS, x)
    first = dsa.sign(PARAMS, x, b"sample", "sha-256", nonce="rfc6979")
    assert first == dsa.sign(PARAMS, x, b"sample", "sha-256", nonce="rfc6979")
    assert first != dsa.sign(PARAMS, x, b"test", "sha-256", nonce="rfc6979")
    dsa.verify(PARAMS, y, b"sample", first, "sha-256")


@pytest.mark.parametrize("sig", [(0, 1), (1, 0), (PARAMS.q, 1), (1, PARAMS.q)])
def test_signature_out_of_range_is_rejected(sig):
    y = dsa.public_key(PARAMS, 12345)
    with pytest.raises(InvalidSignature):
        dsa.verify(PARAMS, y, b"m", sig)


def test_modified_message_is_rejected():
    x = 987654321
    sig = dsa.sign(PARAMS, x, b"m")
    with pytest.raises(InvalidSignature):
        dsa.verify(PARAMS, dsa.public_key(PARAMS, x), b"n", sig)


def test_public_key_validation():
    outside = next(h for h in range(3, 100) if pow(h, PARAMS.q, PARAMS.p) != 1)
    with pytest.raises(ValueError, match="subgroup"):
        dsa.validate_public_key(PARAMS, outside)
    with pytest.raises(ValueError, match="2, p"):
        dsa.validate_public_key(PARAMS, 1)
    dsa.validate_public_key(PARAMS, dsa.public_key(PARAMS, 5))


@pytest.mark.parametrize("y", [1, PARAMS.p + 1], ids=["y=1", "y=p+1"])
def test_public_key_congruent_to_one_is_rejected(y):
    # Against y ≡ 1, (r, s) = (g^k mod p mod q, z/k mod q) verifies for any message:
    # u1 = k, and g^u1 · y^u2 = g^k. FIPS 186-4 §4.7 needs 1 < y < p to refuse it.
    q, k = PARAMS.q, 1234567
    z = bits2int(hashlib.sha256(b"m").digest(), q.bit_length())
    r = pow(PARAMS.g, k, PARAMS.p) % q
    s = z * pow(k, -1, q) % q
    with pytest.raises(InvalidSignature):
        dsa.verify(PARAMS, y, b"m", (r, s), "sha-256")


def test_unsupported_sizes_are_rejected():
    with pytest.raises(ValueError, match="Invalid DSA sizes"):
        dsa.DSAParameters(23, 11, 4)


def test_private_key_out_of_range_is_rejected():
    with pytest.raises(ValueError, match="Invalid private key"):
        dsa.sign(PARAMS, PARAMS.q, b"m")
