"""Invariants between one build's figures (same-code-path, drbg-vs-hash, gmac-vs-gcm) and the
same library's per-cycle ratio across boards and cores (library-ratio), on synthetic figures whose
numbers the tests state (real figures lend only their page context)."""

from __future__ import annotations

import dataclasses

import pytest
from sanity_fakes import synthetic, with_cycles_per_byte

from refbench.published.model import load_figures, load_parts
from refbench.sanity import compiler_band
from refbench.sanity.cross_board import rule_library_ratio
from refbench.sanity.emulation import Emulation, VariantResult
from refbench.sanity.judging import RULES
from refbench.sanity.same_build import (
    drbg_hash_ratio_bounds,
    rule_drbg_vs_hash,
    rule_gmac_vs_gcm,
    rule_same_code_path,
)

FIGURES = {f.id: f for f in load_figures()}
PARTS = load_parts()
#: wolfSSL 4.4.1 on the STM32WB55, section "STM PKA only": RNG (Hash_DRBG, seeded by the RNG
#: peripheral) and the software SHA-256 of the same build.
WB55_RNG, WB55_SHA256 = FIGURES["000-0121"], FIGURES["000-0137"]
#: wolfSSL on the STM32WB55: AES-128-CBC with the AES peripheral ("STM AES-CBC/Hash Acceleration")
#: and in software ("STM PKA only").
WB55_CBC_HW, WB55_CBC_SW = FIGURES["000-0100"], FIGURES["000-0122"]
#: wolfSSL 5.6.0 on the STM32H563ZI, software: GMAC, AES-128-GCM encryption, AES-128-CBC encryption.
H563_GMAC, H563_GCM, H563_CBC = FIGURES["000-0571"], FIGURES["000-0559"], FIGURES["000-0553"]
#: CycloneCRYPTO 2.5.0 SHA-256 on the STM32F756ZG (Cortex-M7) and the STM32U385 (Cortex-M33).
F756, U385 = FIGURES["003-0073"], FIGURES["004-0062"]


def test_the_new_invariants_are_applied_by_the_report():
    assert {"same-code-path", "drbg-vs-hash", "gmac-vs-gcm", "library-ratio"} <= set(RULES)


def test_hash_drbg_bounds_follow_from_its_compressions():
    low, high = drbg_hash_ratio_bounds(1024)
    assert low == pytest.approx((32 + 2) / 16) and high == pytest.approx((64 + 3) / 16)


@pytest.mark.parametrize(("ratio", "verdict"), [(2.7, "consistent"), (2.125, "consistent"), (12.5, "suspicious"),
                                                (1.5, "suspicious")])
def test_the_rng_costs_what_hash_drbg_over_the_same_sha256_costs(ratio, verdict):
    sha = with_cycles_per_byte(WB55_SHA256, "syn-sha", 100.0)
    rng = with_cycles_per_byte(WB55_RNG, "syn-rng", 100.0 * ratio)
    findings = rule_drbg_vs_hash([rng, sha], PARTS)
    assert [i for i, _ in findings] == ["syn-rng"]  # the RNG is judged against its build's SHA-256
    finding = findings[0][1]
    assert finding.rule == "drbg-vs-hash" and finding.verdict == verdict
    assert f"ratio {ratio:.2f}" in finding.message and "expected 2.125..4.188" in finding.message


def test_only_a_lower_drbg_bound_against_a_hash_peripheral():
    sha = with_cycles_per_byte(WB55_SHA256, "syn-sha-hw", 10.0, implementation="hardware", hw=("HASH",))
    (_, finding), = rule_drbg_vs_hash([with_cycles_per_byte(WB55_RNG, "syn-rng-hw", 150.0), sha], PARTS)
    assert finding.verdict == "consistent" and "no upper bound" in finding.message


def test_identical_numbers_in_a_hardware_and_a_software_section_mean_the_hardware_was_not_used():
    hw = synthetic(WB55_CBC_HW, "syn-hw", value=588.235, text="588.235", unit="KB/s")
    findings = rule_same_code_path([hw, WB55_CBC_SW], PARTS)
    assert {i for i, _ in findings} == {"syn-hw", WB55_CBC_SW.id}
    finding = findings[0][1]
    assert finding.verdict == "suspicious" and "the hardware was not used" in finding.message
    assert "claims AES hardware" in finding.message
    # A different last digit is another measurement: no finding.
    other = synthetic(WB55_CBC_HW, "syn-hw-2", value=588.236, text="588.236", unit="KB/s")
    assert rule_same_code_path([other, WB55_CBC_SW], PARTS) == []


def test_identical_software_numbers_in_two_sections_are_the_same_code_path():
    twin = synthetic(WB55_CBC_SW, "syn-twin", section="another section of the page")
    findings = rule_same_code_path([twin, WB55_CBC_SW], PARTS)
    assert len(findings) == 2 and findings[0][1].verdict == "consistent"
    assert "the same software code path in both sections" in findings[0][1].message


