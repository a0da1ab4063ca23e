"""Hardware-accelerated figures judged against the peripheral's documented processing time.

A published hardware figure cannot be faster than the peripheral that computed it. The part
files (``refbench/parts/*.toml``, ``[crypto_hw.<NAME>.timing]``) carry the processing
times the reference manuals state -- cycles per data block per mode and key size for CRYP and
the AES coprocessors, per 512-bit block for HASH, per random word for RNG, per operation for
PKA -- with the clock those cycles count and that clock's documented maximum. From them
:func:`judge_hardware` derives the least number of *core* cycles per byte (or per operation)
the figure can take:

    peripheral cycles per block / bytes per block x core clock / fastest peripheral clock

(``CRYP AES-128: 14 HCLK per 16-byte block = 0.875 HCLK/B; HCLK <= core = 160 MHz -> x1 =
0.875 core c/B``). When the part has several engines for the function (AES and SAES on the
U5), the bound is the least over the engines with a documented time.

Verdicts (rule name ``peripheral``):

* published faster than the bound beyond the allowance ``SAME_WORK_TOLERANCE`` plus the
  figure's printed resolution -> ``inconsistent`` (the figure claims more than the peripheral
  can do);
* otherwise ``consistent``; the message says how many times the peripheral time the figure is
  and what the rest must be (data transfer by the CPU or DMA, driver, per-call key setup...);
* a table of averages (the PKA computation times) is no bound: faster than the average gives
  ``suspicious``, not ``inconsistent``; the ECDSA-signature table itself states that NIST
  moduli are faster than its averages, so a NIST-curve signature below it stays consistent;
* an engine of the part with no documented time for the case turns a would-be
  ``inconsistent`` into ``suspicious`` (that engine might be faster);
* so does a bound whose table is ``unconfirmed`` (the part's own table was not seen): it can
  make a figure suspicious, never prove it impossible;
* a table *borrowed* from another part family's manual (its source begins "not this part's
  manual", :func:`borrowed`) is named as borrowed in every message, and a figure faster than it is
  untested on that side (``tests="bound"``): another family's numbers say nothing certain about
  this part, neither that the figure is wrong nor what explains it;
* the peripheral's clock follows the clock tree the manual gives (:func:`_clock_words`), also
  when the page states a core clock above the part's maximum (the manual's bus/core ratio at the
  maximum is kept; no bus clock is assumed that no configuration allows);
* no documented number for the figure's peripheral, mode, key size or operation -> not
  modelled, with the reason;
* a page note in the figure's scope about its peripheral (``notes.toml`` ``explains =
  "peripheral"``) is quoted after the numbers: what the page says beside what the manual gives.

Every message carries the numbers (cycles, block size, clocks, ratio, source and its
confidence) so a reader can redo the arithmetic by hand.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from refbench.parts import CryptoBlock, PartProfile, PeripheralTiming, TimingRow
from refbench.published.model import Figure
from refbench.published.normalise import normalise
from refbench.published.notes import notes_for
from refbench.sanity.rules import SAME_WORK_TOLERANCE, fmt, relative_resolution
from refbench.sanity.verdicts import Finding, Tests, Verdict

__all__ = ["RULE", "HardwareJudgement", "PeripheralBound", "judge_hardware", "peripheral_bounds"]

RULE = "peripheral"
Unit = Literal["c/B", "cycles"]

#: How the manuals name the clocks the cycles count.
CLOCK_NAMES = {"hclk": "HCLK", "rng_clk": "RNG_CLK", "shsi": "SHSI"}
#: NIST prime curves (FIPS 186-5 / SP 800-186): RM0456 Table 523 note 2 says their moduli are
#: faster than the table's random-modulus averages.
NIST_CURVES = frozenset({"P-192", "P-224", "P-256", "P-384", "P-521"})
#: What the time above the peripheral's must be spent on, per function.
REST = {
    "AES": "data transfer by the CPU or DMA, the driver, and per-call key/IV setup",
    "DES": "data transfer by the CPU or DMA, the driver, and per-call key/IV setup",
    "HASH": "data transfer by the CPU or DMA, the driver, padding and the final/HMAC key blocks",
    "RNG": "reading the data register, status polling and the driver",
    "PKA": ("operand transfer to and from the PKA RAM, format conversions and the library's own steps "
            "(hashing, padding, nonce generation)"),
}


@dataclass(frozen=True)
class HardwareJudgement:
    """The peripheral rule's view of one hardware figure.

    ``bound`` is the least core cycles per byte (``unit`` ``"c/B"``) or per operation
    (``"cycles"``) the documented processing time allows, ``ratio`` the published value over
    it; both are None when the case is not modelled (``modelled`` False, ``explanation`` says
    why). ``source`` names the part file table, the document row and its confidence.
    """

    peripheral: str | None
    bound: float | None
    unit: Unit | None
    ratio: float | None
    explanation: str
    finding: Finding | None
    modelled: bool
    source: str


@dataclass(frozen=True)
class PeripheralBound:
    """One engine's documented lower bound for one figure, with its arithmetic in words."""

    block: str
    bound: float
    unit: Unit
    kind: str
    arithmetic: str
    source: str
    confidence: str
    #: the document a borrowed table comes from (:func:`borrowed`), or "" for this part's own table
    borrowed_from: str = ""


