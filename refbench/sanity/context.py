"""The settings of one sanity report, passed explicitly from the caller to every stage.

:class:`SanityContext` says whether rule e runs kernels (``emulator``), for which figures
(``scope``), who hears about progress, which executor runs the jobs the result cache does not
answer, and which cache that is. Library callers get an in-process executor by default (spawned
processes re-import the caller's main module); :meth:`SanityContext.local` gives the command's
choice: one local process per usable CPU, or ``$REFBENCH_WORKERS``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from refbench.measure import ResultCache
from refbench.sanity.executor import (
    Executor,
    InProcessExecutor,
    LocalProcessExecutor,
    ProgressCallback,
    local_workers,
)


@dataclass(frozen=True)
class SanityContext:
    """Emulator on/off, scope, progress, executor and result cache of one report."""

    #: False: rule e runs no kernel ("not emulated"; rule d reports gaps without emulation)
    emulator: bool = True
    #: ids of the figures rule e runs kernels for; None: every figure judged
    scope: frozenset[str] | None = None
    #: ``progress(done, total, label)`` after each measurement
    progress: ProgressCallback | None = None
    #: runs the jobs the cache does not answer
    executor: Executor = field(default_factory=InProcessExecutor)
    #: the measurement cache in front of the executor; None: measure everything, store nothing
    cache: ResultCache | None = field(default_factory=ResultCache)

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

    @property
    def workers(self) -> int:
        """How many jobs the executor runs at once."""
        return self.executor.workers

    def in_scope(self, figure_id: str) -> bool:
        """True when rule e runs kernels for figure ``figure_id``."""
        return self.scope is None or figure_id in self.scope
