"""The replay of one call through a board's flash line buffer, prefetch buffer and caches (rules
R2-R6 of :mod:`cortexm_emu.flash`): the stall cycles of a recorded block trace.

Why a replay
    Caches and the prefetch buffer depend on history, which a static per-block cost cannot
    express. The core's cycles are still counted per edge (native C, unchanged); in addition
    the counter records the sequence of executed blocks, and reads of flash data (constant
    tables, literal pools) are recorded by a ``UC_HOOK_MEM_READ`` bounded to the flash
    range. After the run :func:`replay_counts` walks that sequence (twice for a warm start: the
    first pass fills the caches, only the second is counted), with the timing model's
    per-instruction cycles as the clock (:mod:`cortexm_emu.fetch_plan`), and returns the counts.

Native and Python replay
    The walk and the flash-read hook run in C (``flash_replay.c``, built with the host C
    compiler like the block counter and loaded by :mod:`cortexm_emu.flash_native`). The
    Python code here (:func:`walk`, :class:`cortexm_emu.caches.LruCache`,
    ``Machine._on_flash_read``) is the reference and the fallback when no host C compiler
    exists or ``$CORTEXM_EMU_NO_NATIVE`` is set (``engine="python"`` forces it); the two
    give identical counts (``tests/test_flash_replay.py``).
"""

from __future__ import annotations

from array import array
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from cortexm_emu import flash_native
from cortexm_emu.caches import CacheGeometry, LruCache
from cortexm_emu.fetch_plan import BlockPlan
from cortexm_emu.flash_caches import MISS_ONLY
from cortexm_emu.memory import FlashReads

#: What the replay counts (``MemoryReplay.counts`` keys, in ``flash_replay.c``'s order). With a
#: cache shared by instructions and data (M33 ICACHE) its hits and misses are all in ``icache_*``.
COUNTS: tuple[str, ...] = (
    "sequential_stall_cycles",
    "branch_stall_cycles",
    "data_stall_cycles",
    "demand_line_reads",
    "prefetched_lines_used",
    "flash_data_reads",
    "icache_hits",
    "icache_misses",
    "dcache_hits",
    "dcache_misses",
)
#: The first block's edge has no previous block (cortexm_emu.native.NO_PREV in the C code).
NO_PREV = 0xFFFF_FFFF

Edges = Mapping[tuple[int | None, int], Any]


@dataclass(frozen=True)
class FetchUnit:
    """What the replay needs of a board memory system (:class:`cortexm_emu.flash.BoardMemory`)."""

    #: core cycles a flash read adds to the core model's fetch (R1)
    wait_cycles: int
    #: core cycles of a whole flash read (the prefetch's time to deliver a line, R3)
    read_cycles: int
    line_bytes: int
    prefetch: bool
    #: 2 for a warm start (the first pass fills the caches), 1 for a cold one
    passes: int
    #: the instruction and data caches of the part (None: none), whether switched on or not
    icache: CacheGeometry | None
    dcache: CacheGeometry | None
    #: the caches switched on
    cache: bool


@dataclass(frozen=True)
class ReplayInput:
    """One call as the replay reads it."""

    #: executed block addresses, in order
    trace: Sequence[int]
    #: the fetch plan of every block in the trace, by address
    plans: dict[int, BlockPlan]
    #: :func:`cycles_before` of the call's edges
    pre: dict[tuple[int | None, int], int]
    #: (trace position, address) of each flash data read
    reads: FlashReads


def cycles_before(blocks: Mapping[int, Any], edges: Edges) -> dict[tuple[int | None, int], int]:
    """Per edge (previous block or None, block): the cycles charged on entering the block beyond
    its own (branch and edge costs of the core model)."""
    return {key: info.cost - blocks[key[1]].price.cycles for key, info in edges.items()}


def native_library(engine: str) -> Any:
    """The native replay library, or None for ``engine="python"`` or when it does not build
    (``RuntimeError`` then for ``engine="native"``)."""
    if engine == "python":
        return None
    lib, reason = flash_native.load_flash_native()
    if lib is None and engine == "native":
        raise RuntimeError(f"native memory replay unavailable: {reason}")
    return lib


def replay_counts(unit: FetchUnit, engine: str, call: ReplayInput) -> dict[str, int]:
    """The :data:`COUNTS` of one call: native C unless ``engine`` is "python" or no host C
    compiler exists; both give the same counts."""
    lib = native_library(engine)
    if lib is not None:
        return _replay_native(lib, unit, call)
    return _replay_python(unit, call)


def _native_geometry(cache: CacheGeometry | None) -> flash_native.Geometry:
    if cache is None:
        return flash_native.Geometry(0, 0, 0, 0, 0)
    return flash_native.Geometry(1, cache.line_bytes, cache.sector_bytes, cache.ways, cache.sets)


