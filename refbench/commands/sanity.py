"""``refbench sanity``: judge every published figure: arithmetic, board, invariants, cross-board, emulator."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import replace
from functools import cache

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from cortexm_emu.datafile import DataFileError
from cortexm_emu.machine_options import add_machine_options, check_values
from refbench.commands.published import add_source_option, fmt_cycles, resolve_sources
from refbench.inputs.options import (
    ReadInputs,
    add_input_options,
    assumptions_from,
    check_options,
    read_inputs,
    uses_inputs,
)
from refbench.inputs.summary import grouped_problems, input_counts, yielded_nothing
from refbench.options import board_name
from refbench.published.model import Figure, Part, load_figures, load_parts
from refbench.report import emulation_progress
from refbench.report import text as text_report
from refbench.report.data import report_json
from refbench.report.findings import FindingIndex, index_findings, summary_lines
from refbench.report.power import power_lines
from refbench.sanity import VERDICTS, Judgement, SanityContext, figure_selected, judge
from refbench.sanity.context import StatedMachine
from refbench.sanity.dask_executor import ClusterLostError, DaskExecutor, scheduler_address
from refbench.sanity.emulation import summary as emulation_summary

VERDICT_STYLE = {"untested": "bright_black", "consistent": "green", "explained": "cyan", "suspicious": "yellow", "inconsistent": "red"}
FORMATS = ("table", "markdown", "json", "html")
BOARD_HELP = ("a board profile (cortexm-emu boards: e.g. stm32f777xi, or a part such as STM32F777); a page's board "
              "name is accepted as an alias (text its board or part contains, e.g. H753, NUCLEO-F756ZG). Without "
              "--input: only that board's figures, repeatable or comma-separated; with --input: the board your "
              "input ran on")


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "sanity",
        help="check the published figures: arithmetic, board, invariants, cross-board, emulated kernels",
        description=(
            "Apply the sanity rules (arithmetic, board, invariants, cross-board; the emulator rule: the kernels "
            "run on the figure's board in each memory configuration; the peripheral rule for hardware figures; "
            "the section-clock rule: a section's clock) to every published figure and print figure, "
            "published value, normalised value, verdict (untested: no rule tested the value; consistent, explained, "
            "suspicious, inconsistent) and the reasons, numbers included; a finding about a whole section is printed "
            "once at the top with its figures (json: top-level findings, each figure listing its finding ids). Verdicts are findings: the exit status is 0 whenever the "
            "report ran, 2 for a bad option. Examples: refbench sanity ; refbench sanity --source wolfssl "
            "--board H753 --format markdown ; refbench sanity --algorithm AES-256 --format json ; "
            "refbench sanity --format html > report.html (one self-contained file with plots). The emulator rule "
            "runs the kernels through the measurement cache ($REFBENCH_CACHE or ~/.cache/refbench)"
        ),
    )
    add_source_option(parser)
    add_machine_options(parser, ("board",), repeatable=True, board=str.strip, helps={"board": BOARD_HELP})
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
                        help="switch the emulator rule off: run no kernel (seconds, even from empty caches); every software "
                             "figure is then 'not emulated' and the cross-board rule reports gaps without the emulated configurations "
                             "(hardware figures still meet the peripheral rule)")
    parser.add_argument("--scheduler", metavar="tcp://HOST:PORT",
                        help="run the measurements the cache does not answer on a Dask cluster (needs "
                             "'refbench[cluster]'; default $REFBENCH_SCHEDULER, else local processes)")
    add_input_options(parser)
    parser.set_defaults(handler=run)


def _validate(args: argparse.Namespace, figures: Sequence[Figure]) -> str | None:
    problem = check_options(args)
    if problem:
        return problem
    if args.format not in FORMATS:
        return f"Invalid --format ({args.format!r}); accepted: {', '.join(FORMATS)}"
    for verdict in args.only or ():
        if verdict not in VERDICTS:
            return f"Invalid --only ({verdict!r}); accepted: {', '.join(VERDICTS)}"
    for option, values, known in (
        ("--board", None if uses_inputs(args) else args.board,
         sorted({f.part for f in figures} | {f.board for f in figures if f.board})),
        ("--algorithm", args.algorithm, sorted({f.algorithm for f in figures})),
    ):
        for value in values or ():
            if not any(value.lower() in k.lower() for k in known) and not (
                    option == "--board" and _names_a_profile_of(value, figures)):
                return (f"Invalid {option} ({value!r}); accepted: any part of {', '.join(known)}"
                        + (", or a board profile with figures (cortexm-emu boards)" if option == "--board" else ""))
    return None


def _names_a_profile_of(value: str, figures: Sequence[Figure]) -> bool:
    """True when ``value`` names (as every command's --board does) the board profile of a figure's part."""
    try:
        profile = board_name(value)
    except ValueError:
        return False
    return any(_profile_of(part) == profile for part in {f.part for f in figures})


@cache
def _profile_of(part: str) -> str | None:
    try:
        return board_name(part)
    except ValueError:
        return None


Selection = tuple[list[Figure], dict[str, Part], set[str], dict[str, StatedMachine]]


def _select(args: argparse.Namespace, sources: list[str] | None, read_out: list[ReadInputs] | None = None
            ) -> Selection | str:
    """The figures the rules see, their parts, the ids judged and shown, and the machine stated for
    each input figure; or the message of a bad option. Without --input: every built-in figure, those
    the filters select shown. With --input: the inputs' figures (the built-in pages only with
    --pages), every skipped line reported on stderr as FILE:LINE (once per input and reason); what
    was read is appended to ``read_out``."""
    if not uses_inputs(args):
        figures = load_figures()
        problem = _validate(args, figures)
        if problem:
            return problem
        # Rules see every figure (partners on other boards); the emulator rule runs kernels for the selected ones.
        chosen = [f for f in figures if figure_selected(f, source=sources, board=args.board, algorithm=args.algorithm)]
        return figures, load_parts(), {f.id for f in chosen}, {}
    problem = check_options(args)
    if problem:
        return problem
    assumptions = assumptions_from(args)
    read = read_inputs(args.input, assumptions, args.input_format)
    for skipped in grouped_problems(read.problems):
        print(f"refbench sanity: skipped {skipped}", file=sys.stderr)
    if read_out is not None:
        read_out.append(read)
    mine = read.figures
    pages = load_figures() if args.pages else []
    problem = _validate(args, [*pages, *mine])
    if problem:
        return problem
    machines = {f.id: m for f in mine if (m := StatedMachine.for_figure(f, assumptions)) is not None}
    parts = {**(load_parts() if pages else {}), **load_parts(sorted({f.part for f in mine if f.board is not None}))}
    chosen = [f for f in mine if figure_selected(f, algorithm=args.algorithm)]
    chosen += [f for f in pages if figure_selected(f, source=sources, algorithm=args.algorithm)]
    return [*pages, *mine], parts, {f.id for f in chosen}, machines


def normalised_text(j: Judgement) -> str:
    return text_report.normalised_text(j, fmt_cycles)


def summary(judgements: list[Judgement]) -> list[str]:
    """The verdict counts per source and for all, ``untested`` apart."""
    return summary_lines(judgements)


def render_markdown(judgements: list[Judgement]) -> str:
    return text_report.render_markdown(judgements, fmt_cycles)


#: Below this console width the table's reasons column would be a few characters wide (the four
#: other columns need about 90), so each figure is printed as a block instead.
TABLE_MIN_WIDTH = 140


def print_blocks(console: Console, judgements: list[Judgement], reasons_mode: str, index: FindingIndex) -> None:
    """One line per figure (figure | published | normalised | verdict), then its reasons, each on
    one indented line that wraps as a whole: the layout for narrow consoles and pipes."""
    for j in judgements:
        f = j.figure
        console.print(f"{escape(f.id + ' ' + f.describe())} | {escape(f.text + ' ' + f.unit)} | "
                      f"{escape(normalised_text(j))} | [{VERDICT_STYLE[j.verdict]}]{j.verdict}[/]", soft_wrap=True)
        every = text_report.figure_reasons(j, index)
        reasons = every if reasons_mode == "all" else every[:1]
        for reason in reasons:
            console.print(f"    {reason}", markup=False, soft_wrap=True)
        if len(every) > len(reasons):
            console.print(f"    (+{len(every) - len(reasons)} more: --reasons all)", markup=False, soft_wrap=True)


def run(args: argparse.Namespace) -> int:
    try:
        check_values(args)  # --clock, --wait-states: finite and bounded, before anything is read
        if uses_inputs(args) and args.board:  # the input's board: a profile, named as every command names it
            args.board = [board_name(board) for board in args.board]
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
    try:
        read_out: list[ReadInputs] = []
        selection = _select(args, sources, read_out)
    except (ValueError, DataFileError) as exc:
        print(f"refbench sanity: {exc}", file=sys.stderr)
        return 2
    if isinstance(selection, str):
        print(f"refbench sanity: {selection}", file=sys.stderr)
        return 2
    figures, parts, selected, machines = selection
    try:
        with emulation_progress() as progress:
            report = judge(figures, parts, replace(context, scope=frozenset(selected), progress=progress,
                                                   machines=machines))
    except ClusterLostError as exc:
        print(f"refbench sanity: {exc}", file=sys.stderr)
        return 1
    finally:
        if isinstance(context.executor, DaskExecutor):
            context.executor.close()
    everything, emulations = report.judgements, report.emulations
    judgements = [j for j in everything if j.figure.id in selected]
    if args.only:
        judgements = [j for j in judgements if j.verdict in args.only]
    index = index_findings(judgements)
    status = _input_status(args, read_out, everything)
    if args.format == "json":
        print(json.dumps(report_json(judgements, emulations, index), indent=1, ensure_ascii=False))
        return status
    strength = power_lines(judgements, emulations)
    if args.format == "html":
        from refbench.report.html import render_html

        sys.stdout.write(render_html(judgements, emulations, summary(judgements) + strength, index))
        return status
    if args.format == "markdown":
        sys.stdout.write(text_report.render_markdown(judgements, fmt_cycles, index, strength))
        return status
    console = Console()
    for line in text_report.opening(judgements, index):
        console.print(line, markup=False, soft_wrap=console.width < TABLE_MIN_WIDTH)
    if console.width < TABLE_MIN_WIDTH:  # piped (80 columns) or a narrow terminal: no table
        print_blocks(console, judgements, args.reasons, index)
        for line in summary(judgements) + strength:
            console.print(line, markup=False, soft_wrap=True)
        console.print(emulation_summary({j.figure.id: emulations[j.figure.id] for j in judgements}), markup=False,
                      soft_wrap=True)
        return status
    table = Table(title="refbench sanity: published figures against arithmetic, board, invariants, cross-board",
                  show_lines=args.reasons == "all")
    for column in ("figure", "published", "normalised", "verdict", "reasons"):
        table.add_column(column, justify="right" if column in ("published", "normalised") else "left",
                         ratio=3 if column == "reasons" else None, overflow="fold")
    for j in judgements:
        f = j.figure
        every = text_report.figure_reasons(j, index)
        reasons = every if args.reasons == "all" else every[:1]
        more = len(every) - len(reasons)
        text = "\n".join(reasons) + (f" (+{more} more: --reasons all)" if more else "")
        table.add_row(escape(f"{f.id} {f.describe()}"), escape(f"{f.text} {f.unit}"), normalised_text(j),
                      f"[{VERDICT_STYLE[j.verdict]}]{j.verdict}[/]", escape(text))
    console.print(table)
    for line in summary(judgements) + strength:
        console.print(line, markup=False)
    console.print(emulation_summary({j.figure.id: emulations[j.figure.id] for j in judgements}), markup=False)
    return status


def _input_status(args: argparse.Namespace, read_out: list[ReadInputs], judgements: list[Judgement]) -> int:
    """Print each input's summary line (stderr); 1 when an input gave no judged figure, else 0."""
    if not read_out:
        return 0
    read = read_out[0]
    counts = input_counts(args.input, read.figures, read.problems, {j.figure.id for j in judgements if j.tested})
    for c in counts:
        print(f"refbench sanity: {c.line()}", file=sys.stderr)
    empty = yielded_nothing(counts)
    if empty:
        print(f"refbench sanity: no figure judged from {', '.join(empty)} (exit status 1)", file=sys.stderr)
    return 1 if empty else 0
