"""Rule e for public-key figures: plan the field/bignum kernel calls, and judge by composition.

A public-key figure (ECDSA, ECDH, EdDSA, X25519/X448, SM2, RSA, DH, DSA) is compared per
operation: its published time at its clock in cycles against the **composed** cycles of every
candidate (kernel variant the library ships x recipe x memory configuration of the board),
where a recipe (:mod:`refbench.sanity.pubkey_cost`) is the arithmetic and the scalar
multiplication or exponentiation method, and composition is counted operations x the emulated
cycles of one field/bignum kernel call of that variant, on the figure's board, at its clock, in
that configuration; a variant that computes the operation whole (kernel.toml ``whole``: the X25519
ladder in assembly) is a candidate by that operation's own emulated cycles, with no composition
bound (:func:`measured_whole`). The measurements are ordinary measure jobs
(:class:`refbench.sanity.executor.MeasureJob`) so they go through the same cache and executor.

:func:`plan_pubkey` gives a :class:`PubkeyPlan` or the reason no kernel runs; :func:`judge_pubkey`
turns the measurements into an :class:`~refbench.sanity.emulation.Emulation` whose explanation
names the variant, the recipe and the configuration ("bignum/umaal (UMAAL multiply-accumulate),
Montgomery, 4-bit fixed window, caches on ...").
"""

from __future__ import annotations

from dataclasses import dataclass

from cortexm_emu.boards import Board
from refbench.kernels.catalog import family
from refbench.measure import Job, Measurement
from refbench.published.model import Figure
from refbench.published.normalise import normalise
from refbench.sanity.emulation import Emulation, VariantResult
from refbench.sanity.executor import MeasureJob
from refbench.sanity.libraries import library_of
from refbench.sanity.memory_configs import DEFAULT_KINDS, MemoryConfig
from refbench.sanity.numbers import SAME_WORK_TOLERANCE, relative_resolution
from refbench.sanity.pubkey_cost import (
    Recipe,
    Work,
    compose,
    family_of,
    library_variants,
    recipes,
)
from refbench.sanity.pubkey_floor import describe as describe_floor
from refbench.sanity.pubkey_floor import floor_cycles
from refbench.sanity.pubkey_whole import COMPOSITION_BOUND, COMPOSITION_DERIVATION
from refbench.sanity.verdicts import Finding, Verdict
from refbench.sanity.workloads import KERNEL_COMPILER, kernel_build

RULE = "emulator"
KERNEL = "bignum"
#: How each variant forms its products, for explanations (refbench/kernels/bignum/kernel.toml).
VARIANT_NAMES = {"umaal": "UMAAL multiply-accumulate", "umlal": "UMULL/UMLAL multiply-accumulate",
                 "c32": "portable C, 32x32->64", "m0": "16x16 MULS products",
                 "umaal_asm": "UMAAL, 2^255 - 19 in hand-written assembly",
                 "umaal_asm_ladder": "UMAAL, the whole X25519 ladder in hand-written assembly, measured whole",
                 "c29": "CycloneCRYPTO's limb shapes (2^255 - 19: 9 of 29 bits; 2^448 - 2^224 - 1: 16 of 28 bits)",
                 "umull_asm": "UMULL only, Montgomery in hand-written assembly (wolfSSL SP small's shape)",
                 "umull_asm_bytecopy": "UMULL only, Montgomery in hand-written assembly (wolfSSL SP small's shape up to "
                                       "5.3.0: the product copied by newlib's byte-loop memcpy)",
                 "umull_umaal_asm": "UMULL products, UMAAL reduction, Montgomery in hand-written assembly "
                                    "(wolfSSL SP small's shape from 5.6.4)",
                 "cy_asm": "CycloneCRYPTO's mpiMulAccCore in its MPI_ASM_SUPPORT shape (UMLAL, ADDS/ADC per word), "
                           "hand-written assembly",
                 "m0_asm": "16x16 MULS, 2^255 - 19, the P-256 product and Montgomery (wolfSSL SP Thumb small's shape) "
                           "in hand-written ARMv6-M assembly"}


