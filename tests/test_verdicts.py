"""The verdict vocabulary (``untested`` apart from ``consistent``), what each finding tested, and
section findings reported once in every format. Synthetic figures with stated numbers; no kernel
runs (the emulator rule is off)."""

from __future__ import annotations

import json
import re

import pytest
from sanity_fakes import synthetic

from refbench.cli import main
from refbench.commands import sanity as sanity_command
from refbench.published import load_figures, load_parts
from refbench.published.model import Aux
from refbench.report.data import report_json
from refbench.report.findings import counts_text, headline, index_findings
from refbench.report.html import render_html
from refbench.report.text import figure_reasons, render_markdown
from refbench.sanity import SanityContext, judge
from refbench.sanity.verdicts import Finding, untested_reason

FIGURES = load_figures()
PARTS = load_parts()


def find(**fields):
    return next(f for f in FIGURES if all(getattr(f, k) == v for k, v in fields.items()))


def judged(*figures):
    return judge(list(figures), PARTS, SanityContext(emulator=False))


#: wolfSSL RSA 2048 public on the STM32H753ZI: 100 ops in 1.000 s, avg 10.000 ms, 100.000 ops/s.
RSA = find(part="STM32H753ZI", label="RSA 2048 public", version="4.4.1", implementation="software")
RSA_AUX = (Aux("ops", 100.0, "ops", "100"), Aux("duration", 1.0, "s", "1.000"),
           Aux("ops_per_s", 100.0, "ops/s", "100.000"))


def rsa(figure_id: str, value: float = 10.0, **changes):
    return synthetic(RSA, figure_id, value=value, text=f"{value:.3f}", aux=RSA_AUX, **changes)


def test_a_figure_whose_value_no_rule_tested_is_untested_not_consistent():
    """Its row's arithmetic agrees (arithmetic-ops) and its clock is within the part's range
    (board-clock), but nothing tested the 10 ms itself."""
    (j,) = judged(rsa("syn-alone")).judgements
    assert {f.rule: f.verdict for f in j.findings} == {"arithmetic-ops": "consistent", "board-clock": "consistent"}
    assert not j.tested and j.verdict == "untested"
    assert j.reasons[-1].startswith("[untested] no rule tested this value")
    assert "checked instead: the row's printed numbers against each other and the stated clock" in j.reasons[-1]
    assert "consistent 0" in counts_text([j]) and "untested 1" in counts_text([j])


def test_an_untested_figure_says_why_no_kernel_tested_it():
    """The emulator rule's own reason, not "no kernel computes it": switched off here; and a figure
    whose kernels were emulated but bounded one side of it says so."""
    (j,) = judged(rsa("syn-alone")).judgements
    assert "no rule tested this value: not emulated: the emulator rule switched off for this report" in j.reasons[-1]
    assert "no kernel computes it" not in j.reasons[-1]
    bound = Finding("emulator", "consistent", "slower than the fastest candidate", tests="bound")
    why = untested_reason(j.figure, [bound], "emulated")
    assert "its kernels were emulated but bound one side of it only" in why and "no kernel computes it" not in why
    assert "no kernel computes it" in untested_reason(j.figure, [])


def test_an_invariant_partner_makes_the_value_tested():
    """The same build's private operation at 200 ms (20x the public one) tests both values."""
    public = rsa("syn-public")
    private = synthetic(RSA, "syn-private", value=200.0, text="200.000", operation="private",
                        aux=(Aux("ops", 5.0, "ops", "5"), Aux("duration", 1.0, "s", "1.000"),
                             Aux("ops_per_s", 5.0, "ops/s", "5.000")))
    js = judged(public, private).judgements
    assert all(j.tested and j.verdict == "consistent" for j in js)
    assert any(f.rule == "rsa-private-vs-public" and f.tests == "value" for f in js[0].findings)


def test_an_untested_value_keeps_a_wrong_arithmetic_or_clock():
    """A printed average that does not fit its own row is inconsistent even with no value test."""
    (j,) = judged(rsa("syn-bad-avg", value=10.1)).judgements
    assert not j.tested and j.verdict == "inconsistent"


