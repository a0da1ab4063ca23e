"""Board profiles: the memory system and crypto hardware of every published board, as cited data.

One TOML file per board sits next to this module (``stm32f407vg.toml`` ...). Every value
carries a ``source`` (document number, revision where known, section/table) and a
``confidence``:

* ``primary``     -- the ST document text was seen (directly or in a faithful copy that the
  source string names);
* ``secondary``   -- taken from code or data derived from ST documents (STM32Cube HAL/LL,
  embassy-stm32, CubeMX-derived chip data, linker scripts), named in the source string;
* ``unconfirmed`` -- not seen in a primary or secondary source while writing the file; the
  value is the best available and the source string says what it rests on.

Every present crypto peripheral also states what it provides (``[crypto_hw.X.provides]``:
the functions AES/DES/HASH/PKA/RNG, the AES key sizes, the HASH algorithms), with its own
citation; ``Board.crypto_functions()``, ``aes_key_bits()`` and ``hash_algorithms()`` give the
part-level union that refbench's board rules use.

A present crypto peripheral may also carry its documented processing times
(``[crypto_hw.X.timing]``: the clock the cycles count, that clock's documented maximum, and
one row per documented number -- function, operation, key or modulus size, phase, bytes per
block, cycles, whether the number is a processing time or an average, and the table it comes
from), each table with its own citation; refbench turns them into lower bounds for published
hardware figures.

The loader checks the schema and names file, line and field on any bad or missing value
(:class:`BoardDataError`). ``wait_states(board, clock)`` looks the flash latency up in the
board's reference-manual table; a clock above the part maximum is a ``ValueError``.

This package imports nothing from refbench and nothing cryptographic.
"""

from __future__ import annotations

import dataclasses
import itertools
import re
import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Literal

from cortexm_emu.errors import EmulatorError

__all__ = [
    "AES_KEY_BITS",
    "BOARD_DIR",
    "CONFIDENCES",
    "CORES",
    "CRYPTO_BLOCKS",
    "CRYPTO_FUNCTIONS",
    "HASH_ALGORITHMS",
    "Board",
    "BoardDataError",
    "Cache",
    "Citation",
    "CryptoBlock",
    "CryptoCapability",
    "PKA_VARIANTS",
    "PeripheralTiming",
    "TIMING_CLOCKS",
    "TIMING_KINDS",
    "TIMING_OPERATIONS",
    "TIMING_PHASES",
    "TimingRow",
    "Flash",
    "FlashLatency",
    "Prefetch",
    "PublishedClock",
    "SramRegion",
    "board_names",
    "find_board",
    "load_board",
    "load_board_file",
    "wait_states",
]

BOARD_DIR = Path(__file__).resolve().parent

Core = Literal["m0plus", "m4", "m7", "m33"]
Confidence = Literal["primary", "secondary", "unconfirmed"]

