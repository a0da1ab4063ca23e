"""``refbench published``: every published figure with its provenance and normalised value."""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from refbench.published.model import SOURCE_FILES, Figure, load_figures
from refbench.published.normalise import normalise, unit_reason

LIBRARY_ALIASES = {"wolfssl": "000", "cyclone": ("001", "003", "004"), "cyclonecrypto": ("001", "003", "004"),
                   "cmox": "002", "st": "002"}


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "published",
        help="list the published figures with provenance and normalised cycles",
        description=(
            "List every figure transcribed from the five published benchmark pages, with its source file, "
            "section, original row, original value and unit, and the value normalised to cycles per byte "
            "(throughputs) or cycles per operation (latencies) at the stated clock. "
            "Examples: refbench published --source 002 ; refbench published --source wolfssl --json"
        ),
    )
    add_source_option(parser)
    parser.add_argument("--json", action="store_true", help="print a JSON list instead of the table")
    parser.set_defaults(handler=run)


def add_source_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--source", action="append", metavar="SOURCE",
        help="only this source: a seed file name or its number (000-004), or wolfssl, cyclone, cmox; repeatable",
    )


def source_values_help() -> str:
    return ", ".join(SOURCE_FILES) + "; numbers 000-004; libraries: " + ", ".join(sorted(LIBRARY_ALIASES))


def resolve_sources(values: list[str] | None) -> list[str] | None:
    """Map --source values to seed file names; raise ValueError naming the bad value."""
    if not values:
        return None
    chosen: list[str] = []
    for value in values:
        key = value.lower()
        prefixes = LIBRARY_ALIASES.get(key, key)
        prefixes = (prefixes,) if isinstance(prefixes, str) else prefixes
        matched = [f for f in SOURCE_FILES if any(f.startswith(p) for p in prefixes)]
        if not matched:
            raise ValueError(f"Invalid --source ({value!r}); accepted: {source_values_help()}")
        chosen += matched
    return chosen


def figure_json(figure: Figure) -> dict:
    record = asdict(figure)
    record.pop("line")
    n = normalise(figure)
    record["published"] = figure.value
    record["cycles_per_byte"] = n.cycles_per_byte
    record["cycles_per_op"] = n.cycles_per_op
    record["unit_bytes"] = n.unit_bytes
    record["unit_status"] = n.unit_status
    record["unit_reason"] = unit_reason(figure.source, figure.version, figure.unit, figure.library) if n.unit_bytes else None
    return record


def fmt_cycles(x: float | None) -> str:
    if x is None:
        return ""
    return f"{x:,.0f}" if x >= 1000 else f"{x:.1f}"


def run(args: argparse.Namespace) -> int:
    try:
        sources = resolve_sources(args.source)
    except ValueError as exc:
        print(f"refbench published: {exc}", file=sys.stderr)
        return 2
    figures = [f for f in load_figures() if sources is None or f.source in sources]
    if args.json:
        print(json.dumps([figure_json(f) for f in figures], indent=1, ensure_ascii=False))
        return 0
    table = Table(title="published figures (normalised at the stated clock)")
    for column in ("id", "board", "library", "algorithm", "operation", "published", "cycles/byte", "cycles/op",
                   "section"):
        table.add_column(column, justify="right" if column.startswith(("cycles", "published")) else "left")
    for f in figures:
        n = normalise(f)
        table.add_row(*map(escape, [f.id, f.part, f"{f.library} {f.version}", f.algorithm + (" HW" if f.implementation == "hardware" else ""),
                      f.operation + (f" {f.variant}" if f.variant else ""), f"{f.text} {f.unit}",
                      fmt_cycles(n.cycles_per_byte), fmt_cycles(n.cycles_per_op), f.section]))
    console = Console()
    console.print(table)
    console.print(f"{len(figures)} figures")
    return 0