def is_pubkey(f: Figure) -> bool:
    """True for a public-key speed figure (compared per operation by this rule)."""
    return family_of(f) is not None and not f.is_footprint


@dataclass(frozen=True)
class PubkeyPlan:
    """The composition of one public-key figure: variants x recipes x configurations."""

    figure: Figure
    board: Board
    clock_mhz: float
    clock_note: str
    configs: tuple[MemoryConfig, ...]
    opt: str
    variants: tuple[str, ...]
    variants_why: str
    recipes: tuple[Recipe, ...]

    def work(self, variant: str, recipe: Recipe) -> Work | None:
        """``recipe``'s work with ``variant``: composed calls, or the whole operation the variant
        computes whole (kernel.toml ``whole``; None when the variant is no candidate for the recipe)."""
        return recipe.work_for(family(KERNEL).variant(variant).whole)

    def jobs(self) -> list[MeasureJob]:
        keys = dict.fromkeys((variant, op, size) for variant in self.variants for r in self.recipes
                             for op, size in (self.work(variant, r) or {}))
        return [MeasureJob(config, self.opt, Job(KERNEL, variant, op, size))
                for variant, op, size in keys for config in self.configs]


def plan_pubkey(f: Figure, board: Board, clock_mhz: float, clock_note: str,
                configs: tuple[MemoryConfig, ...]) -> PubkeyPlan | str:
    """Figure ``f``'s plan on ``board`` (its core has a timing model), or why no kernel runs."""
    found, why = recipes(f)
    if not found:
        return f"not emulated yet: {why}"
    shipped, shipped_why = library_variants(f)
    fam = family(KERNEL)
    # a variant computing an operation whole is a candidate only for the recipes it computes whole
    variants = tuple(v for v in shipped if fam.variant(v).supports(board.core)
                     and any(r.work_for(fam.variant(v).whole) is not None for r in found))
    if not variants:
        return (f"not emulated yet: {shipped_why} ({', '.join(shipped)}) has no variant for {board.core}; "
                "the page's section options exclude the others")
    return PubkeyPlan(f, board, clock_mhz, clock_note, configs, kernel_build(f)[0], variants, shipped_why, found)


def measured_whole(r: VariantResult) -> bool:
    """True when candidate ``r`` is a whole operation's emulated cycles, not a composition: its
    variant computes operations whole, and is planned only for the recipes it computes whole."""
    return bool(family(KERNEL).variant(r.variant).whole)


def composition_bound(results: list[VariantResult] | tuple[VariantResult, ...]) -> float:
    """COMPOSITION_BOUND when some candidate of ``results`` is composed, 0 when each is measured whole."""
    return COMPOSITION_BOUND if any(not measured_whole(r) for r in results) else 0.0


def _results(p: PubkeyPlan, measured: dict[MeasureJob, Measurement]) -> list[VariantResult]:
    out = []
    for variant in p.variants:
        for recipe in p.recipes:
            work = p.work(variant, recipe)
            if work is None:
                continue
            for config in p.configs:
                parts = {(op, size): measured[MeasureJob(config, p.opt, Job(KERNEL, variant, op, size))]
                         for op, size in work}
                ok = all(m.verified and m.cycles is not None for m in parts.values())
                problem = "; ".join(dict.fromkeys(m.error or m.mismatch for m in parts.values() if not m.verified))
                cycles = compose(work, {k: m.cycles for k, m in parts.items()}) if ok else None  # type: ignore[misc]
                stalls = compose(work, {k: m.memory_cycles or 0 for k, m in parts.items()}) if ok else None
                out.append(VariantResult(KERNEL, variant, recipe.name, cycles, None, ok, problem, config.label,
                                         stalls, per_op=True))
    return out


