"""The settings of one sanity report, passed explicitly from the caller to every stage.

:class:`SanityContext` says whether the emulator rule runs kernels (``emulator``), for which figures
(``scope``), who hears about progress, which executor runs the jobs the result cache does not
answer, and which cache that is. Library callers get an in-process executor by default (spawned
processes re-import the caller's main module); :meth:`SanityContext.local` gives the command's
choice: one local process per usable CPU, or ``$REFBENCH_WORKERS``.

How a figure gets its machine: a built-in page's figure names its part, whose board profile
the emulator rule runs (:func:`refbench.sanity.plan.board_of`). A figure read from a user's own input
(:mod:`refbench.inputs`) gets the machine its :class:`~refbench.inputs.Assumptions` state:
``SanityContext.machines`` maps its id to a :class:`StatedMachine` -- a board profile with the
stated cache/prefetch settings, or a generic part (:class:`~refbench.sanity.memory_configs.GenericPart`:
core, clock, wait states, cache, prefetch) when no profile is named. Every finding on such a
figure ends with what was assumed (:meth:`StatedMachine.state`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType

from cortexm_emu.boards import find_board
from refbench.inputs.assumptions import Assumptions, core_key, described_assumptions
from refbench.measure import ResultCache
from refbench.published.model import Figure
from refbench.sanity.executor import (
    Executor,
    InProcessExecutor,
    LocalProcessExecutor,
    ProgressCallback,
    local_workers,
)
from refbench.sanity.memory_configs import GenericPart
from refbench.sanity.verdicts import Finding


@dataclass(frozen=True)
class SanityContext:
    """Emulator on/off, scope, progress, executor and result cache of one report."""

    #: False: the emulator rule runs no kernel ("not emulated"; the cross-board rule reports gaps without emulation)
    emulator: bool = True
    #: ids of the figures the emulator rule runs kernels for; None: every figure judged
    scope: frozenset[str] | None = None
    #: ``progress(done, total, label)`` after each measurement
    progress: ProgressCallback | None = None
    #: runs the jobs the cache does not answer
    executor: Executor = field(default_factory=InProcessExecutor)
    #: the measurement cache in front of the executor; None: measure everything, store nothing
    cache: ResultCache | None = field(default_factory=ResultCache)
    #: figure id -> the machine stated for it (figures of a user's own input); others: their part's profile
    machines: Mapping[str, StatedMachine] = field(default_factory=lambda: MappingProxyType({}))

    def __post_init__(self) -> None:
        if self.scope is not None and not isinstance(self.scope, frozenset):
            object.__setattr__(self, "scope", frozenset(self.scope))

    @classmethod
    def local(cls, *, emulator: bool = True, scope: Iterable[str] | None = None,
              progress: ProgressCallback | None = None, workers: int | None = None) -> SanityContext:
        """A context whose executor uses ``workers`` local processes (default :func:`local_workers`:
        ``$REFBENCH_WORKERS``, else one per usable CPU; a bad ``$REFBENCH_WORKERS`` is a ValueError)."""
        count = local_workers() if workers is None else workers
        return cls(emulator=emulator, scope=None if scope is None else frozenset(scope), progress=progress,
                   executor=LocalProcessExecutor(count))

    def machine_of(self, figure_id: str) -> StatedMachine | None:
        """The machine stated for figure ``figure_id``, or None (its part's board profile)."""
        return self.machines.get(figure_id)

    @property
    def workers(self) -> int:
        """How many jobs the executor runs at once."""
        return self.executor.workers

    def in_scope(self, figure_id: str) -> bool:
        """True when the emulator rule runs kernels for figure ``figure_id``."""
        return self.scope is None or figure_id in self.scope


@dataclass(frozen=True)
class StatedMachine:
    """The machine a user's input ran on, as :class:`~refbench.inputs.Assumptions` state it: a
    board profile (``board``, with the stated ``cache``/``prefetch``: "unknown" keeps every
    configuration of the profile) or, without one, a :class:`GenericPart`; ``text`` is
    :meth:`Assumptions.describe`, which every finding on its figures states."""

    board: str | None
    generic: GenericPart | None
    cache: str
    prefetch: str
    text: str

    @classmethod
    def for_figure(cls, f: Figure, assumptions: Assumptions) -> StatedMachine | None:
        """The machine figure ``f`` of a user's input ran on: its board profile (a table row may
        name its own) or a generic part of its core and clock, with the wait states, cache and
        prefetch ``assumptions`` state. None for a figure of a built-in page."""
        text = described_assumptions(f.notes)
        if text is None:
            return None
        if f.board is not None:
            return cls(find_board(f.part).name, None, assumptions.cache, assumptions.prefetch, text)
        generic = GenericPart(core_key(f.core), f.clock_mhz, assumptions.wait_states, assumptions.cache,
                              assumptions.prefetch, text)
        return cls(None, generic, assumptions.cache, assumptions.prefetch, text)

    def state(self, finding: Finding) -> Finding:
        """``finding`` with what was assumed at the end of its message (once)."""
        if finding.message.endswith(f"[{self.text}]"):
            return finding
        return replace(finding, message=f"{finding.message} [{self.text}]")
