"""The sanity report as text: the opening summary (verdict counts with ``untested`` apart, the
section findings that matter, the figure findings by rule), each figure's reasons with section
findings referred to by id, and the Markdown document. The terminal table is drawn by the
``refbench sanity`` command from :func:`figure_reasons`."""

from __future__ import annotations

from refbench.report.findings import (
    FindingIndex,
    figure_tally,
    headline,
    index_findings,
    summary_lines,
)
from refbench.sanity.verdicts import Judgement, untested_reason


def figure_reasons(j: Judgement, index: FindingIndex) -> list[str]:
    """``j``'s reasons, most severe first: a section finding as a reference to the report's finding
    (``section finding S2``), any other in full with its id; and why the value is untested, if it
    is (first when that is the verdict)."""
    reasons = []
    for rf in index.of(j.figure.id):
        f = rf.finding
        if f.scope == "section":
            reasons.append(f"[{f.rule}] {f.verdict}: section finding {rf.id} ({len(rf.figures)} figures), listed above")
        else:
            reasons.append(f"{rf.id} {f.as_text()}")
    if not j.tested:
        why = untested_reason(j.figure, j.findings, j.emulation, j.not_emulated)
        # an untested figure says so first; one whose clock or arithmetic is wrong says that first
        reasons.insert(0, why) if j.verdict == "untested" else reasons.append(why)
    return reasons


def opening(judgements: list[Judgement], index: FindingIndex, extra: list[str] = ()) -> list[str]:
    """The lines a report opens with: counts, the section findings that matter, figure findings by rule."""
    lines = [*summary_lines(judgements), *extra]
    matter = headline(index)
    lines.append(f"section findings that matter: {len(matter)}" + ("" if matter else " (none)"))
    lines += [f"  {rf.as_text()}" for rf in matter]
    tally = figure_tally(index)
    lines.append("figure findings that are not consistent, by rule: " + ("" if tally else "none"))
    lines += [f"  {line}" for line in tally]
    return lines


def normalised_text(j: Judgement, fmt_cycles) -> str:
    n = j.normalised
    parts = []
    if n.cycles_per_byte is not None:
        parts.append(f"{fmt_cycles(n.cycles_per_byte)} c/B")
    if n.cycles_per_op is not None:
        parts.append(f"{fmt_cycles(n.cycles_per_op)} c/op")
    return ", ".join(parts) or "-"


def render_markdown(judgements: list[Judgement], fmt_cycles, index: FindingIndex | None = None,
                    extra: list[str] = ()) -> str:
    """The report as Markdown: the opening list, then one table row per figure."""
    index = index or index_findings(judgements)

    def cell(text: str) -> str:
        return text.replace("|", "\\|").replace("\n", " ")

    rows = ["# refbench sanity report", ""]
    rows += [f"- {cell(line.strip())}" if not line.startswith("  ") else f"  - {cell(line.strip())}"
             for line in opening(judgements, index, extra)]
    rows += ["", "| figure | published | normalised | verdict | reasons |", "|---|---|---|---|---|"]
    for j in judgements:
        f = j.figure
        rows.append(f"| {cell(f.id + ' ' + f.describe())} | {cell(f.text + ' ' + f.unit)} | "
                    f"{normalised_text(j, fmt_cycles)} | {j.verdict} | {cell('<br>'.join(figure_reasons(j, index)))} |")
    return "\n".join(rows) + "\n"
