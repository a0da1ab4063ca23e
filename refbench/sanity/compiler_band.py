"""Compiler allowance from measurement: how much the cycles of one kernel variant move between the
two compilers we can run (zig's clang and arm-none-eabi-gcc) and the optimisation levels.

A published figure built with a compiler we cannot run (ARMCC, IAR, Keil, another GCC) is compared
with kernels built by ours; instead of a fixed 5 % edge, the emulator rule allows the spread measured here
for the variant it compares with: (slowest build / fastest build - 1) over both compilers at the
figure's stated level (over all three levels when the page states none).

The spreads are measured data: ``compiler_bands.json`` is written by ``python -m
refbench.sanity.compiler_band`` (every kernel variant x operation x core the emulator rule plans for a
published figure built with a foreign compiler, at the levels those figures need, at
``BAND_BYTES`` bytes with the figure's key and AAD sizes, ideal memory), never edited by hand; :func:`load_bands` reads it, :func:`band` answers one variant.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from cortexm_emu.datafile import DataFileError
from refbench.derived import DERIVED, changed_names, entry_line, key_of, read_cycles, stored_key_of

BANDS_PATH = DERIVED / "compiler_bands.json"
#: Message size of the band measurements: long enough that the per-call overhead is a small part.
BAND_BYTES = 512
#: The compilers we run and the levels measured (refbench.measure COMPILERS and OPT_LEVELS).
BAND_COMPILERS = ("zig", "gcc")
BAND_LEVELS = ("Os", "O2", "O3")
#: Compiler names of a figure that are ours: a page built with clang is built by the compiler family we run.
OUR_COMPILERS = ("clang", "zig")
#: Cores measured first: those of the most published figures (M4, M7, M33), then the M0+.
CORE_ORDER = ("m4", "m7", "m33", "m3", "m0plus")


@dataclass(frozen=True)
class Band:
    """The measured spread of one variant's cycles over the builds compared, and the builds."""

    spread: float
    builds: dict[str, int]  # "zig -Os" -> cycles

    def describe(self) -> str:
        fastest = min(self.builds, key=self.builds.__getitem__)
        slowest = max(self.builds, key=self.builds.__getitem__)
        return f"{self.spread:+.1%} ({fastest} {self.builds[fastest]:,} .. {slowest} {self.builds[slowest]:,} cycles)"


def foreign_compiler(compiler: str) -> bool:
    """True when the page's compiler is not one we run (ARMCC, IAR, Keil, GCC of another build)."""
    text = compiler.lower()
    return not any(name in text for name in OUR_COMPILERS)


#: Compiler families we run (zig's clang, arm-none-eabi-gcc): a page's GCC of another build is of
#: a family we measure; ARMCC, IAR or Keil are not.
OUR_FAMILIES = ("clang", "zig", "gcc")


def foreign_family(compiler: str) -> bool:
    """True when the page's compiler is of a family we do not run (ARMCC, IAR, Keil): its code
    generation is not measured here, so no spread of ours bounds how slow its code may be."""
    text = compiler.lower().strip()
    if not text or text in ("not stated", "unknown"):
        return False  # nothing says the family differs: the measured spread of ours still applies
    return not any(name in text for name in OUR_FAMILIES)


#: ARM Compiler 5 (armcc) optimises for size unless told otherwise: "-Ospace ... This is the
#: default" and "-Otime" must be given for speed (ARM Compiler armcc User Guide, Arm DUI 0375,
#: "-Ospace" / "-Otime"). A page stating "ARMCC -O3" without -Otime built at -O3 -Ospace: between
#: what our compilers do at -Os and at the stated level, so the band spans both.
def band_levels(compiler: str, options: str) -> tuple[str, ...]:
    """The optimisation levels of ours a figure built by ``compiler`` with ``options`` is compared
    with: the stated level; with -Os too for ARMCC without -Otime (its default -Ospace); all of
    BAND_LEVELS when the page states no level."""
    from refbench.sanity.workloads import WORKLOADS

    level = WORKLOADS.build["opt_of_options"].get(options)
    if not level:
        return BAND_LEVELS
    if "armcc" in compiler.lower() and "otime" not in options.lower() and level != "Os":
        return ("Os", level)
    return (level,)


def entry_name(core: str, kernel: str, variant: str, operation: str) -> str:
    return f"{core} {kernel}/{variant} {operation}"


def load_bands(path: Path = BANDS_PATH) -> dict[str, dict[str, int]]:
    """Measured cycles by "core kernel/variant operation" -> {"compiler -level": cycles}; an empty
    table when the file is absent (the emulator rule then keeps its stated tolerance); a malformed
    file raises DataFileError naming the file, line and field."""
    bands, lines = read_cycles(path)
    for key, builds in bands.items():
        if not isinstance(builds, dict) or not all(isinstance(v, int) for v in builds.values()):
            raise DataFileError(path, entry_line(lines, key), f"cycles.{key}", "expected build -> whole cycles")
    return bands


def stored_key(path: Path = BANDS_PATH) -> dict | None:
    """The key the file was written with (:mod:`refbench.derived`), or None."""
    return stored_key_of(path)


def key_of_cycles(cycles: dict[str, dict[str, int]]) -> dict[str, dict[str, str]]:
    """The derived-data key of a band table: its cores, variants and both compilers."""
    cores = {entry.split(" ")[0] for entry in cycles}
    variants = {entry.split(" ")[1] for entry in cycles}
    return key_of(cores, variants, BAND_COMPILERS)


