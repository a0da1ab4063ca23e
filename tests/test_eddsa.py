"""Ed25519 / Ed448 (RFC 8032): differential tests against pyca/cryptography and strict rejection."""

import pytest
from cryptography.hazmat.primitives.asymmetric.ed448 import Ed448PrivateKey
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from hypothesis import given, settings
from hypothesis import strategies as st

from refbench.errors import InvalidSignature
from refbench.ref import eddsa, edwards, modarith, montgomery

RAW = (Encoding.Raw, PublicFormat.Raw)


@settings(max_examples=15, deadline=None)
@given(secret=st.binary(min_size=32, max_size=32), message=st.binary(max_size=200))
def test_ed25519_matches_cryptography(secret, message):
    theirs = Ed25519PrivateKey.from_private_bytes(secret)
    public = theirs.public_key().public_bytes(*RAW)
    assert eddsa.public_key(secret) == public
    signature = eddsa.sign(secret, message)
    assert signature == theirs.sign(message)  # deterministic: byte-for-byte equal
    theirs.public_key().verify(signature, message)
    eddsa.verify(public, message, theirs.sign(message))


@settings(max_examples=8, deadline=None)
@given(secret=st.binary(min_size=57, max_size=57), message=st.binary(max_size=200))
def test_ed448_matches_cryptography(secret, message):
    theirs = Ed448PrivateKey.from_private_bytes(secret)
    public = theirs.public_key().public_bytes(*RAW)
    assert eddsa.public_key(secret, "Ed448") == public
    signature = eddsa.sign(secret, message, "Ed448")
    assert signature == theirs.sign(message)
    eddsa.verify(public, message, signature, "Ed448")


def _signed(variant="Ed25519"):
    secret = bytes(range(32 if variant.startswith("Ed25519") else 57))
    message = b"refbench"
    return eddsa.public_key(secret, variant), message, eddsa.sign(secret, message, variant)


def test_modified_message_is_rejected():
    public, message, signature = _signed()
    with pytest.raises(InvalidSignature):
        eddsa.verify(public, message + b"!", signature)


def test_s_not_below_L_is_rejected():
    public, message, signature = _signed()
    S = int.from_bytes(signature[32:], "little") + edwards.ED25519.L  # same S mod L, non-canonical
    with pytest.raises(InvalidSignature):
        eddsa.verify(public, message, signature[:32] + S.to_bytes(32, "little"))


def test_non_canonical_R_is_rejected():
    public, message, signature = _signed()
    y_not_below_p = (edwards.ED25519.p + 1).to_bytes(32, "little")
    with pytest.raises(InvalidSignature):
        eddsa.verify(public, message, y_not_below_p + signature[32:])


def test_non_canonical_public_key_is_rejected():
    # y = p + 1 would decode, without the y < p rule, to the identity (0, 1); against the
    # identity as A, (R, S) = ([r]B, r) satisfies [S]B = R + [k]A for every message.
    curve = edwards.ED25519
    r = 12345
    R = edwards.encode(curve, edwards.scalar_mult(curve, r, curve.B))
    forged = R + r.to_bytes(32, "little")
    canonical_identity = (1).to_bytes(32, "little")
    eddsa.verify(canonical_identity, b"any message", forged)  # RFC 8032 accepts this A
    with pytest.raises(InvalidSignature):
        eddsa.verify((curve.p + 1).to_bytes(32, "little"), b"any message", forged)


def test_decode_rejects_y_not_below_p():
    with pytest.raises(ValueError, match="not below p"):
        edwards.decode(edwards.ED25519, (edwards.ED25519.p + 1).to_bytes(32, "little"))


@pytest.mark.parametrize("length", [0, 63, 65])
def test_wrong_signature_length_is_rejected(length):
    public, message, _ = _signed()
    with pytest.raises(InvalidSignature):
        eddsa.verify(public, message, bytes(length))


def test_public_key_not_a_point_is_rejected():
    _, message, signature = _signed()
    bad = bytearray(32)
    bad[0] = 2  # y = 2: x² = 3/(4d + 1) is not a square
    with pytest.raises((InvalidSignature, ValueError)):
        eddsa.verify(bytes(bad), message, signature)


def test_decode_rejects_x_zero_with_sign_bit():
    data = bytearray((1).to_bytes(32, "little"))
    data[31] |= 0x80  # y = 1 gives x = 0; the sign bit must then be 0
    with pytest.raises(ValueError, match="sign bit"):
        edwards.decode(edwards.ED25519, bytes(data))


def test_context_rules():
    secret = bytes(32)
    with pytest.raises(ValueError, match="Ed25519ctx"):
        eddsa.sign(secret, b"m", "Ed25519", b"ctx")
    with pytest.raises(ValueError, match="1..255"):
        eddsa.sign(secret, b"m", "Ed25519ctx", b"")
    with pytest.raises(ValueError, match="0..255"):
        eddsa.sign(bytes(57), b"m", "Ed448", bytes(256))
    sig = eddsa.sign(secret, b"m", "Ed25519ctx", b"foo")
    eddsa.verify(eddsa.public_key(secret, "Ed25519ctx"), b"m", sig, "Ed25519ctx", b"foo")
    with pytest.raises(InvalidSignature):
        eddsa.verify(eddsa.public_key(secret, "Ed25519ctx"), b"m", sig, "Ed25519ctx", b"bar")


def test_ed448ph_round_trip_and_domain_separation():
    public, message, _ = _signed("Ed448")
    secret = bytes(range(57))
    sig = eddsa.sign(secret, message, "Ed448ph")
    eddsa.verify(public, message, sig, "Ed448ph")
    with pytest.raises(InvalidSignature):
        eddsa.verify(public, message, sig, "Ed448")


def test_unknown_variant_is_rejected():
    with pytest.raises(ValueError, match="Invalid EdDSA variant"):
        eddsa.sign(bytes(32), b"", "Ed25519x")  # type: ignore[arg-type]


def test_wrong_private_key_length_is_rejected():
    with pytest.raises(ValueError, match="Invalid private key length"):
        eddsa.public_key(bytes(31))


@pytest.mark.parametrize("curve", [edwards.ED25519, edwards.ED448], ids=lambda c: c.name)
def test_curve_constants(curve):
    p, x, y = curve.p, curve.Bx, curve.By
    assert modarith.is_probable_prime(p) and modarith.is_probable_prime(curve.L)
    assert (curve.a * x * x + y * y - 1 - curve.d * x * x * y * y) % p == 0
    assert edwards.equal(
        curve, edwards.scalar_mult(curve, curve.L, curve.B), edwards.identity(curve)
    )


def test_edwards_base_points_map_to_the_montgomery_base_points():
    # RFC 7748 §4.1: u = (1 + y)/(1 − y) on edwards25519; §4.2: u = y²/x² on edwards448.
    c = edwards.ED25519
    assert (1 + c.By) * modarith.inverse(1 - c.By, c.p) % c.p == montgomery.CURVE25519.u_base
    c = edwards.ED448
    assert c.By**2 * modarith.inverse(c.Bx**2, c.p) % c.p == montgomery.CURVE448.u_base
