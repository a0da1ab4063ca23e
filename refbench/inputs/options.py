"""The command-line side of a user's own input: the ``--input`` options of ``refbench sanity``,
the :class:`Assumptions` they state, and reading every input (a file, or ``-`` for standard
input) into figures and the problems of the lines that were skipped.

``--board`` is shared with the built-in pages' filter: with ``--input`` it names the board
profile the input ran on (one board); without ``--input`` it keeps its meaning of selecting the
built-in pages' boards (:func:`uses_inputs` tells which).
"""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from cortexm_emu.datafile import DataFileError
from cortexm_emu.machine_options import add_machine_options
from refbench.inputs import FORMATS, Assumptions, Problem, read_input
from refbench.inputs.assumptions import core_key
from refbench.inputs.build import load_build_options
from refbench.inputs.decode import MAX_INPUT_BYTES
from refbench.inputs.duplicates import drop_duplicates
from refbench.inputs.records import covers
from refbench.inputs.table import known_names
from refbench.published.model import PERIPHERALS, Figure

#: options that state the assumptions of an input; without --input they are an error
ASSUMPTION_OPTIONS = ("core", "clock", "wait_states", "cache", "prefetch", "library", "lib_version", "compiler",
                      "build_options", "build", "hardware", "input_format", "pages")


def add_input_options(parser: argparse.ArgumentParser) -> None:
    """``--input`` and the options that state what a log does not say."""
    group = parser.add_argument_group(
        "your own benchmark output",
        "judge figures you measured: --input FILE reads a wolfCrypt or Mbed TLS benchmark log, or a CSV/JSON table "
        "(refbench/inputs/template.csv); the built-in pages are then not judged (--pages adds them). The part it "
        "ran on: --board NAME (a board profile; with --input, --board names that board instead of filtering the "
        "built-in pages), or --core C --clock MHZ with --wait-states/--cache/--prefetch. Every reason states what "
        "was assumed. Lines that cannot be read are reported on stderr as FILE:LINE and skipped, never guessed")
    group.add_argument("--input", action="append", metavar="FILE",
                       help="a benchmark log or table to judge ('-': standard input); repeatable")
    group.add_argument("--input-format", metavar="FORMAT",
                       help=f"the inputs' format: {', '.join(FORMATS)} (default: detected from each input)")
    group.add_argument("--pages", action="store_true",
                       help="with --input: judge the built-in pages too (their figures become rule partners)")
    add_machine_options(group, ("core", "clock", "wait_states", "cache", "prefetch"), core=input_core, unknown=True,
                        helps=INPUT_HELPS)
    group.add_argument("--library", metavar="NAME", help="with --input: the library, when the input does not say it")
    group.add_argument("--lib-version", metavar="X.Y.Z",
                       help="with --input: the library's version, when the log does not print it (wolfSSL's KB unit "
                            "depends on it)")
    group.add_argument("--compiler", metavar="TEXT", help="with --input: the compiler that built the benchmark")
    group.add_argument("--options", dest="build_options", metavar="FLAGS",
                       help="with --input: the optimisation level, written --options=-O2 (-Os, -O2 or -O3: the level "
                            "the kernels are built at for the emulator rule; any other is refused, not dropped)")
    group.add_argument("--option", dest="build", action="append", metavar="NAME[=VALUE]",
                       help="with --input: a library build option the benchmark was built with, in the library's "
                            f"own name (repeatable): {_option_names()}. Each sets what the rules read (the math "
                            "library, the assembly, the kernel variant the emulator rule compares) or, where no rule reads it, "
                            "is kept in every figure's notes (refbench/inputs/build_options.toml)")
    group.add_argument("--hardware", action="append", metavar="WHAT",
                       help=f"with --input: crypto hardware the run used, comma-separated or repeated: a peripheral "
                            f"({', '.join(sorted(PERIPHERALS))}: all its algorithms), an algorithm (SHA-256, "
                            "AES-128-GCM) or an AES mode at every key size (AES-GCM); those figures are hardware "
                            "figures, and the algorithms the library's driver computes with them follow (wolfSSL's "
                            "GMAC with AES-GCM)")


