"""The power of a report, printed in every format (issue 27 item 5): per source and overall, the
share of figures whose value a rule tested, and the median and 90th-percentile band width of the
predictions (symmetric and public key apart; a band with an open side counted as one-sided).
Synthetic figures with stated cycle counts."""

from __future__ import annotations

import pytest
from sanity_fakes import stated_context, synthetic, with_cycles_per_byte

from refbench.published.model import load_figures, load_parts
from refbench.report.data import report_json
from refbench.report.power import power, power_lines, quantile
from refbench.report.text import render_markdown
from refbench.sanity import judge

FIGURES = {f.id: f for f in load_figures()}
PARTS = load_parts()


def _report():
    figures = [with_cycles_per_byte(FIGURES["000-0301"], f"syn-power-{k}", 40.0 * 1.2 * k) for k in (1.0, 1.05, 3.0)]
    # wolfSSL 4.4.1 on the H753: predicted with the caches off, a lower bound there: one-sided
    figures.append(with_cycles_per_byte(FIGURES["000-0089"], "syn-power-h753", 150.0))
    return judge(figures, PARTS, stated_context(lambda m: 40.0 if m.job.variant == "ttable4" else 100.0)[0])


def test_quantiles_interpolate():
    assert quantile([1.0, 2.0, 3.0, 4.0], 0.5) == pytest.approx(2.5)
    assert quantile([1.0, 3.0], 0.9) == pytest.approx(2.8) and quantile([], 0.5) is None


def test_power_counts_two_and_one_sided_bands_per_source():
    report = _report()
    data = power(report.judgements, report.emulations)
    overall = data["all"]
    assert overall["figures"] == 4 and set(data["by_source"]) == {FIGURES["000-0301"].source}
    sym = overall["symmetric"]
    assert (sym["predicted"], sym["two_sided"], sym["one_sided"]) == (4, 3, 1)
    widths = sorted(report.emulations[j.figure.id].prediction.width for j in report.judgements
                    if report.emulations[j.figure.id].prediction.width)
    assert sym["median_band_width"] == pytest.approx(widths[1])
    assert overall["tested"] == sum(j.tested for j in report.judgements)


def test_every_format_prints_the_power():
    report = _report()
    lines = power_lines(report.judgements, report.emulations)
    assert lines[-1].startswith("power all: value tested ") and "band width median x" in lines[-1]
    data = report_json(report.judgements, report.emulations)
    assert data["summary"]["power_lines"] == lines and data["summary"]["power"]["all"]["figures"] == 4
    assert lines[-1] in render_markdown(report.judgements, str, extra=lines)


def test_a_fast_edge_at_the_floor_is_counted_apart_from_the_widths():
    # wolfSSL "SP math, Thumb assembly" without WOLFSSL_SP_SMALL on the G071: its P-256 products are
    # assembly no kernel models (elliptic curves keep the m0 C variant), so the fast edge is the floor no
    # code can beat, not a band of the prediction
    f = synthetic(FIGURES["000-0598"], "syn-power-floor", value=50.0, text="50.000",
                  math="SP math, Thumb assembly (without WOLFSSL_SP_SMALL)")
    report = judge([f], PARTS, stated_context(lambda m: 1000.0 / m.job.size)[0])
    assert report.emulations[f.id].prediction.floor_note
    pk = power(report.judgements, report.emulations)["all"]["public key"]
    assert (pk["predicted"], pk["two_sided"], pk["floor_edged"], pk["one_sided"]) == (1, 0, 1, 0)
    assert pk["median_band_width"] is None
    assert "fast edge at the floor 1" in power_lines(report.judgements, report.emulations)[-1]