def _claims(f: Figure) -> str:
    """What the page claims that the kernels are not: hardware (the figure's, or the section's PKA:
    wolfSSL built with WOLFSSL_STM32_PKA computes ECC point multiplications on the PKA,
    wolfcrypt/src/port/st/stm32.c stm32_ecc_mulmod), or hand-written assembly for the public-key
    arithmetic (the math option, e.g. wolfSSL "SP math, Cortex-M assembly": its multiplications are
    unrolled assembly, the kernels are C with one inline multiply-accumulate)."""
    if f.implementation == "hardware" or f.hw:
        return f"hardware ({', '.join(f.hw) or 'stated'})"
    if "PKA" in (f.config or "").split() and family_of(f) in ("ECDSA", "ECDH", "ECC"):
        return "the section's PKA hardware (wolfSSL WOLFSSL_STM32_PKA: ECC point multiplication on the PKA)"
    if "assembly" in (f.math or "").lower():
        return f"hand-written assembly ({f.math})"
    return ""


def _not_bounded_by_candidates(f: Figure) -> str:
    """Why the composed C candidates do not bound ``f`` from below, "" when they do: its library is
    closed (refbench/sanity/libraries.toml ``closed``). An open library's field code is modelled by
    the kernels of its shape (pubkey_costs.toml [[libraries]]), which bound it."""
    lib = library_of(f)
    if lib is not None and lib.closed:
        return (f"{f.library} is a closed library (precompiled, code not public; refbench/sanity/libraries.toml), "
                "so C candidates do not bound it")
    return ""


def any_code_floor(p: PubkeyPlan) -> tuple[float, str]:
    """The floor any code must pay for the figure's operation on its core (the smallest over its
    recipes), and its derivation (:mod:`refbench.sanity.pubkey_floor`)."""
    floors = [(floor_cycles(r.as_work(), p.board.core), r.name) for r in p.recipes]
    (cycles, products, words), name = min(floors, key=lambda x: x[0][0])
    return cycles, describe_floor(cycles, products, words, p.board.core, name)


def describe(r: VariantResult) -> str:
    """``bignum/umaal (UMAAL multiply-accumulate), Montgomery, 4-bit fixed window, <configuration>``."""
    return f"{r.kernel}/{r.variant} ({VARIANT_NAMES.get(r.variant, r.variant)}), {r.operation}, {r.memory}"


