"""The arithmetic and board rules: does a published figure agree with the numbers
printed next to it, and with the part it ran on?

Every rule is a function ``rule(figures, parts) -> list[(figure_id, Finding)]``; each
finding carries the rule name the report prints (``arithmetic-rate``, ``arithmetic-block-count``,
``arithmetic-ops``, ``arithmetic-cycles-time``, ``arithmetic-cycles-rate``, ``board-clock``,
``board-peripheral``). Every tolerance is a named constant with its justification
(:mod:`refbench.sanity.numbers`); none was chosen by looking at which figures pass. Printed
numbers carry their own resolution (half a unit in the last printed digit), which is added to
a tolerance where a ratio of two printed numbers is compared (:func:`relative_resolution`).
The algorithmic invariants (the invariant rules) are in :mod:`refbench.sanity.invariants`, the cross-board
rule in :mod:`refbench.sanity.cross_board`, and every rule in the order the report applies
them in :data:`refbench.sanity.judging.RULES`.
"""

from __future__ import annotations

import math

from refbench.published.model import Figure, Part
from refbench.published.normalise import seconds, unit_bytes
from refbench.sanity.numbers import (
    CROSS_BOARD_TOLERANCE,
    SAME_WORK_TOLERANCE,
    fmt,
    printed_resolution,
    relative_resolution,
    same_work_tolerance,
)
from refbench.sanity.verdicts import Finding

__all__ = ["CROSS_BOARD_TOLERANCE", "HASH_BLOCK", "SAME_WORK_TOLERANCE", "Result", "fmt", "printed_resolution",
           "relative_resolution", "rule_board_clock", "rule_board_peripheral", "rule_cycles_time",
           "rule_wolfssl_block_count", "rule_wolfssl_ops", "rule_wolfssl_rate", "same_work_tolerance"]

Result = list[tuple[str, Finding]]

#: Hash block sizes (FIPS 180-4): HMAC adds at most 4 compression calls per message (inner
#: and outer key blocks, inner and outer finalisation, RFC 2104).
HASH_BLOCK = {"MD5": 64, "SHA-1": 64, "SHA-224": 64, "SHA-256": 64, "SHA-384": 128, "SHA-512": 128}


# ---------------------------------------------------------------------------------------
# a. arithmetic
# ---------------------------------------------------------------------------------------


def rule_wolfssl_rate(figures: list[Figure], parts: dict[str, Part]) -> Result:
    """amount = rate x seconds (amount printed to a whole unit, rate and seconds to 0.001)."""
    out: Result = []
    for f in figures:
        if f.library != "wolfSSL" or f.metric != "throughput":
            continue
        amount, duration = f.aux_value("amount"), f.aux_value("duration")
        if amount is None or duration is None:
            continue  # a table row (refbench.inputs): no printed amount and time to check
        expected = f.value * duration.value
        slack = printed_resolution(amount.text) + printed_resolution(f.text) * duration.value \
            + printed_resolution(duration.text) * f.value + 1e-9
        message = (f"{amount.text} {amount.unit} printed; {f.text} {f.unit} x {duration.text} s = "
                   f"{expected:.3f} {amount.unit}; difference {abs(amount.value - expected):.3f} "
                   f"(allowed {slack:.3f}: amount printed to a whole unit)")
        verdict = "consistent" if abs(amount.value - expected) <= slack else "inconsistent"
        out.append((f.id, Finding("arithmetic-rate", verdict, message)))
    return out


def _interval_product(a: float, da: float, b: float, db: float) -> tuple[float, float]:
    return ((a - da) * (b - db), (a + da) * (b + db))


def rule_wolfssl_block_count(figures: list[Figure], parts: dict[str, Part]) -> Result:
    """The bytes processed are a whole number of 1024-byte blocks under the source's unit."""
    out: Result = []
    for f in figures:
        if f.library != "wolfSSL" or f.metric != "throughput":
            continue
        duration = f.aux_value("duration")
        if duration is None or not f.block_bytes:
            continue  # a table row (refbench.inputs): no printed time or block size
        size, _ = unit_bytes(f.source, f.version, f.unit, f.library)
        low, high = _interval_product(f.value, printed_resolution(f.text), duration.value,
                                      printed_resolution(duration.text))
        blocks_low, blocks_high = low * size / f.block_bytes, high * size / f.block_bytes
        if blocks_high - blocks_low >= 1:
            continue  # the printed precision cannot tell whole blocks from fractions
        whole = math.floor(blocks_high)
        base = f"{f.text} {f.unit} x {duration.text} s x {size} bytes/{f.unit.removesuffix('/s')} = " \
               f"{blocks_low:.2f}..{blocks_high:.2f} blocks of {f.block_bytes} bytes"
        if whole >= blocks_low:
            if size in (1000, 1000000) and f.unit in ("KB/s", "MB/s"):
                out.append((f.id, Finding(
                    "arithmetic-block-count", "explained",
                    f"{base}: whole ({whole}) only if '{f.unit.removesuffix('/s')}' means {size} bytes; wolfSSL "
                    f"{f.version} printed KB/MB for powers of 1000 (wolfSSL PR #6237), so the rate is "
                    f"{1000 ** (1 if size == 1000 else 2) / 1024 ** (1 if size == 1000 else 2):.4f} of the "
                    f"binary unit")))
            else:
                out.append((f.id, Finding("arithmetic-block-count", "consistent", f"{base}: whole ({whole})")))
        else:
            out.append((f.id, Finding("arithmetic-block-count", "inconsistent",
                                      f"{base}: not a whole number, so amount, time and unit do not fit together")))
    return out


