"""The Dask executor (refbench/sanity/dask_executor.py) on a ``LocalCluster`` on loopback: the same
measurements as local runs, through the same cache, from the library and the two commands."""

from __future__ import annotations

import faulthandler
import json
import socket
import sys
import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

distributed = pytest.importorskip("distributed", reason="the optional extra refbench[cluster] (distributed) "
                                                        "is not installed")

from cortexm_emu.boards import load_board  # noqa: E402
from refbench.cli import main  # noqa: E402
from refbench.kernels.catalog import family  # noqa: E402
from refbench.measure import Job, Measurer, ResultCache  # noqa: E402
from refbench.sanity.dask_executor import (  # noqa: E402
    ClusterLostError,
    DaskExecutor,
    SchedulerError,
    scheduler_address,
)
from refbench.sanity.executor import InProcessExecutor, MeasureJob, measure, measurer_for  # noqa: E402
from refbench.sanity.memory_configs import configurations  # noqa: E402


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=":0", protocol="tcp") as c:
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
    on_m0plus = [v for v in family("bignum").variants.values() if v.supports("m0plus")]  # umaal/umlal/...: n/a
    assert remote == local and sum(m["verified"] for m in local) == 2 * len(on_m0plus)  # x 2 operations


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


def test_an_unreachable_scheduler_is_a_clear_command_error(capsys):
    assert main(["cycles", "--kernel", "bignum", "--core", "m4", "--sizes", "32", "--scheduler",
                 "tcp://127.0.0.1:9"]) == 2
    err = capsys.readouterr().err
    assert "Invalid --scheduler ('tcp://127.0.0.1:9'): no Dask scheduler answered within 10 s" in err


#: A hang guard, not a time any call must meet: the executor's own ``timeout_s`` (1 or 2 s in these
#: tests) bounds every call to a misbehaving server or cluster. A call still running after this many
#: seconds has hung; faulthandler then prints every thread's stack and ends the run.
HANG_S = 600


def bounded(call: Callable[[], Any]) -> BaseException | None:
    """Run ``call``; its exception (None if it returned). A hung call ends the run with every
    thread's stack (:data:`HANG_S`) instead of blocking the suite."""
    faulthandler.dump_traceback_later(HANG_S, exit=True, file=sys.__stderr__)
    try:
        call()
    except Exception as exc:  # noqa: BLE001 - handed to the test
        return exc
    finally:
        faulthandler.cancel_dump_traceback_later()
    return None


@pytest.fixture
def garbage_server() -> Iterator[str]:
    """A TCP server on loopback that answers every connection with bytes that are not Dask's."""
    server = socket.create_server(("127.0.0.1", 0))
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except OSError:
                return
            with conn:
                conn.sendall(b"\xde\xad\xbe\xef" * 64)

    threading.Thread(target=serve, daemon=True).start()
    yield f"tcp://127.0.0.1:{server.getsockname()[1]}"
    stop.set()
    server.close()


@pytest.fixture
def http_server() -> Iterator[str]:
    """A tiny HTTP server on loopback (it waits for a request before it says anything)."""
    class Hello(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - the http.server name
            self.send_response(200)
            self.end_headers()
            self.wfile.write(b"hello")

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Hello)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"tcp://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_a_server_sending_garbage_is_named_not_a_scheduler(garbage_server, capsys):
    code: list[int] = []
    assert bounded(lambda: code.append(main(["cycles", "--kernel", "bignum", "--core", "m4", "--sizes", "32",
                                             "--scheduler", garbage_server]))) is None
    err = capsys.readouterr().err
    assert code == [2] and "Traceback" not in err
    assert f"Invalid --scheduler ('{garbage_server}'): its first message announces " in err
    assert "not a Dask scheduler" in err


def test_an_http_server_is_named_not_a_scheduler_within_the_timeout(http_server):
    exc = bounded(lambda: DaskExecutor(http_server, timeout_s=1))
    assert isinstance(exc, SchedulerError), exc
    assert str(exc).startswith(f"Invalid --scheduler ('{http_server}'): nothing (or too little) received within 1 s")


