"""``refbench cycles``: cycles per operation and per byte of the kernels in the emulator."""

from __future__ import annotations

import argparse
import json
import sys

from rich import box
from rich.console import Console
from rich.markup import escape
from rich.measure import Measurement as RichMeasurement
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from cortexm_emu.machine_options import DEFAULT_CORE, add_machine_options, check_machine, option
from cortexm_emu.timing import CORES as TIMED_CORES
from cortexm_emu.toolchain import ToolchainError
from refbench.kernels.catalog import families
from refbench.measure import (
    COMPILERS,
    DEFAULT_SIZES,
    MAX_MESSAGE_BYTES,
    MAX_MESSAGE_REASON,
    OPT_LEVELS,
    Measurement,
    Measurer,
    cache_root,
    plan,
)
from refbench.options import aad_bytes, board_name, key_bytes, naming_option, plot_path
from refbench.sanity.dask_executor import ClusterLostError, DaskExecutor, scheduler_address

EXAMPLES = (
    "Examples: refbench cycles --kernel aes --core m4 ; "
    "refbench cycles --kernel sha256 --variant unrolled --board stm32l4a6zg --sizes 64,1024 --json ; "
    "refbench cycles --kernel aes --variant ttable4 --board stm32f407vg --clock 168 --cache off ; "
    "refbench cycles --kernel gcm --core m0plus --opt O2 ; "
    "refbench cycles --kernel sha256 --operation hash --core m0plus,m4,m7,m33 --sizes 0,55,56,64,1024 --plot sha256.png"
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
        if not item.isascii() or not item.isdigit():
            raise ValueError(f"Invalid --sizes ({text!r}); expected comma-separated byte counts, e.g. 16,64,1024,8000")
        if len(item) > len(str(MAX_MESSAGE_BYTES)) or int(item) > MAX_MESSAGE_BYTES:
            raise ValueError(f"Invalid --sizes ({item}); accepted: at most {MAX_MESSAGE_BYTES:,} bytes "
                             f"({MAX_MESSAGE_REASON})")
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
    add_machine_options(parser, ("core", "board", "clock", "cache"), cores=TIMED_CORES, repeatable=True,
                        board=board_name)
    parser.add_argument("--sizes", type=option(parse_sizes), default=",".join(map(str, DEFAULT_SIZES)),
                        metavar="N,N,...",
                        help=f"message sizes in bytes (default {','.join(map(str, DEFAULT_SIZES))})")
    parser.add_argument("--compiler", default="zig", choices=COMPILERS, help="the kernels' compiler (default zig)")
    parser.add_argument("--opt", default="Os", choices=OPT_LEVELS, help="optimisation level (default Os)")
    parser.add_argument("--key-bytes", type=option(key_bytes), metavar="N",
                        help="key length for operations with a key (default: the first of 16, 32, 24, 8 bytes "
                             "the reference accepts), e.g. 32 for AES-256, 24 for three-key TDEA")
    parser.add_argument("--aad-bytes", type=option(aad_bytes), default=0, metavar="N",
                        help="associated data for AEAD operations (default 0)")
    parser.add_argument("--no-cache", action="store_true", help="run everything again and do not store results")
    parser.add_argument("--scheduler", metavar="tcp://HOST:PORT",
                        help="run the measurements the cache does not answer on a Dask cluster (needs "
                             "'refbench[cluster]'; default $REFBENCH_SCHEDULER, else in this process)")
    parser.add_argument("--json", action="store_true", help="print a JSON list of measurements instead of the table")
    parser.add_argument("--plot", type=option(plot_path), metavar="FILE",
                        help="also draw cycles/byte against size, one curve per kernel/variant, operation and "
                             "core or board, into FILE (.png, .svg or .pdf)")
    parser.set_defaults(handler=run)


def _fmt(value: float | None, digits: int = 1) -> str:
    if value is None:
        return "-"
    if isinstance(value, int):
        return f"{value:,}"
    return f"{value:,.{digits}f}"


def _row(m: Measurement, with_stalls: bool, with_time: bool) -> dict[str, str]:
    """The cells of one measurement, by column (plain text)."""
    verified = "yes" if m.verified else "no"
    row = {"kernel/variant": f"{m.kernel}/{m.variant}", "operation": m.operation, "size": str(m.size),
           "cycles": _fmt(m.cycles), "c/B": _fmt(m.cycles_per_byte)}
    if with_stalls:
        row["stalls"] = _fmt(m.memory_cycles)
    row |= {"stack": _fmt(m.stack_bytes), "code": _fmt(m.code_bytes)}
    if with_time:
        row["time µs"] = _fmt(m.time_us, 2)
    row |= {"verified": verified, "cached": "yes" if m.cached else "no"}
    return row


def _rows(measurements: list[Measurement]) -> list[dict[str, str]]:
    with_time = any(m.clock_mhz for m in measurements)
    with_stalls = any(m.memory_cycles for m in measurements)
    return [_row(m, with_stalls, with_time) for m in measurements]


def render_table(measurements: list[Measurement], title: str) -> Table:
    """One row per measurement; every cell on one line (``no_wrap``): numbers are never cut. Why a
    run did not verify is printed below the table (:func:`problems`)."""
    table = Table(title=title, box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, collapse_padding=True)
    rows = _rows(measurements)
    for column in rows[0] if rows else ():
        table.add_column(column, justify="left" if column in ("kernel/variant", "operation", "verified") else "right",
                         no_wrap=True)
    for row in rows:
        table.add_row(*(f"[green]{v}[/]" if k == "verified" and v == "yes" else
                        f"[red]{v}[/]" if k == "verified" and v == "no" else escape(v) for k, v in row.items()))
    return table


def render_lines(measurements: list[Measurement]) -> list[str]:
    """One line per measurement, ``name: value`` pairs: the layout when the table is wider than the
    console (nothing is cut; a long line wraps as a whole)."""
    lines = []
    for row in _rows(measurements):
        head = f"{row.pop('kernel/variant')} {row.pop('operation')} {row.pop('size')} B:"
        lines.append(head + " " + ", ".join(f"{k} {v}" for k, v in row.items()))
    return lines


def problems(measurements: list[Measurement]) -> list[str]:
    """Why each applicable run that did not verify failed (error or mismatch), one line each."""
    return [f"not verified: {m.kernel}/{m.variant} {m.operation} {m.size} B: {m.error or m.mismatch}"
            for m in measurements if not m.verified and not m.error.startswith("not applicable")]


def fits(console: Console, renderable: Table) -> bool:
    """Whether ``renderable`` at its natural width fits the console (then no cell is shrunk)."""
    natural = RichMeasurement.get(console, console.options.update(width=10**6), renderable).maximum
    return natural <= console.width


def _targets(args: argparse.Namespace) -> list[tuple[str | None, str | None]]:
    """(core, board) per selected target, in the order given (the options are checked together by
    :func:`cortexm_emu.machine_options.check_machine` first)."""
    boards = [profile.name for profile in check_machine(args)]
    if boards:
        return [(args.core[0] if args.core else None, board) for board in boards]
    return [(core, None) for core in (args.core or [DEFAULT_CORE])]


def run(args: argparse.Namespace) -> int:
    err = Console(stderr=True)
    try:
        targets = _targets(args)
        try:
            jobs = plan(_list(args.kernel), _list(args.variant), _list(args.operation), args.sizes,
                        key_bytes=args.key_bytes, aad_bytes=args.aad_bytes)
        except ValueError as exc:
            raise naming_option(exc, {"kernel": "--kernel", "variant": "--variant", "operation": "--operation",
                                      "key": "--key-bytes"}) from None
        measurers = [Measurer(core, board=board, clock_mhz=args.clock,
                              memory_cache=(args.cache or "on") if board else None, opt=args.opt,
                              compiler=args.compiler, use_cache=not args.no_cache)
                     for core, board in targets]
        address = scheduler_address(args.scheduler)
        cluster = DaskExecutor(address) if address is not None else None
    except ValueError as exc:
        print(f"refbench cycles: {exc}", file=sys.stderr)
        return 2
    if not jobs:
        if cluster is not None:
            cluster.close()
        print("refbench cycles: the selection is empty: no variant of --kernel has the --operation chosen",
              file=sys.stderr)
        return 2
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    runs: list[tuple[Measurer, list[Measurement]]] = []
    with Progress(*columns, console=err, transient=True,
                  disable=not err.is_terminal or len(jobs) * len(measurers) < 2) as progress:
        for measurer in measurers:
            task = progress.add_task("measuring", total=len(jobs))

            def advance(done: int, total: int, label: str, task=task) -> None:
                progress.update(task, completed=done, description=label)

            if cluster is None:
                try:
                    runs.append((measurer, measurer.measure_all(jobs, progress=advance)))
                except ToolchainError as exc:  # no compiler, or no folder left to build in
                    print(f"refbench cycles: the kernels could not be built: {exc}", file=sys.stderr)
                    return 1
                continue
            try:
                runs.append((measurer, cluster.measure_all(measurer, jobs, progress=advance)))
            except ClusterLostError as exc:
                cluster.close()
                print(f"refbench cycles: {exc}", file=sys.stderr)
                return 1
    if cluster is not None:
        cluster.close()
    everything = [m for _, measurements in runs for m in measurements]
    applicable = [m for m in everything if not m.error.startswith("not applicable")]
    failed = [m for m in applicable if not m.verified]
    if args.plot:
        from refbench.plotting import plot_cycles_per_byte

        try:
            curves = plot_cycles_per_byte(everything, args.plot, title=f"refbench cycles, {args.compiler} -{args.opt}")
        except (ValueError, OSError) as exc:
            print(f"refbench cycles: --plot {str(args.plot)!r}: {exc}", file=sys.stderr)
            return 1
        print(f"refbench cycles: {curves} curve(s) drawn in {args.plot}", file=sys.stderr)
    if args.json:
        print(json.dumps([m.as_json() for m in everything], indent=1))
        return 1 if failed else 0
    out = Console()
    for measurer, measurements in runs:
        clock = f" at {measurer.clock_mhz:g} MHz" if measurer.clock_mhz else ""
        if measurer.board and args.clock is None:
            clock += ": the board's default clock, --clock to change"
        where = f"board {measurer.board} ({measurer.core}{clock})" if measurer.board else f"core {measurer.core}"
        title = f"refbench cycles: {where}, {args.compiler} -{args.opt}, memory {measurer.memory.name}"
        shown = [m for m in measurements if not m.error.startswith("not applicable")]
        table = render_table(shown, title)
        if fits(out, table):
            out.print(table)
        else:  # narrower than the table (e.g. 80 columns, or piped): one line per measurement
            out.print(title, markup=False, soft_wrap=True)
            for line in render_lines(shown):
                out.print(line, markup=False, soft_wrap=True)
        for line in problems(measurements):
            out.print(line, markup=False, soft_wrap=True)
        left_out = [m for m in measurements if m.error.startswith("not applicable")]
        if left_out:  # the rows a size or core does not apply to are not listed: one example says why
            m = left_out[0]
            out.print(f"not listed: {len(left_out)} not applicable, e.g. {m.kernel}/{m.variant} {m.operation} "
                      f"{m.size} B: {m.error}", markup=False, soft_wrap=True)
    hits = sum(measurer.cache_hits for measurer, _ in runs)
    ran = sum(measurer.harness_runs for measurer, _ in runs)
    out.print(f"{len(everything)} measurements: {hits} from the cache, {ran} run "
              f"in the emulator; {len(applicable) - len(failed)} verified, {len(failed)} not verified, "
              f"{len(everything) - len(applicable)} not applicable (size rejected by the mode); "
              f"cache {cache_root()}", markup=False)
    return 1 if failed else 0
