"""The numbers every sanity rule shares: the two stated tolerances, the printed resolution of a
published number, the cost a rule compares (cycles per byte or per operation), the grouping of
figures, and how a number is written in a message. A leaf module: it imports no other rule."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable

from refbench.published.model import Figure
from refbench.published.normalise import normalise

#: Repeatability of a timed benchmark run on a microcontroller (timer tick, interrupts,
#: cache/flash-prefetch state between runs): two measurements of the same work are taken to
#: agree within 5 %. This is a stated allowance, not a measured one; the printed resolution of
#: both numbers is added to it. Used for "these two figures do the same work" invariants.
SAME_WORK_TOLERANCE = 0.05

#: Cross-board: the same C code built with the same compiler on the same core differs only
#: through the memory system (flash wait states behind an ART/prefetch/cache, SRAM vs TCM,
#: caches on or off). 25 % is the allowance this project states for that effect without a
#: model of it; beyond it the pair needs a memory-system explanation (rule e's emulation can
#: supply or refute one), so the pair is reported as suspicious, not inconsistent.
CROSS_BOARD_TOLERANCE = 0.25


def printed_resolution(text: str) -> float:
    """Half a unit in the last printed digit: ``10.400`` -> 0.0005, ``11 270`` -> 0.5."""
    text = text.replace(" ", "")
    if "." in text:
        return 0.5 * 10 ** -len(text.split(".")[1])
    return 0.5


def relative_resolution(figure: Figure) -> float:
    """The printed resolution of ``figure`` as a fraction of its value (0 for a printed zero)."""
    return printed_resolution(figure.text) / figure.value if figure.value else 0.0


def same_work_tolerance(*figures: Figure) -> float:
    """The allowance for "these figures do the same work": SAME_WORK_TOLERANCE plus the relative
    printed resolution of every figure compared (``10.400 MB/s`` adds 0.0005/10.4 = 0.005 %)."""
    return SAME_WORK_TOLERANCE + sum(relative_resolution(f) for f in figures)


def fmt(x: float) -> str:
    if x >= 1e6:
        return f"{x:,.0f}"
    if x >= 100:
        return f"{x:.1f}"
    return f"{x:.3g}" if x < 1 else f"{x:.2f}"



def figure_context(f: Figure, *extra: object) -> tuple[object, ...]:
    """What two figures of one page must share to be compared (source, part, library, build,
    message and metric), plus ``extra``."""
    return (f.source, f.part, f.library, f.version, f.config, f.implementation, f.variant, f.message_bytes,
            f.chunk_bytes, f.metric, *extra)


def value_figures(figures: Iterable[Figure]) -> list[Figure]:
    """The figures that state a speed (throughput, time per operation, cycles), not a footprint."""
    return [f for f in figures if f.metric in ("throughput", "time_per_op", "cycles")]


def group_by(figures: list[Figure], key: Callable[[Figure], tuple | None]) -> dict[tuple, list[Figure]]:
    """The figures by ``key`` (a figure whose key is None is left out)."""
    groups: dict[tuple, list[Figure]] = defaultdict(list)
    for f in figures:
        k = key(f)
        if k is not None:
            groups[k].append(f)
    return groups


def per_unit(f: Figure) -> str:
    return "cycles/byte" if f.metric == "throughput" or (f.metric == "cycles" and f.message_bytes) else "cycles/op"


def cost_for_compare(f: Figure) -> float | None:
    """Cycles per byte of a throughput (or of a cycle count over a stated message), else cycles per operation."""
    n = normalise(f)
    if f.metric == "throughput":
        return n.cycles_per_byte
    if f.metric == "cycles" and f.message_bytes:
        return n.cycles_per_byte
    return n.cycles_per_op

