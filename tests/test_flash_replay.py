"""The native board-memory replay (cortexm_emu/flash_replay.c, loaded by cortexm_emu.flash_native)
counts exactly what the Python reference counts (cortexm_emu.flash_replay.walk with caches.LruCache, and the
Python flash-read hook of the machine), on real traces of real kernels.

Each kernel runs once per board; its block trace, blocks, edges, flash reads and flash ranges
are recorded where the machine hands them to ``BoardMemory.replay``, then replayed by both
engines under every cache x prefetch x start configuration. Boards: an F4 with the ART
(I- and D-cache, prefetch), an M7 with L1 caches, an M33 with the ICACHE (shared by
instructions and data), a G0 whose flash cache has no documented size (not modelled), an L4
with sectored ART lines and an H7 whose flash runs at half the core clock. Random synthetic
traces (hypothesis) cover what the kernels may not: colliding lines, odd plans, dense reads.
"""

from __future__ import annotations

import ctypes
import itertools
from array import array
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cortexm_emu import Machine, flash_native, native
from cortexm_emu.boards import load_board
from cortexm_emu.flash import BoardMemory, board_memory
from cortexm_emu.flash_replay import COUNTS
from cortexm_emu.memory import FlashReads, MemoryReplay
from cortexm_emu.toolchain import build
from refbench.kernels.catalog import family
from refbench.kernels.harness import KernelHarness
from refbench.measure import make_inputs

pytestmark = pytest.mark.skipif(
    flash_native.load_flash_native()[0] is None,
    reason=f"no native replay: {flash_native.load_flash_native()[1]}",
)

ASM = Path(__file__).parent / "asm" / "memory"
F4, M7, M33, G0, L4, H7 = (
    "stm32f407vg",
    "stm32f756zg",
    "stm32l562qe",
    "stm32g071rb",
    "stm32l4a6zg",
    "stm32h753zi",
)
#: (kernel, variant, operation, message bytes): tables (T-table AES, 4-bit GHASH), round
#: constants (SHA-256), and none (ChaCha20)
KERNELS = (
    ("aes", "ttable4", "ecb-encrypt", 256),
    ("gcm", "ghash_4bit", "gmac", 128),
    ("sha256", "rolled", "sha-256", 128),
    ("chacha20", "ref", "chacha20", 128),
)
CONFIGS = list(itertools.product(("on", "off"), ("on", "off"), ("warm", "cold")))


@dataclass
class Recorded:
    """What the machine handed to ``BoardMemory.replay`` for one call, and what it got back."""

    trace: array
    blocks: dict[int, Any]
    edges: dict[tuple[int | None, int], Any]
    reads: FlashReads
    flash: list[tuple[int, int]]
    result: MemoryReplay

    def replay(self, memory: BoardMemory) -> MemoryReplay:
        return memory.replay(self.trace, self.blocks, self.edges, self.reads, self.flash)


def record(memory: BoardMemory) -> list[Recorded]:
    """Make ``memory`` keep a copy of every replay's inputs and result."""
    calls: list[Recorded] = []
    original = memory.replay

    def recording(trace, blocks, edges, reads, flash, *switches):  # type: ignore[no-untyped-def]
        result = original(trace, blocks, edges, reads, flash, *switches)
        calls.append(
            Recorded(array("I", trace), dict(blocks), dict(edges), reads, list(flash), result)
        )
        return result

    memory.replay = recording  # type: ignore[method-assign]
    return calls


def max_clock(board: str) -> float:
    return float(load_board(board).max_clock_mhz)


def run_kernel(memory: BoardMemory, kernel: str, variant: str, operation: str, size: int) -> Any:
    harness = KernelHarness(kernel, variant, memory.board.core, memory=memory)
    op = next(o for o in family(kernel).operations if o.name == operation)
    run = harness.run(make_inputs(op, size), operation)
    assert run.verified, run.mismatch
    return run


@cache
def recorded_kernel(board: str, kernel: str, variant: str, operation: str, size: int) -> Recorded:
    memory = board_memory(board, max_clock(board), "on")
    calls = record(memory)
    run_kernel(memory, kernel, variant, operation, size)
    return calls[-1]  # the operation itself (a setup call, if any, came first)


