"""Board memory systems (cortexm_emu.flash): the same code gets slower with more flash wait
states and with the caches off, by the amounts the rules R1-R7 of cortexm_emu/flash.py give.

Programs: tests/asm/memory/fetch.S, every function on a 32-byte boundary. On the STM32F407 a
flash line is 16 bytes (RM0090 §3.5.2), the ART I-cache 64 such lines, the D-cache 8, and the
wait states rise by one per 30 MHz (RM0090 Table 11, via the board profile). Every expected
value below is derived from those figures and the function's layout, never from a run.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from cortexm_emu import Machine
from cortexm_emu.boards import load_board, wait_states
from cortexm_emu.flash import board_memory
from cortexm_emu.toolchain import build

ASM = Path(__file__).parent / "asm" / "memory"
F407 = "stm32f407vg"
#: F407 clocks with 0, 1, 3, 4 and 5 wait states (RM0090 Table 11 as the profile holds it)
CLOCKS = (24, 60, 120, 150, 168)
LINE_CYCLES_16 = 8  # straight16: eight 1-cycle 16-bit ADDS per 16-byte line
LINE_CYCLES_32 = 4  # straight32: four 1-cycle 32-bit ADDS.W per 16-byte line
LINES = 9  # both straight functions: 8 full lines, then BX LR in a 9th


@cache
def fetch_elf(core: str = "m4", source: str = "fetch.S") -> Path:
    return build([ASM / source], core, opt="Os", extra_flags=["-Wl,--entry=cortexm_emu_halt"]).elf


def machine(clock: float, cache: str = "on", **options: str) -> Machine:
    m = Machine("m4", board_memory(F407, clock, cache, **options))  # type: ignore[arg-type]
    m.load_elf(fetch_elf())
    return m


def ideal(function: str, *args: int) -> int:
    m = Machine("m4")
    m.load_elf(fetch_elf())
    return m.call(function, *args).cycles


def ws(clock: float) -> int:
    return wait_states(F407, clock)


def prefetch_stall(ws_: int, line_cycles: int) -> int:
    """R3: entering a prefetched line after ``line_cycles`` cycles in the previous one."""
    return min(ws_, max(0, ws_ + 1 - line_cycles))


def test_clocks_span_the_latency_table():
    assert [ws(c) for c in CLOCKS] == [0, 1, 3, 4, 5]


@pytest.mark.parametrize("cache_setting", ["on", "off"])
def test_zero_wait_states_is_exactly_ideal_memory(cache_setting):
    m = machine(24, cache_setting)
    assert not m.accounting.tracing  # nothing recorded when nothing can stall
    for function, args in (("straight32", ()), ("hops81", (3,)), ("sum_words", (256,))):
        result = m.call(function, *args)
        assert result.memory_cycles == 0
        assert result.cycles == ideal(function, *args)


@pytest.mark.parametrize("clock", CLOCKS)
def test_prefetch_hides_a_straight_run_whose_lines_take_ws_plus_one(clock):
    w = ws(clock)
    on = machine(clock, "off", prefetch="on").call("straight16")
    off = machine(clock, "off", prefetch="off").call("straight16")
    # R4 for the first line (a call from elsewhere), R3 hides the other eight (8 >= WS+1)
    assert on.memory_cycles == w
    assert on.memory_counts["sequential_stall_cycles"] == 0
    # without prefetch every line is a demand read (R1/R4)
    assert off.memory_cycles == LINES * w
    assert off.cycles == ideal("straight16") + LINES * w


@pytest.mark.parametrize("clock", CLOCKS)
def test_prefetch_leaves_the_shortfall_of_fast_lines(clock):
    w = ws(clock)
    result = machine(clock, "off", prefetch="on").call("straight32")
    expected = w + (LINES - 1) * prefetch_stall(w, LINE_CYCLES_32)
    assert result.memory_cycles == expected
    assert result.memory_counts["sequential_stall_cycles"] == expected - w


def test_prefetch_shortfall_values_at_the_f407_clocks():
    # four cycles per line: hidden up to 3 WS (RM0090 §3.5.2), 1 left at 4 WS, 2 at 5 WS
    assert [prefetch_stall(ws(c), LINE_CYCLES_32) for c in CLOCKS] == [0, 0, 0, 1, 2]


def test_art_caches_the_entry_line_of_a_repeated_call():
    w = ws(168)
    shortfall = (LINES - 1) * prefetch_stall(w, LINE_CYCLES_32)
    warm = machine(168, "on").call("straight32")
    cold = machine(168, "on", start="cold").call("straight32")
    # R5: ART copies demand misses only: the entry line (a miss in the first call) is cached,
    # the eight prefetched lines are not
    assert warm.memory_cycles == shortfall
    assert cold.memory_cycles == w + shortfall


@pytest.mark.parametrize("iterations", [1, 10, 1000])
def test_a_loop_inside_one_line_reads_flash_once(iterations):
    w = ws(168)
    result = machine(168, "off").call("loop_in_line", iterations)
    assert result.memory_cycles == w  # R2: the loop runs from the line buffer
    assert result.cycles == ideal("loop_in_line", iterations) + w


@pytest.mark.parametrize("clock", CLOCKS[1:])
def test_branch_loop_that_fits_the_instruction_cache(clock):
    w, n, targets = ws(clock), 5, 41
    off = machine(clock, "off").call("hops41", n)
    warm = machine(clock, "on").call("hops41", n)
    cold = machine(clock, "on", start="cold").call("hops41", n)
    # every hop lands on a line that is neither buffered nor prefetched: R4 each time
    assert off.memory_cycles == n * targets * w
    assert off.memory_counts["branch_stall_cycles"] == n * targets * w
    # 41 lines fit the 64-line ART I-cache: only the first pass misses (R5)
    assert cold.memory_cycles == targets * w
    assert warm.memory_cycles == 0
    assert warm.memory_counts["icache_misses"] == 0


@pytest.mark.parametrize("clock", CLOCKS[1:])
def test_branch_loop_larger_than_the_instruction_cache_misses_every_time(clock):
    w, n, targets = ws(clock), 3, 81
    on = machine(clock, "on").call("hops81", n)
    off = machine(clock, "off").call("hops81", n)
    # 81 lines visited in a cycle through a 64-line LRU cache: each evicted before its reuse
    assert on.memory_cycles == off.memory_cycles == n * targets * w
    assert on.memory_counts["icache_hits"] == 0


@pytest.mark.parametrize(
    ("words", "cached_misses"),
    [
        (28, 0),  # literal pool line + 7 table lines = 8 lines: fit the 8-line ART D-cache
        (32, 9),  # 9 lines cycled through 8: LRU misses every read of a new line
        (256, 65),  # 64 table lines + the literal line, one miss per line
    ],
)
def test_constant_table_reads_from_flash(words, cached_misses):
    w = ws(168)
    on = machine(168, "on").call("sum_words", words)
    off = machine(168, "off").call("sum_words", words)
    reads = words + 1  # the table words and the literal-pool load of its address
    assert on.memory_counts["flash_data_reads"] == off.memory_counts["flash_data_reads"] == reads
    assert off.memory_counts["data_stall_cycles"] == reads * w  # R6 without a D-cache
    assert on.memory_counts["data_stall_cycles"] == cached_misses * w  # R6 with it
    assert on.return_value == off.return_value == sum(range(words))


@pytest.mark.parametrize(
    ("function", "args"),
    [
        ("straight16", ()),
        ("straight32", ()),
        ("loop_in_line", (50,)),
        ("hops41", (4,)),
        ("hops81", (2,)),
        ("sum_words", (100,)),
    ],
)
def test_more_wait_states_and_caches_off_are_never_faster(function, args):
    for setting in ("on", "off"):
        cycles = [machine(c, setting).call(function, *args).cycles for c in CLOCKS]
        assert cycles == sorted(cycles), setting
    for clock in CLOCKS:
        on = machine(clock, "on").call(function, *args).cycles
        off = machine(clock, "off").call(function, *args).cycles
        assert on <= off


def test_native_and_python_accounting_replay_the_same_sequence():
    memory = board_memory(F407, 168, "on")
    results = []
    for accounting in ("native", "python"):
        m = Machine("m4", memory, accounting=accounting)
        m.load_elf(fetch_elf())
        results.append(
            [m.call(f, *a) for f, a in (("hops81", (2,)), ("sum_words", (40,)), ("straight32", ()))]
        )
    for native, python in zip(*results):
        assert (native.cycles, native.memory_counts) == (python.cycles, python.memory_counts)


def test_same_call_same_cycles():
    m = machine(168, "on")
    first = m.call("sum_words", 200)
    assert [m.call("sum_words", 200).cycles for _ in range(3)] == [first.cycles] * 3


def test_code_in_ram_has_no_flash_stalls():
    m = Machine("m4", board_memory(F407, 168, "off", code="ram"))
    m.load_elf(fetch_elf())
    assert m.call("hops41", 3).cycles == ideal("hops41", 3)


def test_result_carries_the_clock_time_and_placement():
    m = Machine.for_board(F407, 168, "off")
    m.load_elf(fetch_elf())
    result = m.call("sum_words", 16)
    assert m.core == "m4"
    assert result.clock_mhz == 168
    assert result.time_us == pytest.approx(result.cycles / 168)
    assert result.memory_config["wait_states"] == 5
    assert result.memory_config["cache"] is False
    assert "stack" in result.placement
    assert result.memory == "stm32f407vg @ 168 MHz, 5 WS, caches off, prefetch off, code in flash"


def test_ideal_result_has_no_clock():
    m = Machine("m4")
    m.load_elf(fetch_elf())
    result = m.call("straight16")
    assert (result.clock_mhz, result.time_us, result.memory_cycles, result.placement) == (
        None,
        None,
        0,
        {},
    )


def test_default_clock_is_the_first_published_clock_within_the_maximum():
    assert board_memory(F407).clock_mhz == 24
    # the WL55 seed page reports 64 MHz, above the part's 48 MHz: the next published clock is used
    assert board_memory("stm32wl55jc").clock_mhz == 48


def test_art_geometry_from_the_profile():
    memory = board_memory(F407, 168)
    assert memory.icache is not None and memory.dcache is not None
    assert (memory.icache.lines, memory.icache.line_bytes, memory.icache.ways) == (64, 16, 64)
    assert memory.icache.fully_associative_assumed
    assert (memory.dcache.lines, memory.dcache.line_bytes) == (8, 16)


def test_l4_art_lines_are_filled_one_flash_read_at_a_time():
    memory = board_memory("stm32l4a6zg", 80)
    assert memory.icache is not None
    assert (memory.icache.line_bytes, memory.icache.sector_bytes) == (32, 8)
    assert any("sectored" in note for note in memory.notes)


def test_a_part_without_prefetch_ignores_the_switch():
    memory = board_memory("stm32wl33cc", 64, "on", prefetch="on")
    assert not memory.prefetch
    assert "no prefetch" in memory.name


def test_cache_of_unknown_size_is_not_modelled_and_says_so():
    memory = board_memory("stm32g071rb", 64)
    assert memory.icache is None
    assert any("size not given" in note for note in memory.notes)


def test_invalid_cache_setting_is_rejected():
    with pytest.raises(ValueError, match=r"Invalid cache \('maybe'\); accepted: 'on', 'off'"):
        board_memory(F407, 168, "maybe")  # type: ignore[arg-type]


def test_invalid_prefetch_setting_is_rejected():
    with pytest.raises(ValueError, match=r"Invalid prefetch \('yes'\)"):
        board_memory(F407, 168, prefetch="yes")  # type: ignore[arg-type]


def test_invalid_code_placement_is_rejected():
    with pytest.raises(
        ValueError, match=r"Invalid code placement \('rom'\); accepted: 'flash', 'ram'"
    ):
        board_memory(F407, 168, code="rom")  # type: ignore[arg-type]


def test_invalid_start_is_rejected():
    with pytest.raises(ValueError, match=r"Invalid start \('hot'\)"):
        board_memory(F407, 168, start="hot")  # type: ignore[arg-type]


def test_clock_above_the_part_maximum_is_rejected():
    with pytest.raises(ValueError, match=r"Invalid clock \(200 MHz\) for board stm32f407vg"):
        board_memory(F407, 200)


def test_unknown_board_is_rejected():
    with pytest.raises(ValueError, match="nosuchboard"):
        board_memory("nosuchboard", 100)


def test_profile_data_reaches_the_config():
    board = load_board(F407)
    config = board_memory(board, 168).describe()
    assert config["flash_line_bytes"] == board.flash.line_bits // 8 == 16
    assert config["flash_source"] == board.flash.citation.source
    assert set(config["rules"]) == {
        "R1 wait states",
        "R2 line buffer",
        "R3 prefetch",
        "R4 miss",
        "R5 I-cache",
        "R6 flash data",
        "R7 SRAM",
    }


def test_a_trace_longer_than_the_first_native_buffer_is_complete():
    # 2000 iterations x 41 hops = 82 000 blocks: past the native trace's first 65 536 entries
    n, targets = 2000, 41
    results = []
    for accounting in ("native", "python"):
        m = Machine("m4", board_memory(F407, 168, "off"), accounting=accounting)
        m.load_elf(fetch_elf())
        result = m.call("hops41", n)
        results.append(result)
        assert len(m.accounting.trace()) == sum(result.block_counts.values()) > 65_536
        assert result.memory_cycles == n * targets * ws(168)
    assert results[0].cycles == results[1].cycles
