"""``refbench parts``: each part's crypto peripherals and their documented timings, with citations."""

from __future__ import annotations

import argparse
import json
import sys

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from cortexm_emu.machine_options import option
from refbench.options import part_name
from refbench.parts import PartProfile, load_part_profile, part_profile_names


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "parts",
        help="list each part's crypto peripherals, their documented timings and published clocks",
        description=(
            "List the part files (refbench/parts/*.toml): for each board profile, the crypto "
            "peripherals present and what they provide, the documented processing-time tables "
            "(clock, rows, source and confidence) and the clocks published pages ran the board at. "
            "Emulator facts (core, flash, caches) are in `cortexm-emu boards`."
        ),
        epilog="Examples: refbench parts ; refbench parts --part stm32u585ai ; refbench parts --json",
    )
    parser.add_argument("--part", action="append", type=option(part_name), metavar="NAME",
                        help="only this part file: a board profile (e.g. stm32f437ii), or its part number or board "
                             "name as a page writes it (STM32H753ZI, NUCLEO-H753ZI), case-insensitive; repeatable")
    parser.add_argument("--json", action="store_true", help="print every selected part file as JSON")
    parser.set_defaults(handler=run)


def _timing_lines(profile: PartProfile) -> list[tuple[str, str, str, str]]:
    """(block, what, timing table, citation) per present block."""
    out = []
    for block in profile.crypto_hw:
        if not block.present or block.provides is None:
            continue
        what = ", ".join(block.provides.functions) or "(no engine of its own)"
        if block.provides.aes_key_bits:
            what += f"; AES keys {'/'.join(map(str, block.provides.aes_key_bits))}"
        if block.provides.hash_algorithms:
            what += f"; {', '.join(block.provides.hash_algorithms)}"
        if block.timing is None:
            timing, cite = "not documented in the sources read", block.provides.citation.source
            cite = f"{cite} ({block.provides.citation.confidence})"
        else:
            t = block.timing
            timing = (f"{len(t.rows)} rows; {t.clock} <= {t.clock_max_mhz:g} MHz"
                      + (", <= core" if t.clock_at_most_core else ""))
            cite = f"{t.citation.source} ({t.citation.confidence})"
        out.append((block.name, what, timing, cite))
    return out


def run(args: argparse.Namespace) -> int:
    try:
        names = args.part or part_profile_names()
        profiles = [load_part_profile(name) for name in names]
    except ValueError as exc:
        print(f"refbench parts: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps([p.as_dict() for p in profiles], indent=1, ensure_ascii=False))
        return 0
    console = Console()
    for profile in profiles:
        clocks = ", ".join(f"{c.mhz:g} MHz" + (f" (finding: {c.finding})" if c.finding else "")
                           for c in profile.published_clocks)
        table = Table(title=escape(f"{profile.name} ({profile.part}); published clocks: {clocks}"),
                      title_justify="left")
        for header, ratio in (("block", 1), ("provides", 2), ("timing", 2), ("source", 6)):
            table.add_column(header, overflow="fold", ratio=ratio)
        for row in _timing_lines(profile):
            table.add_row(*map(escape, row))
        console.print(table)
    console.print(f"{len(profiles)} part files; values and citations in full: refbench parts --json "
                  "(or refbench/parts/*.toml)")
    return 0
