"""The emulator rule (``emulator``) and the cross-board rule's gap explanation (``cross-board``) as pure functions of the
plan and the measurements.

Verdicts are tested on synthetic figures with stated numbers, against stated emulated ranges: a
``sanity_fakes.StatedExecutor`` returns the cycles a test writes down, so no kernel
runs and no test depends on the cycle model. The kernels themselves run in
tests/test_sanity_executor.py.
"""

from __future__ import annotations

import dataclasses
import math
import re

import pytest
from sanity_fakes import by_variant_and_kind, stated_context, synthetic, with_cycles_per_byte

from refbench.published.model import load_figures, load_parts
from refbench.sanity import SanityContext, judge
from refbench.sanity.cross_board import explain_gap
from refbench.sanity.emulation import Emulation, VariantResult, summary
from refbench.sanity.memory_configs import MEMORY_NOTE, MemoryConfig

FIGURES = {f.id: f for f in load_figures()}
PARTS = load_parts()
#: Page context for the synthetic figures: wolfSSL 5.6.4, NUCLEO-L4A6ZG (Cortex-M4 at 80 MHz,
#: 4 wait states), AES-128-CBC encrypt, software, no assembly, 1024-byte blocks.
#: The generic rule is tested on a library with no entry in libraries.toml (every catalogue
#: variant is a candidate); wolfSSL's own candidates are tested in tests/test_library_workloads.py.
WOLFSSL_L4 = FIGURES["000-0301"]
#: Built with clang (a compiler we run): the stated allowance, not a measured compiler spread
#: (tests/test_compiler_band.py).
L4 = dataclasses.replace(WOLFSSL_L4, library="a C library without documented options", compiler="Clang")
#: STM32L4A6 at 80 MHz: 4 wait states (RM0351 table in the board profile), ART caches and prefetch.
L4_LABELS = ("ART+prefetch on, 4 WS @ 80 MHz", "ART+prefetch off, 4 WS @ 80 MHz", "ART on, prefetch off, 4 WS @ 80 MHz",
             "ART off, prefetch on, 4 WS @ 80 MHz", "tables in SRAM, ART+prefetch on, 4 WS @ 80 MHz",
             "code in SRAM, 0 WS @ 80 MHz")
ON, OFF, ART_ONLY, PREFETCH_ONLY, TABLES, SRAM = L4_LABELS
#: Stated cycles per byte of the four AES variants with caches on, and each configuration kind's factor:
#: the emulated range is 36 (ttable4, code in SRAM) .. 150 (bytewise, caches off).
VARIANTS = {"bytewise": 100.0, "ttable4": 40.0, "ttable1": 50.0, "bitsliced": 80.0}
KINDS = {"cache on": 1.0, "cache off": 1.5, "cache on, prefetch off": 1.2, "prefetch only": 1.3,
         "tables in SRAM": 0.95, "code in SRAM": 0.9}
STATED = by_variant_and_kind(VARIANTS, KINDS)


def emulate(figure, rate=STATED, **settings) -> Emulation:
    context, _ = stated_context(rate, **settings)
    return judge([figure], PARTS, context).emulations[figure.id]


#: wolfSSL 5.6.4 on the L4A6 (GCC, STM32CubeIDE, -Os): the build model's code path is T-tables
#: (aes/ttable4, libraries.toml default) and its memory configuration the STM32CubeL4 start-up
#: default, ART on with prefetch off (builds.toml): predicted 40 x 1.2 = 48 c/B.
PREDICTED = 48.0


