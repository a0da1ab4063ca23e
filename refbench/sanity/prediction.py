"""A prediction per figure: the build that ran (:mod:`refbench.sanity.builds`), emulated on the
figure's board at the stated clock in the one memory configuration the page or the vendor
start-up code sets, with a band derived from stated terms only, and the other configurations and
code paths as hypotheses.

The predicted value is the emulated cost of the build's code path (``builds.Build.path``) in the
build's memory configuration (``builds.Build.memory``). Where several emulated points fit that
description -- the stack placements no statement tells apart (R8 boards), the two ends of a
caches-off path whose flash read width no document gives, or the variants the library ships when
no code path is established -- the prediction is their geometric middle and a ``build spread``
term spans them. The band multiplies the prediction by each term's low and high factors:

* ``compiler``: the measured spread of that kernel variant between the compilers we run (zig's
  clang, arm-none-eabi-gcc) at the figure's optimisation level(s), relative to our build
  (``refbench/derived/compiler_bands.json``, :mod:`refbench.sanity.compiler_band`);
* ``core model``: the timing model's measured error: on a core with held-out rows, their max
  |error| (``refbench held-out``, :func:`refbench.heldout.runner.held_out_error`: whole programs
  against published board counts, measured after the rules the set guided were added);
  otherwise the model's spread between the documented bounds of its undocumented rules on that
  kernel variant (``refbench/derived/model_spreads.json``, :mod:`refbench.sanity.model_spread`:
  the model's own uncertainty, not an error measured against hardware; on the M3 with the M4's
  held-out error, each side the wider); on a core whose model states no such rule (M0/M0+),
  ``cortexm-emu validate``'s, computed at run time (short sequences: a transcription check, not
  held out; builds.toml ``model_error`` says so);
* ``printed resolution``: half a unit of the figure's last printed digit;
* ``run-to-run``: the largest difference between the symmetric rows of one build measured twice
  (builds.toml ``run_to_run``: computed from the published figures).

A side no rule bounds is open (``open_low`` / ``open_high`` say why): a closed library's code or
a page's assembly claim leaves the fast side to the floor no code can beat
(:mod:`refbench.sanity.code_bounds`) or untested -- unless the catalogue has a kernel written in
the shape of that assembly (``builds.toml`` ``asm_kernels``): it is then the build's path, both
sides bounded; a caches-off path the board profile marks as a lower bound, or a closed library,
leaves the slow side untested.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any

from refbench.sanity.builds import Build, MemoryChoice, builds_data

if TYPE_CHECKING:
    from refbench.sanity.emulation import VariantResult

#: Configuration kinds with the caches on, and off (the hypotheses' memory words).
CACHE_OFF_KINDS = frozenset({"cache off", "prefetch only"})


@dataclass(frozen=True)
class Term:
    """One term of a band: the factors it applies to the prediction's low and high edges, and
    where it comes from."""

    name: str
    low: float
    high: float
    source: str

    def describe(self) -> str:
        if abs(self.low - 1) < 1e-12 and abs(self.high - 1) < 1e-12:
            return f"{self.name} x1 ({self.source})"
        return f"{self.name} x{self.low:.3f}..x{self.high:.3f} ({self.source})"

    def as_json(self) -> dict[str, Any]:
        return {"term": self.name, "low": self.low, "high": self.high, "source": self.source}


@dataclass(frozen=True)
class Hypothesis:
    """Another configuration or code path than the build's: its emulated cost, the published
    value's ratio to it, and whether the published value lies inside its band."""

    label: str
    kind: str  # the memory configuration kind ("cache off") or "code path"
    predicted: float
    ratio: float
    fits: bool
    variant: str = ""
    memory: str = ""

    def describe(self) -> str:
        return f"{self.label}: {self.ratio:.2f}x"

    def as_json(self) -> dict[str, Any]:
        return {"hypothesis": self.label, "kind": self.kind, "predicted": self.predicted, "ratio": self.ratio,
                "fits": self.fits, "variant": self.variant, "memory": self.memory}


