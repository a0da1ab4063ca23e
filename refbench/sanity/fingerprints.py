"""Code-path fingerprints: what ran, read from the numbers, against what the page claims ran.

Two figures of one library on one core (any section, version or board) whose cycles for the same
operation agree within their noise ran the same code: a per-cycle cost is a fingerprint of a code
path. Where the sections claim different code for that operation (:mod:`refbench.sanity.claims`:
another hardware engine, math library or assembly family), one claim is wrong, and the numbers say
which: each claim is tested against the figures of that library on that core that make the same
claim elsewhere (``code-path``). A single public-key figure is tested the same way against its
own claim (``code-path-claim``): several times faster or slower than every figure of the same
claim, and inside the figures of another claim, it ran that other code.

**Noise** (:func:`noise`), derived per figure, never hand-set: the printed resolution of the figure
and of its printed duration; the run-to-run variation of the library's benchmark measured on the
pages (:func:`repeatability`); and, for an operation that draws a fresh random secret each time,
the sampling spread of the average of the benchmark's N operations. Key generation makes a new key
from the RNG inside the timed loop (wolfSSL wolfcrypt/benchmark/benchmark.c, commit 0004fcceb,
bench_curve25519KeyGen / bench_ed25519KeyGen: ``make_key(&gRng, ...)`` per iteration), while the
shared-secret loops reuse two keys made before the loop; ECDSA signing draws a new nonce per
signature (SEC 1 v2 §4.1.3); EdDSA signing derives its nonce from the key and the message (RFC 8032
§5.1.6), a fixed cost for the benchmark's fixed message, so it is not counted: a k-bit random scalar in a double-and-add ladder has
Binomial(k, 1/2) additions (sd sqrt(k)/2 around k/2), and with an addition costing at most two
doublings the cost varies by at most 1/(2 sqrt(k)) per call, 1/(2 sqrt(k N)) for the average of N,
counted twice (two standard errors).

**References** (:func:`references`): the figures of the same library, core family, algorithm,
operation, size and metric whose claim is the given one, outside the compared figures' sections
(of the same library version when there are any). A cost inside [cheapest / (1 + t), dearest x
(1 + t)] of them, t = numbers.CROSS_BOARD_TOLERANCE (the memory-system allowance between boards),
fits that claim; of two claims, the numbers support the one whose references lie nearer by more
than that same allowance.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

from refbench.published.model import Figure, Part
from refbench.sanity.claims import Claims, claims_of, is_public_key
from refbench.sanity.cross_board import core_family
from refbench.sanity.numbers import (
    CROSS_BOARD_TOLERANCE,
    SAME_WORK,
    cost_for_compare,
    fmt,
    group_by,
    per_unit,
    printed_resolution,
    relative_resolution,
    value_figures,
)
from refbench.sanity.verdicts import Finding

Result = list[tuple[str, Finding]]

#: Operations that draw a fresh random secret on every call of the benchmark loop (a new private
#: key, a new signature nonce): their cost varies from call to call with the secret's bits.
RANDOM_SECRET_OPERATIONS = frozenset({"keygen", "sign"})
#: Standard errors counted for the sampling spread of an average.
STANDARD_ERRORS = 2


#: Signatures whose nonce is derived, not drawn (RFC 8032 §5.1.6): no random secret per call.
DETERMINISTIC_SIGNATURES = ("Ed25519", "Ed448")


def secret_bits(f: Figure) -> int | None:
    """Bits of the random secret of ``f``'s operation (the key or curve size), or None."""
    if f.operation not in RANDOM_SECRET_OPERATIONS or not is_public_key(f):
        return None
    if f.operation == "sign" and f.algorithm.startswith(DETERMINISTIC_SIGNATURES):
        return None
    return f.key_bits or (255 if "25519" in f.algorithm else 448 if "448" in f.algorithm else None)


def sampling_spread(f: Figure) -> float:
    """The spread of the average of the benchmark's N calls of a random-secret operation (module
    doc), 0 for an operation without a random secret or a figure that prints no count."""
    bits, ops = secret_bits(f), f.aux_value("ops")
    if bits is None or ops is None or ops.value < 1:
        return 0.0
    return STANDARD_ERRORS / (2 * math.sqrt(bits * ops.value))


def duration_resolution(f: Figure) -> float:
    """The printed resolution of the row's duration ("took 1.130 sec") over the duration."""
    d = f.aux_value("duration")
    return printed_resolution(d.text) / d.value if d is not None and d.value else 0.0


