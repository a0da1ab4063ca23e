"""The machine options of every command line, declared once.

``cortexm-emu run``/``annotate``/``validate``, ``refbench cycles``/``annotate``/``leakage``/``held-out``,
``refbench sanity`` (``--board``, and with ``--input`` the machine a user's input ran on), the kernel
sweep script and the benchmark plugin describe the machine with the same options; this module
declares them (:func:`add_machine_options`: one help text each, one default clock) and parses
their values. Each value is checked when it is parsed, before any work: a bad one is an argparse
error naming the option (exit status 2). What depends on two options (a clock above the board's
maximum, a core that is not the board's, ``--cache`` without ``--board``) is checked by
:func:`check_machine`, also before any work, with a ``ValueError`` naming the option.

``--board`` has one meaning everywhere: a board profile (``cortexm-emu boards``); the part number
or the board name as a page or a datasheet writes it (``STM32F407VG``, ``NUCLEO-H753ZI``,
``NUCLEO-WL55JC RevC``) is accepted as an alias, case-insensitive (:func:`resolve_board`).
Without ``--clock`` a board runs at its default clock, ``Board.default_clock_mhz``.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable, Iterable, Mapping, Sequence

from cortexm_emu.boards import Board, board_names, find_board, load_board
from cortexm_emu.cores import CORES

#: A guard against a clock given in Hz or kHz (168000000 for 168 MHz), not a property of any part:
#: the board's own maximum bounds the clock once a board is named (:func:`check_machine`).
MAX_CLOCK_MHZ = 10_000.0

#: A guard on --wait-states (a user's part without a profile): twice the most any profile needs at its
#: maximum clock (7: cortexm-emu boards), not a documented limit of any part.
MAX_WAIT_STATES = 15

DEFAULT_CORE = "m4"

CLOCK_DEFAULT = ("the board's default clock: the part maximum unless its profile's [default_clock] names "
                 "another (cortexm-emu boards: default_mhz)")
BOARD_HELP = ("a board profile (cortexm-emu boards), e.g. stm32f407vg: its core and memory system (flash wait "
              "states at the clock, prefetch, caches); its part number or board name as a page writes it "
              "(STM32F407VG, NUCLEO-H753ZI) is accepted, case-insensitive")
CORE_HELP = "the core to emulate, with ideal 0-wait-state memory (default {default}); with --board: its core"
CLOCK_HELP = f"with --board: the core clock in MHz, which sets the flash wait states and the time (default: {CLOCK_DEFAULT})"
CACHE_HELP = "with --board: the ART / ICACHE / L1 caches on (default) or off"
PREFETCH_HELP = "with --board: the flash prefetch buffer on or off (default: as --cache)"
CODE_HELP = "with --board: where the code runs from (default flash; ram: 0-wait-state SRAM)"
TABLES_HELP = "with --board: where the read-only data (constant tables) is read from (default: with the code)"
WAIT_STATES_HELP = ("without --board: the flash wait states per read at --clock (the part's reference manual "
                    f"latency table); from 0 to {MAX_WAIT_STATES}")
START_HELP = ("with --board: the caches filled by an identical earlier call (warm) or empty (cold: every distinct "
              "line is a miss) (default {default})")

#: options that belong to a board: given without --board they are an error
BOARD_ONLY = ("clock", "cache", "prefetch", "code", "tables", "start")
CHOICES = {"cache": ("on", "off"), "prefetch": ("on", "off"), "code": ("flash", "ram"), "tables": ("flash", "ram"),
           "start": ("warm", "cold")}
#: what --cache and --prefetch accept where a user states a machine that may not be known (``unknown=True``)
SETTINGS = ("on", "off", "unknown")


def resolve_board(text: str, option: str = "--board") -> Board:
    """The board profile ``text`` names: a profile name, a unique prefix of a part number or board
    name (``find_board``), or a part number or board name followed by more (a page's
    ``NUCLEO-WL55JC RevC``), case-insensitive. ``ValueError`` listing the profiles otherwise."""
    name = text.strip()
    if name.lower() in board_names():
        return load_board(name.lower())
    try:
        return find_board(name)
    except ValueError:
        pass
    upper = name.upper()
    longer = [n for n in board_names()
              if any(upper.startswith(alias.upper()) for alias in (load_board(n).part, load_board(n).board) if alias)]
    if len(longer) == 1:
        return load_board(longer[0])
    raise ValueError(f"Invalid {option} ({text!r}); accepted: a board profile ({', '.join(board_names())}), "
                     "or its part number or board name (e.g. STM32F407VG, NUCLEO-H753ZI)")


def option(parse: Callable[[str], object]) -> Callable[[str], object]:
    """An argparse ``type`` from a parser raising ``ValueError`` (argparse prints its message): a bad
    value is then a usage error, exit status 2, before anything runs."""

    def parse_option(text: str) -> object:
        try:
            return parse(text)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    parse_option.__name__ = parse.__name__
    return parse_option


def board_name(text: str) -> str:
    """``--board``: the profile name of the board ``text`` names (:func:`resolve_board`)."""
    return resolve_board(text).name


def core_name(text: str, cores: Iterable[str] = CORES) -> str:
    """``--core``: one of ``cores``, case-insensitive."""
    accepted = list(cores)
    core = text.strip().lower()
    if core not in accepted:
        raise ValueError(f"Invalid --core ({text!r}); accepted: {', '.join(accepted)}")
    return core


def clock_mhz(text: str) -> float:
    """``--clock``: a finite number of MHz above 0 and at most :data:`MAX_CLOCK_MHZ`."""
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"Invalid --clock ({text!r}); accepted: a number of MHz such as 168 or 80.5") from None
    check_clock(value)
    return value


def check_clock(value: float) -> None:
    """A clock already parsed (e.g. by ``type=float``): finite, above 0, at most the guard."""
    if not math.isfinite(value) or not 0 < value <= MAX_CLOCK_MHZ:
        raise ValueError(f"Invalid --clock ({value:g}); accepted: a number of MHz above 0 and at most "
                         f"{MAX_CLOCK_MHZ:g} (the board's maximum with --board)")


def wait_states(text: str) -> int:
    """``--wait-states``: a decimal integer from 0 to :data:`MAX_WAIT_STATES`."""
    stripped = text.strip()
    value = int(stripped) if stripped.isascii() and stripped.isdigit() and len(stripped) <= 6 else None
    if value is None or value > MAX_WAIT_STATES:
        raise ValueError(f"Invalid --wait-states ({text}); accepted: an integer from 0 to {MAX_WAIT_STATES}")
    return value


def check_values(args: argparse.Namespace) -> None:
    """The machine numbers of ``args`` however they were declared (``type=float``, ``type=int``):
    --clock as :func:`check_clock`, --wait-states from 0 to :data:`MAX_WAIT_STATES`."""
    clock = getattr(args, "clock", None)
    if clock is not None:
        check_clock(clock)
    waits = getattr(args, "wait_states", None)
    if waits is not None and not 0 <= waits <= MAX_WAIT_STATES:
        raise ValueError(f"Invalid --wait-states ({waits}); accepted: an integer from 0 to {MAX_WAIT_STATES}")


def _each(parse: Callable[[str], str]) -> Callable[[str], list[str]]:
    """A comma-separated list of values, each parsed by ``parse``."""

    def parse_list(text: str) -> list[str]:
        items = [item.strip() for item in text.split(",")]
        if not any(items):
            return [parse(text)]  # the single value's own message
        return [parse(item) for item in items if item]

    parse_list.__name__ = parse.__name__
    return parse_list


def add_machine_options(parser: argparse.ArgumentParser | argparse._ArgumentGroup,
                        names: Sequence[str] = ("core", "board", "clock", "cache"), *,
                        cores: Iterable[str] = CORES, repeatable: bool = False,
                        default_start: str = "warm", board: Callable[[str], str] = board_name,
                        core: Callable[[str], str] | None = None, unknown: bool = False,
                        helps: Mapping[str, str] | None = None) -> None:
    """Declare the machine options ``names`` (of core, board, clock, cache, prefetch, code, tables,
    start, wait_states) on ``parser``, every default ``None`` so that :func:`check_machine` sees
    what was given. ``cores``: the cores this command accepts; ``repeatable``: --core and --board
    take several values (repeated or comma-separated) and give lists; ``board``, ``core``: the
    parsers of a --board and a --core value (``core`` default: one of ``cores``); ``unknown``:
    --cache and --prefetch also accept ``unknown`` (a machine a user states, which may not be
    known); ``helps``: the help of an option where this command gives it a narrower sense (the
    machine a user's input ran on, a sweep's cores)."""
    accepted = list(cores)

    def one_core(text: str) -> str:
        return core_name(text, accepted)

    one_core.__name__ = "core"
    parse_core = core or one_core
    settings = {"cache": SETTINGS, "prefetch": SETTINGS} if unknown else {}
    many = {"action": "extend"} if repeatable else {}
    listed = "; repeatable or comma-separated" if repeatable else ""
    texts = {"core": CORE_HELP.format(default=DEFAULT_CORE) + f"; accepted: {', '.join(accepted)}" + listed,
             "board": BOARD_HELP + listed, "clock": CLOCK_HELP, "cache": CACHE_HELP, "prefetch": PREFETCH_HELP,
             "code": CODE_HELP, "tables": TABLES_HELP, "start": START_HELP.format(default=default_start),
             "wait_states": WAIT_STATES_HELP}
    for name in names:
        if name not in texts:
            raise ValueError(f"Invalid machine option {name!r}; accepted: {', '.join(texts)}")
        text = (helps or {}).get(name, texts[name])
        if name == "core":
            parser.add_argument("--core", type=option(_each(parse_core) if repeatable else parse_core),
                                metavar="CORE", help=text, **many)
        elif name == "board":
            parser.add_argument("--board", type=option(_each(board) if repeatable else board), metavar="BOARD",
                                help=text, **many)
        elif name == "clock":
            parser.add_argument("--clock", type=option(clock_mhz), metavar="MHZ", help=text)
        elif name == "wait_states":
            parser.add_argument("--wait-states", type=option(wait_states), metavar="N", help=text)
        else:
            parser.add_argument(f"--{name}", choices=settings.get(name, CHOICES[name]), help=text)


def check_machine(args: argparse.Namespace) -> list[Board]:
    """The boards of ``--board`` (none: ideal memory), after the checks between options: a board
    option without --board, a --core that is not the board's (or several with --board), a clock
    above the board's maximum. ``ValueError`` naming the option."""
    boards = getattr(args, "board", None)
    boards = [] if boards is None else [boards] if isinstance(boards, str) else list(boards)
    check_values(args)
    clock = getattr(args, "clock", None)
    if not boards:
        for name in BOARD_ONLY:
            value = getattr(args, name, None)
            if value is not None:
                value = f"{value:g}" if isinstance(value, float) else value
                raise ValueError(f"Invalid --{name} ({value}) without --board: it belongs to a board's memory "
                                 f"system; accepted: --board NAME --{name} {value}")
        return []
    profiles = [resolve_board(name) for name in boards]
    cores = getattr(args, "core", None)
    cores = [] if cores is None else [cores] if isinstance(cores, str) else list(cores)
    if len(cores) > 1:
        raise ValueError(f"Invalid --core ({','.join(cores)}) with --board: a board has one core")
    for profile in profiles:
        accepted = board_cores(profile)
        if cores and cores[0] not in accepted:
            raise ValueError(f"Invalid --core ({cores[0]}) with --board {profile.name}: that part has a "
                             f"{profile.core} core{' with an FPU' if len(accepted) > 1 else ''}; accepted: --core "
                             f"{' or '.join(accepted)}, or no --core (the board's core, with its FPU if it has one)")
        if clock is not None and clock > profile.max_clock_mhz:
            raise ValueError(f"Invalid --clock ({clock:g}) with --board {profile.name}: above the part maximum, "
                             f"{profile.max_clock_mhz:g} MHz")
    return profiles


def board_cores(board: Board) -> tuple[str, ...]:
    """The --core names of ``board``'s core: its core, and the same core with an FPU when the part has
    one (``m4``, ``m4f``); either runs the board's core as its profile says, FPU included."""
    with_fpu = f"{board.core}f"
    return (board.core, with_fpu) if board.fpu.present and with_fpu in CORES else (board.core,)


def board_clock(board: Board, clock: float | None) -> tuple[float, str]:
    """The clock a board runs at: ``clock``, else its default clock; and the note that says which
    ("" when the clock was given)."""
    if clock is not None:
        return clock, ""
    return float(board.default_clock_mhz), f"no --clock; running {board.name} at {board.default_clock_note()}"
