"""Root pytest configuration.

The normal test run never pays for benchmarks: unless ``--benchmark-only`` is
given, benchmark tests are skipped (pytest-benchmark's ``--benchmark-skip``).
"""


def pytest_configure(config):
    if not config.getoption("benchmark_only", False) and not config.getoption("benchmark_enable", False):
        config.option.benchmark_skip = True
