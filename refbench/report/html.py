"""The self-contained HTML sanity report: verdict table and plots (matplotlib, embedded as base64 PNG).

Plots:

1. *Published against emulated cycles per byte*, one panel per board: each emulated figure is
   a point at (emulated nearest variant, published) with the emulated range as a horizontal
   bar; the diagonal is "published = emulated". Points far above the diagonal are slower than
   any variant, points left of the bar's start are faster than any.
2. *Per-cycle efficiency across boards*: published cycles per byte of every software figure of
   one library that appears on two or more boards, one marker per board, so a board that
   needs many more cycles for the same work stands out.

Nothing here computes a number shown to the reader: the values come from the judgements
(:mod:`refbench.sanity`) and rule e's emulations (:mod:`refbench.sanity.emulated`).
"""

from __future__ import annotations

import base64
import html
import io
from collections import defaultdict
from datetime import UTC, datetime

from refbench.measure import commit_info
from refbench.sanity import VERDICTS, Judgement
from refbench.sanity.emulated import MEMORY_NOTE, Emulation, summary

STYLE = (
    "<style>body{font-family:sans-serif;margin:1.5em;font-size:13px}"
    "table{border-collapse:collapse;width:100%}td,th{border:1px solid #ccc;padding:3px 5px;vertical-align:top}"
    "th{background:#eee;position:sticky;top:0}td.n{text-align:right;white-space:nowrap}"
    ".v{color:white;font-weight:bold;text-align:center}img{max-width:100%}small{color:#555}</style>"
)
VERDICT_COLOURS = {"consistent": "#2e7d32", "explained": "#00838f", "suspicious": "#f9a825", "inconsistent": "#c62828"}


def _fmt(value: float | None) -> str:
    if value is None:
        return "-"
    return f"{value:.3g}" if value < 100 else f"{value:,.0f}"


def _png(figure) -> str:
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=80)
    return base64.b64encode(buffer.getvalue()).decode("ascii")


def _no_minor_labels(ax) -> None:
    from matplotlib.ticker import NullFormatter

    ax.xaxis.set_minor_formatter(NullFormatter())
    ax.yaxis.set_minor_formatter(NullFormatter())


def plot_published_vs_emulated(judgements: list[Judgement], emulations: dict[str, Emulation]) -> str | None:
    """Base64 PNG of plot 1, or None when no figure was emulated."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    by_board: dict[str, list[tuple[Judgement, Emulation]]] = defaultdict(list)
    for j in judgements:
        e = emulations.get(j.figure.id)
        if e is not None and e.status == "emulated" and e.published is not None:
            by_board[f"{j.figure.part} ({e.core}, {j.figure.library})"].append((j, e))
    if not by_board:
        return None
    panels = sorted(by_board)
    columns = min(3, len(panels))
    rows = -(-len(panels) // columns)
    fig, axes = plt.subplots(rows, columns, figsize=(5.2 * columns, 4.6 * rows), squeeze=False)
    for ax, board in zip(axes.flat, panels):
        items = by_board[board]
        algorithms = sorted({j.figure.algorithm.split("-")[0] for j, _ in items})
        colours = {a: plt.cm.tab10(i % 10) for i, a in enumerate(algorithms)}
        low, high = float("inf"), 0.0
        for algorithm in algorithms:
            xs, ys, below, above = [], [], [], []
            for j, e in items:
                if j.figure.algorithm.split("-")[0] != algorithm:
                    continue
                nearest = min(e.variants, key=lambda v: abs((v.cycles_per_byte or 1e30) - e.published))
                x = nearest.cycles_per_byte
                xs.append(x)
                ys.append(e.published)
                below.append(x - e.emulated_min)
                above.append(e.emulated_max - x)
                low = min(low, e.emulated_min, e.published)
                high = max(high, e.emulated_max, e.published)
            ax.errorbar(xs, ys, xerr=[below, above], fmt="o", color=colours[algorithm], ms=4, alpha=0.8,
                        elinewidth=1, label=algorithm)
        ax.plot([low / 1.5, high * 1.5], [low / 1.5, high * 1.5], color="grey", lw=1, ls="--")
        ax.set_xscale("log")
        ax.set_yscale("log")
        _no_minor_labels(ax)
        ax.set_title(board, fontsize=9)
        ax.set_xlabel("emulated cycles/byte (nearest variant; bar = range)", fontsize=8)
        ax.set_ylabel("published cycles/byte", fontsize=8)
        ax.legend(fontsize=7, loc="upper left")
    for ax in list(axes.flat)[len(panels):]:
        ax.set_visible(False)
    fig.suptitle(f"Published against emulated cycles per byte ({MEMORY_NOTE})", fontsize=11)
    fig.tight_layout()
    data = _png(fig)
    plt.close(fig)
    return data


def plot_cross_board(judgements: list[Judgement]) -> str | None:
    """Base64 PNG of plot 2, or None when no software figure appears on two boards."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    values: dict[tuple[str, str], dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for j in judgements:
        f = j.figure
        if f.implementation != "software" or j.normalised.cycles_per_byte is None or f.metric != "throughput":
            continue
        values[(f.library, f"{f.algorithm} {f.operation}")][f.part].append(j.normalised.cycles_per_byte)
    shared = {key: boards for key, boards in values.items() if len(boards) >= 2}
    if not shared:
        return None
    libraries = sorted({library for library, _ in shared})
    fig, axes = plt.subplots(len(libraries), 1, figsize=(13, 4.2 * len(libraries)), squeeze=False)
    for ax, library in zip(axes.flat, libraries):
        keys = sorted(k for k in shared if k[0] == library)
        parts = sorted({p for k in keys for p in shared[k]})
        markers = "osD^v<>phX*"
        for index, part in enumerate(parts):
            xs, ys = [], []
            for position, key in enumerate(keys):
                for value in shared[key].get(part, []):
                    xs.append(position + (index - len(parts) / 2) * 0.06)
                    ys.append(value)
            ax.scatter(xs, ys, s=16, marker=markers[index % len(markers)], label=part, alpha=0.8)
        ax.set_xticks(range(len(keys)))
        ax.set_xticklabels([k[1] for k in keys], rotation=60, ha="right", fontsize=7)
        ax.set_yscale("log")
        _no_minor_labels(ax)
        ax.set_ylabel("published cycles/byte", fontsize=8)
        ax.set_title(f"{library}: the same work across boards (lower is fewer cycles per byte)", fontsize=9)
        ax.legend(fontsize=7, ncol=4)
    fig.tight_layout()
    data = _png(fig)
    plt.close(fig)
    return data


