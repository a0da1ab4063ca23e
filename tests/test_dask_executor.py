"""The Dask executor (refbench/sanity/dask_executor.py) on a ``LocalCluster`` on loopback: the same
measurements as local runs, through the same cache, from the library and the two commands."""

from __future__ import annotations

import json

import pytest

distributed = pytest.importorskip("distributed", reason="the optional extra refbench[cluster] (distributed) "
                                                        "is not installed")

from cortexm_emu.boards import load_board  # noqa: E402
from refbench.cli import main  # noqa: E402
from refbench.measure import Job, Measurer, ResultCache  # noqa: E402
from refbench.sanity.dask_executor import DaskExecutor, SchedulerError, scheduler_address  # noqa: E402
from refbench.sanity.executor import InProcessExecutor, MeasureJob, measure  # noqa: E402
from refbench.sanity.memory_configs import configurations  # noqa: E402


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=None, protocol="tcp") as c:
        yield c


@pytest.fixture(autouse=True)
def own_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("REFBENCH_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("REFBENCH_SCHEDULER", raising=False)


def jobs() -> list[MeasureJob]:
    board = load_board("stm32l4a6zg")
    configs = configurations(board, 80.0)[:2]
    calls = [Job("bignum", v, op, 32) for v in ("c32", "m0") for op in ("mont-mul", "25519-sqr")]
    return [MeasureJob(config, "Os", job) for config in configs for job in calls]


def test_dask_results_equal_in_process_results(cluster):
    local = InProcessExecutor().run(jobs(), lambda m, r: None)
    seen = []
    with DaskExecutor(cluster.scheduler_address) as executor:
        assert executor.workers == 2
        remote = executor.run(jobs(), lambda m, r: seen.append(m))
    assert set(seen) == set(jobs()) and remote == local
    assert all(r.verified and r.cycles for r in remote.values())


def test_measure_through_dask_fills_the_cache(cluster, tmp_path):
    cache = ResultCache(tmp_path / "c")
    with DaskExecutor(cluster.scheduler_address) as executor:
        first = measure(jobs(), executor, cache)
    again = measure(jobs(), InProcessExecutor(), cache)  # everything from the cache now
    assert all(m.cached for m in again.values())
    assert {k: v.cycles for k, v in again.items()} == {k: v.cycles for k, v in first.items()}


def test_sanity_command_with_a_scheduler_prints_the_local_report(cluster, capsys, tmp_path, monkeypatch):
    options = ["sanity", "--board", "WL33", "--algorithm", "X25519", "--format", "json"]
    monkeypatch.setenv("REFBENCH_CACHE", str(tmp_path / "remote"))
    assert main([*options, "--scheduler", cluster.scheduler_address]) == 0
    remote = json.loads(capsys.readouterr().out)["figures"]
    monkeypatch.setenv("REFBENCH_CACHE", str(tmp_path / "local"))
    monkeypatch.setenv("REFBENCH_WORKERS", "1")
    assert main(options) == 0
    local = json.loads(capsys.readouterr().out)["figures"]
    assert remote == local and {r["emulation"] for r in local} == {"emulated"}


def test_cycles_command_with_a_scheduler_prints_the_local_measurements(cluster, capsys):
    options = ["cycles", "--kernel", "bignum", "--operation", "mont-mul", "--operation", "p256-mul", "--core", "m0plus",
               "--sizes", "32", "--json", "--no-cache"]
    assert main([*options, "--scheduler", cluster.scheduler_address]) == 0
    remote = json.loads(capsys.readouterr().out)
    assert main(options) == 0
    local = json.loads(capsys.readouterr().out)
    assert remote == local and sum(m["verified"] for m in local) == 4  # c32, m0 x 2 operations (umaal/umlal: n/a)


def test_measure_all_stores_what_the_cluster_measured(cluster, tmp_path):
    measurer = Measurer("m4", cache=ResultCache(tmp_path / "c"))
    calls = [Job("bignum", "umaal", "mont-sqr", 64), Job("bignum", "c32", "p384-mul", 48)]
    with DaskExecutor(cluster.scheduler_address) as executor:
        remote = executor.measure_all(measurer, calls)
    assert [m.cached for m in measurer.measure_all(calls)] == [True, True]
    assert [m.cycles for m in remote] == [m.cycles for m in Measurer("m4", use_cache=False).measure_all(calls)]


@pytest.mark.parametrize("address", ["8786", "http://host:8786", "tcp://"])
def test_a_bad_scheduler_address_is_named(address):
    with pytest.raises(SchedulerError, match=r"Invalid --scheduler \('.*'\); accepted: tcp://host:port"):
        scheduler_address(address)


def test_the_environment_names_the_scheduler(monkeypatch):
    monkeypatch.setenv("REFBENCH_SCHEDULER", "tcp://10.0.0.1:8786")
    assert scheduler_address(None) == "tcp://10.0.0.1:8786"
    monkeypatch.setenv("REFBENCH_SCHEDULER", "nowhere")
    with pytest.raises(SchedulerError, match=r"Invalid \$REFBENCH_SCHEDULER \('nowhere'\)"):
        scheduler_address(None)


def test_an_unreachable_scheduler_is_a_clear_command_error(capsys, monkeypatch):
    monkeypatch.setattr("refbench.sanity.dask_executor.CONNECT_TIMEOUT_S", 1)
    assert main(["cycles", "--kernel", "bignum", "--core", "m4", "--sizes", "32", "--scheduler",
                 "tcp://127.0.0.1:9"]) == 2
    err = capsys.readouterr().err
    assert "Invalid --scheduler ('tcp://127.0.0.1:9'): no Dask scheduler answered within 1 s" in err
