"""The power of the emulator rule on the built-in pages (issue 27 item 6): the share of emulated figures that
would be flagged (suspicious or inconsistent) if each were printed 0.5, 2 or 5 times its cost, per
algorithm family (:mod:`refbench.sanity.mutation`), from one report's measurements. What
pytest-benchmark times is the re-judging (pure); the table is in ``extra_info`` and printed.

``power_pages`` chooses the figures: the first value (the smoke selection of the normal test run)
is one section, the STM32G071RB page of wolfSSL (17 figures); ``all`` is every built-in figure
(``pytest benchmarks/test_prediction_power.py --benchmark-only -s``: minutes with a warm cache).
"""

from __future__ import annotations

import pytest

from refbench.published.model import load_figures, load_parts
from refbench.sanity import SanityContext, figure_selected, judge
from refbench.sanity.mutation import FACTORS, power_table, table_lines

PAGES = {"G071": {"board": ["G071"]}, "all": {}}


@pytest.mark.parametrize("power_pages", list(PAGES))
def test_prediction_power(benchmark, power_pages: str) -> None:
    figures = load_figures()
    selected = [f.id for f in figures if figure_selected(f, **PAGES[power_pages])]
    report = judge(figures, load_parts(), SanityContext.local(scope=selected))
    table = benchmark(power_table, report.plan, report.measurements, FACTORS, selected)
    lines = table_lines(table)
    benchmark.extra_info["flagged"] = {family: {str(k): list(v) for k, v in row.items()} for family, row in table.items()}
    benchmark.extra_info["lines"] = lines
    print("\n".join(["", f"share flagged if scaled ({power_pages}):", *lines]))
    assert "all" in table and all(n > 0 for _, n in table["all"].values())
