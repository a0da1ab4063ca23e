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
from cortexm_emu.flash import BoardMemory, board_memory
from cortexm_emu.memory import MemoryReplay
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
        "R8 memory blocks",
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


# -- placement: constant tables in SRAM, code in flash (and the reverse) ----------------------


def test_tables_in_sram_leave_only_the_literal_pool_read_in_flash():
    w, words = ws(168), 100
    flash = machine(168, "off").call("sum_words", words)
    tables = machine(168, "off", tables="ram").call("sum_words", words)
    # R7: the 100 table words are SRAM reads; R6: the literal-pool load of the table's address
    # (inside .text) is still a flash read
    assert flash.memory_counts["data_stall_cycles"] == (words + 1) * w
    assert tables.memory_counts["flash_data_reads"] == 1
    assert tables.memory_counts["data_stall_cycles"] == w
    for name in ("sequential_stall_cycles", "branch_stall_cycles", "demand_line_reads"):
        assert tables.memory_counts[name] == flash.memory_counts[name], name
    assert flash.cycles - tables.cycles == words * w
    assert tables.return_value == flash.return_value == sum(range(words))


@pytest.mark.parametrize(("function", "args"), [("hops41", (3,)), ("straight32", ())])
def test_tables_in_sram_change_nothing_for_code_without_tables(function, args):
    flash = machine(168, "off").call(function, *args)
    tables = machine(168, "off", tables="ram").call(function, *args)
    assert (tables.cycles, tables.memory_counts) == (flash.cycles, flash.memory_counts)


def test_code_in_ram_with_tables_in_flash_stalls_only_on_table_reads():
    w, words = ws(168), 40
    result = machine(168, "off", code="ram", tables="flash").call("sum_words", words)
    # the code (and its literal pool) is in RAM; every table word is a flash read (R6)
    assert result.memory_counts["flash_data_reads"] == words
    assert result.memory_cycles == result.memory_counts["data_stall_cycles"] == words * w
    assert result.cycles == ideal("sum_words", words) + words * w


def test_code_and_tables_in_ram_record_nothing():
    m = machine(168, "off", code="ram")
    assert m.memory.tables == "ram" and not m.memory.needs_trace  # type: ignore[attr-defined]
    assert not m.accounting.tracing
    assert m.call("sum_words", 16).cycles == ideal("sum_words", 16)


def replay_results(memory: BoardMemory) -> list[MemoryReplay]:
    """Make ``memory`` keep the result of every replay (the counts of each call)."""
    results: list[MemoryReplay] = []
    original = memory.replay

    def recording(*args):  # type: ignore[no-untyped-def]
        result = original(*args)
        results.append(result)
        return result

    memory.replay = recording  # type: ignore[method-assign]
    return results


def test_t_table_aes_gets_fewer_data_stalls_with_tables_in_sram():
    from refbench.kernels.catalog import family
    from refbench.kernels.harness import KernelHarness
    from refbench.measure import make_inputs

    op = next(o for o in family("aes").operations if o.name == "ecb-encrypt")
    inputs = make_inputs(op, 256)
    counts, cycles = {}, {}
    for tables in ("flash", "ram"):
        memory = board_memory(F407, 168, "off", tables=tables)  # type: ignore[arg-type]
        replays = replay_results(memory)
        run = KernelHarness("aes", "ttable4", "m4", memory=memory).run(inputs, "ecb-encrypt")
        assert run.verified, run.mismatch
        assert run.memory_cycles == replays[-1].cycles  # the last replay is the operation's
        counts[tables], cycles[tables] = replays[-1].counts, run.cycles
    flash, sram = counts["flash"], counts["ram"]
    # 16 blocks x 9 T-table rounds x 16 loads: thousands of flash table reads become SRAM reads
    assert flash["flash_data_reads"] > 16 * 9 * 16
    assert sram["data_stall_cycles"] < flash["data_stall_cycles"] // 10
    for name in (
        "sequential_stall_cycles",
        "branch_stall_cycles",
        "demand_line_reads",
        "prefetched_lines_used",
    ):
        assert sram[name] == flash[name], name
    # R8: a T-table load from flash next to a load from the stack crosses memory blocks; with the
    # tables in SRAM both are SRAM1 (the profile's data block)
    assert sram["block_switch_cycles"] < flash["block_switch_cycles"]
    assert cycles["flash"] - cycles["ram"] == (
        flash["data_stall_cycles"] + flash["block_switch_cycles"]
        - sram["data_stall_cycles"] - sram["block_switch_cycles"]
    )


@pytest.mark.parametrize(
    ("kernel", "variant", "operation"),
    [("chacha20", "ref", "chacha20"), ("aes", "bitsliced", "ctr")],
)
def test_kernel_without_tables_gets_the_same_count_with_tables_in_sram(kernel, variant, operation):
    from refbench.kernels.catalog import family
    from refbench.kernels.harness import KernelHarness
    from refbench.measure import make_inputs

    op = next(o for o in family(kernel).operations if o.name == operation)
    inputs = make_inputs(op, 128)
    runs = []
    for tables in ("flash", "ram"):
        memory = board_memory(F407, 168, "off", tables=tables)  # type: ignore[arg-type]
        harness = KernelHarness(kernel, variant, "m4", memory=memory)
        assert not any(s.read_only_data for s in harness.machine.image.sections)  # type: ignore[union-attr]
        runs.append(harness.run(inputs, operation))
    assert runs[0].verified and runs[1].verified
    assert runs[0].memory_cycles > 0
    assert (runs[1].cycles, runs[1].memory_cycles) == (runs[0].cycles, runs[0].memory_cycles)


