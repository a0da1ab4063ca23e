"""Rule e for public-key figures (refbench/sanity/pubkey_plan.py): plan and verdict by composition.

Verdicts are tested on synthetic figures with stated numbers (a real figure lends its page
context: library, section options, board), against stated per-call cycles of the field/bignum
kernels (``sanity_fakes.StatedExecutor``): no kernel runs, no test depends on the cycle model.
"""

from __future__ import annotations

import dataclasses

import pytest
from sanity_fakes import stated_context, synthetic

from refbench.published.model import Aux, load_figures, load_parts
from refbench.sanity import judge
from refbench.sanity.emulation import VariantResult
from refbench.sanity.plan import Skipped, make_plan, plan_figure
from refbench.sanity.pubkey_cost import field_work, reference_counts
from refbench.sanity.pubkey_plan import PubkeyPlan, composition_bound, is_pubkey, measured_whole
from refbench.sanity.pubkey_whole import COMPOSITION_BOUND

FIGURES = {f.id: f for f in load_figures()}
PARTS = load_parts()
#: wolfSSL 5.6.4 on the NUCLEO-L4A6ZG (Cortex-M4, 80 MHz), "SP math, Cortex-M assembly (small)":
#: X25519 agree, RSA-2048 private; and "sp_int.c (SP math all)" with WOLFSSL_NO_ASM.
L4_X25519, L4_RSA, L4_NO_ASM = FIGURES["000-0296"], FIGURES["000-0284"], FIGURES["000-0338"]
#: wolfSSL on the NUCLEO-G071RB (Cortex-M0+, 64 MHz), "SP math, Thumb assembly (WOLFSSL_SP_SMALL)".
G0_ECDSA = FIGURES["000-0598"]
#: CycloneCRYPTO on the STM32WL33 (Cortex-M0+, 64 MHz): RSA-2048 sign.
WL33_RSA = FIGURES["001-0071"]
#: Stated cycles of one field/bignum call per variant, and each configuration kind's factor.
CALL = {"umaal": 1000.0, "umlal": 1500.0, "umaal_asm": 1200.0, "umaal_asm_ladder": 1200.0, "umull_asm": 1400.0,
        "umull_asm_bytecopy": 1450.0,
        "umull_umaal_asm": 1300.0, "c32": 2000.0, "m0": 4000.0, "c29": 1800.0, "m0_asm": 3000.0,
        "m0_kara": 2200.0, "m0_kara_loop": 2500.0}
KINDS = {"cache on": 1.0, "cache off": 1.5, "cache on, prefetch off": 1.2, "prefetch only": 1.3,
         "tables in SRAM": 0.95, "code in SRAM": 0.9}
#: An X25519 agreement: the reference's counted products (mul_const and the Fermat inversion
#: priced as products), all calls of the 2^255 - 19 kernels.
X25519_CALLS = sum(field_work("Curve25519", "special", reference_counts("Curve25519", "agree")).values())
#: Stated cycles of one whole X25519 (bignum x25519), below its composition with umaal_asm's calls.
X25519_WHOLE = X25519_CALLS * 800.0


def per_call(m) -> float:
    if m.job.operation == "x25519":
        return X25519_WHOLE * KINDS[m.config.kind] / m.job.size
    return CALL[m.job.variant] * KINDS[m.config.kind] / m.job.size


def emulate(figure):
    context, executor = stated_context(per_call)
    return judge([figure], PARTS, context).emulations[figure.id], executor


def ms(cycles: float, mhz: float) -> float:
    return cycles / (mhz * 1000.0)


