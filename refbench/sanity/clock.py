"""Rule f (``section-clock``) -- the section's clock: when most software figures of one published section are
faster than every emulated variant, is there one core clock, within the part's maximum, at
which they would fall inside their emulated ranges?

Every figure of a section (one table of one page: one board, one build) ran at one clock.
A published rate converts to cycles per byte at the stated clock; at a clock k times higher
the same rate is k times more cycles per byte. For each emulated figure i with published
p_i and emulated range [lo_i, hi_i] (the emulator rule, at the stated clock), the factors k with
lo_i <= k * p_i <= hi_i form an interval; the rule takes the k >= 1, up to the part maximum
over the stated clock, that the most figures share, and reports how many figures it puts
inside against how many the stated clock does.

Every emulated figure of the section counts, public-key ones included (cycles per operation at
the stated clock scale with the clock like cycles per byte); and the message adds the public-key
figures' per-cycle ratio to the same library's figures of the same claim on other parts of the
core (:func:`library_evidence`), at the stated and at the named clock.

Approximation, said in every message: the ranges are those emulated at the stated clock. A
higher clock adds flash wait states, which only raises the slow ends (hi_i); the fast ends
come from configurations without flash stalls (code in SRAM, warm caches), which do not
depend on the clock. The rule only informs: it names a clock the page may have used; the
figures keep the verdict the other rules give them. The finding is the section's (one message for
all its figures); each figure's emulator finding adds what the named clock makes of that figure
(:func:`name_in_emulator`): inside its range there (a gap of the section's clock, not of the
kernels: no kernel gap), or still faster (a gap the clock does not close), so its "faster than
every variant" reads as holding at the stated clock.

Before naming a clock the rule tests its rival: a cycle model uniformly too slow on the core
gives the same pattern. If sections of the same core on other boards need the same factor
(within CROSS_BOARD_TOLERANCE), the message names the model as the likelier cause.
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from dataclasses import replace

from refbench.published.model import Figure, Part
from refbench.sanity.claims import claims_of, is_public_key
from refbench.sanity.emulation import Emulation
from refbench.sanity.numbers import CROSS_BOARD_TOLERANCE, cost_for_compare
from refbench.sanity.plan import board_of
from refbench.sanity.verdicts import Finding

RULE = "section-clock"
#: A section is examined when at least this many of its figures are emulated per byte ...
MIN_FIGURES = 5
#: ... and more than this share of them is faster than every variant at the stated clock.
MIN_FASTER_SHARE = 0.5
#: The rival (a cycle model too slow on the core): another board's section of the same core whose
#: own best factor, searched up to this bound (the largest clock ratio among the pages' parts of one
#: core is below it), agrees with this section's within CROSS_BOARD_TOLERANCE.
RIVAL_MAX_FACTOR = 4.0


def _interval(published: float, e: Emulation) -> tuple[float, float]:
    assert e.emulated_min is not None and e.emulated_max is not None
    return e.emulated_min / published, e.emulated_max / published


def best_factor(intervals: list[tuple[float, float]], most: float) -> tuple[float, int]:
    """The clock factor k in [1, most] inside the most intervals (the smallest such k), and
    how many intervals contain it."""
    candidates = sorted({1.0, *(lo for lo, _ in intervals if 1.0 <= lo <= most)})
    best, count = 1.0, -1
    for k in candidates:
        inside = sum(1 for lo, hi in intervals if lo <= k <= hi)
        if inside > count:
            best, count = k, inside
    return best, count


def _section_factors(sections: dict[tuple[str, str], list[tuple[Figure, Emulation]]],
                     parts: dict[str, Part]) -> dict[tuple[str, str], tuple[Figure, float]]:
    """Each section's own clock factor (its first figure and :func:`best_factor` over the factors
    from 1 up to a generous 4x, the rival test needs no part maximum), for sections with at least
    MIN_FIGURES emulated figures and some faster than every variant."""
    out: dict[tuple[str, str], tuple[Figure, float]] = {}
    for key, members in sections.items():
        if len(members) < MIN_FIGURES or not any(e.position == "faster" for _, e in members):
            continue
        k, _ = best_factor([_interval(e.published or 0.0, e) for _, e in members], RIVAL_MAX_FACTOR)
        if k > 1.0:
            out[key] = (members[0][0], k)
    return out


def _version_number(version: str) -> float:
    """A library version as one number for nearness ("5.6.0" -> 50600), 0 when it has no digits."""
    parts = [int(p) for p in re.findall(r"\d+", version)[:3]]
    return sum(p * 100 ** (2 - k) for k, p in enumerate(parts))


def library_evidence(section: list[Figure], figures: list[Figure], k: float) -> str:
    """The section's public-key figures against the same library's figures elsewhere (the same work,
    core and claim, other parts, of the library version nearest the figure's: the nearest code):
    their per-cycle ratio at the stated clock and at ``k`` times it. A ratio nearer 1 at the named
    clock supports it; "" when no figure has such partners."""
    rows = []
    for f in section:
        if not is_public_key(f):
            continue
        partners = [g for g in figures if g.part != f.part and g.library == f.library and g.core == f.core
                    and (g.algorithm, g.operation, g.key_bits, g.curve, g.metric) ==
                    (f.algorithm, f.operation, f.key_bits, f.curve, f.metric) and claims_of(g) == claims_of(f)]
        if not partners:
            continue
        nearest = min(abs(_version_number(g.version) - _version_number(f.version)) for g in partners)
        partners = [g for g in partners if abs(_version_number(g.version) - _version_number(f.version)) == nearest]
        costs = sorted(cost_for_compare(g) for g in partners)
        reference = costs[len(costs) // 2]
        r = cost_for_compare(f) / reference
        rows.append((f, r, len(partners)))
    if not rows:
        return ""
    support = sum(1 for _, r, _ in rows if abs(math.log(r * k)) < abs(math.log(r)))
    listed = ", ".join(f"{f.algorithm} {f.operation} {r:.2f} -> {r * k:.2f}" for f, r, _ in rows)
    return (f"the section's public-key figures per cycle against the same library's figures of the same claim on "
            f"other {rows[0][0].core} parts (nearest version, median), at the stated clock -> at {k:.2f}x: {listed}; "
            f"{support} of {len(rows)} come nearer 1 at the named clock")


def rule_section_clock(figures: list[Figure], parts: dict[str, Part],
                       emulations: dict[str, Emulation]) -> list[tuple[str, Finding]]:
    """One finding per faster-than-every-variant figure of each section where a single clock up
    to the part maximum would put most of the section's figures inside their emulated ranges
    (``emulations``: the emulator rule's, by figure id; a figure without one is left out); the
    same finding for every figure of a section (it is about the section)."""
    return [(figure_id, finding) for figure_id, finding, _ in section_clock(figures, parts, emulations)]


def section_clock(figures: list[Figure], parts: dict[str, Part],
                  emulations: dict[str, Emulation]) -> list[tuple[str, Finding, str]]:
    """:func:`rule_section_clock`'s findings, each with what the named clock makes of its figure
    (the clause :func:`name_in_emulator` adds to the figure's emulator finding)."""
    sections: dict[tuple[str, str], list[tuple[Figure, Emulation]]] = defaultdict(list)
    for f in figures:
        e = emulations.get(f.id)
        if e is not None and e.status == "emulated" and e.unit in ("c/B", "cycles") and e.published:
            sections[(f.source, f.section)].append((f, e))
    out: list[tuple[str, Finding, str]] = []
    factors = _section_factors(sections, parts)
    for key, members in sections.items():
        faster = [(f, e) for f, e in members if e.position == "faster"]
        if len(members) < MIN_FIGURES or len(faster) <= MIN_FASTER_SHARE * len(members):
            continue
        first = members[0][0]
        board = board_of(first, parts)
        if board is None:
            continue
        stated = first.clock_mhz
        most = board.max_clock_mhz / stated
        intervals = [_interval(e.published or 0.0, e) for _, e in members]
        at_stated = sum(1 for lo, hi in intervals if lo <= 1.0 <= hi)
        k, inside = best_factor(intervals, most)
        if k <= 1.0 or inside <= at_stated:
            continue
        rivals = [(f, other) for other_key, (f, other) in factors.items()
                  if other_key != key and f.core == first.core and f.part != first.part
                  and abs(math.log(other / k)) <= math.log(1 + CROSS_BOARD_TOLERANCE)]
        clock = stated * k
        left_out = [f"{f.algorithm} {f.operation}" for (f, _), (lo, hi) in zip(members, intervals)
                    if not lo <= k <= hi]
        public = sum(1 for f, _ in members if is_public_key(f))
        head = (f"the section's {len(members)} emulated figures ({public} of them public-key, per operation) at the "
                f"stated {stated:g} MHz: {at_stated} inside "
                f"their emulated ranges, {len(faster)} faster than every variant; at {clock:.0f} MHz "
                f"({k:.2f}x, within the {board.part} maximum {board.max_clock_mhz:g} MHz) {inside} would be "
                "inside" + (f" (not: {', '.join(left_out)})" if left_out else ""))
        if rivals:
            others = ", ".join(f"{f.part} @ {f.clock_mhz:g} MHz needs {other:.2f}x" for f, other in rivals)
            message = (f"{head}; but figures of the same core ({first.core}) on other boards need the same factor "
                       f"({others}; within x/{1 + CROSS_BOARD_TOLERANCE:g}): a cycle model uniformly too slow on "
                       f"{first.core} is the likelier cause, not this page's clock")
        else:
            message = (f"{head}: the page's clock may not be the one the figures ran at (ranges emulated at the "
                       "stated clock; a higher clock only adds flash wait states, which raise the slow ends); its "
                       f"rival, a cycle model too slow on {first.core}, is not supported: no other board's figures "
                       "of this core need the same factor")
        evidence = library_evidence([f for f, _ in members], figures, k)
        if evidence:
            message += f"; {evidence}"
        finding = Finding(RULE, "suspicious", message)
        cause = f"the {first.core} cycle model (the likelier cause it names)" if rivals else "the section's clock"
        for f, e in faster:
            lo, hi = _interval(e.published or 0.0, e)
            if lo <= k <= hi:
                this = (f"faster than every variant at the stated {stated:g} MHz only: at {clock:.0f} MHz inside its "
                        f"emulated range (which needs {lo:.2f}x..{hi:.2f}x the stated clock), so its gap is {cause}, "
                        "not a kernel gap")
            else:
                this = (f"still faster than every variant at {clock:.0f} MHz (its emulated range needs {lo:.2f}x the "
                        f"stated clock): a gap {cause} does not close")
            out.append((f.id, finding, this))
    return out


def name_in_emulator(emulator: Finding, clause: str) -> Finding:
    """The emulator rule's finding on a figure the section-clock rule speaks about, saying that
    its comparison holds at the stated clock and what the section's named clock makes of the figure
    (``clause``, from :func:`section_clock`); its verdict is kept: the section-clock rule only informs."""
    return replace(emulator, message=f"{emulator.message}; at the stated clock only -- the section's clock finding "
                                     f"([{RULE}]) of this figure: {clause}")