def test_tables_placement_is_named_and_described():
    memory = board_memory(F407, 168, "off", tables="ram")
    assert memory.name == (
        "stm32f407vg @ 168 MHz, 5 WS, caches off, prefetch off, code in flash, tables in ram"
    )
    assert memory.describe()["tables"] == "ram"
    assert "tables='ram'" in memory.describe()["rules"]["R7 SRAM"]
    # the default follows the code: names of the existing configurations are unchanged
    assert board_memory(F407, 168, "off").describe()["tables"] == "flash"
    assert board_memory(F407, 168, "off", code="ram").name.endswith("code in ram")
    assert board_memory(F407, 168, "off", code="ram").describe()["tables"] == "ram"
    m = Machine.for_board(F407, 168, "off", tables="ram")
    assert m.memory.name.endswith("code in flash, tables in ram")


def test_invalid_tables_placement_is_rejected():
    with pytest.raises(
        ValueError, match=r"Invalid tables placement \('sram'\); accepted: 'flash', 'ram'"
    ):
        board_memory(F407, 168, tables="sram")  # type: ignore[arg-type]


def test_flash_ranges_by_placement():
    from cortexm_emu.elf import Section, Segment

    segments = [
        Segment(0x0, 0x0, b"", 0x1000, writable=False, executable=True),
        Segment(0x2000_0000, 0x1000, b"", 0x100, writable=True, executable=False),
    ]
    sections = [
        Section(".text", 0x0, 0xC00, writable=False, executable=True),
        Section(".rodata", 0xC00, 0x300, writable=False, executable=False),
        Section(".data", 0x2000_0000, 0x100, writable=True, executable=False),
    ]
    flash = (0x0800_0000, 0x0810_0000)  # the F407's 1 MiB
    both = board_memory(F407, 168).flash_ranges(segments, sections)
    assert both == [(0x0, 0x1000), flash]
    code_only = board_memory(F407, 168, tables="ram").flash_ranges(segments, sections)
    assert code_only == [(0x0, 0xC00), (0xF00, 0x1000), flash]
    tables_only = board_memory(F407, 168, code="ram", tables="flash").flash_ranges(
        segments, sections
    )
    assert tables_only == [(0xC00, 0xF00)]
    assert board_memory(F407, 168, code="ram").flash_ranges(segments, sections) == []


def test_elf_sections_separate_tables_from_code():
    from cortexm_emu.elf import load_elf_image

    image = load_elf_image(fetch_elf())
    by_name = {s.name: s for s in image.sections}
    assert by_name[".text"].executable and not by_name[".text"].read_only_data
    rodata = by_name[".rodata"]
    assert rodata.read_only_data
    words = image.objects["words"]
    assert rodata.address <= words.address and words.address + words.size <= rodata.end


# -- the replay engine is an implementation choice, not a configuration (see test_flash_replay.py) --


def test_invalid_engine_is_rejected():
    with pytest.raises(
        ValueError, match=r"Invalid engine \('fast'\); accepted: 'auto', 'native', 'python'"
    ):
        board_memory("stm32f407vg", 168, engine="fast")  # type: ignore[arg-type]


def test_engine_is_not_part_of_the_configuration():
    python = board_memory("stm32f407vg", 168, engine="python")
    auto = board_memory("stm32f407vg", 168)
    assert python.describe() == auto.describe() and python.name == auto.name


@pytest.mark.parametrize(("board", "bits"), [("stm32h753zi", 64), ("stm32f777xi", 64), ("stm32l562qe", 32)])
def test_the_slow_end_of_a_lower_bound_path_reads_flash_per_fetch(board, bits):
    """One flash read per core fetch (uncached_read_bits) is never faster than one per flash line,
    and is slower on straight code that crosses lines (APPROXIMATIONS.md 46, 51)."""
    assert load_board(board).memory.uncached_read_bits == bits
    word = board_memory(board, cache="off")
    fetch = board_memory(board, cache="off", flash_read_bits=bits)
    assert fetch.line_bytes == bits // 8 < word.line_bytes
    assert fetch.name.endswith(f"one flash read per {bits}-bit fetch")
    assert fetch.describe()["flash_line_bytes"] == bits // 8
    cycles = []
    for memory in (word, fetch):
        m = Machine(load_board(board).core, memory)
        m.load_elf(fetch_elf())
        cycles.append(m.call("straight32").cycles)
    assert cycles[0] < cycles[1]


def test_a_narrower_flash_read_needs_the_profile_to_state_it():
    with pytest.raises(ValueError, match=r"Invalid flash_read_bits \(32\) for stm32h753zi; accepted: 64"):
        board_memory("stm32h753zi", cache="off", flash_read_bits=32)
    with pytest.raises(ValueError, match="stm32f407vg; accepted: none"):
        board_memory(F407, 24, flash_read_bits=64)
