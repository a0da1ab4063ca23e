"""Rule e (``emulator``): compare each published software figure with what the kernels need on
the figure's board, with the board's memory system; and the peripheral rule (``peripheral``) for
hardware figures. Pure: a function of the plan (:mod:`refbench.sanity.plan`) and the
measurements (:mod:`refbench.sanity.executor`).

For a software figure whose operation some kernel of the catalogue computes, every variant of
every such kernel ran on the figure's board at the published clock (the part maximum when the
page states a higher clock, which the board rule flags), at the library's benchmark workload
(:mod:`refbench.sanity.workloads`), in every memory configuration the board allows
(:mod:`refbench.sanity.memory_configs`), built at the figure's optimisation level. The
published cycles per byte (or per call) is compared with the range (fastest .. slowest over
variants x configurations), allowing ``SAME_WORK_TOLERANCE`` plus the figure's printed
resolution (for a figure built with a compiler we cannot run, each variant's allowance is the
larger of that and the variant's measured compiler spread, :mod:`refbench.sanity.compiler_band`):

* inside the range -> consistent; the nearest variant AND configuration explain it, with the
  residual ("aes/ttable1, ART+prefetch on, 4 WS @ 80 MHz (+3.2%)"); within the allowance a
  configuration a board is normally benchmarked in (caches and prefetch on) is preferred;
* faster than every variant in every configuration -> it needs hardware acceleration or
  hand-written assembly: explained if the page claims either, or if the library is closed
  (ST CMOX: "faster than our C variants", flagged only below the floor no code can beat,
  :mod:`refbench.sanity.code_bounds`); suspicious if not;
* the candidate variants are those the library ships (:mod:`refbench.sanity.libraries`), and
  the explanation names the library option ("wolfSSL GCM_SMALL (gcm/ghash_small), caches off");
* slower than every one -> suspicious, naming by how much and the closest configuration; unless
  the slow side is not bounded (the board's caches-off path is a lower bound,
  :func:`~refbench.sanity.memory_configs.slow_side_unbounded`, or the page's compiler is of a
  family we do not run): then explained, saying that only the fast side was tested.

Every message names the board, clock, wait states, build and the configurations measured.
Figures no kernel computes, hardware figures and figures on cores without a timing model get no
``emulator`` finding; their :class:`~refbench.sanity.emulation.Emulation` says why.
"""

from __future__ import annotations

from cortexm_emu.boards import Board
from refbench.measure import Measurement
from refbench.published.model import Figure
from refbench.published.normalise import normalise
from refbench.sanity.code_bounds import any_code_floor
from refbench.sanity.emulation import Emulation, VariantResult
from refbench.sanity.executor import MeasureJob
from refbench.sanity.memory_configs import DEFAULT_KINDS, slow_side_unbounded
from refbench.sanity.numbers import SAME_WORK_TOLERANCE, fmt, relative_resolution
from refbench.sanity.peripherals import judge_hardware
from refbench.sanity.plan import FigurePlan, Plan, Skipped
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


