"""The emulator rule (``emulator``): a prediction per published software figure, and the peripheral rule
(``peripheral``) for hardware figures. Pure: a function of the plan (:mod:`refbench.sanity.plan`)
and the measurements (:mod:`refbench.sanity.executor`).

For a software figure whose operation some kernel of the catalogue computes, every variant the
library ships ran on the figure's board at the published clock (the part maximum when the page
states a higher clock, which the board rule flags), at the library's benchmark workload
(:mod:`refbench.sanity.workloads`), in every memory configuration the board allows
(:mod:`refbench.sanity.memory_configs`), built at the figure's optimisation level. Of those
points, the build model (:mod:`refbench.sanity.builds`) picks the one build that ran -- the code
path of each algorithm and the memory configuration the page or the vendor start-up code sets --
and :mod:`refbench.sanity.prediction` turns it into a prediction with a band derived from stated
terms (measured compiler spread, core model error, printed resolution, run-to-run variation).

* inside the band -> consistent;
* outside -> suspicious, with the factor; inconsistent beyond every allowed configuration x code
  path x compiler (the bound used is named);
* every other configuration and code path is a hypothesis with its ratio ("would fit cache off:
  0.97x"), never the verdict by itself (a whole section shifting to one hypothesis is evidence:
  :func:`section_shift`);
* a side no rule bounds (a closed library's code, a claimed assembly path, a caches-off path the
  board profile marks as a lower bound) leaves a figure on that side untested (its finding tests
  only a ``bound``), never explained.

Every message names the board, clock, build, the prediction, the band and each of its terms.
Figures no kernel computes, hardware figures and figures on cores without a timing model get no
``emulator`` finding; their :class:`~refbench.sanity.emulation.Emulation` says why.
"""

from __future__ import annotations

from dataclasses import replace

from cortexm_emu.boards import Board
from refbench.measure import Measurement
from refbench.published.model import Figure
from refbench.published.normalise import normalise
from refbench.sanity.builds import build_of
from refbench.sanity.code_bounds import any_code_floor
from refbench.sanity.emulation import Emulation, VariantResult
from refbench.sanity.executor import MeasureJob
from refbench.sanity.memory_configs import slow_side_unbounded
from refbench.sanity.numbers import fmt, relative_resolution
from refbench.sanity.peripherals import judge_hardware
from refbench.sanity.plan import FigurePlan, Plan, Skipped
from refbench.sanity.prediction import (
    Prediction,
    Term,
    choose_memory,
    describe_band,
    model_error_term,
    predict,
    product,
    resolution_term,
    run_to_run_term,
)
from refbench.sanity.pubkey_plan import PubkeyPlan, judge_pubkey
from refbench.sanity.verdicts import Finding, Verdict
from refbench.sanity.workloads import KERNEL_COMPILER, kernel_build

RULE = "emulator"


def _published_claims(f: Figure) -> list[str]:
    claims = []
    if f.implementation == "hardware" or f.hw:
        claims.append(f"hardware ({', '.join(f.hw) or 'stated'})")
    if f.asm and not f.asm.lower().startswith("none"):
        claims.append(f"assembly ({f.asm})")
    return claims


def _whole(x: float) -> str:
    return f"{x:,.0f}"


