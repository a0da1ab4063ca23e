"""Measure on a Dask cluster: the :class:`~refbench.sanity.executor.Executor` protocol over
``distributed`` (the optional extra ``refbench[cluster]``).

``refbench sanity --scheduler tcp://host:8786`` and ``refbench cycles --scheduler ...`` (or
``$REFBENCH_SCHEDULER``) send the measurements the result cache does not answer to the
scheduler's workers instead of local processes. Each task is what a local process runs: one
configuration and kernel variant (:func:`refbench.sanity.executor.run_group`), or, for
``refbench cycles``, one measurer's jobs (:func:`measure_calls`). The cache stays with the
caller: workers only compute, and the emulator is deterministic, so where a job runs does not
change its count (tests/test_dask_executor.py checks results equal the local ones on a
``LocalCluster``). Workers must have the same refbench installed (the same kernels and models:
the ELF hash and model version in every record would show it otherwise).
"""

from __future__ import annotations

import os
import socket
import struct
import time
from asyncio import CancelledError as AsyncCancelledError
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import CancelledError
from typing import Any

from refbench.measure import Job, Measurement, Measurer, Progress
from refbench.sanity.executor import MeasureJob, Measurements, _groups, run_group

#: The environment variable naming a scheduler when no ``--scheduler`` is given.
SCHEDULER_ENV = "REFBENCH_SCHEDULER"
#: Seconds to wait for the scheduler (its handshake, a connection, a reconnection after a loss,
#: an answer to a question, a first worker) before it is reported as not answering.
CONNECT_TIMEOUT_S = 10
#: The longest first message a Dask scheduler sends, in bytes. On accepting a connection it writes
#: its handshake (a small msgpack dict: versions and compression options, a few hundred bytes;
#: distributed 2026.8.0, distributed/comm/core.py, ``Listener.on_connection``) before reading
#: anything, so a peer whose first message is longer, or that says nothing, is not a Dask scheduler.
HANDSHAKE_MAX_BYTES = 1 << 16
#: Bytes of one length field in Dask's TCP framing: a native unsigned 64-bit integer (``struct``
#: format "Q"); a message is its length, then ``n_frames`` and one length per frame
#: (distributed 2026.8.0: distributed/comm/tcp.py ``TCP.read``, distributed/protocol/utils.py
#: ``unpack_frames``).
FRAME_FIELD = struct.calcsize("Q")


class SchedulerError(ValueError):
    """The scheduler cannot be used: bad address, not reachable, not a Dask scheduler, or
    ``distributed`` missing."""


class ClusterLostError(RuntimeError):
    """The cluster stopped answering during a run (scheduler gone, connection lost, no worker
    left). ``finished``: the tasks whose results arrived (and were handed on) before it did."""

    def __init__(self, message: str, finished: int) -> None:
        super().__init__(message)
        self.finished = finished


def scheduler_address(option: str | None) -> str | None:
    """The scheduler to use: ``option`` (``--scheduler``), else ``$REFBENCH_SCHEDULER``, else None
    (local processes). An address must be ``tcp://host:port`` (or ``tls://``, ``inproc://``)."""
    address = option if option is not None else os.environ.get(SCHEDULER_ENV) or None
    if address is None:
        return None
    scheme, sep, rest = address.partition("://")
    if not sep or scheme not in ("tcp", "tls", "inproc") or not rest:
        where = "--scheduler" if option is not None else f"${SCHEDULER_ENV}"
        raise SchedulerError(f"Invalid {where} ({address!r}); accepted: tcp://host:port, e.g. tcp://127.0.0.1:8786")
    return address


def _distributed() -> Any:
    try:
        import distributed
    except ImportError as exc:
        raise SchedulerError("a scheduler needs the optional dependency 'distributed': "
                             "python -m pip install 'refbench[cluster]'") from exc
    return distributed


def _receive(sock: socket.socket, count: int, deadline: float) -> bytes:
    """``count`` bytes from ``sock`` before ``deadline`` (``time.monotonic()``), however the peer
    spreads them out; TimeoutError after it."""
    data = b""
    while len(data) < count:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError(f"{len(data)} of {count} bytes before the deadline")
        sock.settimeout(left)
        chunk = sock.recv(count - len(data))
        if not chunk:
            raise ConnectionError(f"the connection closed after {len(data)} of {count} bytes")
        data += chunk
    return data


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else "no detail"


