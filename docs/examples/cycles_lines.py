"""One line per measurement of ``refbench cycles --json``: board or core, variant, memory, cycles/byte.

Usage: refbench cycles ... --json | python docs/examples/cycles_lines.py
"""

import json
import sys

for m in json.load(sys.stdin):
    where = m["board"] or m["core"]
    cpb = m["cycles_per_byte"]
    shown = f"{cpb:8.1f} cycles/byte" if cpb is not None else f"  not run: {m['error']}"
    print(f"{where:<12} {m['kernel']}/{m['variant']:<10} {m['memory']:<70} {shown}")
