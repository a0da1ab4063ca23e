"""Read a table of figures a user wrote: CSV (``template.csv``) or JSON, one schema.

The schema is :data:`COLUMNS` (documented in ``README.md`` next to this file). CSV: the first
line that is not blank and not a ``#`` comment is the header; every later such line is one
figure (a quoted cell may hold commas; a cell may not span lines). JSON: a list of objects,
or ``{"figures": [...]}``, with the same keys; each figure's line is where its object opens.

A row that breaks the schema is reported (``file:line``, its text, why) and skipped; a header
with an unknown or missing column raises :class:`refbench.errors.DataFileError`.
"""

from __future__ import annotations

import csv
import dataclasses
import json
import math
import re
from functools import lru_cache
from typing import Any

from cortexm_emu.datafile import DataFileError
from refbench.inputs.assumptions import Assumptions, Placement
from refbench.inputs.records import Line, Problem, build_figure
from refbench.published.library_units import input_unit_bytes
from refbench.published.model import Figure, load_figures
from refbench.published.transcribe import wolfssl_classify

#: column -> (required, meaning)
COLUMNS: dict[str, tuple[bool, str]] = {
    "algorithm": (True, "refbench name (AES-128-CBC, SHA-256, ECDSA-P256, RSA-2048, ...) or a wolfCrypt "
                        "benchmark row name (AES-128-CBC-enc, RSA 2048 private)"),
    "operation": (False, "encrypt, decrypt, hash, mac, generate, sign, verify, keygen, agree, public, private, "
                         "finalize, keygen+agree; may be empty for a wolfCrypt row name"),
    "size_bytes": (False, "bytes per operation (message size), if the figure is per message"),
    "value": (True, "the number as published"),
    "unit": (True, "KiB/s, MiB/s (1024-based), KB/s, MB/s (1000-based unless the library's own rules in "
                   "library_units.toml say otherwise), ms, us or µs per operation, cycles per operation, ops/s"),
    "board": (False, "board profile or part (stm32h753zi, STM32H753ZI, NUCLEO-H753ZI); empty: core and clock"),
    "core": (False, "m0plus, m4, m7, m33 (or Cortex-M4...); with clock_mhz when no board"),
    "clock_mhz": (False, "core clock in MHz"),
    "library": (False, "library name (wolfSSL, Mbed TLS, ...)"),
    "version": (False, "library version"),
    "compiler": (False, "compiler and version"),
    "options": (False, "optimisation level and options (-O2, -Os ...)"),
    "implementation": (False, "software or hardware; empty: hardware if a stated peripheral computes it"),
    "mode": (False, "mode or variant text (CBC, GCM, no AAD ...)"),
    "key_bits": (False, "key or modulus size in bits"),
    "curve": (False, "curve name (P-256, Curve25519 ...)"),
    "notes": (False, "free text kept with the figure"),
}
REQUIRED = tuple(name for name, (required, _) in COLUMNS.items() if required)
UNIT_METRICS: dict[str, tuple[str, str]] = {
    "KiB/s": ("throughput", "KiB/s"), "MiB/s": ("throughput", "MiB/s"), "KB/s": ("throughput", "KB/s"),
    "MB/s": ("throughput", "MB/s"), "ms": ("time_per_op", "ms"), "us": ("time_per_op", "µs"),
    "µs": ("time_per_op", "µs"), "cycles": ("cycles", "cycles"), "ops/s": ("ops_per_s", "ops/s"),
}
#: names the log readers produce besides those of the built-in pages
_READER_ALGORITHMS = frozenset({"DES-CBC", "CTR_DRBG", "HMAC_DRBG-SHA-1", "HMAC_DRBG-SHA-256", "AES-128-CMAC",
                                "AES-192-CMAC", "AES-256-CMAC", "AES-128-XTS", "AES-256-XTS"})
_READER_OPERATIONS = frozenset({"keygen+agree", "full handshake (both sides)"})


@lru_cache(maxsize=1)
def known_names() -> tuple[frozenset[str], frozenset[str]]:
    """Algorithm and operation names refbench knows: the built-in figures' and the readers'."""
    figures = load_figures()
    return (frozenset(f.algorithm for f in figures) | _READER_ALGORITHMS,
            frozenset(f.operation for f in figures) | _READER_OPERATIONS)