def _h563(gmac: float, gcm: float, cbc: float):
    return [with_cycles_per_byte(H563_GMAC, "syn-gmac", gmac), with_cycles_per_byte(H563_GCM, "syn-gcm", gcm),
            with_cycles_per_byte(H563_CBC, "syn-cbc", cbc)]


def test_gmac_costs_gcm_minus_the_block_cipher():
    findings = dict(rule_gmac_vs_gcm(_h563(34.0, 73.0, 40.0), PARTS))
    assert findings["syn-gmac"].verdict == "consistent"
    assert "leaves 32.99 cycles/byte of GHASH, GMAC is 34.00" in findings["syn-gmac"].message
    slower = dict(rule_gmac_vs_gcm(_h563(80.0, 73.0, 40.0), PARTS))
    assert slower["syn-gmac"].verdict == "suspicious" and "never slower" in slower["syn-gmac"].message
    cheap = dict(rule_gmac_vs_gcm(_h563(10.0, 73.0, 40.0), PARTS))
    assert cheap["syn-gmac"].verdict == "suspicious"
    assert "GMAC does not cost what GCM's GHASH costs" in cheap["syn-gmac"].message


def _build(template, prefix: str, costs: list[float]):
    return [with_cycles_per_byte(template, f"{prefix}-{k}", c, algorithm=f"ALG-{k}") for k, c in enumerate(costs)]


#: A stated compiler band for the synthetic kernel k/v "op": 5 % between zig and gcc at -Os and -O3
#: on both cores (the F756 page is ARMCC -O3, the U385 page Clang -O3: the compilers differ).
BANDS = {f"{core} k/v op": {"zig -Os": 1000, "gcc -Os": 1050, "zig -O3": 1000, "gcc -O3": 1050} for core in ("m7", "m33")}


@pytest.fixture(autouse=True)
def stated_bands(monkeypatch):
    monkeypatch.setattr(compiler_band, "bands", lambda: BANDS)


def _emulated(figures, cycles_per_byte: list[float], core: str) -> dict[str, Emulation]:
    """The emulator rule's emulation of each figure: one variant of kernel k (its compiler band stated in
    BANDS) in one configuration, at the stated c/B."""
    return {f.id: Emulation(f.id, "emulated", "", core=core, variants=(
        VariantResult("k", "v", "op", int(c * 1000), c, True, "", "cfg"),)) for f, c in zip(figures, cycles_per_byte)}


def _pair(f756_costs: list[float], u385_costs: list[float], f756_emulated: list[float] | None = None,
          u385_emulated: list[float] | None = None):
    f756, u385 = _build(F756, "syn-f756", f756_costs), _build(U385, "syn-u385", u385_costs)
    emulations = {}
    if f756_emulated is not None and u385_emulated is not None:
        emulations = {**_emulated(f756, f756_emulated, "m7"), **_emulated(u385, u385_emulated, "m33")}
    return f756 + u385, emulations


def test_a_row_far_outside_the_librarys_usual_ratio_between_two_boards_is_flagged():
    # F756 / U385 per-cycle ratios: 0.70..0.76 on seven rows, 1.57 on the last; the emulation puts
    # every row at 0.70 (the M7 needs 0.7x the M33's cycles for each kernel): the last row is odd.
    figures, emulations = _pair([70.0, 72.0, 74.0, 76.0, 71.0, 73.0, 75.0, 157.0], [100.0] * 8, [70.0] * 8, [100.0] * 8)
    findings = rule_library_ratio(figures, PARTS, emulations)
    verdicts = {i: f.verdict for i, f in findings}
    assert len(findings) == 16 and verdicts["syn-f756-7"] == verdicts["syn-u385-7"] == "suspicious"
    assert all(verdicts[f"syn-f756-{k}"] == "consistent" for k in range(7))
    message = next(f.message for i, f in findings if i == "syn-f756-7")
    assert "an outlier against 1 of 1 board(s)" in message
    assert "= 1.57 (2.14x the median); over the 8 shared rows: median 0.73" in message
    # the derivation: the row's emulated ratio widened by the compiler band (ARMCC / Clang: none measured
    # for this kernel, so the 5 % same-work tolerance), the pair's common factor, the expected range
    assert "emulated 0.67..0.73 (k/v, widened by the compiler spread 5.0% measured for these variants" in message
    assert "with STM32F756ZG in cfg and STM32U385RGT6Q in cfg" in message
    assert "common factor (median of published / emulated) 1.05, so this row is expected at 0.70..0.77" in message
    assert ": outside" in message


def test_a_row_whose_core_difference_the_emulation_reproduces_is_not_flagged():
    # The same published ratios, but the last kernel is 2.2x slower on the M7 than on the M33 in
    # emulation too (an algorithm the M33 runs better): the row does the library's usual relative work.
    figures, emulations = _pair([70.0, 72.0, 74.0, 76.0, 71.0, 73.0, 75.0, 157.0], [100.0] * 8,
                                [70.0] * 7 + [150.0], [100.0] * 8)
    findings = dict(rule_library_ratio(figures, PARTS, emulations))
    assert findings["syn-f756-7"].verdict == "consistent"
    assert "this row is expected at" in findings["syn-f756-7"].message and ": inside" in findings["syn-f756-7"].message


