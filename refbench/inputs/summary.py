"""What became of each input's lines: the skipped ones grouped by why (each reason said once,
with every line it applies to), and one summary line per input of lines read, skipped and
figures judged. :func:`yielded_nothing` tells which inputs gave no judged figure (the command
then exits 1)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from refbench.inputs.records import Problem
from refbench.published.model import Figure

#: line numbers listed in one skipped group before the rest are counted
_SHOWN_LINES = 12


def grouped_problems(problems: Iterable[Problem]) -> list[str]:
    """One line per input and reason: ``FILE:L1, L2, ... (N lines): why; first: 'text'``."""
    groups: dict[tuple[str, str], list[Problem]] = {}
    for p in problems:
        groups.setdefault((p.file, p.why), []).append(p)
    out = []
    for (file, why), group in groups.items():
        numbers = [str(p.line) for p in group]
        shown = ", ".join(numbers[:_SHOWN_LINES]) + (f", ... (+{len(numbers) - _SHOWN_LINES})"
                                                     if len(numbers) > _SHOWN_LINES else "")
        count = f" ({len(group)} lines)" if len(group) > 1 else ""
        first = "first: " if len(group) > 1 else ""
        out.append(f"{file}:{shown}{count}: {why}; {first}{group[0].text.strip()!r}")
    return out


@dataclass(frozen=True)
class InputCounts:
    """Per input: lines read into figures, lines skipped, figures judged by a rule or kernel."""

    name: str
    read: int
    skipped: int
    judged: int

    def line(self) -> str:
        return (f"{self.name}: {self.read + self.skipped} lines with results: {self.read} read, {self.skipped} "
                f"skipped; {self.judged} of {self.read} figures judged")


def input_counts(names: list[str], figures: list[Figure], problems: list[Problem],
                 judged_ids: set[str]) -> list[InputCounts]:
    """:class:`InputCounts` of each input name (``-`` is ``<stdin>``), in the given order."""
    out = []
    for given in names:
        name = "<stdin>" if given == "-" else given
        mine = [f for f in figures if f.source == name]
        out.append(InputCounts(name, read=len(mine), skipped=sum(1 for p in problems if p.file == name),
                               judged=sum(1 for f in mine if f.id in judged_ids)))
    return out


def yielded_nothing(counts: list[InputCounts]) -> list[str]:
    """The inputs that gave no judged figure."""
    return [c.name for c in counts if c.judged == 0]
