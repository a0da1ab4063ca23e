"""Measure: jobs -> result cache -> executor -> measurements.

A :class:`MeasureJob` is one kernel call (:class:`refbench.measure.Job`) in one memory
configuration at one optimisation level. :func:`measure` takes the distinct jobs of a plan,
answers what it can from the result cache (:class:`refbench.measure.ResultCache`, building
every ELF in this process so workers never race on a build), hands the rest to an
:class:`Executor`, and stores what the executor measured. Each job runs at most once per call.

An executor only computes: :class:`InProcessExecutor` runs the jobs here, one configuration at
a time; :class:`LocalProcessExecutor` spreads them over local processes, one task per
configuration and kernel variant. Another engine (a cluster) implements the same ``run``.
The emulator is deterministic, so where a job runs does not change its count.

Stopping: an interrupt (SIGINT, Ctrl-C) of the parent terminates its workers at once and
propagates as ``KeyboardInterrupt`` (the CLI exits 130). Workers ignore SIGINT themselves (the
parent stops them; a terminal sends Ctrl-C to the whole process group) and exit when their parent
dies, even by SIGKILL (:func:`worker_init`: ``PR_SET_PDEATHSIG`` on Linux, and a thread watching
the parent's pid everywhere).
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from multiprocessing import get_context
from typing import Protocol

from cortexm_emu.toolchain import ToolchainError, adopt_build_cache_redirects, build_cache_redirects
from refbench.measure import Job, Measurement, Measurer, ResultCache
from refbench.sanity.memory_configs import MemoryConfig
from refbench.sanity.workloads import KERNEL_COMPILER

#: ``progress(done, total, label)`` after each measurement.
ProgressCallback = Callable[[int, int, str], None]


@dataclass(frozen=True)
class MeasureJob:
    """One kernel call in one memory configuration, built at one optimisation level."""

    config: MemoryConfig
    opt: str
    job: Job

    @property
    def label(self) -> str:
        job = self.job
        return (f"{self.config.board} {job.kernel}/{job.variant} {job.operation} {job.size} B -{self.opt} "
                f"({self.config.label})")


Measurements = dict[MeasureJob, Measurement]


class Executor(Protocol):
    """Runs measure jobs and returns every job's measurement; calls ``done(job, measurement)``
    as each one finishes. It does not read or write the result cache (:func:`measure` does)."""

    #: how many jobs it runs at once
    workers: int

    def run(self, jobs: Sequence[MeasureJob], done: Callable[[MeasureJob, Measurement], None]) -> Measurements:
        ...


def measurer_for(config: MemoryConfig, opt: str, cache: ResultCache | None = None) -> Measurer:
    """The measurer of one configuration and optimisation level (through ``cache`` if given)."""
    return Measurer(**config.measurer_target(), clock_mhz=config.clock_mhz, memory=config.memory(), opt=opt,
                    compiler=KERNEL_COMPILER, cache=cache, use_cache=cache is not None)


def unbuilt(measurer: Measurer, job: Job, exc: ToolchainError) -> Measurement:
    """The measurement of a job whose kernel variant the compiler rejected (the error is kept)."""
    return Measurement(job.kernel, job.variant, job.operation, measurer.core, measurer.board, measurer.clock_mhz,
                       job.size, None, None, None, None, False, "", f"build failed: {exc}", "", "", "", {},
                       measurer.model_version, measurer.memory.name, measurer.compiler, measurer.opt, False,
                       job.key_bytes, job.aad_bytes)


def run_group(config: MemoryConfig, opt: str, jobs: Sequence[Job]) -> list[Measurement]:
    """Measure ``jobs`` in one configuration without the cache: the body of every executor task.
    A variant the compiler rejects fails alone."""
    measurer = measurer_for(config, opt)
    out = []
    for job in jobs:
        try:
            out.append(measurer.measure(job))
        except ToolchainError as exc:
            out.append(unbuilt(measurer, job, exc))
    return out


def _groups(jobs: Sequence[MeasureJob]) -> dict[tuple[MemoryConfig, str, str, str], list[MeasureJob]]:
    """The jobs by configuration, optimisation level and kernel variant (one task each)."""
    groups: dict[tuple[MemoryConfig, str, str, str], list[MeasureJob]] = {}
    for m in jobs:
        groups.setdefault((m.config, m.opt, m.job.kernel, m.job.variant), []).append(m)
    return groups


class InProcessExecutor:
    """Runs every job in this process, one configuration and kernel variant at a time (a measurer
    and its loaded machines live for one group: machines hold their last call's block trace)."""

    workers = 1

    def run(self, jobs: Sequence[MeasureJob], done: Callable[[MeasureJob, Measurement], None]) -> Measurements:
        out: Measurements = {}
        for (config, opt, _, _), group in _groups(jobs).items():
            for m, measurement in zip(group, run_group(config, opt, [m.job for m in group]), strict=True):
                out[m] = measurement
                done(m, measurement)
        return out


class LocalProcessExecutor:
    """Runs the jobs in ``workers`` spawned local processes, one task per configuration and kernel
    variant (in this process when there is one worker or one task)."""

    def __init__(self, workers: int) -> None:
        if not isinstance(workers, int) or isinstance(workers, bool) or workers < 1:
            raise ValueError(f"Invalid workers ({workers!r}); accepted: a whole number of processes >= 1")
        self.workers = workers

    def run(self, jobs: Sequence[MeasureJob], done: Callable[[MeasureJob, Measurement], None]) -> Measurements:
        groups = _groups(jobs)
        processes = min(self.workers, len(groups))
        if processes <= 1:
            return InProcessExecutor().run(jobs, done)
        out: Measurements = {}
        pool = ProcessPoolExecutor(processes, mp_context=get_context("spawn"), initializer=worker_init,
                                   initargs=(os.getpid(), build_cache_redirects()))
        try:
            futures = {pool.submit(run_group, config, opt, [m.job for m in group]): group
                       for (config, opt, _, _), group in groups.items()}
            for future in as_completed(futures):
                group = futures[future]
                for m, measurement in zip(group, future.result(), strict=True):
                    out[m] = measurement
                    done(m, measurement)
        except BaseException:  # an interrupt or a failed task: stop every worker now, not after its task
            stop_workers(pool)
            raise
        pool.shutdown(wait=True)
        return out


#: Linux prctl option: the signal a process gets when its parent dies (prctl(2)).
PR_SET_PDEATHSIG = 1
#: How often a worker checks that its parent is alive where prctl is not available (seconds).
PARENT_POLL_SECONDS = 1.0


def worker_init(parent_pid: int, build_redirects: dict[str, str] | None = None) -> None:
    """Initializer of every worker process: ignore SIGINT (the parent stops the workers), exit
    when the parent ``parent_pid`` dies, and build where the parent builds (``build_redirects``:
    the temporary folders it uses for a build cache it cannot write)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    adopt_build_cache_redirects(build_redirects or {})
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):
            pass  # the watch thread below still covers it
    if os.getppid() != parent_pid:  # the parent died before the line above
        os._exit(1)

    def watch() -> None:
        while os.getppid() == parent_pid:
            time.sleep(PARENT_POLL_SECONDS)
        os._exit(1)

    threading.Thread(target=watch, name="refbench-parent-watch", daemon=True).start()


def stop_workers(pool: ProcessPoolExecutor) -> None:
    """Cancel what has not started and end every worker process now (SIGTERM, then SIGKILL)."""
    processes = list((getattr(pool, "_processes", None) or {}).values())  # no public accessor before 3.14
    manager = getattr(pool, "_executor_manager_thread", None)  # shutdown() forgets it
    for process in processes:
        if process.is_alive():
            process.terminate()
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.join(timeout=5)
        if process.is_alive():
            process.kill()
            process.join(timeout=5)
    # Let the pool's manager thread finish its cleanup now: at interpreter exit, concurrent.futures
    # wakes it through a pipe that thread closes, and a wake-up racing that close prints
    # "Exception ignored ... Bad file descriptor".
    if manager is not None:
        manager.join(timeout=10)


def usable_cpus() -> int:
    """CPUs this process may run on (its affinity where the OS tells, else the CPU count)."""
    affinity = getattr(os, "sched_getaffinity", None)
    return max(1, len(affinity(0)) if affinity else (os.cpu_count() or 1))


def local_workers() -> int:
    """Processes for a local run: ``$REFBENCH_WORKERS`` if set; else one per usable CPU (one when
    the main program is not a file a spawned process can import, e.g. a script read from stdin)."""
    text = os.environ.get("REFBENCH_WORKERS", "")
    if text:
        if not text.isdigit() or int(text) < 1:
            raise ValueError(f"Invalid REFBENCH_WORKERS ({text!r}); accepted: a whole number of processes >= 1")
        return int(text)
    main_file = getattr(sys.modules.get("__main__"), "__file__", None)
    if main_file is not None and not os.path.exists(main_file):
        return 1
    return usable_cpus()


def measure(jobs: Sequence[MeasureJob], executor: Executor, cache: ResultCache | None = None,
            progress: ProgressCallback | None = None) -> Measurements:
    """Every distinct job's measurement: cache hits first (and every ELF built, in this process),
    then the rest through ``executor``, whose completed calls are stored in ``cache``."""
    distinct = list(dict.fromkeys(jobs))
    total = len(distinct)
    measured: Measurements = {}

    def done(m: MeasureJob, measurement: Measurement) -> None:
        measured[m] = measurement
        if progress is not None:
            progress(len(measured), total, m.label)

    if cache is None:
        executor.run(distinct, done)
        return measured
    missing: list[MeasureJob] = []
    storers: dict[tuple[MemoryConfig, str], Measurer] = {}
    unbuildable: dict[tuple[str, str, str, str], ToolchainError] = {}  # kernel, variant, opt, core: the error
    for (config, opt), group in _by_config(distinct).items():
        measurer = measurer_for(config, opt, cache)
        for m in group:
            build = (m.job.kernel, m.job.variant, opt, measurer.core)
            try:
                hit = unbuilt(measurer, m.job, unbuildable[build]) if build in unbuildable else measurer.cached(m.job)
            except ToolchainError as exc:  # this variant cannot be built: it fails, the others still run
                unbuildable[build] = exc
                hit = unbuilt(measurer, m.job, exc)
            if hit is None:
                missing.append(m)
                storers[(config, opt)] = measurer
            else:
                done(m, hit)
    if missing:
        try:
            executor.run(missing, done)
        finally:  # what finished is stored even when the executor stops part-way (e.g. a cluster lost)
            for m in missing:
                if m in measured:
                    storers[(m.config, m.opt)].store(m.job, measured[m])
    return measured


def _by_config(jobs: Sequence[MeasureJob]) -> dict[tuple[MemoryConfig, str], list[MeasureJob]]:
    groups: dict[tuple[MemoryConfig, str], list[MeasureJob]] = {}
    for m in jobs:
        groups.setdefault((m.config, m.opt), []).append(m)
    return groups
