"""Issue 27 item 6: the mutation test. Synthetic pages built from emulated predictions (stated
cycle counts, no kernel runs): each figure printed at its prediction is consistent, and printed
0.5, 2 or 5 times that cost -- one figure at a time, and the whole page at once (a misstated
clock) -- is flagged (suspicious or inconsistent). The built-in pages' share is measured by
benchmarks/test_prediction_power.py."""

from __future__ import annotations

import pytest
from sanity_fakes import stated_context, synthetic, with_cycles_per_byte

from refbench.published.model import load_figures, load_parts
from refbench.sanity import judge
from refbench.sanity.mutation import (
    FACTORS,
    flagged,
    power_hits,
    power_table,
    rejudge,
    scaled,
    significant_digits,
    source,
    table_lines,
    tabulate,
)
from refbench.sanity.numbers import relative_resolution
from refbench.sanity.plan import FigurePlan

FIGURES = {f.id: f for f in load_figures()}
PARTS = load_parts()
#: Page contexts: wolfSSL 5.6.4 AES-128-CBC on the L4A6 (Cortex-M4), wolfSSL 5.6.0 SHA-256 on the
#: G071 (Cortex-M0+), CycloneCRYPTO 2.6.2 SHA3-256 on the WL33 (Cortex-M0+, ARMCC).
TEMPLATES = ("000-0301", "000-0592", "001-0064")
#: Stated cycles per byte per kernel family, a factor per variant and per memory configuration kind.
BASE = {"aes": 40.0, "sha256": 30.0, "sha3": 90.0}
VARIANT = {"bytewise": 2.5, "ttable1": 1.25, "bitsliced": 2.0, "rolled": 1.3, "interleaved32": 1.4}
KIND = {"cache on": 1.0, "cache off": 1.5, "cache on, prefetch off": 1.2, "prefetch only": 1.3, "tables in SRAM": 0.95,
        "code in SRAM": 0.9, "flash": 1.1}


def rate(m):
    return BASE[m.job.kernel] * VARIANT.get(m.job.variant, 1.0) * KIND[m.config.kind]


def predicted_page():
    """The synthetic page: each template's figure printed at its emulated prediction."""
    probes = [with_cycles_per_byte(FIGURES[t], f"syn-probe-{t}", 100.0) for t in TEMPLATES]
    report = judge(probes, PARTS, stated_context(rate)[0])
    page = [with_cycles_per_byte(FIGURES[t], f"syn-mut-{t}", report.emulations[f"syn-probe-{t}"].prediction.predicted)
            for t in TEMPLATES]
    return page, judge(page, PARTS, stated_context(rate)[0])


def test_the_predicted_page_is_consistent_and_two_sided():
    page, report = predicted_page()
    for f in page:
        e = report.emulations[f.id]
        assert e.finding.verdict == "consistent" and e.finding.tests == "value", e.finding.message
        assert e.prediction.width is not None and e.prediction.ratio == pytest.approx(1.0, rel=1e-3)


@pytest.mark.parametrize("factor", FACTORS)
def test_one_figure_scaled_is_flagged(factor):
    _, report = predicted_page()
    plans = [p for p in report.plan.figures if isinstance(p, FigurePlan)]
    assert len(plans) == len(TEMPLATES)
    for p in plans:
        e = rejudge(p, report.measurements, factor)
        assert flagged(e), f"{p.figure.id} x{factor}: {e.finding.verdict}: {e.finding.message}"
        printed = relative_resolution(p.figure) + relative_resolution(scaled(p.figure, factor))
        assert e.prediction.ratio == pytest.approx(factor, rel=2e-3 + printed)


@pytest.mark.parametrize("factor", FACTORS)
def test_the_whole_page_scaled_is_flagged(factor):
    page, _ = predicted_page()
    report = judge([scaled(f, factor) for f in page], PARTS, stated_context(rate)[0])
    for f in page:
        e = report.emulations[f.id]
        assert e.finding.verdict in ("suspicious", "inconsistent"), f"{f.id} x{factor}: {e.finding.message}"


def test_the_power_table_counts_every_family():
    _, report = predicted_page()
    table = power_table(report.plan, report.measurements)
    assert set(table) == {"aes", "sha256", "sha3", "all"}
    assert table["all"] == {k: (3, 3) for k in FACTORS}
    assert table_lines(table)[0] == "aes: x0.5 1/1 (100%), x2 1/1 (100%), x5 1/1 (100%)"


def test_the_power_table_by_source_counts_the_same_hits():
    page, report = predicted_page()
    hits = power_hits(report.plan, report.measurements, FACTORS)
    assert tabulate(hits, FACTORS) == power_table(report.plan, report.measurements)
    by_source = tabulate(hits, FACTORS, group=source)
    # the synthetic figures keep their templates' sources (seed files) and libraries
    expected = {f"{f.source.split('_')[0]} {f.library}" for f in page}
    assert len(expected) == 2  # wolfSSL's 000 page twice, CycloneCRYPTO's 001 once
    assert set(by_source) == expected | {"all"}
    assert sum(by_source[name][2.0][1] for name in expected) == 3
    # a hit not emulated makes its group's row without being counted
    p, k, _ = hits[0]
    assert tabulate([(p, k, None)], FACTORS)["all"] == {f: (0, 0) for f in FACTORS}


def test_scaling_follows_the_metric():
    f = FIGURES["000-0301"]  # a rate (KB/s): twice the cost is half the rate
    assert scaled(f, 2.0).value == pytest.approx(f.value / 2)


@pytest.mark.parametrize("factor", FACTORS)
@pytest.mark.parametrize("text", ["875", "0.898", "4.351", "10.400", "11 270"])
def test_a_scaled_figure_keeps_the_printed_resolution(factor, text):
    """A scaled figure is printed with the original's significant digits and valued at its text,
    so its band's printed-resolution term is a real page's (not finer: '875' halved is '438', not
    '437.500')."""
    f = synthetic(FIGURES["000-0301"], "syn-digits", value=float(text.replace(" ", "")), text=text)
    g = scaled(f, factor)
    assert significant_digits(g.text) == significant_digits(f.text)
    assert g.value == float(g.text)
    assert 0.1 < relative_resolution(g) / relative_resolution(f) < 10
    assert g.value == pytest.approx(f.value / factor, rel=relative_resolution(g) * 1.01)


def test_a_whole_number_stays_whole():
    f = synthetic(FIGURES["000-0301"], "syn-whole", value=875.0, text="875")
    assert scaled(f, 2.0).text == "438" and scaled(f, 0.5).text == "1750"