def test_x25519_is_predicted_from_the_assembly_the_page_names_in_the_start_up_memory():
    # the page's "Cortex-M assembly" with WOLFSSL_ARMASM: the Thumb-2 Curve25519 field code, modelled by
    # umaal_asm (1200 per call, composed), and its whole assembly ladder, modelled by umaal_asm_ladder's
    # x25519 measured whole (X25519_WHOLE); in the L4's start-up configuration (caches on, prefetch off: x1.2)
    predicted = (X25519_CALLS * 1200.0 * X25519_WHOLE) ** 0.5 * 1.2
    published = predicted * 1.02
    e, executor = emulate(synthetic(L4_X25519, "syn-x-in", value=ms(published, 80.0), text=f"{ms(published, 80.0):.4f}"))
    assert e.status == "emulated" and e.unit == "cycles" and e.position == "inside"
    assert {m.job.variant for m in executor.ran} == {"umaal", "umlal", "umaal_asm", "umaal_asm_ladder", "umull_asm",
                                                     "umull_umaal_asm"}
    assert {m.job.operation for m in executor.ran if m.job.variant != "umaal_asm_ladder"} == {
        "25519-mul", "25519-sqr", "25519-add", "25519-sub", "25519-mul-a24", "25519-cswap", "call"}
    assert {m.job.operation for m in executor.ran if m.job.variant == "umaal_asm_ladder"} == {"x25519"}
    assert (e.emulated_min, e.emulated_max) == (pytest.approx(X25519_WHOLE * 0.9), pytest.approx(X25519_CALLS * 2250.0))
    ladder = [r for r in e.variants if r.variant == "umaal_asm_ladder"]
    assert ladder and all(r.operation.endswith("constant-time ladder") for r in ladder)
    # one whole operation, not composed calls: the stated whole cycles x the configuration's factor
    assert sorted(r.cycles for r in ladder) == pytest.approx(sorted(X25519_WHOLE * KINDS[c.kind] for c in e.configs))
    p = e.prediction
    assert p.predicted == pytest.approx(predicted) and p.band_low is not None and p.band_high is not None
    assert (e.finding.verdict, e.finding.tests) == ("consistent", "value")
    assert e.explanation.startswith("inside the band: 1.02x the prediction")
    compose = next(t for t in p.terms if t.name == "composition")
    assert (compose.low, compose.high) == (pytest.approx(1 / (1 + COMPOSITION_BOUND)), pytest.approx(1 + COMPOSITION_BOUND))
    assert "sampling" in {t.name for t in p.terms} and "umaal_asm" in p.basis


def test_a_candidate_measured_whole_carries_no_composition_bound():
    """A variant computing the operation whole (kernel.toml whole) is its emulated cycles: the
    composition bound applies only while some candidate is composed."""
    whole = VariantResult("bignum", "umaal_asm_ladder", "special, constant-time ladder", 1000, None, True, "",
                          per_op=True)
    composed = dataclasses.replace(whole, variant="umaal_asm")
    assert measured_whole(whole) and not measured_whole(composed)
    assert composition_bound([whole]) == 0.0 and composition_bound([whole, composed]) == COMPOSITION_BOUND


def test_faster_than_the_band_is_flagged_and_beyond_every_candidate_inconsistent():
    published = X25519_CALLS * 450.0  # the fastest candidate: umaal 1000 x 0.9 (code in SRAM); c32: 2000 x 0.9
    value, text = ms(published, 80.0), f"{ms(published, 80.0):.4f}"
    e, _ = emulate(synthetic(L4_X25519, "syn-x-fast", value=value, text=text, math="SP math, C 32-bit"))
    assert e.position == "faster" and e.finding.verdict == "inconsistent"
    assert e.prediction.predicted == pytest.approx(X25519_CALLS * 2000.0 * 1.2)
    e, _ = emulate(synthetic(L4_X25519, "syn-x-hw", value=value, text=text, hw=("PKA",)))
    assert e.finding.tests == "bound" and "claims hardware (PKA)" in e.explanation
    assert e.prediction.band_low is None and e.prediction.band_high is None


def test_slower_than_the_band_is_flagged_the_slow_side_is_tested():
    predicted = X25519_CALLS * 1200.0 * 1.2
    e, _ = emulate(synthetic(L4_X25519, "syn-x-slow", value=ms(predicted * 1.6, 80.0),
                             text=f"{ms(predicted * 1.6, 80.0):.4f}"))
    assert e.position == "slower" and (e.finding.verdict, e.finding.tests) == ("suspicious", "value")
    assert e.prediction.band_high is not None and not e.prediction.open_high
    published = X25519_CALLS * 2250.0 * 2  # beyond the slowest candidate (umlal 1500 caches off x1.5)
    e, _ = emulate(synthetic(L4_X25519, "syn-x-slower", value=ms(published, 80.0), text=f"{ms(published, 80.0):.4f}"))
    assert e.position == "slower" and e.finding.verdict == "inconsistent"