def rule_wolfssl_ops(figures: list[Figure], parts: dict[str, Part]) -> Result:
    """avg = seconds / ops and ops/s = ops / seconds, each within printing resolution."""
    out: Result = []
    for f in figures:
        if f.library != "wolfSSL" or f.metric != "time_per_op":
            continue
        ops, duration, rate = f.aux_value("ops"), f.aux_value("duration"), f.aux_value("ops_per_s")
        if ops is None or duration is None or rate is None:
            continue  # a table row (refbench.inputs): no printed count and time to check
        ds = printed_resolution(duration.text)
        avg_low, avg_high = (duration.value - ds) / ops.value * 1000, (duration.value + ds) / ops.value * 1000
        rate_low, rate_high = ops.value / (duration.value + ds), ops.value / (duration.value - ds)
        da, dr = printed_resolution(f.text), printed_resolution(rate.text)
        avg_ok = avg_low - da <= f.value <= avg_high + da
        rate_ok = rate_low - dr <= rate.value <= rate_high + dr
        message = (f"{duration.text} s / {ops.text} ops = {duration.value / ops.value * 1000:.3f} ms "
                   f"(printed avg {f.text} ms{'' if avg_ok else ': MISMATCH'}); {ops.text} ops / "
                   f"{duration.text} s = {ops.value / duration.value:.3f} ops/s (printed {rate.text}"
                   f"{'' if rate_ok else ': MISMATCH'})")
        out.append((f.id, Finding("arithmetic-ops", "consistent" if avg_ok and rate_ok else "inconsistent", message)))
    return out


def rule_cycles_time(figures: list[Figure], parts: dict[str, Part]) -> Result:
    """Cycles / clock = printed time (or message bytes / printed rate). The page prints whole
    µs, ms or Kbytes/s without saying whether it rounds or truncates, so one unit is allowed."""
    out: Result = []
    for f in figures:
        if f.metric != "cycles":
            continue
        clock_hz = f.clock_mhz * 1e6
        time = f.aux_value("time")
        if time is not None:
            expected = f.value / clock_hz / seconds(1, time.unit)
            ok = abs(expected - time.value) < 1
            message = (f"{f.text} cycles / {f.clock_mhz:g} MHz = {expected:.2f} {time.unit}; printed {time.text} "
                       f"{time.unit} (allowed: less than 1 {time.unit}, the page prints whole units)")
            out.append((f.id, Finding("arithmetic-cycles-time", "consistent" if ok else "inconsistent", message)))
        rate = f.aux_value("throughput")
        if rate is not None:
            size, _ = unit_bytes(f.source, f.version, rate.unit, f.library)
            expected = f.message_bytes * clock_hz / f.value / size
            ok = abs(expected - rate.value) < 1
            message = (f"{f.message_bytes} bytes x {f.clock_mhz:g} MHz / {f.text} cycles = {expected:.2f} "
                       f"{rate.unit} (1 Kbyte = {size} bytes); printed {rate.text}")
            out.append((f.id, Finding("arithmetic-cycles-rate", "consistent" if ok else "inconsistent", message)))
    return out


# ---------------------------------------------------------------------------------------
# b. board
# ---------------------------------------------------------------------------------------


def rule_board_clock(figures: list[Figure], parts: dict[str, Part]) -> Result:
    """The stated clock is within the part's maximum (board profile ``[max_clock]``)."""
    out: Result = []
    for f in figures:
        part = parts.get(f.part)
        if part is None:
            continue
        if f.clock_mhz <= part.max_clock_mhz:
            out.append((f.id, Finding("board-clock", "consistent",
                                      f"stated {f.clock_mhz:g} MHz <= {part.name} maximum {part.max_clock_mhz:g} MHz "
                                      f"({part.cite('max_clock')})")))
        else:
            out.append((f.id, Finding(
                "board-clock", "inconsistent",
                f"stated {f.clock_mhz:g} MHz exceeds the {part.name} maximum of {part.max_clock_mhz:g} MHz "
                f"({part.cite('max_clock')}); if the part ran at {part.max_clock_mhz:g} MHz, cycles computed at "
                f"the stated clock are {f.clock_mhz / part.max_clock_mhz:.2f}x too high")))
    return out


def rule_board_peripheral(figures: list[Figure], parts: dict[str, Part]) -> Result:
    """Hardware is claimed only for functions, AES key sizes and HASH algorithms the part's crypto
    peripherals provide (board profile ``[crypto_hw.*.provides]``)."""
    out: Result = []
    for f in figures:
        part = parts.get(f.part)
        if part is None or not f.hw:
            continue
        problems = [p for p in f.hw if p not in part.crypto]
        if "AES" in f.hw and "AES" in part.crypto and f.key_bits and f.algorithm.startswith("AES-") \
                and f.key_bits not in part.aes_key_bits:
            problems.append(f"AES-{f.key_bits} (the AES peripheral takes {sorted(part.aes_key_bits)}-bit keys)")
        if "HASH" in f.hw and "HASH" in part.crypto:
            base = f.algorithm.removeprefix("HMAC-").replace("SHA-SHA", "SHA")
            if base in HASH_BLOCK and base not in part.hash_algorithms:
                problems.append(f"{base} (the HASH peripheral computes {', '.join(sorted(part.hash_algorithms))})")
        if problems:
            out.append((f.id, Finding("board-peripheral", "inconsistent",
                                      f"hardware claimed for {', '.join(problems)}, but {part.name} has "
                                      f"{', '.join(sorted(part.crypto)) or 'no crypto peripheral'} "
                                      f"({part.cite('crypto_hw')})")))
        else:
            out.append((f.id, Finding("board-peripheral", "consistent",
                                      f"{part.name} has {', '.join(f.hw)} ({part.cite('crypto_hw')})")))
    return out

