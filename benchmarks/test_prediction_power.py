"""The power of the emulator rule on the built-in pages (issue 27 item 6): the share of emulated figures that
would be flagged (suspicious or inconsistent) if each were printed 0.5, 2 or 5 times its cost, per
algorithm family (:mod:`refbench.sanity.mutation`), from one report's measurements. What
pytest-benchmark times is the re-judging (pure); the table, per family and per source (seed file and
library), is in ``extra_info``, printed (even under capture) and saved as JSON in the test's tmp_path.

``power_pages`` chooses the figures: the first value (the smoke selection of the normal test run)
is one section, the STM32G071RB page of wolfSSL (17 figures); ``all`` is every built-in figure
(``pytest benchmarks/test_prediction_power.py --benchmark-only``: minutes with a warm cache).
"""

from __future__ import annotations

import json

import pytest

from refbench.published.model import load_figures, load_parts
from refbench.sanity import SanityContext, figure_selected, judge
from refbench.sanity.mutation import FACTORS, power_hits, source, table_lines, tabulate

PAGES = {"G071": {"board": ["G071"]}, "all": {}}


@pytest.mark.parametrize("power_pages", list(PAGES))
def test_prediction_power(benchmark, power_pages: str, capsys, tmp_path) -> None:
    figures = load_figures()
    selected = [f.id for f in figures if figure_selected(f, **PAGES[power_pages])]
    report = judge(figures, load_parts(), SanityContext.local(scope=selected))
    hits = benchmark(power_hits, report.plan, report.measurements, FACTORS, selected)
    table, by_source = tabulate(hits, FACTORS), tabulate(hits, FACTORS, group=source)
    saved = {name: {family: {str(k): list(v) for k, v in row.items()} for family, row in t.items()}
             for name, t in (("flagged", table), ("flagged_by_source", by_source))}
    benchmark.extra_info.update(saved)
    lines = table_lines(table)
    benchmark.extra_info["lines"] = lines
    path = tmp_path / f"prediction_power_{power_pages}.json"
    path.write_text(json.dumps(saved, indent=1))
    with capsys.disabled():  # the table is the result: printed whether or not pytest captures output
        print("\n".join(["", f"share flagged if scaled ({power_pages}), per algorithm family:", *lines,
                         "per source:", *table_lines(by_source), f"(saved: {path})"]))
    assert "all" in table and all(n > 0 for _, n in table["all"].values())
