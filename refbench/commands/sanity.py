"""``refbench sanity``: judge every published figure: arithmetic, board, invariants, cross-board, emulator."""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from refbench.commands.published import add_source_option, fmt_cycles, resolve_sources
from refbench.published.model import Figure, load_figures, load_parts
from refbench.report import emulation_progress
from refbench.sanity import VERDICTS, Judgement, SanityContext, figure_selected, judge
from refbench.sanity.dask_executor import DaskExecutor, scheduler_address
from refbench.sanity.emulation import summary as emulation_summary

VERDICT_STYLE = {"consistent": "green", "explained": "cyan", "suspicious": "yellow", "inconsistent": "red"}
FORMATS = ("table", "markdown", "json", "html")


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "sanity",
        help="check the published figures: arithmetic, board, invariants, cross-board, emulated kernels",
        description=(
            "Apply the sanity rules (arithmetic, board, invariants, cross-board; rule e: the kernels "
            "run on the figure's board in each memory configuration; the peripheral rule for hardware figures; "
            "rule f: a section's clock) to every published figure and print figure, "
            "published value, normalised value, verdict (consistent, explained, suspicious, inconsistent) "
            "and the reasons, numbers included. Verdicts are findings: the exit status is 0 whenever the "
            "report ran, 2 for a bad option. Examples: refbench sanity ; refbench sanity --source wolfssl "
            "--board H753 --format markdown ; refbench sanity --algorithm AES-256 --format json ; "
            "refbench sanity --format html > report.html (one self-contained file with plots). Rule e (emulator) "
            "runs the kernels through the measurement cache ($REFBENCH_CACHE or ~/.cache/refbench)"
        ),
    )
    add_source_option(parser)
    parser.add_argument("--board", action="append", metavar="TEXT",
                        help="only boards/parts whose name contains TEXT (e.g. H753, NUCLEO-F756ZG); repeatable")
    parser.add_argument("--algorithm", action="append", metavar="TEXT",
                        help="only algorithms whose name contains TEXT (e.g. AES-128, ECDSA); repeatable")
    parser.add_argument("--format", default="table", metavar="FORMAT",
                        help=f"output format: {', '.join(FORMATS)} (default table)")
    parser.add_argument("--reasons", default="first", choices=("first", "all"),
                        help="table: show the reason that set the verdict (first, default) or every reason (all); "
                             "markdown and json always carry all of them")
    parser.add_argument("--only", action="append", metavar="VERDICT",
                        help=f"only figures with this verdict ({', '.join(VERDICTS)}); repeatable")
    parser.add_argument("--no-emulator", action="store_true",
                        help="switch rule e off: run no kernel (seconds, even from empty caches); every software "
                             "figure is then 'not emulated' and rule d reports gaps without the emulated configurations "
                             "(hardware figures still meet the peripheral rule)")
    parser.add_argument("--scheduler", metavar="tcp://HOST:PORT",
                        help="run the measurements the cache does not answer on a Dask cluster (needs "
                             "'refbench[cluster]'; default $REFBENCH_SCHEDULER, else local processes)")
    parser.set_defaults(handler=run)


def _validate(args: argparse.Namespace, figures: Sequence[Figure]) -> str | None:
    if args.format not in FORMATS:
        return f"Invalid --format ({args.format!r}); accepted: {', '.join(FORMATS)}"
    for verdict in args.only or ():
        if verdict not in VERDICTS:
            return f"Invalid --only ({verdict!r}); accepted: {', '.join(VERDICTS)}"
    for option, values, known in (
        ("--board", args.board, sorted({f.part for f in figures} | {f.board for f in figures if f.board})),
        ("--algorithm", args.algorithm, sorted({f.algorithm for f in figures})),
    ):
        for value in values or ():
            if not any(value.lower() in k.lower() for k in known):
                return f"Invalid {option} ({value!r}); accepted: any part of {', '.join(known)}"
    return None


def normalised_text(j: Judgement) -> str:
    n = j.normalised
    parts = []
    if n.cycles_per_byte is not None:
        parts.append(f"{fmt_cycles(n.cycles_per_byte)} c/B")
    if n.cycles_per_op is not None:
        parts.append(f"{fmt_cycles(n.cycles_per_op)} c/op")
    return ", ".join(parts) or "-"