def largest_repeat(pairs: list[tuple[Figure, Figure]]) -> tuple[float, tuple[Figure, Figure] | None]:
    """The run-to-run variation of a benchmark, from figures of the same work that one build
    measured twice (in two sections of a page): the largest relative difference ``|a/b - 1|`` of a
    pair, less the printed resolution of both figures (their digits account for that much), and the
    pair; (0.0, None) without pairs. Both :func:`repeatability` (every row of a library, public-key
    included) and :func:`refbench.sanity.prediction.run_to_run` (the symmetric rows of the build
    builds.toml names) are this derivation over their own pairs."""
    worst, where = 0.0, None
    for a, b in pairs:
        off = abs(cost_for_compare(a) / cost_for_compare(b) - 1) - relative_resolution(a) - relative_resolution(b)
        if where is None or off > worst:
            worst, where = max(off, 0.0), (a, b)
    return worst, where


def repeatability(figures: list[Figure], library: str) -> tuple[float, str]:
    """The run-to-run variation of ``library``'s benchmark over every kind of row (symmetric and
    public-key), measured on the pages (:func:`largest_repeat`): two figures of the same work on
    one part and library version, in two sections that are the same build for it (the same math
    library, assembly, options and compiler, and the same claim: a repeated measurement of one
    code path). Without such a pair, numbers.SAME_WORK (stated, with its evidence)."""
    control = [f for f in value_figures(figures) if f.library == library and f.algorithm != "RNG"
               and cost_for_compare(f)]
    pairs = [(a, b) for members in group_by(control, lambda f: (f.source, f.part, f.version, f.math, f.asm, f.options,
                                                                f.compiler, *_work(f))).values()
             for a, b in itertools.combinations(members, 2) if a.section != b.section and claims_of(a) == claims_of(b)]
    worst, pair = largest_repeat(pairs)
    if pair is None:
        return SAME_WORK.value + SAME_WORK.resolution, f"stated repeatability {SAME_WORK.text}"
    a, b = pair
    kind = "public-key" if is_public_key(a) else "symmetric"
    return worst, (f"measured run-to-run {worst:.1%}, the largest repeat of one build on the pages over every row of "
                   f"{library} (symmetric and public-key; this one {kind}): {a.part} {a.version} {a.algorithm} "
                   f"{a.operation} {a.text} vs {b.text} {a.unit}")


def noise(a: Figure, b: Figure, repeat: tuple[float, str]) -> tuple[float, str]:
    """How far apart (relative) two figures of the same code may print, and the derivation:
    ``repeat`` (:func:`repeatability`), the printed digits of both figures and durations, and the
    sampling spread of random-secret operations."""
    sampling = sampling_spread(a) + sampling_spread(b)
    printed = relative_resolution(a) + relative_resolution(b) + duration_resolution(a) + duration_resolution(b)
    total = repeat[0] + printed + sampling
    counts = "/".join(str(int(x.value)) if (x := f.aux_value("ops")) else "?" for f in (a, b))
    why = (f"{repeat[1]}; printed digits {printed:.2%}"
           + (f"; sampling of {counts} random-secret calls {sampling:.1%}" if sampling else ""))
    return total, why


def same_code(a: Figure, b: Figure, repeat: tuple[float, str]) -> tuple[bool, float, str]:
    """(agree, relative difference, derivation of the noise) for two figures of the same work."""
    ca, cb = cost_for_compare(a), cost_for_compare(b)
    if not ca or not cb:
        return False, math.inf, ""
    allowed, why = noise(a, b, repeat)
    off = abs(ca / cb - 1)
    return off <= allowed, off, f"{off:.1%} apart, allowed {allowed:.1%} ({why})"


def _work(f: Figure) -> tuple:
    """What two figures must share to be the same work on the same core."""
    return (f.library, core_family(f.core), f.algorithm, f.mode, f.operation, f.key_bits, f.curve, f.message_bytes,
            f.chunk_bytes, f.block_bytes, f.metric, f.variant)


def _where(f: Figure) -> str:
    return f"{f.part} {f.library} {f.version} '{f.section}'"


@dataclass(frozen=True)
class Fit:
    """How one claim's references (figures that make that claim elsewhere) meet a cost."""

    claims: Claims
    references: tuple[Figure, ...]
    low: float
    high: float

    def fits(self, cost: float) -> bool:
        return self.low <= cost <= self.high

    def ratio(self, cost: float) -> float:
        """``cost`` over the nearest reference."""
        nearest = min(self.references, key=lambda r: abs(math.log(cost / cost_for_compare(r))))
        return cost / cost_for_compare(nearest)

    def text(self, cost: float) -> str:
        names = ", ".join(f"{r.part} {r.version} {fmt(cost_for_compare(r))}" for r in self.references[:4])
        more = f" and {len(self.references) - 4} more" if len(self.references) > 4 else ""
        return (f"{self.claims.describe()} elsewhere ({names}{more}): allowed {fmt(self.low)}..{fmt(self.high)}, "
                f"{self.ratio(cost):.2f}x the nearest")


