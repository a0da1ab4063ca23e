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

Public-key figures (:func:`pubkey_prediction`) are predicted the same way from the composed cost of
the recipes and bignum variants the build model says ran (:func:`refbench.sanity.builds.pubkey_path`),
with the composition bound on both sides.

Every message names the board, clock, build, the prediction, the band and each of its terms.
Figures no kernel computes, hardware figures and figures on cores without a timing model get no
``emulator`` finding; their :class:`~refbench.sanity.emulation.Emulation` says why.
"""

from __future__ import annotations

import math
from dataclasses import replace

from cortexm_emu.boards import Board
from refbench.measure import Measurement
from refbench.published.model import Figure
from refbench.published.normalise import normalise
from refbench.sanity.builds import build_of, pubkey_path
from refbench.sanity.code_bounds import any_code_floor
from refbench.sanity.emulation import Emulation, VariantResult
from refbench.sanity.executor import MeasureJob
from refbench.sanity.memory_configs import slow_side_unbounded
from refbench.sanity.numbers import fmt, relative_resolution
from refbench.sanity.peripherals import judge_hardware
from refbench.sanity.plan import FigurePlan, Plan, Skipped
from refbench.sanity.prediction import (
    Hypothesis,
    Prediction,
    Term,
    choose_memory,
    compiler_term,
    describe_band,
    model_error_term,
    predict,
    product,
    resolution_term,
    run_to_run_term,
)
from refbench.sanity.pubkey_cost import CALL, TABLE_READ_OPS
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
            out[p.figure.id] = pubkey_prediction(p, judge_pubkey(p, measured))
        elif p.status == "hardware":
            out[p.figure.id] = _hardware(p)
        else:
            out[p.figure.id] = Emulation(p.figure.id, p.status, p.explanation)
    return section_shift(plan, out)


def sampling_term(f: Figure, recipes: tuple[str, ...], bits: int) -> Term:
    """The benchmark's sampling: the page averages N operations with random secrets ("N ops took
    T sec", the figure's ``ops``); a method whose work depends on the secret varies with its
    count of point additions. Bound: 3 standard deviations of the average of N, taking the
    whole cost as varying like the additions' count (binomial digits, non-zero with probability
    q: binary double-and-add 1/2, bitwise Shamir 3/4, width-w NAF or signed sliding window 1/(w+1), HMV Guide to ECC
    Theorem 3.29), relative sd sqrt((1 - q) / (q bits)). Fixed windows, combs, ladders and the
    public exponent do the same work for every secret: x1."""
    odds = []  # the probability of a non-zero digit of each secret-dependent method among the recipes
    for name in recipes:
        if "wNAF" in name:
            odds.append(1 / (int(name.split("interleaved ")[1].split("-bit")[0]) + 1))
        elif "-bit sliding-window" in name:  # signed odd digits, as dense as a NAF of that width
            odds.append(1 / (int(name.split("-bit sliding-window")[0].split()[-1]) + 1))
        elif "Shamir" in name:
            odds.append(0.75)
        elif "double-and-add" in name:
            odds.append(0.5)
    q = min(odds, default=0.0)  # the sparsest digits vary the most relative to their count
    ops = f.aux_value("ops")
    n = int(ops.value) if ops is not None and ops.value >= 1 else 1
    if not q or not bits:
        return Term("sampling", 1.0, 1.0, "the build's method does the same work for every secret (fixed window, "
                    "comb, ladder or public exponent)")
    spread = 3 * math.sqrt((1 - q) / (q * bits)) / math.sqrt(n)
    said = f"N = {n} operations averaged (the page's ops count)" if ops is not None else "one operation (no ops count)"
    return Term("sampling", 1 / (1 + spread), 1 + spread,
                f"{spread:.2%}: 3 sd of the average of random secrets, non-zero digits with probability {q:.2f} "
                f"over {bits} bits, {said}")


#: The operations each assembly variant of the bignum kernels writes in hand-written assembly
#: (refbench/kernels/bignum/kernel.toml [variants.umaal_asm], [variants.umaal_asm_ladder], [variants.umull_asm],
#: [variants.umull_umaal_asm]
#: and [variants.m0_asm] ``trades``; [variants.m0_kara] and [variants.m0_kara_loop]: their Montgomery products are
#: Karatsuba in C over an assembly base, as wolfSSL's sp_armthumb.c without WOLFSSL_SP_SMALL is): a page whose math
#: option is hand-written assembly is modelled by these, and by no C variant.
ASM_COVERS = {"umaal_asm": ("25519-", "p256-", "mont-"), "umaal_asm_ladder": ("25519-", "p256-", "mont-", "x25519"),
              "umull_asm": ("mont-mul", "mont-sqr"), "umull_umaal_asm": ("mont-mul", "mont-sqr"),
              "umull_asm_bytecopy": ("mont-mul", "mont-sqr"),
              "m0_asm": ("25519-", "p256-mul", "p256-sqr", "p256-mont-mul", "p256-mont-sqr", "p256-add", "p256-sub",
                         "mont-mul", "mont-sqr"),
              **dict.fromkeys(("m0_kara", "m0_kara_loop"), ("25519-", "p256-mul", "p256-sqr", "mont-mul", "mont-sqr"))}


def _assembly_modelled(r: VariantResult, main: str) -> bool:
    return any(main.startswith(op) for op in ASM_COVERS.get(r.variant, ()))


def pubkey_prediction(p: PubkeyPlan, e: Emulation) -> Emulation:
    """A public-key figure's prediction: the composed cost of the recipes and kernel variants the
    build model says ran (:func:`refbench.sanity.builds.pubkey_path`) in the build's memory
    configuration -- their geometric middle, a ``build spread`` term spanning what the build model
    leaves open -- with the composition bound (both ways: composition is measured against whole
    operations, :mod:`refbench.sanity.pubkey_whole`), the compiler spread of the bignum kernels,
    the core model's error, the printed resolution, the run-to-run term and the benchmark's sampling.
    A closed library is not predicted from above (the slow side is untested) and its fast side is
    the floor no code can beat; where pubkey_costs.toml [[libraries]] names the variants of the
    library's own shape (``predict``), the prediction is made from those and the others stay
    candidates (:func:`refbench.sanity.pubkey_cost.predicted_variants`); a page's hardware claim keeps
    the public-key rule's finding with both sides untested. A candidate measured whole (a variant's
    kernel.toml ``whole``, :func:`refbench.sanity.pubkey_plan.measured_whole`) has no composition
    term: when every chosen candidate is one, the band is compiler spread, core model error and the
    figure's own terms. Verdicts: :func:`verdict_of`."""
    if e.status != "emulated" or e.published is None or e.finding is None:
        return e
    from refbench.sanity.compiler_band import band_levels
    from refbench.sanity.pubkey_cost import load_costs, predicted_variants
    from refbench.sanity.pubkey_plan import (
        _claims,
        _not_bounded_by_candidates,
        composition_bound,
        measured_whole,
    )
    from refbench.sanity.pubkey_plan import any_code_floor as pubkey_floor
    from refbench.sanity.pubkey_whole import COMPOSITION_BOUND, COMPOSITION_DERIVATION

    f = p.figure
    good = [r for r in e.variants if r.rate is not None]
    kinds = {c.label: c.kind for c in p.configs}
    build_model = build_of(f)
    claims = _claims(f)
    own_shape, own_shape_why = predicted_variants(f)
    picked = tuple(v for v in p.variants if v in own_shape) or p.variants
    path = pubkey_path(build_model, tuple(r.name for r in p.recipes), picked,
                       "" if claims else _not_bounded_by_candidates(f))
    if picked != p.variants:
        path = replace(path, source=f"{path.source}; predicted with {', '.join(picked)}, the library's own shape, "
                       f"the other variants candidates (pubkey_costs.toml [[libraries]] predict: {own_shape_why})")
    labels, memory_words = choose_memory(build_model.memory(p.board.name), kinds)
    chosen = [r for r in good if r.memory in labels and r.operation in path.recipes and r.variant in path.variants]
    chosen = chosen or [r for r in good if r.memory in labels] or good
    work = {r.name: r for r in p.recipes}

    def main_op(r: VariantResult) -> str:
        recipe = work.get(r.operation)
        # the caller's side of each call ([pricing] call) and the selects of table reads are no arithmetic:
        # the most-called field operation is; a whole operation measured whole is itself
        steps = (recipe.whole if measured_whole(r) else recipe.work) if recipe else ()
        calls = [w for w in steps if w[0] != CALL and w[0] not in TABLE_READ_OPS]
        return max(calls, key=lambda w: w[2])[0] if calls else r.operation

    assembly = claims.startswith("hand-written")
    if assembly and any(_assembly_modelled(r, main_op(r)) for r in chosen):
        chosen = [r for r in chosen if _assembly_modelled(r, main_op(r))]  # the page's assembly is what ran
    c_for_assembly = assembly and not any(_assembly_modelled(r, main_op(r)) for r in chosen)
    rate = {r: float(r.cycles or 0) for r in good}
    lo, hi = min(rate[r] for r in chosen), max(rate[r] for r in chosen)
    predicted = math.sqrt(lo * hi)
    resolution = relative_resolution(f)
    if composition_bound(chosen):
        compose = Term("composition", 1 / (1 + COMPOSITION_BOUND), 1 + COMPOSITION_BOUND,
                       f"{COMPOSITION_BOUND:.1%}: {COMPOSITION_DERIVATION}")
    else:
        compose = Term("composition", 1.0, 1.0, "none: the whole operation's cycles are emulated whole "
                       f"({', '.join(sorted({r.variant for r in chosen}))}, kernel.toml whole), not composed")
    compilers = []
    for r in chosen:
        compilers.append(compiler_term(p.board.core, replace(r, operation=main_op(r)), band_levels(f.compiler, f.options),
                                       f"{KERNEL_COMPILER} -{p.opt}", f.compiler))
    compiler = Term("compiler", min(t.low for t in compilers), max(t.high for t in compilers),
                    "; ".join(dict.fromkeys(t.source for t in compilers)))
    fields = load_costs()["fields"]
    bits = f.key_bits or next((8 * spec["bytes"] for name, spec in fields.items() if name == (f.curve or "")), 256)
    names = tuple(dict.fromkeys((r.kernel, r.variant, main_op(r)) for r in chosen))
    terms: tuple[Term, ...] = (compose, compiler, model_error_term(p.board.core, names), resolution_term(resolution),
                               run_to_run_term(), sampling_term(f, tuple(r.operation for r in chosen), bits))
    if hi > lo * (1 + 1e-9):
        what = []
        recipes_left = sorted({r.operation for r in chosen})
        variants_left = sorted({r.variant for r in chosen})
        places = sorted({r.memory for r in chosen})
        if len(recipes_left) > 1:
            what.append(f"recipes the build model does not tell apart: {'; '.join(recipes_left)}")
        if len(variants_left) > 1:
            what.append(f"kernel variants the page's math option allows: {', '.join(variants_left)}")
        if len(places) > 1:
            what.append(f"configurations the statements do not tell apart: {'; '.join(places)}")
        terms = (Term("build spread", lo / predicted, hi / predicted, "; ".join(what)), *terms)
    low_f, high_f = product(terms)
    band_low: float | None = predicted * low_f
    band_high: float | None = predicted * high_f
    open_low, open_high, floor_note = "", path.open_slow, ""
    if path.open_slow:
        band_high = None
    lower = [r for r in good if r.variant in path.lower_variants and r.operation in path.recipes and r.memory in labels]
    if c_for_assembly and lower and not path.open_fast:
        # the page's assembly is not among the kernels, but a variant that does each product's work in
        # fewer instructions bounds it from below (builds.toml [[pubkey]] mont_lower_variants)
        bound = min(rate[r] for r in lower)
        band_low = bound * product(tuple(t for t in terms if t.name != "build spread"))[0]
        floor_note = (f"the page's math is {claims} and no kernel of its instructions runs; the fast side is "
                      f"bounded by {', '.join(sorted({r.variant for r in lower}))} ({bound:,.0f} cycles), which "
                      "does each product's work in fewer instructions (builds.toml [[pubkey]] mont_lower_variants)")
    elif path.open_fast or c_for_assembly:
        # no faithful kernel: a closed library (both sides), or the page's
        # hand-written assembly where only C kernels of the operation run (the fast side)
        bound, derivation = pubkey_floor(p)
        why = path.open_fast or (f"the page's math is {claims} and no assembly kernel of this operation runs "
                                 f"(bignum variants {', '.join(sorted({r.variant for r in chosen}))} are C here)")
        band_low, floor_note = bound / (1 + resolution), f"{why}; the floor no code can beat: {derivation}"
    hypotheses = []
    for r in good:
        if r in chosen:
            continue
        same = r.operation in path.recipes and r.variant in path.variants
        label = f"{r.variant}, {r.operation}, {r.memory}" if not same else f"{kinds.get(r.memory, r.memory)} ({r.memory})"
        h_low, h_high = product(tuple(t for t in terms if t.name != "build spread"))
        hypotheses.append(Hypothesis(label, kinds.get(r.memory, "") if same else "code path", rate[r],
                                     e.published / rate[r], rate[r] * h_low <= e.published <= rate[r] * h_high,
                                     r.variant, r.memory))
    hypotheses.sort(key=lambda h: abs(math.log(h.ratio)))
    envelope = product(tuple(t for t in terms if t.name != "build spread"))
    env_low = band_low if floor_note and not (c_for_assembly and lower) else min(rate.values()) * envelope[0]
    env_high = None if band_high is None else max(rate.values()) * envelope[1]
    basis = (f"the composed cost of {', '.join(sorted({r.operation for r in chosen}))} with "
             f"{', '.join(sorted({r.variant for r in chosen}))} ({path.source}); memory: {memory_words}; "
             f"composed {lo:,.0f}" + (f"..{hi:,.0f}" if hi > lo * (1 + 1e-9) else "") + " cycles")
    prediction = Prediction(predicted, band_low, band_high, e.published, basis, terms, tuple(hypotheses), open_low,
                            open_high, env_low, env_high, floor_note, "cycles",
                            (f"public-key variants: {', '.join(p.variants)} ({p.variants_why})", path.source),
                            memory_words, tuple(dict.fromkeys(r.memory for r in chosen)))
    if claims.startswith(("hardware", "the section's PKA")):
        prediction = replace(prediction, band_low=None, band_high=None, open_low=f"the page claims {claims}",
                             open_high=f"the page claims {claims}", envelope_low=None, envelope_high=None)
        message = f"{e.finding.message}; {describe_band(prediction)}: both sides untested (the page's claim)"
        return replace(e, prediction=prediction, finding=replace(e.finding, message=message, tests="bound"))
    verdict, explanation, tests, position = verdict_of(prediction)
    head = e.finding.message.split(": inside the range")[0].split(": faster than")[0].split(": slower than")[0]
    message = f"{explanation}; {head}; {describe_band(prediction)}"
    return replace(e, explanation=explanation, residual=prediction.ratio - 1, position=position,
                   memory=chosen[0].memory, prediction=prediction, finding=Finding(RULE, verdict, message, tests=tests))


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
