"""Which board cases a run selects: boards x kernel variants x operations x sizes x builds,
from the options (``--refbench-full`` widens every dimension not given explicitly)."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from cortexm_emu.boards import load_board
from cortexm_emu.toolchain import gcc_available
from refbench.pytest_plugin.options import (
    COMPILERS,
    DEFAULT_BOARD_SIZES,
    DEFAULT_BOARDS,
    DEFAULT_COMPILER,
    DEFAULT_MEMORY,
    DEFAULT_OPT,
    FULL_OPTS,
    FULL_SIZES,
    OPERAND_SIZES,
    emulated_boards,
)


@dataclass(frozen=True)
class BoardCase:
    """One emulated benchmark: a kernel operation on a board at its clock, for one message size."""

    board: str
    core: str
    clock_hz: int
    family: str
    variant: str
    operation: str
    size: int
    compiler: str
    opt: str
    memory: str = DEFAULT_MEMORY  # one of options.MEMORY_CHOICES

    @property
    def kernel(self) -> str:
        return f"{self.family}/{self.variant}"

    @property
    def id(self) -> str:
        return f"{self.board}-{self.kernel}-{self.operation}-{self.size}B-{self.compiler}-{self.opt}"

    @property
    def group(self) -> str:
        return (
            f"board time: {self.operation} {self.size} B "
            "(emulated cycles/clock; exact repeats, stddev 0)"
        )


def selected_sizes(config: pytest.Config, default: tuple[int, ...]) -> tuple[int, ...]:
    given = config.getoption("refbench_size")
    if given:
        return tuple(dict.fromkeys(given))
    return FULL_SIZES if config.getoption("refbench_full") else default


def operation_sizes(config: pytest.Config, family_name: str, operation: str) -> tuple[int, ...]:
    """The selected sizes this operation takes; when it takes none of them and no --refbench-size
    was given, the smallest of :data:`OPERAND_SIZES` it takes (a field operation's operand length),
    so every operation is benchmarked at a size its reference accepts and none at one it rejects."""
    from refbench.pytest_plugin.inputs import accepts

    sizes = tuple(size for size in selected_sizes(config, DEFAULT_BOARD_SIZES)
                  if accepts(family_name, operation, size))
    if sizes or config.getoption("refbench_size"):
        return sizes
    return next(((size,) for size in OPERAND_SIZES if accepts(family_name, operation, size)), ())


def selected_boards(config: pytest.Config) -> tuple[str, ...]:
    given = config.getoption("refbench_board")
    if given:
        return tuple(dict.fromkeys(given))
    return tuple(emulated_boards()) if config.getoption("refbench_full") else DEFAULT_BOARDS


def selected_kernels(config: pytest.Config) -> list[tuple[str, str]]:
    """(family, variant) pairs, in catalogue order."""
    from refbench.kernels.catalog import families

    given = config.getoption("refbench_kernel") or list(families())
    pairs: list[tuple[str, str]] = []
    for spec in given:
        family_name, _, variant = spec.partition("/")
        variants = [variant] if variant else list(families()[family_name].variants)
        pairs.extend((family_name, v) for v in variants)
    return list(dict.fromkeys(pairs))


def selected_builds(config: pytest.Config) -> list[tuple[str, str]]:
    """(compiler, opt) pairs."""
    full = config.getoption("refbench_full")
    compilers = config.getoption("refbench_compiler") or (
        [c for c in COMPILERS if c == "zig" or gcc_available()] if full else [DEFAULT_COMPILER]
    )
    opts = config.getoption("refbench_opt") or (list(FULL_OPTS) if full else [DEFAULT_OPT])
    return [(c, o) for c in dict.fromkeys(compilers) for o in dict.fromkeys(opts)]


def board_cases(config: pytest.Config) -> list[BoardCase]:
    """Every selected case: boards x kernel variants x operations x sizes x builds, each variant on
    the boards whose core it runs on and each operation at the sizes it takes."""
    from refbench.kernels.catalog import families

    cases = []
    for board_name in selected_boards(config):
        board = load_board(board_name)
        clock_hz = round(board.default_clock_mhz * 1_000_000)
        for family_name, variant in selected_kernels(config):
            if not families()[family_name].variant(variant).supports(board.core):
                continue  # e.g. a UMAAL variant on an M0+: its manifest's cores say where it runs
            for op in families()[family_name].operations:
                for size in operation_sizes(config, family_name, op.name):
                    for compiler, opt in selected_builds(config):
                        cases.append(
                            BoardCase(board_name, board.core, clock_hz, family_name, variant,
                                      op.name, size, compiler, opt, config.getoption("refbench_memory"))
                        )
    return cases