def test_one_memory_configuration_pair_holds_for_every_row_of_the_build_pair():
    # Caches off on both boards would explain the last row (emulated 1.5), but would then put rows
    # 0-2 (also 1.5 with caches off) out: the pair is judged in caches on, where the last row strays.
    f756, u385 = _build(F756, "syn-f756", [70.0, 72.0, 74.0, 76.0, 71.0, 73.0, 75.0, 157.0]), _build(U385, "syn-u385",
                                                                                                   [100.0] * 8)
    off = [150.0, 150.0, 150.0, 70.0, 70.0, 70.0, 70.0, 150.0]

    def emulate(figure, on: float, off: float, core: str) -> Emulation:
        return Emulation(figure.id, "emulated", "", core=core, variants=(
            VariantResult("k", "v", "op", int(on * 1000), on, True, "", "on"),
            VariantResult("k", "v", "op", int(off * 1000), off, True, "", "off")))

    emulations = {**{f.id: emulate(f, 70.0, c, "m7") for f, c in zip(f756, off)},
                  **{f.id: emulate(f, 100.0, 100.0, "m33") for f in u385}}
    findings = dict(rule_library_ratio(f756 + u385, PARTS, emulations))
    assert findings["syn-f756-7"].verdict == "suspicious"
    message = findings["syn-f756-7"].message
    assert "with STM32F756ZG in on and STM32U385RGT6Q in " in message
    assert "(the configuration pair under which the fewest rows stray, 1)" in message


def test_rows_whose_compilers_differ_without_a_measured_band_are_not_judged(monkeypatch):
    # ARMCC against Clang with no spread measured for the kernel: the compiler's share is unknown.
    monkeypatch.setattr(compiler_band, "bands", dict)
    figures, emulations = _pair([70.0, 72.0, 74.0, 76.0, 71.0, 73.0, 75.0, 157.0], [100.0] * 8, [70.0] * 8, [100.0] * 8)
    assert rule_library_ratio(figures, PARTS, emulations) == []


def test_rows_on_two_cores_without_emulation_are_not_judged():
    # Without the emulated core difference a cross-core ratio cannot be told from an ordinary one.
    figures, _ = _pair([70.0, 72.0, 74.0, 76.0, 71.0, 73.0, 75.0, 157.0], [100.0] * 8)
    assert rule_library_ratio(figures, PARTS) == []
    assert rule_library_ratio(figures, PARTS, {}) == []


def test_a_row_odd_against_one_board_only_points_at_that_board():
    # Three boards; the third board's last row is off; the first two agree on every row. F746 and
    # F756 share the core (the raw fences apply); U385 is judged with the emulated core difference.
    u385 = [100.0] * 8
    f756 = [70.0, 72.0, 74.0, 76.0, 71.0, 73.0, 75.0, 74.0]
    odd = [70.0, 72.0, 74.0, 76.0, 71.0, 73.0, 75.0, 160.0]
    third = [dataclasses.replace(f, part="STM32F746", source="syn") for f in _build(F756, "syn-odd", odd)]
    figures, emulations = _pair(f756, u385, [70.0] * 8, [100.0] * 8)
    emulations.update(_emulated(third, [70.0] * 8, "m7"))
    findings = dict(rule_library_ratio(figures + third, PARTS, emulations))
    assert findings["syn-odd-7"].verdict == "suspicious"  # against both other boards
    assert findings["syn-u385-7"].verdict == "consistent"  # against one of two: the other board is the odd one
    assert "an outlier only against STM32F746" in findings["syn-u385-7"].message


def test_too_few_shared_rows_give_no_ratio():
    assert rule_library_ratio(_build(F756, "a", [70.0] * 4) + _build(U385, "b", [100.0] * 4), PARTS) == []


def test_a_cross_core_row_at_twice_its_emulated_ratio_is_flagged_however_widely_the_rows_spread():
    # The rows' own ratios spread 0.50..1.10 (their kernels differ between the cores, and the
    # emulation says so row by row); the last row is published at 1.60 where its kernel's emulated
    # ratio is 0.80: inside the raw fences of so wide a spread, but 2x its emulated band.
    published = [50.0, 60.0, 70.0, 80.0, 90.0, 100.0, 110.0, 160.0]
    figures, emulations = _pair(published, [100.0] * 8, published[:7] + [80.0], [100.0] * 8)
    findings = dict(rule_library_ratio(figures, PARTS, emulations))
    finding = findings["syn-f756-7"]
    assert finding.verdict == "suspicious"
    assert "= 1.60" in finding.message and "outside, 2.00x the expected middle" in finding.message
    assert all(findings[f"syn-f756-{k}"].verdict == "consistent" for k in range(7))
