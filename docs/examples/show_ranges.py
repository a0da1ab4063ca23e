"""The emulated range of each figure of a ``refbench sanity --format json`` report, per memory
configuration, then its prediction, band and the hypotheses that fit (tutorial "Judge your own
benchmark log").

Usage: refbench sanity ... --format json | python docs/examples/show_ranges.py
"""

import json
import sys

for figure in json.load(sys.stdin)["figures"]:
    print(figure["id"], figure["verdict"])
    for label, (low, high) in (figure.get("emulated_range_by_memory") or {}).items():
        print(f"  {label}: {low:.1f}..{high:.1f} c/B")
    if figure.get("predicted") is not None:
        low, high = figure["band_low"], figure["band_high"]
        band = f"{low:.1f}..{high:.1f}" if low is not None and high is not None else "one-sided"
        print(f"  predicted {figure['predicted']:.1f} c/B, band {band}, ratio {figure['ratio']:.2f}")
    fits = [h for h in figure.get("hypotheses") or [] if h["fits"]]
    for h in fits[:3]:
        print(f"  would fit {h['hypothesis']}: {h['ratio']:.2f}x")