CORES: tuple[str, ...] = ("m0plus", "m4", "m7", "m33")
CONFIDENCES: tuple[str, ...] = ("primary", "secondary", "unconfirmed")
#: Crypto peripherals every board file must state (present or not). ``CRYP`` is ST's
#: AES/DES/TDES processor of F2/F4/F7/H7; ``AES`` the AES-only coprocessor of L4/L5/U5/WB/WL/G0;
#: ``SAES`` the side-channel-protected AES of U5/U3/H573; ``CCB`` the coupling and chaining
#: bridge of U3; ``PKA`` the public-key accelerator.
CRYPTO_BLOCKS: tuple[str, ...] = ("AES", "CRYP", "HASH", "PKA", "RNG", "SAES", "CCB")
#: What a crypto peripheral can be asked to do, named as published benchmark pages name the
#: hardware they used: ``AES`` (any AES engine: CRYP's AES part, AES, SAES), ``DES`` (CRYP's
#: DES/TDES part), ``HASH``, ``PKA``, ``RNG``.
CRYPTO_FUNCTIONS: tuple[str, ...] = ("AES", "DES", "HASH", "PKA", "RNG")
#: Key sizes an AES engine may accept (FIPS 197: 128, 192, 256 bits).
AES_KEY_BITS: tuple[int, ...] = (128, 192, 256)
#: Digests a HASH peripheral may compute, with the names of FIPS 180-4 / RFC 1321.
HASH_ALGORITHMS: tuple[str, ...] = (
    "MD5",
    "SHA-1",
    "SHA-224",
    "SHA-256",
    "SHA-384",
    "SHA-512",
    "SHA-512/224",
    "SHA-512/256",
)
#: Clocks a documented processing time can count: ``hclk`` (the AHB clock the peripheral sits
#: on), ``rng_clk`` (the RNG kernel clock), ``shsi`` (the secure HSI that clocks SAES).
TIMING_CLOCKS: tuple[str, ...] = ("hclk", "rng_clk", "shsi")
#: What a timing row counts: ``block`` (per data block of ``bytes`` bytes), ``init``/``header``/
#: ``tag`` (GCM/CCM phases: once per message, per AAD block, once per message), ``op`` (one
#: public-key operation).
TIMING_PHASES: tuple[str, ...] = ("block", "init", "header", "tag", "op")
#: ``time``: the manual states the processing time (a lower bound on any use of the block);
#: ``average``: the manual states an average (depends on operand values), not a bound.
TIMING_KINDS: tuple[str, ...] = ("time", "average")
#: Operations a timing row may name, per function (AES modes as SP 800-38A/C/D name them,
#: digests as FIPS 180-4 / RFC 1321 name them, PKA operations as the reference manuals' tables).
TIMING_OPERATIONS: dict[str, tuple[str, ...]] = {
    "AES": ("ECB", "CBC", "CTR", "GCM", "CCM"),
    "DES": ("DES", "TDES"),
    "HASH": HASH_ALGORITHMS,
    "RNG": ("random",),
    "PKA": ("ecdsa-sign", "ecdsa-verify", "ecc-scalar-mul", "modexp-public", "modexp-private"),
}
#: Modes of the PKA modular exponentiation tables (RM0456 Table 521 names them).
PKA_VARIANTS: tuple[str, ...] = ("normal", "fast", "protected", "crt")
_TIMING_KEYS = frozenset(
    {"clock", "clock_max_mhz", "clock_at_most_core", "clock_source", "clock_confidence",
     "source", "confidence", "note", "rows"}
)
_ROW_KEYS = frozenset(
    {"function", "operation", "key_bits", "phase", "bytes", "cycles", "kind", "variant", "ref"}
)
CACHE_KINDS: tuple[str, ...] = (
    "art_icache",  # ST ART accelerator instruction cache on the flash I-Code path
    "art_dcache",  # ST ART accelerator data cache on the flash D-Code path
    "icache",  # ST ICACHE block on the Cortex-M33 C-AHB bus (L5/U5/H5/U3)
    "dcache",  # ST DCACHE block (U5/H5)
    "l1_icache",  # Cortex-M7 L1 instruction cache (AXI path)
    "l1_dcache",  # Cortex-M7 L1 data cache (AXI path)
    "flash_icache",  # small instruction cache in the flash interface, not ART-branded (G0)
)
FLASH_CLOCKS: tuple[str, ...] = ("hclk",)


class BoardDataError(EmulatorError, ValueError):
    """A board data file is malformed. Names the file, the line and the field.

    Same attributes as ``refbench.errors.DataFileError`` (path, line, field, problem, text),
    under the package's own base class; cortexm_emu does not import refbench.
    """

    def __init__(
        self, path: str | Path, line: int | None, field: str | None, problem: str, text: str = ""
    ):
        self.path = str(path)
        self.line = line
        self.field = field
        self.problem = problem
        self.text = text
        where = self.path if line is None else f"{self.path}:{line}"
        parts = [where] + ([f"field {field!r}"] if field else []) + [problem]
        message = ": ".join(parts)
        super().__init__(f"{message}: {text!r}" if text else message)


@dataclass(frozen=True)
class Citation:
    """Where a value comes from and how firmly it was checked."""

    source: str
    confidence: Confidence


@dataclass(frozen=True)
class PublishedClock:
    """A core clock a published source ran the board at."""

    mhz: float
    source: str
    seed: str  # seed file name in shared/seeds/, "" when the clock is not from a seed page
    reported_wait_states: int | None  # flash wait states the source itself states, if any
    finding: str  # non-empty when the clock contradicts the part's data (e.g. above the max)


@dataclass(frozen=True)
class FlashLatency:
    """One row of a reference-manual latency table: up to ``max_mhz`` needs ``wait_states``."""

    max_mhz: float
    wait_states: int


@dataclass(frozen=True)
class Flash:
    """Embedded flash: where it is, how wide a read is, and its wait states against clock.

    ``latency`` is indexed by the flash interface clock, which is the core clock divided by
    ``hclk_divider`` (1 on every part except the STM32H7, whose flash runs on the AXI clock).
    """

    base: int
    size_kib: int
    line_bits: int
    clock: str
    hclk_divider: int
    voltage_range: str
    latency: tuple[FlashLatency, ...]
    citation: Citation
    note: str


@dataclass(frozen=True)
class Prefetch:
    present: bool
    enabled_at_reset: bool
    citation: Citation
    note: str


@dataclass(frozen=True)
class Cache:
    """An instruction/data cache or flash accelerator. ``size_bytes``/``lines``/``line_bits``/
    ``ways`` are 0 when no document seen gives the figure (``note`` then says so)."""

    name: str
    kind: str
    size_bytes: int
    lines: int
    line_bits: int
    ways: int
    enabled_at_reset: bool
    citation: Citation
    note: str


@dataclass(frozen=True)
class SramRegion:
    name: str
    base: int
    size_kib: int
    bus: str
    wait_states: int
    citation: Citation
    note: str

    @property
    def end(self) -> int:
        """First address after the region."""
        return self.base + self.size_kib * 1024


