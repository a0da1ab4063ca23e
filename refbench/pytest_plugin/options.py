"""The plugin's command-line options: defaults, the value parsers (a bad value names the valid
ones) and ``pytest_addoption``, which declares every ``--refbench-*`` option once."""

from __future__ import annotations

import argparse

import pytest

from cortexm_emu.boards import board_names, load_board
from cortexm_emu.machine_options import BOARD_HELP, resolve_board
from cortexm_emu.toolchain import gcc_available

#: Boards of the default run: one Cortex-M4 and one Cortex-M0+, both with published figures.
DEFAULT_BOARDS: tuple[str, ...] = ("stm32l4a6zg", "stm32g071rb")
#: Message sizes of the default run, in bytes.
DEFAULT_BOARD_SIZES: tuple[int, ...] = (1024,)
DEFAULT_HOST_SIZES: tuple[int, ...] = (16, 1024)
#: Operand sizes (bytes) tried, smallest first, for an operation that takes none of the selected
#: message sizes when no --refbench-size is given: the fields' own lengths (P-256 and 2^255 - 19:
#: 32, P-384: 48, 2^448 - 2^224 - 1: 56, P-521's 17 limbs: 68, an Ed25519 table row's point: 96) and
#: Montgomery lengths.
OPERAND_SIZES: tuple[int, ...] = (16, 32, 48, 56, 64, 68, 96, 128, 256, 512)
#: Sizes, optimisation levels of ``--refbench-full``.
FULL_SIZES: tuple[int, ...] = (16, 64, 256, 1024, 4096)
FULL_OPTS: tuple[str, ...] = ("Os", "O2")
DEFAULT_OPT = "Os"
DEFAULT_COMPILER = "zig"
DEFAULT_ROUNDS = 3
OPT_LEVELS: tuple[str, ...] = ("O0", "O1", "O2", "O3", "Os")
COMPILERS: tuple[str, ...] = ("zig", "gcc")
#: Sizes are whole 16-byte blocks (block modes take whole blocks; 16 is a multiple of 8 too).
SIZE_STEP = 16
MAX_SIZE = 16384

#: Values of --refbench-memory: the board's memory system with caches/ART and prefetch on or off,
#: or the ideal (zero-wait-state) memory.
MEMORY_CHOICES: tuple[str, ...] = ("on", "off", "ideal")
DEFAULT_MEMORY = "on"
MEMORY_NOTE = ("the board's memory system at the case's clock (cortexm_emu.board_memory: flash wait states, "
               "prefetch, caches; code in flash), caches and prefetch as --refbench-memory says")
IDEAL_MEMORY = "ideal (zero wait states)"


def memory_note(config: pytest.Config) -> str:
    """What the board cases of this run ran with, by ``--refbench-memory``."""
    return IDEAL_MEMORY if config.getoption("refbench_memory") == "ideal" else MEMORY_NOTE


# --------------------------------------------------------------------------- option values


def emulated_boards() -> list[str]:
    """Boards whose core :mod:`cortexm_emu` emulates (``cortexm_emu.cores.CORES``)."""
    from cortexm_emu.cores import CORES

    return [name for name in board_names() if load_board(name).core in CORES]


def parse_board(value: str) -> str:
    """``--refbench-board``: a board profile whose core is emulated, named as every command's
    ``--board`` names it (:func:`cortexm_emu.machine_options.resolve_board`: the profile name, or
    its part number or board name, case-insensitive)."""
    valid = ", ".join(emulated_boards())
    try:
        board = resolve_board(value, "--refbench-board")
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    if board.name not in emulated_boards():
        raise argparse.ArgumentTypeError(
            f"Invalid --refbench-board ({value!r}): its core {board.core!r} is not emulated by cortexm_emu yet; "
            f"valid: {valid}"
        )
    return board.name


def parse_kernel(value: str) -> str:
    """``--refbench-kernel``: ``family`` or ``family/variant`` of the kernel catalogue."""
    from refbench.kernels.catalog import families

    known = families()
    family_name, _, variant = value.partition("/")
    if family_name not in known:
        raise argparse.ArgumentTypeError(
            f"Unknown kernel {value!r}; valid: {', '.join(known)} (optionally /variant)"
        )
    if variant and variant not in known[family_name].variants:
        raise argparse.ArgumentTypeError(
            f"Unknown variant {variant!r} of kernel {family_name!r}; "
            f"valid: {', '.join(known[family_name].variants)}"
        )
    return value


def parse_size(value: str) -> int:
    """``--refbench-size``: bytes, a multiple of 16 from 16 to 16384."""
    accepted = f"accepted: a multiple of {SIZE_STEP} from {SIZE_STEP} to {MAX_SIZE}"
    try:
        size = int(value, 10)
    except ValueError:
        raise argparse.ArgumentTypeError(f"Invalid size {value!r} (not an integer); {accepted}") from None
    if size < SIZE_STEP or size > MAX_SIZE or size % SIZE_STEP:
        raise argparse.ArgumentTypeError(f"Invalid size {size} bytes; {accepted}")
    return size