@dataclass(frozen=True)
class _Need:
    """What a figure asks of the peripheral: function, operation and size, per byte or per op."""

    function: str
    operation: str
    key_bits: int
    unit: Unit
    label: str


def _need(f: Figure) -> tuple[_Need | None, str]:
    """The documented quantity the figure needs, or None and the reason none applies."""
    if len(f.hw) != 1:
        return None, f"the figure names {len(f.hw)} peripherals ({', '.join(f.hw) or 'none'}), not one"
    function = f.hw[0]
    if function == "AES":
        mode = (f.mode or "").split(" ")[0].upper()
        if mode not in ("ECB", "CBC", "CTR", "GCM", "CCM") or not f.key_bits:
            return None, f"no documented AES processing time applies to {f.algorithm} (mode {f.mode!r})"
        return _Need("AES", mode, f.key_bits, "c/B", f"AES-{f.key_bits} {mode}"), ""
    if function == "DES":
        operation = "TDES" if f.algorithm.upper().startswith(("3DES", "TDES")) else "DES"
        return _Need("DES", operation, 0, "c/B", f"{operation} {f.mode or ''}".strip()), ""
    if function == "HASH":
        digest = f.algorithm.removeprefix("HMAC-")
        label = f"{digest} (inside HMAC)" if f.algorithm.startswith("HMAC-") else digest
        return _Need("HASH", digest, 0, "c/B", label), ""
    if function == "RNG":
        return _Need("RNG", "random", 0, "c/B", "random words"), ""
    if function == "PKA":
        return _pka_need(f)
    return None, f"unknown peripheral function {function!r}"


def _pka_need(f: Figure) -> tuple[_Need | None, str]:
    family = f.algorithm.split("-")[0]
    bits = f.key_bits or 0
    if family == "ECDSA" and f.operation in ("sign", "verify"):
        return _Need("PKA", f"ecdsa-{f.operation}", bits, "cycles", f"ECDSA {f.operation} over a {bits}-bit modulus"), ""
    if family in ("ECDH", "ECC") and f.operation in ("agree", "keygen"):
        what = "key agreement" if f.operation == "agree" else "key generation"
        return _Need("PKA", "ecc-scalar-mul", bits, "cycles",
                     f"ECC {what} = at least one scalar multiplication over a {bits}-bit modulus"), ""
    if family == "RSA" and f.operation == "sign":
        return _Need("PKA", "modexp-private", bits, "cycles",
                     f"RSA-{bits} private operation = one modular exponentiation with a {bits}-bit exponent"), ""
    if family == "RSA" and f.operation == "verify":
        return _Need("PKA", "modexp-public", bits, "cycles",
                     f"RSA-{bits} public operation = one modular exponentiation with a short public exponent"), ""
    if family in ("DH", "DSA"):
        return None, (f"{f.algorithm} {f.operation}: the exponent length of its modular exponentiation is not stated "
                      "on the page, and the documented PKA tables give exponents of 2-17 bits or of the modulus "
                      "length only")
    return None, f"{f.algorithm} {f.operation} is not an operation of the documented PKA computation-time tables"


