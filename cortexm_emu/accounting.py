"""Per-block accounting: count each executed edge (previous block -> block).

Two interchangeable implementations with the same results:

* :class:`NativeAccounting` registers ``cme_block_hook`` from ``blockcount.c``
  as Unicorn's UC_HOOK_BLOCK callback (one hash probe in C per block);
* :class:`PythonAccounting` does the same in a Python UC_HOOK_BLOCK callback
  (used when no host C compiler is available; about 100x slower on ALU code).

Both call ``discover(prev, cur, size)`` once per new edge. It returns the
edge's ``(cost, instructions, branch)`` or ``None`` to stop the run before the block
executes (an illegal instruction, or a block whose dynamic instructions need
code hooks installed first). ``prev`` is ``None`` for the first block. ``branch`` is 0,
or the conditional branch ending ``prev`` that the timing model predicts from history
(``cortexm_emu.timing.prediction.encode_branch``): each time the edge is counted, the
branch's two-bit counter (one per branch address, cleared by ``reset``) predicts it, a
misprediction adds its cycles (``cycles`` includes them; ``mispredictions()`` tells where),
and the counter moves toward the edge's outcome.
Budgets are checked before a block runs: a block that would take the run past
the instruction (or cycle) budget does not execute.

``install(uc, discover, trace=True)`` makes either implementation also record the
address of every block it counts, in order (``trace()``); a board memory system
with history (prefetch buffer, caches) replays that sequence after the run. The
native counter then registers ``cme_block_hook_traced``; without a trace it
registers the untraced ``cme_block_hook``, so the ideal-memory path is unchanged.
"""

from __future__ import annotations

import ctypes
from array import array
from collections.abc import Callable, Iterable
from typing import Any, Protocol

from unicorn import UC_HOOK_BLOCK, Uc
from unicorn.unicorn_py3.unicorn import uclib

from cortexm_emu import native
from cortexm_emu.timing.prediction import decode_branch, step

Discover = Callable[[int | None, int, int], "tuple[int, int, int] | None"]

RUNNING = native.RUNNING
STOP_INSN_BUDGET = native.STOP_INSN_BUDGET
STOP_CYCLE_BUDGET = native.STOP_CYCLE_BUDGET
STOP_DISCOVER = native.STOP_DISCOVER
STOP_NO_MEMORY = native.STOP_NO_MEMORY


class Accounting(Protocol):
    kind: str

    def install(self, uc: Uc, discover: Discover, trace: bool = False) -> None: ...
    def reset(self, insn_budget: int, cycle_budget: int, keep_edges: bool = False) -> None:
        """A new call: counts to 0, the budgets set (0: none). ``keep_edges``: the priced edges
        stay (no code changed since they were priced), so a warm call asks ``discover`` only
        for edges it has not seen; the counts are the same either way."""
    def clear_stop(self) -> None: ...
    def set_instruction_limit(self, limit: int) -> None: ...
    @property
    def cycles(self) -> int: ...
    @property
    def instructions(self) -> int: ...
    @property
    def blocks(self) -> int: ...
    @property
    def current(self) -> int | None: ...
    @property
    def stop_reason(self) -> int: ...
    def edges(self) -> dict[tuple[int | None, int], int]: ...
    def mispredictions(self) -> dict[int, int]: ...

    def mispredictions_by_block(self) -> dict[tuple[int, int], int]: ...
    @property
    def branch_cycles(self) -> int: ...
    @property
    def tracing(self) -> bool: ...
    def trace(self) -> array: ...