def test_the_prediction_is_the_build_in_its_configuration_with_each_band_term():
    e = emulate(with_cycles_per_byte(WOLFSSL_L4, "syn-inside", 48.0))
    assert e.status == "emulated" and (e.board, e.clock_mhz, e.size, e.unit) == ("stm32l4a6zg", 80.0, 1024, "c/B")
    assert tuple(c.label for c in e.configs) == L4_LABELS
    assert (e.emulated_min, e.emulated_max) == (pytest.approx(36.0), pytest.approx(150.0))
    p = e.prediction
    assert p.predicted == pytest.approx(PREDICTED) and p.ratio == pytest.approx(1.0) and p.memory_labels == (ART_ONLY,)
    assert p.band_low < PREDICTED < p.band_high
    assert p.width == pytest.approx(math.prod(t.high / t.low for t in p.terms))  # the product of its terms
    assert [t.name for t in p.terms] == ["compiler", "core model", "printed resolution", "run-to-run"]
    assert "aes/ttable4 = wolfSSL T-tables" in p.basis and "stm32l4xx_hal_conf_template.h" in p.basis
    assert e.position == "inside" and e.finding.rule == "emulator" and e.finding.verdict == "consistent"
    assert e.finding.tests == "value" and e.memory == ART_ONLY
    assert "predicted 48.00 c/B" in e.finding.message and "emulated 36.00..150.0 c/B over 2 variant(s)" in e.finding.message


def test_other_configurations_are_hypotheses_never_the_verdict():
    # 60 c/B: the build's code with the caches off (40 x 1.5), outside the predicted band.
    e = emulate(with_cycles_per_byte(WOLFSSL_L4, "syn-caches-off", 60.0))
    assert e.position == "slower" and e.finding.verdict == "suspicious"
    fits = {h.kind: h for h in e.prediction.fitting()}
    assert "cache off" in fits and fits["cache off"].ratio == pytest.approx(1.0)
    assert "would fit cache off" in e.finding.message and "1.25x the prediction" in e.explanation


def test_the_nearest_hypothesis_named_is_the_nearest():
    """Issue 32 item 6: the configuration named "nearest" must be the nearest of those measured
    (not one of a preferred kind far off while others are at +-11 %)."""
    e = emulate(with_cycles_per_byte(WOLFSSL_L4, "syn-nearest", 41.0))  # below the band (M4 held-out +-10 %)
    p = e.prediction
    ratios = sorted((abs(math.log(h.ratio)), h.label) for h in p.hypotheses)
    assert p.nearest().label == ratios[0][1]
    named = re.search(r"nearest other configuration or code path: (.+?): ([0-9.]+)x", e.finding.message)
    assert named and named.group(1) == ratios[0][1] and float(named.group(2)) == pytest.approx(p.nearest().ratio, abs=0.01)


def test_an_unknown_code_path_spans_the_variants_the_library_ships_and_says_so():
    e = emulate(with_cycles_per_byte(L4, "syn-unknown", 52.0))
    spread = e.prediction.terms[0]
    assert spread.name == "build spread" and "code path not established" in spread.source
    assert "aes/bytewise" in spread.source and "aes/ttable4" in spread.source


def test_faster_than_every_allowed_build_is_inconsistent_naming_the_bound():
    e = emulate(with_cycles_per_byte(WOLFSSL_L4, "syn-fast", 20.0))
    assert e.position == "faster" and e.finding.verdict == "inconsistent"
    assert "faster than every allowed configuration x code path x compiler (bound used:" in e.explanation


def test_between_the_band_and_the_envelope_is_suspicious_with_the_factor():
    e = emulate(with_cycles_per_byte(WOLFSSL_L4, "syn-between", 42.0))
    assert e.position == "faster" and e.finding.verdict == "suspicious"
    assert f"{42.0 / PREDICTED:.2f}x the prediction" in e.explanation


def test_an_assembly_claim_is_predicted_from_the_kernel_of_that_assembly():
    """builds.toml [wolfssl.asm_kernels]: where a kernel in the shape of the claimed assembly exists
    (aes/thumb2_asm), the claim is the code path and both sides of the band are bounded."""
    rate = by_variant_and_kind({**VARIANTS, "thumb2_asm": 30.0}, KINDS)
    claimed = with_cycles_per_byte(WOLFSSL_L4, "syn-asm", 36.0, asm="WOLFSSL_ARMASM (Thumb-2 assembly for AES/SHA)")
    e = emulate(claimed, rate)
    p = e.prediction
    assert "thumb2_asm" in p.basis and p.predicted == pytest.approx(30.0 * 1.2)  # ART on, prefetch off
    assert p.band_low is not None and p.band_high is not None and not p.open_low and not p.floor_note
    assert e.finding.verdict == "consistent" and e.finding.tests == "value"


