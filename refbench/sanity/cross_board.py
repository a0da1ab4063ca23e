"""Rule d (``cross-board``): the same library build on two boards of one core family, and the
memory configurations that reproduce a gap between them in emulation.

:func:`rule_cross_board` compares the published costs; beyond CROSS_BOARD_TOLERANCE a pair is
suspicious unless an explainer says more. :func:`explain_gap` is that explainer over the emulator rule's
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

from cortexm_emu.boards import board_names, load_board
from refbench.published.model import Figure, Part
from refbench.sanity.emulation import Emulation, VariantResult
from refbench.sanity.memory_configs import DEFAULT_KINDS, slow_side_unbounded
from refbench.sanity.numbers import (
    CROSS_BOARD_TOLERANCE,
    cost_for_compare,
    fmt,
    group_by,
    per_unit,
    same_work_tolerance,
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
    it, ``explain_gap(f, other, ratio)`` (the emulator rule's emulations, :func:`gap_explainer`) may give
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
        if v.verified and v.rate:
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
                emulated = (va.rate or 0.0) / (vb.rate or 1.0)
                error = abs(math.log(ratio / emulated))
                reproduced = error <= math.log(1 + CROSS_BOARD_TOLERANCE)
                unusual = (kinds[va.memory] not in DEFAULT_KINDS) + (kinds[vb.memory] not in DEFAULT_KINDS)
                candidates.append((not reproduced, unusual if reproduced else 0, error, key, va, vb, emulated))
    if not candidates:
        return "suspicious", "no kernel variant verified on both boards"
    not_reproduced, _, _, key, va, vb, emulated = min(candidates, key=lambda c: c[:3])
    pair = (f"{key[0]}/{key[1]} on {a.part} with {va.memory} ({fmt(va.rate or 0.0)} {ea.unit}) vs {b.part} "
            f"with {vb.memory} ({fmt(vb.rate or 0.0)} {eb.unit}): emulated ratio {emulated:.2f}")
    if not_reproduced:
        text = f"no modelled memory configuration pair reproduces the gap; the closest is {pair} (published {ratio:.2f})"
        open_side = _open_sides(a, ea, b, eb, ratio, pa, pb)
        if open_side:
            return "explained", f"{text}; {open_side}"
        return "suspicious", text
    return "explained", f"the emulation reproduces the gap: {pair} (published {ratio:.2f}, within 1/{1 + CROSS_BOARD_TOLERANCE:g}..{1 + CROSS_BOARD_TOLERANCE:g})"


def _unbounded(e: Emulation) -> str | None:
    """Why ``e``'s board has no modelled slow bound (:func:`slow_side_unbounded`), or None."""
    return slow_side_unbounded(load_board(e.board)) if e.board in board_names() else None


def _open_sides(a: Figure, ea: Emulation, b: Figure, eb: Emulation, ratio: float,
                pa: dict[tuple[str, str], list[VariantResult]], pb: dict[tuple[str, str], list[VariantResult]]) -> str:
    """When a board's caches-off path is a lower bound (:func:`slow_side_unbounded`), its cost lies
    anywhere from its fastest modelled configuration up: the ratio cost(a) / cost(b) of one variant
    then ranges from fastest(a) / slowest(b) (to no limit when a is unbounded) down to
    slowest(a) / fastest(b) (to zero when b is unbounded). The reason, when the published ratio lies
    in that range (within the cross-board tolerance) for some variant; "" otherwise or when both
    boards are bounded (the modelled pairs are then the whole range)."""
    reasons = {f.part: why for f, e in ((a, ea), (b, eb)) if (why := _unbounded(e))}
    if not reasons:
        return ""
    tol = 1 + CROSS_BOARD_TOLERANCE
    for key in sorted(pa.keys() & pb.keys()):
        ra = [v.rate or 0.0 for v in pa[key]]
        rb = [v.rate or 0.0 for v in pb[key]]
        low = 0.0 if b.part in reasons else min(ra) / max(rb)
        high = math.inf if a.part in reasons else max(ra) / min(rb)
        if low / tol <= ratio <= high * tol:
            span = f"{low:.2f}" + (".. (no upper limit)" if high == math.inf else f"..{high:.2f}")
            return (f"but the slow side of {' and '.join(reasons)} is not bounded ({'; '.join(reasons.values())}): with "
                    f"{key[0]}/{key[1]} the ratio can lie anywhere in {span}, which holds the published {ratio:.2f}. "
                    "Tested: each figure's fast side (the emulator rule); not tested: how much slower the unmodelled path "
                    "makes either board, so this gap is not evidence against the page")
    return ""