def probe_scheduler(address: str, timeout_s: float) -> None:
    """Check that a Dask scheduler listens at ``address`` (``tcp://host:port``) before a client
    trusts what it sends: connect, and read its handshake within ``timeout_s`` seconds, checking
    the framing (a length of at most :data:`HANDSHAKE_MAX_BYTES`, holding a frame count and the
    frame lengths). Another server (one that sends other bytes, or waits for a request, as an
    HTTP server does) is a :class:`SchedulerError` naming the address and what it did. ``tls://``
    and ``inproc://`` addresses are left to the client (its own timeout applies)."""
    distributed = _distributed()
    scheme, location = distributed.comm.parse_address(address)
    if scheme != "tcp":
        return
    try:
        host, port = distributed.comm.parse_host_port(location)
    except ValueError as exc:
        raise SchedulerError(f"Invalid --scheduler ({address!r}): {exc}") from exc

    def refuse(what: str) -> SchedulerError:
        return SchedulerError(f"Invalid --scheduler ({address!r}): {what}; not a Dask scheduler (it opens every "
                              f"connection with a handshake of at most {HANDSHAKE_MAX_BYTES} bytes)")

    try:
        deadline = time.monotonic() + timeout_s
        with socket.create_connection((host, port), timeout=timeout_s) as sock:
            (length,) = struct.unpack("Q", _receive(sock, FRAME_FIELD, deadline))
            if not 2 * FRAME_FIELD <= length <= HANDSHAKE_MAX_BYTES:
                raise refuse(f"its first message announces {length} bytes")
            message = _receive(sock, length, deadline)
    except TimeoutError as exc:
        raise refuse(f"nothing (or too little) received within {timeout_s:g} s of connecting") from exc
    except OSError as exc:  # refused, unreachable, reset, closed part-way
        raise SchedulerError(f"Invalid --scheduler ({address!r}): no Dask scheduler answered within {timeout_s:g} s "
                             f"({type(exc).__name__}: {exc})") from exc
    (frames,) = struct.unpack_from("Q", message)
    if frames < 1 or FRAME_FIELD * (1 + frames) > length:
        raise refuse(f"its first message announces {frames} frames in {length} bytes")


def measure_calls(options: dict[str, Any], jobs: Sequence[Job]) -> tuple[list[Measurement], int]:
    """Measure ``jobs`` with a measurer built from ``options`` (:class:`refbench.measure.Measurer`
    keyword arguments, without a cache): the body of a ``refbench cycles`` task. Returns the
    measurements and how many of them ran in the emulator (``Measurer.harness_runs``)."""
    measurer = Measurer(**{**options, "use_cache": False})
    return [measurer.measure(job) for job in jobs], measurer.harness_runs


