"""Root pytest configuration.

The normal test run never pays for benchmarks: unless ``--benchmark-only`` (or
``--benchmark-enable``) is given, tests that use pytest-benchmark's
``benchmark`` fixture are deselected (reported as "deselected", not skipped).
``pytest --benchmark-only`` runs exactly those tests, as pytest-benchmark users expect.
"""


import pytest


def _benchmarks_requested(config) -> bool:
    return bool(config.getoption("benchmark_only", False) or config.getoption("benchmark_enable", False))


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config):
    # Tell pytest-benchmark before it configures itself, so that it neither times nor warns
    # ("automatically disabled because xdist plugin is active") in the normal run.
    if not _benchmarks_requested(config):
        config.option.benchmark_skip = True


def pytest_collection_modifyitems(config, items):
    if _benchmarks_requested(config):
        return
    benchmarks = [item for item in items if "benchmark" in getattr(item, "fixturenames", ())]
    if benchmarks:
        config.hook.pytest_deselected(items=benchmarks)
        items[:] = [item for item in items if "benchmark" not in getattr(item, "fixturenames", ())]


@pytest.fixture(autouse=True)
def _one_emulator_process(monkeypatch):
    """Rule e runs kernels in one process per CPU; under pytest-xdist the test workers already
    use every CPU, so each test runs them in its own process unless it sets REFBENCH_WORKERS."""
    monkeypatch.setenv("REFBENCH_WORKERS", "1")