def summary(judgements: list[Judgement]) -> list[str]:
    lines = []
    by_source = Counter((j.figure.source, j.verdict) for j in judgements)
    for source in sorted({j.figure.source for j in judgements}):
        counts = ", ".join(f"{v} {by_source[(source, v)]}" for v in VERDICTS)
        unjudged = sum(1 for j in judgements if j.figure.source == source and not j.judged)
        lines.append(f"{source}: {counts}; value not judged by any rule: {unjudged}")
    total = Counter(j.verdict for j in judgements)
    lines.append(f"all: {len(judgements)} figures: " + ", ".join(f"{v} {total[v]}" for v in VERDICTS))
    return lines


def render_markdown(judgements: list[Judgement]) -> str:
    def cell(text: str) -> str:
        return text.replace("|", "\\|").replace("\n", " ")
    rows = ["| figure | published | normalised | verdict | reasons |", "|---|---|---|---|---|"]
    for j in judgements:
        f = j.figure
        rows.append(f"| {cell(f.id + ' ' + f.describe())} | {cell(f.text + ' ' + f.unit)} | {normalised_text(j)} | "
                    f"{j.verdict} | {cell('<br>'.join(j.reasons))} |")
    rows.append("")
    rows += [f"- {line}" for line in summary(judgements)]
    return "\n".join(rows) + "\n"


def run(args: argparse.Namespace) -> int:
    try:
        sources = resolve_sources(args.source)
        # one local process per usable CPU, or $REFBENCH_WORKERS (a bad value is an option error,
        # said before any work)
        context = SanityContext.local(emulator=not args.no_emulator)
        address = scheduler_address(args.scheduler) if not args.no_emulator else None
        if address is not None:
            context = replace(context, executor=DaskExecutor(address))
    except ValueError as exc:
        print(f"refbench sanity: {exc}", file=sys.stderr)
        return 2
    figures = load_figures()
    problem = _validate(args, figures)
    if problem:
        print(f"refbench sanity: {problem}", file=sys.stderr)
        return 2
    # Rules see every figure (partners on other boards); rule e runs kernels for the selected ones.
    chosen = [f for f in figures if figure_selected(f, source=sources, board=args.board, algorithm=args.algorithm)]
    selected = {f.id for f in chosen}
    try:
        with emulation_progress() as progress:
            report = judge(figures, load_parts(), replace(context, scope=frozenset(selected), progress=progress))
    finally:
        if isinstance(context.executor, DaskExecutor):
            context.executor.close()
    everything, emulations = report.judgements, report.emulations
    judgements = [j for j in everything if j.figure.id in selected]
    if args.only:
        judgements = [j for j in judgements if j.verdict in args.only]
    if args.format == "json":
        print(json.dumps([{**j.as_json(), **emulations[j.figure.id].as_json()} for j in judgements], indent=1,
                         ensure_ascii=False))
        return 0
    if args.format == "html":
        from refbench.report.html import render_html

        sys.stdout.write(render_html(judgements, emulations, summary(judgements)))
        return 0
    if args.format == "markdown":
        sys.stdout.write(render_markdown(judgements))
        return 0
    table = Table(title="refbench sanity: published figures against arithmetic, board, invariants, cross-board",
                  show_lines=args.reasons == "all")
    for column in ("figure", "published", "normalised", "verdict", "reasons"):
        table.add_column(column, justify="right" if column in ("published", "normalised") else "left",
                         ratio=3 if column == "reasons" else None, overflow="fold")
    for j in judgements:
        f = j.figure
        reasons = j.reasons if args.reasons == "all" else j.reasons[:1]
        more = len(j.reasons) - len(reasons)
        text = "\n".join(reasons) + (f" (+{more} more: --reasons all)" if more else "")
        table.add_row(escape(f"{f.id} {f.describe()}"), escape(f"{f.text} {f.unit}"), normalised_text(j),
                      f"[{VERDICT_STYLE[j.verdict]}]{j.verdict}[/]", escape(text))
    console = Console()
    console.print(table)
    for line in summary(judgements):
        console.print(line, markup=False)
    console.print(emulation_summary({j.figure.id: emulations[j.figure.id] for j in judgements}), markup=False)
    return 0