class NativeAccounting:
    kind = "native"

    def __init__(self, lib: ctypes.CDLL) -> None:
        self._lib = lib
        self._state = lib.cme_new(1024)
        if not self._state:
            raise MemoryError("cme_new failed to allocate the edge table")
        self._discover_cb = None  # keeps the ctypes thunk alive
        self._hook = ctypes.c_size_t()
        self._user_discover: Discover | None = None
        self._tracing = False
        self._exported: tuple[tuple[int, int, int], list[native.Edge]] | None = None

    def __del__(self) -> None:
        state, lib = getattr(self, "_state", None), getattr(self, "_lib", None)
        if state and lib is not None:
            lib.cme_free(state)
            self._state = None

    def install(self, uc: Uc, discover: Discover, trace: bool = False) -> None:
        self._user_discover = discover
        self._tracing = trace

        def _discover(prev: int, cur: int, size: int, cost_out, insns_out, branch_out) -> int:  # type: ignore[no-untyped-def]
            result = discover(None if prev == native.NO_PREV else prev, cur, size)
            if result is None:
                return 1
            cost_out[0], insns_out[0], branch_out[0] = result
            return 0

        self._discover_cb = native.DISCOVER_FN(_discover)
        state = self._state.contents
        state.discover = ctypes.cast(self._discover_cb, ctypes.c_void_p).value
        state.stop = ctypes.cast(uclib.uc_emu_stop, ctypes.c_void_p).value
        hook = self._lib.cme_block_hook_traced if trace else self._lib.cme_block_hook
        hook_fn = ctypes.cast(hook, ctypes.c_void_p)
        status = uclib.uc_hook_add(
            uc._uch,
            ctypes.byref(self._hook),
            UC_HOOK_BLOCK,
            hook_fn,
            ctypes.cast(self._state, ctypes.c_void_p),
            1,
            0,
        )
        if status != 0:
            raise RuntimeError(
                f"uc_hook_add(UC_HOOK_BLOCK) for the native counter failed with status {status}"
            )

    def reset(self, insn_budget: int, cycle_budget: int, keep_edges: bool = False) -> None:
        self._lib.cme_reset(self._state, insn_budget, cycle_budget, int(keep_edges))
        self._exported = None

    def clear_stop(self) -> None:
        """Keep the counts, forget the stop reason (the run resumes after a discover stop)."""
        self._state.contents.stop_reason = RUNNING

    def set_instruction_limit(self, limit: int) -> None:
        """Stop before the block that would take the count past ``limit`` (0: no limit); the
        counts are kept (the run loop resumes in slices, see ``Machine._run``)."""
        self._state.contents.insn_limit = limit if limit else (1 << 64) - 1

    @property
    def cycles(self) -> int:
        return self._state.contents.cycles

    @property
    def instructions(self) -> int:
        return self._state.contents.instructions

    @property
    def blocks(self) -> int:
        return self._state.contents.blocks

    @property
    def current(self) -> int | None:
        prev = self._state.contents.prev
        return None if prev == native.NO_PREV else prev

    @property
    def stop_reason(self) -> int:
        return self._state.contents.stop_reason

    @property
    def tracing(self) -> bool:
        return self._tracing

    def trace(self) -> array:
        """Addresses of the blocks counted since the last reset, in execution order."""
        state = self._state.contents
        result = array("I")
        if state.trace_len:
            result.frombytes(ctypes.string_at(state.trace, state.trace_len * 4))
        return result

    def _export(self) -> list[native.Edge]:
        """The used edges, copied once per state of the counts: ``edges()`` and
        ``mispredictions()`` after a call read the same copy (any counted block changes
        ``blocks``, any new edge ``edges_used``)."""
        state = self._state.contents
        key = (state.blocks, state.edges_used, state.cycles)
        if self._exported is not None and self._exported[0] == key:
            return self._exported[1]
        used = state.edges_used
        buffer = (native.Edge * max(used, 1))()
        copied = self._lib.cme_export(self._state, buffer, used)
        edges = list(buffer[:copied])
        self._exported = (key, edges)
        return edges

    def edges(self) -> dict[tuple[int | None, int], int]:
        result: dict[tuple[int | None, int], int] = {}
        for edge in self._export():
            if edge.count:
                result[(None if edge.prev == native.NO_PREV else edge.prev, edge.cur)] = edge.count
        return result

    @property
    def branch_cycles(self) -> int:
        """Misprediction cycles counted since the last reset (included in ``cycles``)."""
        return self._state.contents.branch_cycles

    def mispredictions(self) -> dict[int, int]:
        """Misprediction cycles per predicted branch address since the last reset."""
        return _misprediction_cycles((edge.branch, edge.mispredicted) for edge in self._export())

    def mispredictions_by_block(self) -> dict[tuple[int, int], int]:
        """Misprediction cycles per (block ending in the branch, branch address)."""
        return _misprediction_cycles_by_block(
            (edge.prev, edge.branch, edge.mispredicted) for edge in self._export() if edge.prev != native.NO_PREV
        )


