"""Related-operation invariants in every section, software and hardware (GMAC vs GCM with the
driver's software-GHASH path, Hash_DRBG vs its hash on a peripheral and across sections, ECC
operations from their counts, no-CRT vs CRT, hardware vs software with the benchmark's own
sampling spread and page notes cited from other headings), on synthetic figures whose numbers the
tests state (real figures lend only their page context)."""

from __future__ import annotations

import dataclasses

import pytest
from sanity_fakes import synthetic, with_cycles_per_byte

from refbench.published.model import Aux, load_figures, load_parts
from refbench.sanity import invariants
from refbench.sanity.judging import RULES
from refbench.sanity.same_build import (
    drbg_peripheral_ratio_bounds,
    rule_drbg_across_sections,
    rule_drbg_vs_hash,
    rule_gmac_vs_gcm,
)

FIGURES = list(load_figures())
PARTS = load_parts()


def _wolf(part: str, algorithm: str, operation: str):
    return next(f for f in FIGURES if f.part == part and f.library == "wolfSSL" and f.algorithm == algorithm
                and f.operation == operation)


def test_the_new_invariants_are_applied_by_the_report():
    assert {"ecc-operations", "drbg-across-sections"} <= set(RULES)


def _gmac_section(gmac_cpb: float, gcm_cpb: float, software_cpb: float | None):
    template_gcm = _wolf("STM32F437", "AES-128-GCM", "encrypt")
    template_gmac = dataclasses.replace(next(f for f in FIGURES if f.library == "wolfSSL" and f.algorithm == "GMAC"),
                                        part="STM32F437", core=template_gcm.core, clock_mhz=template_gcm.clock_mhz)
    common = {"source": template_gcm.source}
    hw = {"implementation": "hardware", "hw": ("AES",), "section": "hardware section", **common}
    figures = [with_cycles_per_byte(template_gcm, "gcm", gcm_cpb, **hw),
               with_cycles_per_byte(template_gmac, "gmac", gmac_cpb, **hw)]
    if software_cpb is not None:
        figures.append(with_cycles_per_byte(template_gmac, "gmac-sw", software_cpb, implementation="software", hw=(),
                                            section="software section", **common))
    return figures


@pytest.mark.parametrize(("gmac", "software", "verdict", "tests"), [
    (10.0, None, "consistent", "value"), (80.0, 70.0, "explained", "value"), (80.0, 200.0, "suspicious", "value"),
    (80.0, None, "consistent", "bound"), (5000.0, 70.0, "suspicious", "value")])
def test_a_hardware_gmac_is_faster_than_gcm_or_costs_the_drivers_software_ghash(gmac, software, verdict, tests):
    findings = dict(rule_gmac_vs_gcm(_gmac_section(gmac, 20.0, software), PARTS))
    finding = findings["gmac"]
    assert (finding.rule, finding.verdict, finding.tests) == ("gmac-vs-gcm", verdict, tests)
    if gmac > 20.0:
        assert "wc_AesGcmEncrypt_STM32" in finding.message and "x GCM" in finding.message
    if tests == "bound":  # the path is documented, but nothing here bounds its cost: untested, not explained
        assert "untested on the slow side" in finding.message


@pytest.mark.parametrize("rule", [rule_gmac_vs_gcm, invariants.rule_hw_vs_sw])
def test_the_software_ghash_path_explains_only_wolfssl_on_an_stm32_aes_peripheral(rule):
    section = _gmac_section(80.0, 20.0, 70.0)
    row = next(f.row for f in section if f.id == "gmac")  # CycloneCRYPTO pairs rows of one table
    figures = [dataclasses.replace(f, library="CycloneCRYPTO", row=row) for f in section]
    findings = [f for i, f in rule(figures, PARTS) if i == "gmac"]
    assert findings and {f.verdict for f in findings} == {"suspicious"}
    assert "not CycloneCRYPTO" in findings[0].message


@pytest.mark.parametrize(("gmac", "verdict"), [(80.0, "explained"), (5000.0, "suspicious")])
def test_a_hardware_gmac_slower_than_software_is_the_documented_path_only_within_its_cost(gmac, verdict):
    figures = _gmac_section(gmac, 20.0, 70.0)
    findings = [f for i, f in invariants.rule_hw_vs_sw(figures, PARTS) if i == "gmac"]
    assert findings and {f.verdict for f in findings} == {verdict}
    assert "zero-length payload" in findings[0].message and "at most" in findings[0].message


def test_a_hardware_gmac_slower_than_software_with_no_gcm_to_bound_it_is_untested_on_that_side():
    figures = [f for f in _gmac_section(80.0, 20.0, 70.0) if f.id != "gcm"]
    findings = [f for i, f in invariants.rule_hw_vs_sw(figures, PARTS) if i == "gmac"]
    assert [(f.verdict, f.tests) for f in findings] == [("consistent", "bound")]


def test_drbg_bounds_on_a_hash_peripheral_follow_from_its_calls():
    low, high = drbg_peripheral_ratio_bounds(1024, 1024)
    assert low == pytest.approx(33 / 16) and high == float("inf")


