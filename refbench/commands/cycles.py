"""``refbench cycles``: cycles per operation and per byte of the kernels in the emulator."""

from __future__ import annotations

import argparse
import json
import sys

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from refbench.kernels.catalog import families
from refbench.measure import (
    COMPILERS,
    DEFAULT_SIZES,
    OPT_LEVELS,
    Measurement,
    Measurer,
    cache_root,
    plan,
)
from refbench.sanity.dask_executor import DaskExecutor, scheduler_address

EXAMPLES = (
    "Examples: refbench cycles --kernel aes --core m4 ; "
    "refbench cycles --kernel sha256 --variant unrolled --board stm32l4a6zg --sizes 64,1024 --json ; "
    "refbench cycles --kernel aes --variant ttable4 --board stm32f407vg --clock 168 --cache off ; "
    "refbench cycles --kernel gcm --core m0plus --opt O2"
)


def _list(values: list[str] | None) -> list[str] | None:
    """Repeatable options that also accept comma-separated lists."""
    if not values:
        return None
    return [item.strip() for value in values for item in value.split(",") if item.strip()]


def parse_sizes(text: str) -> list[int]:
    sizes = []
    for item in text.split(","):
        item = item.strip()
        if not item.isdigit():
            raise ValueError(f"Invalid --sizes ({text!r}); expected comma-separated byte counts, e.g. 16,64,1024,8000")
        sizes.append(int(item))
    return sizes


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "cycles",
        help="cycles per operation and per byte of the kernels in the emulator (cached)",
        description=(
            "Build each selected kernel variant, call each operation in the Cortex-M emulator on "
            "deterministic inputs of each size, check the output against the Python reference, and print "
            "cycles, cycles per byte, stack and code size. Results are cached under $REFBENCH_CACHE or "
            "~/.cache/refbench, keyed by ELF hash, function, inputs, timing-model version, memory "
            "configuration and core; a cached result keeps the verified flag of the run that produced it. "
            "With --core the memory is ideal (zero wait states); with --board it is the board's memory system "
            "(flash wait states at the clock, prefetch, ART/ICACHE/L1 caches per --cache; cortexm_emu.flash). "
            "Exit status 0 if every run verified, 1 if any did not, 2 for a bad option. " + EXAMPLES
        ),
    )
    parser.add_argument("--kernel", action="append", metavar="NAME",
                        help="kernel family (repeatable or comma-separated); default all: "
                             + ", ".join(families()))
    parser.add_argument("--variant", action="append", metavar="NAME",
                        help="only these variants of the selected kernels (repeatable or comma-separated)")
    parser.add_argument("--operation", action="append", metavar="NAME",
                        help="only these operations (repeatable or comma-separated), e.g. cbc-encrypt")
    target = parser.add_mutually_exclusive_group()
    target.add_argument("--core", metavar="CORE", help="core to emulate (default m4)")
    target.add_argument("--board", metavar="BOARD",
                        help="board profile (cortexm_emu/boards); uses its core and reports time at its clock")
    parser.add_argument("--clock", type=float, metavar="MHZ",
                        help="with --board: core clock in MHz, which sets the flash wait states and the time column "
                             "(default the part maximum)")
    parser.add_argument("--cache", metavar="on|off",
                        help="with --board: the board's caches/ART and flash prefetch on (default) or off")
    parser.add_argument("--sizes", default=",".join(map(str, DEFAULT_SIZES)), metavar="N,N,...",
                        help=f"message sizes in bytes (default {','.join(map(str, DEFAULT_SIZES))})")
    parser.add_argument("--compiler", default="zig", metavar="NAME", help=f"{' or '.join(COMPILERS)} (default zig)")
    parser.add_argument("--opt", default="Os", metavar="LEVEL", help=f"{', '.join(OPT_LEVELS)} (default Os)")
    parser.add_argument("--key-bytes", type=int, metavar="N",
                        help="key length for operations with a key (default: the first of 16, 32, 24, 8 bytes "
                             "the reference accepts), e.g. 32 for AES-256, 24 for three-key TDEA")
    parser.add_argument("--aad-bytes", type=int, default=0, metavar="N",
                        help="associated data for AEAD operations (default 0)")
    parser.add_argument("--no-cache", action="store_true", help="run everything again and do not store results")
    parser.add_argument("--scheduler", metavar="tcp://HOST:PORT",
                        help="run the measurements the cache does not answer on a Dask cluster (needs "
                             "'refbench[cluster]'; default $REFBENCH_SCHEDULER, else in this process)")
    parser.add_argument("--json", action="store_true", help="print a JSON list of measurements instead of the table")
    parser.set_defaults(handler=run)