def test_assembly_with_only_c_kernels_of_the_operation_leaves_the_fast_side_to_the_floor():
    # G071 "SP math, Thumb assembly" without WOLFSSL_SP_SMALL: bignum/m0 is C; P-256's unrolled products
    # are not written in assembly by it
    full = "SP math, Thumb assembly (without WOLFSSL_SP_SMALL)"
    probe, _ = emulate(synthetic(G0_ECDSA, "syn-g0-probe", value=1.0, text="1.000", math=full))
    p = probe.prediction
    assert "no assembly kernel of this operation runs" in p.floor_note and p.band_high is not None
    half = ms(p.predicted * 0.5, 64.0)
    e, _ = emulate(synthetic(G0_ECDSA, "syn-g0-half", value=half, text=f"{half:.4f}", math=full))
    assert e.position == "inside" and e.finding.verdict == "consistent"
    double = ms(p.band_high * 1.5, 64.0)
    e, _ = emulate(synthetic(G0_ECDSA, "syn-g0-double", value=double, text=f"{double:.4f}", math=full))
    assert e.position == "slower" and e.finding.verdict in ("suspicious", "inconsistent")


def test_the_small_thumb_build_prices_p256_on_its_assembly_kernels():
    # G071 "SP math, Thumb assembly (WOLFSSL_SP_SMALL)": P-256 on bignum/m0_asm's p256-mont-mul/-sqr (the
    # build's shape), so the fast side is bounded by the prediction, not left to the floor
    probe, executor = emulate(synthetic(G0_ECDSA, "syn-g0-small", value=1.0, text="1.000"))
    p = probe.prediction
    assert p.floor_note == "" and p.band_low is not None and p.band_high is not None
    ran = {(m.job.variant, m.job.operation) for m in executor.ran}
    assert {("m0_asm", "p256-mont-mul"), ("m0_asm", "p256-mont-sqr")} <= ran
    assert "Montgomery with product loops" in p.basis


def test_rsa_private_is_two_half_size_exponentiations_over_two_window_widths():
    e, executor = emulate(synthetic(L4_RSA, "syn-rsa", value=1.0, text="1.000"))
    assert {(m.job.operation, m.job.size) for m in executor.ran} == {("mont-mul", 128), ("mont-sqr", 128), ("call", 128)}
    recipes = {v.operation for v in e.variants}
    assert recipes == {"CRT, two 1024-bit Montgomery exponentiations, 4-bit fixed window",
                       "CRT, two 1024-bit Montgomery exponentiations, 5-bit fixed window"}
    # 5-bit window: 2 x (1024 S + (205 + 30 + 2) M) + 2 M = 2048 S + 476 M calls of the fastest variant,
    # each with the caller's side of its call (bignum "call", priced alike by the fake executor)
    assert e.emulated_min == pytest.approx(2 * (2048 + 476) * 1000.0 * 0.9)


@pytest.mark.parametrize("template, variants", [(L4_NO_ASM, {"c32"}), (G0_ECDSA, {"m0", "m0_asm"}), (WL33_RSA, {"c32", "m0"})],
                         ids=["sp_int-no-asm", "thumb-asm-m0plus", "cyclone-own-c"])
def test_section_options_decide_the_variants(template, variants):
    p = plan_figure(template, PARTS)
    assert isinstance(p, PubkeyPlan) and set(p.variants) == variants


def test_a_library_whose_variants_the_core_lacks_gets_a_named_reason():
    f = synthetic(G0_ECDSA, "syn-m0-asm", math="SP math, Cortex-M assembly")
    p = plan_figure(f, PARTS)
    assert isinstance(p, Skipped) and p.status == "not emulated yet"
    assert p.explanation.startswith("not emulated yet: wolfSSL SP Cortex-M assembly") and "no variant for m0plus" in p.explanation


