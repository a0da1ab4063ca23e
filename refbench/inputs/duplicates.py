"""The same figure given twice is judged once: a log pasted twice into one file, two copies of
one log under different names. A row is a duplicate of an earlier one when it says the same
thing (the same row text, measuring the same algorithm and operation with the same value and
unit, under the same library, version, block size, part and clock); the later one is reported
as skipped, naming the first."""

from __future__ import annotations

from refbench.inputs.records import Problem
from refbench.published.model import Figure


def _key(f: Figure) -> tuple:
    return (" ".join(f.row.split()), f.library, f.version, f.block_bytes, f.part, f.clock_mhz, f.algorithm,
            f.operation, f.mode, f.key_bits, f.curve, f.metric, f.value, f.unit, f.message_bytes,
            f.implementation, f.math, f.options)


def drop_duplicates(figures: list[Figure]) -> tuple[list[Figure], list[Problem]]:
    """``figures`` without the later copies of a figure, and a :class:`Problem` for each copy."""
    first: dict[tuple, Figure] = {}
    kept: list[Figure] = []
    problems: list[Problem] = []
    for f in figures:
        earlier = first.setdefault(_key(f), f)
        if earlier is f:
            kept.append(f)
        else:
            problems.append(Problem(f.source, f.line, f.row,
                                    f"the same figure as {earlier.id} (a duplicate row): judged once, there"))
    return kept, problems
