"""Tolerances derived, not chosen: every tolerance states its basis; a figure within the resolution
of its printed digits (or of the allowance's own stated digits) is never flagged; the size-scaling
band comes from the algorithm's operation counts and word sizes. Synthetic figures, stated numbers."""

from __future__ import annotations

import math

import pytest
from sanity_fakes import synthetic

from refbench.published import load_figures, load_parts
from refbench.sanity import invariants, numbers
from refbench.sanity.numbers import SAME_WORK, TOLERANCES, scaling_band, words

FIGURES = load_figures()
PARTS = load_parts()


def find(**fields):
    return next(f for f in FIGURES if all(getattr(f, k) == v for k, v in fields.items()))


def test_every_tolerance_states_its_basis_and_source():
    assert {"same work", "cross-board", "printed number", "size scaling"} <= set(TOLERANCES)
    for name, tolerance in TOLERANCES.items():
        assert tolerance.basis in ("printed digits", "cost ratio", "measured spread", "stated"), name
        assert tolerance.source.strip(), name
    # every float constant of numbers.py named *_TOLERANCE is one of them
    constants = {k: v for k, v in vars(numbers).items() if k.endswith("_TOLERANCE")}
    assert set(constants.values()) <= {t.value for t in TOLERANCES.values()}


def test_a_stated_allowance_carries_its_own_digits():
    assert SAME_WORK.text == "5 %" and SAME_WORK.resolution == pytest.approx(0.005)


def _keygen_agree(keygen_ms: float, agree_ms: float):
    keygen = synthetic(find(source="003_370dc4a6b790accc.txt", algorithm="X25519", operation="keygen"),
                       "syn-keygen", value=keygen_ms)
    agree = synthetic(keygen, "syn-agree", value=agree_ms, operation="agree")
    return {f.verdict for _, f in invariants.rule_keygen_vs_agree([keygen, agree], PARTS)}


def test_a_ratio_within_the_allowance_digits_is_not_flagged():
    """keygen/agree 1.051 is 5 % at the digit the allowance is stated to; 1.070 is not."""
    assert _keygen_agree(20.380, 19.385) == {"consistent"}  # ratio 1.0513
    assert _keygen_agree(20.742, 19.385) == {"suspicious"}  # ratio 1.070


def test_scaling_band_of_a_schoolbook_exponentiation():
    """RSA-1024 -> 2048: exponent bits x2, 32 -> 64 words, one multiplication x1..x4: cost x2..x8
    (exponent 1..3) widened by the tolerance."""
    low, high, why = scaling_band("exponentiation", 1024, 2048, 0.05)
    assert (words(1024), words(2048)) == (32, 64)
    assert low == pytest.approx(math.log(2 / 1.05, 2)) and high == pytest.approx(math.log(8 * 1.05, 2))
    assert "32 -> 64 words" in why
    # a public exponent does the same 17 multiplications at both sizes: at most x4
    assert scaling_band("public exponent", 1024, 2048, 0.05)[1] == pytest.approx(math.log(4 * 1.05, 2))


def test_a_special_form_prime_widens_the_scalar_multiplication_band():
    """P-256 -> P-384 (8 -> 12 words): schoolbook x2.25 per multiplication, x1.5 doublings; a special
    reduction on one size only moves a multiplication by up to x2."""
    plain = scaling_band("scalar multiplication", 256, 384, 0.05)
    special = scaling_band("scalar multiplication", 256, 384, 0.05, special_form=True)
    assert plain[1] == pytest.approx(math.log(1.5 * 2.25 * 1.05, 1.5))
    assert special[1] == pytest.approx(math.log(1.5 * 2.25 * 2 * 1.05, 1.5))
    assert special[0] < plain[0]


def _ecc_pair(curve_small: str, curve_big: str, small_ms: float, big_ms: float):
    template = find(source="003_370dc4a6b790accc.txt", algorithm="ECDSA-P256", operation="sign")
    bits = {"P-256": 256, "P-384": 384, "brainpoolP256r1": 256, "brainpoolP384r1": 384}
    a = synthetic(template, "syn-ecc-small", value=small_ms, curve=curve_small, key_bits=bits[curve_small],
                  algorithm=f"ECDSA-{curve_small}")
    b = synthetic(template, "syn-ecc-big", value=big_ms, curve=curve_big, key_bits=bits[curve_big],
                  algorithm=f"ECDSA-{curve_big}")
    return {f.verdict for _, f in invariants.rule_ecc_scaling([a, b], PARTS)}


def test_p384_scaling_of_3_33_is_inside_the_derived_band_and_a_brainpool_jump_is_not():
    """P-256 68.812 ms -> P-384 265.750 ms (exponent 3.33) fits a special-form reduction on one size;
    brainpool 100 -> 500 ms (exponent 3.97) is beyond x1.5 doublings x2.25 per multiplication."""
    assert _ecc_pair("P-256", "P-384", 68.812, 265.750) == {"consistent"}
    assert _ecc_pair("brainpoolP256r1", "brainpoolP384r1", 100.0, 500.0) == {"suspicious"}
    assert _ecc_pair("brainpoolP256r1", "brainpoolP384r1", 100.0, 120.0) == {"suspicious"}  # fewer than x1.5 doublings
