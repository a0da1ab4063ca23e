"""SM2 (GB/T 32918): sign/verify and key exchange round trips, bad input."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from refbench.errors import InvalidSignature, InvalidTag
from refbench.ref import sm2
from refbench.ref.curves import SM2P256V1

N = SM2P256V1.n


@settings(max_examples=10, deadline=None)
@given(
    d=st.integers(min_value=1, max_value=N - 2),
    message=st.binary(max_size=200),
    uid=st.binary(max_size=40),
)
def test_sign_verify_round_trip(d, message, uid):
    P = sm2.public_key(SM2P256V1, d)
    sig = sm2.sign(d, message, uid)
    sm2.verify(P, message, sig, uid)
    with pytest.raises(InvalidSignature):
        sm2.verify(P, message + b"\x00", sig, uid)


@settings(max_examples=5, deadline=None)
@given(
    dA=st.integers(1, N - 2),
    dB=st.integers(1, N - 2),
    rA=st.integers(1, N - 2),
    rB=st.integers(1, N - 2),
)
def test_key_exchange_both_sides_agree(dA, dB, rA, rB):
    PA, PB = sm2.public_key(SM2P256V1, dA), sm2.public_key(SM2P256V1, dB)
    RA, RB = sm2.public_key(SM2P256V1, rA), sm2.public_key(SM2P256V1, rB)
    a = sm2.key_exchange(True, dA, rA, b"alice", PB, RB, b"bob", 256)
    b = sm2.key_exchange(False, dB, rB, b"bob", PA, RA, b"alice", 256)
    assert a.key == b.key and len(a.key) == 32
    assert (a.R, b.R) == (RA, RB)
    a.check(b.confirmation)
    b.check(a.confirmation)


def test_wrong_confirmation_is_rejected():
    PB = sm2.public_key(SM2P256V1, 22)
    a = sm2.key_exchange(True, 11, 33, b"a", PB, sm2.public_key(SM2P256V1, 44), b"b")
    with pytest.raises(InvalidTag):
        a.check(a.confirmation)  # S_A is not S_B


def test_ephemeral_point_off_curve_is_rejected():
    PB = sm2.public_key(SM2P256V1, 22)
    x, y = sm2.public_key(SM2P256V1, 44)
    with pytest.raises(ValueError, match="not on the curve"):
        sm2.key_exchange(True, 11, 33, b"a", PB, (x, y ^ 1), b"b")


@pytest.mark.parametrize("sig", [(0, 1), (1, 0), (N, 1), (1, N), (1, N - 1)])
def test_signature_out_of_range_or_t_zero_is_rejected(sig):
    P = sm2.public_key(SM2P256V1, 5)
    with pytest.raises(InvalidSignature):
        sm2.verify(P, b"m", sig)


def test_s_plus_n_is_rejected():
    # (r, s + n) gives the same t = r + s mod n and the same point [s]G + [t]P: only the
    # range rule 1 <= s <= n - 1 of GB/T 32918.2 §7.1 step B2 refuses it.
    P = sm2.public_key(SM2P256V1, 5)
    r, s = sm2.sign(5, b"m", k=7)
    sm2.verify(P, b"m", (r, s))
    with pytest.raises(InvalidSignature):
        sm2.verify(P, b"m", (r, s + N))


@pytest.mark.parametrize("d", [0, N - 1, N])
def test_private_key_out_of_range_is_rejected(d):
    with pytest.raises(ValueError, match="Invalid private key"):
        sm2.sign(d, b"m")


def test_kdf_length_rules():
    assert len(sm2.kdf(b"z", 8 * 100)) == 100
    with pytest.raises(ValueError, match="key length"):
        sm2.kdf(b"z", 12)
