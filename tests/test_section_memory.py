"""The ``section-memory`` rule on synthetic sections with stated emulated ranges (no kernel runs):
a section whose figures fit only with the caches off is reported once, suspicious when the page
states its caches were enabled."""

from __future__ import annotations

from collections import defaultdict

from sanity_fakes import stated_context, with_cycles_per_byte

from refbench.published.model import load_figures, load_parts
from refbench.report.findings import index_findings
from refbench.sanity import judge

PARTS = load_parts()
FIGURES = load_figures()
#: Caches on: 20..40 c/B over the AES variants; caches off (with or without prefetch): 60..120.
KINDS = {"cache on": 1.0, "cache on, prefetch off": 1.0, "tables in SRAM": 1.0, "code in SRAM": 0.9,
         "cache off": 3.0, "prefetch only": 3.0, "flash": 1.0}
VARIANTS = defaultdict(lambda: 30.0, {"bytewise": 40.0, "ttable4": 20.0, "ttable1": 25.0, "bitsliced": 30.0})


def rate(job):
    return VARIANTS[job.job.variant] * KINDS[job.config.kind]


def section(config_text: str, cycles_per_byte: list[float]):
    template = next(f for f in FIGURES if f.part == "STM32H753ZI" and config_text in f.config
                    and f.algorithm == "AES-128-CBC" and f.operation == "encrypt")
    return [with_cycles_per_byte(template, f"syn-mem-{k}", c) for k, c in enumerate(cycles_per_byte)]


def findings_of(figures):
    context, _ = stated_context(rate)
    report = judge(figures, PARTS, context)
    return report, [rf for rf in index_findings(report.judgements).findings if rf.rule == "section-memory"]


def test_a_section_that_fits_only_caches_off_is_reported_once():
    """Five of six figures at 90 c/B (inside caches off 60..120, beyond caches on 20..40): one
    finding for the five; the page does not say how the caches were set -> explained."""
    figures = section("No HW Crypto, -Os, FastMath", [90.0] * 5 + [30.0])
    report, found = findings_of(figures)
    assert len(found) == 1 and found[0].finding.scope == "section" and found[0].id.startswith("S")
    assert found[0].figures == tuple(f.id for f in figures[:5]) and found[0].verdict == "explained"
    assert "5 of the section's 6 emulated figures on stm32h753zi fit only with the caches off" in found[0].finding.message
    assert [[f.rule for f in j.findings].count("section-memory") for j in report.judgements] == [1] * 5 + [0]


def test_a_page_that_states_its_caches_on_makes_it_suspicious():
    figures = section("Thumb2 ARM ASM", [90.0] * 6)
    assert figures[0].cache and "enabled" in figures[0].cache
    _, found = findings_of(figures)
    assert [rf.verdict for rf in found] == ["suspicious"]
    assert "although the page states 'I-cache and D-cache enabled" in found[0].finding.message


def test_no_finding_when_the_caches_on_fit_or_the_section_is_small():
    assert findings_of(section("No HW Crypto, -Os, FastMath", [30.0] * 6))[1] == []
    assert findings_of(section("No HW Crypto, -Os, FastMath", [90.0] * 3 + [30.0] * 3))[1] == []  # half, not more
    assert findings_of(section("No HW Crypto, -Os, FastMath", [90.0] * 4))[1] == []


def test_on_a_board_whose_caches_off_path_is_a_lower_bound_slower_figures_fit_it_too():
    """The H753's caches-off path is a lower bound (APPROXIMATIONS.md 46, 47, 48): five figures at
    300 c/B, above caches off (60..120) and caches on (20..40), fit the caches off too."""
    figures = section("No HW Crypto, -Os, FastMath", [300.0] * 5 + [30.0])
    _, found = findings_of(figures)
    assert len(found) == 1 and found[0].verdict == "explained" and found[0].figures == tuple(f.id for f in figures[:5])
    assert "figures above the caches-off range fit it too, since the STM32H753ZI caches-off path is a lower bound" in \
        found[0].finding.message
