"""``refbench`` command line: a thin layer over the library.

Each subcommand is a module of :mod:`refbench.commands` with a function
``register(subparsers)`` that adds its parser and sets ``handler``; the
handler returns the process exit code. The library itself never prints.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys

import refbench.commands as commands


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="refbench",
        description=(
            "Check published Cortex-M crypto benchmark figures against readable references, "
            "emulated kernels and algorithmic invariants."
        ),
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{commands.__name__}.{info.name}")
        module.register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "handler", None):
        parser.print_help()
        return 2
    try:
        return int(args.handler(args) or 0)
    except BrokenPipeError:  # e.g. `refbench verify --json | head`: the reader left; not an error
        sys.stdout = None  # type: ignore[assignment]
        return 0


if __name__ == "__main__":
    sys.exit(main())