@dataclass(frozen=True)
class Prediction:
    """One figure's prediction, band and hypotheses (see the module doc)."""

    predicted: float
    band_low: float | None
    band_high: float | None
    published: float
    basis: str  # what was predicted: the code path and the memory configuration
    terms: tuple[Term, ...]
    hypotheses: tuple[Hypothesis, ...] = ()
    open_low: str = ""  # why the fast side is not bounded ("" when it is)
    open_high: str = ""  # why the slow side is not bounded
    envelope_low: float | None = None  # the fastest any allowed configuration x code path x compiler gets
    envelope_high: float | None = None  # the slowest (None: not bounded)
    floor_note: str = ""  # the floor no code can beat, when it is the fast edge
    unit: str = "c/B"
    paths: tuple[str, ...] = field(default_factory=tuple)  # the build's code paths, described
    memory: str = ""  # the build's memory configuration, described
    memory_labels: tuple[str, ...] = ()  # the configurations predicted (labels)

    @property
    def ratio(self) -> float:
        return self.published / self.predicted

    @property
    def width(self) -> float | None:
        """band_high / band_low, or None when a side is open."""
        if self.band_low is None or self.band_high is None or self.band_low <= 0:
            return None
        return self.band_high / self.band_low

    def position(self, published: float | None = None) -> str:
        """``below``, ``inside`` or ``above`` the band (an open side never excludes)."""
        value = self.published if published is None else published
        if self.band_low is not None and value < self.band_low:
            return "below"
        if self.band_high is not None and value > self.band_high:
            return "above"
        return "inside"

    def fitting(self) -> list[Hypothesis]:
        return [h for h in self.hypotheses if h.fits]

    def nearest(self) -> Hypothesis | None:
        """The hypothesis whose emulated cost is nearest the published value (by |log ratio|)."""
        return min(self.hypotheses, key=lambda h: abs(math.log(h.ratio)), default=None)

    def as_json(self) -> dict[str, Any]:
        return {"predicted": self.predicted, "band_low": self.band_low, "band_high": self.band_high,
                "ratio": self.ratio, "band_width": self.width, "prediction_basis": self.basis,
                "build_code_paths": list(self.paths), "build_memory": self.memory,
                "band_terms": [t.as_json() for t in self.terms],
                "untested_side": [side for side, why in (("fast", self.open_low), ("slow", self.open_high)) if why],
                "untested_why": {side: why for side, why in (("fast", self.open_low), ("slow", self.open_high)) if why},
                "hypotheses": [h.as_json() for h in self.hypotheses]}


def product(terms: tuple[Term, ...]) -> tuple[float, float]:
    low = math.prod(t.low for t in terms)
    high = math.prod(t.high for t in terms)
    return low, high


def resolution_term(resolution: float) -> Term:
    return Term("printed resolution", 1 / (1 + resolution), 1 + resolution,
                "half a unit of the figure's last printed digit")


@cache
def _validated_error(core: str) -> tuple[float, int] | None:
    """(max |error| in percent, sequences) of ``cortexm-emu validate`` on ``core``; None without
    sequences for it."""
    from cortexm_emu.validate import run_validation, summarize

    summaries = summarize(run_validation(cores=[core]))
    return (summaries[0].max_abs_error, summaries[0].n) if summaries else None


#: The core whose held-out error the Cortex-M3 takes as evidence (see :func:`model_error_term`).
M3_EVIDENCE_CORE = "m4"


def _held_out_term(core: str, held: Any, measured_on: str = "") -> Term:
    e = held.max_abs_error / 100
    on = measured_on or core
    return Term("core model", 1 / (1 + e), 1 + e,
                f"held-out set (refbench held-out), measured after the rules it guided were added (it showed "
                f"where to look, the cited documents set the numbers: in-sample for those rules, not a pure "
                f"out-of-sample error): max |error| {held.max_abs_error:.1f} % (mean {held.mean_error:+.1f} %) "
                f"over {held.n} whole-program rows on {on} against published board counts")


