"""The emulated range of each figure of a ``refbench sanity --format json`` report, per memory
configuration, and the nearest variant (tutorial "Judge your own benchmark log").

Usage: refbench sanity ... --format json | python docs/examples/show_ranges.py
"""

import json
import sys

for figure in json.load(sys.stdin)["figures"]:
    print(figure["id"], figure["verdict"])
    for label, (low, high) in (figure.get("emulated_range_by_memory") or {}).items():
        print(f"  {label}: {low:.1f}..{high:.1f} c/B")
    print(f"  nearest: {figure.get('explanation') or 'none'}")
