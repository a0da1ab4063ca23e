"""An execution trace of one call, recorded only when asked: blocks, data accesses, memory outcomes.

Usage::

    from cortexm_emu.trace import TraceOptions, trace_call
    traced = trace_call(machine, "func", Buffer(b"..."), 16, options=TraceOptions())
    traced.result.cycles              # the CallResult, exactly as machine.call gives it
    traced.trace.blocks               # start address of every executed block, in order
    traced.trace.addresses_by_pc()    # PC of each load/store -> the data addresses it touched
    traced.trace.flash_reads          # per flash data read: hit/miss in the data cache, stall cycles

or, around any number of calls, ``with Tracer(machine) as tracer: machine.call(...)`` and
``tracer.trace`` (the memory outcome then belongs to the last call).

What it costs
    Nothing unless asked: the :class:`cortexm_emu.Machine` installs none of these hooks. A
    :class:`Tracer` adds a ``UC_HOOK_BLOCK`` (the block sequence) and a ``UC_HOOK_MEM_READ |
    UC_HOOK_MEM_WRITE`` over the whole address space (every data access with its PC: Unicorn
    keeps the PC exact in memory hooks) while it is attached, and removes them on exit.
    Unicorn decides at translation time whether a block calls a hook, so the translated blocks
    are flushed (``ctl_flush_tb``) on attach and on detach; the cycle count is unchanged by
    tracing (the tests check it), because the cycle accounting does not depend on translation.

Memory-system outcome (boards with flash wait states)
    A board's stalls come from a replay after the call (:meth:`cortexm_emu.flash.BoardMemory.replay`).
    The tracer replays the same call again with the reference (Python) walk
    (:func:`cortexm_emu.flash_replay.walk`) over caches that log every lookup, and keeps the counted pass (the
    second of a warm start). Each data read of flash (constant tables, literal pools) then gets
    its outcome: ``hit`` in the data cache (0 stall cycles), ``miss`` (the wait states,
    rule R6 of :mod:`cortexm_emu.flash`) or ``uncached`` (no data cache on the path or caches
    off: the wait states). Instruction-line lookups in the I-cache are kept too (``fetches``).
    SRAM accesses have no outcome: every profiled SRAM has 0 wait states (rule R7). With ideal
    memory, or a board at 0 wait states, there is nothing to replay and both lists are empty.

Determinism: the trace is a function of the ELF, the inputs and the memory system, as the
cycle count is.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from types import TracebackType
from typing import TYPE_CHECKING, Any

from unicorn import UC_HOOK_BLOCK, UC_HOOK_MEM_READ, UC_HOOK_MEM_WRITE, Uc
from unicorn import arm_const as uc_arm

from cortexm_emu.caches import LruCache
from cortexm_emu.errors import EmulatorError

if TYPE_CHECKING:
    from cortexm_emu.call import CallResult
    from cortexm_emu.machine import Machine

_ACCESS_WRITE = 17  # unicorn UC_MEM_WRITE (UC_MEM_READ = 16)


@dataclass(frozen=True)
class TraceOptions:
    """What to record. ``blocks``: the executed block sequence (control flow); ``accesses``: the
    data address, size and direction of every load and store with its PC; ``memory``: the
    memory-system outcome of each flash data read (needs ``accesses``)."""

    blocks: bool = True
    accesses: bool = True
    memory: bool = True

    def __post_init__(self) -> None:
        if self.memory and not self.accesses:
            raise ValueError("Invalid TraceOptions(memory=True, accesses=False); accepted: memory "
                             "outcomes need accesses=True")


@dataclass(frozen=True)
class Access:
    """One data access: the instruction's address, the data address, bytes, and direction."""

    pc: int
    address: int
    size: int
    write: bool


@dataclass(frozen=True)
class MemoryOutcome:
    """What the board's memory system did with one data read of flash."""

    pc: int
    address: int
    outcome: str  # "hit", "miss" (data cache) or "uncached" (no data cache on the path / off)
    stall_cycles: int


@dataclass
class CallTrace:
    """The recorded trace of the call(s) made while a :class:`Tracer` was attached."""

    blocks: list[int] = field(default_factory=list)
    accesses: list[Access] = field(default_factory=list)
    #: per data read of flash, in order: the data cache's outcome and its stall cycles
    flash_reads: list[MemoryOutcome] = field(default_factory=list)
    #: per instruction-line lookup in the I-cache, in order: (line address, hit)
    fetches: list[tuple[int, bool]] = field(default_factory=list)
    #: line size of the data cache on the flash path (None: no data cache, or caches off)
    dcache_line_bytes: int | None = None
    #: core cycles of the wait states of one flash read (0: no flash stalls possible)
    wait_cycles: int = 0

    def addresses_by_pc(self, *, writes: bool = True) -> dict[int, list[int]]:
        """PC of each load/store -> the data addresses it accessed, in execution order."""
        by_pc: dict[int, list[int]] = defaultdict(list)
        for access in self.accesses:
            if writes or not access.write:
                by_pc[access.pc].append(access.address)
        return dict(by_pc)

    def successors(self) -> dict[int, list[int]]:
        """Block address -> the address of the block that followed it, at each execution (the
        last block of the call has no successor)."""
        following: dict[int, list[int]] = defaultdict(list)
        for here, nxt in zip(self.blocks, self.blocks[1:], strict=False):
            following[here].append(nxt)
        return dict(following)

    def stall_cycles_by_pc(self) -> dict[int, int]:
        """PC -> the data stall cycles of its flash reads."""
        stalls: dict[int, int] = defaultdict(int)
        for outcome in self.flash_reads:
            stalls[outcome.pc] += outcome.stall_cycles
        return dict(stalls)


