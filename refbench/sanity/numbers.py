"""The numbers every sanity rule shares, each tolerance with where it comes from (:data:`TOLERANCES`:
printed digits, the algorithm's cost ratio, or a stated allowance with the evidence that bounds
it); the printed resolution of a published number; the cost a rule compares (cycles per byte or
per operation); the grouping of figures; and how a number is written in a message. A leaf module:
it imports no other rule.

Two principles hold everywhere:

* **printed digits**: a number is known only to half a unit of its last printed digit
  (:func:`printed_resolution`); a ratio of printed numbers carries the resolution of both, and a
  stated allowance carries its own (5 % is 4.5..5.5 %: a ratio of 1.051 is not beyond "5 %").
  A figure within the resolution of its printed digits is never flagged.
* **cost ratios**: where two figures do different amounts of work (key sizes, curves), the band
  of their ratio is derived from the algorithm's operation counts (:func:`scaling_band`), not
  chosen; the message prints the derivation.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Literal

from refbench.published.model import Figure
from refbench.published.normalise import normalise

Basis = Literal["printed digits", "cost ratio", "measured spread", "stated"]


@dataclass(frozen=True)
class Tolerance:
    """A tolerance, the kind of source it comes from, and the source in words."""

    value: float
    text: str  # as stated, with its digits: its own resolution is half a unit of the last one
    basis: Basis
    source: str

    @property
    def resolution(self) -> float:
        """Half a unit of the last stated digit (``5 %`` -> 0.005)."""
        digits = self.text.rstrip(" %")
        return printed_resolution(digits) / (100 if self.text.endswith("%") else 1)


#: Repeatability of a timed benchmark run on a microcontroller (timer tick, interrupts,
#: cache/flash-prefetch state between runs): two measurements of the same work are taken to
#: agree within 5 %. A stated allowance: no published repeatability study of these boards was
#: found. Evidence that it is not too tight: the wolfSSL page measured the same software build
#: twice on the STM32WB55 ("STM PKA only" and "No HW Crypto", both FastMath: the PKA is not
#: used for AES, ChaCha20, Poly1305, SHA-256, HMAC), and the 18 pairs differ by at most 0.7 %
#: (e.g. AES-256-CBC-dec 425.000 vs 426.540 KB/s, POLY1305 4.663 vs 4.693 MB/s). Used for "these
#: two figures do the same work" invariants, with the printed resolution of both figures and its
#: own ("5 %": up to 5.5 %) added.
SAME_WORK = Tolerance(0.05, "5 %", "stated",
                      "repeatability of a timed run; the page's own repeated build on the STM32WB55 spreads <= 0.7 %")
SAME_WORK_TOLERANCE = SAME_WORK.value

#: Cross-board: the same C code built with the same compiler on the same core differs only
#: through the memory system (flash wait states behind an ART/prefetch/cache, SRAM vs TCM,
#: caches on or off). 25 % is the allowance this project states for that effect without a
#: model of it; beyond it the pair needs a memory-system explanation (the emulator rule's emulation can
#: supply or refute one, with the same 25 % between the emulated and the published ratio), so
#: the pair is reported as suspicious, not inconsistent.
CROSS_BOARD = Tolerance(0.25, "25 %", "stated",
                        "memory-system effect allowed without a model; the emulator rule's emulation explains or refutes a larger gap")
CROSS_BOARD_TOLERANCE = CROSS_BOARD.value

#: Cortex-M multiprecision arithmetic works on 32-bit words (ARMv7-M UMULL/UMLAL/UMAAL 32x32->64,
#: ARMv7-M ARM A7.7; ARMv6-M MULS 32x32->32 with 16-bit halves): an n-bit operand is ceil(n/32) words.
WORD_BITS = 32
#: Word products of one n-word multiplication: n^2 schoolbook/Comba, fewer with Karatsuba; the
#: loops, calls and carries around them grow linearly or not at all with n, and at these sizes
#: can weigh as much as the products: the cost ratio of two sizes' multiplications is known only to
#: lie between 1 (a bigger operand never costs less) and (n2/n1)^2.
MULTIPLICATION_EXPONENT = 2
#: A modular reduction costs between ~0 word products (a special-form prime: NIST P-256/P-384 fast
#: reduction, FIPS 186-4 Appendix D.2; 2^255-19, 2^448-2^224-1, 2^521-1) and n^2 + n (Montgomery,
#: HAC 14.32), i.e. at most one more multiplication: where an implementation may reduce one size
#: one way and the other size the other, a modular multiplication's cost ratio moves by at most 2x.
REDUCTION_FACTOR = 2.0

#: Every tolerance of the sanity rules and its basis (a test checks each states one).
TOLERANCES: dict[str, Tolerance] = {
    "same work": SAME_WORK,
    "cross-board": CROSS_BOARD,
    "printed number": Tolerance(0.0, "half a unit of the last printed digit", "printed digits",
                                "the printed text of each figure (printed_resolution)"),
    "size scaling": Tolerance(0.0, "derived per pair", "cost ratio",
                              "operation counts and word sizes of exponentiation and scalar multiplication "
                              "(scaling_band)"),
}


def printed_resolution(text: str) -> float:
    """Half a unit in the last printed digit: ``10.400`` -> 0.0005, ``11 270`` -> 0.5."""
    text = text.replace(" ", "")
    if "." in text:
        return 0.5 * 10 ** -len(text.split(".")[1])
    return 0.5


def relative_resolution(figure: Figure) -> float:
    """The printed resolution of ``figure`` as a fraction of its value (0 for a printed zero),
    plus, for a figure of a log whose timer counts coarser than it prints, one timer step over
    the row's duration (``timer_resolution``, :mod:`refbench.inputs.resolution`)."""
    printed = printed_resolution(figure.text) / figure.value if figure.value else 0.0
    step, duration = figure.aux_value("timer_resolution"), figure.aux_value("duration")
    return printed + (step.value / duration.value if step and duration and duration.value else 0.0)