def _judge(p: FigurePlan, results: list[VariantResult], published: float | None = None) -> Emulation:
    """The emulator rule's verdict on one emulated figure from its variants' results (see the module doc);
    ``published``: judge this value instead of the figure's (the mutation test's scaled copies)."""
    f, target, board = p.figure, p.target, p.board
    unit = target.unit
    show = _whole if target.per_op else fmt
    if published is None:
        normalised = normalise(f)
        published = normalised.cycles_per_op if target.per_op else normalised.cycles_per_byte
    assert published is not None
    good = sorted((r for r in results if r.rate is not None), key=lambda r: r.rate or 0.0)
    chunks = ""
    if target.chunk and target.chunk < target.size:
        streamed = any(len(p.calls(k, v, o)) > 1 for k, v, o in p.operations)
        chunks = (f" in {target.chunk}-byte chunks" if streamed else
                  f" as one call (the page: {target.chunk}-byte chunks; this kernel keeps no state between calls, "
                  "so the per-chunk overhead is not modelled)")
    opt, build = kernel_build(f)
    context = f"{board.part} ({board.core}, {build}) at {target.size} B{chunks}"
    notes = [n for n in (p.clock_note, *target.notes) if n]
    if notes:
        context += "; " + "; ".join(notes)
    common = dict(published=published, size=target.size, core=board.core, variants=tuple(results),
                  notes=tuple(notes), board=board.name, clock_mhz=p.clock_mhz, configs=p.configs, unit=unit,
                  build=build)
    if not good:
        problems = "; ".join(dict.fromkeys(f"{r.kernel}/{r.variant}: {r.problem}" for r in results))
        return Emulation(f.id, "not emulated yet", f"not emulated yet: no variant verified ({problems})", **common)
    rate = {r: float(r.rate or 0.0) for r in good}
    lo, hi = rate[good[0]], rate[good[-1]]
    from refbench.sanity.compiler_band import band_levels

    kinds = {c.label: c.kind for c in p.configs}
    resolution = relative_resolution(f)
    floor = any_code_floor(target.reference, target.key_bytes, board.core, target.size, target.per_op)
    lower_bound = slow_side_unbounded(board) if isinstance(board, Board) else None
    build_model = p.build or build_of(f)
    prediction = predict(build_model, board.name, board.core, good, published, kinds,
                         band_levels(f.compiler, f.options), f"{KERNEL_COMPILER} -{opt}", resolution, lower_bound,
                         floor, unit, p.stated_machine)
    variants = len({(r.kernel, r.variant) for r in good})
    head = (f"published {show(published)} {unit} on {context}; emulated {show(lo)}..{show(hi)} {unit} over "
            f"{variants} variant(s) x {len(p.configs)} memory configuration(s)")
    if prediction is None:
        return Emulation(f.id, "not emulated yet", "not emulated yet: no emulated point matches the build", lo, hi,
                         **common)
    verdict, explanation, tests, position = verdict_of(prediction, _published_claims(f))
    message = f"{explanation}; {head}; {describe_band(prediction)}"
    failed = _failed_variants(results)
    if failed:
        # A variant that did not build or run leaves the envelope incomplete: "beyond every allowed
        # configuration x code path" may be an artefact of the missing one.
        message += "; " + failed
        if verdict == "inconsistent":
            verdict = "suspicious"
            explanation += f"; not judged inconsistent: the envelope is incomplete ({failed})"
            message += ": not judged inconsistent, the envelope is incomplete"
    chosen_memory = prediction.memory_labels[0] if prediction.memory_labels else ""
    return Emulation(f.id, "emulated", explanation, lo, hi, prediction.ratio - 1, memory=chosen_memory,
                     finding=Finding(RULE, verdict, message, tests=tests), position=position,
                     prediction=prediction, **common)


def verdict_of(p: Prediction, claims: list[str] = ()) -> tuple[Verdict, str, str, str]:
    """(verdict, explanation, what the finding tested, position) of a prediction: inside the band
    consistent; outside suspicious with the factor, inconsistent beyond what any allowed
    configuration, code path and compiler gets (the envelope); a side no rule bounds leaves a
    figure on it untested (``tests="bound"``). Hypotheses are listed, never the verdict."""
    where = p.position()
    ratio = p.ratio
    fitting = p.fitting()
    nearest = p.nearest()
    hyp = ""
    if fitting:
        hyp = "; would fit " + "; ".join(h.describe() for h in fitting[:3])
    if nearest is not None and where != "inside":  # inside the band the prediction is the answer
        hyp += f"; nearest other configuration or code path: {nearest.describe()}"
    if where == "inside":
        if p.open_low or p.open_high:
            side = "fast" if p.open_low else "slow"
            held = "slow" if side == "fast" else "fast"
            on_open = (p.open_low and p.published <= p.predicted) or (p.open_high and p.published >= p.predicted)
            if on_open or (p.open_low and p.open_high):
                return ("consistent", f"{ratio:.2f}x the prediction, on its {side} side, which no rule bounds "
                        f"({p.open_low or p.open_high}); the {held} edge holds{hyp}", "bound", "inside")
            return ("consistent", f"{ratio:.2f}x the prediction, inside the band on the tested side ({held} edge "
                    f"holds; the {side} side is untested){hyp}", "bound", "inside")
        return "consistent", f"inside the band: {ratio:.2f}x the prediction{hyp}", "value", "inside"
    if where == "below":
        assert p.band_low is not None
        factor = p.band_low / p.published
        beyond = p.envelope_low is not None and p.published < p.envelope_low
        what = (f"{ratio:.2f}x the prediction, {factor:.2f}x faster than the band's fast edge"
                + (f" ({p.floor_note})" if p.floor_note else ""))
        if claims and not p.floor_note:
            return ("suspicious", f"{what}: the page claims {' and '.join(claims)}, which the build model does not "
                    f"cover for this algorithm{hyp}", "value", "faster")
        if beyond:
            bound = (f"bound used: {_fmtv(p.envelope_low)} {p.unit}, the floor no code can beat" if p.floor_note else
                     f"bound used: {_fmtv(p.envelope_low)} {p.unit}, the fastest emulated point with its compiler, "
                     "model, resolution and run-to-run terms")
            return ("inconsistent", f"{what}, and faster than every allowed configuration x code path x compiler "
                    f"({bound}){hyp}", "value", "faster")
        return "suspicious", f"{what}{hyp}", "value", "faster"
    assert p.band_high is not None
    factor = p.published / p.band_high
    what = f"{ratio:.2f}x the prediction, {factor:.2f}x slower than the band's slow edge"
    if p.envelope_high is not None and p.published > p.envelope_high:
        return ("inconsistent", f"{what}, and slower than every allowed configuration x code path x compiler (bound "
                f"used: {_fmtv(p.envelope_high)} {p.unit}, the slowest emulated point with its terms){hyp}", "value",
                "slower")
    return "suspicious", f"{what}{hyp}", "value", "slower"