@dataclass(frozen=True)
class TracedCall:
    result: CallResult
    trace: CallTrace


class Tracer:
    """Attach to a loaded :class:`~cortexm_emu.Machine` for the duration of a ``with`` block."""

    def __init__(self, machine: Machine, options: TraceOptions | None = None) -> None:
        self.machine = machine
        self.options = options if options is not None else TraceOptions()
        self.trace = CallTrace()
        self._handles: list[int] = []

    def __enter__(self) -> Tracer:
        if self._handles:
            raise EmulatorError("this Tracer is already attached")
        uc = self.machine.uc
        self.trace = CallTrace()
        if self.options.blocks:
            self._handles.append(uc.hook_add(UC_HOOK_BLOCK, self._on_block))
        if self.options.accesses:
            self._handles.append(uc.hook_add(UC_HOOK_MEM_READ | UC_HOOK_MEM_WRITE, self._on_access))
        uc.ctl_flush_tb()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, tb: TracebackType | None
    ) -> None:
        uc = self.machine.uc
        for handle in self._handles:
            uc.hook_del(handle)
        self._handles = []
        uc.ctl_flush_tb()
        if kind is None and self.options.memory:
            _memory_outcomes(self.machine, self.trace)

    def _on_block(self, uc: Uc, address: int, size: int, _user: object) -> None:
        self.trace.blocks.append(address)

    def _on_access(
        self, uc: Uc, access: int, address: int, size: int, value: int, _user: object
    ) -> None:
        self.trace.accesses.append(
            Access(uc.reg_read(uc_arm.UC_ARM_REG_PC), address, size, access == _ACCESS_WRITE)
        )


def trace_call(
    machine: Machine, function: str, *args: Any, options: TraceOptions | None = None, **kwargs: Any
) -> TracedCall:
    """``machine.call(function, *args, **kwargs)`` with a :class:`Tracer` attached."""
    with Tracer(machine, options) as tracer:
        result = machine.call(function, *args, **kwargs)
    return TracedCall(result, tracer.trace)


# -- the memory-system outcome -------------------------------------------------------------------


class _LoggingCache(LruCache):
    """An :class:`LruCache` that logs every lookup (address, hit)."""

    def __init__(self, cache: LruCache | None, geometry: Any) -> None:
        if cache is None:
            super().__init__(geometry)
        else:  # a view of another cache's state (a cache shared by instructions and data)
            self.__dict__.update(cache.__dict__)
        self.log: list[tuple[int, bool]] = []

    def lookup(self, address: int) -> bool:
        hit = super().lookup(address)
        self.log.append((address, hit))
        return hit


def _memory_outcomes(machine: Machine, trace: CallTrace) -> None:
    """Fill ``trace.flash_reads`` and ``trace.fetches`` from the last call's replay data."""
    from cortexm_emu.fetch_plan import plan_block
    from cortexm_emu.flash import BoardMemory
    from cortexm_emu.flash_replay import ReplayInput, cycles_before, walk

    memory = machine.memory
    if not isinstance(memory, BoardMemory) or not memory.needs_trace:
        return
    flash = list(machine._flash_ranges)  # noqa: SLF001 - the machine's own replay inputs
    sequence = machine.accounting.trace()
    if not len(sequence):
        return
    log = machine._read_log  # noqa: SLF001
    reads = log.reads() if log is not None else machine._flash_reads  # noqa: SLF001
    blocks, edges = machine.pricing.blocks, machine.pricing.edges
    plans = {address: plan_block(blocks[address], flash, memory.line_bytes) for address in set(sequence)}
    call = ReplayInput(sequence, plans, cycles_before(blocks, edges), reads)
    icache = _LoggingCache(None, memory.icache) if memory.icache is not None and memory.cache else None
    d_geometry = memory.dcache if memory.cache else None
    if d_geometry is not None and icache is not None and d_geometry is memory.icache:
        dcache: _LoggingCache | None = _LoggingCache(icache, d_geometry)
    else:
        dcache = _LoggingCache(None, d_geometry) if d_geometry is not None else None
    for _ in range(2 if memory.start == "warm" else 1):
        for cache in (icache, dcache):
            if cache is not None:
                cache.log = []
        walk(memory.fetch_unit, call, icache, dcache)
    trace.wait_cycles = memory.wait_cycles
    trace.dcache_line_bytes = d_geometry.line_bytes if d_geometry is not None else None
    trace.fetches = list(icache.log) if icache is not None else []
    in_flash = [a for a in trace.accesses if not a.write and any(s <= a.address < e for s, e in flash)]
    if len(in_flash) != len(reads):
        raise EmulatorError(
            f"trace: {len(in_flash)} data reads of flash recorded with their PC but {len(reads)} "
            "in the machine's replay log; the two hooks disagree"
        )
    ws = memory.wait_cycles
    if dcache is None:
        trace.flash_reads = [MemoryOutcome(a.pc, a.address, "uncached", ws) for a in in_flash]
        return
    trace.flash_reads = [
        MemoryOutcome(a.pc, a.address, "hit" if hit else "miss", 0 if hit else ws)
        for a, (_address, hit) in zip(in_flash, dcache.log, strict=True)
    ]


__all__ = ["Access", "CallTrace", "MemoryOutcome", "TraceOptions", "TracedCall", "Tracer", "trace_call"]
