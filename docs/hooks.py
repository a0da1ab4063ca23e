"""MkDocs hook: draw the tutorials' plots when the site builds, from the commands the pages show.

Every ``$ refbench cycles ... --plot docs/generated/NAME.png`` line of a ``console`` block is run
before the build (results come from the refbench cache after the first time), so the pictures
on the site are always those of the current models, never committed images.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PLOT_COMMAND = re.compile(r"^\s*\$ (refbench cycles .*--plot (docs/generated/\S+))", re.M)


def plot_commands() -> list[tuple[str, str]]:
    found = []
    for page in sorted((ROOT / "docs").rglob("*.md")):
        found += PLOT_COMMAND.findall(page.read_text(encoding="utf-8"))
    return found


def on_pre_build(config, **kwargs) -> None:
    (ROOT / "docs" / "generated").mkdir(exist_ok=True)
    for command, target in plot_commands():
        done = subprocess.run(["bash", "-c", command + " > /dev/null"], cwd=ROOT, capture_output=True, text=True)
        if done.returncode != 0 or not (ROOT / target).exists():
            raise RuntimeError(f"docs plot command failed ({done.returncode}): {command}\n{done.stderr}")