@cache
def fetch_elf(core: str) -> Path:
    source = "fetch_v6m.S" if core in ("m0", "m0plus") else "fetch.S"
    return build([ASM / source], core, opt="Os", extra_flags=["-Wl,--entry=cortexm_emu_halt"]).elf


def both_engines(
    board: str, recorded: Recorded, cache_: str, prefetch: str, start: str
) -> tuple[MemoryReplay, MemoryReplay]:
    python, native_ = (
        recorded.replay(
            board_memory(
                board, max_clock(board), cache_, prefetch=prefetch, start=start, engine=engine
            )  # type: ignore[arg-type]
        )
        for engine in ("python", "native")
    )
    return python, native_


@pytest.mark.parametrize("board", [F4, M7, M33, G0, L4, H7])
@pytest.mark.parametrize(("kernel", "variant", "operation", "size"), KERNELS)
def test_native_replay_counts_what_the_python_replay_counts(
    board, kernel, variant, operation, size
):
    recorded = recorded_kernel(board, kernel, variant, operation, size)
    assert len(recorded.trace) > 100
    for cache_, prefetch, start in CONFIGS:
        python, native_ = both_engines(board, recorded, cache_, prefetch, start)
        assert set(native_.counts) == set(COUNTS)
        assert (native_.cycles, native_.counts) == (python.cycles, python.counts), (
            cache_,
            prefetch,
            start,
        )


def test_the_matrix_exercises_every_counter():
    """Every counter is non-zero somewhere in the matrix above, so its equality means something."""
    seen = dict.fromkeys(COUNTS, 0)
    for board, (kernel, variant, operation, size) in itertools.product(
        (F4, M7, M33, L4), KERNELS[:2]
    ):
        recorded = recorded_kernel(board, kernel, variant, operation, size)
        for cache_, prefetch, start in CONFIGS:
            _python, native_ = both_engines(board, recorded, cache_, prefetch, start)
            for name, value in native_.counts.items():
                seen[name] += value
    assert all(seen.values()), seen


def test_shared_icache_counts_data_reads_as_icache_accesses():
    """M33 (R6): data reads of the code region go through the ICACHE: no separate D-cache."""
    recorded = recorded_kernel(M33, "aes", "ttable4", "ecb-encrypt", 256)
    python, native_ = both_engines(M33, recorded, "on", "on", "warm")
    assert native_.counts == python.counts
    assert native_.counts["dcache_hits"] == native_.counts["dcache_misses"] == 0
    assert native_.counts["flash_data_reads"] > 0
    assert native_.counts["icache_hits"] > native_.counts["flash_data_reads"] // 2


def test_undocumented_cache_is_not_modelled_by_either_engine():
    recorded = recorded_kernel(G0, "aes", "ttable4", "ecb-encrypt", 256)
    for start in ("warm", "cold"):
        python, native_ = both_engines(G0, recorded, "on", "on", start)
        assert native_.counts == python.counts
        assert native_.counts["icache_hits"] == native_.counts["icache_misses"] == 0
        assert native_.counts["demand_line_reads"] > 0


@pytest.mark.parametrize("board", [F4, M33])
def test_native_and_python_read_hooks_record_the_same_reads(board):
    """The C UC_HOOK_MEM_READ callback logs the same (trace index, address) pairs as the Python
    hook, and the whole call (hook + replay) gives the same cycles either way."""
    results = []
    for engine in ("python", "native"):
        memory = board_memory(board, max_clock(board), "off", engine=engine)  # type: ignore[arg-type]
        calls = record(memory)
        run = run_kernel(memory, "aes", "ttable4", "ecb-encrypt", 512)
        results.append((run.cycles, run.memory_cycles, calls[-1]))
    (py_cycles, py_stalls, py_call), (c_cycles, c_stalls, c_call) = results
    assert len(c_call.reads) > 1000
    assert c_call.reads.pairs() == py_call.reads.pairs()
    assert list(c_call.trace) == list(py_call.trace)
    assert (c_cycles, c_stalls, c_call.result.counts) == (
        py_cycles,
        py_stalls,
        py_call.result.counts,
    )