def _cycles(x: float) -> str:
    """A documented cycle count as printed in the manual (``14``, ``2,744,000``, ``55.2``)."""
    return f"{x:,.0f}" if float(x).is_integer() else f"{x:g}"


def _document(citation_source: str) -> str:
    """The document a timing source cites first (``RM0090 Rev 21``), for short messages."""
    match = re.search(r"RM\d{4}(?: Rev \d+)?", citation_source)
    return match.group(0) if match else citation_source.split(":")[0][:60]


def _clock_words(timing: PeripheralTiming, core_mhz: float, core_max_mhz: float) -> tuple[float, str]:
    """(core cycles per peripheral cycle, the sentence that says why).

    The clock tree as the manuals give it: a peripheral on the core's bus clock (``clock_at_most_core``:
    an HCLK divided from the same SYSCLK as the core's) runs at most at the core clock and at most
    at its own documented maximum (HCLK <= 240 MHz at a 480 MHz H7 core: the divider the manual
    requires). Both limits hold at the part's documented maximum core clock ``core_max_mhz``; a page
    that states a core clock above it describes a configuration the manual does not (no divider
    the manual gives puts a 48 MHz-maximum bus under a 64 MHz core): the bus then keeps the ratio
    the manual gives at the maximum (bus maximum / core maximum), said in the message. A clock
    independent of the core (an RNG kernel clock) is capped by its own maximum alone."""
    name = CLOCK_NAMES.get(timing.clock, timing.clock)
    if not timing.clock_at_most_core:
        factor = core_mhz / timing.max_clock_mhz(core_mhz)
        return factor, f"{name} <= {timing.clock_max_mhz:g} MHz, independent of the {core_mhz:g} MHz core -> x{factor:.3g}"
    if core_mhz > core_max_mhz:
        ratio = min(1.0, timing.clock_max_mhz / core_max_mhz)
        fastest = core_mhz * ratio
        return core_mhz / fastest, (f"{name} <= {fastest:g} MHz: the stated {core_mhz:g} MHz core is above the part's "
                                    f"documented {core_max_mhz:g} MHz, so the manual's clock tree (bus <= "
                                    f"{timing.clock_max_mhz:g} MHz at that maximum, ratio {ratio:.3g}) is kept -> "
                                    f"x{core_mhz / fastest:.3g}")
    fastest = timing.max_clock_mhz(core_mhz)
    factor = core_mhz / fastest
    if fastest >= core_mhz:
        return factor, f"{name} <= core clock ({core_mhz:g} MHz) -> x1"
    return factor, f"{name} <= {timing.clock_max_mhz:g} MHz at a {core_mhz:g} MHz core -> x{factor:.3g}"


#: How a part file says a timing table is another part's: its source begins with these words.
BORROWED_MARK = "not this part's manual"


def borrowed(timing: PeripheralTiming) -> str:
    """The document a borrowed table comes from (its source begins with BORROWED_MARK: the numbers
    are another part family's manual, this part's own table was not seen), or ""."""
    source = timing.citation.source
    if not source.startswith(BORROWED_MARK):
        return ""
    return _document(source.removeprefix(BORROWED_MARK))


def _matching(timing: PeripheralTiming, need: _Need) -> list[TimingRow]:
    return [
        row for row in timing.rows
        if row.function == need.function and row.operation == need.operation
        and (row.key_bits == need.key_bits or need.function in ("DES", "HASH", "RNG"))
    ]