@dataclass(frozen=True)
class CryptoCapability:
    """What a present crypto peripheral provides, with the citation for exactly these facts.

    ``aes_key_bits`` is empty unless ``"AES"`` is in ``functions``; ``hash_algorithms`` is
    empty unless ``"HASH"`` is. ``functions`` may be empty for blocks that are no engine of
    their own (the U3 coupling and chaining bridge, OTFDEC).
    """

    functions: tuple[str, ...]
    aes_key_bits: tuple[int, ...]
    hash_algorithms: tuple[str, ...]
    citation: Citation


@dataclass(frozen=True)
class TimingRow:
    """One documented processing time: ``cycles`` of the timing table's clock for ``phase``.

    ``key_bits`` is the AES key size or the PKA modulus size (0 where neither applies);
    ``bytes`` the data block of a ``block`` row (0 otherwise); ``variant`` the PKA
    exponentiation mode (normal, fast, protected, crt; "" otherwise); ``ref`` the table or
    section of the cited document the number is read from.
    """

    function: str
    operation: str
    key_bits: int
    phase: str
    bytes: int
    cycles: float
    kind: str
    variant: str
    ref: str


@dataclass(frozen=True)
class PeripheralTiming:
    """The documented processing times of one crypto peripheral and the clock they count.

    ``clock_max_mhz`` is the highest frequency the documents allow for that clock; when
    ``clock_at_most_core`` the clock is divided down from the CPU clock, so it also never
    exceeds the core clock. ``citation`` covers the rows, ``clock_citation`` the clock facts.
    """

    clock: str
    clock_max_mhz: float
    clock_at_most_core: bool
    clock_citation: Citation
    rows: tuple[TimingRow, ...]
    citation: Citation
    note: str

    def max_clock_mhz(self, core_mhz: float) -> float:
        """The fastest this clock can run while the core runs at ``core_mhz``."""
        return min(self.clock_max_mhz, core_mhz) if self.clock_at_most_core else self.clock_max_mhz


@dataclass(frozen=True)
class CryptoBlock:
    """One crypto peripheral: present or not, what it provides, and its documented timing."""

    name: str
    present: bool
    detail: str
    citation: Citation
    provides: CryptoCapability | None
    timing: PeripheralTiming | None = None


