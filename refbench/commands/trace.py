"""``refbench trace ALGORITHM``: print intermediate states as the standard's appendix does."""

from __future__ import annotations

import argparse
import json
import sys

from rich.console import Console
from rich.table import Table

from refbench.tracing import all_traces


def register(subparsers: argparse._SubParsersAction) -> None:
    traces = all_traces()
    parser = subparsers.add_parser(
        "trace",
        help="print an algorithm's intermediate states, as in its standard's worked example",
        description=(
            "Print intermediate states the way the standard's appendix does. With no options the "
            "standard's own example inputs are used, so the output can be read beside the document. "
            "Example: refbench trace aes-128 --key 000102030405060708090a0b0c0d0e0f"
        ),
    )
    algorithms = parser.add_subparsers(dest="algorithm", metavar="ALGORITHM", required=True)
    for name, spec in sorted(traces.items()):
        sub = algorithms.add_parser(name, help=spec.source, description=f"Layout as in {spec.source}.")
        for param, default in spec.inputs.items():
            sub.add_argument(f"--{param.replace('_', '-')}", dest=param, default=default, metavar="HEX",
                             help=f"in hex (default: the example of {spec.source}: {default or '(empty)'})")
        sub.add_argument("--json", action="store_true", help="print a JSON list of {step, name, value}")
        sub.set_defaults(handler=run, spec=spec)


def run(args: argparse.Namespace) -> int:
    spec = args.spec
    values = {}
    for param in spec.inputs:
        text = getattr(args, param)
        try:
            values[param] = bytes.fromhex(text)
        except ValueError:
            print(f"refbench trace {args.algorithm}: Invalid --{param.replace('_', '-')} ({text!r}): not hex; "
                  "accepted: hex digits, e.g. 00112233", file=sys.stderr)
            return 2
    try:
        rows = spec.run(**values)
    except ValueError as exc:
        given = ", ".join(f"--{param.replace('_', '-')}" for param in spec.inputs)
        print(f"refbench trace {args.algorithm}: {exc} (the inputs {given})", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps([{"step": r.step, "name": r.name, "value": r.value} for r in rows], indent=1))
        return 0
    table = Table(title=f"{args.algorithm}: {spec.source}")
    for column in ("step", "name", "value"):
        table.add_column(column, overflow="fold")
    for r in rows:
        table.add_row(r.step, r.name, r.value)
    Console().print(table)
    return 0
