"""``refbench leakage``: does a kernel's secret reach its cycles, data addresses or branches here?"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from cortexm_emu.errors import EmulatorError
from refbench.leakage.check import DEFAULT_SECRETS, VERDICTS, LeakageReport, analyze
from refbench.leakage.matrix import Failed, run_matrix, selections, what_was_checked
from refbench.leakage.own_function import ArgSpec, analyze_function, parse_arg
from refbench.leakage.runner import make_target

EXAMPLES = (
    "Examples: refbench leakage aes/ttable4 --core m4 ; "
    "refbench leakage aes/ttable4 --board stm32h753zi --json ; "
    "refbench leakage bignum/umaal --operation mont-exp --core m4 --secrets 8 ; "
    "refbench leakage --all --board stm32f407vg ; "
    "refbench leakage ./mine.elf lookup --secret-arg buf:16 --public-arg buf:16 --out-arg buf:16 "
    "--public-arg const:16 --core m4"
)
SHOWN = 12  # findings of each kind printed in the table form (all are in --json)


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "leakage",
        help="secret-dependent timing, data addresses and branches of the kernels in the emulator",
        description=(
            "Run a kernel operation with N secrets (keys, exponents, operands: refbench/leakage/secrets.py) and "
            "fixed public inputs, traced, and with dudect's fixed-vs-random secret classes; report separately "
            "whether the cycle count depends on the secret on this core or board (exact spread, Welch's t), the "
            "loads and stores whose data address depends on it (byte and data-cache-line granularity), and the "
            "branches whose direction depends on it, each with symbol+offset, disassembly and C source line. "
            "Verdicts: " + "; ".join(f"{k}: {v}" for k, v in VERDICTS.items()) + ". Exit status 0 when every "
            "analysis ran, 1 if one failed, 2 for a bad option. A function of your own: give the ELF and the "
            "function's name, then its arguments in order with --secret-arg/--public-arg/--out-arg "
            "(refbench/leakage/README.md). " + EXAMPLES
        ),
    )
    parser.add_argument("kernel", nargs="?", metavar="KERNEL[/VARIANT] | ELF",
                        help="kernel family, optionally with a variant (default: every variant of the family); "
                             "or an ELF of your own, followed by FUNCTION")
    parser.add_argument("function", nargs="?", metavar="FUNCTION", help="with an ELF: the function to analyse")
    for role, forms, what in (("secret", "buf:N | u32", "a secret argument: N bytes passed by address, or a "
                                                        "32-bit value"),
                              ("public", "buf:N | u32 | const:V", "a public argument: N bytes by address, a 32-bit "
                                                                  "value varied between runs, or the constant V"),
                              ("out", "buf:N", "an output argument: N zero bytes by address")):
        parser.add_argument(f"--{role}-arg", dest="call_args", action="append", metavar=forms,
                            type=lambda text, role=role: (role, text),
                            help=f"with an ELF: the function's next argument is {what} (repeatable, in order)")
    parser.add_argument("--all", action="store_true",
                        help="every operation of every kernel variant: a table of verdicts")
    parser.add_argument("--operation", metavar="OP",
                        help="operation (default: each family's first; every one with --all)")
    target = parser.add_mutually_exclusive_group()
    target.add_argument("--core", metavar="CORE", help="core with ideal memory (default m4)")
    target.add_argument("--board", metavar="BOARD", help="board profile: its core and memory system")
    parser.add_argument("--clock", type=float, metavar="MHZ", help="with --board: core clock (default: the board's default clock, the part maximum unless its profile's [default_clock] names another (cortexm-emu boards: default_mhz))")
    parser.add_argument("--cache", default="on", metavar="on|off", help="with --board: caches/ART (default on)")
    parser.add_argument("--start", default="cold", metavar="cold|warm",
                        help="with --board: caches empty before each call (default cold: every distinct line a "
                             "secret touches is a miss) or warm (filled by the same call first)")
    parser.add_argument("--secrets", type=int, default=DEFAULT_SECRETS, metavar="N",
                        help=f"secrets in the traced set and pairs in the fixed-vs-random set (default {DEFAULT_SECRETS})")
    parser.add_argument("--size", type=int, metavar="BYTES",
                        help="message or operand length (default: the first of 32, 48, 56, 68, 16, 64, 8 bytes the "
                             "operation accepts)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of tables")
    parser.set_defaults(handler=run)


def _own_function(args: argparse.Namespace) -> bool:
    """Whether the command names an ELF of the user's own (KERNEL is a file, or FUNCTION or an
    argument option is given)."""
    kernel = args.kernel or ""
    return bool(args.function or args.call_args or kernel.endswith(".elf") or Path(kernel).is_file())


def _own_specs(args: argparse.Namespace) -> list[ArgSpec]:
    if args.all or args.operation or args.size is not None:
        given = "--all" if args.all else "--operation" if args.operation else "--size"
        raise ValueError(f"Invalid {given} with an ELF of your own; describe the function's arguments with "
                         "--secret-arg/--public-arg/--out-arg")
    if not args.kernel or not args.function:
        raise ValueError("give an ELF and a FUNCTION (e.g. ./mine.elf lookup --secret-arg buf:16)")
    elf = Path(args.kernel)
    if not elf.is_file():
        raise ValueError(f"Invalid ELF ({args.kernel!r}): {'a directory' if elf.is_dir() else 'no such file'}")
    if not args.call_args:
        raise ValueError(f"give the arguments of {args.function} in order: --secret-arg buf:N|u32, "
                         "--public-arg buf:N|u32|const:V, --out-arg buf:N")
    specs = [parse_arg(role, text) for role, text in args.call_args]
    if not any(spec.role == "secret" for spec in specs):
        raise ValueError("give at least one --secret-arg (buf:N or u32): the argument whose reach is analysed")
    return specs


def _selection(args: argparse.Namespace, target) -> list:  # type: ignore[no-untyped-def]
    if args.all and args.kernel:
        raise ValueError(f"Invalid KERNEL ({args.kernel!r}) with --all; give one or the other")
    if not args.all and not args.kernel:
        raise ValueError("give KERNEL[/VARIANT] (e.g. aes/ttable4), --all, or an ELF and a FUNCTION")
    kernel, variant = (None, None)
    if args.kernel:
        kernel, _, variant = args.kernel.partition("/")
        variant = variant or None
    chosen = selections(target, kernel, variant, args.operation, every_operation=args.all)
    if not chosen:
        raise ValueError(f"the selection is empty: no variant of {args.kernel or 'any kernel'} runs on core "
                         f"{target.core}" + (f" with operation {args.operation}" if args.operation else ""))
    return chosen


def run(args: argparse.Namespace) -> int:
    err = Console(stderr=True)
    specs: list[ArgSpec] = []
    chosen: list = []
    try:
        if not args.board and (args.clock is not None or args.cache != "on" or args.start != "cold"):
            raise ValueError("--clock, --cache and --start belong to a board; give --board BOARD")
        if args.cache not in ("on", "off"):
            raise ValueError(f"Invalid --cache ({args.cache!r}); accepted: on, off")
        if args.start not in ("cold", "warm"):
            raise ValueError(f"Invalid --start ({args.start!r}); accepted: cold, warm")
        if args.secrets < 2:
            raise ValueError(f"Invalid --secrets ({args.secrets}); accepted: an integer >= 2")
        target = make_target(None if args.board else (args.core or "m4"), args.board, clock_mhz=args.clock,
                             cache=args.cache, start=args.start)
        own = _own_function(args)
        if own:
            specs = _own_specs(args)
        else:
            chosen = _selection(args, target)
    except ValueError as exc:
        print(f"refbench leakage: {exc}", file=sys.stderr)
        return 2
    started = time.perf_counter()
    checked = None if own else what_was_checked(chosen, target, args.operation, args.all)
    if own or (len(chosen) == 1 and not args.all):
        try:
            if own:
                results: list = [analyze_function(args.kernel, args.function, specs, target, secrets=args.secrets)]
            else:
                item = chosen[0]
                results = [analyze(item.kernel, item.variant, item.operation, target, secrets=args.secrets,
                                   size=args.size)]
        except (ValueError, RuntimeError, EmulatorError) as exc:
            print(f"refbench leakage: {exc}", file=sys.stderr)
            return 1
    else:
        def progress(item) -> None:  # type: ignore[no-untyped-def]
            if err.is_terminal:
                err.print(f"{item.kernel}/{item.variant} {item.operation} ...", markup=False)

        results = list(run_matrix(target, chosen, secrets=args.secrets, size=args.size, progress=progress))
    seconds = time.perf_counter() - started
    reports = [r for r in results if isinstance(r, LeakageReport)]
    failed = [r for r in results if isinstance(r, Failed)]
    if args.json:
        print(json.dumps({"target": target.label, "secrets": args.secrets, "seconds": round(seconds, 2),
                          "checked": checked,
                          "reports": [r.as_json() for r in reports],
                          "failed": [{"kernel": f.selection.kernel, "variant": f.selection.variant,
                                      "operation": f.selection.operation, "error": f.error} for f in failed]},
                         indent=1))
        return 1 if failed else 0
    # Host time is not a property of the kernel: it goes to standard error, so the report on
    # standard output is the same on every run (the JSON keeps it as "seconds").
    err.print(f"refbench leakage: {seconds:.1f} s", markup=False)
    out = Console()
    if not out.is_terminal:
        out = Console(width=160)
    if len(results) == 1 and reports and not args.all:
        render_report(out, reports[0])
    else:
        out.print(render_matrix(reports, failed, target.label, args.secrets))
        counts = {v: sum(r.verdict == v for r in reports) for v in VERDICTS}
        out.print(f"{len(reports)} analysed ({', '.join(f'{n} {v}' for v, n in counts.items())}), "
                  f"{len(failed)} failed", markup=False)
    if checked is not None:
        out.print(checked, markup=False, soft_wrap=True)
    for f in failed:
        out.print(f"failed: {f.selection.kernel}/{f.selection.variant} {f.selection.operation}: {f.error}",
                  markup=False)
    return 1 if failed else 0


def render_matrix(reports: list[LeakageReport], failed: list[Failed], target: str, secrets: int) -> Table:
    table = Table(title=f"refbench leakage: {target}, {secrets} secrets + {secrets} fixed-vs-random pairs")
    for column in ("kernel/variant", "operation", "secret", "spread", "pairs", "addr", "line", "branch",
                   "operand", "verdict"):
        table.add_column(column, justify="left" if column in ("kernel/variant", "operation", "secret", "verdict")
                         else "right", no_wrap=column in ("kernel/variant", "verdict"))
    colour = {"constant-time": "green", "address-leaking": "yellow", "timing-leaking": "red"}
    for r in reports:
        spread = ", ".join(str(t.spread) for t in r.timing)
        pairs = ", ".join(f"{f.pairs_differing}/{f.pairs}" for f in r.fixed_vs_random)
        table.add_row(r.path, r.operation, ",".join(r.secret_roles), spread, pairs, str(len(r.memory_findings)),
                      str(len(r.line_findings)) if r.line_bytes else "-", str(len(r.control_findings)),
                      str(len(r.operand_findings)),
                      f"[{colour[r.verdict]}]{r.verdict}[/]")
    for f in failed:
        table.add_row(f"{f.selection.kernel}/{f.selection.variant}", f.selection.operation, "", "", "", "", "", "",
                      "", "[red]failed[/]")
    return table


def render_report(out: Console, r: LeakageReport) -> None:
    size = f"{r.size} secret bytes" if not r.variant else f"{r.size}-byte message/operand"
    out.print(f"[bold]{escape(r.path)} {escape(r.operation)}[/] on {escape(r.target)}: secret "
              f"{escape(', '.join(r.secret_roles))} ({size}), {r.secrets} secrets")
    out.print(f"verdict: [bold]{r.verdict}[/] ({VERDICTS[r.verdict]})")
    timing = Table(title="timing (cycles per call over the secret set; fixed-vs-random pairs)")
    for column in ("function", "min", "max", "spread", "distinct", "pairs differing", "Welch t"):
        timing.add_column(column, justify="left" if column == "function" else "right")
    for t, f in zip(r.timing, r.fixed_vs_random, strict=True):
        timing.add_row(t.function, f"{t.cycles_min:,}", f"{t.cycles_max:,}", str(t.spread), str(t.distinct),
                       f"{f.pairs_differing}/{f.pairs}", f"{f.welch_t:.2f}")
    out.print(timing)
    for kind, findings, title in (
            ("memory", r.memory_findings, "memory: loads/stores whose data address depends on the secret"),
            ("control", r.control_findings, "control flow: branches whose direction depends on the secret"),
            ("operand", r.operand_findings, "operand-dependent instructions whose cycles depend on the secret")):
        shown = f" (first {SHOWN}; all with --json)" if len(findings) > SHOWN else ""
        out.print(f"{title}: {len(findings) or 'none'}{shown}", markup=False)
        for f in findings[:SHOWN]:
            what = (f"runs or pairs differing {f.varying}/{f.executions}, distinct extra cycles {f.distinct}"
                    if kind == "operand" else f"executions varying {f.varying}/{f.executions}, distinct {f.distinct}")
            if kind == "memory" and r.line_bytes:
                what += f"; {r.line_bytes}-byte lines varying {f.line_varying}, distinct {f.line_distinct}"
            if kind == "memory" and f.stall_varying is not None:
                what += f"; hit/miss varying {f.stall_varying}"
            out.print(f"  [{f.function}] {f.location.symbol}  {f.location.disassembly}  "
                      f"{f.location.source or '(no line)'}  {what}", markup=False)
    for note in r.notes:
        out.print(f"note: {note}", markup=False)
