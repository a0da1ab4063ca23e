"""Rule d (``cross-board``): the same library build on two boards of one core family, and the
memory configurations that reproduce a gap between them in emulation.

:func:`rule_cross_board` compares the published costs; beyond CROSS_BOARD_TOLERANCE a pair is
suspicious unless an explainer says more. :func:`explain_gap` is that explainer over rule e's
emulations (pure): the same kernel variant on both boards, in some pair of their memory
configurations, reproduces the published ratio (explained, naming the variant and both
configurations) or does not (the closest pair is named; suspicious). :func:`gap_explainer`
builds it from the emulations of a report; a figure outside them (not in the report's scope) or
not emulated leaves the gap unexplained.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable

from refbench.published.model import Figure, Part
from refbench.sanity.emulation import Emulation, VariantResult
from refbench.sanity.memory_configs import DEFAULT_KINDS
from refbench.sanity.numbers import (
    CROSS_BOARD_TOLERANCE,
    cost_for_compare,
    fmt,
    group_by,
    per_unit,
    value_figures,
)
from refbench.sanity.verdicts import Finding, Verdict

Result = list[tuple[str, Finding]]


def core_family(core: str) -> str:
    return core.removeprefix("Cortex-")


#: ``explain(f, other, ratio)`` -> (verdict, text) for an outlier pair, or None when it cannot tell.
GapExplainer = Callable[[Figure, Figure, float], tuple[Verdict, str] | None]


def rule_cross_board(figures: list[Figure], parts: dict[str, Part], explain_gap: GapExplainer | None = None) -> Result:
    """Rule d (``cross-board``): the same library build on two boards of the same core family needs
    the same cycles per byte (or per operation) within CROSS_BOARD_TOLERANCE. For a pair beyond
    it, ``explain_gap(f, other, ratio)`` (rule e's emulations, :func:`gap_explainer`) may give
    (verdict, text): the memory configurations that reproduce the gap in emulation, if any."""
    out: Result = []
    candidates = [f for f in value_figures(figures) if f.implementation == "software" and f.algorithm != "RNG"]
    def key(f: Figure) -> tuple:
        config = re.sub(rf"^{re.escape(f.part)}\S*\s*", "", f.config)
        return (f.library, f.version, config, f.options, f.math, f.asm, core_family(f.core), f.algorithm, f.mode,
                f.operation, f.metric, f.message_bytes, f.variant)
    for members in group_by(candidates, key).values():
        boards = {f.part for f in members}
        if len(boards) < 2:
            continue
        for f in members:
            for other in members:
                if other.part == f.part:
                    continue
                cf, co = cost_for_compare(f), cost_for_compare(other)
                r = cf / co
                tol = CROSS_BOARD_TOLERANCE
                verdict = "consistent" if 1 / (1 + tol) <= r <= 1 + tol else "suspicious"
                message = (f"{f.part} @ {f.clock_mhz:g} MHz {fmt(cf)} {per_unit(f)} ({f.text} {f.unit}) vs {other.part} @ "
                           f"{other.clock_mhz:g} MHz {fmt(co)} {per_unit(other)} ({other.text} {other.unit}), same "
                           f"library, version, configuration and core {core_family(f.core)}: ratio {r:.2f} (allowed "
                           f"1/{1 + tol:g}..{1 + tol:g}; beyond it the memory systems must explain the gap)")
                if verdict == "suspicious" and explain_gap is not None:
                    explained = explain_gap(f, other, r)
                    if explained is not None:
                        verdict, text = explained
                        message += f"; {text}"
                    else:
                        message += "; not emulated (no kernel for this figure on one of the boards)"
                out.append((f.id, Finding("cross-board", verdict, message)))
    return out


def _points(e: Emulation) -> dict[tuple[str, str], list[VariantResult]]:
    by_variant: dict[tuple[str, str], list[VariantResult]] = {}
    for v in e.variants:
        if v.verified and v.cycles_per_byte:
            by_variant.setdefault((v.kernel, v.variant), []).append(v)
    return by_variant


def explain_gap(a: Figure, ea: Emulation, b: Figure, eb: Emulation, ratio: float) -> tuple[Verdict, str]:
    """Whether the emulation reproduces the published ratio ``ratio`` = cost(a) / cost(b) with the
    same kernel variant on both boards in some pair of their memory configurations.

    Reproduced: the published ratio lies within the cross-board tolerance of the emulated ratio
    (verdict explained, naming the variant and both configurations); otherwise the closest pair
    is named (suspicious). Pairs in the default configurations (caches on) are preferred.
    """
    kinds = {c.label: c.kind for c in (*ea.configs, *eb.configs)}
    candidates = []
    pa, pb = _points(ea), _points(eb)
    for key in sorted(pa.keys() & pb.keys()):
        for va in pa[key]:
            for vb in pb[key]:
                emulated = (va.cycles_per_byte or 0.0) / (vb.cycles_per_byte or 1.0)
                error = abs(math.log(ratio / emulated))
                reproduced = error <= math.log(1 + CROSS_BOARD_TOLERANCE)
                unusual = (kinds[va.memory] not in DEFAULT_KINDS) + (kinds[vb.memory] not in DEFAULT_KINDS)
                candidates.append((not reproduced, unusual if reproduced else 0, error, key, va, vb, emulated))
    if not candidates:
        return "suspicious", "no kernel variant verified on both boards"
    not_reproduced, _, _, key, va, vb, emulated = min(candidates, key=lambda c: c[:3])
    pair = (f"{key[0]}/{key[1]} on {a.part} with {va.memory} ({fmt(va.cycles_per_byte or 0.0)} c/B) vs {b.part} "
            f"with {vb.memory} ({fmt(vb.cycles_per_byte or 0.0)} c/B): emulated ratio {emulated:.2f}")
    if not_reproduced:
        return "suspicious", (f"no modelled memory configuration pair reproduces the gap; the closest is {pair} "
                              f"(published {ratio:.2f})")
    return "explained", f"the emulation reproduces the gap: {pair} (published {ratio:.2f}, within 1/{1 + CROSS_BOARD_TOLERANCE:g}..{1 + CROSS_BOARD_TOLERANCE:g})"


def gap_explainer(emulations: dict[str, Emulation]) -> GapExplainer:
    """Rule d's explainer over a report's emulations: :func:`explain_gap` when both figures of the
    pair were emulated, else None (a partner outside the report's scope, switched off, or not
    emulated)."""

    def explain(a: Figure, b: Figure, ratio: float) -> tuple[Verdict, str] | None:
        ea, eb = emulations.get(a.id), emulations.get(b.id)
        if ea is None or eb is None or ea.status != "emulated" or eb.status != "emulated":
            return None
        return explain_gap(a, ea, b, eb, ratio)

    return explain


#: A library's per-cycle ratio between two builds is examined when they share at least this many
#: rows (fewer give no typical ratio to compare a row with).
MIN_SHARED_ROWS = 5


def _build_key(f: Figure) -> tuple:
    config = re.sub(rf"^{re.escape(f.part)}\S*\s*", "", f.config)
    return (f.library, f.version, config, f.options, f.source, f.part)


def _row_key(f: Figure) -> tuple:
    return (f.algorithm, f.mode, f.operation, f.key_bits, f.curve, f.message_bytes, f.chunk_bytes, f.variant, f.metric)


#: Tukey's outer fences (J. W. Tukey, Exploratory Data Analysis, 1977: "far out" values lie
#: beyond 3 interquartile ranges from the quartiles). The spread comes from the rows themselves,
#: since across two cores each algorithm's instruction mix legitimately moves its ratio; a row is
#: an outlier only beyond the fences AND beyond CROSS_BOARD_TOLERANCE of the median.
TUKEY_K = 3


def _quantile(ordered: list[float], q: float) -> float:
    """The q-quantile of sorted values, by linear interpolation between order statistics."""
    pos = q * (len(ordered) - 1)
    i = int(pos)
    return ordered[i] + (ordered[min(i + 1, len(ordered) - 1)] - ordered[i]) * (pos - i)


def rule_library_ratio(figures: list[Figure], parts: dict[str, Part]) -> Result:
    """Rule d2 (``library-ratio``): the same library build (library, version, configuration and
    options) on two parts, on any cores: the per-cycle cost ratio of each shared row against the
    ratios of all shared rows. The median carries what differs between the two (core, memory
    system, compiler, page's clock); a row outside Tukey's far-out fences of the rows' own log
    ratios and further than CROSS_BOARD_TOLERANCE from the median did not do the same relative
    work on the two boards. A figure is flagged when it is such an outlier against more than half
    of the boards it is compared with (against fewer, the partners are the odd ones); one
    finding per figure, with the ratio, the median and the fences of each outlying pair."""
    software = [f for f in value_figures(figures) if f.implementation == "software"]
    builds = group_by(software, _build_key)
    keys = sorted(builds)
    pairs: dict[str, list[tuple[bool, str, str]]] = {}  # figure id -> (outlier, partner part, message)
    for ka, kb in ((a, b) for i, a in enumerate(keys) for b in keys[i + 1:]):
        if ka[:4] != kb[:4] or ka[5] == kb[5]:
            continue  # another build, or the same part
        rows_a = {_row_key(f): f for f in builds[ka]}
        rows_b = {_row_key(f): f for f in builds[kb]}
        shared = [(rows_a[k], rows_b[k]) for k in rows_a.keys() & rows_b.keys()]
        if len(shared) < MIN_SHARED_ROWS:
            continue
        ratios = {(a.id, b.id): cost_for_compare(a) / cost_for_compare(b) for a, b in shared}
        logs = sorted(math.log(r) for r in ratios.values())
        median = math.exp(_quantile(logs, 0.5))
        q1, q3 = _quantile(logs, 0.25), _quantile(logs, 0.75)
        low, high = q1 - TUKEY_K * (q3 - q1), q3 + TUKEY_K * (q3 - q1)
        limit = math.log(1 + CROSS_BOARD_TOLERANCE)
        for a, b in shared:
            r = ratios[(a.id, b.id)]
            off = math.log(r / median)
            outlier = abs(off) > limit and not low <= math.log(r) <= high
            message = (f"{a.part} ({a.core} @ {a.clock_mhz:g} MHz) / {b.part} ({b.core} @ {b.clock_mhz:g} MHz): "
                       f"{a.algorithm} {a.operation} {fmt(cost_for_compare(a))} / {fmt(cost_for_compare(b))} "
                       f"{per_unit(a)} = {r:.2f}" + (f" ({math.exp(off):.2f}x the median)" if outlier else "") +
                       f"; over the {len(shared)} shared rows: median {median:.2f}, quartiles {math.exp(q1):.2f}.."
                       f"{math.exp(q3):.2f}, fences {math.exp(low):.2f}..{math.exp(high):.2f}")
            pairs.setdefault(a.id, []).append((outlier, b.part, message))
            pairs.setdefault(b.id, []).append((outlier, a.part, message))
    out: Result = []
    rule = (f"(Tukey's far-out fences: {TUKEY_K:g} interquartile ranges of the rows' log ratios beyond the quartiles; "
            f"within x/{1 + CROSS_BOARD_TOLERANCE:g} of the median always allowed)")
    for figure_id, found in pairs.items():
        library = next(f for f in software if f.id == figure_id)
        outliers = [(part, m) for o, part, m in found if o]
        head = f"{library.library} {library.version}, the same build on other boards: the per-cycle cost ratio is"
        if outliers and 2 * len(outliers) > len(found):
            text = "; ".join(m for _, m in outliers)
            out.append((figure_id, Finding("library-ratio", "suspicious", (
                f"{head} an outlier against {len(outliers)} of {len(found)} board(s): {text} {rule}: this row did not "
                "do the same relative work as the library's other rows (another code path, build option or "
                "measurement)"))))
        else:
            odd = (f"; an outlier only against {', '.join(p for p, _ in outliers)} (that board's row is the odd one)"
                   if outliers else "")
            inside = [m for o, _, m in found if not o]
            out.append((figure_id, Finding("library-ratio", "consistent", (
                f"{head} within the library's usual ratio against {len(inside)} of {len(found)} board(s): "
                f"{inside[0]} {rule}{odd}"))))
    return out
