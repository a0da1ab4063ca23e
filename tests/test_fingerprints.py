"""Code-path fingerprints and the claims they test (refbench.sanity.fingerprints, .claims), on
synthetic figures whose numbers the tests state (real figures lend only their page context)."""

from __future__ import annotations

import dataclasses

import pytest
from sanity_fakes import synthetic

from refbench.published.model import Aux, load_figures, load_parts
from refbench.published.normalise import normalise
from refbench.published.notes import load_notes
from refbench.sanity import fingerprints
from refbench.sanity.builds import build_of
from refbench.sanity.claims import asm_applies, claims_of
from refbench.sanity.fingerprints import (
    noise,
    repeatability,
    rule_code_path,
    rule_code_path_claim,
    same_code,
    sampling_spread,
)
from refbench.sanity.judging import RULES
from refbench.sanity.prediction import run_to_run
from refbench.sanity.same_build import rule_same_code_path
from refbench.sanity.verdicts import Judgement

FIGURES = list(load_figures())
PARTS = load_parts()
SP = "SP math, Cortex-M assembly"
FAST = "fastmath (tfm.c)"


def _template(algorithm: str, operation: str, part: str = "STM32F437"):
    return next(f for f in FIGURES if f.part == part and f.library == "wolfSSL" and f.algorithm == algorithm
                and f.operation == operation)


def _op(figure_id: str, ms: float, section: str, *, ops: int = 14, hw: tuple[str, ...] = (), math: str = SP,
        algorithm: str = "ECDSA-P256", operation: str = "sign", part: str = "STM32F437", **changes):
    template = _template(algorithm, operation, part)
    aux = (Aux("ops", float(ops), "ops", str(ops)), Aux("duration", round(ops * ms / 1000, 3), "s",
                                                        f"{ops * ms / 1000:.3f}"))
    return synthetic(template, figure_id, value=ms, text=f"{ms:.3f}", section=section, hw=hw,
                     implementation="hardware" if hw else "software", math=math, aux=aux, **changes)


def test_the_fingerprint_rules_are_applied_by_the_report():
    assert {"code-path", "code-path-claim"} <= set(RULES)


def test_noise_is_printed_digits_repeatability_and_sampling_of_the_iteration_count():
    few, many = _op("few", 80.0, "a", ops=4), _op("many", 80.0, "b", ops=64)
    assert sampling_spread(few) == pytest.approx(2 / (2 * (256 * 4) ** 0.5))
    assert sampling_spread(few) == pytest.approx(4 * sampling_spread(many))
    verify = _op("v", 80.0, "a", ops=4, operation="verify")
    assert sampling_spread(verify) == 0.0  # a fixed signature: no random secret per call
    repeat = (0.01, "stated for the test")
    allowed, why = noise(few, many, repeat)
    assert allowed > 0.01 + sampling_spread(few) + sampling_spread(many)
    assert "sampling of 4/64 random-secret calls" in why and "stated for the test" in why


def test_repeatability_is_measured_on_repeated_builds():
    # two sections, the same build (math, assembly, options, compiler): a repeat, 2.000 % apart
    a = _op("r1", 100.0, "build 1", operation="verify", algorithm="ECDSA-P256")
    b = _op("r2", 102.0, "build 2", operation="verify", algorithm="ECDSA-P256")
    value, why = repeatability([a, b], "wolfSSL")
    assert value == pytest.approx(2 / 102 - 0.0005 / 100 - 0.0005 / 102)
    assert "r2" not in why and "102.000" in why
    # another math library is not a repeat: the stated allowance is used
    c = _op("r3", 150.0, "build 3", operation="verify", math=FAST)
    assert repeatability([a, c], "wolfSSL")[1].startswith("stated repeatability")


def test_one_derivation_of_run_to_run_serves_the_fingerprints_and_the_prediction_band(monkeypatch):
    a = _op("r1", 100.0, "build 1", operation="verify", algorithm="ECDSA-P256")
    b = _op("r2", 102.0, "build 2", operation="verify", algorithm="ECDSA-P256")
    value, why = repeatability([a, b], "wolfSSL")
    assert (value, (a, b)) == fingerprints.largest_repeat([(a, b)])
    assert "symmetric and public-key" in why and "this one public-key" in why
    # the prediction band's term is the same function over the symmetric rows builds.toml names
    monkeypatch.setattr(fingerprints, "largest_repeat", lambda pairs: (0.0123, pairs[0]))
    run_to_run.cache_clear()  # computed once per process: earlier tests may have asked for it
    try:
        spread, words = run_to_run()
    finally:
        run_to_run.cache_clear()
    assert spread == 0.0123 and words.startswith("symmetric run-to-run") and "public-key" in words