def _still_current(entry: str, build: str, changed: set[tuple[str, str]]) -> bool:
    core, variant, _operation = entry.split(" ")
    return not ({("timing_models", core), ("kernels", variant), ("compilers", build.split(" ")[0])} & changed)


@cache
def bands() -> dict[str, dict[str, int]]:
    """The shipped band table (``compiler_bands.json``), read once (every band this module gives is
    read from it: a test states its own table by replacing this function)."""
    return load_bands()


def band(core: str, kernel: str, variant: str, operation: str, levels: str | tuple[str, ...] | None) -> Band | None:
    """The measured spread of ``kernel/variant operation`` on ``core`` over both compilers at
    ``levels`` (one level, several (:func:`band_levels`), or every level when None), or None when
    it was not measured on both compilers."""
    builds = bands().get(entry_name(core, kernel, variant, operation), {})
    levels = (levels,) if isinstance(levels, str) else tuple(levels or BAND_LEVELS)
    chosen = {b: c for b, c in builds.items() if b.split(" -")[1] in levels}
    if {b.split(" ")[0] for b in chosen} != set(BAND_COMPILERS):
        return None
    return Band(max(chosen.values()) / min(chosen.values()) - 1, chosen)


Target = tuple[str, str, str, str, "int | None", int]  # core, kernel, variant, operation, key bytes, AAD bytes


def measure_bands(targets: dict[Target, set[str]],
                  done: Callable[[dict[str, dict[str, int]]], None] | None = None,
                  known: dict[str, dict[str, int]] | None = None,
                  known_key: dict | None = None) -> dict[str, dict[str, int]]:
    """Cycles of every target at BAND_BYTES with each compiler at each of its levels (ideal memory;
    failed or unverified builds are left out); ``done(cycles so far)`` after each core. Builds
    already in ``known`` (the file's previous measurements) are kept only where the file's key
    (``known_key``) still holds for them: the same core timing model, kernel sources and compiler
    version (measurements are deterministic); everything else is measured again."""
    from refbench.measure import Job, Measurer, ResultCache

    out: dict[str, dict[str, int]] = {}
    changed = changed_names(known_key, key_of_cycles(known)) if known else set()
    cache = ResultCache()
    for core in sorted({t[0] for t in targets}, key=lambda c: CORE_ORDER.index(c) if c in CORE_ORDER else 99):
        for compiler in BAND_COMPILERS:
            for opt in BAND_LEVELS:
                measurer = Measurer(core, opt=opt, compiler=compiler, cache=cache)
                for target in sorted((t for t, levels in targets.items() if t[0] == core and opt in levels),
                                     key=str):
                    _, kernel, variant, operation, key_bytes, aad = target
                    entry, build = entry_name(core, kernel, variant, operation), f"{compiler} -{opt}"
                    previous = (known or {}).get(entry, {}).get(build)
                    if previous is not None and _still_current(entry, build, changed):
                        out.setdefault(entry_name(core, kernel, variant, operation), {})[f"{compiler} -{opt}"] = previous
                        continue
                    m = measurer.measure(Job(kernel, variant, operation, BAND_BYTES, key_bytes, aad))
                    if m.verified and m.cycles is not None:
                        out.setdefault(entry_name(core, kernel, variant, operation), {})[f"{compiler} -{opt}"] = m.cycles
                print(f"{core} {compiler} -{opt}: done", file=sys.stderr)
        if done is not None:
            done(out)
    return out


def planned_targets() -> dict[Target, set[str]]:
    """Every target the emulator rule plans for a published figure built with a foreign compiler, with the
    levels its figures need (:func:`band_levels`)."""
    from refbench.published.model import load_figures, load_parts
    from refbench.sanity.plan import FigurePlan, make_plan
    out: dict[Target, set[str]] = {}
    for p in make_plan(load_figures(), load_parts()).figures:
        if not isinstance(p, FigurePlan) or not foreign_compiler(p.figure.compiler):
            continue
        levels = band_levels(p.figure.compiler, p.figure.options)
        for k, v, o in p.operations:
            out.setdefault((p.board.core, k, v, o, p.target.key_bytes, p.target.aad_bytes), set()).update(levels)
    return out


def write_bands(cycles: dict[str, dict[str, int]], path: Path = BANDS_PATH) -> None:
    """Write the measured cycles with the file's provenance."""
    document = {
        "about": ("Cycles of each kernel variant the emulator rule compares with the published figures, built by both "
                  "compilers refbench runs at each optimisation level, on each core with ideal memory, at "
                  f"{BAND_BYTES} bytes: the compiler allowance of refbench/sanity/compiler_band.py. Generated by "
                  "`python -m refbench.derived` (key: the timing models, kernel sources and compilers it was "
                  "measured with; tests/test_derived.py fails when one changed); do not edit by hand."),
        "bytes": BAND_BYTES,
        "compilers": list(BAND_COMPILERS),
        "levels": list(BAND_LEVELS),
        "key": key_of_cycles(cycles),
        "cycles": dict(sorted(cycles.items())),
    }
    path.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")


def main() -> None:
    """Measure every planned target and write ``compiler_bands.json`` (after each core, so a long
    run keeps what it measured); builds the file already holds are kept while its key holds for them."""
    measure_bands(planned_targets(), write_bands, load_bands(), stored_key())


if __name__ == "__main__":
    main()