def _spread_term(core: str, names: tuple[tuple[str, str, str], ...]) -> Term | None:
    """The model's spread between the documented bounds of its undocumented rules
    (:mod:`refbench.sanity.model_spread`) for the variants ``names`` on ``core`` (the widest of
    them); the core's widest measured spread when none of them was measured (said so); None when
    the core's model states no such rule or nothing was measured on it."""
    from cortexm_emu.timing.registry import other_ends
    from refbench.sanity.model_spread import spread, widest

    items = [e.item for e in other_ends(core)]
    if not items:
        return None
    what = (f"the model's spread between the documented bounds of its undocumented rules (APPROXIMATIONS.md "
            f"{', '.join(map(str, items))}; refbench/derived/model_spreads.json): not an error measured against "
            "hardware")
    found = [s for s in (spread(core, *n) for n in names) if s is not None]
    if found:
        low, high = min(s.low for s in found), max(s.high for s in found)
        return Term("core model", low, high, f"{what}; {'; '.join(s.describe() for s in found)}")
    broadest = widest(core)
    if broadest is None:
        return None
    variants = ", ".join(sorted({f"{k}/{v} {o}" for k, v, o in names})) or "this operation"
    return Term("core model", broadest.low, broadest.high,
                f"{what}; {variants} not measured at both ends on {core}: the widest spread measured on {core}, "
                f"{broadest.describe()}")


def model_error_term(core: str, names: tuple[tuple[str, str, str], ...] = ()) -> Term:
    """The band's "core model" term on ``core`` for the kernel variants ``names`` ((kernel,
    variant, operation) each):

    * a core with held-out rows: their max |error| (measured against hardware);
    * otherwise the model's spread between the documented bounds of its undocumented rules
      (:func:`_spread_term`), the only derived statement of the model's uncertainty there;
    * the Cortex-M3 also takes the Cortex-M4's held-out error, each side the wider of the two. Its
      model is the M4's three-stage pipeline with the same rule set (APPROXIMATIONS.md 6-22 apply
      to both; DDI 0439D and 100165_0201 give the same pipeline timing for the shared
      instructions), so the M4's error against hardware is the best measured evidence for it; but
      it is not the M3's own: the held-out rows never ran the M3-only rules (8's writeback loads,
      10, 16's early-terminating long multiplies), and they ran with the M4-only flash-fetch rules
      52-53 the M3 model does not have. So the M4's error does not replace the M3's spread;
    * a core with neither (the M0/M0+ models state no undocumented two-ended rule: they transcribe
      their TRM's table): ``cortexm-emu validate``'s error, a transcription check, said so.
    """
    from refbench.heldout.runner import held_out_error

    recorded = held_out_error()
    held = recorded.get(core)
    if held is not None:
        return _held_out_term(core, held)
    spread = _spread_term(core, names)
    borrowed = recorded.get(M3_EVIDENCE_CORE) if core == "m3" else None
    if borrowed is not None:
        evidence = _held_out_term(core, borrowed, measured_on=f"{M3_EVIDENCE_CORE} (the same pipeline and rule set)")
        if spread is None:
            return evidence
        return Term("core model", min(evidence.low, spread.low), max(evidence.high, spread.high),
                    f"the wider, each side, of the M4's measured error and the M3 model's own spread: "
                    f"{evidence.source}; and {spread.source}")
    if spread is not None:
        return spread
    data = builds_data()
    validated = _validated_error(core)
    from cortexm_emu.timing.registry import other_ends

    none_stated = "" if other_ends(core) else (f"; the {core} model states no undocumented two-ended rule "
                                               "(no [[other_end]] item) to measure a spread with")
    if validated is None:
        return Term("core model", 1.0, 1.0, f"no validation sequences for {core} (cortexm-emu validate): no measured "
                    f"error to add{none_stated}")
    error, count = validated
    e = error / 100
    return Term("core model", 1 / (1 + e), 1 + e, f"{data.model_error_source}: {error:.1f} % over {count} sequences "
                f"on {core}; {data.model_error_reason} (no held-out rows on {core}){none_stated}; the memory "
                "system's error is not measured against hardware")