def test_slower_than_every_allowed_build_is_inconsistent():
    e = emulate(with_cycles_per_byte(WOLFSSL_L4, "syn-slow", 400.0))
    assert e.position == "slower" and e.finding.verdict == "inconsistent"


def test_a_failed_variant_is_left_out_of_the_range_and_named():
    def rate(m):
        return None if m.job.variant == "bytewise" else STATED(m)

    e = emulate(with_cycles_per_byte(L4, "syn-fail", 52.0), rate)
    assert e.emulated_max == pytest.approx(80.0 * 1.5)  # bitsliced, caches off
    broken = [v for v in e.variants if v.variant == "bytewise"]
    assert len(broken) == 6 and all(not v.verified and v.problem == "stated failure" for v in broken)
    nothing = emulate(with_cycles_per_byte(L4, "syn-none", 52.0), lambda m: None)
    assert nothing.status == "not emulated yet" and nothing.finding is None
    assert nothing.explanation.startswith("not emulated yet: no variant verified (aes/bytewise: stated failure;")


def test_a_final_tag_is_compared_per_call():
    """CMOX's final tag generation (a latency): the stated cycles of one call against the published
    cycles; CMOX is closed, so no C variant bounds how slow its code may be."""
    final = synthetic(FIGURES["002-0139"], "syn-final", value=3000.0, text="3000")
    e = emulate(final, lambda m: 2500.0)  # size 0: 2500 cycles per call, for every SHA-256 variant
    assert e.status == "emulated" and e.unit == "cycles" and e.published == 3000 and e.size == 0
    assert all(v.rate == v.cycles == 2500 for v in e.variants)
    assert e.prediction.band_high is None and "closed" in e.prediction.open_high
    assert e.finding.tests == "bound" and "published 3,000 cycles" in e.finding.message
    assert "emulated 2,500..2,500 cycles" in e.finding.message


def test_clock_above_the_part_maximum_runs_at_the_maximum():
    """A synthetic wolfSSL figure stated at 64 MHz on the STM32WL55 (maximum 48 MHz)."""
    e = emulate(with_cycles_per_byte(FIGURES["000-0196"], "syn-64mhz", 60.0))
    assert e.status == "emulated" and e.clock_mhz == 48
    assert "published clock 64 MHz exceeds the STM32WL55JC maximum 48 MHz" in e.finding.message
    assert all(c.clock_mhz == 48 and "@ 48 MHz" in c.label for c in e.configs)


def test_json_fields():
    data = emulate(with_cycles_per_byte(L4, "syn-json", 52.0)).as_json()
    assert {"emulated_min", "emulated_max", "explanation", "residual", "explanation_memory", "predicted", "band_low",
            "band_high", "ratio", "hypotheses", "band_terms"} <= set(data)
    assert data["band_low"] < data["predicted"] < data["band_high"] and data["ratio"] == pytest.approx(52.0 / data["predicted"])
    assert all({"hypothesis", "ratio", "fits"} <= set(h) for h in data["hypotheses"]) and data["hypotheses"]
    assert [c["label"] for c in data["emulated_memory"]] == list(L4_LABELS)
    assert data["emulated_memory"][0] == {"label": ON, "kind": "cache on", "board": "stm32l4a6zg",
                                          "clock_mhz": 80.0, "wait_states": 4, "cache": "on", "code": "flash"}
    assert data["explanation_memory"] == ART_ONLY
    assert len(data["emulated_variants"]) == 24 and {v["memory"] for v in data["emulated_variants"]} == set(L4_LABELS)
    assert data["emulated_range_by_memory"][OFF] == [pytest.approx(40.0 * 1.5), pytest.approx(100.0 * 1.5)]


