"""Every vector suite of ``refbench verify`` runs here too, one test per suite."""

import pytest

from refbench.verification import all_suites, run_suite

SUITES = all_suites()


@pytest.mark.parametrize(
    "suite",
    [pytest.param(s, id=s.name, marks=[pytest.mark.slow] if s.slow else []) for s in SUITES],
)
def test_official_vectors(suite):
    report = run_suite(suite)
    shown = "\n".join(f"{o.label}: {o.detail}" for o in report.failures[:20])
    assert report.failed == 0, f"{report.failed} of {report.vectors} vectors failed:\n{shown}"
    assert report.vectors > 0
