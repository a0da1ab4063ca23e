"""Load the native board-memory replay (``flash_replay.c``) and call it.

The library is built like the block counter (:func:`cortexm_emu.native.compile_library`: the
host ``cc`` or ``$CC``, cached under ``$CORTEXM_EMU_CACHE/native`` by source, flags and compiler
version; ``$CORTEXM_EMU_NO_NATIVE`` disables it). Without it the Python code of
:mod:`cortexm_emu.flash_replay` and :class:`cortexm_emu.machine.Machine` does the same work (the
reference): identical counts, slower.

Two things run natively:

* :class:`NativeReadLog` records flash data reads from a C ``UC_HOOK_MEM_READ`` callback (the
  Python hook costs about 3.5 us per read, the C one a few ns). It needs the native block
  counter: the trace index of a read is that counter's executed-block count minus one.
* :func:`replay` walks the block trace with the line buffer, prefetch buffer and LRU caches.
"""

from __future__ import annotations

import ctypes
from array import array
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from unicorn import UC_HOOK_MEM_READ, Uc
from unicorn.unicorn_py3.unicorn import uclib

from cortexm_emu import native
from cortexm_emu.memory import FlashReads

SOURCE = Path(__file__).resolve().parent / "flash_replay.c"
LIBRARY = "libcortexm_emu_flash_replay.so"

#: cfr_replay status codes (flash_replay.c)
OK, NO_MEMORY, UNKNOWN_BLOCK, BAD_GEOMETRY = range(4)
_PROBLEMS = {
    NO_MEMORY: "out of memory",
    UNKNOWN_BLOCK: "a traced block address has no fetch plan",
    BAD_GEOMETRY: "a cache geometry the native replay cannot hold (more than 64 sectors a line?)",
}
#: flash_replay.c's count order is cortexm_emu.flash_replay.COUNTS; this many of them
N_COUNTS = 10


class Geometry(ctypes.Structure):
    _fields_ = [
        ("present", ctypes.c_int64),
        ("line_bytes", ctypes.c_int64),
        ("sector_bytes", ctypes.c_int64),
        ("ways", ctypes.c_int64),
        ("sets", ctypes.c_int64),
    ]


class Config(ctypes.Structure):
    _fields_ = [
        ("wait_cycles", ctypes.c_int64),
        ("read_cycles", ctypes.c_int64),
        ("line_bytes", ctypes.c_int64),
        ("prefetch", ctypes.c_int64),
        ("passes", ctypes.c_int64),
        ("allocate_prefetched", ctypes.c_int64),
        ("shared", ctypes.c_int64),
        ("icache", Geometry),
        ("dcache", Geometry),
    ]


class Reads(ctypes.Structure):
    _fields_ = [
        ("blocks", ctypes.c_void_p),
        ("positions", ctypes.c_void_p),
        ("addresses", ctypes.c_void_p),
        ("len", ctypes.c_uint64),
        ("cap", ctypes.c_uint64),
        ("failed", ctypes.c_int32),
    ]


@cache
def load_flash_native() -> tuple[ctypes.CDLL | None, str]:
    """The loaded replay library (``None`` if unavailable) and, if unavailable, why."""
    lib, reason = native.open_library(SOURCE, LIBRARY)
    if lib is None:
        return None, reason
    lib.cfr_reads_new.restype = ctypes.POINTER(Reads)
    lib.cfr_reads_new.argtypes = [ctypes.c_void_p]
    lib.cfr_reads_free.restype = None
    lib.cfr_reads_free.argtypes = [ctypes.POINTER(Reads)]
    lib.cfr_reads_reset.restype = None
    lib.cfr_reads_reset.argtypes = [ctypes.POINTER(Reads)]
    pointer = ctypes.c_void_p
    lib.cfr_replay.restype = ctypes.c_int
    lib.cfr_replay.argtypes = [
        ctypes.POINTER(Config),
        pointer,  # trace
        ctypes.c_uint64,
        pointer,  # blocks
        ctypes.c_uint64,
        pointer,  # plan_start
        pointer,  # steps_line
        pointer,  # steps_cycles
        pointer,  # edge_prev
        pointer,  # edge_cur
        pointer,  # edge_cycles
        ctypes.c_uint64,
        pointer,  # read_positions
        pointer,  # read_addresses
        ctypes.c_uint64,
        ctypes.POINTER(ctypes.c_int64),
    ]
    return lib, ""


def block_counter_address(accounting: Any) -> int | None:
    """Address of the native block counter's executed-block count (``cme_state.blocks``), or
    ``None`` when ``accounting`` is not the native counter (the Python hook is used then)."""
    state = getattr(accounting, "_state", None)
    if getattr(accounting, "kind", "") != "native" or not state:
        return None
    return ctypes.addressof(state.contents) + native.State.blocks.offset


