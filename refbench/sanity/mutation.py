"""The power of the emulator rule, measured: judge each emulated figure again with its published cost scaled
(0.5, 2, 5: a misstated clock, a slower build, a wrong unit), from the same measurements, and
count the figures flagged (``suspicious`` or ``inconsistent``) per algorithm family.

Pure: a function of a report's plan and measurements (:class:`refbench.sanity.SanityReport`);
nothing runs again. Used by the mutation test (tests/test_mutation.py, synthetic pages) and by
the power benchmark (benchmarks/test_prediction_power.py, the built-in pages).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Iterable

from refbench.published.model import Figure
from refbench.published.normalise import normalise
from refbench.sanity.emulation import Emulation
from refbench.sanity.executor import Measurements
from refbench.sanity.plan import FigurePlan, Plan
from refbench.sanity.pubkey_plan import PubkeyPlan

FACTORS = (0.5, 2.0, 5.0)
FLAGGED = frozenset({"suspicious", "inconsistent"})


def _cost(f: Figure) -> float | None:
    n = normalise(f)
    return n.cycles_per_byte if n.cycles_per_byte is not None else n.cycles_per_op


def significant_digits(text: str) -> int:
    """The significant digits of a printed number: every digit after the leading zeros, but not
    a whole number's trailing zeros, which may be padding (``10.400`` -> 5, ``0.898`` -> 3,
    ``11 270`` -> 4, ``875`` -> 3); at least 1."""
    digits = "".join(c for c in text if c.isdigit()).lstrip("0")
    if "." not in text:
        digits = digits.rstrip("0")
    return max(len(digits), 1)


def print_like(value: float, text: str) -> str:
    """``value`` printed with as many significant digits as ``text`` (so its printed resolution,
    relative to the value, is the original's to within the factor ten a shifted leading digit
    makes); a number whose last significant digit lies left of the units is printed whole, its
    resolution then half a unit (:func:`refbench.sanity.numbers.printed_resolution`)."""
    if value == 0:
        return text
    decimals = significant_digits(text) - 1 - math.floor(math.log10(abs(value)))
    if decimals <= 0:
        return f"{round(value, decimals):.0f}"
    return f"{value:.{decimals}f}"


def scaled(f: Figure, factor: float) -> Figure:
    """``f`` with its published cost (cycles per byte or per operation) times ``factor``: the
    printed value scaled the way its metric goes (a rate down, a time up), printed with the
    original's number of significant digits (:func:`print_like`) and valued at that text, as a
    real page's figure is."""
    base = _cost(f)
    if base is None:
        raise ValueError(f"figure {f.id}: no cost to scale (metric {f.metric})")
    probe = _cost(dataclasses.replace(f, value=f.value * 2))
    value = f.value * factor if probe is not None and probe > base else f.value / factor
    text = print_like(value, f.text)
    return dataclasses.replace(f, value=float(text), text=text)


def rejudge(p: FigurePlan | PubkeyPlan, measured: Measurements, factor: float) -> Emulation:
    """The emulator rule's emulation of plan ``p``'s figure with its cost times ``factor``."""
    from refbench.sanity.emulator_rule import _judge, _variant_results, pubkey_prediction
    from refbench.sanity.pubkey_plan import judge_pubkey

    q = dataclasses.replace(p, figure=scaled(p.figure, factor))
    if isinstance(q, FigurePlan):
        return _judge(q, _variant_results(q, measured))
    return pubkey_prediction(q, judge_pubkey(q, measured))


def family(p: FigurePlan | PubkeyPlan) -> str:
    """The algorithm family a plan's figure is counted in: its kernel family, or "public key: X"."""
    if isinstance(p, FigurePlan):
        return p.operations[0][0]
    return "public key: " + p.figure.algorithm.split("-")[0]


def flagged(e: Emulation) -> bool:
    return e.finding is not None and e.finding.verdict in FLAGGED


def source(p: FigurePlan | PubkeyPlan) -> str:
    """The source a plan's figure is counted in: its seed file's number (the part of its source's name
    before the underscore, e.g. "000" for 000_950e0926bdf8c114.txt) and its library."""
    return f"{p.figure.source.split('_')[0]} {p.figure.library}"


#: One re-judged figure: its plan, the factor, flagged or not (None: the scaled figure was not emulated).
Hit = tuple[FigurePlan | PubkeyPlan, float, bool | None]


def power_hits(plan: Plan, measured: Measurements, factors: Iterable[float] = FACTORS,
               ids: Iterable[str] | None = None) -> list[Hit]:
    """(plan, factor, flagged) for every figure of ``plan`` with a cost (``ids``: only those) scaled by
    each factor, flagged None when the scaled figure is not emulated: the re-judging :func:`power_table` counts."""
    chosen = None if ids is None else set(ids)
    factors = tuple(factors)
    hits: list[Hit] = []
    for p in plan.figures:
        if not isinstance(p, FigurePlan | PubkeyPlan) or (chosen is not None and p.figure.id not in chosen):
            continue
        if _cost(p.figure) is None:
            continue
        for k in factors:
            e = rejudge(p, measured, k)
            hits.append((p, k, flagged(e) if e.status == "emulated" else None))
    return hits


def tabulate(hits: Iterable[Hit], factors: Iterable[float] = FACTORS,
             group: Callable[[FigurePlan | PubkeyPlan], str] = family) -> dict[str, dict[float, tuple[int, int]]]:
    """{group: {factor: (flagged, judged)}} of ``hits`` (``group``: by algorithm family unless told,
    e.g. :func:`source`), plus an "all" row; a figure not emulated makes its group's row, uncounted."""
    factors = tuple(factors)
    table: dict[str, dict[float, list[int]]] = {}
    for p, k, hit in hits:
        for name in (group(p), "all"):
            cell = table.setdefault(name, {f: [0, 0] for f in factors})[k]
            if hit is not None:
                cell[0] += hit
                cell[1] += 1
    return {name: {k: (v[0], v[1]) for k, v in row.items()} for name, row in sorted(table.items())}


def power_table(plan: Plan, measured: Measurements, factors: Iterable[float] = FACTORS,
                ids: Iterable[str] | None = None) -> dict[str, dict[float, tuple[int, int]]]:
    """{family: {factor: (flagged, judged)}} over the emulated figures of ``plan`` (``ids``: only
    those), plus an "all" row."""
    factors = tuple(factors)
    return tabulate(power_hits(plan, measured, factors, ids), factors)


def table_lines(table: dict[str, dict[float, tuple[int, int]]]) -> list[str]:
    """The table as text: one line per family, the share flagged at each factor."""
    lines = []
    for name, row in table.items():
        cells = ", ".join(f"x{k:g} {hit}/{n} ({hit / n:.0%})" if n else f"x{k:g} -" for k, (hit, n) in row.items())
        lines.append(f"{name}: {cells}")
    return lines
