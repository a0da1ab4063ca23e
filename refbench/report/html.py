"""The self-contained HTML sanity report: verdict table and plots (matplotlib, embedded as base64 PNG).

Plots:

1. *Published against emulated cycles per byte*, one panel per board: each emulated figure is
   a point at (emulated nearest variant and configuration, published), and the emulated range
   of each memory configuration (caches/ART on, off, code in SRAM; min..max over the kernel
   variants) is a horizontal bar in that configuration's colour at the figure's height (the
   bars of one figure are drawn a little apart so they stay visible); the diagonal is
   "published = emulated". Points above the diagonal and right of every bar are slower than
   any variant in any configuration, points left of every bar are faster than any.
2. *Per-cycle efficiency across boards*: published cycles per byte of every software figure of
   one library that appears on two or more boards, one marker per board, so a board that
   needs many more cycles for the same work stands out.

The page opens with the verdict counts (``untested`` apart), the section findings that matter
(each once, with its figures) and the figure findings by rule; then the plots; then the table,
which a reader filters by verdict, board, source and library (a few lines of plain JavaScript in
the page, nothing loaded from elsewhere). A section finding is referred to by its id in the rows.

Nothing here computes a number shown to the reader: the values come from the judgements
(:mod:`refbench.sanity`) and the emulator rule's emulations (:mod:`refbench.sanity.emulation`).
"""

from __future__ import annotations

import base64
import html
import io
from collections import defaultdict
from datetime import UTC, datetime

from refbench.measure import commit_info
from refbench.report.findings import (
    FindingIndex,
    figure_tally,
    headline,
    index_findings,
    summary_lines,
)
from refbench.report.text import figure_reasons
from refbench.sanity import VERDICTS, Judgement
from refbench.sanity.emulation import Emulation, summary
from refbench.sanity.memory_configs import MEMORY_NOTE

STYLE = (
    "<style>body{font-family:sans-serif;margin:1.5em;font-size:13px}"
    "table{border-collapse:collapse;width:100%}td,th{border:1px solid #ccc;padding:3px 5px;vertical-align:top}"
    "th{background:#eee;position:sticky;top:0}td.n{text-align:right;white-space:nowrap}"
    ".v{color:white;font-weight:bold;text-align:center}img{max-width:100%}small{color:#555}"
    "#filters label{margin-right:1em}#filters select{max-width:22em}</style>"
)
#: One colour per memory configuration kind (refbench.sanity.memory_configs.ConfigKind) in plot 1,
#: in plotting order.
CONFIG_COLOURS = {"cache on": "#1565c0", "cache on, prefetch off": "#00838f", "prefetch only": "#ef6c00",
                  "cache off": "#c62828", "tables in SRAM": "#8d6e63", "code in SRAM": "#2e7d32", "flash": "#6a1b9a"}
VERDICT_COLOURS = {"untested": "#757575", "consistent": "#2e7d32", "explained": "#00838f", "suspicious": "#f9a825", "inconsistent": "#c62828"}