class NativeReadLog:
    """Flash data reads recorded by ``cfr_read_hook`` (C) into growing C buffers."""

    def __init__(self, lib: ctypes.CDLL, blocks_address: int) -> None:
        self._lib = lib
        self._log = lib.cfr_reads_new(blocks_address)
        if not self._log:
            raise MemoryError("cfr_reads_new failed to allocate the flash read log")
        self._hooks: list[ctypes.c_size_t] = []

    def __del__(self) -> None:
        log, lib = getattr(self, "_log", None), getattr(self, "_lib", None)
        if log and lib is not None:
            lib.cfr_reads_free(log)
            self._log = None

    def install(self, uc: Uc, ranges: Sequence[tuple[int, int]]) -> None:
        """Hook reads of each ``[start, end)`` range."""
        hook_fn = ctypes.cast(self._lib.cfr_read_hook, ctypes.c_void_p)
        for start, end in ranges:
            handle = ctypes.c_size_t()
            status = uclib.uc_hook_add(
                uc._uch,
                ctypes.byref(handle),
                UC_HOOK_MEM_READ,
                hook_fn,
                ctypes.cast(self._log, ctypes.c_void_p),
                start,
                end - 1,
            )
            if status != 0:
                raise RuntimeError(
                    f"uc_hook_add(UC_HOOK_MEM_READ) for the native flash read log failed with status {status}"
                )
            self._hooks.append(handle)

    def reset(self) -> None:
        self._lib.cfr_reads_reset(self._log)

    def __len__(self) -> int:
        return int(self._log.contents.len)

    def reads(self) -> FlashReads:
        """The reads since the last reset (copied out of the C buffers)."""
        log = self._log.contents
        if log.failed:
            raise MemoryError("the native flash read log could not grow")
        positions, addresses = array("q"), array("I")
        if log.len:
            positions.frombytes(ctypes.string_at(log.positions, log.len * 8))
            addresses.frombytes(ctypes.string_at(log.addresses, log.len * 4))
        return FlashReads(positions, addresses)


@dataclass(frozen=True)
class Plans:
    """Fetch plans of blocks, flattened for C: block ``blocks[b]`` has the steps
    ``[starts[b], starts[b + 1])`` of ``lines`` / ``cycles``."""

    blocks: array
    starts: array
    lines: array
    cycles: array


#: array typecodes of the C element types (uint32_t, int64_t, uint64_t)
_C_TYPES = {"I": 4, "q": 8, "Q": 8}


def _address(buffer: array) -> int:
    return buffer.buffer_info()[0]


def _packed(values: Any, typecode: str) -> array:
    """``values`` as an array of the C element type ``typecode`` (copied only if needed)."""
    if array(typecode).itemsize != _C_TYPES[typecode]:
        raise RuntimeError(
            f"array typecode {typecode!r} is not {_C_TYPES[typecode]} bytes on this platform"
        )
    if isinstance(values, array) and values.typecode == typecode:
        return values
    return array(typecode, values)


def replay(
    lib: ctypes.CDLL,
    config: Config,
    trace: Sequence[int],
    plans: Plans,
    edges: tuple[array, array, array],
    reads: FlashReads,
) -> list[int]:
    """Run ``cfr_replay``; returns the counts in :data:`cortexm_emu.flash_replay.COUNTS` order.
    ``edges``: (prev addresses, NO_PREV for the first block; cur addresses; cycles before the
    block's own). Raises ``MemoryError`` / ``RuntimeError`` with the native status."""
    counts = (ctypes.c_int64 * N_COUNTS)()
    trace = _packed(trace, "I")
    plans = Plans(
        _packed(plans.blocks, "I"),
        _packed(plans.starts, "Q"),
        _packed(plans.lines, "q"),
        _packed(plans.cycles, "q"),
    )
    if len(plans.starts) != len(plans.blocks) + 1 or plans.starts[-1] != len(plans.lines):
        raise ValueError(
            f"Invalid plans ({len(plans.blocks)} blocks, {len(plans.starts)} starts, "
            f"{len(plans.lines)} steps); accepted: one start per block and a final one = steps"
        )
    edge_prev, edge_cur, edge_cycles = (
        _packed(edges[0], "I"),
        _packed(edges[1], "I"),
        _packed(edges[2], "q"),
    )
    positions, addresses = _packed(reads.positions, "q"), _packed(reads.addresses, "I")
    if not len(edge_prev) == len(edge_cur) == len(edge_cycles) or len(positions) != len(addresses):
        raise ValueError(
            "Invalid edges or reads: their arrays differ in length; accepted: equal lengths"
        )
    status = lib.cfr_replay(
        ctypes.byref(config),
        _address(trace),
        len(trace),
        _address(plans.blocks),
        len(plans.blocks),
        _address(plans.starts),
        _address(plans.lines),
        _address(plans.cycles),
        _address(edge_prev),
        _address(edge_cur),
        _address(edge_cycles),
        len(edge_cur),
        _address(positions),
        _address(addresses),
        len(positions),
        counts,
    )
    if status == NO_MEMORY:
        raise MemoryError("the native memory replay ran out of memory")
    if status != OK:
        raise RuntimeError(
            f"native memory replay failed: {_PROBLEMS.get(status, f'status {status}')}"
        )
    return list(counts)