def test_every_public_key_figure_is_planned_or_says_why():
    figures = [f for f in FIGURES.values() if is_pubkey(f) and f.implementation == "software"]
    plan = make_plan(figures, PARTS)
    unplanned = [p for p in plan.figures if not isinstance(p, PubkeyPlan)]
    assert all(isinstance(p, Skipped) and p.explanation for p in unplanned)
    planned = [p for p in plan.figures if isinstance(p, PubkeyPlan)]
    assert planned and all(p.jobs() and p.recipes for p in planned)


#: ST CMOX on the NUCLEO-WL55JC (Cortex-M4, 48 MHz): Ed25519 verify (a closed library).
WL55_CMOX = FIGURES["002-0250"]


def test_a_closed_library_is_bounded_only_by_the_any_code_floor():
    probe, _ = emulate(synthetic(WL55_CMOX, "syn-cmox-probe", value=1.0, text="1.000"))
    fastest = probe.emulated_min  # c32 2000 x 0.9 per call: far above what any code must pay (about 50 per call)
    assert WL55_CMOX.unit == "cycles"  # CMOX publishes cycles per operation
    e, _ = emulate(synthetic(WL55_CMOX, "syn-cmox-fast", value=fastest * 0.5, text=f"{fastest * 0.5:.0f}"))
    assert (e.finding.verdict, e.finding.tests) == ("consistent", "bound")
    assert e.prediction.band_high is None and "ST CMOX (X-CUBE-CRYPTOLIB) is a closed library" in e.prediction.open_high
    assert "32x32 products (Karatsuba counts" in e.prediction.floor_note
    slow = fastest * 20
    e, _ = emulate(synthetic(WL55_CMOX, "syn-cmox-slow", value=slow, text=f"{slow:.0f}"))
    assert (e.finding.verdict, e.finding.tests) == ("consistent", "bound")
    tiny = fastest * 0.005
    e, _ = emulate(synthetic(WL55_CMOX, "syn-cmox-tiny", value=tiny, text=f"{tiny:.0f}"))
    assert e.position == "faster" and e.finding.verdict == "inconsistent" and "floor no code can beat" in e.explanation


def test_an_assembly_claim_modelled_by_an_assembly_kernel_is_bounded_on_both_sides():
    # X25519 on a Cortex-M4 with the page's Thumb-2 Curve25519 assembly: umaal_asm is that code, so the
    # fast side is the kernels' (no floor), and far below every candidate is inconsistent
    published = 150_000.0
    e, _ = emulate(synthetic(L4_X25519, "syn-x-asm-floor", value=ms(published, 80.0), text=f"{ms(published, 80.0):.4f}"))
    assert not e.prediction.floor_note and e.prediction.width is not None
    assert e.position == "faster" and e.finding.verdict == "inconsistent"
    assert "faster than every allowed configuration x code path x compiler" in e.explanation


def test_a_section_pka_claim_explains_a_faster_ecc_figure():
    f = synthetic(G0_ECDSA, "syn-pka", value=0.001, text="0.001", config="STM32U585 (STM PKA PKA w/Fast Math)")
    e, _ = emulate(f)
    assert e.position == "faster" and e.finding.tests == "bound" and "the section's PKA hardware" in e.explanation


#: CycloneCRYPTO 2.5.0 on the STM32F756ZG (Cortex-M7): X25519 key generation, and ECDSA-P256 signing.
F756_CYCLONE_X25519 = FIGURES["003-0131"]
F756_CYCLONE_ECDSA = next(f for f in FIGURES.values() if f.source.startswith("003") and f.algorithm == "ECDSA-P256"
                          and f.operation == "sign" and f.implementation == "software")


F756_CYCLONE_SM2 = next(f for f in FIGURES.values() if f.source.startswith("003") and f.algorithm == "SM2-DSA"
                        and f.operation == "sign" and f.implementation == "software")