@cache
def run_to_run() -> tuple[float, str]:
    """The symmetric run-to-run variation: :func:`refbench.sanity.fingerprints.largest_repeat` over
    the symmetric rows of the build measured twice (builds.toml ``run_to_run``), and the words
    saying so. Raises ValueError when the two sections share no row (the data changed)."""
    from refbench.published.model import load_figures
    from refbench.sanity.fingerprints import largest_repeat
    from refbench.sanity.numbers import cost_for_compare
    from refbench.sanity.pubkey_plan import is_pubkey

    source, sections = builds_data().run_to_run
    rows: dict[str, dict[tuple, Any]] = {s: {} for s in sections}
    for f in load_figures():
        if f.source == source and f.section in rows and f.implementation == "software" and not is_pubkey(f) \
                and not f.is_footprint and cost_for_compare(f):
            rows[f.section][(f.algorithm, f.mode, f.operation, f.key_bits, f.message_bytes, f.metric)] = f
    a, b = (rows[s] for s in sections)
    shared = sorted(a.keys() & b.keys(), key=str)
    if not shared:
        raise ValueError(f"builds.toml [run_to_run]: sections {sections} of {source} share no software row")
    spread, _ = largest_repeat([(a[k], b[k]) for k in shared])
    return spread, (f"symmetric run-to-run: the largest difference, less the printed digits, of the {len(shared)} "
                    f"symmetric rows one build measured twice on the STM32WB55 ({source}: '{sections[0]}' and "
                    f"'{sections[1]}'); fingerprints.repeatability is the same derivation over every row, "
                    "public-key included")


def run_to_run_term() -> Term:
    spread, words = run_to_run()
    return Term("run-to-run", 1 / (1 + spread), 1 + spread, f"{spread:.2%}: {words}")


def compiler_term(core: str, r: VariantResult, levels: tuple[str, ...], ours: str, compiler: str) -> Term:
    """The measured compiler spread of variant ``r`` on ``core`` at ``levels``, relative to our
    build ``ours`` ("zig -Os"); the family's widest measured spread on the core when the variant
    was not measured (said so)."""
    from refbench.sanity.compiler_band import band, bands

    b = band(core, r.kernel, r.variant, r.operation, levels)
    at = " and ".join(f"-{x}" for x in levels)
    if b is not None:
        reference = b.builds.get(ours) or math.sqrt(min(b.builds.values()) * max(b.builds.values()))
        low, high = min(b.builds.values()) / reference, max(b.builds.values()) / reference
        return Term("compiler", min(low, 1.0), max(high, 1.0),
                    f"{r.kernel}/{r.variant} {r.operation} on {core} measured {b.describe()} at {at} (zig clang and "
                    f"arm-none-eabi-gcc; the page: {compiler}), relative to ours ({ours})")
    # Not measured with both compilers here: the same code measured elsewhere, nearest first --
    # the variant's operation on other cores, the variant's other operations, then the family.
    tables = bands()

    def spread_of(builds: dict[str, int]) -> float | None:
        chosen = [c for build, c in builds.items() if build.split(" -")[1] in levels]
        compilers = {build.split(" ")[0] for build in builds if build.split(" -")[1] in levels}
        return max(chosen) / min(chosen) - 1 if len(compilers) > 1 else None

    name = f"{r.kernel}/{r.variant}"
    for what, keep in ((f"{name} {r.operation} on other cores", lambda k: k[1] == name and k[2] == r.operation),
                       (f"{name} (other operations)", lambda k: k[1] == name),
                       (f"{r.kernel} (other variants)", lambda k: k[1].split("/")[0] == r.kernel)):
        found = [(s, " ".join(k)) for k, s in ((key.split(" "), spread_of(b)) for key, b in tables.items())
                 if s is not None and keep(k)]
        if found:
            widest, key = max(found)
            return Term("compiler", 1 / (1 + widest), 1 + widest,
                        f"{name} {r.operation} not measured with both compilers on {core} at {at}: the widest spread "
                        f"measured for {what}, {widest:+.1%} ({key})")
    return Term("compiler", 1.0, 1.0, f"no compiler spread measured for {name} or its family at {at}: none added "
                "(the band is narrower than the compiler allows)")


