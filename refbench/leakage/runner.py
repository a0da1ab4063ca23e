"""Run one kernel operation on many inputs, traced or not, each output checked against the reference.

A run is the operation as the harness calls it (:mod:`refbench.kernels.harness`): the setup
function if the manifest names one (a key schedule: it reads the key, so it is analysed too),
then the operation's function on the context the setup filled. Each call gets its own
:class:`cortexm_emu.trace.CallTrace` when traced; every output is compared with the Python
reference, so a leakage verdict is never about a kernel that computes the wrong thing.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

from cortexm_emu import Machine
from cortexm_emu.cores import core_info
from cortexm_emu.errors import EmulatorError
from cortexm_emu.flash import BoardMemory, board_memory
from cortexm_emu.trace import CallTrace, TraceOptions, Tracer
from refbench.kernels import representation
from refbench.kernels.catalog import Operation, build_variant, family
from refbench.kernels.harness import (
    call_arguments,  # the harness's one way to lay out arguments by role
)
from refbench.kernels.references import reference


@dataclass(frozen=True)
class CallRun:
    """One call of one run: the function, its cycles and (when traced) its trace."""

    function: str
    cycles: int
    trace: CallTrace | None
    #: extra cycles of operand-dependent instructions (divides, Cortex-M3 long multiplies), by address
    dynamic_cycles: dict[int, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Run:
    calls: tuple[CallRun, ...]


@dataclass(frozen=True)
class Target:
    """Where the runs happen: a core with ideal memory, or a board's memory system."""

    core: str
    memory: BoardMemory | None = None

    @property
    def label(self) -> str:
        return self.memory.name if self.memory is not None else f"{self.core}, ideal memory"

    @property
    def line_bytes(self) -> int | None:
        """The line of the data cache on the board's flash path, when the caches are on."""
        if self.memory is None or not self.memory.cache or self.memory.dcache is None:
            return None
        return self.memory.dcache.line_bytes


def make_target(core: str | None, board: str | None, *, clock_mhz: float | None = None,
                cache: str = "on", start: str = "cold") -> Target:
    """A target from the command line's ``--core`` or ``--board`` (one of them)."""
    if (core is None) == (board is None):
        raise ValueError("give exactly one of --core CORE or --board BOARD")
    if board is None:
        core_info(core)  # type: ignore[arg-type]  # ValueError naming the core and the accepted ones
        return Target(core)  # type: ignore[arg-type]
    memory = board_memory(board, clock_mhz, cache, start=start)  # type: ignore[arg-type]
    return Target(memory.board.core, memory)


class OperationRunner:
    """One built variant in one machine, ready to run an operation on many inputs."""

    def __init__(self, kernel: str, variant: str, operation: Operation, target: Target, *,
                 opt: str = "Os", compiler: str = "zig") -> None:
        fam = family(kernel)
        self.variant = fam.variant(variant)
        self.operation = operation
        self.target = target
        self.build = build_variant(self.variant, target.core, opt=opt, compiler=compiler)
        self.elf_sha256 = hashlib.sha256(self.build.elf.read_bytes()).hexdigest()
        options: dict[str, Any] = {"memory": target.memory} if target.memory is not None else {}
        self.machine = Machine(target.core, **options)
        self.machine.load_elf(self.build.elf)

    def run(self, inputs: dict[str, Any], *, traced: bool) -> Run:
        op = self.operation
        calls: list[CallRun] = []
        called = representation.encode(self.variant, op, inputs)  # the variant's own limbs, if it keeps them
        ctx = None
        if op.setup:
            result, trace = self._call(op.setup, call_arguments(op, op.setup_args, called, None), traced)
            ctx = result.buffer("ctx")
            calls.append(CallRun(op.setup, result.cycles, trace, dict(result.dynamic_cycles)))
        result, trace = self._call(op.function, call_arguments(op, op.args, called, ctx), traced)
        calls.append(CallRun(op.function, result.cycles, trace, dict(result.dynamic_cycles)))
        for role, want in reference(op.reference)(inputs).items():
            got = representation.decode(self.variant, op, role, result.buffer(role)) if role in op.args else want
            if got != want:
                raise EmulatorError(
                    f"{self.variant.path} {op.name} on {self.target.label}: output {role} differs from the "
                    f"reference {op.reference} (expected {want.hex()}, got {got.hex()})")
        return Run(tuple(calls))

    def _call(self, function: str, args: list[Any], traced: bool) -> tuple[Any, CallTrace | None]:
        if not traced:
            return self.machine.call(function, *args, budget=200_000_000), None
        with Tracer(self.machine, TraceOptions()) as tracer:
            result = self.machine.call(function, *args, budget=200_000_000)
        return result, tracer.trace
