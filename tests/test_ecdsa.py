"""ECDSA and the Weierstrass curves: constants, point arithmetic, differential tests against pyca/cryptography, bad input."""

import pytest
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import (
    decode_dss_signature,
    encode_dss_signature,
)
from hypothesis import given, settings
from hypothesis import strategies as st

from refbench.errors import InvalidSignature
from refbench.ref import curves, ecdsa, modarith
from refbench.ref import weierstrass as W

ALL_CURVES = list(curves.CURVES.values())
THEIR_CURVES = {
    "secp256r1": ec.SECP256R1(),
    "secp384r1": ec.SECP384R1(),
    "secp521r1": ec.SECP521R1(),
    "brainpoolP256r1": ec.BrainpoolP256R1(),
    "brainpoolP384r1": ec.BrainpoolP384R1(),
    "brainpoolP512r1": ec.BrainpoolP512R1(),
}
THEIR_HASHES = {"sha-256": hashes.SHA256(), "sha-384": hashes.SHA384(), "sha-512": hashes.SHA512()}


@pytest.mark.parametrize("curve", ALL_CURVES, ids=lambda c: c.name)
def test_curve_constants(curve):
    assert modarith.is_probable_prime(curve.p) and modarith.is_probable_prime(curve.n)
    assert (4 * curve.a**3 + 27 * curve.b**2) % curve.p != 0
    assert W.is_on_curve(curve, curve.G)
    assert W.scalar_mult(curve, curve.n, curve.G) is None
    assert W.scalar_mult(curve, curve.n - 1, curve.G) == W.affine_neg(curve, curve.G)


@pytest.mark.parametrize("name", THEIR_CURVES)
def test_base_point_and_multiples_match_cryptography(name):
    curve = curves.get_curve(name)
    for k in (1, 2, 3, 0xDEADBEEF, curve.n - 2):
        theirs = ec.derive_private_key(k, THEIR_CURVES[name]).public_key().public_numbers()
        assert ecdsa.public_key(curve, k) == (theirs.x, theirs.y)


@settings(max_examples=15, deadline=None)
@given(k=st.integers(min_value=0, max_value=(1 << 300)))
def test_scalar_mult_methods_agree(k):
    c = curves.P256
    expected = W.scalar_mult_affine(c, k, c.G)
    assert W.scalar_mult_double_and_add(c, k, c.G) == expected
    assert W.scalar_mult_fixed_window(c, k, c.G, 5) == expected


def test_jacobian_add_handles_equal_and_opposite_points():
    c = curves.P256
    G = W.to_jacobian(c.G)
    assert W.to_affine(c, W.jacobian_add(c, G, G)) == W.affine_double(c, c.G)
    assert W.to_affine(c, W.jacobian_add(c, G, W.to_jacobian(W.affine_neg(c, c.G)))) is None


@pytest.mark.parametrize("curve", ALL_CURVES[:6], ids=lambda c: c.name)
def test_point_encoding_round_trip(curve):
    P = ecdsa.public_key(curve, 123456789)
    assert W.decode_point(curve, W.encode_point(curve, P)) == P
    assert W.decode_point(curve, W.encode_point(curve, P, compressed=True)) == P


@settings(max_examples=12, deadline=None)
@given(
    name=st.sampled_from(sorted(THEIR_CURVES)),
    message=st.binary(max_size=300),
    hname=st.sampled_from(sorted(THEIR_HASHES)),
)
def test_our_signature_verifies_with_cryptography(name, message, hname):
    curve = curves.get_curve(name)
    theirs = ec.generate_private_key(THEIR_CURVES[name])
    d = theirs.private_numbers().private_value
    r, s = ecdsa.sign(curve, d, message, hname)
    theirs.public_key().verify(encode_dss_signature(r, s), message, ec.ECDSA(THEIR_HASHES[hname]))


@settings(max_examples=12, deadline=None)
@given(
    name=st.sampled_from(sorted(THEIR_CURVES)),
    message=st.binary(max_size=300),
    hname=st.sampled_from(sorted(THEIR_HASHES)),
)
def test_cryptography_signature_verifies_with_ours(name, message, hname):
    curve = curves.get_curve(name)
    theirs = ec.generate_private_key(THEIR_CURVES[name])
    sig = decode_dss_signature(theirs.sign(message, ec.ECDSA(THEIR_HASHES[hname])))
    numbers = theirs.public_key().public_numbers()
    ecdsa.verify(curve, (numbers.x, numbers.y), message, sig, hname)
    with pytest.raises(InvalidSignature):
        ecdsa.verify(curve, (numbers.x, numbers.y), message + b"x", sig, hname)


def test_rfc6979_matches_cryptography_deterministic_signing():
    key = ec.derive_private_key(
        0xC9AFA9D845BA75166B5C215767B1D6934E50C3DB36E89B127B8A622B120F6721, ec.SECP256R1()
    )
    ours = ecdsa.sign(
        curves.P256, key.private_numbers().private_value, b"sample", "sha-256", nonce="rfc6979"
    )
    theirs = decode_dss_signature(
        key.sign(b"sample", ec.ECDSA(hashes.SHA256(), deterministic_signing=True))
    )
    assert ours == theirs
    assert ours == ecdsa.sign(
        curves.P256, key.private_numbers().private_value, b"sample", "sha-256", nonce="rfc6979"
    )


# --- bad input ------------------------------------------------------------------


def _keypair(curve=curves.P256, d=987654321):
    return d, ecdsa.public_key(curve, d)


def test_public_key_not_on_curve_is_rejected():
    d, (x, y) = _keypair()
    sig = ecdsa.sign(curves.P256, d, b"m")
    with pytest.raises(ValueError, match="not on the curve"):
        ecdsa.verify(curves.P256, (x, y + 1), b"m", sig)


def test_public_key_at_infinity_is_rejected():
    with pytest.raises(ValueError, match="infinity"):
        ecdsa.verify(curves.P256, None, b"m", (1, 1))


@pytest.mark.parametrize("sig", [(0, 1), (1, 0), (curves.P256.n, 1), (1, curves.P256.n), (-1, 5)])
def test_signature_out_of_range_is_rejected(sig):
    _, Q = _keypair()
    with pytest.raises(InvalidSignature):
        ecdsa.verify(curves.P256, Q, b"m", sig)


@pytest.mark.parametrize("d", [0, curves.P256.n, -3])
def test_private_key_out_of_range_is_rejected(d):
    with pytest.raises(ValueError, match="Invalid private key"):
        ecdsa.sign(curves.P256, d, b"m")


def test_nonce_out_of_range_is_rejected():
    with pytest.raises(ValueError, match="Invalid nonce"):
        ecdsa.sign(curves.P256, 5, b"m", k=curves.P256.n)


@pytest.mark.parametrize(
    "der",
    ["", "3006020101020101ff", "30070201010202000101", "3006020181020101", "300602010102010100"],
)
def test_malformed_der_signature_is_rejected(der):
    with pytest.raises(InvalidSignature):
        ecdsa.decode_der(bytes.fromhex(der))


def test_wrong_raw_signature_length_is_rejected():
    with pytest.raises(InvalidSignature):
        ecdsa.decode_raw(curves.P256, bytes(63))


@pytest.mark.parametrize("data", ["", "00", "05" + "00" * 64, "04" + "ff" * 64, "02" + "ff" * 32])
def test_bad_point_encoding_is_rejected(data):
    with pytest.raises(ValueError):
        W.decode_point(curves.P256, bytes.fromhex(data))


def test_unknown_curve_name_is_rejected():
    with pytest.raises(ValueError, match="Invalid curve name"):
        curves.get_curve("secp256k1")