def _fmt(value: float | None, digits: int = 1) -> str:
    if value is None:
        return "-"
    if isinstance(value, int):
        return f"{value:,}"
    return f"{value:,.{digits}f}"


def render_table(measurements: list[Measurement], title: str) -> Table:
    table = Table(title=title)
    with_time = any(m.clock_mhz for m in measurements)
    with_stalls = any(m.memory_cycles for m in measurements)
    columns = ["kernel/variant", "operation", "size", "cycles", "cycles/B"]
    columns += ["memory stalls"] if with_stalls else []
    columns += ["stack", "code"]
    columns += ["time µs"] if with_time else []
    columns += ["verified", "cached"]
    for column in columns:
        table.add_column(column, justify="left" if column in ("kernel/variant", "operation", "verified") else "right",
                         no_wrap=column != "verified")
    for m in measurements:
        if m.error.startswith("not applicable"):
            verified = "n/a (size)"
        else:
            verified = "[green]yes[/]" if m.verified else f"[red]no[/] {escape(m.error or m.mismatch)[:100]}"
        row = [f"{m.kernel}/{m.variant}", m.operation, str(m.size), _fmt(m.cycles), _fmt(m.cycles_per_byte)]
        row += [_fmt(m.memory_cycles)] if with_stalls else []
        row += [_fmt(m.stack_bytes), _fmt(m.code_bytes)]
        row += [_fmt(m.time_us, 2)] if with_time else []
        row += [verified, "yes" if m.cached else "no"]
        table.add_row(*row)
    return table


def run(args: argparse.Namespace) -> int:
    err = Console(stderr=True)
    try:
        sizes = parse_sizes(args.sizes)
        if args.clock is not None and not args.board:
            raise ValueError(f"Invalid --clock ({args.clock:g}) without --board; the clock belongs to a board")
        if args.cache is not None and not args.board:
            raise ValueError(f"Invalid --cache ({args.cache}) without --board; the caches belong to a board")
        if args.cache is not None and args.cache not in ("on", "off"):
            raise ValueError(f"Invalid --cache ({args.cache!r}); accepted: on, off")
        jobs = plan(_list(args.kernel), _list(args.variant), _list(args.operation), sizes,
                    key_bytes=args.key_bytes, aad_bytes=args.aad_bytes)
        measurer = Measurer(None if args.board else (args.core or "m4"), board=args.board, clock_mhz=args.clock,
                            memory_cache=(args.cache or "on") if args.board else None, opt=args.opt,
                            compiler=args.compiler, use_cache=not args.no_cache)
        address = scheduler_address(args.scheduler)
        cluster = DaskExecutor(address) if address is not None else None
    except ValueError as exc:
        print(f"refbench cycles: {exc}", file=sys.stderr)
        return 2
    if not jobs:
        if cluster is not None:
            cluster.close()
        print("refbench cycles: the selection is empty (no variant has the chosen operation)", file=sys.stderr)
        return 2
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=err, transient=True, disable=not err.is_terminal or len(jobs) < 2) as progress:
        task = progress.add_task("measuring", total=len(jobs))

        def advance(done: int, total: int, label: str) -> None:
            progress.update(task, completed=done, description=label)

        if cluster is None:
            measurements = measurer.measure_all(jobs, progress=advance)
        else:
            with cluster:
                measurements = cluster.measure_all(measurer, jobs, progress=advance)
    applicable = [m for m in measurements if not m.error.startswith("not applicable")]
    failed = [m for m in applicable if not m.verified]
    if args.json:
        print(json.dumps([m.as_json() for m in measurements], indent=1))
        return 1 if failed else 0
    where = f"board {args.board} ({measurer.core}" + (f" at {measurer.clock_mhz:g} MHz)" if measurer.clock_mhz else ")") \
        if args.board else f"core {measurer.core}"
    title = f"refbench cycles: {where}, {args.compiler} -{args.opt}, memory {measurer.memory.name}"
    out = Console()
    out.print(render_table(measurements, title))
    for m in measurements:
        if m.error.startswith("not applicable"):
            out.print(f"n/a: {m.kernel}/{m.variant} {m.operation} {m.size} B: {m.error}", markup=False)
            break
    out.print(f"{len(measurements)} measurements: {measurer.cache_hits} from the cache, {measurer.harness_runs} run "
              f"in the emulator; {len(applicable) - len(failed)} verified, {len(failed)} not verified, "
              f"{len(measurements) - len(applicable)} not applicable (size rejected by the mode); "
              f"cache {cache_root()}", markup=False)
    return 1 if failed else 0