def references(f: Figure, claims: Claims, figures: list[Figure], exclude: set[tuple[str, str]],
               any_version: bool = False) -> Fit | None:
    """The figures of ``f``'s work on its core that make ``claims``, outside the sections
    ``exclude`` (source, section): those of ``f``'s library version when there are any (the same
    code), else of every version; None when there are none."""
    found = [g for g in figures if _work(g) == _work(f) and (g.source, g.section) not in exclude
             and cost_for_compare(g) and claims_of(g) == claims]
    same_version = [g for g in found if g.version == f.version]
    refs = tuple(sorted(found if any_version else same_version or found, key=cost_for_compare))
    if not refs:
        return None
    tol = 1 + CROSS_BOARD_TOLERANCE
    return Fit(claims, refs, cost_for_compare(refs[0]) / tol, cost_for_compare(refs[-1]) * tol)


def _claim_text(f: Figure, c: Claims) -> str:
    quoted = "".join(f"; {s.text()}" for s in c.statements)
    return f"{_where(f)} claims {c.describe()}{quoted}"


def _distance(fit: Fit | None, cost: float) -> float | None:
    """How far (log) ``cost`` lies outside ``fit``'s allowed range (0 inside), None without references."""
    if fit is None:
        return None
    return max(0.0, math.log(fit.low / cost), math.log(cost / fit.high))


def _engine_free(figures: list[Figure], f: Figure, engine: str) -> bool:
    """True when no figure of ``f``'s section claims ``engine``: the section does not drive it."""
    return not any(g.source == f.source and g.section == f.section and g.implementation == "hardware"
                   and engine in g.hw for g in figures)


def rule_code_path(figures: list[Figure], parts: dict[str, Part]) -> Result:
    """``code-path``: figures of one library on one core that agree within their noise for the
    same work but whose sections claim different code. The numbers support the claim whose
    references elsewhere hold the common cost (module doc); when the references cannot tell and
    one side claims a peripheral that the other side's section drives for nothing, that other side
    ran software (it had no peripheral to use), so the peripheral claim is the wrong one; likewise a
    side that names no assembly for the algorithm ran C, so the assembly claim is the wrong one."""
    out: Result = []
    values = [f for f in value_figures(figures) if f.algorithm != "RNG" and cost_for_compare(f)]
    repeats = {library: repeatability(figures, library) for library in {f.library for f in values}}
    for members in group_by(values, _work).values():
        for a, b in itertools.combinations(members, 2):
            if (a.source, a.section) == (b.source, b.section):
                continue
            ca_claims, cb_claims = claims_of(a), claims_of(b)
            differs = ca_claims.differs(cb_claims)
            if not differs:
                continue
            agree, _, how = same_code(a, b, repeats[a.library])
            if not agree:
                continue
            cost = math.sqrt(cost_for_compare(a) * cost_for_compare(b))
            exclude = {(a.source, a.section), (b.source, b.section)}
            fit_a = references(a, ca_claims, values, exclude)
            fit_b = references(b, cb_claims, values, exclude)
            head = (f"{a.algorithm} {a.operation}: {fmt(cost_for_compare(a))} {per_unit(a)} ({a.text} {a.unit}) in "
                    f"{_where(a)} and {fmt(cost_for_compare(b))} ({b.text} {b.unit}) in {_where(b)}, {how}: the same "
                    f"code ran in both, yet the claims differ in {' and '.join(differs)}: "
                    f"{_claim_text(a, ca_claims)}; {_claim_text(b, cb_claims)}")
            evidence = "; ".join(f"{side} claim against {fit.text(cost)}" for side, fit in
                                 (("the first", fit_a), ("the second", fit_b)) if fit is not None)
            d_a, d_b = _distance(fit_a, cost), _distance(fit_b, cost)
            supported, why = None, evidence
            margin = math.log(1 + CROSS_BOARD_TOLERANCE)
            if d_a is not None and d_b is not None and abs(d_a - d_b) > margin:
                supported = a if d_a < d_b else b  # the claim whose references lie nearer, by more than a board
            elif (d_a is None) != (d_b is None) and (d_a or d_b):
                supported = a if d_a is None else b  # the other claim's references do not hold it
                why = f"{evidence}: that claim's references do not hold the cost, and no figure elsewhere makes the other"
            elif d_a is None and d_b is None and bool(ca_claims.engine) != bool(cb_claims.engine):
                hw, sw = (a, b) if ca_claims.engine else (b, a)
                engine = (ca_claims if hw is a else cb_claims).engine
                if _engine_free(figures, sw, engine):
                    supported = sw
                    why = (f"no figure elsewhere makes either claim; '{sw.section}' drives no {engine} for any "
                           f"figure, so it ran software, and so did '{hw.section}'")
            elif d_a is None and d_b is None and differs == ["asm"] and not (ca_claims.asm and cb_claims.asm):
                plain = a if not ca_claims.asm else b
                supported = plain
                why = (f"no figure elsewhere makes either claim; '{plain.section}' names no assembly for "
                       f"{plain.algorithm}, so it ran C, and so did the other")
            if supported is not None:
                wrong = b if supported is a else a
                right_claims = ca_claims if supported is a else cb_claims
                text = (f"{head}. The numbers support {right_claims.describe()} ({_where(supported)}): {why}; "
                        f"{_where(wrong)} did not run what it claims")
                out += [(wrong.id, Finding("code-path", "suspicious", text)),
                        (supported.id, Finding("code-path", "consistent", text, tests="context"))]
            else:
                why = ("both claims fit their references" if d_a == d_b == 0 else
                       "the two claims' references lie about as far from it, within one board's allowance" if evidence
                       else
                       "no other figure of this library on this core makes either claim")
                text = f"{head}. The numbers cannot tell which claim ran ({why}{'; ' + evidence if evidence else ''})"
                out += [(a.id, Finding("code-path", "suspicious", text)), (b.id, Finding("code-path", "suspicious", text))]
    return out