def _page(sign_sw: float, sign_pka: float):
    """A software-assembly section and a PKA section with the given sign times, and references
    elsewhere: the same assembly at 30 ms and the PKA at 82 ms (same core, other parts)."""
    asm = _op("asm", sign_sw, "software assembly section")
    pka = _op("pka", sign_pka, "PKA section", hw=("PKA",), math=FAST)
    ref_asm = _op("ref-asm", 30.0, "asm elsewhere", ops=40)
    ref_pka = _op("ref-pka", 82.0, "PKA elsewhere", hw=("PKA",), math=FAST)
    return [asm, pka, ref_asm, ref_pka]


def test_identical_timings_under_different_claims_name_both_sides_and_the_supported_claim():
    found = rule_code_path(_page(80.0, 81.0), PARTS)
    pair = {i: f for i, f in found if "'PKA section'" in f.message and "'software assembly section'" in f.message}
    asm, pka = pair["asm"], pair["pka"]
    assert asm.verdict == "suspicious" and pka.verdict == "consistent" and pka.tests == "context"
    assert "software assembly section" in asm.message and "PKA section" in asm.message
    assert "The numbers support the PKA" in asm.message and "did not run what it claims" in asm.message
    assert "1.2% apart" in asm.message


def test_figures_apart_beyond_their_noise_are_not_the_same_code():
    assert rule_code_path(_page(30.5, 81.0), PARTS) == []
    agree, off, _ = same_code(_op("x", 80.0, "a"), _op("y", 90.0, "b"), (0.018, "measured"))
    assert not agree and off == pytest.approx(1 - 80 / 90)


def test_without_references_a_section_that_drives_no_peripheral_ran_software():
    sw = _op("sw", 295.0, "no hardware section", ops=4, operation="keygen", algorithm="ECC-P256")
    hw = _op("hw", 293.0, "PKA section", ops=4, operation="keygen", algorithm="ECC-P256", hw=("PKA",))
    findings = dict(rule_code_path([sw, hw], PARTS))
    assert findings["hw"].verdict == "suspicious" and findings["sw"].verdict == "consistent"
    assert "drives no PKA for any figure, so it ran software" in findings["hw"].message


def test_a_figure_far_outside_its_claim_and_inside_another_is_flagged_with_both():
    # fastmath elsewhere 1000 ms; the SP assembly elsewhere 20, 25 ms (spread 1.25x); this fastmath figure 21 ms
    figures = [_op("fm-ref", 1000.0, "fastmath elsewhere", math=FAST, ops=2, operation="keygen", algorithm="ECC-P256"),
               _op("sp-1", 20.0, "asm one", operation="keygen", algorithm="ECC-P256"),
               _op("sp-2", 25.0, "asm two", operation="keygen", algorithm="ECC-P256"),
               _op("odd", 21.0, "fastmath section", math=FAST, operation="keygen", algorithm="ECC-P256")]
    findings = dict(rule_code_path_claim(figures, PARTS))
    assert set(findings) == {"odd"}
    message = findings["odd"].message
    assert "claims software, fastmath (tfm.c)" in message and "faster than every figure of that claim" in message
    assert "the numbers support software, SP math, Cortex-M assembly" in message
    # 2x from its claim is within the 2.5x one claim spans elsewhere (a version or board difference)
    figures[-1] = _op("odd", 500.0, "fastmath section", math=FAST, operation="keygen", algorithm="ECC-P256")
    figures.append(_op("sp-3", 50.0, "asm three", operation="keygen", algorithm="ECC-P256"))
    assert rule_code_path_claim(figures, PARTS) == []


