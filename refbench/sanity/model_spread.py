"""The timing model's own spread: how much the cycles of one kernel variant move between the two
documented bounds of each undocumented rule of the core's model.

Where a document gives a range and not when each end applies (the Cortex-M3/M4 branch refill P of
"1 to 3", APPROXIMATIONS.md 6; 32-bit loads on odd halfwords that "might not pipeline", 13; the
Cortex-M7's loads of unknown banks, 32, its unpublished branch predictor, 36, and a taken branch's
target issuing with it, 37; the Cortex-M33's
LSL-shifted operand latency on which two measurements disagree, 41), the model takes one end and
its data file states the other (``[[other_end]]``, the model option ``other_end``). The spread of
a kernel's cycles between the two ends is the model's uncertainty on that kernel that no document
resolves. It is not an error measured against hardware: it says nothing of rules the model gets
wrong at both ends, or of what no rule covers. The sanity report uses it as the "core model" term
on cores without held-out rows (:func:`refbench.sanity.prediction.model_error_term`), where the
alternative is ``cortexm-emu validate``'s 0 % (a transcription check).

The spreads are measured data: ``model_spreads.json`` is written by ``python -m
refbench.sanity.model_spread`` (or ``python -m refbench.derived`` when its key is stale): every
kernel variant x operation x core the report plans for a published figure, on every core whose
model states ``[[other_end]]`` items, built by our compiler (zig -Os), with ideal memory at
``SPREAD_BYTES`` bytes (a public-key field operation at its field's size), once with the model
and once per item with that item's other end; never edited by hand. The Cortex-M4's variants are
measured too although its term is its held-out error: on that core alone the spread can be set
beside an error measured against hardware (it does not replace it). The spread covers only the
rules with two documented ends: a kernel that none of them touches (straight-line assembly) gets
a narrow spread, which says nothing about the rules without a documented other end
(APPROXIMATIONS.md 35, 38b and the UNCONFIRMED entries). :func:`load_spreads` reads it, :func:`spread` answers one variant.
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from cortexm_emu.datafile import DataFileError
from refbench.derived import DERIVED, changed_names, entry_line, key_of, read_cycles, stored_key_of
from refbench.sanity.compiler_band import entry_name

SPREADS_PATH = DERIVED / "model_spreads.json"
#: Message size of the measurements (that of the compiler bands: long enough that the per-call
#: overhead is a small part).
SPREAD_BYTES = 512
#: Our build, the one the prediction emulates (refbench.measure defaults).
SPREAD_COMPILER, SPREAD_OPT = "zig", "Os"
#: The measurement of the model's own end in an entry.
MODEL_END = "model"


@dataclass(frozen=True)
class Spread:
    """One variant's cycles at the model's end and at the other end of each item, and the band
    factors they give: each item that makes the kernel slower widens the high side by its ratio,
    each that makes it faster the low side (items taken as independent: their product)."""

    name: str  # "m7 aes/ttable4 encrypt"
    cycles: dict[str, int]  # "model" -> cycles, "<item>" -> cycles at that item's other end

    @property
    def ratios(self) -> dict[int, float]:
        base = self.cycles[MODEL_END]
        return {int(item): c / base for item, c in self.cycles.items() if item != MODEL_END}

    @property
    def low(self) -> float:
        return math.prod(min(r, 1.0) for r in self.ratios.values())

    @property
    def high(self) -> float:
        return math.prod(max(r, 1.0) for r in self.ratios.values())

    def describe(self) -> str:
        moved = ", ".join(f"{item}: {r - 1:+.1%}" for item, r in sorted(self.ratios.items()))
        return f"{self.name} ({moved or 'no item measured'})"


def load_spreads(path: Path = SPREADS_PATH) -> dict[str, dict[str, int]]:
    """Measured cycles by "core kernel/variant operation" -> {"model" | "<item>": cycles}; an empty
    table when the file is absent; a malformed file raises DataFileError naming the file, line and
    field."""
    table, lines = read_cycles(path)
    for key, ends in table.items():
        where = entry_line(lines, key)
        if len(key.split(" ")) != 3 or "/" not in key.split(" ")[1]:
            raise DataFileError(path, where, f"cycles.{key}", "expected 'core kernel/variant operation'")
        if not isinstance(ends, dict) or not all(isinstance(v, int) and not isinstance(v, bool) and v > 0
                                                 for v in ends.values()):
            raise DataFileError(path, where, f"cycles.{key}", "expected end -> whole cycles above 0")
        if MODEL_END not in ends:
            raise DataFileError(path, where, f"cycles.{key}.{MODEL_END}", "missing: the model's own end")
        for end in ends:
            if end != MODEL_END and not end.isdigit():
                raise DataFileError(path, where, f"cycles.{key}.{end}",
                                    f"expected {MODEL_END!r} or an APPROXIMATIONS.md item number")
    return table


def stored_key(path: Path = SPREADS_PATH) -> dict | None:
    """The key the file was written with (:mod:`refbench.derived`), or None."""
    return stored_key_of(path)


def key_of_spreads(cycles: dict[str, dict[str, int]]) -> dict[str, dict[str, str]]:
    """The derived-data key of a spread table: its cores' timing models, its variants, our compiler."""
    return key_of({entry.split(" ")[0] for entry in cycles}, {entry.split(" ")[1] for entry in cycles},
                  (SPREAD_COMPILER,))


