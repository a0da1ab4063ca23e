"""ECDH: differential tests against pyca/cryptography on the six curves, and invalid peer keys."""

import pytest
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from hypothesis import given, settings
from hypothesis import strategies as st

from refbench.ref import curves, ecdh
from refbench.ref import weierstrass as W

THEIR_CURVES = {
    "secp256r1": ec.SECP256R1(),
    "secp384r1": ec.SECP384R1(),
    "secp521r1": ec.SECP521R1(),
    "brainpoolP256r1": ec.BrainpoolP256R1(),
    "brainpoolP384r1": ec.BrainpoolP384R1(),
    "brainpoolP512r1": ec.BrainpoolP512R1(),
}


@settings(max_examples=12, deadline=None)
@given(name=st.sampled_from(sorted(THEIR_CURVES)), seed=st.integers(min_value=1, max_value=1 << 64))
def test_shared_secret_matches_cryptography(name, seed):
    curve = curves.get_curve(name)
    d = seed % (curve.n - 1) + 1
    peer = ec.generate_private_key(THEIR_CURVES[name])
    numbers = peer.public_key().public_numbers()
    ours = ecdh.shared_secret(curve, d, (numbers.x, numbers.y))
    mine = ec.derive_private_key(d, THEIR_CURVES[name])
    assert ours == peer.exchange(ec.ECDH(), mine.public_key())
    compressed = W.encode_point(curve, (numbers.x, numbers.y), compressed=True)
    assert ecdh.shared_secret_from_bytes(curve, d, compressed) == ours


def test_point_not_on_curve_is_rejected():
    curve = curves.P256
    x, y = ecdh.public_key(curve, 7)
    with pytest.raises(ValueError, match="not on the curve"):
        ecdh.shared_secret(curve, 5, (x, (y + 1) % curve.p))


def test_point_from_another_curve_is_rejected():
    Q = ecdh.public_key(curves.BRAINPOOLP256R1, 7)
    with pytest.raises(ValueError):
        ecdh.shared_secret(curves.P256, 5, Q)


def test_coordinate_not_below_p_is_rejected():
    curve = curves.P256
    x, y = ecdh.public_key(curve, 7)
    with pytest.raises(ValueError):
        ecdh.shared_secret(curve, 5, (x + curve.p, y))


def test_point_at_infinity_is_rejected():
    with pytest.raises(ValueError, match="infinity"):
        ecdh.shared_secret(curves.P256, 5, None)


@pytest.mark.parametrize("d", [0, curves.P384.n])
def test_private_key_out_of_range_is_rejected(d):
    with pytest.raises(ValueError, match="Invalid private key"):
        ecdh.shared_secret(curves.P384, d, curves.P384.G)


def test_keypair_generation_is_consistent():
    d, Q = ecdh.generate_keypair(curves.BRAINPOOLP384R1)
    assert Q == ecdh.public_key(curves.BRAINPOOLP384R1, d)


@pytest.mark.parametrize("name", sorted(THEIR_CURVES))
def test_spki_from_cryptography_is_decoded(name):
    curve = curves.get_curve(name)
    theirs = ec.generate_private_key(THEIR_CURVES[name]).public_key()
    der = theirs.public_bytes(Encoding.DER, PublicFormat.SubjectPublicKeyInfo)
    numbers = theirs.public_numbers()
    assert ecdh.decode_spki(curve, der) == (numbers.x, numbers.y)


def test_spki_for_another_curve_is_rejected():
    der = (
        ec.generate_private_key(ec.SECP384R1())
        .public_key()
        .public_bytes(Encoding.DER, PublicFormat.SubjectPublicKeyInfo)
    )
    with pytest.raises(ValueError, match="namedCurve"):
        ecdh.decode_spki(curves.P256, der)


def test_spki_with_trailing_bytes_is_rejected():
    der = (
        ec.generate_private_key(ec.SECP256R1())
        .public_key()
        .public_bytes(Encoding.DER, PublicFormat.SubjectPublicKeyInfo)
    )
    with pytest.raises(ValueError, match="trailing"):
        ecdh.decode_spki(curves.P256, der + b"\x00")