def parse_opt(value: str) -> str:
    """``--refbench-opt``: a compiler optimisation level."""
    if value not in OPT_LEVELS:
        raise argparse.ArgumentTypeError(f"Invalid optimisation level {value!r}; valid: {', '.join(OPT_LEVELS)}")
    return value


def parse_compiler(value: str) -> str:
    """``--refbench-compiler``: ``zig`` (always present) or ``gcc`` (when installed)."""
    if value not in COMPILERS:
        raise argparse.ArgumentTypeError(f"Invalid compiler {value!r}; valid: {', '.join(COMPILERS)}")
    if value == "gcc" and not gcc_available():
        raise argparse.ArgumentTypeError(
            "Invalid compiler 'gcc': arm-none-eabi-gcc is not installed; valid here: zig"
        )
    return value


def parse_rounds(value: str) -> int:
    """``--refbench-rounds``: emulated rounds per case, 1 to 100."""
    try:
        rounds = int(value, 10)
    except ValueError:
        rounds = 0
    if not 1 <= rounds <= 100:
        raise argparse.ArgumentTypeError(f"Invalid rounds {value!r}; accepted: an integer from 1 to 100")
    return rounds


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup(
        "refbench", "refbench benchmarks (emulated board time: cycles / board clock; see benchmarks/README.md)"
    )
    group.addoption(
        "--refbench-board", action="append", type=parse_board, metavar="NAME", default=None,
        help=f"Board to emulate (repeatable), e.g. --refbench-board stm32l4a6zg: {BOARD_HELP}. "
        f"It runs at its default clock (cortexm-emu boards: default_mhz). "
        f"Default: {', '.join(DEFAULT_BOARDS)}; with --refbench-full: every board whose core is "
        f"emulated. Valid: {', '.join(emulated_boards())}.",
    )
    group.addoption(
        "--refbench-kernel", action="append", type=parse_kernel, metavar="FAMILY[/VARIANT]", default=None,
        help="Kernel family or family/variant of refbench/kernels (repeatable), "
        "e.g. --refbench-kernel sha256 or sha256/unrolled. Default: every family and variant.",
    )
    group.addoption(
        "--refbench-size", action="append", type=parse_size, metavar="BYTES", default=None,
        help=f"Message size in bytes (repeatable; a multiple of {SIZE_STEP}, {SIZE_STEP}..{MAX_SIZE}). "
        f"Default: {', '.join(map(str, DEFAULT_BOARD_SIZES))} on boards, "
        f"{', '.join(map(str, DEFAULT_HOST_SIZES))} on the host; "
        f"with --refbench-full: {', '.join(map(str, FULL_SIZES))}.",
    )
    group.addoption(
        "--refbench-opt", action="append", type=parse_opt, metavar="LEVEL", default=None,
        help=f"Kernel optimisation level (repeatable; {', '.join(OPT_LEVELS)}). Default: {DEFAULT_OPT}; "
        f"with --refbench-full: {', '.join(FULL_OPTS)}.",
    )
    group.addoption(
        "--refbench-compiler", action="append", type=parse_compiler, metavar="NAME", default=None,
        help=f"Kernel compiler (repeatable; zig, or gcc when arm-none-eabi-gcc is installed). "
        f"Default: {DEFAULT_COMPILER}; with --refbench-full: every installed one.",
    )
    group.addoption(
        "--refbench-memory", choices=MEMORY_CHOICES, default=DEFAULT_MEMORY,
        help="Memory system of board cases: the board's flash, prefetch and caches with caches and prefetch "
        "'on' (default) or 'off', or 'ideal' (zero wait states).",
    )
    group.addoption(
        "--refbench-rounds", type=parse_rounds, metavar="N", default=DEFAULT_ROUNDS,
        help=f"Emulated rounds per board case (default {DEFAULT_ROUNDS}). They are exact repeats "
        "(stddev 0); more than one only shows that.",
    )
    group.addoption(
        "--refbench-algorithm", action="append", metavar="NAME", default=None,
        help="Host benchmark algorithm (repeatable), e.g. --refbench-algorithm AES-128-GCM. "
        "Default: a representative set; with --refbench-full: all (names in benchmarks/README.md; "
        "a bad name lists the valid ones).",
    )
    group.addoption(
        "--refbench-full", action="store_true", default=False,
        help="The full matrix: every board, kernel, variant and host algorithm, sizes "
        f"{', '.join(map(str, FULL_SIZES))}, opt {', '.join(FULL_OPTS)}, every installed compiler. "
        "Options given explicitly still narrow their own dimension.",
    )

