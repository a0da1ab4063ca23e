"""Published figures as typed records, loaded from ``figures.json`` with a schema check.

A schema error raises :class:`cortexm_emu.datafile.DataFileError` naming the file, the line
(of the record, or of the bad field in a record written over several lines), the field and the
bad text. ``figures.json`` keeps one figure per line, but any JSON layout of it loads alike.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cortexm_emu.boards import find_board
from cortexm_emu.datafile import DataFileError, error_at, read_toml
from refbench.parts import PartProfile, load_part_profile

PACKAGE_DIR = Path(__file__).resolve().parent
FIGURES_PATH = PACKAGE_DIR / "figures.json"
SOURCES_PATH = PACKAGE_DIR / "sources.toml"
SEEDS_DIR = PACKAGE_DIR / "seeds"

SOURCE_FILES = (
    "000_950e0926bdf8c114.txt",
    "001_9657ad2345ba06fe.txt",
    "002_5291703a875d4f7f.txt",
    "003_370dc4a6b790accc.txt",
    "004_ce9b801e91a00a6b.txt",
)

#: metric -> the original units it may carry
METRIC_UNITS: dict[str, frozenset[str]] = {
    "throughput": frozenset({"KB/s", "MB/s", "KiB/s", "MiB/s", "Kbytes/s", "kB/s", "mB/s", "GB/s", "GiB/s"}),
    "time_per_op": frozenset({"ms", "µs"}),
    "ops_per_s": frozenset({"ops/s"}),  # Mbed TLS public-key lines ('12 private/s'), user tables
    "cycles": frozenset({"cycles"}),
    "code_bytes": frozenset({"bytes"}),
    "constant_bytes": frozenset({"bytes"}),
    "global_bytes": frozenset({"bytes"}),
    "stack_bytes": frozenset({"bytes"}),
    "working_buffer_bytes": frozenset({"bytes"}),
}
AUX_UNITS: dict[str, frozenset[str]] = {
    "amount": frozenset({"KB", "MB", "KiB", "MiB"}),
    "duration": frozenset({"s"}),
    "ops": frozenset({"ops"}),
    "ops_per_s": frozenset({"ops/s"}),
    "time": frozenset({"µs", "ms"}),
    "throughput": frozenset({"Kbytes/s"}),
    "cycles_per_byte": frozenset({"cycles/byte"}),  # wolfCrypt's own 'Cycles per byte = N' (refbench.inputs)
    "timer_resolution": frozenset({"s"}),  # the timer step a log's durations show (refbench.inputs.resolution)
}
FOOTPRINT_METRICS = frozenset(m for m in METRIC_UNITS if m.endswith("_bytes"))
IMPLEMENTATIONS = frozenset({"software", "hardware"})
PERIPHERALS = frozenset({"AES", "DES", "HASH", "PKA", "RNG"})


@dataclass(frozen=True)
class Aux:
    """A number printed in the same row that supports the figure (amount, seconds, ops...)."""

    metric: str
    value: float
    unit: str
    text: str


@dataclass(frozen=True)
class Figure:
    """One published number with its provenance, context and original unit."""

    id: str
    source: str
    section: str
    row: str
    offset: int
    label: str
    board: str | None
    part: str
    core: str
    clock_mhz: float
    library: str
    version: str
    compiler: str
    options: str
    config: str
    hw: tuple[str, ...]
    implementation: str
    math: str | None
    asm: str | None
    cache: str | None
    notes: str | None
    variant: str | None
    algorithm: str
    mode: str | None
    operation: str
    key_bits: int | None
    curve: str | None
    message_bytes: int | None
    chunk_bytes: int | None
    block_bytes: int | None
    metric: str
    value: float
    unit: str
    text: str
    aux: tuple[Aux, ...] = field(default_factory=tuple)
    line: int = 0

    def aux_value(self, metric: str) -> Aux | None:
        return next((a for a in self.aux if a.metric == metric), None)

    @property
    def is_footprint(self) -> bool:
        return self.metric in FOOTPRINT_METRICS

    def describe(self) -> str:
        """Short human label: board, library, algorithm, operation and variant."""
        parts = [self.part, f"{self.library} {self.version}", self.algorithm, self.operation]
        if self.implementation == "hardware":
            parts.append("HW")
        if self.variant:
            parts.append(self.variant)
        if self.message_bytes:
            parts.append(f"{self.message_bytes} B")
        if self.chunk_bytes:
            parts.append(f"chunk {self.chunk_bytes} B")
        return " / ".join(parts)


_STR = (str,)
_OPT_STR = (str, type(None))
_INT = (int,)
_OPT_INT = (int, type(None))
_NUM = (int, float)

FIELD_TYPES: dict[str, tuple[type, ...]] = {
    "id": _STR, "source": _STR, "section": _STR, "row": _STR, "offset": _INT, "label": _STR,
    "board": _OPT_STR, "part": _STR, "core": _STR, "clock_mhz": _NUM, "library": _STR,
    "version": _STR, "compiler": _STR, "options": _STR, "config": _STR, "hw": (list,),
    "implementation": _STR, "math": _OPT_STR, "asm": _OPT_STR, "cache": _OPT_STR,
    "notes": _OPT_STR, "variant": _OPT_STR, "algorithm": _STR, "mode": _OPT_STR,
    "operation": _STR, "key_bits": _OPT_INT, "curve": _OPT_STR, "message_bytes": _OPT_INT,
    "chunk_bytes": _OPT_INT, "block_bytes": _OPT_INT, "metric": _STR, "value": _NUM,
    "unit": _STR, "text": _STR, "aux": (list,),
}


def _number_text_value(text: str) -> float | None:
    try:
        return float(text.replace(" ", ""))
    except ValueError:
        return None


def _check_number(path: Path, line: int, name: str, value: Any, text: Any) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
        raise DataFileError(str(path), line, name, "must be a finite number >= 0", repr(value))
    if not isinstance(text, str) or _number_text_value(text) != float(value):
        raise DataFileError(str(path), line, name, f"value {value!r} does not equal its printed text", repr(text))


def figure_from_record(record: Any, path: Path, line: int) -> Figure:
    """Check one JSON record against the schema and build a :class:`Figure`."""
    if not isinstance(record, dict):
        raise DataFileError(str(path), line, None, "a figure must be a JSON object", repr(record)[:80])
    missing = [k for k in FIELD_TYPES if k not in record]
    if missing:
        raise DataFileError(str(path), line, missing[0], "missing field")
    extra = [k for k in record if k not in FIELD_TYPES]
    if extra:
        raise DataFileError(str(path), line, extra[0], "unknown field")
    for name, types in FIELD_TYPES.items():
        value = record[name]
        if isinstance(value, bool) or not isinstance(value, types):
            accepted = " or ".join("null" if t is type(None) else t.__name__ for t in types)
            raise DataFileError(str(path), line, name, f"must be {accepted}", repr(value))
    if record["source"] not in SOURCE_FILES:
        raise DataFileError(str(path), line, "source", f"unknown source; accepted: {', '.join(SOURCE_FILES)}",
                            record["source"])
    if record["metric"] not in METRIC_UNITS:
        raise DataFileError(str(path), line, "metric", f"unknown metric; accepted: {', '.join(METRIC_UNITS)}",
                            record["metric"])
    if record["unit"] not in METRIC_UNITS[record["metric"]]:
        accepted = ", ".join(sorted(METRIC_UNITS[record["metric"]]))
        raise DataFileError(str(path), line, "unit", f"not a unit of {record['metric']}; accepted: {accepted}",
                            record["unit"])
    if record["implementation"] not in IMPLEMENTATIONS:
        raise DataFileError(str(path), line, "implementation", "accepted: software, hardware",
                            record["implementation"])
    if record["clock_mhz"] <= 0:
        raise DataFileError(str(path), line, "clock_mhz", "must be > 0", repr(record["clock_mhz"]))
    for peripheral in record["hw"]:
        if peripheral not in PERIPHERALS:
            raise DataFileError(str(path), line, "hw", f"unknown peripheral; accepted: {', '.join(sorted(PERIPHERALS))}",
                                repr(peripheral))
    if record["text"] not in record["row"]:
        raise DataFileError(str(path), line, "text", "printed number does not occur in the row text", record["text"])
    _check_number(path, line, "value", record["value"], record["text"])
    aux_items = []
    for k, item in enumerate(record["aux"]):
        name = f"aux[{k}]"
        if not isinstance(item, dict) or set(item) != {"metric", "value", "unit", "text"}:
            raise DataFileError(str(path), line, name, "must be an object with metric, value, unit, text", repr(item))
        if item["metric"] not in AUX_UNITS:
            raise DataFileError(str(path), line, f"{name}.metric", f"accepted: {', '.join(AUX_UNITS)}", repr(item["metric"]))
        if item["unit"] not in AUX_UNITS[item["metric"]]:
            raise DataFileError(str(path), line, f"{name}.unit", f"not a unit of {item['metric']}", repr(item["unit"]))
        _check_number(path, line, f"{name}.value", item["value"], item["text"])
        aux_items.append(Aux(item["metric"], float(item["value"]), item["unit"], item["text"]))
    values = dict(record)
    values["hw"] = tuple(record["hw"])
    values["aux"] = tuple(aux_items)
    values["value"] = float(record["value"])
    values["clock_mhz"] = float(record["clock_mhz"])
    return Figure(line=line, **values)


def load_figures(path: Path | str = FIGURES_PATH) -> tuple[Figure, ...]:
    """Load and schema-check every figure of ``figures.json``: a JSON object whose ``figures`` is a
    list of figure records. Any JSON layout is read (keys in any order, any whitespace, a record over
    several lines); an error names the line the record (or its bad field) is on."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise DataFileError(str(path), None, None, f"cannot be read: {exc}") from None
    try:
        document = json.loads(text)
    except json.JSONDecodeError as exc:
        raise DataFileError(str(path), exc.lineno, None, f"not valid JSON: {exc.msg}") from None
    if not isinstance(document, dict) or not isinstance(document.get("figures"), list):
        raise DataFileError(str(path), 1, "figures", "must be a JSON object whose 'figures' is a list of records")
    figures: list[Figure] = []
    seen: dict[str, int] = {}
    for (start, end), record in zip(_figure_spans(text), document["figures"], strict=True):
        number = text.count("\n", 0, start) + 1
        try:
            figure = figure_from_record(record, path, number)
        except DataFileError as exc:
            raise DataFileError(str(path), _field_line(text, start, end, exc.field) or number, exc.field,
                                exc.problem, exc.text) from None
        if figure.id in seen:
            raise DataFileError(str(path), _field_line(text, start, end, "id") or number, "id",
                                f"duplicate id (first on line {seen[figure.id]})", figure.id)
        seen[figure.id] = number
        figures.append(figure)
    if not figures:
        raise DataFileError(str(path), None, "figures", "no figure records found")
    return tuple(figures)


