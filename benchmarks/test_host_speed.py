"""Host speed of the pure-Python references beside `cryptography` (OpenSSL) and `pycryptodome`.

One group per algorithm and size (``host: AES-128-GCM 1024 B``), so the table shows how far a
teaching implementation is from the libraries. Every implementation must first give the same
bytes as the others on the same inputs. Times are host wall-clock times (pytest-benchmark's
default timer and calibration). Parameters ``host_algorithm``, ``host_implementation`` and
``host_size`` work with ``--benchmark-group-by param:host_implementation`` etc.
"""

from __future__ import annotations

import importlib.metadata

import pytest
from host_algorithms import ALL, DEFAULT, FIXED, FIXED_MESSAGE_BYTES, SIZED, inputs_for

from refbench.pytest_plugin.options import DEFAULT_HOST_SIZES
from refbench.pytest_plugin.selection import selected_sizes

DISTRIBUTIONS = {"refbench": "refbench", "cryptography": "cryptography", "pycryptodome": "pycryptodome"}


def _selected(config: pytest.Config) -> list[str]:
    given = config.getoption("refbench_algorithm")
    if not given:
        return list(ALL) if config.getoption("refbench_full") else list(DEFAULT)
    unknown = [name for name in given if name not in ALL]
    if unknown:
        raise pytest.UsageError(
            f"Invalid --refbench-algorithm {', '.join(map(repr, unknown))}; valid: {', '.join(ALL)}"
        )
    return list(dict.fromkeys(given))


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "host_algorithm" not in metafunc.fixturenames:
        return
    sizes = selected_sizes(metafunc.config, DEFAULT_HOST_SIZES)
    cases = []
    for name in _selected(metafunc.config):
        table, name_sizes = (SIZED, sizes) if name in SIZED else (FIXED, (FIXED_MESSAGE_BYTES,))
        for size in name_sizes:
            for implementation in table[name].implementations:
                cases.append(pytest.param(name, implementation, size, id=f"{name}-{implementation}-{size}B"))
    metafunc.parametrize(("host_algorithm", "host_implementation", "host_size"), cases)


def test_host(benchmark, host_algorithm: str, host_implementation: str, host_size: int) -> None:
    algorithm = SIZED.get(host_algorithm) or FIXED[host_algorithm]
    inputs = inputs_for(host_size)
    outputs = {impl: make(inputs) for impl, make in algorithm.implementations.items()}
    assert len(set(outputs.values())) == 1, f"{host_algorithm}: implementations disagree: {outputs}"
    benchmark.group = f"host: {host_algorithm} {host_size} B"
    benchmark.extra_info.update(
        {
            "kind": "host",
            "algorithm": host_algorithm,
            "implementation": host_implementation,
            "version": importlib.metadata.version(DISTRIBUTIONS[host_implementation]),
            "size_bytes": host_size,
            "time_source": "host wall clock (pytest-benchmark timer)",
        }
    )
    result = benchmark(algorithm.implementations[host_implementation], inputs)
    assert result == outputs[host_implementation]
