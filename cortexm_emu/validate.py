"""Model accuracy against published hardware cycle counts of short instruction sequences.

The sequences live in ``validation/sequences.toml``: each one is this project's assembly
reproducing a published microbenchmark (an Arm TRM worked example or table row, or a third-party
measurement on named silicon), with its citation, the cores it applies to and the published cycle
count per core. Every sequence is assembled into a small function per core and run on
:class:`cortexm_emu.Machine` with ideal (zero-wait-state) memory; the emulated count of the
sequence is a difference of two runs, so the call's return and the setup code cancel out:

* ``isolated``: cycles(setup + body + BX LR) - cycles(setup + BX LR), for a sequence the source
  times on its own (a TRM example);
* ``steady``: (cycles(setup + 4 x body) - cycles(setup + 2 x body)) / 2, the per-copy cost in a
  long unrolled run (what a measurement loop of repeated copies reports);
* ``loop``: the body is a loop whose count register the setup sets to ``{n}``;
  (cycles(n = 8) - cycles(n = 4)) / 4 is the cost of one iteration.

At the call, r0-r3 point to four zeroed 64-byte buffers in SRAM. The error of a sequence is
``(emulated - published) / published`` in percent. Nothing in the timing models is fitted to
these numbers: they are a check, run after the rules are written from their sources.
"""

from __future__ import annotations

import re
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from statistics import fmean

from cortexm_emu.datafile import DataFileError, locate, read_toml
from cortexm_emu.machine import Buffer, Machine
from cortexm_emu.timing import CORES, model_for
from cortexm_emu.toolchain import build

SEQUENCES = Path(__file__).resolve().parent / "validation" / "sequences.toml"
MODES = {"isolated": (0, 1), "steady": (2, 4), "loop": (4, 8)}
_NAME = re.compile(r"^[a-z0-9_]+$")
_FORBIDDEN = re.compile(r"\b(sp|lr|pc|r13|r14|r15)\b")


@dataclass(frozen=True, slots=True)
class ValidationSequence:
    """One published microbenchmark reproduced in assembly."""

    name: str
    mode: str
    setup: tuple[str, ...]
    body: tuple[str, ...]
    published: dict[str, float]  # core -> published cycles of one body
    source: str
    line: int
    options: tuple[tuple[str, str], ...] = ()  # timing-model options (model_for), e.g. multiplier

    @property
    def text(self) -> str:
        return "; ".join(self.body)


@dataclass(frozen=True, slots=True)
class ValidationRow:
    """A sequence's published and emulated cycles on one core."""

    core: str
    name: str
    sequence: str
    published: float
    emulated: float
    source: str

    @property
    def error_percent(self) -> float:
        return (self.emulated - self.published) / self.published * 100.0


@dataclass(frozen=True, slots=True)
class CoreSummary:
    core: str
    n: int
    mean_abs_error: float
    max_abs_error: float


def load_sequences(path: Path = SEQUENCES) -> list[ValidationSequence]:
    """Read and check the sequence file; DataFileError names file:line:field on a problem."""
    text, doc = read_toml(path, kind="sequence file")
    entries = doc.get("sequence")
    if not isinstance(entries, list) or not entries:
        raise DataFileError(path, 1, "sequence", "expected a non-empty array of [[sequence]] tables")
    lines = text.splitlines()
    result: list[ValidationSequence] = []
    seen: set[str] = set()
    for index, entry in enumerate(entries):
        line = locate(lines, ("sequence", index))  # the entry's [[sequence]] header

        def fail(field: str, problem: str, line: int = line, index: int = index) -> DataFileError:
            return DataFileError(path, line, f"sequence[{index}].{field}", problem)

        name = entry.get("name")
        if not isinstance(name, str) or not _NAME.match(name):
            raise fail("name", f"expected lower-case letters, digits and _, got {name!r}")
        if name in seen:
            raise fail("name", f"duplicate sequence name {name!r}")
        seen.add(name)
        mode = entry.get("mode")
        if mode not in MODES:
            raise fail("mode", f"{mode!r} is not one of {', '.join(MODES)}")
        parts: dict[str, tuple[str, ...]] = {}
        for key in ("setup", "body"):
            value = entry.get(key, [] if key == "setup" else None)
            if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
                raise fail(key, f"expected a list of assembly lines, got {value!r}")
            for asm in value:
                if _FORBIDDEN.search(asm.split("@")[0]):
                    raise fail(key, f"{asm!r} uses sp, lr or pc (the harness owns them)")
            parts[key] = tuple(value)
        if not parts["body"]:
            raise fail("body", "empty body")
        if mode == "loop" and not any("{n}" in s for s in parts["setup"]):
            raise fail("setup", "a loop sequence sets its count register with {n} in the setup")
        published = entry.get("published")
        if not isinstance(published, dict) or not published:
            raise fail("published", f"expected a table core = cycles, got {published!r}")
        for core, cycles in published.items():
            if core not in CORES:
                raise fail("published", f"unknown core {core!r}; accepted: {', '.join(CORES)}")
            if isinstance(cycles, bool) or not isinstance(cycles, int | float) or cycles <= 0:
                raise fail("published", f"{core}: expected cycles > 0, got {cycles!r}")
        source = entry.get("source")
        if not isinstance(source, str) or len(source.strip()) < 20:
            raise fail("source", "every published count must cite where it was published")
        options = entry.get("options", {})
        if not isinstance(options, dict) or not all(isinstance(v, str) for v in options.values()):
            raise fail("options", f"expected a table of timing-model options (strings), got {options!r}")
        for core in published:
            try:
                model_for(core, **options)
            except ValueError as exc:
                raise fail("options", str(exc)) from None
        result.append(
            ValidationSequence(name, mode, parts["setup"], parts["body"],
                               {c: float(v) for c, v in published.items()}, source, line,
                               tuple(sorted(options.items())))
        )
    return result


