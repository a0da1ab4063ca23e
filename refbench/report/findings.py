"""The findings of a sanity report, each once, with the figures it is about.

Rules give findings per figure; a finding about a pair (two figures that should agree) or about
a whole published section (``scope="section"``: the stated clock above the part maximum, the section-clock rule's
section clock) is attached to every figure it concerns. :func:`index_findings` gathers equal
findings into one :class:`ReportFinding` with an id (``S1``, ``S2``... for section findings, ``F1``,
``F2``... for the others, in the order of their first figure) and keeps, for each figure, the ids
of its findings: the JSON report's per-figure links, and what the table prints instead of
repeating a section finding on every row. :func:`headline` picks the short list a reader should
see first; :func:`verdict_counts` counts the figures with ``untested`` apart from the tested ones.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from refbench.sanity.verdicts import FINDING_VERDICTS, VERDICTS, Finding, Judgement, severity


@dataclass(frozen=True)
class ReportFinding:
    """One finding of the report and the figures (ids, in report order) it concerns."""

    id: str
    finding: Finding
    figures: tuple[str, ...]
    sections: tuple[str, ...]  # "source: section" of those figures, in order

    @property
    def rule(self) -> str:
        return self.finding.rule

    @property
    def verdict(self) -> str:
        return self.finding.verdict

    def as_text(self) -> str:
        where = ""
        if self.finding.scope == "section":
            where = f" ({len(self.figures)} figures of {len(self.sections)} section(s): {'; '.join(self.sections)})"
        return f"{self.id} [{self.rule}] {self.verdict}{where}: {self.finding.message}"

    def as_json(self) -> dict[str, Any]:
        return {"id": self.id, **self.finding.as_json(), "figures": list(self.figures), "sections": list(self.sections)}


class FindingIndex:
    """Every finding once (``findings``) and each figure's finding ids, most severe first (``by_figure``)."""

    def __init__(self, findings: list[ReportFinding], by_figure: dict[str, list[str]]) -> None:
        self.findings = findings
        self.by_figure = by_figure
        self._by_id = {f.id: f for f in findings}

    def get(self, finding_id: str) -> ReportFinding:
        return self._by_id[finding_id]

    def of(self, figure_id: str) -> list[ReportFinding]:
        return [self._by_id[i] for i in self.by_figure.get(figure_id, [])]


def _section_name(j: Judgement) -> str:
    return f"{j.figure.source[:3]}: {j.figure.section}"


def index_findings(judgements: Iterable[Judgement]) -> FindingIndex:
    """Gather equal findings of ``judgements`` (same rule, verdict, message, scope) into one each."""
    judgements = list(judgements)
    figures: dict[Finding, list[str]] = defaultdict(list)
    sections: dict[Finding, dict[str, None]] = defaultdict(dict)
    for j in judgements:
        for finding in j.ordered_findings:
            if j.figure.id not in figures[finding]:
                figures[finding].append(j.figure.id)
                sections[finding][_section_name(j)] = None
    counters = {"section": 0, "figure": 0}
    ids: dict[Finding, str] = {}
    findings = []
    for finding, members in figures.items():
        counters[finding.scope] += 1
        ids[finding] = f"{'S' if finding.scope == 'section' else 'F'}{counters[finding.scope]}"
        findings.append(ReportFinding(ids[finding], finding, tuple(members), tuple(sections[finding])))
    by_figure = {j.figure.id: list(dict.fromkeys(ids[f] for f in j.ordered_findings)) for j in judgements}
    return FindingIndex(findings, by_figure)


def headline(index: FindingIndex) -> list[ReportFinding]:
    """The section findings that are not consistent, most severe and largest first."""
    chosen = [f for f in index.findings if f.finding.scope == "section" and f.verdict != "consistent"]
    return sorted(chosen, key=lambda f: (-severity(f.finding), -len(f.figures), f.id))


def figure_tally(index: FindingIndex) -> list[str]:
    """``rule: n suspicious, m inconsistent`` for the figure findings that are not consistent, by rule."""
    counts: dict[str, Counter] = defaultdict(Counter)
    for f in index.findings:
        if f.finding.scope == "figure" and f.verdict in ("suspicious", "inconsistent"):
            counts[f.rule][f.verdict] += len(f.figures)
    lines = []
    for rule in sorted(counts, key=lambda r: (-counts[r]["inconsistent"], -counts[r]["suspicious"], r)):
        c = counts[rule]
        lines.append(f"{rule}: " + ", ".join(f"{v} {c[v]}" for v in ("inconsistent", "suspicious") if c[v])
                     + " figure(s)")
    return lines


def verdict_counts(judgements: Iterable[Judgement]) -> dict[str, int]:
    """Figures per verdict (``untested`` included), in :data:`VERDICTS` order."""
    total = Counter(j.verdict for j in judgements)
    return {v: total[v] for v in VERDICTS}


def counts_text(judgements: list[Judgement]) -> str:
    """``N figures: consistent .., explained .., suspicious .., inconsistent ..; untested U; value tested for T``
    (a figure whose value no rule tested but whose clock or arithmetic is wrong keeps that verdict,
    so T can be less than N - U)."""
    counts = verdict_counts(judgements)
    tested = sum(1 for j in judgements if j.tested)
    return (f"{len(judgements)} figures: " + ", ".join(f"{v} {counts[v]}" for v in FINDING_VERDICTS)
            + f"; untested {counts['untested']} (not counted as consistent); value tested by a rule for {tested}")


def summary_lines(judgements: list[Judgement]) -> list[str]:
    """One line per source and one for all: the verdict counts, ``untested`` apart."""
    lines = []
    for source in sorted({j.figure.source for j in judgements}):
        lines.append(f"{source}: " + counts_text([j for j in judgements if j.figure.source == source]))
    lines.append("all: " + counts_text(judgements))
    return lines