#: the machine options in the sense of ``--input``: the machine the input ran on
INPUT_HELPS = {
    "core": "with --input and no --board: the core (m0plus, m4, m7, m33; m4f, m7f, m33f are the same cores with an "
            "FPU; Cortex-M4 ... as a log writes it)",
    "clock": "with --input: the core clock the input ran at, MHz (with --board: default the board's default clock, "
             "the part maximum unless its profile names another, said so)",
    "wait_states": "with --core: flash wait states per read at --clock (your reference manual's latency table); "
                   "without it the emulator rule runs no kernel",
    "cache": "with --input: instruction/data cache (ART, ICACHE) on, off, or unknown (default: every setting runs)",
    "prefetch": "with --input: flash prefetch on, off, or unknown (default: every setting runs)",
}


def input_core(text: str) -> str:
    """``--core`` with ``--input``: a core as :func:`~refbench.inputs.assumptions.core_key` accepts it
    (``m4``, ``M4F``, ``Cortex-M0+``), kept as written (the reasons quote it)."""
    try:
        core_key(text)
    except ValueError as exc:
        raise ValueError(str(exc).replace("Invalid core ", "Invalid --core ", 1)) from None
    return text.strip()


def _option_names() -> str:
    """The --option names by library, for --help."""
    by_library: dict[str, list[str]] = {}
    for option in load_build_options()[0].values():
        by_library.setdefault(option.library, []).append(option.name)
    return "; ".join(f"{library} {', '.join(names)}" for library, names in by_library.items())


def uses_inputs(args: argparse.Namespace) -> bool:
    """True when ``--input`` was given (``--board`` then names the input's board)."""
    return bool(args.input)


def check_options(args: argparse.Namespace) -> str | None:
    """The first option that needs --input but came without it, or a second --board with it."""
    if uses_inputs(args):
        if args.board and len(args.board) > 1:
            return (f"Invalid --board ({', '.join(args.board)}): with --input, --board names the one board profile "
                    "the input ran on")
        return None
    defaults = {"pages": False}
    for name in ASSUMPTION_OPTIONS:
        if getattr(args, name) not in (None, defaults.get(name)):
            option = {"build_options": "--options", "build": "--option"}.get(name, "--" + name.replace("_", "-"))
            return f"Invalid {option}: it states what an --input ran on; give --input FILE (or '-' for stdin)"
    return None


def check_level(text: str | None) -> None:
    """``ValueError`` unless ``--options`` names a level the kernels are built at for the emulator rule
    (``workloads.toml [build] opt_of_options``): a level it does not know would be dropped, and
    every level compared, without a word."""
    from refbench.sanity.workloads import WORKLOADS

    levels = WORKLOADS.build["opt_of_options"]
    if text is None or text in levels:
        return
    raise ValueError(f"Invalid --options ({text!r}): not an optimisation level the kernels are built at; accepted: "
                     f"{', '.join(repr(k) for k in levels)} (written --options=-O2; leave it out when the level is "
                     "not known: every level is then compared)")


def check_hardware(entries: tuple[str, ...]) -> None:
    """``ValueError`` for a ``--hardware`` entry that is no peripheral, no algorithm refbench
    knows and no ``AES-<MODE>`` of one."""
    algorithms = known_names()[0]
    for entry in entries:
        if entry in PERIPHERALS or entry in algorithms or any(covers(entry, a) for a in algorithms):
            continue
        raise ValueError(f"Invalid --hardware ({entry!r}); accepted: a peripheral ({', '.join(sorted(PERIPHERALS))}), "
                         "an algorithm of the built-in figures (refbench sanity --list: SHA-256, AES-128-GCM ...) or "
                         "an AES mode at every key size (AES-GCM, AES-CBC ...)")