@cache
def spreads() -> dict[str, dict[str, int]]:
    """The shipped spread table (``model_spreads.json``), read once (a test states its own table
    by replacing this function)."""
    return load_spreads()


def spread(core: str, kernel: str, variant: str, operation: str) -> Spread | None:
    """The measured spread of ``kernel/variant operation`` on ``core``, or None when not measured."""
    name = entry_name(core, kernel, variant, operation)
    cycles = spreads().get(name)
    return Spread(name, cycles) if cycles else None


def widest(core: str) -> Spread | None:
    """The measured variant of ``core`` with the widest spread (high / low), or None."""
    found = [Spread(name, c) for name, c in spreads().items() if name.split(" ")[0] == core]
    return max(found, key=lambda s: (s.high / s.low, s.name), default=None)


#: core, kernel, variant, operation, key bytes, AAD bytes, bytes
Target = tuple[str, str, str, str, "int | None", int, int]


def planned_targets() -> list[Target]:
    """One target per core x variant x operation the report plans for a published figure, on the
    cores whose model states ``[[other_end]]`` items: the symmetric rule's at SPREAD_BYTES (the
    smallest key size planned: the ratio between two ends of a rule hardly depends on it), the
    public-key rule's at the size its plan measures (field operations at their field's size)."""
    from cortexm_emu.timing.registry import other_ends
    from refbench.published.model import load_figures, load_parts
    from refbench.sanity.plan import FigurePlan, make_plan
    from refbench.sanity.pubkey_plan import PubkeyPlan

    chosen: dict[tuple[str, str, str, str], Target] = {}

    def keep(target: Target) -> None:
        known = chosen.get(target[:4])
        if known is None or (target[4] or 0, target[5], target[6]) < (known[4] or 0, known[5], known[6]):
            chosen[target[:4]] = target

    for p in make_plan(load_figures(), load_parts()).figures:
        if isinstance(p, FigurePlan) and other_ends(p.board.core):
            for k, v, o in p.operations:
                keep((p.board.core, k, v, o, p.target.key_bytes, p.target.aad_bytes, SPREAD_BYTES))
        elif isinstance(p, PubkeyPlan) and other_ends(p.board.core):
            for job in p.jobs():
                j = job.job
                keep((p.board.core, j.kernel, j.variant, j.operation, j.key_bytes, j.aad_bytes, j.size))
    return sorted(chosen.values(), key=str)