def gap_explainer(emulations: dict[str, Emulation]) -> GapExplainer:
    """The cross-board rule's explainer over a report's emulations: :func:`explain_gap` when both figures of the
    pair were emulated, else None (a partner outside the report's scope, switched off, or not
    emulated)."""

    def explain(a: Figure, b: Figure, ratio: float) -> tuple[Verdict, str] | None:
        ea, eb = emulations.get(a.id), emulations.get(b.id)
        if ea is None or eb is None or ea.status != "emulated" or eb.status != "emulated":
            return None
        return explain_gap(a, ea, b, eb, ratio)

    return explain


#: A library's per-cycle ratio between two builds is examined when they share at least this many
#: rows (fewer give no typical ratio to compare a row with); the common factor of a cross-core
#: pair (below) needs as many emulated rows.
MIN_SHARED_ROWS = 5


def _build_key(f: Figure) -> tuple:
    config = re.sub(rf"^{re.escape(f.part)}\S*\s*", "", f.config)
    return (f.library, f.version, config, f.options, f.source, f.part)


def _row_key(f: Figure) -> tuple:
    return (f.algorithm, f.mode, f.operation, f.key_bits, f.curve, f.message_bytes, f.chunk_bytes, f.variant, f.metric)


#: Tukey's outer fences (J. W. Tukey, Exploratory Data Analysis, 1977: "far out" values lie
#: beyond 3 interquartile ranges from the quartiles). The spread comes from the rows themselves;
#: a row is an outlier only beyond the fences AND beyond CROSS_BOARD_TOLERANCE of the median.
TUKEY_K = 3


def _quantile(ordered: list[float], q: float) -> float:
    """The q-quantile of sorted values, by linear interpolation between order statistics."""
    pos = q * (len(ordered) - 1)
    i = int(pos)
    return ordered[i] + (ordered[min(i + 1, len(ordered) - 1)] - ordered[i]) * (pos - i)


ConfigPair = tuple[str, str]  # (memory configuration label on board a, on board b)


def emulated_ratios(a: Figure, ea: Emulation | None, b: Figure, eb: Emulation | None
                    ) -> tuple[dict[ConfigPair, tuple[float, float, str]], str]:
    """The emulated per-cycle ratio cost(a) / cost(b) of one row, per pair of memory
    configurations (one of each board): (lowest, highest, text) over the kernel variants both
    boards verified (the same variant and operation on both), widened by the compiler spread
    measured for those variants (:mod:`refbench.sanity.compiler_band`) when the two figures were
    built by different compilers or by one we cannot run. With the ratios, why there are none:
    the row was not emulated on both boards, or the compilers differ and no spread is measured
    for its variants (the compiler's share of the row's ratio is then unknown)."""
    if ea is None or eb is None or ea.status != "emulated" or eb.status != "emulated":
        return {}, "this row was not emulated on both boards"
    from refbench.sanity.compiler_band import band, band_levels, foreign_compiler

    by_a = {(v.kernel, v.variant, v.operation, v.memory): v for v in ea.variants if v.verified and v.rate}
    by_b = {(v.kernel, v.variant, v.operation, v.memory): v for v in eb.variants if v.verified and v.rate}
    ratios: dict[ConfigPair, list[tuple[float, tuple[str, str, str]]]] = {}
    for (k, v, o, ma), va in by_a.items():
        for (k2, v2, o2, mb), vb in by_b.items():
            if (k, v, o) == (k2, v2, o2):
                ratios.setdefault((ma, mb), []).append(((va.rate or 0.0) / (vb.rate or 1.0), (k, v, o)))
    spread, note = 0.0, ""
    if a.compiler != b.compiler or foreign_compiler(a.compiler) or foreign_compiler(b.compiler):
        variants = {key for found in ratios.values() for _, key in found}
        spreads = [s.spread for f, e in ((a, ea), (b, eb)) for k, v, o in variants
                   if (s := band(e.core or "", k, v, o, band_levels(f.compiler, f.options))) is not None]
        if not spreads:
            return {}, (f"the two builds' compilers ({a.compiler} / {b.compiler}) differ and no compiler spread is "
                        "measured for this row's variants")
        spread = max(spreads)
        note = f", widened by the compiler spread {spread:.1%} measured for these variants ({a.compiler} / {b.compiler})"
    out: dict[ConfigPair, tuple[float, float, str]] = {}
    for pair, found in ratios.items():
        lo, hi = min(r for r, _ in found) / (1 + spread), max(r for r, _ in found) * (1 + spread)
        names = ", ".join(sorted({f"{k}/{v}" for _, (k, v, _) in found}))
        out[pair] = (lo, hi, f"emulated {lo:.2f}..{hi:.2f} ({names}{note})")
    return out, "" if out else "no variant was verified on both boards"