def _counts(judgements: list[Judgement]) -> str:
    total = {v: sum(1 for j in judgements if j.verdict == v) for v in VERDICTS}
    return f"{len(judgements)} figures: " + ", ".join(f"{v} {n}" for v, n in total.items())


def render_html(judgements: list[Judgement], emulations: dict[str, Emulation],
                summary_lines: list[str] | None = None) -> str:
    """The whole report as one HTML document (no external files, scripts or fonts)."""
    commit = commit_info().get("commit") or "unknown"
    created = datetime.now(UTC).isoformat(timespec="seconds")
    plots = [
        ("Published against emulated cycles per byte, per board and algorithm",
         plot_published_vs_emulated(judgements, emulations)),
        ("Per-cycle efficiency across boards", plot_cross_board(judgements)),
    ]
    out = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8"><title>refbench sanity report</title>',
        STYLE,
        "</head><body>",
        "<h1>refbench sanity report</h1>",
        (f"<p><small>commit {html.escape(commit)}, generated {created}; {html.escape(MEMORY_NOTE)}; "
         "emulated values are cycles per byte of this project's C kernels in the Cortex-M emulator.</small></p>"),
        "<h2>Summary</h2><ul>",
    ]
    lines = list(summary_lines or []) + [_counts(judgements), summary(emulations)]
    out += [f"<li>{html.escape(line)}</li>" for line in dict.fromkeys(lines)]
    out.append("</ul>")
    for title, data in plots:
        out.append(f"<h2>{html.escape(title)}</h2>")
        if data:
            out.append(f'<img alt="{html.escape(title)}" src="data:image/png;base64,{data}">')
        else:
            out.append("<p>No data for this plot in the selection.</p>")
    out += [
        "<h2>Verdicts</h2>",
        ("<table><thead><tr><th>figure</th><th>published</th><th>normalised c/B</th><th>emulated c/B</th>"
         "<th>explanation</th><th>residual</th><th>verdict</th><th>reasons</th></tr></thead><tbody>"),
    ]
    for j in judgements:
        f = j.figure
        e = emulations.get(f.id)
        emulated = f"{_fmt(e.emulated_min)} .. {_fmt(e.emulated_max)}" if e and e.emulated_min is not None else "-"
        explanation = e.explanation if e else ""
        residual = f"{e.residual:+.1%}" if e and e.residual is not None else "-"
        colour = VERDICT_COLOURS[j.verdict]
        reasons = "<br>".join(html.escape(r) for r in j.reasons)
        out.append(
            f"<tr><td>{html.escape(f.id + ' ' + f.describe())}</td>"
            f'<td class="n">{html.escape(f.text + " " + f.unit)}</td>'
            f'<td class="n">{_fmt(j.normalised.cycles_per_byte)}</td><td class="n">{emulated}</td>'
            f"<td>{html.escape(explanation)}</td><td class=\"n\">{residual}</td>"
            f'<td class="v" style="background:{colour}">{j.verdict}</td><td><small>{reasons}</small></td></tr>'
        )
    out += ["</tbody></table>", "</body></html>", ""]
    return "\n".join(out)
