"""The kernel matrix of ``.ci/matrix`` as measure jobs: every kernel x variant x operation x core
(m0plus, m3, m4, m7, m33) x optimisation level (Os, O2, O3) x compiler (zig, and gcc when
``arm-none-eabi-gcc`` is installed), each call verified against its Python reference.

It runs through the executors of the sanity report: local processes by default, or the workers of
a Dask scheduler (``--scheduler tcp://host:8786`` or ``$REFBENCH_SCHEDULER``), one task per
(core, optimisation, compiler, kernel variant) -- the task body is
:func:`refbench.sanity.dask_executor.measure_calls` in both cases, so where a job runs does not
change its result (the emulator is deterministic; tests/test_matrix_sweep.py compares the two on
a ``LocalCluster``). The pytest matrix (``pytest -m matrix``: edge-case lengths and official
vectors per kernel) stays a pytest run; this sweep is its measure-everything half, the part that
outgrows one machine.

``python -m refbench.sanity.matrix [--scheduler ADDR] [--kernel K ...] [--core C ...] [--opt O ...]
[--compiler C ...]`` prints one line per group and a summary, and exits 1 when any call fails to
verify (each named with its kernel, variant, operation, size, core, build).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from cortexm_emu.machine_options import add_machine_options
from cortexm_emu.toolchain import gcc_available
from refbench.kernels.catalog import families, family
from refbench.measure import Job, Measurement
from refbench.sanity.dask_executor import (
    ClusterLostError,
    DaskExecutor,
    SchedulerError,
    measure_calls,
    scheduler_address,
)
from refbench.sanity.executor import local_workers

CORES = ("m0plus", "m3", "m4", "m7", "m33")
OPTS = ("Os", "O2", "O3")
#: Message sizes of the symmetric kernels: empty, one 64-byte block, wolfSSL's 1024-byte benchmark
#: block (every block and chunk size divides them; an operation that rejects one is "not applicable").
MESSAGE_SIZES = (0, 64, 1024)
NOT_APPLICABLE = "not applicable"
#: Operand sizes of the run-time-length bignum operations (256 and 2048 bits; the exponentiation
#: at 256 bits only: at 2048 it is some 10^8 cycles per call); fixed-size operations at their size.
BIGNUM_SIZES = {"mont-mul": (32, 256), "mont-sqr": (32, 256), "mont-add": (32, 256), "mont-sub": (32, 256),
                "mont-exp": (32,), "select": (32, 68), "ed25519-double-mult": (64,), "p256-ecdsa-sign": (64,),
                "p256-ecdsa-verify": (64,),
                # table reads (table.h): an entry's bytes, P-256 x y / x y z and P-384 x y z; a 2^255 - 19 row entry
                "sp-table-read": (64, 96, 144), "ref10-cmov-table": (96,),
                # CycloneCRYPTO's shape (mpi_cyclone.h); cy-mod is bit-serial, some 10^7 cycles at 256 bytes
                "cy-mont-mul": (32, 256), "cy-mont-red": (32, 256), "cy-mod": (32,)}
_FIELD_BYTES = {"p256": 32, "p384": 48, "p521": 68, "25519": 32, "448": 56, "x25519": 32}


@dataclass(frozen=True)
class Group:
    """One task: the jobs of one kernel variant under one core, optimisation and compiler."""

    core: str
    opt: str
    compiler: str
    jobs: tuple[Job, ...]

    @property
    def options(self) -> dict[str, Any]:
        return {"core": self.core, "opt": self.opt, "compiler": self.compiler}

    @property
    def label(self) -> str:
        j = self.jobs[0]
        return f"{j.kernel}/{j.variant} {self.core} {self.compiler} -{self.opt}"


def _sizes(kernel: str, operation: str) -> tuple[int, ...]:
    if kernel != "bignum":
        return MESSAGE_SIZES
    if operation in BIGNUM_SIZES:
        return BIGNUM_SIZES[operation]
    return (_FIELD_BYTES.get(operation.removeprefix("cy-").split("-")[0], 32),)


def groups(kernels: Sequence[str] | None = None, cores: Sequence[str] = CORES, opts: Sequence[str] = OPTS,
           compilers: Sequence[str] | None = None) -> list[Group]:
    """The matrix's tasks, in a fixed order (unknown kernel names raise ValueError listing the valid ones)."""
    names = list(kernels) if kernels else sorted(families())
    compilers = list(compilers) if compilers else ["zig"] + (["gcc"] if gcc_available() else [])
    out = []
    for name in names:
        fam = family(name)
        for core in cores:
            for opt in opts:
                for compiler in compilers:
                    for variant in fam.variants:
                        if not fam.variant(variant).supports(core):
                            continue
                        jobs = tuple(Job(name, variant, op.name, size) for op in fam.operations
                                     for size in _sizes(name, op.name))
                        out.append(Group(core, opt, compiler, jobs))
    return out


