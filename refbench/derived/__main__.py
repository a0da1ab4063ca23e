"""``python -m refbench.derived``: measure again the derived data whose key no longer holds and
rewrite it (``--check``: only say what is stale, exit 1 if anything is)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable

from refbench.derived import stale
from refbench.sanity import compiler_band, model_spread, pubkey_whole


def incomplete(planned: set[str], present: Iterable[str]) -> list[str]:
    """What a file lacks of its planned entries (a run stopped before it wrote them all keeps a key that
    holds for what it wrote): one line, empty when nothing is missing."""
    missing = sorted(planned - set(present))
    return [f"incomplete: {len(missing)} of {len(planned)} planned entries missing (first: {missing[0]})"] if missing else []


def stale_files() -> dict[str, list[str]]:
    """Each derived file with what differs between its key and the current one, and the planned entries
    it lacks (empty: current)."""
    bands = compiler_band.load_bands()
    checks = pubkey_whole.recorded()
    spreads = model_spread.load_spreads()
    return {
        compiler_band.BANDS_PATH.name: stale(compiler_band.stored_key(), compiler_band.key_of_cycles(bands))
        + incomplete({compiler_band.entry_name(*t[:4]) for t in compiler_band.planned_targets()}, bands),
        pubkey_whole.RECORD_PATH.name: stale(pubkey_whole.stored_key(), pubkey_whole.key_of_checks(checks)),
        model_spread.SPREADS_PATH.name: stale(model_spread.stored_key(), model_spread.key_of_spreads(spreads))
        + incomplete({compiler_band.entry_name(*t[:4]) for t in model_spread.planned_targets()}, spreads),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m refbench.derived", description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only list what is stale; exit 1 if anything is")
    args = parser.parse_args(argv)
    report = stale_files()
    for name, parts in report.items():
        print(f"{name}: " + ("current" if not parts else "stale: " + "; ".join(parts)))
    if args.check:
        return 1 if any(report.values()) else 0
    if report[compiler_band.BANDS_PATH.name]:
        compiler_band.main()
    if report[pubkey_whole.RECORD_PATH.name]:
        pubkey_whole.main(["--record"])
    if report[model_spread.SPREADS_PATH.name]:
        model_spread.main([])
    return 0


if __name__ == "__main__":
    sys.exit(main())
