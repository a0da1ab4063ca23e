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
from collections.abc import Callable, Sequence
from typing import Any

from refbench.measure import Job, Measurement, Measurer, Progress
from refbench.sanity.executor import MeasureJob, Measurements, _groups, run_group

#: The environment variable naming a scheduler when no ``--scheduler`` is given.
SCHEDULER_ENV = "REFBENCH_SCHEDULER"
#: Seconds to wait for the scheduler before the address is reported as unreachable.
CONNECT_TIMEOUT_S = 10


class SchedulerError(ValueError):
    """The scheduler cannot be used: bad address, not reachable, or ``distributed`` missing."""


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


def measure_calls(options: dict[str, Any], jobs: Sequence[Job]) -> list[Measurement]:
    """Measure ``jobs`` with a measurer built from ``options`` (:class:`refbench.measure.Measurer`
    keyword arguments, without a cache): the body of a ``refbench cycles`` task."""
    measurer = Measurer(**{**options, "use_cache": False})
    return [measurer.measure(job) for job in jobs]


class DaskExecutor:
    """Runs measure jobs as tasks on the workers of a Dask scheduler (``address``), one task per
    configuration and kernel variant, as :class:`~refbench.sanity.executor.LocalProcessExecutor`
    does with processes. ``client``: an existing ``distributed.Client`` (tests); otherwise one is
    opened here and closed by :meth:`close` (or the ``with`` block)."""

    def __init__(self, address: str | None = None, *, client: Any = None) -> None:
        self._distributed = _distributed()
        if client is None:
            if address is None:
                raise SchedulerError("Invalid scheduler (None); give an address such as tcp://127.0.0.1:8786")
            try:
                client = self._distributed.Client(address, timeout=f"{CONNECT_TIMEOUT_S}s")
            except (OSError, TimeoutError) as exc:
                raise SchedulerError(f"Invalid --scheduler ({address!r}): no Dask scheduler answered within "
                                     f"{CONNECT_TIMEOUT_S} s ({type(exc).__name__}: {exc})") from exc
            self._owned = True
        else:
            self._owned = False
        self.client = client
        self.address = address or client.scheduler.address

    @property
    def workers(self) -> int:
        """Worker threads of the cluster (at least 1)."""
        info = self.client.scheduler_info()
        return max(1, sum(w.get("nthreads", 1) for w in info.get("workers", {}).values()))

    def run(self, jobs: Sequence[MeasureJob], done: Callable[[MeasureJob, Measurement], None]) -> Measurements:
        out: Measurements = {}
        groups = _groups(jobs)
        futures = {self.client.submit(run_group, config, opt, [m.job for m in group], pure=False): group
                   for (config, opt, _, _), group in groups.items()}
        for future in self._distributed.as_completed(list(futures)):
            group = futures[future]
            for m, measurement in zip(group, future.result(), strict=True):
                out[m] = measurement
                done(m, measurement)
        return out

    def measure_all(self, measurer: Measurer, jobs: Sequence[Job], progress: Progress | None = None) -> list[Measurement]:
        """``measurer.measure_all(jobs)`` with the cache answered here and the rest on the cluster,
        one task per kernel variant; completed calls are stored in the measurer's cache."""
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
        futures = {self.client.submit(measure_calls, options, [jobs[i] for i in indices], pure=False): indices
                   for indices in missing.values()}
        for future in self._distributed.as_completed(list(futures)):
            for i, measurement in zip(futures[future], future.result(), strict=True):
                results[i] = measurement
                measurer.store(jobs[i], measurement)
                if progress is not None:
                    progress(len(results), len(jobs), f"{jobs[i].kernel}/{jobs[i].variant} {jobs[i].operation} "
                                                      f"{jobs[i].size} B")
        return [results[i] for i in range(len(jobs))]

    def close(self) -> None:
        if self._owned:
            self.client.close()

    def __enter__(self) -> DaskExecutor:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
