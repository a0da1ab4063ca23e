"""Section memory (``section-memory``): a published section whose emulated figures fit only with
the caches off.

Every figure of a section (one table of one page: one board, one build) ran in one memory
configuration. Rule e compares each figure with every memory configuration the board allows;
this rule looks at the section as a whole: when at least :data:`MIN_FIGURES` of its figures
were emulated on a board that has caches, and more than :data:`MIN_SHARE` of them are inside
the range of a caches-off configuration (caches/ART off, with or without prefetch) and outside
the range of every caches-on one, the section is reported once: it looks cache-less. If the
page states the caches were enabled (the figure's ``cache`` field, quoted from the page) the
finding is suspicious (the page and its figures disagree); otherwise it is an explanation the
page did not give. The numbers: for each figure, the published value and both ranges.

On a board whose caches-off path the emulator times as a lower bound
(:func:`~refbench.sanity.memory_configs.slow_side_unbounded`: H753, F7, L562) a symmetric
figure at or above the caches-off range (and outside every caches-on one) fits the caches off
too: the unmodelled part of that path only adds cycles. The finding then says so, with the
reason. (Not for public-key figures, whose composed candidates are lower bounds anyway.)
"""

from __future__ import annotations

from collections import defaultdict

from cortexm_emu.boards import board_names, load_board
from refbench.published.model import Figure
from refbench.sanity.emulation import Emulation
from refbench.sanity.memory_configs import slow_side_unbounded
from refbench.sanity.pubkey_plan import KERNEL as PUBKEY_KERNEL
from refbench.sanity.numbers import SAME_WORK_TOLERANCE, fmt, relative_resolution
from refbench.sanity.verdicts import Finding, FindingVerdict

RULE = "section-memory"
#: Examined from this many emulated figures per section (as rule f, refbench.sanity.clock) ...
MIN_FIGURES = 5
#: ... when more than this share of them fit only with the caches off.
MIN_SHARE = 0.5
#: Configuration kinds (refbench.sanity.memory_configs.ConfigKind) with the caches on, and off.
CACHE_ON = frozenset({"cache on", "cache on, prefetch off", "tables in SRAM"})
CACHE_OFF = frozenset({"cache off", "prefetch only"})


def _range(e: Emulation, kinds: frozenset[str]) -> tuple[float, float] | None:
    labels = {c.label for c in e.configs if c.kind in kinds}
    rates = [v.rate for v in e.variants if v.memory in labels and v.rate is not None]
    return (min(rates), max(rates)) if rates else None


def _inside(published: float, span: tuple[float, float] | None, allowance: float, open_above: bool = False) -> bool:
    """``published`` within ``span`` (with ``allowance``); with ``open_above``, anywhere from its low end up."""
    return span is not None and span[0] * (1 - allowance) <= published and (
        open_above or published <= span[1] * (1 + allowance))


def _unbounded(e: Emulation) -> str | None:
    """Why ``e``'s caches-off range is a lower bound of the kernels' cost on its board, or None.
    Never for public-key figures: their composed candidates bound only the arithmetic from below
    (refbench.sanity.pubkey_plan), so a figure above them says nothing about the caches."""
    if any(v.kernel == PUBKEY_KERNEL for v in e.variants):
        return None
    return slow_side_unbounded(load_board(e.board)) if e.board in board_names() else None


def rule_section_memory(figures: list[Figure], emulations: dict[str, Emulation]) -> list[tuple[str, Finding]]:
    """One finding (the same for each figure that fits only with the caches off) per section that
    looks cache-less; ``emulations`` are rule e's, by figure id."""
    sections: dict[tuple[str, str], list[tuple[Figure, Emulation]]] = defaultdict(list)
    for f in figures:
        e = emulations.get(f.id)
        if e is not None and e.status == "emulated" and e.published is not None:
            sections[(f.source, f.section)].append((f, e))
    out: list[tuple[str, Finding]] = []
    for members in sections.values():
        if len(members) < MIN_FIGURES:
            continue
        only_off: list[tuple[Figure, float, tuple[float, float], tuple[float, float] | None]] = []
        for f, e in members:
            allowance = SAME_WORK_TOLERANCE + relative_resolution(f)
            on, off = _range(e, CACHE_ON), _range(e, CACHE_OFF)
            if off is None:
                break  # a board without caches: nothing to tell apart
            if _inside(e.published, off, allowance, bool(_unbounded(e))) and not _inside(e.published, on, allowance):
                only_off.append((f, e.published, off, on))
        else:
            if len(only_off) <= MIN_SHARE * len(members):
                continue
            first, e0 = members[0]
            stated = first.cache or ""
            verdict: FindingVerdict = "suspicious" if "enabled" in stated.lower() else "explained"
            listed = "; ".join(
                f"{f.algorithm} {f.operation} {fmt(p)} {e0.unit} (caches off {fmt(off[0])}..{fmt(off[1])}, on "
                + (f"{fmt(on[0])}..{fmt(on[1])}" if on else "not emulated") + ")"
                for f, p, off, on in only_off)
            message = (f"{len(only_off)} of the section's {len(members)} emulated figures on {e0.board} fit only with "
                       f"the caches off: {listed}; the section looks cache-less (or its code is slower than every "
                       "variant with the caches on)")
            message += (f", although the page states '{stated}'" if verdict == "suspicious" else
                        " (the page does not say how its caches were set)")
            unbounded = _unbounded(e0)
            if unbounded and any(p > off[1] * (1 + SAME_WORK_TOLERANCE + relative_resolution(f))
                                 for f, p, off, _ in only_off):
                message += (f"; figures above the caches-off range fit it too, since {unbounded} (the unmodelled "
                            "part only adds cycles)")
            finding = Finding(RULE, verdict, message)
            out += [(f.id, finding) for f, *_ in only_off]
    return out