def _best_pair(rows: dict[tuple[str, str], dict[ConfigPair, tuple[float, float, str]]], ratios: dict[tuple[str, str], float],
               kinds: dict[str, str], tolerances: dict[tuple[str, str], float] | None = None
               ) -> tuple[ConfigPair, float, set[tuple[str, str]]] | None:
    """The memory configuration pair the build pair most likely ran in: of the pairs emulated for
    at least MIN_SHARED_ROWS rows, the one under which the fewest rows miss their expected ratio
    (then the one in the boards' usual configurations, caches on); with its common factor (the
    median over those rows of published / emulated) and its outlier rows. None when no pair has
    enough rows."""
    pairs = {p for emulated in rows.values() for p in emulated}
    best = None
    for pair in sorted(pairs):
        covered = {row: e[pair] for row, e in rows.items() if pair in e}
        if len(covered) < MIN_SHARED_ROWS:
            continue
        normalised = sorted(math.log(ratios[row] / math.sqrt(lo * hi)) for row, (lo, hi, _) in covered.items())
        factor = math.exp(_quantile(normalised, 0.5))
        tols = {row: 1 + (tolerances or {}).get(row, CROSS_BOARD_TOLERANCE) for row in covered}
        outliers = {row for row, (lo, hi, _) in covered.items()
                    if not factor * lo / tols[row] <= ratios[row] <= factor * hi * tols[row]}
        unusual = (kinds.get(pair[0]) not in DEFAULT_KINDS) + (kinds.get(pair[1]) not in DEFAULT_KINDS)
        rank = (len(outliers), unusual)
        if best is None or rank < best[0]:
            best = (rank, pair, factor, outliers)
    return None if best is None else best[1:]


