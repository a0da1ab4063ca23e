"""The power of a sanity report, printed in every format: per source and overall, how many
figures a rule tested the value of, and how wide the predictions' bands are (band_high /
band_low as a factor: median and 90th percentile), for symmetric and public-key figures apart.
A band with an open side has no width; those figures are counted as one-sided. A band whose fast
edge is the floor no code can beat (no faithful kernel of the code that ran: a page's assembly, a
closed library) is not a prediction's band on that side: counted apart ("fast edge at the floor"),
not in the widths."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from refbench.sanity.emulation import Emulation
from refbench.sanity.verdicts import Judgement

KINDS = ("symmetric", "public key")


def quantile(values: list[float], q: float) -> float | None:
    """The q-quantile by linear interpolation between order statistics, or None when empty."""
    ordered = sorted(values)
    if not ordered:
        return None
    k = (len(ordered) - 1) * q
    i = int(k)
    j = min(i + 1, len(ordered) - 1)
    return ordered[i] + (ordered[j] - ordered[i]) * (k - i)


def _kind(e: Emulation) -> str:
    return "public key" if e.unit == "cycles" and e.size is None else "symmetric"


def _stats(judgements: list[Judgement], emulations: dict[str, Emulation]) -> dict[str, Any]:
    out: dict[str, Any] = {"figures": len(judgements),
                           "tested": sum(1 for j in judgements if j.tested)}
    out["tested_share"] = out["tested"] / out["figures"] if judgements else None
    for kind in KINDS:
        predicted = [emulations[j.figure.id].prediction for j in judgements
                     if j.figure.id in emulations and emulations[j.figure.id].prediction is not None
                     and _kind(emulations[j.figure.id]) == kind]
        widths = [p.width for p in predicted if p is not None and p.width is not None and not p.floor_note]
        floored = sum(1 for p in predicted if p is not None and p.width is not None and p.floor_note)
        out[kind] = {"predicted": len(predicted), "two_sided": len(widths), "floor_edged": floored,
                     "one_sided": len(predicted) - len(widths) - floored,
                     "median_band_width": quantile(widths, 0.5), "p90_band_width": quantile(widths, 0.9)}
    return out


def power(judgements: Iterable[Judgement], emulations: dict[str, Emulation]) -> dict[str, Any]:
    """{"by_source": {source: stats}, "all": stats} (see the module doc)."""
    judgements = list(judgements)
    sources = sorted({j.figure.source for j in judgements})
    return {"by_source": {s: _stats([j for j in judgements if j.figure.source == s], emulations) for s in sources},
            "all": _stats(judgements, emulations)}


def _text(name: str, stats: dict[str, Any]) -> str:
    share = stats["tested_share"]
    parts = [f"value tested {stats['tested']}/{stats['figures']}" + (f" ({share:.0%})" if share is not None else "")]
    for kind in KINDS:
        k = stats[kind]
        if not k["predicted"]:
            continue
        width = ("no two-sided band" if k["median_band_width"] is None else
                 f"band width median x{k['median_band_width']:.2f}, p90 x{k['p90_band_width']:.2f} over "
                 f"{k['two_sided']}")
        floor = f", fast edge at the floor {k['floor_edged']}" if k["floor_edged"] else ""
        parts.append(f"{kind}: {k['predicted']} predicted, {width}{floor}, one-sided {k['one_sided']}")
    return f"power {name}: " + "; ".join(parts)


def power_lines(judgements: Iterable[Judgement], emulations: dict[str, Emulation]) -> list[str]:
    """One line per source and one for all (see the module doc)."""
    data = power(judgements, emulations)
    return [*(_text(s, stats) for s, stats in data["by_source"].items()), _text("all", data["all"])]