def _fmtv(x: float | None) -> str:
    return "-" if x is None else (f"{x:,.0f}" if x >= 1000 else fmt(x))


def _failed_variants(results: list[VariantResult]) -> str:
    """"variant K/V failed: <error>" for every variant that failed to build, run or verify in some
    configuration (a size or core it does not apply to is not a failure), or ""."""
    failed: dict[str, str] = {}
    for r in results:
        if not r.verified and r.problem and not r.problem.startswith("not applicable"):
            failed.setdefault(f"{r.kernel}/{r.variant}", r.problem)
    return "; ".join(f"variant {name} failed: {problem}" for name, problem in failed.items())


def _hardware(s: Skipped) -> Emulation:
    """A hardware figure: no kernel runs; the peripheral rule compares it with the documented
    processing time of the peripheral (:mod:`refbench.sanity.peripherals`) where there is one."""
    judgement = judge_hardware(s.figure, s.profile)
    what = "hardware-accelerated figure: " + (f"against the {judgement.peripheral} processing time"
                                               if judgement.modelled else "peripheral throughput")
    return Emulation(s.figure.id, "hardware", f"{what}: {judgement.explanation}", finding=judgement.finding,
                     hardware=judgement)


def _variant_results(p: FigurePlan, measured: dict[MeasureJob, Measurement]) -> list[VariantResult]:
    """Each variant's cycles in each configuration, summed over the figure's calls."""
    results = []
    for kernel, variant, operation in p.operations:
        calls = p.calls(kernel, variant, operation)
        for config in p.configs:
            parts_of = [measured[MeasureJob(config, p.target.opt, job)] for job in calls]
            problem = "; ".join(m.error or m.mismatch for m in parts_of if not m.verified)
            ok = all(m.verified and m.cycles is not None for m in parts_of)
            cycles = sum(m.cycles for m in parts_of) if ok else None  # type: ignore[misc]
            stalls = sum(m.memory_cycles or 0 for m in parts_of) if ok else None
            results.append(VariantResult(kernel, variant, operation, cycles,
                                         cycles / p.target.size if cycles is not None and p.target.size else None,
                                         ok, problem, config.label, stalls, p.target.per_op,
                                         p.option(kernel, variant)))
    return results


def emulations(plan: Plan, measured: dict[MeasureJob, Measurement]) -> dict[str, Emulation]:
    """The emulator rule's view of every figure of ``plan``, by figure id, from the measurements of its jobs
    (then :func:`section_shift` over the sections)."""
    out: dict[str, Emulation] = {}
    for p in plan.figures:
        if isinstance(p, FigurePlan):
            out[p.figure.id] = _judge(p, _variant_results(p, measured))
        elif isinstance(p, PubkeyPlan):
            out[p.figure.id] = one_sided_pubkey(p, judge_pubkey(p, measured))
        elif p.status == "hardware":
            out[p.figure.id] = _hardware(p)
        else:
            out[p.figure.id] = Emulation(p.figure.id, p.status, p.explanation)
    return section_shift(plan, out)