def rule_library_ratio(figures: list[Figure], parts: dict[str, Part],
                       emulations: dict[str, Emulation] | None = None) -> Result:
    """Rule d2 (``library-ratio``): the same library build (library, version, configuration and
    options) on two parts: the per-cycle cost ratio of each shared row against the ratios of all
    shared rows.

    Between two parts of the same core family the median carries what differs between the two
    builds (memory system, compiler, page's clock); a row outside Tukey's far-out fences of the
    rows' own log ratios and further than CROSS_BOARD_TOLERANCE from the median did not do the
    same relative work on the two boards.

    Between two cores each algorithm's instruction mix moves its ratio by itself (an M7 dual-issues
    what an M33 does not), so a row is judged against its own core difference: the emulated ratio
    of the same kernel on the two boards (:func:`emulated_ratios`: over the variants, widened by
    the compiler band) in one memory configuration per board. The published ratio of a row is that
    emulated ratio times a factor common to the build pair (compiler, page clock, method),
    estimated as the median over the rows of published / emulated. One configuration pair holds
    for every row of the build pair: the one under which the fewest rows stray (:func:`_best_pair`).
    A row is an outlier when its published ratio misses the factor times its emulated range by more
    than the two figures' repeatability and printed digits (``same_work_tolerance``): the band is
    derived from the emulated core difference and the measured compiler spread alone, and a row at
    twice its expected ratio is flagged with both printed, however widely the rows of two cores
    spread (the raw fences, which only judge rows of one core). A cross-core row
    not emulated on both boards (or a pair with fewer than MIN_SHARED_ROWS emulated rows) is not
    judged: its core difference is unknown.

    A figure is flagged when it is such an outlier against more than half of the boards it is
    judged against (against fewer, the partners are the odd ones); one finding per figure."""
    software = [f for f in value_figures(figures) if f.implementation == "software"]
    builds = group_by(software, _build_key)
    keys = sorted(builds)
    # figure id -> (state: "outlier", "inside" or "unjudged", partner part, message)
    pairs: dict[str, list[tuple[str, str, str]]] = {}
    limit = math.log(1 + CROSS_BOARD_TOLERANCE)
    for ka, kb in ((a, b) for i, a in enumerate(keys) for b in keys[i + 1:]):
        if ka[:4] != kb[:4] or ka[5] == kb[5]:
            continue  # another build, or the same part
        rows_a = {_row_key(f): f for f in builds[ka]}
        rows_b = {_row_key(f): f for f in builds[kb]}
        shared = [(rows_a[k], rows_b[k]) for k in sorted(rows_a.keys() & rows_b.keys(), key=str)]
        if len(shared) < MIN_SHARED_ROWS:
            continue
        ratios = {(a.id, b.id): cost_for_compare(a) / cost_for_compare(b) for a, b in shared}
        logs = sorted(math.log(r) for r in ratios.values())
        median = math.exp(_quantile(logs, 0.5))
        q1, q3 = _quantile(logs, 0.25), _quantile(logs, 0.75)
        low, high = q1 - TUKEY_K * (q3 - q1), q3 + TUKEY_K * (q3 - q1)
        a0, b0 = shared[0]
        cross_core = core_family(a0.core) != core_family(b0.core)
        found = {(a.id, b.id): emulated_ratios(a, (emulations or {}).get(a.id), b, (emulations or {}).get(b.id))
                 for a, b in shared} if cross_core else {}
        rows = {k: ratios_ for k, (ratios_, _) in found.items()}
        kinds = {c.label: c.kind for e in (emulations or {}).values() for c in e.configs}
        # across two cores the band is the emulated one (variants x the pair's memory configurations,
        # widened by the measured compiler spread) times the pair's common factor; what is added is
        # only the repeatability and printed digits of the two figures (same_work_tolerance)
        tolerances = {(a.id, b.id): same_work_tolerance(a, b) for a, b in shared}
        chosen = _best_pair(rows, ratios, kinds, tolerances) if cross_core else None
        for a, b in shared:
            r = ratios[(a.id, b.id)]
            off = math.log(r / median)
            raw = abs(off) > limit and not low <= math.log(r) <= high
            message = (f"{a.part} ({a.core} @ {a.clock_mhz:g} MHz) / {b.part} ({b.core} @ {b.clock_mhz:g} MHz): "
                       f"{a.algorithm} {a.operation} {fmt(cost_for_compare(a))} / {fmt(cost_for_compare(b))} "
                       f"{per_unit(a)} = {r:.2f}" + (f" ({math.exp(off):.2f}x the median)" if raw else "") +
                       f"; over the {len(shared)} shared rows: median {median:.2f}, quartiles {math.exp(q1):.2f}.."
                       f"{math.exp(q3):.2f}, fences {math.exp(low):.2f}..{math.exp(high):.2f}")
            state = "outlier" if raw else "inside"
            if cross_core:
                e = rows.get((a.id, b.id), {}).get(chosen[0]) if chosen else None
                if e is None:
                    state = "unjudged"
                    message += (f"; the cores differ ({a.core} / {b.core}) and " +
                                (found[(a.id, b.id)][1] or f"no memory configuration pair of the two boards was "
                                 f"emulated for {MIN_SHARED_ROWS} or more of the shared rows" if chosen is None or
                                 not rows[(a.id, b.id)] else "this row was not emulated in the pair's configurations") +
                                ", so this row's expected ratio is unknown: not judged")
                else:
                    (ca, cb), factor, outliers = chosen
                    lo, hi, text = e
                    inside = (a.id, b.id) not in outliers
                    # the emulated band decides alone: a row outside it did other relative work, whatever
                    # the raw fences of a pair of cores say (their spread is the cores' own)
                    state = "inside" if inside else "outlier"
                    tol = 1 + tolerances[(a.id, b.id)]
                    mid = factor * math.sqrt(lo * hi)
                    message += (f"; the cores differ: with {a.part} in {ca} and {b.part} in {cb} (the configuration "
                                f"pair under which the fewest rows stray, {len(outliers)}), this row's {text}; the "
                                f"pair's common factor (median of published / emulated) {factor:.2f}, so this row is "
                                f"expected at {factor * lo:.2f}..{factor * hi:.2f}, allowed x/{tol:.3f} (the two "
                                f"figures' repeatability and printed digits): " + ("inside" if inside else
                                f"outside, {r / mid:.2f}x the expected middle {mid:.2f}"))
            pairs.setdefault(a.id, []).append((state, b.part, message))
            pairs.setdefault(b.id, []).append((state, a.part, message))
    out: Result = []
    rule = (f"(Tukey's far-out fences: {TUKEY_K:g} interquartile ranges of the rows' log ratios beyond the quartiles; "
            f"within x/{1 + CROSS_BOARD_TOLERANCE:g} of the median always allowed)")
    for figure_id, found in pairs.items():
        library = next(f for f in software if f.id == figure_id)
        judged = [(state, part, m) for state, part, m in found if state != "unjudged"]
        if not judged:
            continue  # no partner whose core difference is known: the value is not tested here
        outliers = [(part, m) for state, part, m in judged if state == "outlier"]
        head = f"{library.library} {library.version}, the same build on other boards: the per-cycle cost ratio is"
        if outliers and 2 * len(outliers) > len(judged):
            text = "; ".join(m for _, m in outliers)
            out.append((figure_id, Finding("library-ratio", "suspicious", (
                f"{head} an outlier against {len(outliers)} of {len(judged)} board(s): {text} {rule}: this row did not "
                "do the same relative work as the library's other rows (another code path, build option or "
                "measurement)"))))
        else:
            odd = (f"; an outlier only against {', '.join(p for p, _ in outliers)} (that board's row is the odd one)"
                   if outliers else "")
            inside = [m for state, _, m in judged if state == "inside"]
            out.append((figure_id, Finding("library-ratio", "consistent", (
                f"{head} within the library's usual ratio against {len(inside)} of {len(judged)} board(s): "
                f"{inside[0]} {rule}{odd}"))))
    return out
