"""The board-time fixtures: parametrise each board case with its :class:`EmulatedClock` as
pytest-benchmark's ``timer``, and time it with ``benchmark.pedantic`` and fixed rounds."""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest

from cortexm_emu.boards import load_board
from refbench.pytest_plugin.clock import CLOCK_SOURCE, REPEAT_NOTE, TIME_SOURCE, EmulatedClock
from refbench.pytest_plugin.inputs import chosen_inputs, input_lengths, sized_role
from refbench.pytest_plugin.options import IDEAL_MEMORY
from refbench.pytest_plugin.selection import BoardCase, board_cases

#: Where the board cases of a run record their rows for the terminal summary.
CASES_KEY = pytest.StashKey[list[dict[str, Any]]]()

#: The parameters of a board case, in id order; ``--benchmark-group-by param:refbench_board`` etc.
CASE_PARAMS: tuple[str, ...] = (
    "refbench_board", "refbench_kernel", "refbench_operation", "refbench_size", "refbench_build",
)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Parametrise board cases, each with its own clock.

    A test using ``board_case`` (or ``board_benchmark``) gets one test per case, parametrised by
    :data:`CASE_PARAMS` (plain strings and ints, so ``--benchmark-json`` keeps them and
    ``--benchmark-group-by param:refbench_board`` works).
    """
    config = metafunc.config
    if "board_case" in metafunc.fixturenames:
        params = [
            pytest.param(
                case.board, case.kernel, case.operation, case.size, f"{case.compiler}-{case.opt}",
                id=case.id,
                marks=pytest.mark.benchmark(timer=EmulatedClock(case.board, case.clock_hz), group=case.group),
            )
            for case in board_cases(config)
        ]
        metafunc.parametrize(CASE_PARAMS, params)


@cache
def _harness(family_name: str, variant: str, core: str, opt: str, compiler: str, board: str, clock_hz: int,
             memory: str):
    """One built, loaded harness per (kernel variant, core, build, board memory system)."""
    from cortexm_emu import board_memory
    from refbench.kernels.harness import KernelHarness

    system = None if memory == "ideal" else board_memory(board, clock_hz / 1e6, memory)  # type: ignore[arg-type]
    return KernelHarness(family_name, variant, core, opt=opt, compiler=compiler, memory=system)


# --------------------------------------------------------------------------- the fixture


def _roles(case: BoardCase) -> tuple[str, ...]:
    from refbench.kernels.catalog import family

    op = next(o for o in family(case.family).operations if o.name == case.operation)
    return tuple(dict.fromkeys(op.args + op.setup_args))


class BoardBenchmark:
    """Times one :class:`BoardCase` with ``benchmark.pedantic`` on its :class:`EmulatedClock`."""

    def __init__(self, benchmark: Any, case: BoardCase, clock: EmulatedClock, rounds: int,
                 record: list[dict[str, Any]]) -> None:
        self.benchmark = benchmark
        self.case = case
        self.clock = clock
        self.rounds = rounds
        self._record = record

    def __call__(self):
        """Run the case ``rounds`` times; return the last :class:`KernelRun` (``verified`` tells)."""
        case = self.case
        harness = _harness(case.family, case.variant, case.core, case.opt, case.compiler, case.board,
                           case.clock_hz, case.memory)
        inputs = chosen_inputs(harness, case)
        runs = []

        def one_round():
            run = harness.run(inputs, case.operation)
            self.clock.advance(run.cycles)
            runs.append(run)
            return run

        self.benchmark.group = case.group
        last = self.benchmark.pedantic(one_round, rounds=self.rounds, iterations=1, warmup_rounds=0)
        cycle_counts = sorted({run.cycles for run in runs})
        info = {
            "kind": "emulated",
            "board": case.board,
            "part": load_board(case.board).part,
            "core": case.core,
            "clock_hz": case.clock_hz,
            "clock_mhz": case.clock_hz / 1e6,
            "clock_source": CLOCK_SOURCE,
            "time_source": TIME_SOURCE,
            "memory": IDEAL_MEMORY if case.memory == "ideal" else harness.machine.memory.name,
            "memory_cycles": last.memory_cycles,
            "kernel": case.kernel,
            "operation": case.operation,
            "size_bytes": case.size,
            "compiler": case.compiler,
            "opt": case.opt,
            "cycles": last.cycles,
            "cycles_per_byte": last.cycles / case.size,
            "size_role": sized_role(_roles(case)),
            "input_lengths": input_lengths(inputs),
            "instructions": last.instructions,
            "stack_bytes": last.stack_bytes,
            "code_bytes": last.code_bytes,
            "seconds": last.cycles / case.clock_hz,
            "verified": last.verified,
            "mismatch": last.mismatch,
            "elf_sha256": last.elf_sha256,
            "timing_model_version": str(getattr(harness.machine.timing, "version", "")),
            "rounds": len(runs),
            "round_cycles": cycle_counts,
            "exact_repeats": len(cycle_counts) == 1,
            "repeatability": REPEAT_NOTE,
        }
        self.benchmark.extra_info.update(info)
        self._record.append({"name": self.benchmark.name, **info})
        return last


@pytest.fixture
def board_case(refbench_board: str, refbench_kernel: str, refbench_operation: str, refbench_size: int,
               refbench_build: str, request: pytest.FixtureRequest) -> BoardCase:
    """The :class:`BoardCase` of the current parameters (see :data:`CASE_PARAMS`) and the run's
    ``--refbench-memory``."""
    board = load_board(refbench_board)
    family_name, _, variant = refbench_kernel.partition("/")
    compiler, _, opt = refbench_build.partition("-")
    return BoardCase(refbench_board, board.core, round(board.default_clock_mhz * 1_000_000), family_name,
                     variant, refbench_operation, refbench_size, compiler, opt,
                     request.config.getoption("refbench_memory"))


@pytest.fixture
def board_benchmark(benchmark: Any, board_case: BoardCase, request: pytest.FixtureRequest) -> BoardBenchmark:
    """pytest-benchmark's ``benchmark`` for one emulated board case; call it to time the case.

    The case's :class:`EmulatedClock` is the ``timer`` of its ``benchmark`` marker (set by
    :func:`pytest_generate_tests`), so the time reported is board time.
    """
    marker = request.node.get_closest_marker("benchmark")
    clock = marker.kwargs.get("timer") if marker else None
    if not isinstance(clock, EmulatedClock):
        raise pytest.UsageError(
            f"{request.node.nodeid}: board cases must be parametrised by refbench.pytest_plugin "
            "(its benchmark marker carries the EmulatedClock)"
        )
    return BoardBenchmark(benchmark, board_case, clock, request.config.getoption("refbench_rounds"),
                          request.config.stash.setdefault(CASES_KEY, []))


