"""The sanity report as one JSON document (``refbench sanity --format json``), schema
``refbench-sanity/2``::

    {"schema": "refbench-sanity/2",
     "summary": {"figures": N, "tested": T, "untested": U, "verdicts": {...}, "by_source": {...},
                 "lines": [...], "emulation": "...", "power": {...}, "power_lines": [...]},
     "findings": [{"id": "S1", "rule", "verdict", "tests", "scope", "message", "figures": [ids],
                   "sections": [...]}, ...],
     "figures": [{figure fields, "verdict", "tested", "reasons", the emulator rule's fields (with "predicted",
                  "band_low", "band_high", "ratio", "band_terms", "hypotheses"),
                  "findings": ["S1", "F12", ...]}, ...]}

Every finding is listed once with the figures it concerns; every figure lists the ids of its
findings, most severe first (the links both ways)."""

from __future__ import annotations

from typing import Any

from refbench.report.findings import FindingIndex, index_findings, summary_lines, verdict_counts
from refbench.report.power import power, power_lines
from refbench.sanity.emulation import Emulation
from refbench.sanity.emulation import summary as emulation_summary
from refbench.sanity.verdicts import Judgement

SCHEMA = "refbench-sanity/2"


def report_json(judgements: list[Judgement], emulations: dict[str, Emulation],
                index: FindingIndex | None = None) -> dict[str, Any]:
    """The report as a JSON-ready dict (see the module doc)."""
    index = index or index_findings(judgements)
    counts = verdict_counts(judgements)
    by_source = {source: verdict_counts(j for j in judgements if j.figure.source == source)
                 for source in sorted({j.figure.source for j in judgements})}
    figures = []
    for j in judgements:
        e = emulations.get(j.figure.id)
        figures.append({**j.as_json(), **(e.as_json() if e else {}), "findings": index.by_figure.get(j.figure.id, [])})
    chosen = {j.figure.id: emulations[j.figure.id] for j in judgements if j.figure.id in emulations}
    return {
        "schema": SCHEMA,
        "summary": {
            "figures": len(judgements),
            "tested": sum(1 for j in judgements if j.tested),
            "untested": counts["untested"],
            "verdicts": counts,
            "by_source": by_source,
            "lines": summary_lines(judgements),
            "emulation": emulation_summary(chosen),
            "power": power(judgements, emulations),
            "power_lines": power_lines(judgements, emulations),
        },
        "findings": [rf.as_json() for rf in index.findings],
        "figures": figures,
    }
