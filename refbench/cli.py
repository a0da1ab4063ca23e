"""``refbench`` command line: a thin layer over the library.

Each subcommand is a module of :mod:`refbench.commands` with a function
``register(subparsers)`` that adds its parser and sets ``handler``; the
handler returns the process exit code. The library itself never prints.
"""

from __future__ import annotations

import argparse
import importlib
import os
import pkgutil
import sys
import warnings

import refbench.commands as commands
from cortexm_emu.toolchain import BuildCacheWarning
from refbench.result_cache import ResultCacheWarning


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


def _show_warning(message, category, filename, lineno, file=None, line=None) -> None:  # noqa: ANN001
    """Cache warnings as one line naming the file, not Python's source-location format."""
    if issubclass(category, (BuildCacheWarning, ResultCacheWarning)):
        print(f"refbench: warning: {message}", file=sys.stderr if file is None else file)
    else:
        _DEFAULT_SHOWWARNING(message, category, filename, lineno, file, line)


_DEFAULT_SHOWWARNING = warnings.showwarning


def main(argv: list[str] | None = None) -> int:
    warnings.showwarning = _show_warning
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse: --help (0) or a usage error (2), its message already printed
        return exc.code if isinstance(exc.code, int) else 2
    if not getattr(args, "handler", None):
        parser.print_help()
        return 2
    try:
        code = int(args.handler(args) or 0)
        sys.stdout.flush()  # here, so that a reader who left is seen now, not at interpreter exit
        return code
    except BrokenPipeError:  # e.g. `refbench sanity | head -1`: the reader left; not an error
        _quiet_stdout()
        return 0
    except SystemExit as exc:  # rich's Console ends a broken pipe with SystemExit(1): not an error either
        if isinstance(exc.__context__, BrokenPipeError):
            _quiet_stdout()
            return 0
        raise
    except KeyboardInterrupt:  # Ctrl-C: the workers are already stopped (refbench.sanity.executor)
        print(f"refbench {args.command}: interrupted", file=sys.stderr)
        return 130


def _quiet_stdout() -> None:
    """After a broken pipe, point stdout at devnull so the interpreter's final flush does not fail
    again (the Python documentation's recipe, ``signal`` module, "Note on SIGPIPE")."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # stdout is not a real file (e.g. captured by a test)
        pass
    finally:
        os.close(devnull)


if __name__ == "__main__":
    sys.exit(main())