def test_a_cluster_closed_mid_run_keeps_the_finished_measurements(tmp_path):
    """One worker runs the four tasks one after another; the cluster is closed when the first
    task's measurements arrive: the run ends in a named error and the cache keeps those."""
    cache = ResultCache(tmp_path / "c")
    cluster = distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True, host="127.0.0.1",
                                       dashboard_address=":0", protocol="tcp")
    seen: list[str] = []

    def progress(done: int, total: int, label: str) -> None:
        seen.append(label)
        if len(seen) == 1:
            cluster.close()

    executor = DaskExecutor(cluster.scheduler_address, timeout_s=2)
    exc = bounded(lambda: measure(jobs(), executor, cache, progress=progress))
    executor.close()
    assert isinstance(exc, ClusterLostError), exc
    assert f"the Dask cluster at {cluster.scheduler_address} stopped answering" in str(exc)
    groups = {(m.config, m.job.variant) for m in jobs()}
    assert 1 <= exc.finished < len(groups) and f"after {exc.finished} of {len(groups)} task(s)" in str(exc)
    kept = [m for m in jobs() if measurer_for(m.config, m.opt, cache).cached(m.job) is not None]
    assert len(kept) == len(seen) >= 2  # every measurement that arrived (a task measures two calls)
    assert {m.label for m in kept} == set(seen)


def test_the_cycles_summary_counts_the_cluster_runs(cluster, capsys):
    options = ["cycles", "--kernel", "bignum", "--variant", "c32", "--operation", "mont-mul", "--core", "m4",
               "--sizes", "32", "--no-cache"]
    assert main([*options, "--scheduler", cluster.scheduler_address]) == 0
    remote = " ".join(capsys.readouterr().out.split())
    assert main(options) == 0
    local = " ".join(capsys.readouterr().out.split())
    summary = local[local.index("1 measurements:"):]
    assert summary in remote and "1 measurements: 0 from the cache, 1 run in the emulator" in summary


def test_measure_all_keeps_what_finished_when_the_cluster_is_closed(tmp_path):
    """``refbench cycles``'s path: the calls of the first task are stored and counted as run; the
    rest is a named error, not a traceback."""
    measurer = Measurer("m4", cache=ResultCache(tmp_path / "c"))
    calls = [Job("bignum", v, "mont-mul", 32) for v in ("c32", "m0", "umaal", "umlal")]
    cluster = distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True, host="127.0.0.1",
                                       dashboard_address=":0", protocol="tcp")
    done: list[str] = []

    def progress(count: int, total: int, label: str) -> None:
        done.append(label)
        if len(done) == 1:
            cluster.close()

    executor = DaskExecutor(cluster.scheduler_address, timeout_s=2)
    exc = bounded(lambda: executor.measure_all(measurer, calls, progress=progress))
    executor.close()
    assert isinstance(exc, ClusterLostError) and exc.finished == 1, exc
    assert "after 1 of 4 task(s)" in str(exc) and measurer.harness_runs == 1
    assert [measurer.cached(c) is not None for c in calls].count(True) == 1


def test_a_server_that_trickles_its_bytes_is_refused_within_the_timeout():
    """A peer that announces a plausible length then sends one byte at a time: the whole handshake
    must arrive within the timeout, not each byte."""
    server = socket.create_server(("127.0.0.1", 0))
    stop = threading.Event()

    def serve() -> None:
        conn, _ = server.accept()
        with conn:
            conn.sendall((64).to_bytes(8, "little"))
            while not stop.wait(0.2):
                try:
                    conn.sendall(b"x")
                except OSError:
                    return

    threading.Thread(target=serve, daemon=True).start()
    address = f"tcp://127.0.0.1:{server.getsockname()[1]}"
    try:
        exc = bounded(lambda: DaskExecutor(address, timeout_s=1))
    finally:
        stop.set()
        server.close()
    assert isinstance(exc, SchedulerError) and "nothing (or too little) received within 1 s" in str(exc), exc