def one_sided_pubkey(p: PubkeyPlan, e: Emulation) -> Emulation:
    """A public-key figure's emulation with its prediction: the composed candidates are lower
    bounds of the arithmetic (:mod:`refbench.sanity.pubkey_plan`), so the band has a fast edge
    (the fastest candidate in the build's memory configuration, with the compiler, model,
    resolution, run-to-run and composition terms) and no slow edge. A figure faster than the
    candidates keeps the public-key rule's finding; any other is untested on the slow side (its
    finding tests only the bound), never explained."""
    if e.status != "emulated" or e.published is None or e.finding is None:
        return e
    from refbench.sanity.pubkey_whole import COMPOSITION_BOUND, COMPOSITION_DERIVATION

    f = p.figure
    good = [r for r in e.variants if r.rate is not None]
    kinds = {c.label: c.kind for c in p.configs}
    build_model = build_of(f)
    labels, memory_words = choose_memory(build_model.memory(p.board.name), kinds)
    chosen = [r for r in good if r.memory in labels] or good
    predicted = min(float(r.cycles or 0) for r in chosen)
    resolution = relative_resolution(f)
    compose = Term("composition", 1 / (1 + COMPOSITION_BOUND), 1.0, f"{COMPOSITION_BOUND:.1%}: {COMPOSITION_DERIVATION}")
    terms = (compose, model_error_term(p.board.core), resolution_term(resolution), run_to_run_term())
    low, _ = product(terms)
    band_low = predicted * low
    open_high = ("the composed candidates are lower bounds of the arithmetic, not models of the library's own "
                 "bignum code: no upper bound is modelled")
    variants = sorted({r.variant for r in chosen})
    prediction = Prediction(predicted, band_low, None, e.published,
                            f"the fastest composed candidate ({', '.join(variants)}) in memory: {memory_words}",
                            terms, (), "", open_high, e.emulated_min, None, "", "cycles",
                            (f"public-key variants: {', '.join(p.variants)} ({p.variants_why})",), memory_words)
    if e.position == "faster" and e.finding.verdict in ("suspicious", "inconsistent"):
        message = f"{e.finding.message}; {describe_band(prediction)}"
        return replace(e, prediction=prediction, finding=replace(e.finding, message=message))
    if e.position == "faster":  # explained by the page's claim (hardware, assembly): the fast side is open
        prediction = replace(prediction, band_low=None, open_low=e.explanation, envelope_low=None)
        message = (f"{e.finding.message}; {describe_band(prediction)}: both sides untested (the page's claim "
                   "leaves the fast side to the floor, the slow side is not modelled)")
        return replace(e, prediction=prediction, finding=Finding(RULE, "consistent", message, tests="bound"))
    message = (f"{e.finding.message.split(': inside the range')[0]}; {describe_band(prediction)}: "
               f"{prediction.ratio:.2f}x the fast edge's prediction, not faster than the candidates allow; the slow "
               "side is untested")
    return replace(e, prediction=prediction, finding=Finding(RULE, "consistent", message, tests="bound"))


#: A section is examined for a common shift from this many predicted figures (as the section-clock rule) ...
SHIFT_MIN_FIGURES = 5
#: ... and a hypothesis explains its flagged figures when it fits more than this share of them all.
SHIFT_MIN_SHARE = 0.5


def section_shift(plan: Plan, out: dict[str, Emulation]) -> dict[str, Emulation]:
    """Evidence beyond one figure: when a section (one table of one page: one board, one build)
    with at least SHIFT_MIN_FIGURES predictions has a memory configuration kind that
    fits more than SHIFT_MIN_SHARE of them, each suspicious figure that this kind fits is
    ``explained`` by it, naming the evidence -- unless the page states its memory configuration
    (then the page and its figures disagree, and the finding stays suspicious, saying so)."""
    sections: dict[tuple[str, str], list[FigurePlan]] = {}
    for p in plan.figures:
        if isinstance(p, FigurePlan):
            e = out.get(p.figure.id)
            if e is not None and e.prediction is not None:
                sections.setdefault((p.figure.source, p.figure.section), []).append(p)
    for members in sections.values():
        if len(members) < SHIFT_MIN_FIGURES:
            continue
        fits: dict[str, set[str]] = {}
        for p in members:
            prediction = out[p.figure.id].prediction
            assert prediction is not None
            for h in prediction.hypotheses:
                if h.fits and h.kind != "code path":
                    fits.setdefault(h.kind, set()).add(p.figure.id)
        for kind, ids in sorted(fits.items(), key=lambda item: -len(item[1])):
            if len(ids) <= SHIFT_MIN_SHARE * len(members):
                continue
            for p in members:
                e = out[p.figure.id]
                if p.figure.id not in ids or e.finding is None or e.finding.verdict != "suspicious":
                    continue
                choice = (p.build or build_of(p.figure)).memory(p.board.name)
                evidence = (f"the whole section shifts together: {len(ids)} of its {len(members)} predicted figures "
                            f"fit '{kind}'")
                if choice is not None and choice.stated:
                    message = f"{e.finding.message}; {evidence}, but the page states {choice.describe()}"
                    out[p.figure.id] = replace(e, finding=replace(e.finding, message=message))
                    continue
                memory = choice.describe() if choice else "none recorded"
                message = f"explained: {evidence} (the build model's memory: {memory}); {e.finding.message}"
                out[p.figure.id] = replace(e, finding=Finding(RULE, "explained", message),
                                           explanation=f"{e.explanation}; {evidence}")
            break
    return out