def _judge(p: FigurePlan, results: list[VariantResult]) -> Emulation:
    """Rule e's verdict on one emulated figure from its variants' results (see the module doc)."""
    f, target, board = p.figure, p.target, p.board
    unit = target.unit
    show = _whole if target.per_op else fmt
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
    build = kernel_build(f)[1]
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
    fastest, slowest = good[0], good[-1]
    allowance = SAME_WORK_TOLERANCE + relative_resolution(f)
    allow, allowance_note = _allowances(p, good, allowance)
    # Nearest variant x configuration; within the allowance, one in a configuration a board is
    # normally benchmarked in (caches and prefetch on, code in flash) is preferred.
    def error(r: VariantResult) -> float:
        return abs(published - rate[r]) / rate[r]

    kinds = {c.label: c.kind for c in p.configs}
    usual = [r for r in good if kinds.get(r.memory) in DEFAULT_KINDS and error(r) <= allow[r]]
    nearest = min(usual or good, key=error)
    residual = (published - rate[nearest]) / rate[nearest]
    spread = "; ".join(
        f"[{config.label}: " + ", ".join(f"{r.kernel}/{r.variant} {show(rate[r])}" for r in good
                                         if r.memory == config.label) + "]"
        for config in p.configs if any(r.memory == config.label for r in good))
    variants = len({(r.kernel, r.variant) for r in good})
    head = (f"published {show(published)} {unit}; emulated {show(lo)}..{show(hi)} {unit} over {variants} variant(s) x "
            f"{len(p.configs)} memory configuration(s) on {context}: {spread}")
    claims = _published_claims(f)
    verdict: Verdict
    if allowance_note:
        head += f"; {allowance_note}"
    # A measured compiler spread s says a build may be up to (1 + s) times faster or slower: the
    # lower edge is rate / (1 + s); the stated tolerance keeps its symmetric rate x (1 - t).
    low_edge = min(rate[r] / (1 + allow[r]) if allowance_note else rate[r] * (1 - allow[r]) for r in good)
    high_edge = max(rate[r] * (1 + allow[r]) for r in good)
    if low_edge <= published <= high_edge:
        position, chosen = "inside", nearest
        explanation = f"{nearest.name} ({residual:+.1%})"
        verdict = "consistent"
        message = f"{head}: inside the range; nearest {explanation}"
    elif published < lo:
        position, chosen = "faster", fastest
        residual = (published - lo) / lo
        if claims:
            verdict = "explained"
            explanation = (f"faster than every emulated software variant in every memory configuration ({residual:+.1%} "
                           f"against {fastest.name}): the page claims {' and '.join(claims)}")
        elif p.closed_library:
            verdict, explanation = _closed_library(p, published, allowance, residual, fastest.name)
        else:
            verdict = "suspicious"
            explanation = (f"faster than every emulated software variant in every memory configuration ({residual:+.1%} "
                           f"against {fastest.name}, the fastest of {variants} C variant(s) built with "
                           f"{KERNEL_COMPILER} -{target.opt}): requires hardware acceleration or hand-written "
                           "assembly (or C faster than these variants), and the page claims neither")
        message = f"{head}: {explanation}"
    else:
        position, chosen = "slower", slowest
        residual = (published - hi) / hi
        verdict, explanation = _slower(p, residual, slowest.name)
        message = f"{head}: {explanation}"
    failed = _failed_variants(results)
    if failed:
        # A variant that did not build or run can only widen the range: "inside" stands, but "faster
        # than every variant" or "slower than every variant" may be an artefact of the missing one.
        message += "; " + failed
        if verdict == "suspicious":
            verdict = "explained"
            explanation += f"; not judged suspicious: the range is incomplete ({failed})"
            message += ": not judged suspicious, the range is incomplete"
    return Emulation(f.id, "emulated", explanation, lo, hi, residual, memory=chosen.memory,
                     finding=Finding(RULE, verdict, message), position=position, **common)


def _slower(p: FigurePlan, residual: float, slowest: str) -> tuple[Verdict, str]:
    """A figure slower than every variant in every configuration: suspicious, unless the slow side
    is not bounded -- the board's caches-off path is a lower bound (:func:`slow_side_unbounded`),
    or the page's compiler is of a family we do not run (its code generation is not measured, so
    no spread of ours says how slow its code may be). Then only the fast side was tested: the
    figure is not faster than the library's C allows, and being slower is not evidence against the
    page (explained, with what was and was not tested)."""
    from refbench.sanity.compiler_band import foreign_family

    f = p.figure
    slower = f"slower than every variant in every memory configuration ({residual:+.1%}); the closest is {slowest}"
    unbounded = []
    memory = slow_side_unbounded(p.board) if isinstance(p.board, Board) else None
    if memory:
        unbounded.append(memory)
    if foreign_family(f.compiler):
        unbounded.append(f"the page's compiler ({f.compiler}, {f.options or 'options not stated'}) is of a family we "
                         "do not run: our zig clang and arm-none-eabi-gcc builds bound how fast its code can be "
                         "(the measured spread), not how slow")
    if not unbounded:
        return "suspicious", f"{slower}: no modelled configuration explains it"
    return "explained", (f"{slower}; the slow side is not bounded here: {'; and '.join(unbounded)}. Tested: the fast "
                         "side (the figure is not faster than the library's variants allow); not tested: how much "
                         "slower the unmodelled path or compiler can be, so a slower figure is not evidence against "
                         "the page")