def claim_spread(figures: list[Figure], library: str, core: str) -> tuple[float, str]:
    """How far apart the figures of one claim of ``library`` on ``core`` lie on the pages (across
    versions, boards and sections): the largest ratio between two figures of the same work and the
    same claim, over every claim. A figure further than that outside its own claim's references is
    not a version or board difference of that claim."""
    same = [f for f in value_figures(figures) if f.library == library and core_family(f.core) == core
            and is_public_key(f) and cost_for_compare(f)]
    worst, where = 1.0, "one figure per work and claim"
    for members in group_by(same, lambda f: (*_work(f), claims_of(f))).values():
        costs = sorted(members, key=cost_for_compare)
        ratio = cost_for_compare(costs[-1]) / cost_for_compare(costs[0])
        if ratio > worst:
            worst = ratio
            where = (f"{claims_of(costs[0]).describe()} {costs[0].algorithm} {costs[0].operation}: {costs[0].part} "
                     f"{costs[0].version} {fmt(cost_for_compare(costs[0]))} vs {costs[-1].part} {costs[-1].version} "
                     f"{fmt(cost_for_compare(costs[-1]))}")
    return worst, where


def rule_code_path_claim(figures: list[Figure], parts: dict[str, Part]) -> Result:
    """``code-path-claim``: a public-key figure further outside every figure of its own claim on
    its core (the same library, work and claim, in other sections) than one claim of the library
    spans on that core elsewhere (:func:`claim_spread`: versions and boards), and inside the
    figures of another claim (any version), ran that other code; the message names both and the
    page notes that decided the claim. Outside every claim it is not flagged here: against a single
    reference, which of the two is off cannot be told."""
    out: Result = []
    values = [f for f in value_figures(figures) if is_public_key(f) and cost_for_compare(f)]
    for f in values:
        claims = claims_of(f)
        own = references(f, claims, values, {(f.source, f.section)})
        if own is None:
            continue
        cost = cost_for_compare(f)
        others_sections = [g for g in values if (g.source, g.section) != (f.source, f.section)]
        spread, spread_where = claim_spread(others_sections, f.library, core_family(f.core))
        if own.low / spread <= cost <= own.high * spread:
            continue
        others = {claims_of(g) for g in values if _work(g) == _work(f) and claims_of(g) != claims}
        # another claim fits when its figures of any version hold the cost (the claim's own
        # references above are of the figure's version where there are any)
        fitting = [fit for c in sorted(others, key=Claims.describe)
                   if (fit := references(f, c, values, {(f.source, f.section)}, any_version=True)) is not None
                   and fit.fits(cost)]
        side = "faster" if cost < own.low else "slower"
        text = (f"{f.algorithm} {f.operation} {fmt(cost)} {per_unit(f)} ({f.text} {f.unit}): {_claim_text(f, claims)}, "
                f"but it is {side} than every figure of that claim on {core_family(f.core)}: {own.text(cost)}, beyond "
                f"the {spread:.2f}x one claim of this library spans on this core elsewhere on the pages ({spread_where})")
        if not fitting:
            continue  # one reference against one figure: which of the two is off cannot be told
        text += ("; it fits " + "; ".join(fit.text(cost) for fit in fitting) + ": the numbers support "
                 + " or ".join(fit.claims.describe() for fit in fitting) + ", not the claim")
        out.append((f.id, Finding("code-path-claim", "suspicious", text)))
    return out