def _run_group(group: Group) -> list[Measurement]:
    return measure_calls(group.options, group.jobs)[0]


def run(tasks: Sequence[Group], scheduler: str | None = None, workers: int | None = None,
        done: Callable[[Group, list[Measurement]], None] | None = None) -> dict[Group, list[Measurement]]:
    """Measure every group: on the scheduler's workers when ``scheduler`` is given, else in
    ``workers`` local processes (default: one per usable CPU; 1 runs in this process)."""
    out: dict[Group, list[Measurement]] = {}

    def finish(group: Group, results: list[Measurement]) -> None:
        out[group] = results
        if done is not None:
            done(group, results)

    if scheduler is not None:
        with DaskExecutor(scheduler) as cluster:
            for index, (results, _) in cluster.each(measure_calls, [(g.options, list(g.jobs)) for g in tasks]):
                finish(tasks[index], results)
        return out
    workers = workers or local_workers()
    if workers <= 1:
        for g in tasks:
            finish(g, _run_group(g))
        return out
    with ProcessPoolExecutor(workers) as pool:
        for g, results in zip(tasks, pool.map(_run_group, tasks), strict=True):
            finish(g, results)
    return out


def failures(results: dict[Group, list[Measurement]]) -> list[str]:
    """Every call that did not verify, named (a size the operation does not accept is not a failure)."""
    return [f"{m.kernel}/{m.variant} {m.operation} {m.size} B on {g.core} ({g.compiler} -{g.opt}): "
            f"{m.mismatch or m.error or 'not verified'}"
            for g, ms in results.items() for m in ms if not m.verified and not m.error.startswith(NOT_APPLICABLE)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m refbench.sanity.matrix", description=__doc__.splitlines()[0])
    parser.add_argument("--scheduler", metavar="tcp://HOST:PORT", help="a Dask scheduler (else $REFBENCH_SCHEDULER, "
                                                                       "else local processes)")
    parser.add_argument("--kernel", action="append", help="only these kernel families (repeatable)")
    add_machine_options(parser, ("core",), cores=CORES, repeatable=True,
                        helps={"core": f"only these cores ({', '.join(CORES)}); repeatable or comma-separated"})
    parser.add_argument("--opt", action="append", choices=OPTS, help="only these optimisation levels (repeatable)")
    parser.add_argument("--compiler", action="append", choices=("zig", "gcc"), help="only these compilers")
    args = parser.parse_args(argv)
    try:
        address = scheduler_address(args.scheduler)
        tasks = groups(args.kernel, args.core or CORES, args.opt or OPTS, args.compiler)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2

    def show(g: Group, ms: list[Measurement]) -> None:
        bad = sum(not m.verified and not m.error.startswith(NOT_APPLICABLE) for m in ms)
        print(f"{g.label:48} {len(ms):4} calls {'ok' if not bad else f'{bad} FAILED'}", flush=True)

    where = f"on {address}" if address else f"in {os.environ.get('REFBENCH_WORKERS') or local_workers()} local process(es)"
    print(f"kernel matrix: {len(tasks)} groups, {sum(len(g.jobs) for g in tasks)} calls, {where}", flush=True)
    try:
        results = run(tasks, address, done=show)
    except SchedulerError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except ClusterLostError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    bad = failures(results)
    for line in bad:
        print(f"FAILED {line}")
    verified = sum(m.verified for ms in results.values() for m in ms)
    skipped = sum(len(ms) for ms in results.values()) - verified - len(bad)
    print(f"{verified} verified, {len(bad)} failed, {skipped} not applicable")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