def choose_memory(choice: MemoryChoice | None, kinds: dict[str, str]) -> tuple[list[str], str]:
    """The configuration labels of the build's memory choice among ``kinds`` (label -> kind), and
    its description; the board's usual configuration when nothing says (said so)."""
    if choice is not None:
        labels = [label for label, kind in kinds.items() if kind == choice.kind]
        if labels:
            return labels, choice.describe()
    for kind in ("cache on", "flash"):
        labels = [label for label, k in kinds.items() if k == kind]
        if labels:
            why = (f"{choice.kind} is not a configuration of this board" if choice is not None else
                   "no start-up default recorded for this board (builds.toml [memory])")
            return labels, f"{kind} ({why}: the board's usual benchmark configuration)"
    first = next(iter(kinds))
    return [first], f"{kinds[first]} (the board's only configuration kind)"


def predict(build: Build, board_name: str, core: str, results: list[VariantResult], published: float,
            kinds: dict[str, str], levels: tuple[str, ...], ours: str, resolution: float,
            lower_bound_path: str | None, floor: tuple[float, str] | None, unit: str,
            stated_machine: str = "") -> Prediction | None:
    """The prediction of one emulated figure from its variants' verified results (``kinds``:
    configuration label -> kind; ``lower_bound_path``: why the board's caches-off path is a
    lower bound, or None; ``floor``: the cost no code can beat, or None; ``stated_machine``: the
    machine a user stated for a figure of their own input, whose configurations -- all those the
    statements allow -- the prediction spans), or None when no result matches the build."""
    good = [r for r in results if r.rate is not None]
    if not good:
        return None
    if stated_machine:
        labels = list(kinds)
        memory_words = f"every configuration the statements allow ({stated_machine})"
    else:
        labels, memory_words = choose_memory(build.memory(board_name), kinds)
    kernels = list(dict.fromkeys(r.kernel for r in good))
    shipped = {k: tuple(dict.fromkeys(r.variant for r in good if r.kernel == k)) for k in kernels}
    paths = {k: build.path(k, shipped[k]) for k in kernels}
    chosen = [r for r in good if r.memory in labels and (paths[r.kernel].variant is None
                                                         or r.variant == paths[r.kernel].variant)]
    if not chosen:  # the build's variant did not run here (not shipped at this size): the shipped ones
        chosen = [r for r in good if r.memory in labels]
    if not chosen:
        return None
    rate = {r: float(r.rate) for r in good}  # type: ignore[arg-type]
    lo, hi = min(rate[r] for r in chosen), max(rate[r] for r in chosen)
    predicted = math.sqrt(lo * hi)
    compiler_name = build.figure.compiler
    compilers = {r: compiler_term(core, r, levels, ours, compiler_name) for r in good}
    c_low = min(compilers[r].low for r in chosen)
    c_high = max(compilers[r].high for r in chosen)
    first = compilers[chosen[0]]
    compiler = Term("compiler", c_low, c_high, first.source if len(chosen) == 1 else
                    "; ".join(dict.fromkeys(compilers[r].source for r in chosen)))
    model_terms = {r: model_error_term(core, ((r.kernel, r.variant, r.operation),)) for r in good}
    chosen_names = tuple(dict.fromkeys((r.kernel, r.variant, r.operation) for r in chosen))
    common = (resolution_term(resolution), run_to_run_term())
    terms: tuple[Term, ...] = (compiler, model_error_term(core, chosen_names), *common)
    if hi > lo * (1 + 1e-9):
        spans = sorted({f"{r.kernel}/{r.variant}" for r in chosen}) if len({r.variant for r in chosen}) > 1 else []
        places = sorted({r.memory for r in chosen}) if len({r.memory for r in chosen}) > 1 else []
        why = []
        if spans:
            why.append(f"code path not established, the variants the library ships: {', '.join(spans)}")
        if places:
            why.append(f"configurations the statements do not tell apart: {'; '.join(places)}")
        terms = (Term("build spread", lo / predicted, hi / predicted, "; ".join(why)), *terms)
    low_f, high_f = product(terms)
    band_low, band_high = predicted * low_f, predicted * high_f
    open_low = open_high = floor_note = ""
    described = tuple(p.describe() for p in paths.values())
    unfaithful = [p for p in paths.values() if p.how in ("assembly", "closed library")]
    if unfaithful:
        why = "; ".join(p.describe() for p in unfaithful)
        if floor is not None:
            bound, derivation = floor
            band_low, floor_note = bound / (1 + resolution), f"the floor no code can beat: {derivation}"
            open_low = ""
        else:
            band_low, open_low = None, f"no faithful kernel ({why}) and no floor derived for this operation"
        if any(p.how == "closed library" for p in unfaithful):
            band_high, open_high = None, f"no faithful kernel ({why}): no C variant bounds how slow it may be"
    chosen_kinds = {kinds.get(r.memory, "") for r in chosen}
    if lower_bound_path and chosen_kinds & CACHE_OFF_KINDS:
        band_high, open_high = None, lower_bound_path
    # Hypotheses: every other emulated point, with its own band factors.
    others = [r for r in good if r not in chosen]
    hypotheses = []
    for r in others:
        h_terms = (compilers[r], model_terms[r], *common)
        f_low, f_high = product(h_terms)
        kind = kinds.get(r.memory, "")
        same_path = paths[r.kernel].variant in (None, r.variant)
        label = f"{r.name}" if not same_path else f"{kind or r.memory} ({r.memory})"
        hypotheses.append(Hypothesis(label, kind if same_path else "code path", rate[r], published / rate[r],
                                     rate[r] * f_low <= published <= rate[r] * f_high, r.variant, r.memory))
    hypotheses.sort(key=lambda h: abs(math.log(h.ratio)))
    # The envelope: every allowed configuration x code path x compiler.
    env_low = min(rate[r] * product((compilers[r], model_terms[r], *common))[0] for r in good)
    env_high: float | None = max(rate[r] * product((compilers[r], model_terms[r], *common))[1] for r in good)
    if lower_bound_path or open_high:
        env_high = None
    basis = (f"{', '.join(described)}; memory: {memory_words}; emulated {_fmt(lo, unit)}"
             + (f"..{_fmt(hi, unit)}" if hi > lo * (1 + 1e-9) else "") + f" {unit}")
    if unfaithful:  # C variants bound nothing below: the floor (if any) is the fastest anything gets
        env_low = band_low if band_low is not None else env_low
    return Prediction(predicted, band_low, band_high, published, basis, terms, tuple(hypotheses), open_low,
                      open_high, None if open_low else env_low, env_high, floor_note, unit, described, memory_words,
                      tuple(dict.fromkeys(r.memory for r in chosen)))


def _fmt(x: float, unit: str) -> str:
    from refbench.sanity.numbers import fmt

    return f"{x:,.0f}" if unit == "cycles" else fmt(x)


def describe_band(p: Prediction) -> str:
    """"predicted X unit, band [lo, hi] (x w): terms ..." as every message writes it."""
    lo = _fmt(p.band_low, p.unit) if p.band_low is not None else "untested"
    hi = _fmt(p.band_high, p.unit) if p.band_high is not None else "untested"
    width = f" (x{p.width:.2f} wide)" if p.width else ""
    terms = "; ".join(t.describe() for t in p.terms)
    opened = "".join(f"; {side} side untested: {why}" for side, why in (("fast", p.open_low), ("slow", p.open_high))
                     if why)
    floor = f"; fast edge: {p.floor_note}" if p.floor_note else ""
    return (f"predicted {_fmt(p.predicted, p.unit)} {p.unit} from {p.basis}; band [{lo}, {hi}]{width} from "
            f"{terms}{floor}{opened}")
