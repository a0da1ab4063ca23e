"""Finite-field DH: derived group constants checked, differential test against pyca/cryptography, bad peer keys."""

import pytest
from cryptography.hazmat.primitives.asymmetric import dh as their_dh
from hypothesis import given, settings
from hypothesis import strategies as st

from refbench.ref import dh, modarith


@pytest.mark.parametrize("name", ["modp1024", "ffdhe2048"])
def test_safe_prime_groups_are_safe_primes(name):
    group = dh.GROUPS[name]
    assert group.p.bit_length() == int(name[-4:])
    assert modarith.is_probable_prime(group.p) and modarith.is_probable_prime(group.q)
    assert modarith.mod_pow(group.g, group.q, group.p) == 1  # 2 generates the subgroup of order q


@pytest.mark.slow
@pytest.mark.parametrize("name", ["ffdhe3072", "ffdhe4096", "ffdhe6144", "ffdhe8192"])
def test_large_safe_prime_groups_are_safe_primes(name):
    group = dh.GROUPS[name]
    assert modarith.is_probable_prime(group.p, rounds=2) and modarith.is_probable_prime(
        group.q, rounds=2
    )


def test_ffdhe_and_oakley_primes_have_the_published_ends():
    # RFC 7919 Appendix A: every ffdhe prime starts FFFFFFFF FFFFFFFF ADF85458 A2BB4A9A (the digits of e).
    for name in ("ffdhe2048", "ffdhe3072", "ffdhe4096", "ffdhe6144", "ffdhe8192"):
        text = f"{dh.GROUPS[name].p:X}"
        assert text.startswith("FFFFFFFFFFFFFFFFADF85458A2BB4A9A") and text.endswith(
            "FFFFFFFFFFFFFFFF"
        )
    # RFC 2409 §6.2: Oakley group 2 starts with the digits of π (C90FDAA2 2168C234 ...).
    assert f"{dh.GROUPS['modp1024'].p:X}".startswith(
        "FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD1"
    )


def test_rfc5114_group_has_prime_order_subgroup():
    group = dh.GROUPS["rfc5114-1024-160"]
    assert modarith.is_probable_prime(group.p) and modarith.is_probable_prime(group.q)
    assert (group.p - 1) % group.q == 0 and modarith.mod_pow(group.g, group.q, group.p) == 1


# The published tables benchmark finite-field DH, so it is checked against cryptography's FFDH
# although cryptography deprecates it for new protocols.
@pytest.mark.filterwarnings("ignore:Diffie-Hellman over finite fields:cryptography.utils.CryptographyDeprecationWarning")
@settings(max_examples=8, deadline=None)
@given(
    name=st.sampled_from(["ffdhe2048", "modp1024", "rfc5114-1024-160"]),
    seed=st.integers(min_value=1),
)
def test_shared_secret_matches_cryptography(name, seed):
    group = dh.GROUPS[name]
    q = (
        group.q if name.startswith("rfc5114") else None
    )  # OpenSSL wants q only for non-safe-prime groups
    params = their_dh.DHParameterNumbers(group.p, group.g, q).parameters()
    theirs = params.generate_private_key()
    x = seed % (group.q - 1) + 1
    ours_public = their_dh.DHPublicNumbers(
        dh.public_key(group, x), params.parameter_numbers()
    ).public_key()
    y_theirs = theirs.public_key().public_numbers().y
    assert dh.shared_secret(group, x, y_theirs) == theirs.exchange(ours_public).rjust(
        group.byte_length, b"\0"
    )


@pytest.mark.parametrize("y", [0, 1, "p-1", "p", "p+1"])
def test_peer_key_out_of_range_is_rejected(y):
    group = dh.GROUPS["ffdhe2048"]
    value = {"p-1": group.p - 1, "p": group.p, "p+1": group.p + 1}.get(y, y)
    with pytest.raises(ValueError, match="not in"):
        dh.shared_secret(group, 12345, value)  # type: ignore[arg-type]


def test_peer_key_outside_subgroup_is_rejected():
    group = dh.GROUPS["rfc5114-1024-160"]
    outside = 3
    assert modarith.mod_pow(outside, group.q, group.p) != 1
    with pytest.raises(ValueError, match="subgroup"):
        dh.shared_secret(group, 5, outside)


def test_private_key_out_of_range_is_rejected():
    group = dh.GROUPS["modp1024"]
    with pytest.raises(ValueError, match="Invalid private key"):
        dh.public_key(group, group.q)


def test_unknown_group_is_rejected():
    with pytest.raises(ValueError, match="Invalid DH group"):
        dh.get_group("modp768")
