"""RSA (RFC 8017): key generation, CRT vs plain private operation, differential tests against pyca/cryptography, bad input."""

import math

import pytest
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding
from cryptography.hazmat.primitives.asymmetric import rsa as their_rsa
from hypothesis import given, settings
from hypothesis import strategies as st

from refbench.errors import InvalidSignature
from refbench.ref import modarith, rsa

THEIR_HASHES = {
    "sha-1": hashes.SHA1(),
    "sha-256": hashes.SHA256(),
    "sha-384": hashes.SHA384(),
    "sha-512": hashes.SHA512(),
}
_KEYS = {bits: their_rsa.generate_private_key(65537, bits) for bits in (1024, 2048)}


def _ours(theirs) -> rsa.RSAPrivateKey:
    n = theirs.private_numbers()
    return rsa.private_key_from_primes(n.p, n.q, n.public_numbers.e, n.d)


def test_generated_key_is_consistent():
    key = rsa.generate_private_key(1024)
    assert key.n.bit_length() == 1024
    assert modarith.is_probable_prime(key.p) and modarith.is_probable_prime(key.q)
    m = 0x1234567890ABCDEF
    assert rsa.rsavp1(key.public_key, rsa.rsasp1(key, m)) == m
    assert key.e * key.d % ((key.p - 1) * (key.q - 1) // math.gcd(key.p - 1, key.q - 1)) == 1


@settings(max_examples=20, deadline=None)
@given(m=st.integers(min_value=0))
def test_crt_and_plain_private_operations_agree(m):
    key = _ours(_KEYS[1024])
    m %= key.n
    assert rsa.rsasp1(key, m, crt=True) == rsa.rsasp1(key, m, crt=False) == pow(m, key.d, key.n)


@settings(max_examples=15, deadline=None)
@given(
    bits=st.sampled_from([1024, 2048]),
    message=st.binary(max_size=300),
    hname=st.sampled_from(sorted(THEIR_HASHES)),
)
def test_pkcs1v15_matches_cryptography(bits, message, hname):
    theirs = _KEYS[bits]
    ours = _ours(theirs)
    signature = rsa.sign_pkcs1v15(ours, message, hname)
    assert signature == theirs.sign(
        message, padding.PKCS1v15(), THEIR_HASHES[hname]
    )  # deterministic
    rsa.verify_pkcs1v15(ours.public_key, message, signature, hname)


@settings(max_examples=15, deadline=None)
@given(
    bits=st.sampled_from([1024, 2048]),
    message=st.binary(max_size=300),
    hname=st.sampled_from(sorted(THEIR_HASHES)),
    salt_length=st.integers(min_value=0, max_value=48),
)
def test_pss_interoperates_with_cryptography(bits, message, hname, salt_length):
    theirs = _KEYS[bits]
    ours = _ours(theirs)
    pss = padding.PSS(mgf=padding.MGF1(THEIR_HASHES[hname]), salt_length=salt_length)
    ours_sig = rsa.sign_pss(ours, message, hname, salt_length)
    theirs.public_key().verify(ours_sig, message, pss, THEIR_HASHES[hname])
    rsa.verify_pss(
        ours.public_key, message, theirs.sign(message, pss, THEIR_HASHES[hname]), hname, salt_length
    )


def test_recover_primes_from_private_exponent():
    key = _ours(_KEYS[1024])
    assert rsa.recover_primes(key.n, key.e, key.d) == (max(key.p, key.q), min(key.p, key.q))


def test_modified_message_is_rejected():
    key = _ours(_KEYS[1024])
    sig = rsa.sign_pkcs1v15(key, b"message")
    with pytest.raises(InvalidSignature):
        rsa.verify_pkcs1v15(key.public_key, b"messagf", sig)
    pss = rsa.sign_pss(key, b"message")
    with pytest.raises(InvalidSignature):
        rsa.verify_pss(key.public_key, b"messagf", pss)


def test_wrong_salt_length_is_rejected():
    key = _ours(_KEYS[1024])
    sig = rsa.sign_pss(key, b"m", "sha-256", 20)
    with pytest.raises(InvalidSignature):
        rsa.verify_pss(key.public_key, b"m", sig, "sha-256", 32)


@pytest.mark.parametrize("length_change", [-1, 1])
def test_signature_of_wrong_length_is_rejected(length_change):
    key = _ours(_KEYS[1024])
    sig = rsa.sign_pkcs1v15(key, b"m")
    bad = sig[:-1] if length_change < 0 else b"\x00" + sig
    with pytest.raises(InvalidSignature):
        rsa.verify_pkcs1v15(key.public_key, b"m", bad)


def test_signature_not_below_modulus_is_rejected():
    key = _ours(_KEYS[1024])
    with pytest.raises(InvalidSignature):
        rsa.verify_pkcs1v15(key.public_key, b"m", key.n.to_bytes(key.k, "big"))
    with pytest.raises(InvalidSignature):
        rsa.verify_pss(key.public_key, b"m", key.n.to_bytes(key.k, "big"))


def test_message_representative_out_of_range_is_rejected():
    key = _ours(_KEYS[1024])
    with pytest.raises(ValueError, match="message representative"):
        rsa.rsasp1(key, key.n)


@pytest.mark.parametrize("bits", [512, 1536, 8192])
def test_unsupported_key_size_is_rejected(bits):
    with pytest.raises(ValueError, match="Invalid key size"):
        rsa.generate_private_key(bits)


def test_salt_too_long_for_modulus_is_rejected():
    key = _ours(_KEYS[1024])
    with pytest.raises(ValueError, match="salt length"):
        rsa.sign_pss(key, b"m", "sha-512", 100)
