"""SHA-3 and SHAKE (FIPS 202): derived ρ offsets and round constants, hashlib differential, XOF reads."""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from refbench.ref import sha3

# FIPS 202 §3.2.2 Table 2 "Offsets of ρ", as printed (before reduction mod w = 64):
# rows y = 2, 1, 0, 4, 3; columns x = 3, 4, 0, 1, 2.
FIPS202_TABLE2 = {
    2: {3: 153, 4: 231, 0: 3, 1: 10, 2: 171},
    1: {3: 55, 4: 276, 0: 36, 1: 300, 2: 6},
    0: {3: 28, 4: 91, 0: 0, 1: 1, 2: 190},
    4: {3: 120, 4: 78, 0: 210, 1: 66, 2: 253},
    3: {3: 21, 4: 136, 0: 105, 1: 45, 2: 15},
}

# The 24 round constants RC[i_r] of Keccak-f[1600] as printed in "The Keccak reference" 3.0
# (Bertoni, Daemen, Peeters, Van Assche, 2011), Table 1; FIPS 202 §3.2.5 defines them by rc(t).
KECCAK_REFERENCE_RC = (
    0x0000000000000001, 0x0000000000008082, 0x800000000000808A, 0x8000000080008000,
    0x000000000000808B, 0x0000000080000001, 0x8000000080008081, 0x8000000000008009,
    0x000000000000008A, 0x0000000000000088, 0x0000000080008009, 0x000000008000000A,
    0x000000008000808B, 0x800000000000008B, 0x8000000000008089, 0x8000000000008003,
    0x8000000000008002, 0x8000000000000080, 0x000000000000800A, 0x800000008000000A,
    0x8000000080008081, 0x8000000000008080, 0x0000000080000001, 0x8000000080008008,
)  # fmt: skip

FIXED = {
    "sha3-224": "sha3_224",
    "sha3-256": "sha3_256",
    "sha3-384": "sha3_384",
    "sha3-512": "sha3_512",
}
CLASSES = {
    "sha3-224": sha3.SHA3_224,
    "sha3-256": sha3.SHA3_256,
    "sha3-384": sha3.SHA3_384,
    "sha3-512": sha3.SHA3_512,
    "shake128": sha3.SHAKE128,
    "shake256": sha3.SHAKE256,
}


def test_derived_rho_offsets_equal_fips202_table2():
    for y, row in FIPS202_TABLE2.items():
        for x, offset in row.items():
            assert sha3.RHO_OFFSETS[x + 5 * y] == offset % 64, (x, y)


def test_derived_round_constants_equal_keccak_reference():
    assert sha3.ROUND_CONSTANTS == KECCAK_REFERENCE_RC


def test_rc_lfsr_period_and_first_bits():
    # Algorithm 5: rc(t) depends on t mod 255; rc(0) = 1.
    assert sha3.rc(0) == 1 and sha3.rc(255) == 1
    assert [sha3.rc(t) for t in range(1, 8)] == [sha3.rc(t + 255) for t in range(1, 8)]


def test_step_mappings_compose_to_the_permutation():
    A = [(0x0123456789ABCDEF * (i + 1)) & sha3.MASK64 for i in range(25)]
    composed = A
    for i_r in range(24):
        composed = sha3.iota(sha3.chi(sha3.pi(sha3.rho(sha3.theta(composed)))), i_r)
    assert sha3.keccak_f1600(A) == composed
    # π is a permutation of the 25 lanes.
    assert sorted(sha3.pi(list(range(25)))) == list(range(25))


def test_keccak_f_of_zero_state_known_lane():
    # Keccak team's KeccakF-1600 intermediate values: first lane after one permutation of zero state.
    assert sha3.keccak_f1600([0] * 25)[0] == 0xF1258F7940E1DDE7


@settings(max_examples=40, deadline=None)
@given(st.binary(max_size=400), st.sampled_from(sorted(FIXED)))
def test_sha3_matches_hashlib(data, name):
    assert CLASSES[name](data).digest() == hashlib.new(FIXED[name], data).digest()


@settings(max_examples=40, deadline=None)
@given(st.binary(max_size=400), st.sampled_from(["shake128", "shake256"]), st.integers(0, 400))
def test_shake_matches_hashlib(data, name, length):
    assert CLASSES[name](data).digest(length) == hashlib.new(
        name.replace("shake", "shake_"), data
    ).digest(length)


@settings(max_examples=30, deadline=None)
@given(
    st.binary(max_size=200),
    st.sampled_from(["shake128", "shake256"]),
    st.lists(st.integers(0, 200), max_size=6),
)
def test_shake_read_continues_the_output(data, name, reads):
    xof = CLASSES[name](data)
    out = b"".join(xof.read(n) for n in reads)
    assert out == hashlib.new(name.replace("shake", "shake_"), data).digest(sum(reads))


def test_shake_update_after_read_is_refused():
    xof = sha3.SHAKE128(b"abc")
    xof.read(1)
    with pytest.raises(TypeError, match="update"):
        xof.update(b"more")


@pytest.mark.parametrize("length", [-1, 1.5, "8"])
def test_shake_digest_rejects_bad_length(length):
    with pytest.raises(ValueError, match=r"Invalid length .* accepted: an integer >= 0"):
        sha3.SHAKE256(b"").digest(length)


def test_shake_read_rejects_negative_length():
    with pytest.raises(ValueError, match=r"Invalid n \(-3\)"):
        sha3.SHAKE256(b"").read(-3)


def test_shake_copy_after_read_is_independent():
    xof = sha3.SHAKE256(b"abc")
    first = xof.read(10)
    twin = xof.copy()
    assert xof.read(300) == twin.read(300)
    assert first + xof.read(5) != first  # the stream continues


def test_one_call_functions():
    assert sha3.sha3_256(b"abc") == hashlib.sha3_256(b"abc").digest()
    assert sha3.shake128(b"abc", 33) == hashlib.shake_128(b"abc").digest(33)