def test_figures_without_kernel_or_software_are_not_emulated_and_counted():
    no_kernel = synthetic(FIGURES["001-0059"], "syn-sha-999", algorithm="SHA-999")
    hardware = FIGURES["000-0261"]
    context, executor = stated_context(STATED)
    result = judge([no_kernel, hardware], PARTS, context).emulations
    assert result[no_kernel.id].status == "not emulated yet" and result[no_kernel.id].finding is None
    assert "no kernel computes sha-999" in result[no_kernel.id].explanation
    # A hardware figure meets the peripheral rule instead: the part's documented AES processing time.
    assert result[hardware.id].status == "hardware" and result[hardware.id].finding.rule == "peripheral"
    assert executor.ran == []
    line = summary(result)
    assert "0 figures emulated" in line and "not emulated yet 1" in line and "hardware 1 (against the peripheral" in line
    assert MEMORY_NOTE in line


# --- the pipeline: one context, each measurement once --------------------------------------------------


def test_switched_off_runs_no_kernel():
    figure = with_cycles_per_byte(L4, "syn-off", 52.0)
    context, executor = stated_context(STATED, emulator=False)
    report = judge([figure], PARTS, context)
    e = report.emulations[figure.id]
    assert e.status == "not emulated" and e.finding is None and executor.ran == [] and report.measurements == {}
    assert not any(f.rule == "emulator" for f in report.judgements[0].findings)
    assert "the emulator rule switched off 1" in summary(report.emulations)


def test_progress_is_reported_for_each_measurement():
    seen: list[tuple[int, int, str]] = []
    context, _ = stated_context(STATED, progress=lambda done, total, label: seen.append((done, total, label)))
    (judgement,) = judge([with_cycles_per_byte(L4, "syn-progress", 52.0)], PARTS, context).judgements
    assert any(f.rule == "emulator" for f in judgement.findings)
    assert [done for done, _, _ in seen] == list(range(1, 25)) and {total for _, total, _ in seen} == {24}
    assert any(label.startswith("stm32l4a6zg aes/ttable4 cbc-encrypt 1024 B -Os") and OFF in label
               for _, _, label in seen)


def test_each_measurement_runs_once_per_report():
    """Two figures of the same work (and the cross-board rule's pair and the section-clock rule's section over them) share one
    executor call with each distinct job once."""
    a, b = with_cycles_per_byte(L4, "syn-once-a", 52.0), with_cycles_per_byte(L4, "syn-once-b", 60.0)
    context, executor = stated_context(STATED)
    report = judge([a, b], PARTS, context)
    assert executor.calls == 1 and len(executor.ran) == len(set(executor.ran)) == 24 == len(report.measurements)
    assert report.emulations[a.id].variants == report.emulations[b.id].variants


def test_library_callers_run_in_process_and_the_command_uses_local_processes(monkeypatch):
    assert type(SanityContext().executor).__name__ == "InProcessExecutor" and SanityContext().workers == 1
    monkeypatch.setenv("REFBENCH_WORKERS", "3")
    assert SanityContext.local().workers == 3
    monkeypatch.delenv("REFBENCH_WORKERS")
    assert SanityContext.local().workers == SanityContext.local(workers=None).workers >= 1
    monkeypatch.setenv("REFBENCH_WORKERS", "0")
    with pytest.raises(ValueError, match=r"Invalid REFBENCH_WORKERS \('0'\)"):
        SanityContext.local()


# --- the cross-board rule: the memory configurations that reproduce a gap between two boards -------------------------


def _emulation(figure_id: str, board: str, points: dict[str, float]) -> Emulation:
    """An emulation of one variant with the given cycles per byte per configuration kind."""
    kinds = {"on": "cache on", "off": "cache off"}
    configs = tuple(MemoryConfig(f"caches {k}, {board}", kinds[k], board, 100.0, 3, k, "flash") for k in points)
    variants = tuple(VariantResult("aes", "ttable4", "cbc-encrypt", int(cpb * 1024), cpb, True, "",
                                   f"caches {k}, {board}", 0) for k, cpb in points.items())
    return Emulation(figure_id, "emulated", "", min(points.values()), max(points.values()), variants=variants,
                     configs=configs, board=board)