def read_csv(lines: list[Line], *, assumptions: Assumptions) -> tuple[list[Figure], list[Problem]]:
    rows = [line for line in lines if line.text.strip() and not line.text.lstrip().startswith("#")]
    if not rows:
        return [], []
    header_line, data = rows[0], rows[1:]
    header = [c.strip() for c in next(csv.reader([header_line.text]))]
    _check_columns(header_line, header)
    records = []
    for line in data:
        cells = next(csv.reader([line.text]))
        if len(cells) != len(header):
            records.append((line, f"{len(cells)} cells for {len(header)} columns"))
            continue
        records.append((line, dict(zip(header, (c.strip() for c in cells)))))
    return _read_records(records, assumptions)


def read_json(lines: list[Line], text: str, *, assumptions: Assumptions, name: str
              ) -> tuple[list[Figure], list[Problem]]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise DataFileError(name, exc.lineno, None, f"not valid JSON: {exc.msg}") from None
    except RecursionError:
        depth = max(text.count("["), text.count("{"))
        raise DataFileError(name, 1, None, f"JSON nested too deeply (up to {depth} levels) to be a table of "
                                           "figures: a list of objects whose values are strings or numbers") from None
    if isinstance(data, dict):
        if set(data) != {"figures"} or not isinstance(data["figures"], list):
            raise DataFileError(name, 1, None, 'expected a list of figures or {"figures": [...]}')
        start = re.search(r'"figures"\s*:\s*\[', text).end()
    elif isinstance(data, list):
        start = text.index("[") + 1
    else:
        raise DataFileError(name, 1, None, 'expected a list of figures or {"figures": [...]}')
    by_number = {line.number: line for line in lines}
    decoder, pos, records = json.JSONDecoder(), start, []
    number, counted = 1, 0  # the line of ``pos``, counted incrementally (the newlines before ``counted``)
    for _ in range(len(data if isinstance(data, list) else data["figures"])):
        while text[pos] in " \t\r\n,":
            pos += 1
        item, end = decoder.raw_decode(text, pos)
        number += text.count("\n", counted, pos)
        counted = pos
        line = dataclasses.replace(by_number[number], text=text[pos:end].replace("\n", " "))
        if isinstance(item, dict):
            header = list(item)
            _check_columns(line, header, required=False)
            nested = next((k for k, v in item.items() if isinstance(v, (dict, list))), None)
            if nested is not None:
                records.append((line, f"Invalid {nested} (a JSON {'object' if isinstance(item[nested], dict) else 'array'}); a value must be a "
                                      "string, a number or null"))
            else:
                records.append((line, {k: "" if v is None else (json.dumps(v) if isinstance(v, (int, float))
                                                                else str(v)) for k, v in item.items()}))
        else:
            records.append((line, "a figure must be a JSON object"))
        pos = end
    return _read_records(records, assumptions)


def _check_columns(line: Line, header: list[str], required: bool = True) -> None:
    unknown = [c for c in header if c not in COLUMNS]
    if unknown:
        raise DataFileError(line.file, line.number, unknown[0], f"unknown column; accepted: {', '.join(COLUMNS)}")
    missing = [c for c in REQUIRED if c not in header]
    if required and missing:
        raise DataFileError(line.file, line.number, missing[0], "missing required column")


def _read_records(records: list[tuple[Line, dict[str, str] | str]], assumptions: Assumptions
                  ) -> tuple[list[Figure], list[Problem]]:
    figures: list[Figure] = []
    problems: list[Problem] = []
    placements: dict[tuple, Placement] = {}
    for line, row in records:
        if isinstance(row, str):
            problems.append(line.problem(row))
            continue
        try:
            figures.append(_figure(line, row, assumptions, placements))
        except ValueError as exc:
            problems.append(line.problem(str(exc)))
    return figures, problems


def _cell(row: dict[str, str], name: str) -> str | None:
    value = row.get(name, "").strip()
    return value or None