def _allowances(p: FigurePlan, good: list[VariantResult], stated: float) -> tuple[dict[VariantResult, float], str]:
    """Each variant's allowance: ``stated`` (SAME_WORK_TOLERANCE plus the printed resolution) for a
    figure built with a compiler we run; for a foreign compiler (ARMCC, IAR, another GCC) the larger
    of SAME_WORK_TOLERANCE and the variant's measured compiler spread
    (:mod:`refbench.sanity.compiler_band`), plus the printed resolution; and the note saying so."""
    # Imported here so that `python -m refbench.sanity.compiler_band` (its generator) runs a module
    # the package has not imported yet.
    from refbench.sanity.compiler_band import BAND_LEVELS, band, band_levels, foreign_compiler

    f = p.figure
    if not foreign_compiler(f.compiler):
        return {r: stated for r in good}, ""
    level = band_levels(f.compiler, f.options)
    resolution = relative_resolution(f)
    out: dict[VariantResult, float] = {}
    measured: dict[str, str] = {}
    for r in good:
        b = band(p.board.core, r.kernel, r.variant, r.operation, level)
        out[r] = (max(SAME_WORK_TOLERANCE, b.spread) if b else SAME_WORK_TOLERANCE) + resolution
        if b:
            measured.setdefault(f"{r.kernel}/{r.variant}", b.describe())
    if not measured:
        return out, (f"compiler allowance: {f.compiler} is not run here and no spread is measured for these "
                     f"variants on {p.board.core}: the stated {SAME_WORK_TOLERANCE:.0%}")
    levels = (" and ".join(f"-{x}" for x in level) if level != BAND_LEVELS else "-Os, -O2 and -O3 (level not stated)")
    if "Os" in level and len(level) > 1 and level != BAND_LEVELS:
        levels += f" ({f.compiler} optimises for size unless -Otime is given: -Ospace is its default, Arm DUI 0375)"
    spreads = "; ".join(f"{name} {text}" for name, text in measured.items())
    return out, (f"compiler allowance: {f.compiler} is not run here, so each variant is allowed the larger of "
                 f"{SAME_WORK_TOLERANCE:.0%} and the spread measured between zig clang and arm-none-eabi-gcc at "
                 f"{levels} on {p.board.core}: {spreads}")


def _closed_library(p: FigurePlan, published: float, allowance: float, residual: float,
                    fastest: str) -> tuple[Verdict, str]:
    """A closed library (its code is not public, e.g. ST CMOX) faster than every C variant: not a
    fault, since hand-written code may beat C; flagged only below the floor no code can beat
    (:mod:`refbench.sanity.code_bounds`), when one is derived for the operation."""
    f, target = p.figure, p.target
    unit = target.unit
    faster = (f"faster than our C variants ({residual:+.1%} against {fastest}); {f.library} is a closed library "
              f"(precompiled, code not public), so C variants do not bound it; the page: {f.compiler}, "
              f"{f.options or 'options not stated'}")
    floor = any_code_floor(target.reference, target.key_bytes, p.board.core, target.size, target.per_op)
    if floor is None:
        return "explained", f"{faster}; no floor that holds for any code is derived for {target.reference}"
    bound, derivation = floor
    if published < bound * (1 - allowance):
        return "suspicious", (f"{faster}, but below the floor no code can beat: {derivation} (published "
                              f"{fmt(published)} {unit} is {published / bound:.2f}x of it)")
    return "explained", f"{faster}; above the floor no code can beat ({derivation})"


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
    """Rule e's view of every figure of ``plan``, by figure id, from the measurements of its jobs."""
    out: dict[str, Emulation] = {}
    for p in plan.figures:
        if isinstance(p, FigurePlan):
            out[p.figure.id] = _judge(p, _variant_results(p, measured))
        elif isinstance(p, PubkeyPlan):
            out[p.figure.id] = judge_pubkey(p, measured)
        elif p.status == "hardware":
            out[p.figure.id] = _hardware(p)
        else:
            out[p.figure.id] = Emulation(p.figure.id, p.status, p.explanation)
    return out
