"""``refbench held-out``: the timing models against whole programs with published board counts."""

from __future__ import annotations

import argparse
import json
import sys

from cortexm_emu.machine_options import add_machine_options
from cortexm_emu.timing import CORES
from cortexm_emu.timing.registry import FETCH_SETTINGS


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "held-out",
        help="model accuracy on whole programs with published board cycle counts (held out from the rules)",
        description=(
            "Build the held-out programs (refbench/heldout/held_out.toml) from their registry packages' "
            "sources (fetched into the cache), run them in the emulator with their outputs checked, and "
            "print published vs emulated cycles outside the hashing functions, then n, mean and max "
            "error per core. Example: refbench held-out --program kyber512"
        ),
    )
    add_machine_options(parser, ("core",), cores=CORES, repeatable=True,
                        helps={"core": f"only these cores ({', '.join(CORES)}); repeatable or comma-separated"})
    parser.add_argument("--program", action="append", help="only this program (repeatable)")
    parser.add_argument("--fetch", choices=list(FETCH_SETTINGS), default="flash",
                        help="the timing model's fetch option (default flash, where the published runs "
                        "executed; ideal: without the flash-fetch rules)")
    parser.add_argument("--json", action="store_true", help="print rows and summary as JSON")
    parser.add_argument("--record", action="store_true",
                        help="write the per-core error to refbench/heldout/held_out_error.json")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from refbench.heldout.runner import (
        HeldOutOutputError,
        HeldOutUnavailable,
        held_out_json,
        load_held_out,
        record_error,
        run_held_out,
        summarize_held_out,
    )

    if args.record and args.fetch != "flash":
        print("refbench held-out: Invalid --record with --fetch ideal: the record is of the published "
              "conditions (--fetch flash)", file=sys.stderr)
        return 2
    filters = [option for option, value in (("--core", args.core), ("--program", args.program)) if value]
    if args.record and filters:
        print(f"refbench held-out: Invalid --record with {' and '.join(filters)}: the record is the error of "
              "the whole set (run --record without filters)", file=sys.stderr)
        return 2
    try:
        results = run_held_out(args.core, args.program, fetch=args.fetch)
    except (ValueError, HeldOutUnavailable, HeldOutOutputError) as exc:
        print(f"refbench held-out: {exc}", file=sys.stderr)
        return 1 if isinstance(exc, HeldOutOutputError) else 2
    if not results:
        rows = load_held_out().rows
        wanted = f" on {', '.join(args.core)}" if args.core else ""
        if args.program:
            wanted += f" of {', '.join(args.program)}"
        with_rows = sorted({r.core for r in rows if not args.program or r.program in args.program})
        print(f"refbench held-out: no held-out rows{wanted}; the cores with rows"
              f"{' of ' + ', '.join(args.program) if args.program else ''}: {', '.join(with_rows)}", file=sys.stderr)
        return 1
    if args.record:
        record_error(results)
    if args.json:
        print(json.dumps(held_out_json(results), indent=2))
        return 0
    print("refbench held-out: published vs emulated cycles outside the hashing functions "
          f"(ideal memory, fetch={args.fetch})")
    header = ("core", "program", "published", "hash %", "published non-hash", "emulated non-hash", "error %")
    rows = [(r.core, f"{r.program} {r.operation}", f"{r.published:,.0f}", f"{r.hash_percent:.1f}",
             f"{r.published_outside_hashing:,.0f}", f"{r.emulated_outside_hashing:,}", f"{r.error_percent:+.1f}")
            for r in results]
    widths = [max(len(str(x)) for x in column) for column in zip(header, *rows)]
    for line in (header, *rows):
        print("  ".join(str(x).ljust(w) if i < 2 else str(x).rjust(w) for i, (x, w) in enumerate(zip(line, widths))))
    for s in summarize_held_out(results):
        print(f"{s.core}: n={s.n} mean error {s.mean_error:+.1f} % mean |error| {s.mean_abs_error:.1f} % "
              f"max |error| {s.max_abs_error:.1f} %")
    return 0