@pytest.mark.parametrize(("ratio", "verdict"), [(14.0, "consistent"), (1.5, "suspicious")])
def test_the_rng_against_a_hash_peripheral_has_a_lower_bound(ratio, verdict):
    rng_t, sha_t = _wolf("STM32F437", "RNG", "generate"), _wolf("STM32F437", "SHA-256", "hash")
    section = {"section": "one section"}
    sha = with_cycles_per_byte(sha_t, "sha", 20.0, implementation="hardware", hw=("HASH",), **section)
    rng = with_cycles_per_byte(rng_t, "rng", 20.0 * ratio, **section)
    (figure_id, finding), = rule_drbg_vs_hash([rng, sha], PARTS)
    assert figure_id == "rng" and finding.verdict == verdict and "no upper bound" in finding.message


@pytest.mark.parametrize(("rng_b", "verdict"), [(100.0, "consistent"), (230.0, "suspicious"), (80.0, "suspicious")])
def test_two_builds_drbgs_scale_between_one_and_their_hashes_ratio(rng_b, verdict):
    rng_t, sha_t = _wolf("STM32F437", "RNG", "generate"), _wolf("STM32F437", "SHA-256", "hash")
    figures = []
    for name, rng, sha in (("a", 100.0, 20.0), ("b", rng_b, 24.0)):
        section = {"section": f"section {name}"}
        figures += [with_cycles_per_byte(sha_t, f"sha-{name}", sha, implementation="hardware", hw=("HASH",), **section),
                    with_cycles_per_byte(rng_t, f"rng-{name}", rng, **section)]
    findings = dict(rule_drbg_across_sections(figures, PARTS))
    assert set(findings) == {"rng-a", "rng-b"} and findings["rng-a"].verdict == verdict
    assert "ratio 0.83" in findings["rng-a"].message  # their hashes: 20 / 24 cycles per byte


def _ecc(op: str, ms: float, hw: tuple[str, ...] = ()):
    template = _wolf("STM32F437", {"keygen": "ECC-P256", "agree": "ECDH-P256"}.get(op, "ECDSA-P256"), op)
    return synthetic(template, f"ecc-{op}", value=ms, text=f"{ms:.3f}", hw=hw,
                     implementation="hardware" if hw else "software", aux=(Aux("ops", 50.0, "ops", "50"),))


def test_ecc_operations_are_bounded_by_their_counts_in_software_only():
    found = dict(invariants.rule_ecc_operations([_ecc("keygen", 10.0), _ecc("sign", 6.0), _ecc("agree", 20.0),
                                                 _ecc("verify", 30.0)], PARTS))
    assert found["ecc-sign"].verdict == "suspicious" and "signing is key generation's" in found["ecc-sign"].message
    assert found["ecc-verify"].verdict == "consistent" and "= 1.50" in found["ecc-verify"].message
    # on a peripheral the modes have their own times: not compared
    assert invariants.rule_ecc_operations([_ecc("keygen", 10.0, ("PKA",)), _ecc("sign", 6.0, ("PKA",))], PARTS) == []


def test_no_crt_and_crt_are_judged_against_each_other():
    crt = next(f for f in FIGURES if f.variant and f.variant.startswith("CRT") and f.operation == "sign")
    twin = next(f for f in FIGURES if f.variant == "No " + crt.variant and f.operation == "sign")
    a = synthetic(crt, "crt", value=100.0, text="100")
    b = synthetic(twin, "nocrt", value=1000.0, text="1000")
    found = [(i, f) for i, f in invariants.rule_rsa([a, b], PARTS) if f.rule == "rsa-crt"]
    assert {i for i, _ in found} == {"crt", "nocrt"} and found[0][1].verdict == "suspicious"


def test_hardware_vs_software_allows_the_benchmarks_own_sampling_spread():
    sw = _ecc("sign", 45.636)
    sw = synthetic(sw, "sw", value=45.636, text="45.636", aux=(Aux("ops", 22.0, "ops", "22"),), math="fastmath (tfm.c)")
    hw = synthetic(sw, "hw", value=48.682, text="48.682", hw=("PKA",), implementation="hardware",
                   section="PKA section")
    found = [f for i, f in invariants.rule_hw_vs_sw([hw, sw], PARTS) if i == "hw"]
    assert found and found[0].verdict == "consistent"


def test_an_operation_that_ran_another_claims_code_is_not_paired_as_one_code_path():
    def op(figure_id: str, o: str, ms: float, section: str, hw: tuple[str, ...] = ()):
        f = _ecc(o, ms, hw)
        return synthetic(f, figure_id, value=ms, text=f"{ms:.3f}", section=section)
    # the software section's verify costs what the PKA's verify costs (here and elsewhere), not
    # what the software's verify costs elsewhere: it ran on the PKA, so verify/agree = 5 is no
    # contradiction of one code path
    figures = [op("s-agree", "agree", 20.0, "software"), op("s-verify", "verify", 100.0, "software"),
               op("p-verify", "verify", 100.0, "pka", ("PKA",)), op("r-verify", "verify", 98.0, "pka elsewhere", ("PKA",)),
               op("q-verify", "verify", 30.0, "software elsewhere")]
    found = dict(invariants.rule_ecc_operations(figures, PARTS))
    assert found["s-agree"].verdict == "explained" and "rule code-path" in found["s-agree"].message
    # without the PKA evidence the same ratio is a contradiction
    alone = dict(invariants.rule_ecc_operations(figures[:2], PARTS))
    assert alone["s-agree"].verdict == "suspicious"