def test_gap_reproduced_by_a_configuration_pair_is_explained():
    a, b = synthetic(L4, "syn-gap-a"), synthetic(L4, "syn-gap-b", part="STM32WB55")
    ea = _emulation(a.id, "A", {"on": 100.0, "off": 200.0})
    eb = _emulation(b.id, "B", {"on": 100.0, "off": 150.0})
    verdict, text = explain_gap(a, ea, b, eb, 2.0)  # published: A needs twice the cycles of B
    assert verdict == "explained"
    assert "aes/ttable4 on STM32L4A6Z with caches off, A (200.0 c/B) vs STM32WB55 with caches on, B (100.0 c/B)" in text
    assert "emulated ratio 2.00" in text
    # Both at their default (caches on) reproduce 1.0: preferred to a pair that assumes caches off.
    verdict, text = explain_gap(a, ea, b, eb, 1.2)  # both-off (ratio 1.33) is closer, but assumes caches off
    assert verdict == "explained" and "caches on, A" in text and "caches on, B" in text
    # Nothing reproduces 5.0: the closest pair is named and the verdict stays suspicious.
    verdict, text = explain_gap(a, ea, b, eb, 5.0)
    assert verdict == "suspicious" and "no modelled memory configuration pair reproduces the gap" in text
    assert "emulated ratio 2.00 (published 5.00)" in text


def test_a_gap_beyond_the_emulation_on_the_side_of_an_unbounded_board_is_explained():
    # A is an H753 profile (its caches-off path is a lower bound, APPROXIMATIONS.md 46): A slower than
    # any modelled pair allows is not evidence; A faster than any pair allows still is.
    a, b = synthetic(L4, "syn-gap-h7", part="STM32H753ZI"), synthetic(L4, "syn-gap-l4")
    ea = _emulation(a.id, "stm32h753zi", {"on": 100.0, "off": 200.0})
    eb = _emulation(b.id, "stm32l4a6zg", {"on": 100.0, "off": 150.0})
    verdict, text = explain_gap(a, ea, b, eb, 5.0)
    assert verdict == "explained" and "but the slow side of STM32H753ZI is not bounded" in text
    assert "APPROXIMATIONS.md 46, 47, 48" in text and "anywhere in 0.67.. (no upper limit)" in text
    assert "Tested: each figure's fast side (the emulator rule)" in text
    # A faster than its fastest configuration against B's slowest allows (100 / 150 = 0.67): still suspicious.
    verdict, text = explain_gap(a, ea, b, eb, 0.2)
    assert verdict == "suspicious"
    # Both boards unbounded (an H753 and an F777 profile): the pair bounds nothing beyond each fast side.
    eb = _emulation(b.id, "stm32f777xi", {"on": 100.0, "off": 150.0})
    assert explain_gap(a, ea, b, eb, 0.2)[0] == "explained"


#: A synthetic pair for the cross-board rule: the same wolfSSL build on the STM32L4A6 (80 MHz) and the STM32WB55
#: (64 MHz); the L4 figure states 100 c/B, the WB55 one 50 c/B: a published ratio of 2.
PAIR = [with_cycles_per_byte(L4, "syn-pair-l4", 100.0),
        with_cycles_per_byte(synthetic(L4, "syn-pair-wb55", part="STM32WB55", board="P-NUCLEO-WB55", clock_mhz=64.0,
                                       config=L4.config.replace("STM32L4A6Z", "STM32WB55")), "syn-pair-wb55", 50.0)]