def _number(row: dict[str, str], name: str, kind: type = float) -> Any:
    text = _cell(row, name)
    if text is None:
        return None
    try:
        value = kind(text)
    except ValueError:
        raise ValueError(f"Invalid {name} ({text!r}); must be {'an integer' if kind is int else 'a number'}") from None
    if not math.isfinite(value) or value <= 0:
        raise ValueError(f"Invalid {name} ({text!r}); must be > 0")
    return value


def _figure(line: Line, row: dict[str, str], assumptions: Assumptions, placements: dict[tuple, Placement]) -> Figure:
    for name in REQUIRED:
        if _cell(row, name) is None:
            raise ValueError(f"Invalid {name} (empty); the column is required")
    algorithms, operations = known_names()
    algorithm, operation = _cell(row, "algorithm"), _cell(row, "operation")
    fields: dict[str, Any] = {"mode": None, "key_bits": None, "curve": None}
    if algorithm in algorithms:
        fields.update(algorithm=algorithm)
        if m := re.fullmatch(r"AES-(128|192|256)-(\w+)", algorithm):
            fields.update(key_bits=int(m[1]), mode=m[2])
    else:
        try:
            fields.update(wolfssl_classify(algorithm))
        except ValueError:
            raise ValueError(f"unknown algorithm {algorithm!r}; accepted: the names of the built-in figures "
                             "(refbench sanity --list) or a wolfCrypt benchmark row name") from None
    if operation is not None:
        if operation not in operations:
            raise ValueError(f"Invalid operation ({operation!r}); accepted: {', '.join(sorted(operations))}")
        fields["operation"] = operation
    elif "operation" not in fields:
        raise ValueError("Invalid operation (empty); required unless the algorithm is a wolfCrypt row name")
    for name in ("mode", "curve"):
        if _cell(row, name):
            fields[name] = _cell(row, name)
    if _cell(row, "key_bits"):
        fields["key_bits"] = _number(row, "key_bits", int)
    unit_text = _cell(row, "unit")
    if unit_text not in UNIT_METRICS:
        raise ValueError(f"Invalid unit ({unit_text!r}); accepted: {', '.join(UNIT_METRICS)}")
    metric, unit = UNIT_METRICS[unit_text]
    value = _number(row, "value")
    size = _number(row, "size_bytes", int)
    library = _cell(row, "library") or assumptions.library or "not stated"
    version = _cell(row, "version") or assumptions.version or "not stated"
    if metric == "throughput":
        input_unit_bytes(library, version, unit)
    implementation = _cell(row, "implementation")
    if implementation not in (None, "software", "hardware"):
        raise ValueError(f"Invalid implementation ({implementation!r}); accepted: software, hardware")
    placement = _placement(row, assumptions, placements)
    stated = [name for name in ("board", "core", "clock_mhz") if _cell(row, name)]
    note = f"stated in the row: {', '.join(stated)}" if stated else None
    if _cell(row, "notes"):
        note = "; ".join(filter(None, [note, _cell(row, "notes")]))
    return build_figure(line=line, placement=placement[0], assumptions=placement[1],
                        section=f"{line.file}: table", label=algorithm, library=library, version=version,
                        fields=fields, metric=metric, value=value, unit=unit, text=_cell(row, "value"),
                        message_bytes=size, notes=note, compiler=_cell(row, "compiler"),
                        options=_cell(row, "options"), implementation=implementation)


def _placement(row: dict[str, str], assumptions: Assumptions, cache: dict[tuple, Placement]
               ) -> tuple[Placement, Assumptions]:
    """The row's own board/core/clock over the given assumptions."""
    board, core, clock = _cell(row, "board"), _cell(row, "core"), _number(row, "clock_mhz")
    if board:
        merged = dataclasses.replace(assumptions, board=board, core=core, wait_states=None,
                                     clock_mhz=clock if clock is not None else assumptions.clock_mhz)
    elif core or clock is not None:
        merged = dataclasses.replace(assumptions, core=core or assumptions.core,
                                     clock_mhz=clock if clock is not None else assumptions.clock_mhz,
                                     board=None if core else assumptions.board)
    else:
        merged = assumptions
    key = (merged.board, merged.core, merged.clock_mhz)
    if key not in cache:
        if not merged.complete:
            raise ValueError("no board and no core and clock: give them in the row or as assumptions")
        cache[key] = merged.resolve()
    return cache[key], merged