def test_a_note_naming_the_accelerated_operations_decides_the_claim_of_the_others():
    # a synthetic note over the U585 PKA section (no page note names operations today: the one that did
    # was contradicted by wolfSSL's source, refbench/published/notes.toml wolfssl-pka-signs-and-verifies-only)
    real = next(n for n in load_notes() if n.id == "wolfssl-pka-signs-and-verifies-only")
    note = dataclasses.replace(real, id="syn-signs-only", explains="code-path", operations=("sign", "verify"))
    template = next(f for f in FIGURES if note.covers(f) and f.algorithm.startswith("ECDSA"))
    keygen = synthetic(template, "k", operation="keygen", algorithm="ECC-P256", hw=(note.hardware,),
                       implementation="hardware")
    sign = synthetic(template, "s", operation="sign", hw=(note.hardware,), implementation="hardware")
    notes = (note,)
    assert claims_of(keygen, notes).engine is None and claims_of(keygen, notes).statements[0].note == note
    assert claims_of(sign, notes).engine == note.hardware
    # the quoted note is evidence, not part of the claim: the same code is claimed without it
    assert claims_of(keygen, notes) == dataclasses.replace(claims_of(keygen, notes), statements=())


_ARMASM = "WOLFSSL_ARMASM (Thumb-2 assembly for AES/SHA, no HW crypto instructions)"


@pytest.mark.parametrize(("asm", "algorithm", "kernel", "covered"), [
    (_ARMASM, "SHA-256", "sha256", True), (_ARMASM, "AES-128-CBC", "aes", True),
    (_ARMASM, "HMAC-SHA-256", "hmac", True), (_ARMASM, "ChaCha20", "chacha20", False),
    ("WOLFSSL_ARMASM", "AES-128-CBC", "aes", False), ("WOLFSSL_ARMASM", "SHA-256", "sha256", False),
    (None, "SHA-256", "sha256", False)])
def test_the_assembly_claim_is_read_once_by_the_build_model(asm, algorithm, kernel, covered):
    # claims.asm_applies asks builds.Build.assembly_covers (builds.toml asm): the two never disagree,
    # also for a claim that names no family ("WOLFSSL_ARMASM" alone names none in builds.toml)
    operation = {"SHA-256": "hash", "HMAC-SHA-256": "mac"}.get(algorithm, "encrypt")
    f = synthetic(_template(algorithm, operation), "a", asm=asm)
    assert build_of(f).assembly_covers(kernel) is covered
    assert asm_applies(f) is covered and (claims_of(f).asm is not None) is covered


def test_the_same_code_path_is_evidence_about_identity_never_a_test_of_the_value():
    a = _op("twin-a", 50.0, "section A", operation="verify")
    b = _op("twin-b", 50.0, "section B", operation="verify")
    findings = [f for _, f in rule_same_code_path([a, b], PARTS)]
    assert findings and {f.tests for f in findings} == {"context"}
    judgement = Judgement(a, normalise(a), [findings[0]])
    assert judgement.verdict == "untested"


def test_without_references_a_build_without_assembly_ran_c():
    template = next(f for f in FIGURES if f.library == "wolfSSL" and f.algorithm == "SHA-512" and f.operation == "hash")
    asm = synthetic(template, "with-asm", section="assembly build", implementation="software", hw=(),
                    asm="WOLFSSL_ARMASM (Thumb-2 assembly for AES/SHA)")
    plain = synthetic(template, "no-asm", section="C build", implementation="software", hw=(), asm="none (WOLFSSL_NO_ASM)")
    findings = dict(rule_code_path([asm, plain], PARTS))
    assert findings["with-asm"].verdict == "suspicious" and findings["no-asm"].verdict == "consistent"
    assert "names no assembly for SHA-512, so it ran C" in findings["with-asm"].message


def test_a_sections_claims_per_algorithm():
    from refbench.sanity.claims import section_claims

    pka = _op("k", 10.0, "one section", hw=("PKA",), operation="keygen", algorithm="ECC-P256")
    sha = synthetic(next(f for f in FIGURES if f.library == "wolfSSL" and f.algorithm == "SHA-256"), "h",
                    section="one section", source=pka.source, implementation="hardware", hw=("HASH",))
    claims = section_claims([pka, sha], pka.source, "one section")
    assert claims[("ECC-P256", "keygen")].engine == "PKA" and claims[("ECC-P256", "keygen")].math is None
    assert claims[("SHA-256", "hash")].engine == "HASH"


def test_a_deterministic_signature_has_no_sampling_spread():
    template = next(f for f in FIGURES if f.algorithm == "Ed25519" and f.operation == "sign")
    keygen = next(f for f in FIGURES if f.algorithm == "Ed25519" and f.operation == "keygen")
    ops = (Aux("ops", 4.0, "ops", "4"),)
    assert sampling_spread(synthetic(template, "ed-sign", aux=ops)) == 0.0
    assert sampling_spread(synthetic(keygen, "ed-keygen", aux=ops)) == pytest.approx(1 / (255 * 4) ** 0.5)