_WHITESPACE = re.compile(r"[ \t\n\r]*")


def _figure_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) offsets in ``text`` (valid JSON, a top-level object) of each element of its
    ``figures`` list, found by walking the document with the standard decoder."""
    decoder = json.JSONDecoder()

    def skip(i: int) -> int:
        return _WHITESPACE.match(text, i).end()  # type: ignore[union-attr]

    i = skip(0) + 1  # past "{"
    spans: list[tuple[int, int]] = []
    while True:
        i = skip(i)
        if text[i] == "}":
            return spans
        key, i = decoder.raw_decode(text, i)
        i = skip(skip(i) + 1)  # past ":"
        if key == "figures":
            i = skip(i + 1)  # past "["
            while text[i] != "]":
                _, end = decoder.raw_decode(text, i)
                spans.append((i, end))
                i = skip(end)
                i = skip(i + 1) if text[i] == "," else i
            i += 1  # past "]"
        else:
            _, i = decoder.raw_decode(text, i)
        i = skip(i)
        if text[i] == ",":
            i += 1


def _field_line(text: str, start: int, end: int, field: str | None) -> int | None:
    """The line of ``field``'s key (``aux[1].value``: ``"aux"``) inside the record at
    ``text[start:end]``, when the record spans several lines; else None."""
    if not field or "\n" not in text[start:end]:
        return None
    key = re.match(r"[A-Za-z_0-9]+", field)
    found = re.compile(rf'"{re.escape(key.group(0))}"\s*:').search(text, start, end) if key else None
    return text.count("\n", 0, found.start()) + 1 if found else None


@dataclass(frozen=True)
class UnitRule:
    source: str
    versions: tuple[str, ...]
    bytes: dict[str, int]
    status: str
    reason: str


@dataclass(frozen=True)
class Source:
    file: str
    sha256: str
    title: str
    library: str
    how: str
    units: tuple[UnitRule, ...]


def load_sources(path: Path | str = SOURCES_PATH) -> dict[str, Source]:
    path = Path(path)
    _, data = read_toml(path, kind="sources file")
    units: list[UnitRule] = []
    for k, entry in enumerate(data.get("unit", [])):
        for key in ("source", "bytes", "status", "reason"):
            if key not in entry:
                raise error_at(path, f"unit[{k}].{key}", "missing field")
        if entry["source"] not in SOURCE_FILES:
            raise error_at(path, f"unit[{k}].source", "unknown source", entry["source"])
        if entry["status"] not in ("verified", "assumed"):
            raise error_at(path, f"unit[{k}].status", "accepted: verified, assumed", entry["status"])
        units.append(UnitRule(entry["source"], tuple(entry.get("versions", ())), dict(entry["bytes"]),
                              entry["status"], entry["reason"]))
    sources = {}
    for k, entry in enumerate(data.get("source", [])):
        for key in ("file", "sha256", "title", "library", "how"):
            if key not in entry:
                raise error_at(path, f"source[{k}].{key}", "missing field")
        sources[entry["file"]] = Source(entry["file"], entry["sha256"], entry["title"], entry["library"], entry["how"],
                                        tuple(u for u in units if u.source == entry["file"]))
    missing = [f for f in SOURCE_FILES if f not in sources]
    if missing:
        raise error_at(path, "source", "source not described", missing[0])
    return sources


#: board-profile core names (cortexm_emu.boards.CORES) as the figures write them
CORE_NAMES: dict[str, str] = {"m0plus": "Cortex-M0+", "m4": "Cortex-M4", "m7": "Cortex-M7", "m33": "Cortex-M33"}


@dataclass(frozen=True)
class Part:
    """The facts the board rules need about the part a figure names.

    Derived from the part's board profile in ``cortexm_emu/boards/`` (core, maximum clock,
    datasheet) and its part file in ``refbench/parts/`` (crypto peripherals), the single sources
    of these facts, each value cited there; ``board`` names both files. ``crypto`` is the set of
    functions (``PERIPHERALS``) some present crypto peripheral provides, ``aes_key_bits`` the
    key sizes some AES engine accepts, ``hash_algorithms`` the digests the HASH peripheral
    computes.
    """

    name: str
    board: str
    core: str
    max_clock_mhz: float
    crypto: frozenset[str]
    aes_key_bits: frozenset[int]
    hash_algorithms: frozenset[str]
    datasheet: str
    max_clock_confidence: str

    @property
    def profile(self) -> str:
        """Path of the board profile, relative to the repository root."""
        return f"cortexm_emu/boards/{self.board}.toml"

    @property
    def parts_file(self) -> str:
        """Path of the part file (crypto peripherals), relative to the repository root."""
        return f"refbench/parts/{self.board}.toml"

    def cite(self, table: str) -> str:
        """Short citation of a fact: ``table`` is ``max_clock`` (board profile) or ``crypto_hw``
        (part file)."""
        if table == "max_clock":
            return f"{self.datasheet}; {self.profile} [max_clock], {self.max_clock_confidence}"
        if table == "crypto_hw":
            return f"{self.datasheet}; {self.parts_file} [crypto_hw]"
        raise ValueError(f"Invalid table ({table!r}) for a part citation; accepted: max_clock, crypto_hw")


def _datasheet_id(datasheet: str) -> str:
    """``"DS13293 = ST literature ..."`` -> ``"DS13293"``; without a DS number, the text before
    the first parenthesis (``"ST literature DM00532745"``)."""
    match = re.search(r"\bDS\d{4,5}\b", datasheet)
    return match.group(0) if match else datasheet.split(" (")[0].strip()


def part_from_profile(name: str, profile: PartProfile) -> Part:
    """The rules' view of ``profile`` (and its board) for figures that name the part ``name``."""
    unknown = profile.crypto_functions() - PERIPHERALS
    if unknown:
        raise ValueError(f"Invalid crypto function ({min(unknown)!r}) in part file {profile.name}; "
                         f"accepted: {', '.join(sorted(PERIPHERALS))}")
    board = profile.board
    return Part(name=name, board=board.name, core=CORE_NAMES[board.core], max_clock_mhz=float(board.max_clock_mhz),
                crypto=profile.crypto_functions(), aes_key_bits=profile.aes_key_bits(),
                hash_algorithms=profile.hash_algorithms(), datasheet=_datasheet_id(board.datasheet),
                max_clock_confidence=board.max_clock.confidence)


def load_parts(part_names: Iterable[str] | None = None) -> dict[str, Part]:
    """Part facts for every part string the figures use (default) or for ``part_names``.

    Each part string is mapped to its board profile with ``cortexm_emu.boards.find_board``
    (a unique part-number prefix, e.g. ``"STM32WL55"`` -> ``stm32wl55jc``), and through its
    name to the part file of :mod:`refbench.parts`. A figure part with
    no unique board raises :class:`DataFileError` naming the first figure line that uses it;
    an explicit name with no unique board raises ``ValueError``.
    """
    if part_names is not None:
        return {name: part_from_profile(name, load_part_profile(find_board(name).name)) for name in part_names}
    first_line: dict[str, int] = {}
    for figure in load_figures():
        first_line.setdefault(figure.part, figure.line)
    parts = {}
    for name, line in first_line.items():
        try:
            board = find_board(name)
        except ValueError as exc:
            raise DataFileError(str(FIGURES_PATH), line, "part", f"no board profile for this part ({exc})",
                                name) from None
        parts[name] = part_from_profile(name, load_part_profile(board.name))
    return parts
