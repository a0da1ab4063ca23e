"""Composition (counted operations x emulated cycles per field/bignum call) against full emulation
of whole public-key operations, on Cortex-M0+, M4, M7 and M33 with ideal memory
(:mod:`refbench.sanity.pubkey_whole`): the X25519 ladder, RSA-1024 CRT (two 512-bit fixed-window
exponentiations) and a P-256 base-point multiplication.

Each check re-measures and must equal its recorded entry in ``pubkey_composition.toml`` (from which
the composition bound is derived: a kernel change that moves a check fails here until the record
is rewritten with ``python -m refbench.sanity.pubkey_whole --record``), and stay within the bound.
Default run: the portable C variant on every core and UMAAL on M4; every variant with ``-m matrix``.
"""

from __future__ import annotations

import pytest

from refbench.kernels.catalog import family
from refbench.measure import Measurer
from refbench.sanity import pubkey_whole
from refbench.sanity.pubkey_cost import exp_work
from refbench.sanity.pubkey_whole import (
    ASM_FORMULAS,
    COMPOSITION_BOUND,
    CORES,
    OPERATIONS,
    Check,
    bound_of,
    check,
    composed_operations,
    excluded,
    recorded,
    render,
)

DEFAULT = [("c32", core) for core in CORES] + [("umaal", "m4")]
MATRIX = [(v, core) for v in family("bignum").variants for core in CORES
          if family("bignum").variant(v).supports(core) and (v, core) not in DEFAULT]


def recorded_check(operation: str, variant: str, core: str) -> Check:
    found = [c for c in recorded() if (c.operation, c.variant, c.core) == (operation, variant, core)]
    assert len(found) == 1, f"no single recorded check for {operation} {variant} {core}: rerun --record"
    return found[0]


def test_exponentiation_count_is_the_kernels_own():
    """exp.h: 14 table products + 2 domain changes + bits squarings + bits/4 window products."""
    assert exp_work(512, 512, 4) == {("mont-mul", 64): 14 + 2 + 128, ("mont-sqr", 64): 512, ("call", 64): 144 + 512}
    assert exp_work(2048, 224, 5, times=2) == {("mont-mul", 256): 2 * (45 + 30 + 2), ("mont-sqr", 256): 448,
                                               ("call", 256): 2 * 77 + 448}


def test_every_variant_core_and_operation_is_recorded():
    want = {(op, v, core) for v, core in DEFAULT + MATRIX for op in composed_operations(v)}
    assert {(c.operation, c.variant, c.core) for c in recorded()} == want


def test_an_operation_a_variant_computes_whole_is_not_checked_by_composition():
    """kernel.toml ``whole``, and the operations a define puts in assembly formulas (ASM_FORMULAS): the
    operation is that variant's own code, not a sequence of its calls; it is left out of the checks (and
    of the bound), and the record says so."""
    fam = family("bignum")
    own = [(v, op) for v in fam.variants for op in OPERATIONS
           if op in fam.variant(v).whole or any(op in ASM_FORMULAS.get(d, ()) for d in fam.variant(v).defines)]
    assert any(op in fam.variant(v).whole for v, op in own) and any(op == "p256-ecdsa-verify" for _, op in own)
    assert sorted(excluded()) == sorted(own)
    for v, op in own:
        assert op not in composed_operations(v)
        assert not [c for c in recorded() if (c.variant, c.operation) == (v, op)]
        assert f"# Not checked: {op} of bignum/{v}" in render(list(recorded()))
    plain = [v for v in fam.variants if not fam.variant(v).whole and not set(fam.variant(v).defines) & set(ASM_FORMULAS)]
    assert plain and all(composed_operations(v) == OPERATIONS for v in plain)


def test_bound_is_the_worst_error_plus_the_spread():
    checks = [Check("a", "v", "c", 100, 103), Check("b", "v", "c", 100, 99), Check("c", "v", "c", 200, 202)]
    assert bound_of(checks) == pytest.approx(0.03 + 0.04)
    assert COMPOSITION_BOUND == pytest.approx(bound_of(recorded()))
    assert 0 < COMPOSITION_BOUND < 0.15  # additions are priced, so the bound is below 15 %


def test_a_malformed_record_names_the_entry_and_field(tmp_path):
    bad = tmp_path / "composition.toml"
    bad.write_text('[[checks]]\noperation = "x25519"\nvariant = "c32"\ncore = "m4"\nfull = "many"\ncomposed = 3\n',
                   encoding="utf-8")
    with pytest.raises(ValueError, match=r"composition.toml:5: field 'checks\[0\].full': expected int"):
        recorded.__wrapped__(bad)
    bad.write_text("", encoding="utf-8")
    with pytest.raises(ValueError, match="no recorded composition check"):
        recorded.__wrapped__(bad)


def test_an_unknown_whole_operation_is_named():
    with pytest.raises(ValueError, match="Invalid whole operation 'ecdsa'; accepted: x25519, rsa1024-crt"):
        check("ecdsa", "c32", Measurer("m4"))


def run_checks(variant: str, core: str) -> None:
    m = Measurer(core, use_cache=False)
    for operation in OPERATIONS:
        got = check(operation, variant, m)
        want = recorded_check(operation, variant, core)
        assert (got.full, got.composed) == (want.full, want.composed), (
            f"{operation} {variant} {core}: measured {got.full}/{got.composed}, recorded {want.full}/{want.composed}: "
            f"rerun python -m {pubkey_whole.__name__} --record")
        assert abs(got.error) <= COMPOSITION_BOUND, f"{operation} {variant} on {core}: composition error {got.error:+.2%}"


@pytest.mark.parametrize("variant, core", DEFAULT)
def test_composition_equals_the_record_and_is_within_the_bound(variant, core):
    run_checks(variant, core)


@pytest.mark.matrix
@pytest.mark.parametrize("variant, core", MATRIX)
def test_matrix_composition_equals_the_record_and_is_within_the_bound(variant, core):
    run_checks(variant, core)