F756_CYCLONE_ECDH_SM2 = next(f for f in FIGURES.values() if f.source.startswith("003") and f.algorithm == "ECDH-SM2"
                             and f.implementation == "software")


def test_an_open_librarys_own_field_code_is_bounded_by_its_kernels_not_the_floor():
    """CycloneCRYPTO's SM2 field code (ecScalarMul + sm2FieldMod) is modelled by bignum/c29, its P-256
    by code the candidates model, its X25519 by bignum/c29 (29-bit limbs): faster than every
    composed candidate is suspicious for each, with no fall-back to the any-code floor (kept for
    closed libraries) and the slow side bounded."""
    for template in (F756_CYCLONE_SM2, F756_CYCLONE_ECDH_SM2, F756_CYCLONE_ECDSA, F756_CYCLONE_X25519):
        probe, _ = emulate(synthetic(template, f"syn-cy-probe-{template.algorithm}", value=1.0, text="1.0"))
        fastest_ms = probe.emulated_min / (template.clock_mhz * 1e3)  # cycles -> ms at the page's clock
        fast = fastest_ms * 0.5
        e, _ = emulate(synthetic(template, f"syn-cy-fast-{template.algorithm}", value=fast, text=f"{fast:.4f}"))
        assert e.position == "faster" and e.finding.verdict in ("suspicious", "inconsistent"), template.algorithm
        assert not e.prediction.floor_note and "floor no code can beat" not in e.finding.message
        assert not e.prediction.open_high and e.prediction.band_high is not None


def test_cyclone_sm2_is_predicted_from_its_own_shape_and_the_fixed_length_form_stays_a_candidate():
    """pubkey_costs.toml [[libraries]] predict: a Cyclone SM2 figure's prediction is bignum/c29's
    composed cost (the library's run-time-length Comba product and sm2FieldMod), c32 among the
    candidates (the composed range and the hypotheses), not in the prediction."""
    for template in (F756_CYCLONE_SM2, F756_CYCLONE_ECDH_SM2):
        e, _ = emulate(synthetic(template, f"syn-cy-pick-{template.algorithm}", value=1.0, text="1.0"))
        p = e.prediction
        assert " with c29 (" in p.basis and "the library's own shape" in p.basis, p.basis
        assert {r.variant for r in e.variants} >= {"c29", "c32"}
        c29 = [r.cycles for r in e.variants if r.variant == "c29" and r.cycles]
        assert min(c29) <= p.predicted <= max(c29)
        assert any(h.variant == "c32" for h in p.hypotheses)


def test_sampling_shrinks_with_the_operations_averaged_and_is_nil_for_fixed_work():
    from refbench.sanity.emulator_rule import sampling_term

    ten = synthetic(G0_ECDSA, "syn-ops", aux=(Aux("ops", 10.0, "ops", "10"),))
    forty = synthetic(G0_ECDSA, "syn-ops40", aux=(Aux("ops", 40.0, "ops", "40"),))
    wnaf = ("Montgomery, interleaved 4-bit wNAF double-scalar", "Montgomery, interleaved 5-bit wNAF double-scalar")
    t10, t40 = sampling_term(ten, wnaf, 256), sampling_term(forty, wnaf, 256)
    # the sparser 5-bit NAF (q = 1/6) decides: 3 sqrt(5/256) / sqrt(N)
    assert t10.high - 1 == pytest.approx(3 * (5 / 256) ** 0.5 / 10 ** 0.5)
    assert t40.high - 1 == pytest.approx((t10.high - 1) / 2) and t40.low == pytest.approx(1 / t40.high)
    # a signed sliding window of width 5 (ref10's slide(), digits up to 15) is as dense as the 5-bit NAF
    sliding = sampling_term(ten, ("special-form reduction, ref10 5-bit sliding-window double-scalar",), 256)
    assert (sliding.low, sliding.high) == pytest.approx((t10.low, t10.high))
    fixed = sampling_term(ten, ("Montgomery, 6-bit comb base point",), 256)
    assert (fixed.low, fixed.high) == (1.0, 1.0)