def test_each_finding_says_what_it_tested():
    assert Finding("arithmetic-ops", "consistent", "m").tests == "arithmetic"
    assert Finding("board-clock", "consistent", "m").tests == "context"
    assert Finding("aes-key-size", "consistent", "m").tests == "value"
    assert Finding("a-new-rule", "suspicious", "m", tests="context").tests == "context"
    with pytest.raises(ValueError, match=r"Invalid tests \('speed'\) of a 'x' finding"):
        Finding("x", "consistent", "m", tests="speed")
    with pytest.raises(ValueError, match=r"Invalid verdict \('untested'\)"):
        Finding("x", "untested", "m")


#: Two wolfSSL sections of one part, stated at a clock above its maximum (STM32WL55: 48 MHz).
WL55 = [f for f in FIGURES if f.part == "STM32WL55" and f.library == "wolfSSL"]


def over_clocked():
    first = next(f for f in WL55 if f.algorithm == "SHA-256")
    other = next(f for f in WL55 if f.algorithm == "SHA-256" and f.section != first.section)
    return [synthetic(first, "syn-s1", clock_mhz=64.0), synthetic(other, "syn-s2", clock_mhz=64.0)]


def test_a_section_finding_is_one_finding_with_its_figures():
    report = judged(*over_clocked())
    index = index_findings(report.judgements)
    clocks = [rf for rf in index.findings if rf.rule == "board-clock"]
    assert len(clocks) == 1 and clocks[0].id == "S1" and clocks[0].figures == ("syn-s1", "syn-s2")
    assert len(clocks[0].sections) == 2 and clocks[0].finding.scope == "section"
    assert headline(index) == clocks
    for j in report.judgements:
        assert index.by_figure[j.figure.id][0] == "S1"  # the most severe first
        assert any("section finding S1 (2 figures)" in r for r in figure_reasons(j, index))


def test_every_format_prints_the_section_finding_once(monkeypatch, capsys):
    figures = over_clocked()
    report = judged(*figures)
    index = index_findings(report.judgements)
    message = next(rf for rf in index.findings if rf.rule == "board-clock").finding.message
    markdown = render_markdown(report.judgements, str, index)
    assert markdown.count(message) == 1
    page = render_html(report.judgements, report.emulations, None, index)
    assert page.count(message) == 1
    data = report_json(report.judgements, report.emulations, index)
    assert [f["message"] for f in data["findings"]].count(message) == 1
    assert all("S1" in fig["findings"] for fig in data["figures"])
    monkeypatch.setattr(sanity_command, "load_figures", lambda: figures)
    assert main(["sanity", "--no-emulator", "--reasons", "all"]) == 0
    out = re.sub(r"\s+", " ", capsys.readouterr().out)
    assert out.count(re.sub(r"\s+", " ", message)) == 1
    # the findings open the report, before the first figure (a table, or one block per figure when narrow)
    assert out.index("section findings that matter: 1") < out.index("syn-s1")
    monkeypatch.setenv("COLUMNS", "200")  # wide enough for the table
    assert main(["sanity", "--no-emulator"]) == 0
    wide = capsys.readouterr().out
    assert wide.index("section findings that matter: 1") < wide.index("refbench sanity: published figures")


def test_html_table_filters_by_verdict_board_source_and_library():
    figures = [*over_clocked(), rsa("syn-alone")]
    report = judged(*figures)
    page = render_html(report.judgements, report.emulations)
    for name in ("verdict", "board", "source", "library"):
        assert f'<select name="{name}">' in page
    assert '<option value="untested">untested</option>' in page and "function refbenchFilter()" in page
    rows = re.findall(r'<tr data-verdict="(\w+)" data-board="([^"]+)" data-source="([^"]+)" data-library="([^"]+)">',
                      page)
    assert [r[0] for r in rows] == ["inconsistent", "inconsistent", "untested"]
    assert {r[1] for r in rows} == {"STM32WL55", "STM32H753ZI"} and {r[3] for r in rows} == {"wolfSSL"}
    assert not re.search(r'(src|href)="(http|/|\./)', page)


def test_only_untested(monkeypatch, capsys):
    figures = [*over_clocked(), rsa("syn-alone")]
    monkeypatch.setattr(sanity_command, "load_figures", lambda: figures)
    assert main(["sanity", "--no-emulator", "--only", "untested", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [f["id"] for f in data["figures"]] == ["syn-alone"] and data["summary"]["untested"] == 1
