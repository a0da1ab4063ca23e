"""Composition (counted operations x emulated cycles per field/bignum call) against full emulation
of whole public-key operations, on Cortex-M0+, M4, M7 and M33 with ideal memory.

* X25519 (RFC 7748 §5): the whole ladder and inversion (``bignum`` operation ``x25519``) against
  the reference's counts for an X25519 agreement priced with the 2^255 - 19 mul/sqr kernels;
* RSA-1024 private (CRT, RFC 8017 §5.1.2): two 512-bit fixed-window exponentiations
  (``mont-exp`` at 64 bytes, whole) against the exponentiation count priced with mont-mul/mont-sqr
  at 64 bytes; the recombination is the same measured mont-mul in both.

The error must stay within :data:`refbench.sanity.pubkey_cost.COMPOSITION_BOUND` (its derivation
is in that module). Default run: the portable C variant on every core and UMAAL on M4; every
variant with ``-m matrix``.
"""

from __future__ import annotations

import pytest

from refbench.kernels.catalog import family
from refbench.measure import Job, Measurer
from refbench.sanity.pubkey_cost import (
    COMPOSITION_BOUND,
    compose,
    exp_work,
    field_work,
    merge,
    reference_counts,
)

CORES = ("m0plus", "m4", "m7", "m33")
DEFAULT = [("c32", core) for core in CORES] + [("umaal", "m4")]
MATRIX = [(v, core) for v in family("bignum").variants for core in CORES
          if family("bignum").variant(v).supports(core) and (v, core) not in DEFAULT]


def measurer(core: str) -> Measurer:
    return Measurer(core, use_cache=False)


def cycles_of(m: Measurer, variant: str, work: dict[tuple[str, int], int]) -> dict[tuple[str, int], int]:
    out = {}
    for op, size in work:
        result = m.measure(Job("bignum", variant, op, size))
        assert result.verified, (op, size, result.mismatch or result.error)
        out[(op, size)] = result.cycles
    return out


def x25519_error(variant: str, core: str, tmp_path) -> float:
    m = measurer(core)
    full = m.measure(Job("bignum", variant, "x25519", 32))
    assert full.verified, full.mismatch or full.error
    work = field_work("Curve25519", "special", reference_counts("Curve25519", "agree"))
    composed = compose(work, cycles_of(m, variant, work))
    return (composed - full.cycles) / full.cycles


def rsa1024_private_error(variant: str, core: str, tmp_path) -> float:
    m = measurer(core)
    exp = m.measure(Job("bignum", variant, "mont-exp", 64))
    assert exp.verified, exp.mismatch or exp.error
    recombination = {("mont-mul", 64): 2}
    work = merge(exp_work(512, 512, 4, times=2), recombination)
    cycles = cycles_of(m, variant, work)
    full = 2 * exp.cycles + compose(recombination, cycles)
    return (compose(work, cycles) - full) / full


def test_exponentiation_count_is_the_kernels_own():
    """exp.h: 14 table products + 2 domain changes + bits squarings + bits/4 window products."""
    assert exp_work(512, 512, 4) == {("mont-mul", 64): 14 + 2 + 128, ("mont-sqr", 64): 512}
    assert exp_work(2048, 224, 5, times=2) == {("mont-mul", 256): 2 * (45 + 30 + 2), ("mont-sqr", 256): 448}


@pytest.mark.parametrize("variant, core", DEFAULT)
def test_x25519_composition_within_bound(variant, core, tmp_path):
    error = x25519_error(variant, core, tmp_path)
    assert abs(error) <= COMPOSITION_BOUND, f"X25519 {variant} on {core}: composition error {error:+.2%}"


@pytest.mark.parametrize("variant, core", DEFAULT)
def test_rsa1024_private_composition_within_bound(variant, core, tmp_path):
    error = rsa1024_private_error(variant, core, tmp_path)
    assert abs(error) <= COMPOSITION_BOUND, f"RSA-1024 private {variant} on {core}: composition error {error:+.2%}"


@pytest.mark.matrix
@pytest.mark.parametrize("variant, core", MATRIX)
def test_matrix_composition_within_bound(variant, core, tmp_path):
    for name, error in (("X25519", x25519_error(variant, core, tmp_path)),
                        ("RSA-1024 private", rsa1024_private_error(variant, core, tmp_path))):
        assert abs(error) <= COMPOSITION_BOUND, f"{name} {variant} on {core}: composition error {error:+.2%}"
