"""Print one figure of a ``refbench sanity --format json`` report: its row, and its verdict and
reasons, or only the reasons of the rules named.

Usage: refbench sanity ... --format json | python docs/examples/show_figure.py FIGURE_ID [RULE ...]

With RULEs (e.g. ``arithmetic-rate board-clock``) only those rules' reasons are printed, without
the figure's verdict: the tutorials show the rules a reader can redo from the page alone, and
leave the verdict, which depends on the timing model, to the reader's own run.
"""

import json
import sys


def figures_of(report):
    """The figure records of a report (a list of figures, or an object with a "figures" list)."""
    return report["figures"] if isinstance(report, dict) else report


def main(figure_id: str, rules: list[str]) -> int:
    report = json.load(sys.stdin)
    for figure in figures_of(report):
        if figure["id"] == figure_id:
            print(f"{figure['id']}: {figure['row']}")
            if not rules:
                print(f"verdict: {figure['verdict']}")
            for reason in figure["reasons"]:
                if not rules or any(reason.startswith(f"[{rule}] ") for rule in rules):
                    print(f"- {reason}")
            return 0
    print(f"show_figure: no figure {figure_id} in the report", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2:]))