def test_a_read_log_longer_than_its_first_native_buffer_is_complete():
    # 8000-byte T-table AES: 500 blocks x 160 table loads, past the log's first 65 536 entries
    memory = board_memory(F4, 168, "off")
    calls = record(memory)
    run_kernel(memory, "aes", "ttable4", "ecb-encrypt", 8000)
    reads = calls[-1].reads
    assert len(reads) > 65_536
    assert calls[-1].result.counts["flash_data_reads"] == len(reads)
    positions = list(reads.positions)
    assert positions == sorted(positions) and positions[-1] < len(calls[-1].trace)
    # without a D-cache every read stalls the wait states (R6)
    assert calls[-1].result.counts["data_stall_cycles"] == len(reads) * memory.wait_cycles


def test_same_run_twice_same_counts():
    memory = board_memory(F4, 168, "on")
    calls = record(memory)
    m = Machine("m4", memory)
    m.load_elf(fetch_elf("m4"))
    first = [m.call("hops81", 2), m.call("sum_words", 200)]
    again = [m.call("hops81", 2), m.call("sum_words", 200)]
    fresh = Machine("m4", memory)
    fresh.load_elf(fetch_elf("m4"))
    other = [fresh.call("hops81", 2), fresh.call("sum_words", 200)]
    for a, b, c in zip(first, again, other, strict=True):
        assert (
            (a.cycles, a.memory_counts)
            == (b.cycles, b.memory_counts)
            == (c.cycles, c.memory_counts)
        )
    assert all(call.result.cycles > 0 for call in calls)
    kernel_runs = [run_kernel(memory, "gcm", "ghash_4bit", "gmac", 256) for _ in range(2)]
    assert kernel_runs[0].cycles == kernel_runs[1].cycles


@dataclass
class Price:
    """Stand-ins for the machine's Block, its price and an edge: what the replay reads."""

    cycles: int
    per_insn: list[tuple[int, int, str]]


@dataclass
class Insn:
    address: int
    size: int


@dataclass
class Block:
    insns: list[Insn]
    price: Price


@dataclass
class Edge:
    cost: int


def test_replay_of_hand_made_inputs_matches_the_documented_rules():
    """A two-block loop on the F407 at 5 WS with caches off and no prefetch: every entry of a
    block in another flash line is a demand read (R4); the edge's cycles before the block move
    the clock but stall nothing; the data read stalls WS (R6)."""

    a, b = 0x0800_0000, 0x0800_0040  # lines 0x800000 and 0x800004 of 16 bytes
    blocks = {
        a: Block([Insn(a, 2), Insn(a + 2, 2)], Price(2, [(a, 1, ""), (a + 2, 1, "")])),
        b: Block([Insn(b, 4)], Price(3, [(b, 3, "")])),
    }
    edges = {(None, a): Edge(2), (a, b): Edge(5), (b, a): Edge(4)}
    trace = [a, b, a, b]
    reads = [(1, 0x0800_1000), (3, 0x0800_1000)]
    flash = [(0x0800_0000, 0x0810_0000)]
    for engine in ("python", "native"):
        memory = board_memory(F4, 168, "off", prefetch="off", start="cold", engine=engine)  # type: ignore[arg-type]
        result = memory.replay(trace, blocks, edges, reads, flash)
        assert result.counts["branch_stall_cycles"] == 4 * 5
        assert result.counts["sequential_stall_cycles"] == 0
        assert result.counts["demand_line_reads"] == 4
        assert result.counts["data_stall_cycles"] == 2 * 5
        assert result.cycles == 30


def test_unknown_trace_block_is_an_error_of_the_native_replay():
    config = flash_native.Config(5, 6, 16, 0, 1, 0, 0)
    plans = flash_native.Plans(
        array("I", [0x100]), array("Q", [0, 1]), array("q", [16]), array("q", [1])
    )
    with pytest.raises(RuntimeError, match="a traced block address has no fetch plan"):
        flash_native.replay(
            flash_native.load_flash_native()[0],
            config,
            array("I", [0x100, 0x200]),
            plans,
            (array("I"), array("I"), array("q")),
            FlashReads(),
        )