def assumptions_from(args: argparse.Namespace) -> Assumptions:
    """The :class:`Assumptions` the options state (``ValueError`` naming the bad option)."""
    check_level(args.build_options)
    hardware = tuple(p.strip().upper() for text in args.hardware or () for p in text.split(",") if p.strip())
    check_hardware(hardware)
    try:
        assumptions = Assumptions(board=args.board[0] if args.board else None, core=args.core, clock_mhz=args.clock,
                                  wait_states=args.wait_states, cache=args.cache or "unknown",
                                  prefetch=args.prefetch or "unknown",
                                  library=args.library, version=args.lib_version, compiler=args.compiler,
                                  options=args.build_options, hardware=hardware, build=tuple(args.build or ()))
        if assumptions.complete or assumptions.board is not None:
            assumptions.resolve()  # an unknown board, a clock above its maximum: said before reading
        return assumptions
    except ValueError as exc:
        text = str(exc)
        for field, option in (("clock_mhz", "--clock"), ("wait_states", "--wait-states"), ("hardware", "--hardware"),
                              ("core", "--core")):
            text = text.replace(f"Invalid {field} ", f"Invalid {option} ")
        raise ValueError(text) from None


#: Figures one ``refbench sanity --input`` judges at most: 5,000 distinct rows take 8.5 s and
#: 150 MB without the emulator on this project's machine, 30,000 took 194 s and 660 MB (the
#: rules pair figures, so the time grows faster than their number); a wolfCrypt or Mbed TLS
#: benchmark run prints about a hundred.
MAX_FIGURES = 5000


@dataclass(frozen=True)
class ReadInputs:
    """Every input's figures (in order) and the lines that were skipped."""

    figures: list[Figure]
    problems: list[Problem]


def read_inputs(paths: list[str], assumptions: Assumptions, format: str | None = None,
                stdin: TextIO | None = None) -> ReadInputs:
    """Read each of ``paths`` (``-``: ``stdin``, default ``sys.stdin``, once); a figure that
    repeats an earlier one (in any input) is reported and judged once. Raises ``ValueError``
    naming the input for a file given twice (under any name), a directory, a missing, unreadable,
    binary or too large file, more than :data:`MAX_FIGURES` figures, an undetectable format or
    assumptions that place no part;
    :class:`DataFileError` for a table with a bad header."""
    figures: list[Figure] = []
    problems: list[Problem] = []
    seen: dict[str, str] = {}  # the file each input is (its real path), the name it was given as
    for path in paths:
        if path == "-":
            stream = stdin or sys.stdin
            buffer = getattr(stream, "buffer", None)
            source: Path | bytes | str = (buffer.read(MAX_INPUT_BYTES + 1) if buffer is not None
                                          else stream.read(MAX_INPUT_BYTES + 1))
            name, identity = "<stdin>", "-"
        else:
            source, name = Path(path), path
            identity = os.path.realpath(path)
        if identity in seen:
            same = "" if seen[identity] == path else f" (the same file as --input {seen[identity]!r})"
            raise ValueError(f"Invalid --input ({path!r}): given twice{same}; each input is judged once")
        seen[identity] = path
        try:
            found, skipped = read_input(source, assumptions=assumptions, name=name, format=format)
        except DataFileError:
            raise
        except ValueError as exc:
            raise ValueError(f"{exc}" if name in str(exc) else f"{name}: {exc}") from None
        figures += found
        problems += skipped
    figures, duplicates = drop_duplicates(figures)
    if len(figures) > MAX_FIGURES:
        raise ValueError(f"Invalid --input ({', '.join(paths)}): {len(figures):,} figures (duplicates removed), more "
                         f"than the {MAX_FIGURES:,} one run judges (a benchmark run prints about a hundred; the rules "
                         "compare figures with each other, so the time grows faster than their number); give the "
                         "runs to judge in separate commands")
    return ReadInputs(figures, problems + duplicates)
