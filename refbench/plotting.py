"""Curves of measured kernels: cycles per byte against message size (``refbench cycles --plot``).

One line per kernel/variant, operation and target (core or board), so a learner sees where the
padding, the block boundaries and the per-call overhead bend the curve. Drawn with matplotlib's
Agg backend (no display needed); the file type follows the extension (``.png``, ``.svg``, ``.pdf``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover - typing only
    from refbench.measure import Measurement

PLOT_SUFFIXES = (".png", ".svg", ".pdf")


def check_plot_path(path: str | Path) -> Path:
    """The plot's path, or a ValueError naming the file when its type cannot be written."""
    path = Path(path)
    if path.suffix.lower() not in PLOT_SUFFIXES:
        raise ValueError(f"Invalid --plot ({str(path)!r}): the file type comes from the extension; "
                         f"accepted: {', '.join(PLOT_SUFFIXES)}")
    if not path.parent.exists():
        raise ValueError(f"Invalid --plot ({str(path)!r}): the folder {str(path.parent)!r} does not exist")
    return path


def series_label(m: Measurement) -> str:
    """The legend entry of a measurement's curve."""
    target = f"{m.board} ({m.core})" if m.board else m.core
    return f"{m.kernel}/{m.variant} {m.operation}, {target}"


def curves(measurements: Iterable[Measurement]) -> dict[str, list[tuple[int, float]]]:
    """Per legend entry, the (size, cycles per byte) points of the verified runs, by size."""
    out: dict[str, list[tuple[int, float]]] = defaultdict(list)
    for m in measurements:
        cpb = m.cycles_per_byte
        if cpb is None or not m.verified:
            continue
        out[series_label(m)].append((m.size, cpb))
    return {label: sorted(points) for label, points in out.items()}


def plot_cycles_per_byte(measurements: Iterable[Measurement], path: str | Path, title: str = "") -> int:
    """Draw cycles/byte against size for every curve and write ``path``; returns the number of curves."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot as plt

    path = check_plot_path(path)
    lines = curves(measurements)
    if not lines:
        raise ValueError("nothing to plot: no verified measurement with a size above 0")
    fig, ax = plt.subplots(figsize=(8, 4.8))
    for label, points in lines.items():
        sizes, values = zip(*points)
        ax.plot(sizes, values, marker="o", markersize=3, linewidth=1.2, label=label)
    all_sizes = [size for points in lines.values() for size, _ in points]
    all_values = [value for points in lines.values() for _, value in points]
    # Logarithmic axes only where the data spans enough of them to need it (16x in size, 10x in cost).
    if max(all_sizes) >= 16 * min(all_sizes):
        ax.set_xscale("log", base=2)
    if max(all_values) >= 10 * min(all_values):
        ax.set_yscale("log")
    ax.set_xlabel("message size (bytes)")
    ax.set_ylabel("cycles per byte")
    ax.set_title(title or "refbench cycles")
    ax.grid(True, which="both", linewidth=0.3)
    ax.legend(fontsize=7)
    fig.tight_layout()
    # A fixed creation date and no software tag keep the file the same for the same numbers.
    metadata = {"Software": None} if path.suffix.lower() == ".png" else {"Date": None}
    fig.savefig(path, metadata=metadata)
    plt.close(fig)
    return len(lines)