def judge_pubkey(p: PubkeyPlan, measured: dict[MeasureJob, Measurement]) -> Emulation:
    """The composed candidates of one public-key figure against its value (the emulator rule's final
    verdict is the prediction's, :func:`refbench.sanity.emulator_rule.pubkey_prediction`, which
    keeps this message's head and the hardware-claim finding): inside the composed range (consistent), faster
    than every candidate (explained when the page claims hardware; when it claims hand-written
    assembly or its library is closed, explained above the floor any code must pay and suspicious
    below it, :mod:`refbench.sanity.pubkey_floor`; suspicious otherwise) or slower
    than every one (explained: the candidates bound the arithmetic from below; no upper bound is
    modelled). The allowance is SAME_WORK_TOLERANCE + the printed resolution +
    COMPOSITION_BOUND (what composition may miss, derived from full emulation of whole operations:
    :mod:`refbench.sanity.pubkey_whole`)."""
    f, board = p.figure, p.board
    results = _results(p, measured)
    published = normalise(f).cycles_per_op
    build = kernel_build(f)[1]
    notes = tuple(n for n in (p.clock_note,) if n)
    common = dict(published=published, size=None, core=board.core, variants=tuple(results), notes=notes,
                  board=board.name, clock_mhz=p.clock_mhz, configs=p.configs, unit="cycles", build=build)
    good = sorted((r for r in results if r.rate is not None), key=lambda r: r.rate or 0.0)
    if published is None:
        return Emulation(f.id, "not emulated yet", "not emulated yet: the figure gives no time per operation", **common)
    if not good:
        problems = "; ".join(dict.fromkeys(f"{r.kernel}/{r.variant}: {r.problem}" for r in results))
        return Emulation(f.id, "not emulated yet", f"not emulated yet: no variant verified ({problems})", **common)
    rate = {r: float(r.cycles or 0) for r in good}
    lo, hi = rate[good[0]], rate[good[-1]]
    bound = composition_bound(good)
    allowance = SAME_WORK_TOLERANCE + relative_resolution(f) + bound

    def error(r: VariantResult) -> float:
        return abs(published - rate[r]) / rate[r]

    kinds = {c.label: c.kind for c in p.configs}
    usual = [r for r in good if kinds.get(r.memory) in DEFAULT_KINDS and error(r) <= allowance]
    nearest = min(usual or good, key=error)
    head = (f"published {published:,.0f} cycles/op; composed {lo:,.0f}..{hi:,.0f} cycles over "
            f"{len(p.variants)} variant(s) ({', '.join(p.variants)}: {p.variants_why}) x {len(p.recipes)} recipe(s) x "
            f"{len(p.configs)} memory configuration(s) on {board.part} ({board.core}, {build})"
            + (f"; {'; '.join(notes)}" if notes else "")
            + (f"; counted field/bignum operations x emulated cycles per call (allowance {allowance:.0%} including "
               f"the {COMPOSITION_BOUND:.1%} composition bound: {COMPOSITION_DERIVATION})" if bound else
               f"; the whole operation's emulated cycles (allowance {allowance:.0%}, no composition bound: measured whole)"))
    verdict: Verdict
    if lo * (1 - allowance) <= published <= hi * (1 + allowance):
        position, chosen, residual = "inside", nearest, (published - rate[nearest]) / rate[nearest]
        verdict = "consistent"
        explanation = f"{describe(nearest)} ({residual:+.1%})"
        message = f"{head}: inside the range; nearest {explanation}"
    elif published < lo:
        position, chosen, residual = "faster", good[0], (published - lo) / lo
        claims = _claims(f)
        faster = (f"faster than every composed candidate ({residual:+.1%} against {describe(good[0])}, built "
                  f"with {KERNEL_COMPILER} -{p.opt})")
        if claims.startswith(("hardware", "the section's PKA")):
            verdict, explanation = "explained", f"{faster}: the page claims {claims}"
        elif claims or (unbounded := _not_bounded_by_candidates(f)):
            why = f"the page claims {claims}" if claims else unbounded
            bound, derivation = any_code_floor(p)
            if published < bound * (1 - relative_resolution(f)):
                verdict = "suspicious"
                explanation = (f"{faster}: {why}, but it is below the {derivation} (published "
                               f"{published / bound:.2f}x of it)")
            else:
                verdict = "explained"
                explanation = f"{faster}: {why}, and it is above the {derivation} ({published / bound:.2f}x of it)"
        else:
            verdict = "suspicious"
            explanation = f"{faster}: needs faster arithmetic or a cheaper method than the variants the library ships"
        message = f"{head}: {explanation}"
    else:
        position, chosen, residual = "slower", good[-1], (published - hi) / hi
        # The composed candidates bound the arithmetic from below (the library's own overheads are
        # not priced; a library's bignum code -- generic multi-precision with a separate reduction,
        # narrower limbs -- can be much slower than these kernels), and no upper bound is modelled:
        # a slower figure is no evidence against the page.
        verdict = "explained"
        explanation = (f"slower than every composed candidate ({residual:+.1%}; the closest is {describe(good[-1])}): "
                       "the candidates are lower bounds of the arithmetic, not models of the library's own "
                       "bignum code, so no upper bound is tested")
        message = f"{head}: {explanation}"
    return Emulation(f.id, "emulated", explanation, lo, hi, residual, memory=chosen.memory,
                     finding=Finding(RULE, verdict, message), position=position, **common)