def measure_spreads(targets: Iterable[Target], done: Callable[[dict[str, dict[str, int]]], None] | None = None,
                    known: dict[str, dict[str, int]] | None = None,
                    known_key: dict | None = None) -> dict[str, dict[str, int]]:
    """Cycles of every target (at its size) with the model and with each ``[[other_end]]`` item of
    its core (ideal memory, our build; failed or unverified runs are left out, an entry without
    the model's end is dropped); ``done(cycles so far)`` after each core. Entries already in
    ``known`` are kept where the file's key (``known_key``) still holds for their core and variant."""
    from cortexm_emu.timing.registry import other_ends
    from refbench.measure import Job, Measurer, ResultCache

    targets = list(targets)
    changed = changed_names(known_key, key_of_spreads(known)) if known else set()
    out: dict[str, dict[str, int]] = {}
    cache_ = ResultCache()
    for core in sorted({t[0] for t in targets}):
        ends = [(MODEL_END, {})] + [(str(e.item), {"other_end": str(e.item)}) for e in other_ends(core)]
        for end, options in ends:
            measurer = Measurer(core, opt=SPREAD_OPT, compiler=SPREAD_COMPILER, cache=cache_, timing=options)
            for _, kernel, variant, operation, key_bytes, aad, size in (t for t in targets if t[0] == core):
                entry = entry_name(core, kernel, variant, operation)
                previous = (known or {}).get(entry, {}).get(end)
                if previous is not None and not ({("timing_models", core), ("kernels", f"{kernel}/{variant}")}
                                                 & changed):
                    out.setdefault(entry, {})[end] = previous
                    continue
                m = measurer.measure(Job(kernel, variant, operation, size, key_bytes, aad))
                if m.verified and m.cycles:
                    out.setdefault(entry, {})[end] = m.cycles
            print(f"{core} {end}: done", file=sys.stderr)
        out = {k: v for k, v in out.items() if MODEL_END in v or k.split(" ")[0] != core}
        if done is not None:
            done(out)
    return out


def write_spreads(cycles: dict[str, dict[str, int]], path: Path = SPREADS_PATH) -> None:
    """Write the measured cycles with the file's provenance: the items measured per core and their
    sources."""
    from cortexm_emu.timing.registry import other_ends

    cores = sorted({entry.split(" ")[0] for entry in cycles})
    document = {
        "about": ("Cycles of each kernel variant the sanity report compares with the published figures, on each core "
                  "whose timing model states [[other_end]] items (cortexm_emu/timing/data/<core>.toml, "
                  "APPROXIMATIONS.md): with the model ('model') and with the other documented end of each "
                  "undocumented two-ended rule ('<item>'), our build (zig -Os), ideal memory, "
                  f"{SPREAD_BYTES} bytes (public-key operations at the size their plan measures): the core-model term of refbench/sanity/model_spread.py on cores without "
                  "held-out rows. The model's own uncertainty, not an error measured against hardware. Generated by "
                  "`python -m refbench.sanity.model_spread` (key: the timing models, kernel sources and compiler it "
                  "was measured with; tests/test_derived.py fails when one changed); do not edit by hand."),
        "bytes": SPREAD_BYTES,
        "build": f"{SPREAD_COMPILER} -{SPREAD_OPT}",
        "items": {core: {str(e.item): e.source for e in other_ends(core)} for core in cores},
        "key": key_of_spreads(cycles),
        "cycles": dict(sorted(cycles.items())),
    }
    path.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> None:
    """Measure every planned target (``--only-core``: only those cores, the rest of the file kept) and
    write ``model_spreads.json`` after each core."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m refbench.sanity.model_spread", description=__doc__.splitlines()[0])
    parser.add_argument("--only-core", action="append", metavar="CORE",
                        help="measure only this core, keeping the file's other cores (repeatable)")
    args = parser.parse_args(argv)
    known, key = load_spreads(), stored_key()
    targets = [t for t in planned_targets() if not args.only_core or t[0] in args.only_core]
    stale_ = changed_names(key, key_of_spreads(known)) if known else set()
    kept = {k: v for k, v in known.items() if args.only_core and k.split(" ")[0] not in args.only_core
            and not ({("timing_models", k.split(" ")[0]), ("kernels", k.split(" ")[1])} & stale_)}
    measure_spreads(targets, lambda cycles: write_spreads({**kept, **cycles}), known, key)


if __name__ == "__main__":
    main()
