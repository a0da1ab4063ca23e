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
from cortexm_emu.machine_options import DEFAULT_CORE, add_machine_options, check_machine, option
from cortexm_emu.timing import CORES as TIMED_CORES
from refbench.kernels.catalog import family
from refbench.leakage.check import DEFAULT_SECRETS, VERDICTS, LeakageReport, analyze
from refbench.leakage.matrix import Failed, run_matrix, selections, what_was_checked
from refbench.leakage.own_function import ArgSpec, analyze_function, parse_arg
from refbench.leakage.runner import make_target
from refbench.measure import operation_of
from refbench.options import (
    MAX_LEAKAGE_SIZE,
    MAX_LEAKAGE_TRACED_BYTES,
    MAX_SECRETS,
    board_name,
    check_leakage_work,
    leakage_secrets,
    leakage_size,
    naming_option,
    operation_inputs,
)

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
    add_machine_options(parser, ("core", "board", "clock", "cache", "start"), cores=TIMED_CORES,
                        default_start="cold", board=board_name)
    parser.add_argument("--secrets", type=option(leakage_secrets), default=DEFAULT_SECRETS, metavar="N",
                        help=f"secrets in the traced set and pairs in the fixed-vs-random set (default {DEFAULT_SECRETS}; "
                             f"2 to {MAX_SECRETS}, and --secrets x --size at most {MAX_LEAKAGE_TRACED_BYTES:,})")
    parser.add_argument("--size", type=option(leakage_size), metavar="BYTES",
                        help="message or operand length (default: the first of 32, 48, 56, 68, 16, 64, 8 bytes the "
                             f"operation accepts; 1 to {MAX_LEAKAGE_SIZE})")
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
    try:
        chosen = selections(target, kernel, variant, args.operation, every_operation=args.all)
    except ValueError as exc:
        raise naming_option(exc, {"kernel": "KERNEL[/VARIANT]", "variant": "KERNEL[/VARIANT]",
                                  "operation": "--operation"}) from None
    if not chosen:
        raise ValueError(f"the selection is empty: no variant of KERNEL {args.kernel or '(any)'} runs on core "
                         f"{target.core}" + (f" with --operation {args.operation}" if args.operation else ""))
    return chosen


def run(args: argparse.Namespace) -> int:
    err = Console(stderr=True)
    specs: list[ArgSpec] = []
    chosen: list = []
    try:
        (board,) = check_machine(args) or (None,)
        check_leakage_work(args.secrets, args.size)
        target = make_target(None if board else (args.core or DEFAULT_CORE), board and board.name,
                             clock_mhz=args.clock, cache=args.cache or "on", start=args.start or "cold")
        own = _own_function(args)
        if own:
            specs = _own_specs(args)
        else:
            chosen = _selection(args, target)
            if args.size is not None and len(chosen) == 1 and not args.all:  # --all: a size some refuse is a row each
                item = chosen[0]
                operation_inputs(operation_of(family(item.kernel), item.operation), args.size,
                                 f"{item.kernel}/{item.variant} {item.operation}")
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
