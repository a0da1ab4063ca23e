"""Sanity rules for published figures: arithmetic, board, algorithmic invariants and
cross-board agreement (:mod:`refbench.sanity.rules`), the emulator rule e, which runs
the kernels on each figure's board in its memory configurations
(:mod:`refbench.sanity.emulated`), the peripheral rule for hardware figures
(:mod:`refbench.sanity.peripherals`) and rule f, a section's clock
(:mod:`refbench.sanity.clock`). The library returns data; the ``refbench sanity``
command renders it."""

from __future__ import annotations

from collections.abc import Iterable

from refbench.published.model import Figure, Part, load_figures, load_parts
from refbench.published.normalise import normalise
from refbench.sanity import emulated
from refbench.sanity.clock import rule_section_clock
from refbench.sanity.emulated import rule_emulated
from refbench.sanity.rules import RULES
from refbench.sanity.verdicts import VERDICTS, Finding, Judgement, Verdict

__all__ = ["VERDICTS", "Finding", "Judgement", "Verdict", "figure_selected", "judge", "select_figures"]


def judge(figures: Iterable[Figure] | None = None, parts: dict[str, Part] | None = None,
          emulate: Iterable[str] | None = None) -> list[Judgement]:
    """Apply every rule to ``figures`` (default: all published figures) and return one
    judgement per figure, in the figures' order. Rules see all the given figures, so
    filtering before judging removes partners; filter the judgements instead
    (:func:`select_figures`). ``emulate``: the ids of the figures rule e runs kernels for
    (default: all); the cross-board rule then explains a gap by emulation only when both
    figures are among them."""
    figures = list(load_figures() if figures is None else figures)
    parts = load_parts() if parts is None else parts
    judgements = {f.id: Judgement(f, normalise(f)) for f in figures}
    scope = None if emulate is None else frozenset(emulate)
    # Rule e first, so its kernels run in one batch (rule d's gap explainer then finds them
    # measured); its findings are listed after the other rules'.
    selected = figures if scope is None else [f for f in figures if f.id in scope]
    emulated_findings = rule_emulated(selected, parts) + rule_section_clock(selected, parts)
    with emulated.scoped_to(scope):
        for rule in RULES.values():
            for figure_id, finding in rule(figures, parts):
                judgements[figure_id].findings.append(finding)
    for figure_id, finding in emulated_findings:
        judgements[figure_id].findings.append(finding)
    return [judgements[f.id] for f in figures]


def figure_selected(f: Figure, source: list[str] | None = None, board: list[str] | None = None,
                    algorithm: list[str] | None = None) -> bool:
    """True when ``f``'s source file starts with / board or part contains / algorithm contains
    any of the given texts (case-insensitive); an option not given selects everything."""
    def matches(texts: list[str] | None, *values: str | None) -> bool:
        if not texts:
            return True
        return any(t.lower() in (v or "").lower() for t in texts for v in values)
    return matches(source, f.source) and matches(board, f.board, f.part) and matches(algorithm, f.algorithm)


def select_figures(judgements: Iterable[Judgement], source: list[str] | None = None,
                   board: list[str] | None = None, algorithm: list[str] | None = None) -> list[Judgement]:
    """Keep the judgements whose figure :func:`figure_selected` selects."""
    return [j for j in judgements if figure_selected(j.figure, source, board, algorithm)]
