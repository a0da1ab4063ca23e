"""What a user's input does not say and the user must: which part (or core and clock), its
memory system, and the library build. Every figure read from an input carries the
:meth:`Assumptions.describe` text, so every verdict's reason can state what was assumed.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Literal

from cortexm_emu.boards import Board, find_board
from refbench.inputs.build import parse_option
from refbench.published.model import CORE_NAMES, PERIPHERALS

#: a ``--hardware`` entry that names an algorithm rather than a peripheral (checked against the
#: known names by the command line, refbench.inputs.options)
_ALGORITHM = re.compile(r"[A-Z0-9][A-Z0-9-]*-[A-Z0-9-]+")
Setting = Literal["on", "off", "unknown"]
SETTINGS: tuple[str, ...] = ("on", "off", "unknown")

#: accepted spellings of a core (case-insensitive) -> board-profile core name
_CORE_ALIASES: dict[str, str] = {}
for _key, _name in CORE_NAMES.items():
    for _alias in (_key, _name, _name.removeprefix("Cortex-"), _name.replace("+", "plus"),
                   _name.removeprefix("Cortex-").replace("+", "plus")):
        _CORE_ALIASES[_alias.lower()] = _key
#: the FPU names cortex-m-emu accepts (cortexm_emu/cores.py): the same integer pipeline, judged as the core
for _key in ("m4", "m7", "m33"):
    for _alias in (f"{_key}f", f"cortex-{_key}f", f"{CORE_NAMES[_key]}F".lower()):
        _CORE_ALIASES[_alias.lower()] = _key


def core_key(core: str) -> str:
    """``"m4"``, ``"M4"``, ``"Cortex-M4"``, ``"cortex-m0plus"`` -> ``"m4"`` / ``"m0plus"``."""
    try:
        return _CORE_ALIASES[core.strip().lower()]
    except KeyError:
        raise ValueError(
            f"Invalid core ({core!r}); accepted: {', '.join(CORE_NAMES)}, m4f, m7f, m33f (or "
            f"{', '.join(CORE_NAMES.values())})"
        ) from None


@dataclass(frozen=True)
class Assumptions:
    """A board profile name or part (``board``), or a core and clock without one.

    ``clock_mhz`` may accompany a board (the run's clock); without it the board's default
    clock (``Board.default_clock_mhz``: the part maximum unless the profile names another) is
    assumed, and said so. ``wait_states``, ``cache`` and
    ``prefetch`` describe the memory system when no board profile does (``"unknown"``: the
    emulated verdicts try every setting). ``library``/``version``/``compiler``/``options``
    fill what the input itself does not print. ``hardware`` lists the crypto peripherals
    (``AES``, ``DES``, ``HASH``, ``PKA``, ``RNG``) the run used; figures of algorithms they
    compute are marked as hardware figures; an entry may also name one algorithm
    (``SHA-256``) or every key size of an AES mode (``AES-GCM``), and the algorithms that follow
    it in the library's driver follow it (:mod:`refbench.inputs.build`). ``build`` lists the
    library build options stated (``--option NAME[=VALUE]``, the library's own names).
    """

    board: str | None = None
    core: str | None = None
    clock_mhz: float | None = None
    wait_states: int | None = None
    cache: Setting = "unknown"
    prefetch: Setting = "unknown"
    library: str | None = None
    version: str | None = None
    compiler: str | None = None
    options: str | None = None
    hardware: tuple[str, ...] = ()
    build: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        for name in ("cache", "prefetch"):
            value = getattr(self, name)
            if value not in SETTINGS:
                raise ValueError(f"Invalid {name} ({value!r}); accepted: {', '.join(SETTINGS)}")
        if self.clock_mhz is not None and not (math.isfinite(self.clock_mhz) and self.clock_mhz > 0):
            raise ValueError(f"Invalid clock_mhz ({self.clock_mhz!r}); must be a finite number > 0")
        if self.wait_states is not None and (isinstance(self.wait_states, bool) or self.wait_states < 0):
            raise ValueError(f"Invalid wait_states ({self.wait_states!r}); must be an integer >= 0")
        if self.core is not None:
            core_key(self.core)
        unknown = [p for p in self.hardware if p not in PERIPHERALS and not _ALGORITHM.fullmatch(p)]
        if unknown:
            raise ValueError(f"Invalid hardware ({unknown[0]!r}); accepted: a peripheral "
                             f"({', '.join(sorted(PERIPHERALS))}) or an algorithm (SHA-256, AES-128-GCM, AES-GCM)")
        for text in self.build:
            parse_option(text)
        if self.board is not None and self.wait_states is not None:
            raise ValueError(f"Invalid wait_states ({self.wait_states!r}) with board {self.board!r}: "
                             "the board profile gives the wait states for the clock")

    @property
    def complete(self) -> bool:
        """True when a part can be placed: a board, or a core with a clock."""
        return self.board is not None or (self.core is not None and self.clock_mhz is not None)

    def resolve(self) -> Placement:
        """The part, core and clock the figures get. Raises ``ValueError`` for an unknown board,
        a core that contradicts the board, a clock above the part's maximum, or no board and no
        core/clock."""
        if self.board is not None:
            board = find_board(self.board)
            if self.core is not None and core_key(self.core) != board.core:
                raise ValueError(f"Invalid core ({self.core!r}) for board {board.name}: its core is "
                                 f"{CORE_NAMES[board.core]}")
            if self.clock_mhz is not None and self.clock_mhz > board.max_clock_mhz:
                raise ValueError(f"Invalid clock_mhz ({self.clock_mhz:g}) for board {board.name}: above the "
                                 f"part's maximum {board.max_clock_mhz:g} MHz")
            clock = self.clock_mhz if self.clock_mhz is not None else float(board.default_clock_mhz)
            return Placement(board=board, part=board.part, core=CORE_NAMES[board.core], clock_mhz=clock,
                             text=self.describe(board))
        if self.core is None or self.clock_mhz is None:
            missing = "no core and no clock" if self.core is None and self.clock_mhz is None else (
                f"a clock ({self.clock_mhz:g} MHz) but no core" if self.core is None else
                f"a core ({self.core}) but no clock")
            raise ValueError(f"Invalid assumptions: the part the input ran on is not stated (no board profile; "
                             f"{missing}); give a board profile (--board NAME), or a core and its clock in MHz "
                             "(--core m4 --clock 168)")
        core = CORE_NAMES[core_key(self.core)]
        return Placement(board=None, part=f"unprofiled {core}", core=core, clock_mhz=float(self.clock_mhz),
                         text=self.describe(None))

    def describe(self, board: Board | None = None) -> str:
        """One sentence of what was assumed, for every reason."""
        build = ", ".join(f"{k} {v}" for k, v in (("library", self.library), ("version", self.version),
                                                  ("compiler", self.compiler), ("options", self.options)) if v)
        hardware = f"; crypto peripherals used: {', '.join(self.hardware)}" if self.hardware else \
            "; no crypto peripheral stated (software figures)"
        if self.build:
            build = ", ".join(filter(None, [build, f"build options {' '.join(self.build)}"]))
        if board is not None:
            default = (f"the board's default clock: {board.default_clock_reason}" if board.default_clock_reason
                       else "the part's maximum from the profile")
            clock = (f"{self.clock_mhz:g} MHz as given" if self.clock_mhz is not None else
                     f"{board.default_clock_mhz:g} MHz (no clock given: {default})")
            memory = ("" if self.cache == "unknown" and self.prefetch == "unknown" else
                      f" (cache {self.cache}, prefetch {self.prefetch} as given)")
            text = (f"assumed: board profile {board.name} ({board.part}, {CORE_NAMES[board.core]}) at {clock}; "
                    f"flash wait states, prefetch and caches from the profile{memory}")
        else:
            ws = f"{self.wait_states} flash wait states" if self.wait_states is not None else "flash wait states unknown"
            text = (f"assumed: no board profile; {CORE_NAMES[core_key(self.core)] if self.core else 'core not given'}"
                    f" at {f'{self.clock_mhz:g} MHz' if self.clock_mhz else 'clock not given'}; {ws}; "
                    f"cache {self.cache}; prefetch {self.prefetch}")
        return text + (f"; {build}" if build else "") + hardware

    def memory_text(self) -> str | None:
        """The ``cache`` text of a figure: what is known of the memory system."""
        if self.board is not None:
            if self.cache == "unknown" and self.prefetch == "unknown":
                return None
            return f"cache {self.cache}, prefetch {self.prefetch} (assumed); wait states from the board profile"
        ws = f"{self.wait_states} wait states" if self.wait_states is not None else "wait states unknown"
        return f"cache {self.cache}, prefetch {self.prefetch}, {ws} (assumed, not from a board profile)"


#: the end of every :meth:`Assumptions.describe` text: what it says of the crypto peripherals
_DESCRIBED = re.compile(r"assumed: .*?(?:no crypto peripheral stated \(software figures\)|"
                        r"crypto peripherals used: [A-Z0-9-]+(?:, [A-Z0-9-]+)*)"
                        r"(?:; the log's timer resolution is [^;]*)?"  # refbench.inputs.resolution.sentence
                        # a stated clock the log's own cycles/byte contradict (refbench.inputs.mbedtls)
                        r"(?:; the log's rate x cycles/byte implies [^;]*; (?:it contradicts|the stated) [^;]*)?")


def described_assumptions(notes: str | None) -> str | None:
    """The :meth:`Assumptions.describe` text a figure read from an input starts its notes with
    (:func:`refbench.inputs.records.build_figure`) and, when the log's timer is coarse, what it
    shows of it (:mod:`refbench.inputs.resolution`); None for a figure of a built-in page."""
    match = _DESCRIBED.match(notes or "")
    return match.group(0) if match else None


@dataclass(frozen=True)
class Placement:
    """Where the figures of an input were run: the resolved :class:`Assumptions`."""

    board: Board | None
    part: str
    core: str
    clock_mhz: float
    text: str