class DaskExecutor:
    """Runs measure jobs as tasks on the workers of a Dask scheduler (``address``), one task per
    configuration and kernel variant, as :class:`~refbench.sanity.executor.LocalProcessExecutor`
    does with processes. ``client``: an existing ``distributed.Client`` (tests); otherwise one is
    opened here (after :func:`probe_scheduler`) and closed by :meth:`close` (or the ``with`` block).

    Every call to the cluster is bounded by ``timeout_s`` (default :data:`CONNECT_TIMEOUT_S`): the
    connection, each question to the scheduler, the wait for a first worker, and the reconnection
    after a loss (the client's own timeout; it then cancels what is pending). A cluster that stops
    answering during a run is a :class:`ClusterLostError` raised after every finished task's
    results were handed on, so the caller keeps (caches) them. A task runs as long as its
    measurements take: that is not bounded here."""

    def __init__(self, address: str | None = None, *, client: Any = None, timeout_s: float = CONNECT_TIMEOUT_S) -> None:
        self._distributed = _distributed()
        self.timeout_s = timeout_s
        if client is None:
            if address is None:
                raise SchedulerError("Invalid scheduler (None); give an address such as tcp://127.0.0.1:8786")
            probe_scheduler(address, timeout_s)
            try:
                client = self._distributed.Client(address, timeout=f"{timeout_s}s")
            except (OSError, TimeoutError) as exc:
                raise SchedulerError(f"Invalid --scheduler ({address!r}): no Dask scheduler answered within "
                                     f"{timeout_s:g} s ({type(exc).__name__}: {exc})") from exc
            except (ValueError, MemoryError) as exc:  # what the peer sent is not Dask's protocol
                raise SchedulerError(f"Invalid --scheduler ({address!r}): the server there does not speak Dask's "
                                     f"protocol ({type(exc).__name__}: {exc})") from exc
            self._owned = True
        else:
            self._owned = False
        self.client = client
        self.address = address or client.scheduler.address

    def _lost(self, what: str, exc: BaseException, finished: int, total: int) -> ClusterLostError:
        return ClusterLostError(f"the Dask cluster at {self.address} stopped answering ({what}: "
                                f"{type(exc).__name__}: {_first_line(exc)}) after {finished} of {total} task(s); "
                                f"the finished tasks' measurements are kept; run again to measure the rest",
                                finished)

    @property
    def workers(self) -> int:
        """Worker threads of the cluster (at least 1)."""
        try:
            threads = self.client.nthreads(callback_timeout=self.timeout_s)
        except (*self._failures(), TimeoutError) as exc:
            raise self._lost("asking for its workers", exc, 0, 0) from exc
        return max(1, sum(threads.values()))

    def _failures(self) -> tuple[type[BaseException], ...]:
        """The exceptions that mean the cluster, not the task, failed."""
        d = self._distributed
        return (CancelledError, AsyncCancelledError, d.comm.CommClosedError, d.KilledWorker, OSError, TimeoutError)

    def each(self, function: Callable[..., Any], arguments: Sequence[tuple[Any, ...]]) -> Iterator[tuple[int, Any]]:
        """Run ``function(*args)`` for every tuple of ``arguments`` on the cluster; yield (index,
        result) as each task finishes. The cluster failing (see :meth:`_failures`), or having no
        worker within the timeout, is a :class:`ClusterLostError` once the results that arrived
        were yielded."""
        total = len(arguments)
        if not total:
            return
        finished = 0
        try:
            self.client.wait_for_workers(1, timeout=self.timeout_s)
            futures = {self.client.submit(function, *args, pure=False): i for i, args in enumerate(arguments)}
        except (*self._failures(), self._distributed.TimeoutError) as exc:
            raise self._lost("waiting for a worker and submitting", exc, finished, total) from exc
        try:
            for future in self._distributed.as_completed(list(futures)):
                result = future.result(timeout=self.timeout_s)
                finished += 1
                yield futures[future], result
        except self._failures() as exc:
            for future in futures:
                future.cancel()
            raise self._lost("waiting for results", exc, finished, total) from exc

    def run(self, jobs: Sequence[MeasureJob], done: Callable[[MeasureJob, Measurement], None]) -> Measurements:
        out: Measurements = {}
        groups = list(_groups(jobs).items())
        arguments = [(config, opt, [m.job for m in group]) for (config, opt, _, _), group in groups]
        for index, measurements in self.each(run_group, arguments):
            for m, measurement in zip(groups[index][1], measurements, strict=True):
                out[m] = measurement
                done(m, measurement)
        return out

    def measure_all(self, measurer: Measurer, jobs: Sequence[Job], progress: Progress | None = None) -> list[Measurement]:
        """``measurer.measure_all(jobs)`` with the cache answered here and the rest on the cluster,
        one task per kernel variant; completed calls are stored in the measurer's cache (as each
        task finishes, so a lost cluster keeps them) and counted in its ``harness_runs``."""
        results: dict[int, Measurement] = {}
        missing: dict[tuple[str, str], list[int]] = {}
        for i, job in enumerate(jobs):
            hit = measurer.cached(job) if measurer.use_cache else None
            if hit is None:
                missing.setdefault((job.kernel, job.variant), []).append(i)
            else:
                results[i] = hit
                if progress is not None:
                    progress(len(results), len(jobs), f"{job.kernel}/{job.variant} {job.operation} {job.size} B")
        options = {"core": measurer.core, "board": measurer.board, "clock_mhz": measurer.clock_mhz,
                   "memory": measurer.memory, "opt": measurer.opt, "compiler": measurer.compiler,
                   "seed": measurer.seed}
        if measurer.board is not None:
            options["core"] = None
        tasks = list(missing.values())
        for index, (measurements, ran) in self.each(measure_calls, [(options, [jobs[i] for i in t]) for t in tasks]):
            measurer.harness_runs += ran
            for i, measurement in zip(tasks[index], measurements, strict=True):
                results[i] = measurement
                measurer.store(jobs[i], measurement)
                if progress is not None:
                    progress(len(results), len(jobs), f"{jobs[i].kernel}/{jobs[i].variant} {jobs[i].operation} "
                                                      f"{jobs[i].size} B")
        return [results[i] for i in range(len(jobs))]

    def close(self) -> None:
        """Close the client opened here (within the timeout; a cluster already gone is no error)."""
        if self._owned:
            try:
                self.client.close(timeout=self.timeout_s)
            except (*self._failures(), RuntimeError):
                pass

    def __enter__(self) -> DaskExecutor:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