class PythonAccounting:
    kind = "python"

    def __init__(self) -> None:
        self._table: dict[tuple[int | None, int], list[Any]] = {}
        self._discover: Discover | None = None
        self._trace_on = False
        self._trace = array("I")
        self.reset(0, 0)

    def install(self, uc: Uc, discover: Discover, trace: bool = False) -> None:
        self._discover = discover
        self._trace_on = trace
        uc.hook_add(UC_HOOK_BLOCK, self._hook)

    def _hook(self, uc: Uc, address: int, size: int, _user: object) -> None:
        key = (self._prev, address)
        entry = self._table.get(key)
        if entry is None:
            assert self._discover is not None
            priced = self._discover(self._prev, address, size)
            if priced is None:
                self._stop = STOP_DISCOVER
                uc.emu_stop()
                return
            # cost, insns, count, branch, mispredicted, the branch decoded once (or None)
            entry = [priced[0], priced[1], 0, priced[2], 0, decode_branch(priced[2])]
            self._table[key] = entry
        cost, insns = entry[0], entry[1]
        branch = entry[5]
        counter = mispredicted = 0
        if branch is not None:
            branch_address, penalty, taken, initial = branch
            counter, mispredicted = step(self._counters.get(branch_address, initial), taken)
            if mispredicted:
                cost += penalty
        if self._insn_budget and self._instructions + insns > self._insn_budget:
            self._stop = STOP_INSN_BUDGET
            uc.emu_stop()
            return
        if self._cycle_budget and self._cycles + cost > self._cycle_budget:
            self._stop = STOP_CYCLE_BUDGET
            uc.emu_stop()
            return
        if branch is not None:
            self._counters[branch[0]] = counter
            if mispredicted:
                entry[4] += 1
                self._branch_cycles += cost - entry[0]
        if self._trace_on:
            self._trace.append(address)
        entry[2] += 1
        self._cycles += cost
        self._instructions += insns
        self._blocks += 1
        self._prev = address

    def reset(self, insn_budget: int, cycle_budget: int, keep_edges: bool = False) -> None:
        if keep_edges:
            for entry in self._table.values():
                entry[2] = entry[4] = 0  # count, mispredicted
        else:
            self._table = {}
        self._counters: dict[int, int] = {}
        self._branch_cycles = 0
        self._prev: int | None = None
        self._cycles = 0
        self._instructions = 0
        self._blocks = 0
        self._stop = RUNNING
        self._insn_budget = insn_budget
        self._cycle_budget = cycle_budget
        self._trace = array("I")

    def clear_stop(self) -> None:
        self._stop = RUNNING

    def set_instruction_limit(self, limit: int) -> None:
        self._insn_budget = limit

    @property
    def cycles(self) -> int:
        return self._cycles

    @property
    def instructions(self) -> int:
        return self._instructions

    @property
    def blocks(self) -> int:
        return self._blocks

    @property
    def current(self) -> int | None:
        return self._prev

    @property
    def stop_reason(self) -> int:
        return self._stop

    def edges(self) -> dict[tuple[int | None, int], int]:
        return {key: entry[2] for key, entry in self._table.items() if entry[2]}

    @property
    def branch_cycles(self) -> int:
        return self._branch_cycles

    def mispredictions(self) -> dict[int, int]:
        return _misprediction_cycles((entry[3], entry[4]) for entry in self._table.values())

    def mispredictions_by_block(self) -> dict[tuple[int, int], int]:
        """Misprediction cycles per (block ending in the branch, branch address)."""
        return _misprediction_cycles_by_block(
            (key[0], entry[3], entry[4]) for key, entry in self._table.items() if key[0] is not None
        )

    @property
    def tracing(self) -> bool:
        return self._trace_on

    def trace(self) -> array:
        return array("I", self._trace)


def _misprediction_cycles(edges: Iterable[tuple[int, int]]) -> dict[int, int]:
    """(branch, mispredicted count) per edge -> misprediction cycles per branch address."""
    result: dict[int, int] = {}
    for branch, mispredicted in edges:
        decoded = decode_branch(branch) if mispredicted else None
        if decoded is not None:
            address, penalty, _taken, _initial = decoded
            result[address] = result.get(address, 0) + mispredicted * penalty
    return result


def _misprediction_cycles_by_block(edges: Iterable[tuple[int, int, int]]) -> dict[tuple[int, int], int]:
    """(block, branch, mispredicted count) per edge -> misprediction cycles per (block, branch
    address): an edge's predicted branch is the final branch of its previous block, so a branch
    shared by two overlapping blocks gets the cycles of each block apart."""
    result: dict[tuple[int, int], int] = {}
    for block, branch, mispredicted in edges:
        for address, cycles in _misprediction_cycles([(branch, mispredicted)]).items():
            result[(block, address)] = result.get((block, address), 0) + cycles
    return result


def make_accounting(mode: str) -> tuple[Accounting, str]:
    """``mode`` "auto" | "native" | "python" -> (accounting, note on why native is not used)."""
    if mode not in ("auto", "native", "python"):
        raise ValueError(f"Invalid accounting {mode!r}; accepted: 'auto', 'native', 'python'")
    if mode == "python":
        return PythonAccounting(), "python accounting requested"
    lib, reason = native.load_native()
    if lib is None:
        if mode == "native":
            raise RuntimeError(f"native accounting unavailable: {reason}")
        return PythonAccounting(), reason
    return NativeAccounting(lib), ""
