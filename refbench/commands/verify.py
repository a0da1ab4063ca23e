"""``refbench verify``: run every reference against every official vector set."""

from __future__ import annotations

import argparse
import json
import sys

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from refbench.verification import all_suites, run_suite, select


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "verify",
        help="run the references against the official test vectors",
        description=(
            "Run every pure-Python reference against its official vector sets (NIST CAVP, RFCs, "
            "Wycheproof, the project's vectors/) and print algorithm x source x vectors x passed x "
            "failed. Exit status 1 if any vector fails. Example: refbench verify --algorithm aes-128"
        ),
    )
    parser.add_argument("--algorithm", metavar="TEXT", help="only algorithms whose name contains TEXT")
    parser.add_argument("--slow", action="store_true", help="also run the slow sets (Monte Carlo, iterated)")
    parser.add_argument("--json", action="store_true", help="print a JSON list instead of the table")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    suites = list(select(all_suites(), args.algorithm, args.slow))
    console = Console(stderr=True)
    if not suites:
        print(f"refbench verify: Invalid --algorithm ({args.algorithm!r}): no vector suite matches", file=sys.stderr)
        return 2
    reports = []
    with Progress(console=console, transient=True, disable=args.json or not console.is_terminal) as progress:
        task = progress.add_task("verifying", total=len(suites))
        for suite in suites:
            progress.update(task, description=suite.algorithm)
            reports.append(run_suite(suite))
            progress.advance(task)
    failed = sum(r.failed for r in reports)
    if args.json:
        print(json.dumps([r.as_json() for r in reports], indent=1))
        return 1 if failed else 0
    out = Console()
    table = Table(title="refbench verify: references against official vectors")
    for column in ("algorithm", "source", "vectors", "passed", "failed"):
        table.add_column(column, justify="right" if column in ("vectors", "passed", "failed") else "left")
    for r in reports:
        style = "red" if r.failed else None
        table.add_row(r.suite.algorithm, r.suite.source, str(r.vectors), str(r.passed), str(r.failed), style=style)
    out.print(table)
    for r in reports:
        for o in r.failures[:10]:
            out.print(f"[red]FAIL[/red] {r.suite.algorithm}: {o.label}: {o.detail}")
    total = sum(r.vectors for r in reports)
    out.print(f"{len(reports)} suites, {total} vectors, {total - failed} passed, {failed} failed")
    return 1 if failed else 0