def test_native_replay_library_is_compiled_once_into_the_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("CORTEXM_EMU_CACHE", str(tmp_path))
    first, reason = native.compile_library(flash_native.SOURCE, flash_native.LIBRARY)
    assert reason == "" and first is not None and first.is_relative_to(tmp_path / "native")
    stamp = first.stat().st_mtime_ns
    second, _ = native.compile_library(flash_native.SOURCE, flash_native.LIBRARY)
    assert second == first and second.stat().st_mtime_ns == stamp
    lib = ctypes.CDLL(str(first))
    assert hasattr(lib, "cfr_replay") and hasattr(lib, "cfr_read_hook")


def test_without_native_code_the_python_replay_and_hook_give_the_same_counts(monkeypatch):
    memory = board_memory(F4, 168, "on")
    expected = Machine("m4", memory)
    expected.load_elf(fetch_elf("m4"))
    want = expected.call("sum_words", 100)
    monkeypatch.setenv("CORTEXM_EMU_NO_NATIVE", "1")
    flash_native.load_flash_native.cache_clear()
    native.load_native.cache_clear()
    try:
        lib, reason = flash_native.load_flash_native()
        assert lib is None and "CORTEXM_EMU_NO_NATIVE" in reason
        with pytest.raises(RuntimeError, match="native memory replay unavailable"):
            board_memory(F4, 168, "on", engine="native")
        fallback = Machine("m4", board_memory(F4, 168, "on"))
        fallback.load_elf(fetch_elf("m4"))
        got = fallback.call("sum_words", 100)
        assert fallback.accounting.kind == "python"
        assert (got.cycles, got.memory_counts) == (want.cycles, want.memory_counts)
    finally:
        monkeypatch.delenv("CORTEXM_EMU_NO_NATIVE")
        flash_native.load_flash_native.cache_clear()
        native.load_native.cache_clear()


@st.composite
def synthetic_runs(draw: st.DrawFn) -> tuple[str, str, str, str, Recorded]:
    """Random blocks of 2- and 4-byte instructions in a 2 KiB flash window (lines collide in
    every cache), a random path through them, random edge costs and flash data reads."""
    board = draw(st.sampled_from([F4, M7, M33, L4, H7, G0]))
    base = load_board(board).flash.base
    starts = sorted(draw(st.sets(st.integers(0, 1023), min_size=1, max_size=12)))
    blocks: dict[int, Block] = {}
    for start in starts:
        address = base + 2 * start
        insns, cursor = [], address
        for size in draw(st.lists(st.sampled_from([2, 4]), min_size=1, max_size=10)):
            insns.append(Insn(cursor, size))
            cursor += size
        per_insn = [(i.address, draw(st.integers(0, 4)), "") for i in insns]
        blocks[address] = Block(insns, Price(sum(c for _a, c, _r in per_insn), per_insn))
    addresses = list(blocks)
    trace = draw(st.lists(st.sampled_from(addresses), min_size=1, max_size=300))
    edges: dict[tuple[int | None, int], Edge] = {}
    for prev, cur in zip([None, *trace[:-1]], trace):
        if (prev, cur) not in edges and draw(st.booleans()):
            edges[(prev, cur)] = Edge(blocks[cur].price.cycles + draw(st.integers(0, 3)))
    positions = sorted(draw(st.lists(st.integers(0, len(trace) - 1), max_size=200)))
    reads = FlashReads.from_pairs(
        (position, base + draw(st.integers(0, 4095))) for position in positions
    )
    flash = [(base, base + 0x800)]  # the upper half of the data window is not "flash" code
    settings = (
        draw(st.sampled_from(["on", "off"])),
        draw(st.sampled_from(["on", "off"])),
        draw(st.sampled_from(["warm", "cold"])),
    )
    recorded = Recorded(array("I", trace), blocks, edges, reads, flash, MemoryReplay(0))
    return (board, *settings, recorded)


@settings(max_examples=60, deadline=None)
@given(synthetic_runs())
def test_native_replay_equals_python_on_random_traces(run):
    board, cache_, prefetch, start, recorded = run
    python, native_ = both_engines(board, recorded, cache_, prefetch, start)
    assert (native_.cycles, native_.counts) == (python.cycles, python.counts)
