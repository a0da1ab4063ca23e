"""Reports rendered from judgements and measurements (the library returns text; the CLI writes it).

:mod:`refbench.report.html` renders the self-contained HTML sanity report;
:func:`emulation_progress` gives the CLIs one rich progress bar (on stderr) for the kernel
runs of a sanity report.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from refbench.sanity.executor import ProgressCallback


@contextmanager
def emulation_progress(console: Console | None = None) -> Iterator[ProgressCallback]:
    """A transient progress bar on stderr (hidden when not a terminal) for the block; yields the
    callback to give :class:`refbench.sanity.SanityContext` as its ``progress``."""
    console = console or Console(stderr=True)
    columns = (TextColumn("emulating {task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=console, transient=True, disable=not console.is_terminal) as progress:
        task = progress.add_task("kernels", total=None)

        def advance(done: int, total: int, label: str) -> None:
            progress.update(task, completed=done, total=total, description=label)

        yield advance