@dataclass(frozen=True)
class Board:
    """Everything known about one published board, each value with its citation."""

    name: str
    board: str
    part: str
    core: Core
    datasheet: str
    reference_manual: str
    max_clock_mhz: float
    max_clock: Citation
    published_clocks: tuple[PublishedClock, ...]
    flash: Flash
    prefetch: Prefetch
    accelerators: tuple[Cache, ...]
    sram: tuple[SramRegion, ...]
    crypto_hw: tuple[CryptoBlock, ...]
    notes: tuple[str, ...]
    path: Path

    @property
    def published_clocks_mhz(self) -> tuple[float, ...]:
        return tuple(clock.mhz for clock in self.published_clocks)

    def crypto(self, name: str) -> CryptoBlock:
        """The entry for crypto peripheral ``name`` (one of :data:`CRYPTO_BLOCKS` or an extra)."""
        for block in self.crypto_hw:
            if block.name == name:
                return block
        accepted = ", ".join(block.name for block in self.crypto_hw)
        raise ValueError(
            f"Invalid crypto peripheral ({name!r}) for board {self.name}; accepted: {accepted}"
        )

    def has_crypto(self, name: str) -> bool:
        return self.crypto(name).present

    def blocks_providing(self, function: str) -> tuple[CryptoBlock, ...]:
        """The present peripherals that provide ``function`` (one of :data:`CRYPTO_FUNCTIONS`)."""
        if function not in CRYPTO_FUNCTIONS:
            raise ValueError(
                f"Invalid crypto function ({function!r}); accepted: {', '.join(CRYPTO_FUNCTIONS)}"
            )
        return tuple(
            block
            for block in self.crypto_hw
            if block.provides is not None and function in block.provides.functions
        )

    def crypto_functions(self) -> frozenset[str]:
        """Every function some present crypto peripheral of the part provides."""
        return frozenset(
            function
            for block in self.crypto_hw
            if block.provides is not None
            for function in block.provides.functions
        )

    def aes_key_bits(self) -> frozenset[int]:
        """Key sizes accepted by at least one AES engine of the part (empty: no AES engine)."""
        return frozenset(
            bits
            for block in self.blocks_providing("AES")
            for bits in block.provides.aes_key_bits  # type: ignore[union-attr]
        )

    def hash_algorithms(self) -> frozenset[str]:
        """Digests computed by the part's HASH peripheral (empty: no HASH peripheral)."""
        return frozenset(
            algorithm
            for block in self.blocks_providing("HASH")
            for algorithm in block.provides.hash_algorithms  # type: ignore[union-attr]
        )

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready dictionary (for ``cortexm-emu boards --json`` and reports)."""
        data = _lists(dataclasses.asdict(self))
        data["path"] = str(self.path)
        data["published_clocks_mhz"] = list(self.published_clocks_mhz)
        return data


def _lists(node: Any) -> Any:
    """Tuples (from the frozen dataclasses) become lists, recursively, for JSON."""
    if isinstance(node, dict):
        return {key: _lists(value) for key, value in node.items()}
    if isinstance(node, (list, tuple)):
        return [_lists(value) for value in node]
    return node


# --------------------------------------------------------------------------------------------
# Public API


def board_names() -> list[str]:
    """Names of all board files shipped with the package, sorted."""
    return sorted(path.stem for path in BOARD_DIR.glob("*.toml"))


def load_board(name: str) -> Board:
    """Load the board profile ``name`` (e.g. ``"stm32l4a6zg"``)."""
    names = board_names()
    if name not in names:
        raise ValueError(f"Unknown board ({name!r}); accepted: {', '.join(names)}")
    return _load_cached(BOARD_DIR / f"{name}.toml")


def load_board_file(path: str | Path) -> Board:
    """Load and schema-check one board TOML file (any location)."""
    return _parse(Path(path))


def find_board(name_or_part: str) -> Board:
    """The board whose name, part number or board name matches ``name_or_part``.

    Accepts a board file name (``"stm32wb55rg"``) or a part/board prefix as published pages
    write it (``"STM32WB55"``, ``"STM32L4A6Z"``, ``"STM32L562E"``); case-insensitive. Raises
    ``ValueError`` when nothing or more than one board matches.
    """
    names = board_names()
    if name_or_part in names:
        return load_board(name_or_part)
    wanted = name_or_part.strip().upper()
    matches = []
    if wanted:
        for name in names:
            board = load_board(name)
            if board.part.upper().startswith(wanted) or board.board.upper().startswith(wanted):
                matches.append(name)
    if len(matches) != 1:
        found = f"matches {', '.join(matches)}" if matches else "matches no board"
        raise ValueError(
            f"Invalid board or part ({name_or_part!r}): {found}; accepted: a board name "
            f"({', '.join(names)}) or a unique part-number prefix"
        )
    return load_board(matches[0])


def wait_states(board: Board | str, clock_mhz: float) -> int:
    """Flash wait states the reference manual requires at core clock ``clock_mhz``.

    Raises ``ValueError`` if the clock is not positive or exceeds the part maximum.
    """
    if isinstance(board, str):
        board = load_board(board)
    is_number = isinstance(clock_mhz, (int, float)) and not isinstance(clock_mhz, bool)
    if not is_number or not clock_mhz > 0:
        raise ValueError(
            f"Invalid clock ({clock_mhz!r} MHz) for board {board.name}; "
            "accepted: a positive number of MHz"
        )
    if clock_mhz > board.max_clock_mhz:
        raise ValueError(
            f"Invalid clock ({clock_mhz:g} MHz) for board {board.name}: above the part maximum of "
            f"{board.max_clock_mhz:g} MHz ({board.max_clock.source})"
        )
    flash_clock = clock_mhz / board.flash.hclk_divider
    for row in board.flash.latency:
        if flash_clock <= row.max_mhz:
            return row.wait_states
    # The schema check guarantees the table covers the part maximum, so this is unreachable
    # for a loaded board; keep an explicit error rather than a silent default.
    raise ValueError(
        f"Invalid clock ({clock_mhz:g} MHz) for board {board.name}: "
        "not covered by its flash latency table"
    )


# --------------------------------------------------------------------------------------------
# Parsing and schema check


@cache
def _load_cached(path: Path) -> Board:
    return _parse(path)


Path_ = tuple[str | int, ...]


class _Reader:
    """Typed access to the parsed TOML that reports file, line and field on any problem."""

    def __init__(self, path: Path, text: str, data: dict[str, Any]):
        self.path = path
        self.lines = text.splitlines()
        self.data = data

    # -- errors ------------------------------------------------------------------------------
    def fail(self, field: Path_, problem: str) -> BoardDataError:
        line = _locate(self.lines, field)
        text = self.lines[line - 1].strip() if 1 <= line <= len(self.lines) else ""
        if text.startswith("#"):
            text = ""  # fell back to the file's first line: a comment says nothing about the field
        return BoardDataError(self.path, line, _dotted(field), problem, text)

    # -- getters -----------------------------------------------------------------------------
    def value(self, field: Path_) -> Any:
        node: Any = self.data
        for depth, key in enumerate(field):
            if isinstance(key, int):
                if not isinstance(node, list) or key >= len(node):
                    raise self.fail(field[: depth + 1], "missing entry")
                node = node[key]
            else:
                if not isinstance(node, dict):
                    raise self.fail(field[:depth], "expected a table")
                if key not in node:
                    raise self.fail(field[: depth + 1], "missing field")
                node = node[key]
        return node

    def has(self, field: Path_) -> bool:
        node: Any = self.data
        for key in field:
            if isinstance(key, int):
                if not isinstance(node, list) or key >= len(node):
                    return False
            elif not isinstance(node, dict) or key not in node:
                return False
            node = node[key]
        return True

    def string(self, field: Path_, *, allow_empty: bool = False) -> str:
        value = self.value(field)
        if not isinstance(value, str):
            raise self.fail(field, f"expected a string, got {type(value).__name__}")
        if not allow_empty and not value.strip():
            raise self.fail(field, "must not be empty")
        return value

    def choice(self, field: Path_, accepted: tuple[str, ...]) -> str:
        value = self.string(field)
        if value not in accepted:
            raise self.fail(field, f"invalid value {value!r}; accepted: {', '.join(accepted)}")
        return value

    def integer(self, field: Path_, *, minimum: int = 0) -> int:
        value = self.value(field)
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(field, f"expected an integer, got {type(value).__name__}")
        if value < minimum:
            raise self.fail(field, f"must be >= {minimum}, got {value}")
        return value

    def number(self, field: Path_) -> float:
        value = self.value(field)
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise self.fail(field, f"expected a number, got {type(value).__name__}")
        if not value > 0:
            raise self.fail(field, f"must be > 0, got {value}")
        return value

    def boolean(self, field: Path_) -> bool:
        value = self.value(field)
        if not isinstance(value, bool):
            raise self.fail(field, f"expected true or false, got {type(value).__name__}")
        return value

    def choice_list(self, field: Path_, accepted: tuple[Any, ...]) -> tuple[Any, ...]:
        """An array of distinct values, each one of ``accepted`` (strings or integers)."""
        value = self.value(field)
        if not isinstance(value, list):
            raise self.fail(field, f"expected an array, got {type(value).__name__}")
        shown = ", ".join(str(item) for item in accepted)
        for item in value:
            if isinstance(item, bool) or item not in accepted:
                raise self.fail(field, f"invalid value {item!r}; accepted: {shown}")
        if len(set(value)) != len(value):
            raise self.fail(field, "values must not repeat")
        return tuple(value)

    def table_list(self, field: Path_) -> int:
        value = self.value(field)
        if not isinstance(value, list) or not all(isinstance(item, dict) for item in value):
            raise self.fail(field, "expected an array of tables")
        return len(value)

    def citation(self, field: Path_) -> Citation:
        return Citation(
            source=self.string((*field, "source")),
            confidence=self.choice((*field, "confidence"), CONFIDENCES),  # type: ignore[arg-type]
        )

    def note(self, field: Path_) -> str:
        return self.string((*field, "note"), allow_empty=True) if self.has((*field, "note")) else ""


def _parse(path: Path) -> Board:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise BoardDataError(path, None, None, f"cannot read board file ({exc.strerror})") from exc
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        line = getattr(exc, "lineno", None)
        match = re.search(r"line (\d+)", str(exc))
        if line is None and match:
            line = int(match.group(1))
        all_lines = text.splitlines()
        source_line = all_lines[line - 1].strip() if line and line <= len(all_lines) else ""
        raise BoardDataError(path, line, None, f"not valid TOML ({exc})", source_line) from exc
    r = _Reader(path, text, data)

    name = r.string(("name",))
    if name != path.stem:
        raise r.fail(("name",), f"must equal the file name stem {path.stem!r}")
    if name != name.lower():
        raise r.fail(("name",), "must be lower-case")

    max_clock_mhz = r.number(("max_clock", "mhz"))
    flash = _flash(r, max_clock_mhz)
    clock_count = r.table_list(("published_clocks",))
    published = tuple(_published_clock(r, i, max_clock_mhz) for i in range(clock_count))
    if not published:
        raise r.fail(("published_clocks",), "at least one published clock is required")

    accelerators = tuple(_cache(r, i) for i in range(r.table_list(("accelerators",))))
    sram = tuple(_sram(r, i) for i in range(r.table_list(("sram",))))
    if not sram:
        raise r.fail(("sram",), "at least one SRAM region is required")
    _check_no_overlap(r, sram)

    crypto = _crypto(r)

    notes_value = r.value(("notes",))
    notes_ok = isinstance(notes_value, list) and all(
        isinstance(note, str) and note.strip() for note in notes_value
    )
    if not notes_ok:
        raise r.fail(("notes",), "expected an array of non-empty strings")

    return Board(
        name=name,
        board=r.string(("board",)),
        part=r.string(("part",)),
        core=r.choice(("core",), CORES),  # type: ignore[arg-type]
        datasheet=r.string(("datasheet",)),
        reference_manual=r.string(("reference_manual",)),
        max_clock_mhz=max_clock_mhz,
        max_clock=r.citation(("max_clock",)),
        published_clocks=published,
        flash=flash,
        prefetch=Prefetch(
            present=r.boolean(("prefetch", "present")),
            enabled_at_reset=r.boolean(("prefetch", "enabled_at_reset")),
            citation=r.citation(("prefetch",)),
            note=r.note(("prefetch",)),
        ),
        accelerators=accelerators,
        sram=sram,
        crypto_hw=crypto,
        notes=tuple(notes_value),
        path=path,
    )


def _flash(r: _Reader, max_clock_mhz: float) -> Flash:
    rows: list[FlashLatency] = []
    count = r.table_list(("flash", "wait_states"))
    if count == 0:
        raise r.fail(("flash", "wait_states"), "the latency table must have at least one row")
    for i in range(count):
        row = FlashLatency(
            max_mhz=r.number(("flash", "wait_states", i, "max_mhz")),
            wait_states=r.integer(("flash", "wait_states", i, "wait_states")),
        )
        if rows and row.max_mhz <= rows[-1].max_mhz:
            raise r.fail(("flash", "wait_states", i, "max_mhz"), "rows must increase in max_mhz")
        if rows and row.wait_states < rows[-1].wait_states:
            raise r.fail(
                ("flash", "wait_states", i, "wait_states"),
                "wait states must not decrease with clock",
            )
        rows.append(row)
    divider = r.integer(("flash", "hclk_divider"), minimum=1)
    if rows[-1].max_mhz * divider < max_clock_mhz:
        raise r.fail(
            ("flash", "wait_states", count - 1, "max_mhz"),
            f"the table ends at {rows[-1].max_mhz:g} MHz flash clock (x{divider}), "
            f"below the part maximum {max_clock_mhz:g} MHz",
        )
    line_bits = r.integer(("flash", "line_bits"), minimum=8)
    if line_bits % 8:
        raise r.fail(("flash", "line_bits"), f"must be a whole number of bytes, got {line_bits}")
    return Flash(
        base=r.integer(("flash", "base")),
        size_kib=r.integer(("flash", "size_kib"), minimum=1),
        line_bits=line_bits,
        clock=r.choice(("flash", "clock"), FLASH_CLOCKS),
        hclk_divider=divider,
        voltage_range=r.string(("flash", "voltage_range")),
        latency=tuple(rows),
        citation=r.citation(("flash",)),
        note=r.note(("flash",)),
    )


def _published_clock(r: _Reader, i: int, max_clock_mhz: float) -> PublishedClock:
    field: Path_ = ("published_clocks", i)
    mhz = r.number((*field, "mhz"))
    finding = r.string((*field, "finding"), allow_empty=True) if r.has((*field, "finding")) else ""
    if mhz > max_clock_mhz and not finding.strip():
        raise r.fail(
            (*field, "mhz"),
            f"{mhz:g} MHz is above the part maximum {max_clock_mhz:g} MHz; "
            "record it with a 'finding'",
        )
    reported_field = (*field, "reported_wait_states")
    reported = r.integer(reported_field) if r.has(reported_field) else None
    return PublishedClock(
        mhz=mhz,
        source=r.string((*field, "source")),
        seed=r.string((*field, "seed"), allow_empty=True),
        reported_wait_states=reported,
        finding=finding,
    )


def _cache(r: _Reader, i: int) -> Cache:
    field: Path_ = ("accelerators", i)
    size_bytes = r.integer((*field, "size_bytes"))
    if size_bytes == 0 and not r.note(field).strip():
        raise r.fail((*field, "size_bytes"), "0 (size unknown) needs a 'note' saying why")
    lines = r.integer((*field, "lines"))
    line_bits = r.integer((*field, "line_bits"))
    ways = r.integer((*field, "ways"))
    if size_bytes and lines and line_bits and size_bytes * 8 != lines * line_bits:
        raise r.fail(
            (*field, "size_bytes"),
            f"{size_bytes} bytes does not equal {lines} lines x {line_bits} bits",
        )
    if ways and lines and lines % ways:
        raise r.fail((*field, "ways"), f"{lines} lines cannot be split into {ways} ways")
    return Cache(
        name=r.string((*field, "name")),
        kind=r.choice((*field, "kind"), CACHE_KINDS),
        size_bytes=size_bytes,
        lines=lines,
        line_bits=line_bits,
        ways=ways,
        enabled_at_reset=r.boolean((*field, "enabled_at_reset")),
        citation=r.citation(field),
        note=r.note(field),
    )


def _sram(r: _Reader, i: int) -> SramRegion:
    field: Path_ = ("sram", i)
    return SramRegion(
        name=r.string((*field, "name")),
        base=r.integer((*field, "base")),
        size_kib=r.integer((*field, "size_kib"), minimum=1),
        bus=r.string((*field, "bus")),
        wait_states=r.integer((*field, "wait_states")),
        citation=r.citation(field),
        note=r.note(field),
    )


def _check_no_overlap(r: _Reader, regions: tuple[SramRegion, ...]) -> None:
    ordered = sorted(enumerate(regions), key=lambda item: item[1].base)
    for (_, low), (index, high) in itertools.pairwise(ordered):
        if high.base < low.end:
            raise r.fail(("sram", index, "base"), f"region {high.name} overlaps {low.name}")


def _crypto(r: _Reader) -> tuple[CryptoBlock, ...]:
    table = r.value(("crypto_hw",))
    if not isinstance(table, dict):
        raise r.fail(("crypto_hw",), "expected a table of peripherals")
    for required in CRYPTO_BLOCKS:
        if required not in table:
            raise r.fail(
                ("crypto_hw", required),
                "missing field (every board states every crypto peripheral)",
            )
    names = list(CRYPTO_BLOCKS) + sorted(key for key in table if key not in CRYPTO_BLOCKS)
    blocks = []
    for name in names:
        present = r.boolean(("crypto_hw", name, "present"))
        blocks.append(
            CryptoBlock(
                name=name,
                present=present,
                detail=r.string(("crypto_hw", name, "detail"), allow_empty=True),
                citation=r.citation(("crypto_hw", name)),
                provides=(provides := _provides(r, name, present)),
                timing=_timing(r, name, provides),
            )
        )
    return tuple(blocks)


def _timing(r: _Reader, name: str, provides: CryptoCapability | None) -> PeripheralTiming | None:
    """``[crypto_hw.<name>.timing]``: optional, only for a present block, rows of what it provides."""
    field: Path_ = ("crypto_hw", name, "timing")
    if not r.has(field):
        return None
    if provides is None:
        raise r.fail(field, "an absent peripheral has no processing times; remove this table")
    table = r.value(field)
    if not isinstance(table, dict):
        raise r.fail(field, "expected a table")
    for key in table:
        if key not in _TIMING_KEYS:
            raise r.fail((*field, key), f"unknown field; accepted: {', '.join(sorted(_TIMING_KEYS))}")
    count = r.table_list((*field, "rows"))
    if not count:
        raise r.fail((*field, "rows"), "at least one documented processing time is required")
    return PeripheralTiming(
        clock=r.choice((*field, "clock"), TIMING_CLOCKS),
        clock_max_mhz=r.number((*field, "clock_max_mhz")),
        clock_at_most_core=r.boolean((*field, "clock_at_most_core")),
        clock_citation=Citation(
            source=r.string((*field, "clock_source")),
            confidence=r.choice((*field, "clock_confidence"), CONFIDENCES),  # type: ignore[arg-type]
        ),
        rows=tuple(_timing_row(r, (*field, "rows", i), provides) for i in range(count)),
        citation=r.citation(field),
        note=r.note(field),
    )


def _timing_row(r: _Reader, field: Path_, provides: CryptoCapability) -> TimingRow:
    for key in r.value(field):
        if key not in _ROW_KEYS:
            raise r.fail((*field, key), f"unknown field; accepted: {', '.join(sorted(_ROW_KEYS))}")
    function = r.choice((*field, "function"), provides.functions)
    operation = r.choice((*field, "operation"), TIMING_OPERATIONS[function])
    key_bits = r.integer((*field, "key_bits"))
    if function == "AES" and key_bits not in provides.aes_key_bits:
        shown = ", ".join(str(bits) for bits in provides.aes_key_bits)
        raise r.fail((*field, "key_bits"), f"invalid value {key_bits}; this block's AES key sizes: {shown}")
    if function == "HASH" and operation not in provides.hash_algorithms:
        raise r.fail(
            (*field, "operation"),
            f"invalid value {operation!r}; this block's digests: {', '.join(provides.hash_algorithms)}",
        )
    if function == "PKA" and key_bits < 1:
        raise r.fail((*field, "key_bits"), "a PKA row states its modulus size in bits")
    if function in ("DES", "HASH", "RNG") and key_bits:
        raise r.fail((*field, "key_bits"), f"must be 0 for {function} (no key or modulus size applies)")
    phase = r.choice((*field, "phase"), TIMING_PHASES)
    size = r.integer((*field, "bytes"))
    if phase == "block" and size < 1:
        raise r.fail((*field, "bytes"), "a 'block' row states the bytes of its data block")
    if phase != "block" and size:
        raise r.fail((*field, "bytes"), f"must be 0 for phase {phase!r} (only 'block' rows count bytes)")
    if (function == "PKA") != (phase == "op"):
        raise r.fail((*field, "phase"), "PKA rows and only PKA rows use phase 'op'")
    variant = ""
    if r.has((*field, "variant")):
        if not operation.startswith("modexp"):
            raise r.fail((*field, "variant"), "only for modexp rows")
        variant = r.choice((*field, "variant"), PKA_VARIANTS)
    elif operation.startswith("modexp"):
        raise r.fail((*field, "variant"), f"missing field (a modexp row names its mode: {', '.join(PKA_VARIANTS)})")
    return TimingRow(
        function=function,
        operation=operation,
        key_bits=key_bits,
        phase=phase,
        bytes=size,
        cycles=r.number((*field, "cycles")),
        kind=r.choice((*field, "kind"), TIMING_KINDS),
        variant=variant,
        ref=r.string((*field, "ref")),
    )


def _provides(r: _Reader, name: str, present: bool) -> CryptoCapability | None:
    """``[crypto_hw.<name>.provides]``: required for a present block, forbidden otherwise."""
    field: Path_ = ("crypto_hw", name, "provides")
    if not present:
        if r.has(field):
            raise r.fail(field, "an absent peripheral provides nothing; remove this table")
        return None
    if not r.has(field):
        raise r.fail(field, "missing field (a present peripheral states what it provides)")
    if not isinstance(r.value(field), dict):
        raise r.fail(field, "expected a table")
    functions = r.choice_list((*field, "functions"), CRYPTO_FUNCTIONS)
    return CryptoCapability(
        functions=functions,
        aes_key_bits=_capability_list(r, field, "aes_key_bits", "AES", functions, AES_KEY_BITS),
        hash_algorithms=_capability_list(
            r, field, "hash_algorithms", "HASH", functions, HASH_ALGORITHMS
        ),
        citation=r.citation(field),
    )


def _capability_list(
    r: _Reader,
    field: Path_,
    key: str,
    function: str,
    functions: tuple[str, ...],
    accepted: tuple[Any, ...],
) -> tuple[Any, ...]:
    """``key`` is stated (non-empty) exactly when the block provides ``function``."""
    if function not in functions:
        if r.has((*field, key)):
            raise r.fail((*field, key), f"only for a block whose functions include {function}")
        return ()
    values = r.choice_list((*field, key), accepted)
    if not values:
        raise r.fail((*field, key), f"a block providing {function} must name at least one")
    return values


# --------------------------------------------------------------------------------------------
# Finding the line of a field by scanning the text


_HEADER = re.compile(r"^\s*(\[\[?)\s*([A-Za-z0-9_.\-\"]+?)\s*(\]\]?)\s*(#.*)?$")


def _dotted(field: Path_) -> str:
    out = ""
    for key in field:
        out += f"[{key}]" if isinstance(key, int) else (f".{key}" if out else key)
    return out


def _key_line(lines: list[str], start: int, end: int, key: str, occurrence: int = 0) -> int | None:
    """1-based line of the ``occurrence``-th ``key =`` (or ``key=`` inside an inline table)."""
    pattern = re.compile(rf"(^|[{{,\s]){re.escape(key)}\s*=")
    seen = 0
    for index in range(start, end):
        if pattern.search(lines[index].split("#", 1)[0]):
            if seen == occurrence:
                return index + 1
            seen += 1
    return None


def _locate(lines: list[str], field: Path_) -> int:
    """Best line for ``field``: the key's own line, else its table header, else line 1."""
    if not field:
        return 1
    headers: list[tuple[int, str, bool]] = []  # (0-based index, dotted name, is array item)
    for index, line in enumerate(lines):
        match = _HEADER.match(line)
        if match and match.group(1) in ("[", "[["):
            headers.append((index, match.group(2).replace('"', ""), match.group(1) == "[["))

    def section_end(header_pos: int) -> int:
        return headers[header_pos + 1][0] if header_pos + 1 < len(headers) else len(lines)

    # Top-level keys live before the first header.
    first_header = headers[0][0] if headers else len(lines)
    top_level = isinstance(field[0], str) and all(h[1].split(".")[0] != field[0] for h in headers)
    if top_level:
        found = _key_line(lines, 0, first_header, field[0])
        if found is None:
            return 1
        return _inline_item_line(lines, found, first_header, field[1:]) or found

    # Longest header prefix matching the field.
    best: tuple[int, int] | None = None  # (header position, number of path elements consumed)
    for length in range(len(field), 0, -1):
        prefix = field[:length]
        if isinstance(prefix[-1], int):
            name = ".".join(str(k) for k in prefix[:-1])
            wanted = prefix[-1]
            positions = [pos for pos, h in enumerate(headers) if h[1] == name and h[2]]
            if wanted < len(positions):
                best = (positions[wanted], length)
                break
        elif all(isinstance(k, str) for k in prefix):
            name = ".".join(str(k) for k in prefix)
            positions = [pos for pos, h in enumerate(headers) if h[1] == name and not h[2]]
            if positions:
                best = (positions[0], length)
                break
    if best is None:
        # e.g. a whole [crypto_hw.SAES] table missing: point at the first table of that group.
        for index, name, _ in headers:
            if isinstance(field[0], str) and name.split(".")[0] == field[0]:
                return index + 1
        return 1
    position, consumed = best
    start, end = headers[position][0], section_end(position)
    rest = field[consumed:]
    if not rest:
        return start + 1
    if not isinstance(rest[0], str):
        return start + 1
    found = _key_line(lines, start + 1, end, rest[0])
    if found is None:
        return start + 1
    return _inline_item_line(lines, found, end, rest[1:]) or found


def _inline_item_line(lines: list[str], key_line: int, end: int, rest: Path_) -> int | None:
    """For ``key = [ {a = 1}, {a = 2}, ... ]`` written one item per line, the item's line."""
    if len(rest) >= 1 and isinstance(rest[0], int):
        item_key = rest[1] if len(rest) >= 2 and isinstance(rest[1], str) else None
        index = rest[0]
        seen = 0
        for line_index in range(key_line - 1, end):
            body = lines[line_index].split("#", 1)[0]
            if "{" in body:
                if seen == index:
                    if item_key is None:
                        return line_index + 1
                    return _key_line(lines, line_index, line_index + 1, item_key) or line_index + 1
                seen += 1
    return None
