"""Print one figure of a ``refbench sanity --format json`` report: its row, verdict and reasons.

Usage: refbench sanity ... --format json | python docs/examples/show_figure.py FIGURE_ID
"""

import json
import sys


def figures_of(report):
    """The figure records of a report (a list of figures, or an object with a "figures" list)."""
    return report["figures"] if isinstance(report, dict) else report


def main(figure_id: str) -> int:
    report = json.load(sys.stdin)
    for figure in figures_of(report):
        if figure["id"] == figure_id:
            print(f"{figure['id']}: {figure['row']}")
            print(f"verdict: {figure['verdict']}")
            for reason in figure["reasons"]:
                print(f"- {reason}")
            return 0
    print(f"show_figure: no figure {figure_id} in the report", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
