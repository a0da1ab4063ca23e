"""Modular arithmetic: exponentiation three ways, inversion, CRT, Miller-Rabin, square roots — Python's pow is the oracle."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from refbench.ref import modarith

moduli = st.integers(min_value=2, max_value=1 << 600)
odd_moduli = st.integers(min_value=1, max_value=1 << 600).map(lambda m: 2 * m + 1)
exponents = st.integers(min_value=0, max_value=1 << 300)


@settings(max_examples=40, deadline=None)
@given(a=st.integers(min_value=0, max_value=1 << 700), e=exponents, m=moduli)
def test_pow_binary_matches_pow(a, e, m):
    assert modarith.pow_binary(a, e, m) == pow(a, e, m)


@settings(max_examples=40, deadline=None)
@given(a=st.integers(min_value=0, max_value=1 << 700), e=exponents, m=moduli, w=st.integers(1, 7))
def test_pow_sliding_window_matches_pow(a, e, m, w):
    assert modarith.pow_sliding_window(a, e, m, w) == pow(a, e, m)
    assert modarith.pow_sliding_window(a, e, m) == pow(a, e, m)


@settings(max_examples=40, deadline=None)
@given(a=st.integers(min_value=0, max_value=1 << 700), e=exponents, m=odd_moduli)
def test_pow_montgomery_matches_pow(a, e, m):
    assert modarith.pow_montgomery(a, e, m) == pow(a, e, m)


@settings(max_examples=40, deadline=None)
@given(
    x=st.integers(min_value=0, max_value=1 << 600),
    y=st.integers(min_value=0, max_value=1 << 600),
    m=odd_moduli,
)
def test_montgomery_mul_round_trip(x, y, m):
    ctx = modarith.Montgomery(m)
    product = ctx.mul(ctx.to_montgomery(x), ctx.to_montgomery(y))
    assert ctx.from_montgomery(product) == x * y % m


@settings(max_examples=40, deadline=None)
@given(a=st.integers(min_value=1, max_value=1 << 600), m=moduli)
def test_inverse_matches_pow(a, m):
    try:
        expected = pow(a, -1, m)
    except ValueError:
        with pytest.raises(ValueError, match="coprime"):
            modarith.inverse(a, m)
    else:
        assert modarith.inverse(a, m) == expected


def test_inverse_fermat_on_prime():
    p = (1 << 255) - 19
    for a in (1, 2, 12345, p - 1):
        assert modarith.inverse_fermat(a, p) * a % p == 1


def test_inverse_fermat_of_zero_is_rejected():
    with pytest.raises(ValueError, match="non-zero"):
        modarith.inverse_fermat(0, 7)


@settings(max_examples=50, deadline=None)
@given(m=st.integers(min_value=0, max_value=(1 << 256) - 1))
def test_crt_recombines(m):
    p = (1 << 127) - 1
    q = (1 << 89) - 1
    n = p * q
    m %= n
    assert modarith.crt(m % p, m % q, p, q, pow(q, -1, p)) == m


KNOWN_PRIMES = [2, 3, 5, 97, 7919, (1 << 61) - 1, (1 << 127) - 1, (1 << 255) - 19, (1 << 521) - 1]
KNOWN_COMPOSITES = [
    1,
    4,
    561,
    1105,
    1729,
    2465,
    41041,
    3215031751,
    ((1 << 61) - 1) * ((1 << 89) - 1),
]


@pytest.mark.parametrize("n", KNOWN_PRIMES)
def test_miller_rabin_accepts_primes(n):
    assert modarith.is_probable_prime(n)


@pytest.mark.parametrize("n", KNOWN_COMPOSITES)
def test_miller_rabin_rejects_composites(n):
    assert not modarith.is_probable_prime(n)


def test_miller_rabin_rejects_carmichael_numbers_with_fixed_bases():
    # 561 = 3·11·17 fools Fermat for every base coprime to it; Miller-Rabin finds a witness.
    assert not modarith.is_probable_prime(561, rounds=5, rng=lambda n: 0)  # base 2


@settings(max_examples=60, deadline=None)
@given(
    x=st.integers(min_value=0, max_value=1 << 260),
    p=st.sampled_from([(1 << 255) - 19, (1 << 127) - 1, 13, 17, 97, 7681]),
)
def test_sqrt_mod_of_squares(x, p):
    r = modarith.sqrt_mod(x * x % p, p)
    assert r is not None and r * r % p == x * x % p


def test_sqrt_mod_of_non_square_is_none():
    assert modarith.sqrt_mod(3, 7) is None  # 3 is not a square mod 7


@pytest.mark.parametrize("m", [0, 1, -5])
def test_modulus_below_two_is_rejected(m):
    with pytest.raises(ValueError, match="Invalid modulus"):
        modarith.pow_binary(2, 3, m)


def test_negative_exponent_is_rejected():
    with pytest.raises(ValueError, match="Invalid exponent"):
        modarith.pow_sliding_window(2, -1, 7)


def test_even_modulus_rejected_for_montgomery():
    with pytest.raises(ValueError, match="odd"):
        modarith.Montgomery(10)