def _replay_native(lib: Any, unit: FetchUnit, call: ReplayInput) -> dict[str, int]:
    """The walk of :func:`walk` (every pass) and the caches in C."""
    config = flash_native.Config(
        wait_cycles=unit.wait_cycles,
        read_cycles=unit.read_cycles,
        line_bytes=unit.line_bytes,
        prefetch=int(unit.prefetch),
        passes=unit.passes,
        allocate_prefetched=int(unit.icache is not None and unit.icache.kind not in MISS_ONLY),
        shared=int(unit.icache is not None and unit.dcache is unit.icache),
        icache=_native_geometry(unit.icache if unit.cache else None),
        dcache=_native_geometry(unit.dcache if unit.cache else None),
    )
    addresses, starts = array("I"), array("Q", [0])
    lines, cycles = array("q"), array("q")
    for address, plan in call.plans.items():
        addresses.append(address)
        for line, step_cycles in plan.steps:
            lines.append(line)
            cycles.append(step_cycles)
        starts.append(len(lines))
    edge_prev, edge_cur, edge_cycles = array("I"), array("I"), array("q")
    for (prev, cur), before in call.pre.items():
        edge_prev.append(NO_PREV if prev is None else prev)
        edge_cur.append(cur)
        edge_cycles.append(before)
    values = flash_native.replay(
        lib,
        config,
        call.trace,
        flash_native.Plans(addresses, starts, lines, cycles),
        (edge_prev, edge_cur, edge_cycles),
        call.reads,
    )
    return dict(zip(COUNTS, values, strict=True))


def _replay_python(unit: FetchUnit, call: ReplayInput) -> dict[str, int]:
    """The reference replay: :func:`walk` with :class:`~cortexm_emu.caches.LruCache`."""
    icache = LruCache(unit.icache) if unit.icache is not None and unit.cache else None
    dcache_geometry = unit.dcache if unit.cache else None
    if dcache_geometry is not None and icache is not None and dcache_geometry is unit.icache:
        dcache = icache
    else:
        dcache = LruCache(dcache_geometry) if dcache_geometry is not None else None
    counts: dict[str, int] = {}
    for _ in range(unit.passes):
        counts = walk(unit, call, icache, dcache)
    counts["icache_hits"] = icache.hits if icache else 0
    counts["icache_misses"] = icache.misses if icache else 0
    separate = dcache is not None and dcache is not icache
    counts["dcache_hits"] = dcache.hits if separate else 0  # type: ignore[union-attr]
    counts["dcache_misses"] = dcache.misses if separate else 0  # type: ignore[union-attr]
    return counts


def walk(unit: FetchUnit, call: ReplayInput, icache: LruCache | None, dcache: LruCache | None) -> dict[str, int]:
    """One pass over the call's trace from empty line and prefetch buffers (the caches keep what
    an earlier pass left: that is the warm start)."""
    trace, plans, pre = call.trace, call.plans, call.pre
    ws = unit.wait_cycles
    read_cycles = unit.read_cycles
    line_bytes = unit.line_bytes
    prefetch = unit.prefetch
    allocate_prefetched = icache is not None and icache.geometry.kind not in MISS_ONLY
    in_icache = icache.lookup if icache is not None else None
    if icache is not None:
        icache.hits = icache.misses = 0
    if dcache is not None:
        dcache.hits = dcache.misses = 0
    t = 0
    current: int | None = None
    pf_line: int | None = None
    pf_ready = 0
    seq_stall = branch_stall = data_stall = 0
    line_reads = prefetch_used = data_reads = 0
    read_positions, read_addresses = call.reads.positions, call.reads.addresses
    read_index, n_reads = 0, len(read_positions)
    prev: int | None = None
    for position, address in enumerate(trace):
        t += pre.get((prev, address), 0)
        while read_index < n_reads and read_positions[read_index] == position:
            data_reads += 1
            data_address = read_addresses[read_index]
            read_index += 1
            if dcache is not None:
                if dcache.lookup(data_address):
                    continue
                dcache.fill(data_address)
            t += ws
            data_stall += ws
        plan = plans[address]
        for line, cycles in plan.steps:
            if line >= 0 and line != current:
                sequential = line == current + 1 if current is not None else False
                if in_icache is not None and in_icache(line * line_bytes):
                    stall = 0
                elif prefetch and line == pf_line:
                    stall = min(ws, max(0, pf_ready - t))
                    prefetch_used += 1
                    if allocate_prefetched:
                        icache.fill(line * line_bytes)  # type: ignore[union-attr]
                else:
                    stall = ws
                    line_reads += 1
                    if icache is not None:
                        icache.fill(line * line_bytes)
                if sequential:
                    seq_stall += stall
                else:
                    branch_stall += stall
                t += stall
                current = line
                if prefetch:
                    pf_line, pf_ready = line + 1, t + read_cycles
            t += cycles
        prev = address
    return {
        "sequential_stall_cycles": seq_stall,
        "branch_stall_cycles": branch_stall,
        "data_stall_cycles": data_stall,
        "demand_line_reads": line_reads,
        "prefetched_lines_used": prefetch_used,
        "flash_data_reads": data_reads,
    }
