"""``python -m refbench.derived``: measure again the derived data whose key no longer holds and
rewrite it (``--check``: only say what is stale, exit 1 if anything is)."""

from __future__ import annotations

import argparse
import sys

from refbench.derived import stale
from refbench.sanity import compiler_band, model_spread, pubkey_whole


def stale_files() -> dict[str, list[str]]:
    """Each derived file with what differs between its key and the current one (empty: current)."""
    bands = compiler_band.load_bands()
    checks = pubkey_whole.recorded()
    return {
        compiler_band.BANDS_PATH.name: stale(compiler_band.stored_key(), compiler_band.key_of_cycles(bands)),
        pubkey_whole.RECORD_PATH.name: stale(pubkey_whole.stored_key(), pubkey_whole.key_of_checks(checks)),
        model_spread.SPREADS_PATH.name: stale(model_spread.stored_key(),
                                              model_spread.key_of_spreads(model_spread.load_spreads())),
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
