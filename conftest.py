"""Root pytest configuration.

The normal test run runs every benchmark function once, untimed, so that a broken benchmark
fails the tests: unless ``--benchmark-only`` (or ``--benchmark-enable``) is given,
pytest-benchmark is put in its disabled mode (the benchmarked function is called once, nothing is
timed or compared) and, of the benchmark tests, a smoke selection runs: for each test function
and each combination of the parameters that choose *what* is measured (the kernel and its
operation, the host algorithm and implementation), the first case; the parameters that only say
*where* or *how much* (board, size, build, core, accounting) take their first value. The others
are reported as "deselected". ``pytest --benchmark-only`` runs every benchmark, timed, as
pytest-benchmark users expect.
"""


import pytest

#: Benchmark parameters that only choose where or how much a case measures: the smoke selection
#: keeps the first case of each combination of the other parameters.
SMOKE_VARYING: frozenset[str] = frozenset({
    "refbench_board", "refbench_size", "refbench_build",  # board time (refbench.pytest_plugin)
    "host_size",  # host speed
    "core", "accounting",  # emulator speed
    "power_pages",  # prediction power (the built-in pages judged: one section in the smoke run)
})


def _benchmarks_requested(config) -> bool:
    return bool(config.getoption("benchmark_only", False) or config.getoption("benchmark_enable", False))


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config):
    # Tell pytest-benchmark before it configures itself, so that it neither times nor warns
    # ("automatically disabled because xdist plugin is active") in the normal run.
    if not _benchmarks_requested(config):
        config.option.benchmark_disable = True


def _smoke_key(item) -> tuple:
    params = getattr(getattr(item, "callspec", None), "params", {})
    what = tuple(sorted((name, str(value)) for name, value in params.items() if name not in SMOKE_VARYING))
    return (item.path, item.originalname, what)


def pytest_collection_modifyitems(config, items):
    if _benchmarks_requested(config):
        return
    seen: set[tuple] = set()
    kept, dropped = [], []
    for item in items:
        if "benchmark" not in getattr(item, "fixturenames", ()):
            kept.append(item)
            continue
        key = _smoke_key(item)
        (dropped if key in seen else kept).append(item)
        seen.add(key)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept


@pytest.fixture(autouse=True)
def _one_emulator_process(monkeypatch):
    """The emulator rule runs kernels in one process per CPU; under pytest-xdist the test workers already
    use every CPU, so each test runs them in its own process unless it sets REFBENCH_WORKERS."""
    monkeypatch.setenv("REFBENCH_WORKERS", "1")
