"""Sanity checks of published figures, as a pipeline you can follow:

1. plan (:mod:`refbench.sanity.plan`): figure -> the library's benchmark workload
   (:mod:`refbench.sanity.workloads`) -> kernel targets x memory configurations
   (:mod:`refbench.sanity.memory_configs`) -> jobs;
2. measure (:mod:`refbench.sanity.executor`): jobs -> result cache -> executor -> measurements,
   each distinct job once per report;
3. judge (pure): the emulator rule ``emulator`` and the ``peripheral`` rule (:mod:`refbench.sanity.emulator_rule`),
   the rules without emulator (:mod:`refbench.sanity.rules`, :mod:`refbench.sanity.invariants`),
   the cross-board rule ``cross-board`` with the gap explanation (:mod:`refbench.sanity.cross_board`) and the section-clock rule
   ``section-clock`` (:mod:`refbench.sanity.clock`), applied by :mod:`refbench.sanity.judging`.

:func:`judge` runs the three stages with the settings of a :class:`SanityContext`; the library
returns data, the ``refbench sanity`` command renders it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

from refbench.published.model import Figure, Part, load_figures, load_parts
from refbench.sanity import emulator_rule
from refbench.sanity.context import SanityContext
from refbench.sanity.emulation import Emulation
from refbench.sanity.executor import Measurements, measure
from refbench.sanity.judging import judge_figures
from refbench.sanity.plan import Plan, make_plan, measurement_scope
from refbench.sanity.verdicts import VERDICTS, Finding, Judgement, Verdict

__all__ = ["VERDICTS", "Finding", "Judgement", "SanityContext", "SanityReport", "Verdict", "figure_selected",
           "judge", "select_figures"]


@dataclass(frozen=True)
class SanityReport:
    """The judgements (one per figure, in order), the emulator rule's emulations of the figures in scope, the
    plan, and every distinct measurement (each ran, or came from the cache, once)."""

    judgements: list[Judgement]
    emulations: dict[str, Emulation]
    plan: Plan
    measurements: Measurements


def judge(figures: Iterable[Figure] | None = None, parts: dict[str, Part] | None = None,
          context: SanityContext | None = None) -> SanityReport:
    """Plan, measure and judge ``figures`` (default: all published figures) with ``context``
    (default: :class:`SanityContext`, in this process). Rules see all the given figures, so
    filtering before judging removes partners; put the selected figures in ``context.scope`` (rule
    e then runs kernels for them and every figure their rules compare them with,
    :func:`~refbench.sanity.plan.measurement_scope`) and filter the judgements afterwards
    (:func:`select_figures`)."""
    context = context or SanityContext()
    figures = list(load_figures() if figures is None else figures)
    parts = load_parts() if parts is None else parts
    # Filters never change verdicts: the kernels run for the selected figures and every figure
    # their rules compare them with (refbench.sanity.plan.measurement_scope).
    scope = measurement_scope(figures, context.scope)
    plan = make_plan([f for f in figures if scope is None or f.id in scope], parts, emulator=context.emulator,
                     machines=context.machines)
    measured = measure(plan.jobs(), context.executor, context.cache, context.progress)
    emulations = emulator_rule.emulations(plan, measured)
    judgements = judge_figures(figures, parts, emulations, context.emulator)
    for j in judgements:  # a user's input: every finding says what was assumed
        if (machine := context.machine_of(j.figure.id)) is not None:
            j.findings[:] = [machine.state(finding) for finding in j.findings]
    return SanityReport(judgements, emulations, plan, measured)


@cache
def _profile(name_or_part: str) -> str | None:
    """The board profile a board name or part names (cortexm_emu.boards.find_board), or None."""
    from cortexm_emu.boards import find_board

    try:
        return find_board(name_or_part).name
    except ValueError:
        return None


def figure_selected(f: Figure, source: list[str] | None = None, board: list[str] | None = None,
                    algorithm: list[str] | None = None) -> bool:
    """True when ``f``'s source file starts with / algorithm contains any of the given texts, and
    its board is one given: a board profile name or part (``stm32f777xi``, ``STM32F777``: the
    figures of the part that profile describes) or, as an alias, text the page's board or part
    name contains (``NUCLEO-F756ZG``, ``H753``); case-insensitive; an option not given selects
    everything."""
    def matches(texts: list[str] | None, *values: str | None) -> bool:
        if not texts:
            return True
        return any(t.lower() in (v or "").lower() for t in texts for v in values)

    def board_matches() -> bool:
        if matches(board, f.board, f.part):
            return True
        figure_profile = _profile(f.part)
        return figure_profile is not None and any(_profile(text) == figure_profile for text in board or ())

    return matches(source, f.source) and board_matches() and matches(algorithm, f.algorithm)


def select_figures(judgements: Iterable[Judgement], source: list[str] | None = None,
                   board: list[str] | None = None, algorithm: list[str] | None = None) -> list[Judgement]:
    """Keep the judgements whose figure :func:`figure_selected` selects."""
    return [j for j in judgements if figure_selected(j.figure, source, board, algorithm)]