def _function(name: str, lines: Iterable[str]) -> str:
    body = "".join(f"        {line}\n" for line in lines)
    return (
        f"        .balign 8\n        .global {name}\n        .type {name}, %function\n"
        f"        .thumb_func\n{name}:\n{body}        bx lr\n        .size {name}, .-{name}\n"
    )


def _variant(seq: ValidationSequence, n: int) -> list[str]:
    setup = [line.replace("{n}", str(n)) for line in seq.setup]
    if seq.mode == "loop":
        return setup + list(seq.body)
    return setup + list(seq.body) * n


def render_source(sequences: Sequence[ValidationSequence]) -> str:
    """The assembly file of all variants of ``sequences`` (two functions per sequence)."""
    out = ["        .syntax unified\n        .thumb\n        .text\n"]
    if any(dict(seq.options).get("fpu") == "on" for seq in sequences):
        out.append("        .fpu fpv5-d16\n")  # FP sequences run on the core's model with its FPU
    for seq in sequences:
        for n in MODES[seq.mode]:
            out.append(_function(f"v_{seq.name}_{n}", _variant(seq, n)))
    out.append(
        "        .balign 4\n        .global cortexm_emu_halt\n        .type cortexm_emu_halt, %function\n"
        "        .thumb_func\ncortexm_emu_halt:\n        b cortexm_emu_halt\n"
        "        .size cortexm_emu_halt, .-cortexm_emu_halt\n"
    )
    return "".join(out)


@cache
def _elf(core: str, source: str) -> Path:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"validation_{core}.S"
        path.write_text(source)
        return build([path], core, opt="Os").elf


def run_validation(
    cores: Sequence[str] | None = None,
    names: Sequence[str] | None = None,
    sequences: Sequence[ValidationSequence] | None = None,
) -> list[ValidationRow]:
    """Emulate every (sequence, core) pair selected; rows in file order, core by core."""
    for core in cores or ():
        if core not in CORES:
            raise ValueError(f"Invalid core {core!r}; accepted: {', '.join(CORES)}")
    all_seqs = list(sequences) if sequences is not None else load_sequences()
    if names is not None:
        unknown = sorted(set(names) - {s.name for s in all_seqs})
        if unknown:
            raise ValueError(f"Invalid sequence name(s) {', '.join(unknown)}; see {SEQUENCES.name}")
        all_seqs = [s for s in all_seqs if s.name in names]
    rows: list[ValidationRow] = []
    for core in cores or CORES:
        selected = [s for s in all_seqs if core in s.published]
        if not selected:
            continue
        elf = _elf(core, render_source(selected))
        machines: dict[tuple[tuple[str, str], ...], Machine] = {}
        buffers = [Buffer.zeros(64) for _ in range(4)]
        for seq in selected:
            machine = machines.get(seq.options)
            if machine is None:
                machine = machines[seq.options] = Machine(core, timing=model_for(core, **dict(seq.options)))
                machine.load_elf(elf)
            lo, hi = MODES[seq.mode]
            # the sequences use r4-r11 freely: no AAPCS callee-saved check
            low = machine.call(f"v_{seq.name}_{lo}", *buffers, aapcs=False).cycles
            high = machine.call(f"v_{seq.name}_{hi}", *buffers, aapcs=False).cycles
            emulated = (high - low) / (hi - lo)
            rows.append(ValidationRow(core, seq.name, seq.text, seq.published[core], emulated, seq.source))
    return rows


def summarize(rows: Sequence[ValidationRow]) -> list[CoreSummary]:
    """Per core: number of sequences, mean and max absolute error in percent."""
    out = []
    for core in dict.fromkeys(r.core for r in rows):
        errors = [abs(r.error_percent) for r in rows if r.core == core]
        out.append(CoreSummary(core, len(errors), fmean(errors), max(errors)))
    return out


def as_json(rows: Sequence[ValidationRow]) -> dict:
    return {
        "rows": [
            {
                "core": r.core,
                "name": r.name,
                "sequence": r.sequence,
                "published": r.published,
                "emulated": r.emulated,
                "error_percent": r.error_percent,
                "source": r.source,
            }
            for r in rows
        ],
        "summary": [
            {"core": s.core, "n": s.n, "mean_abs_error_percent": s.mean_abs_error,
             "max_abs_error_percent": s.max_abs_error}
            for s in summarize(rows)
        ],
    }


__all__ = [
    "CoreSummary",
    "ValidationRow",
    "ValidationSequence",
    "as_json",
    "load_sequences",
    "render_source",
    "run_validation",
    "summarize",
]