def same_work_tolerance(*figures: Figure) -> float:
    """The allowance for "these figures do the same work": SAME_WORK_TOLERANCE, its own stated
    resolution ("5 %" is known to 0.5 %), plus the relative printed resolution of every figure
    compared (``10.400 MB/s`` adds 0.0005/10.4 = 0.005 %)."""
    return SAME_WORK.value + SAME_WORK.resolution + sum(relative_resolution(f) for f in figures)


def words(bits: int) -> int:
    """32-bit words of an operand of ``bits`` bits."""
    return -(-bits // WORD_BITS)


ScalingKind = Literal["exponentiation", "short exponentiation", "public exponent", "scalar multiplication"]
#: Group operations of the big size over the small one, (lowest, highest), per kind (size = big/small
#: bits): a private exponentiation takes ~1 squaring per exponent bit and the exponent is as long as
#: the modulus (RSA d, or d mod p-1 with CRT: both scale); DH/DSA exponents may be the subgroup
#: order q, whose length the pages do not state (1..size); a public exponent (e = 65537: 17
#: multiplications) is the same at every size; a scalar multiplication takes ~1 doubling per bit of
#: the group order.
GROUP_OPERATIONS: dict[str, Callable[[float], tuple[float, float]]] = {
    "exponentiation": lambda size: (size, size),
    "short exponentiation": lambda size: (1.0, size),
    "public exponent": lambda size: (1.0, 1.0),
    "scalar multiplication": lambda size: (size, size),
}


def scaling_band(kind: ScalingKind, small_bits: int, big_bits: int, tolerance: float,
                 special_form: bool = False) -> tuple[float, float, str]:
    """(lowest, highest) exponent e of cost(big)/cost(small) = (big_bits/small_bits)^e, and the
    derivation in words.

    cost = (group operations, :data:`GROUP_OPERATIONS`) x (one modular multiplication of
    n = ceil(bits/32) words, cost ratio between 1 and (n2/n1)^2, :data:`MULTIPLICATION_EXPONENT`),
    the multiplication ratio times or over :data:`REDUCTION_FACTOR` when ``special_form`` (a
    special-form prime lets one size reduce in ~0 products and the other not); and the two figures
    may disagree by ``tolerance`` (repeatability and printed digits, as for two figures of the same
    work), which widens the band by (1 + tolerance) each way.
    """
    size = big_bits / small_bits
    n = words(big_bits) / words(small_bits)
    reduction = REDUCTION_FACTOR if special_form else 1.0
    mult_low, mult_high = 1.0 / reduction, n ** MULTIPLICATION_EXPONENT * reduction
    ops_low, ops_high = GROUP_OPERATIONS[kind](size)
    spread = 1 + tolerance
    low = math.log(ops_low * mult_low / spread) / math.log(size)
    high = math.log(ops_high * mult_high * spread) / math.log(size)
    why = (f"{kind}: group operations x{ops_low:.2f}..{ops_high:.2f}; {words(small_bits)} -> {words(big_bits)} "
           f"words: one multiplication x{mult_low:.2f}..{mult_high:.2f}"
           + (" (a special-form reduction for one size only)" if special_form else "")
           + f"; +/-{tolerance:.1%} between the two figures")
    return low, high, why


def fmt(x: float) -> str:
    if x >= 1e6:
        return f"{x:,.0f}"
    if x >= 100:
        return f"{x:.1f}"
    return f"{x:.3g}" if x < 1 else f"{x:.2f}"



def figure_context(f: Figure, *extra: object) -> tuple[object, ...]:
    """What two figures of one page must share to be compared (source, part, library, build,
    message and metric), plus ``extra``."""
    return (f.source, f.part, f.library, f.version, f.config, f.implementation, f.variant, f.message_bytes,
            f.chunk_bytes, f.metric, *extra)


def value_figures(figures: Iterable[Figure]) -> list[Figure]:
    """The figures that state a speed (throughput, time per operation, cycles), not a footprint."""
    return [f for f in figures if f.metric in ("throughput", "time_per_op", "cycles")]


def group_by(figures: list[Figure], key: Callable[[Figure], tuple | None]) -> dict[tuple, list[Figure]]:
    """The figures by ``key`` (a figure whose key is None is left out)."""
    groups: dict[tuple, list[Figure]] = defaultdict(list)
    for f in figures:
        k = key(f)
        if k is not None:
            groups[k].append(f)
    return groups


def per_unit(f: Figure) -> str:
    return "cycles/byte" if f.metric == "throughput" or (f.metric == "cycles" and f.message_bytes) else "cycles/op"


def cost_for_compare(f: Figure) -> float | None:
    """Cycles per byte of a throughput (or of a cycle count over a stated message), else cycles per operation."""
    n = normalise(f)
    if f.metric == "throughput":
        return n.cycles_per_byte
    if f.metric == "cycles" and f.message_bytes:
        return n.cycles_per_byte
    return n.cycles_per_op



# --- Issue 14 part B: the tolerances of library-faithful workloads and the new invariants ---------
TOLERANCES.update({
    "compiler band": Tolerance(0.0, "measured per variant", "measured spread",
                               "zig clang vs arm-none-eabi-gcc at -Os/-O2/-O3 for the compared variant, for a figure "
                               "built with a compiler we cannot run (compiler_band.py, compiler_bands.json)"),
    "any-code floor": Tolerance(0.0, "derived per algorithm", "cost ratio",
                                "fewest ALU operations per block over the core's issue width: a closed library is "
                                "flagged only below it (code_bounds.py)"),
    "Hash_DRBG cost": Tolerance(0.0, "derived per request size", "cost ratio",
                                "SHA-256 compressions of Hash_DRBG Generate (SP 800-90A 10.1.1.4) against hashing the "
                                "same bytes (same_build.drbg_hash_ratio_bounds)"),
    "library ratio": Tolerance(0.0, "Tukey far-out fences", "measured spread",
                               "the shared rows' own log-ratio quartiles, 3 interquartile ranges, and never within "
                               "the cross-board allowance of the median; across two cores also never within the "
                               "cross-board allowance of the row's emulated core ratio (variants x memory "
                               "configurations, widened by the measured compiler band) times the pair's common "
                               "factor (cross_board.rule_library_ratio)"),
})