def _bound_for(profile: PartProfile, block: CryptoBlock, need: _Need, f: Figure) -> PeripheralBound | None:
    timing = block.timing
    if timing is None:
        return None
    rows = _matching(timing, need)
    factor, clock_words = _clock_words(timing, f.clock_mhz, profile.board.max_clock_mhz)
    name = CLOCK_NAMES.get(timing.clock, timing.clock)
    where = f"{profile.name} [crypto_hw.{block.name}.timing]"
    document = _document(timing.citation.source)
    if (lender := borrowed(timing)):
        document = f"borrowed from {lender} (another part's manual; {profile.part}'s own table not seen)"
    if need.unit == "cycles":
        if not rows:
            return None
        row = min(rows, key=lambda r: r.cycles)
        variant = f", {row.variant} mode" if row.variant else ""
        bound = row.cycles * factor
        arithmetic = (f"{block.name} ({need.label}): {_cycles(row.cycles)} {name} cycles ({document} {row.ref}{variant}, "
                      f"{timing.citation.confidence}); {clock_words} = {bound:,.0f} core cycles")
        return PeripheralBound(block.name, bound, "cycles", row.kind, arithmetic,
                               f"{where}: {document} {row.ref}", timing.citation.confidence, lender)
    blocks = [row for row in rows if row.phase == "block"]
    if not blocks:
        return None
    row = min(blocks, key=lambda r: r.cycles / r.bytes)
    per_byte = row.cycles / row.bytes
    arithmetic = (f"{block.name} ({need.label}): {_cycles(row.cycles)} {name} per {row.bytes}-byte block = "
                  f"{fmt(per_byte)} {name}/B")
    if f.message_bytes:
        once = [min((r for r in rows if r.phase == phase), key=lambda r: r.cycles)
                for phase in ("init", "tag") if any(r.phase == phase for r in rows)]
        if once:
            fixed = sum(r.cycles for r in once)
            blocks_needed = -(-f.message_bytes // row.bytes)
            per_byte = (row.cycles * blocks_needed + fixed) / f.message_bytes
            phases = " + ".join(f"{_cycles(r.cycles)} ({r.phase})" for r in once)
            arithmetic += (f", over a {f.message_bytes}-byte message ({blocks_needed} blocks + {phases}) = "
                           f"{fmt(per_byte)} {name}/B")
    bound = per_byte * factor
    arithmetic += f"; {clock_words} = {fmt(bound)} core c/B ({document} {row.ref}, {timing.citation.confidence})"
    return PeripheralBound(block.name, bound, "c/B", row.kind, arithmetic, f"{where}: {document} {row.ref}",
                           timing.citation.confidence, lender)


def _engines(profile: PartProfile, need: _Need) -> list[CryptoBlock]:
    engines = list(profile.blocks_providing(need.function))
    if need.function == "AES":
        engines = [b for b in engines if b.provides is not None and need.key_bits in b.provides.aes_key_bits]
    if need.function == "HASH":
        engines = [b for b in engines if b.provides is not None and need.operation in b.provides.hash_algorithms]
    return engines


def peripheral_bounds(f: Figure, profile: PartProfile) -> tuple[list[PeripheralBound], list[str], str]:
    """(documented bounds per engine, the engines with no documented time and why, reason when
    nothing applies). The reason is "" when at least one engine could do the work."""
    need, why = _need(f)
    if need is None:
        return [], [], why
    engines = _engines(profile, need)
    if not engines:
        return [], [], (f"{profile.part} has no peripheral providing {need.label} "
                        f"(present: {', '.join(sorted(profile.crypto_functions())) or 'none'})")
    bounds: list[PeripheralBound] = []
    undocumented: list[str] = []
    for block in engines:
        bound = _bound_for(profile, block, need, f)
        if bound is not None:
            bounds.append(bound)
        elif block.timing is None:
            undocumented.append(f"{block.name}: no processing time documented in the sources read")
        else:
            undocumented.append(f"{block.name}: its documented table has no {need.label} entry")
    return bounds, undocumented, ""


def _not_modelled(peripheral: str | None, why: str) -> HardwareJudgement:
    return HardwareJudgement(peripheral, None, None, None, f"not modelled: {why}", None, False, "")


def judge_hardware(f: Figure, profile: PartProfile | None) -> HardwareJudgement:
    """The peripheral rule for one hardware-accelerated figure on the part ``profile``."""
    if f.implementation != "hardware":
        raise ValueError(
            f"Invalid figure ({f.id}: implementation {f.implementation!r}) for the peripheral rule; accepted: hardware"
        )
    peripheral = f.hw[0] if len(f.hw) == 1 else None
    if profile is None:
        return _not_modelled(peripheral, f"no board profile for part {f.part}")
    bounds, undocumented, why = peripheral_bounds(f, profile)
    if why:
        return _not_modelled(peripheral, why)
    if not bounds:
        return _not_modelled(peripheral, "no documented processing time: " + "; ".join(undocumented))
    best = min(bounds, key=lambda b: b.bound)
    normalised = normalise(f)
    published = normalised.cycles_per_byte if best.unit == "c/B" else normalised.cycles_per_op
    if published is None:
        return _not_modelled(peripheral, f"the figure gives no {'cycles per byte' if best.unit == 'c/B' else 'cycles per operation'}")
    published_text = f"{fmt(published)} c/B" if best.unit == "c/B" else f"{published:,.0f} cycles"
    if peripheral == "RNG" and f.library == "wolfSSL":
        return HardwareJudgement(
            peripheral, None, None, None,
            (f"not modelled: wolfSSL's RNG benchmark times wc_RNG_GenerateBlock, a Hash_DRBG (SP 800-90A) that the "
             f"RNG only seeds (the page itself says WOLFSSL_SMALL_STACK_CACHE 'improves the DRBG RNG performance'), "
             f"so the RNG's rate does not bound it; for reference, raw RNG output: {best.arithmetic}; "
             f"published {published_text}"),
            None, False, best.source)
    ratio = published / best.bound
    allowance = SAME_WORK_TOLERANCE + relative_resolution(f)
    others = [b for b in bounds if b is not best]
    head = best.arithmetic + (
        "; other engines: " + "; ".join(f"{b.block} {fmt(b.bound)}" for b in others) if others else "")
    if undocumented:
        head += "; not documented: " + "; ".join(undocumented)
    tests: Tests = "value"
    if ratio >= 1 / (1 + allowance):
        verdict: Verdict = "consistent"
        rest = published - best.bound
        if ratio >= 1:
            tail = (f"published {published_text} = {ratio:.3g}x the peripheral time: the other "
                    f"{fmt(rest) if best.unit == 'c/B' else f'{rest:,.0f}'} ({rest / published:.0%}) is "
                    f"{REST[f.hw[0]]}")
        else:
            tail = (f"published {published_text} = {ratio:.3g}x the peripheral time, within the allowance "
                    f"1/{1 + allowance:.3f}")
        if best.kind == "average":
            tail += " (against the manual's average, not a bound)"
        message = f"{head}; {tail}"
    else:
        message = f"{head}; published {published_text} = {ratio:.3g}x, faster than the documented time beyond the allowance 1/{1 + allowance:.3f}"
        if best.kind == "average":
            need, _ = _need(f)
            nist = f.curve in NIST_CURVES and need is not None and need.operation == "ecdsa-sign"
            if nist:
                verdict = "consistent"
                message += (f": the manual's figure is an average over random moduli and it states that NIST moduli "
                            f"({f.curve}) are faster, so no documented bound is crossed")
            else:
                verdict = "suspicious"
                message += ": the manual gives an average, not a bound; a figure this far below it needs an explanation"
        elif undocumented:
            verdict = "suspicious"
            message += ": faster than every engine with a documented time; the undocumented engine(s) would have to be faster"
        elif best.borrowed_from:
            verdict, tests = "consistent", "bound"
            message += (f": the timing table is borrowed from another part's manual ({best.borrowed_from}), so it "
                        "cannot make this part's figure worse than explained, and it is no evidence that explains "
                        "it either (this part's peripheral may be faster): untested on the fast side")
        elif best.confidence == "unconfirmed":
            verdict = "suspicious"
            message += (": the bound rests on an unconfirmed table (this part's own table was not seen), so it "
                        "cannot prove the figure impossible")
        else:
            verdict = "inconsistent"
            message += ": the figure claims more than the peripheral can do"
    # what the page says about this peripheral's figures in its section (notes.toml, explains = "peripheral")
    message += "".join(f"; {n.quoted()}" for n in notes_for(f, RULE) if n.hardware == peripheral)
    return HardwareJudgement(peripheral, best.bound, best.unit, ratio, message,
                             Finding(RULE, verdict, message, tests=tests), True, best.source)