#: The table's filters: (label, the row attribute they match).
FILTERS = (("verdict", "verdict"), ("board", "board"), ("source", "source"), ("library", "library"))
#: Shows the rows whose attributes match every filter (an empty choice matches all); plain JavaScript.
FILTER_SCRIPT = """<script>
function refbenchFilter() {
  var chosen = {};
  document.querySelectorAll('#filters select').forEach(function (s) { chosen[s.name] = s.value; });
  var shown = 0;
  document.querySelectorAll('#verdicts tbody tr').forEach(function (row) {
    var keep = Object.keys(chosen).every(function (k) { return !chosen[k] || row.dataset[k] === chosen[k]; });
    row.style.display = keep ? '' : 'none';
    if (keep) { shown += 1; }
  });
  document.getElementById('shown').textContent = shown;
}
document.querySelectorAll('#filters select').forEach(function (s) { s.addEventListener('change', refbenchFilter); });
</script>"""


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
        if e is not None and e.status == "emulated" and e.published is not None and e.unit == "c/B":
            by_board[f"{j.figure.part} ({e.core}, {j.figure.library})"].append((j, e))
    if not by_board:
        return None
    panels = sorted(by_board)
    columns = min(3, len(panels))
    rows = -(-len(panels) // columns)
    fig, axes = plt.subplots(rows, columns, figsize=(5.2 * columns, 4.6 * rows), squeeze=False)
    kinds = list(CONFIG_COLOURS)
    for ax, board in zip(axes.flat, panels):
        items = by_board[board]
        algorithms = sorted({j.figure.algorithm.split("-")[0] for j, _ in items})
        markers = {a: "osD^v<>phX*"[i % 11] for i, a in enumerate(algorithms)}
        low, high = float("inf"), 0.0
        drawn: set[str] = set()
        for j, e in items:
            kind_of = {c.label: c.kind for c in e.configs}
            for label, (lo, hi) in e.by_config().items():
                kind = kind_of.get(label, "flash")
                y = e.published * 1.03 ** (kinds.index(kind) - len(kinds) // 2)
                ax.plot([lo, hi], [y, y], color=CONFIG_COLOURS[kind], lw=2, alpha=0.55, marker="|", ms=6,
                        label=None if kind in drawn else kind)
                drawn.add(kind)
                low, high = min(low, lo), max(high, hi)
            nearest = min((v for v in e.variants if v.verified and v.cycles_per_byte),
                          key=lambda v: abs((v.cycles_per_byte or 1e30) - (e.published or 0.0)))
            ax.plot([nearest.cycles_per_byte], [e.published], markers[j.figure.algorithm.split("-")[0]],
                    color="black", ms=4, alpha=0.8)
            low, high = min(low, e.published), max(high, e.published)
        for algorithm in algorithms:
            ax.plot([], [], markers[algorithm], color="black", ms=4, label=algorithm)
        ax.plot([low / 1.5, high * 1.5], [low / 1.5, high * 1.5], color="grey", lw=1, ls="--")
        ax.set_xscale("log")
        ax.set_yscale("log")
        _no_minor_labels(ax)
        ax.set_title(board, fontsize=9)
        ax.set_xlabel("emulated c/B (marker: nearest; bars: range per memory configuration)", fontsize=7)
        ax.set_ylabel("published cycles/byte", fontsize=8)
        ax.legend(fontsize=6, loc="upper left")
    for ax in list(axes.flat)[len(panels):]:
        ax.set_visible(False)
    fig.suptitle("Published against emulated cycles per byte, per board memory configuration", fontsize=11)
    fig.tight_layout(rect=(0, 0, 1, 1 - 0.35 / (4.6 * rows)))  # leave the suptitle its own line
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


def _row_attributes(j: Judgement) -> dict[str, str]:
    f = j.figure
    return {"verdict": j.verdict, "board": f.part, "source": f.source, "library": f.library}


def _filters(judgements: list[Judgement]) -> list[str]:
    out = ['<p id="filters">']
    for label, key in FILTERS:
        values = sorted({_row_attributes(j)[key] for j in judgements}, key=lambda v: (
            VERDICTS.index(v) if key == "verdict" and v in VERDICTS else 99, v))
        options = "".join(f'<option value="{html.escape(v)}">{html.escape(v)}</option>' for v in values)
        out.append(f'<label>{label} <select name="{key}"><option value="">all</option>{options}</select></label>')
    out.append(f'<span>showing <b id="shown">{len(judgements)}</b> of {len(judgements)} figures</span></p>')
    return out


def render_html(judgements: list[Judgement], emulations: dict[str, Emulation],
                summary_lines_: list[str] | None = None, index: FindingIndex | None = None) -> str:
    """The whole report as one HTML document (no external files, scripts or fonts)."""
    index = index or index_findings(judgements)
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
         "emulated values are cycles per byte of this project's C kernels in the Cortex-M emulator; "
         "<i>untested</i>: no rule tested the figure's value (never counted as consistent).</small></p>"),
        "<h2>Summary</h2><ul>",
    ]
    lines = list(summary_lines_ or summary_lines(judgements)) + [summary({j.figure.id: emulations[j.figure.id]
                                                                         for j in judgements
                                                                         if j.figure.id in emulations})]
    out += [f"<li>{html.escape(line)}</li>" for line in dict.fromkeys(lines)]
    out.append("</ul>")
    matter = headline(index)
    out.append(f"<h2>Section findings that matter ({len(matter)})</h2>")
    if matter:
        out.append("<ul>")
        for rf in matter:
            colour = VERDICT_COLOURS[rf.verdict]
            out.append(f'<li id="{rf.id}"><b>{rf.id}</b> [{html.escape(rf.rule)}] '
                       f'<span style="color:{colour};font-weight:bold">{rf.verdict}</span>, {len(rf.figures)} figures '
                       f"({html.escape(', '.join(rf.figures))}) of {html.escape('; '.join(rf.sections))}: "
                       f"{html.escape(rf.finding.message)}</li>")
        out.append("</ul>")
    else:
        out.append("<p>None.</p>")
    tally = figure_tally(index)
    out.append("<h2>Figure findings that are not consistent, by rule</h2>")
    out.append("<ul>" + "".join(f"<li>{html.escape(t)}</li>" for t in tally) + "</ul>" if tally else "<p>None.</p>")
    for title, data in plots:
        out.append(f"<h2>{html.escape(title)}</h2>")
        if data:
            out.append(f'<img alt="{html.escape(title)}" src="data:image/png;base64,{data}">')
        else:
            out.append("<p>No data for this plot in the selection.</p>")
    out += ["<h2>Verdicts</h2>", *_filters(judgements),
            ('<table id="verdicts"><thead><tr><th>figure</th><th>published</th><th>normalised c/B</th>'
             "<th>emulated c/B</th><th>explanation</th><th>residual</th><th>verdict</th><th>reasons</th></tr></thead>"
             "<tbody>")]
    for j in judgements:
        f = j.figure
        e = emulations.get(f.id)
        if e and e.emulated_min is not None:
            unit = "" if e.unit == "c/B" else f" {e.unit} per call"
            emulated = f"{_fmt(e.emulated_min)} .. {_fmt(e.emulated_max)}{unit}<br><small>" + "<br>".join(
                f"{html.escape(label)}: {_fmt(lo)} .. {_fmt(hi)}" for label, (lo, hi) in e.by_config().items()
            ) + "</small>"
        else:
            emulated = "-"
        explanation = e.explanation if e else ""
        residual = f"{e.residual:+.1%}" if e and e.residual is not None else "-"
        colour = VERDICT_COLOURS[j.verdict]
        reasons = "<br>".join(html.escape(r) for r in figure_reasons(j, index))
        attributes = " ".join(f'data-{k}="{html.escape(v)}"' for k, v in _row_attributes(j).items())
        out.append(
            f"<tr {attributes}><td>{html.escape(f.id + ' ' + f.describe())}</td>"
            f'<td class="n">{html.escape(f.text + " " + f.unit)}</td>'
            f'<td class="n">{_fmt(j.normalised.cycles_per_byte)}</td><td class="n">{emulated}</td>'
            f"<td>{html.escape(explanation)}</td><td class=\"n\">{residual}</td>"
            f'<td class="v" style="background:{colour}">{j.verdict}</td><td><small>{reasons}</small></td></tr>'
        )
    out += ["</tbody></table>", FILTER_SCRIPT, "</body></html>", ""]
    return "\n".join(out)