def test_cross_board_gap_is_explained_by_the_stated_emulations():
    """Stated: every variant needs twice the cycles on the L4 in every configuration -> reproduced."""
    rate = by_variant_and_kind(VARIANTS, KINDS, boards={"stm32l4a6zg": 2.0, "stm32wb55rg": 1.0})
    context, _ = stated_context(rate)
    report = judge(PAIR, PARTS, context)
    cross = {j.figure.id: [f for f in j.findings if f.rule == "cross-board"] for j in report.judgements}
    (finding,) = cross["syn-pair-l4"]
    assert finding.verdict == "explained" and "ratio 2.00 (allowed 1/1.25..1.25" in finding.message
    assert "the emulation reproduces the gap: aes/bitsliced on STM32L4A6Z with ART+prefetch on" in finding.message
    match = [float(x) for x in re.findall(r"emulated ratio ([\d.]+)", finding.message)]
    assert match and math.isclose(match[0], 2.0, rel_tol=0.01)
    # Stated equal on both boards and in every configuration: the gap is not reproduced, the closest
    # pair is named.
    context, _ = stated_context(by_variant_and_kind(VARIANTS, dict.fromkeys(KINDS, 1.0)))
    (finding,) = [f for f in judge(PAIR, PARTS, context).judgements[0].findings if f.rule == "cross-board"]
    assert finding.verdict == "suspicious" and "no modelled memory configuration pair reproduces the gap" in finding.message


def _findings(report, figure_id):
    (j,) = [j for j in report.judgements if j.figure.id == figure_id]
    return j.verdict, sorted((f.rule, f.verdict, f.tests, f.message) for f in j.findings)


def test_a_filter_never_changes_a_verdict():
    """Issue 27 item 4: a report scoped to some figures judges each of them exactly as the full
    report does -- the kernels run for every figure their rules compare them with (the cross-board rule's
    partner on the other board, the rest of their section) -- and still runs nothing for a figure
    no selected rule looks at."""
    rate = by_variant_and_kind(VARIANTS, KINDS, boards={"stm32l4a6zg": 2.0, "stm32wb55rg": 1.0,
                                                        "stm32g071rb": 1.0})
    other = with_cycles_per_byte(FIGURES["000-0586"], "syn-unrelated-g0", 200.0)  # another build, another page section
    figures = [*PAIR, other]
    full = judge(figures, PARTS, stated_context(rate)[0])
    for selected in ("syn-pair-l4", "syn-pair-wb55"):
        context, executor = stated_context(rate, scope=frozenset({selected}))
        scoped = judge(figures, PARTS, context)
        assert _findings(scoped, selected) == _findings(full, selected)
        assert {m.config.board for m in executor.ran} == {"stm32l4a6zg", "stm32wb55rg"}  # the partner ran
        assert "syn-unrelated-g0" not in scoped.emulations  # nothing for a figure no selected rule compares with
    cross = [f for f in _findings(full, "syn-pair-l4")[1] if f[0] == "cross-board"]
    assert cross and "not emulated" not in cross[0][3]


def test_switched_off_rule_d_says_nothing_of_emulation():
    context, _ = stated_context(STATED, emulator=False)
    cross = [f for j in judge(PAIR, PARTS, context).judgements for f in j.findings if f.rule == "cross-board"]
    assert [f.verdict for f in cross] == ["suspicious", "suspicious"]
    assert not any("emulat" in f.message for f in cross)


def test_a_whole_section_shifting_to_one_configuration_is_explained_naming_the_evidence():
    """Evidence beyond one figure: five figures of one section all at the build's cost with the
    caches off (40 x 1.5) are explained by it; one figure alone is not (suspicious, with the
    hypothesis); a page that states its caches on keeps them suspicious, saying so."""
    section = [with_cycles_per_byte(WOLFSSL_L4, f"syn-shift-{k}", 60.0) for k in range(5)]
    report = judge(section, PARTS, stated_context(STATED)[0])
    for f in section:
        e = report.emulations[f.id]
        assert e.finding.verdict == "explained", e.finding.message
        assert "the whole section shifts together: 5 of its 5 predicted figures fit 'cache off'" in e.finding.message
    alone = emulate(with_cycles_per_byte(WOLFSSL_L4, "syn-shift-alone", 60.0))
    assert alone.finding.verdict == "suspicious"
    stated = [dataclasses.replace(f, cache="ART instruction and data caches enabled") for f in section]
    report = judge(stated, PARTS, stated_context(STATED)[0])
    for f in stated:
        e = report.emulations[f.id]
        assert e.finding.verdict != "explained" and "but the page states" in e.finding.message