@pytest.mark.parametrize("small", [True, False])
def test_sp_thumb_rsa_is_bounded_both_ways_by_the_assembly_of_its_build(small):
    # G071 "SP math, Thumb assembly (WOLFSSL_SP_SMALL)": RSA products are sp_armthumb.c's 16x16 MULS loops,
    # modelled by bignum/m0_asm (builds.toml [[pubkey]] mont_variants): predicted by it alone, both sides
    # bounded; without WOLFSSL_SP_SMALL, Karatsuba over an 8-word base, straight-line or a loop (with or
    # without WOLFSSL_SP_LARGE_CODE): bignum/m0_kara and m0_kara_loop, both sides bounded by them, no floor
    math = "SP math, Thumb assembly (" + ("WOLFSSL_SP_SMALL)" if small else "without WOLFSSL_SP_SMALL)")
    rsa = dict(math=math, algorithm="RSA-2048", operation="private", key_bits=2048, curve=None)
    probe, _ = emulate(synthetic(G0_ECDSA, "syn-g0-rsa-probe", value=1.0, text="1.000", **rsa))
    p = probe.prediction
    assert ("with m0_asm (" in p.basis) == small and ("with m0_kara, m0_kara_loop (" in p.basis) == (not small)
    assert not p.floor_note
    assert ("5-bit fixed window" in p.basis) == (not small) and ("4-bit fixed window" in p.basis) == small
    assert p.band_high is not None and p.band_low is not None and p.band_low < p.predicted < p.band_high
    fast = ms(p.predicted * 0.6, 64.0)  # below the band of either build
    e, _ = emulate(synthetic(G0_ECDSA, "syn-g0-rsa-fast", value=fast, text=f"{fast:.4f}", **rsa))
    assert e.position == "faster"


def test_sp_assembly_rsa_is_predicted_on_the_umull_assembly_with_both_sides_bounded():
    # L4A6 "SP math, Cortex-M assembly (small)" at 5.6.4: RSA products are UMULL + ADDS/ADCS/ADC loops and the
    # reduction one UMAAL per word (builds.toml [[pubkey]] mont_variants, since 5.6.4): predicted by
    # bignum/umull_umaal_asm alone, whose assembly is that shape, so no other variant's cost widens the band
    # and no lower-bound variant stands in for the page's code; before 5.6.4 bignum/umull_asm_bytecopy alone
    # (its products end in XMEMCPY, newlib's byte loop under STM32CubeIDE's toolchain)
    older, _ = emulate(synthetic(dataclasses.replace(L4_RSA, version="5.6.0"), "syn-l4-rsa-old", value=1.0, text="1.000"))
    assert "umull_asm_bytecopy" in older.prediction.basis and "umull_umaal_asm" not in older.prediction.basis
    probe, _ = emulate(synthetic(L4_RSA, "syn-l4-rsa-probe", value=1.0, text="1.000"))
    p = probe.prediction
    assert "umull_umaal_asm" in p.basis and "umaal_asm" not in p.basis.replace("umull_umaal_asm", "")
    assert "umlal" not in p.basis and not p.floor_note
    assert p.band_low is not None and p.band_high is not None and p.band_low < p.predicted < p.band_high
    assert not any(t.name == "build spread" and "kernel variants" in t.source for t in p.terms)
    inside = ms(p.predicted * 1.02, 80.0)
    e, _ = emulate(synthetic(L4_RSA, "syn-l4-rsa-inside", value=inside, text=f"{inside:.4f}"))
    assert e.position == "inside" and e.finding.verdict == "consistent"
    fast = ms(p.band_low * 0.6, 80.0)
    e, _ = emulate(synthetic(L4_RSA, "syn-l4-rsa-fast", value=fast, text=f"{fast:.4f}"))
    assert e.position == "faster" and e.finding.verdict in ("suspicious", "inconsistent")
    slow = ms(p.band_high * 1.6, 80.0)
    e, _ = emulate(synthetic(L4_RSA, "syn-l4-rsa-slow", value=slow, text=f"{slow:.4f}"))
    assert e.position == "slower" and e.finding.verdict in ("suspicious", "inconsistent")
