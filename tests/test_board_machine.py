"""Every profiled board runs code at its default and its maximum clock with caches on and off, and
the Cortex-M0+ / 64-bit-flash boards follow the rules of cortexm_emu/flash.py with their own
line widths (expected stalls derived here from the profile figures and the code layout).

Boards whose core has no emulator model yet (m7, m33: another part of issue 5) join the
parametrised runs as soon as ``cortexm_emu.cores.CORES`` lists their core.
"""

from __future__ import annotations

import math
from functools import cache
from pathlib import Path

import pytest

from cortexm_emu import Machine
from cortexm_emu.boards import board_names, load_board, wait_states
from cortexm_emu.cores import CORES
from cortexm_emu.flash import board_memory
from cortexm_emu.toolchain import build

ASM = Path(__file__).parent / "asm" / "memory"
STRAIGHT16_BYTES = 64 * 2 + 2  # 64 ADDS and a BX LR, from a 32-byte boundary


def runnable(name: str) -> bool:
    return load_board(name).core in CORES


RUNS = [
    (name, clock, setting)
    for name in board_names()
    if runnable(name)
    for clock in sorted({load_board(name).default_clock_mhz, load_board(name).max_clock_mhz})
    for setting in ("on", "off")
]


@cache
def elf_for(core: str) -> Path:
    source = "fetch_v6m.S" if core in ("m0", "m0plus") else "fetch.S"
    return build([ASM / source], core, opt="Os", extra_flags=["-Wl,--entry=cortexm_emu_halt"]).elf


def run(name: str, clock: float, setting: str, function: str, *args: int, **options: str):
    board = load_board(name)
    m = Machine(board.core, board_memory(board, clock, setting, **options))  # type: ignore[arg-type]
    m.load_elf(elf_for(board.core))
    return m.call(function, *args)


def ideal(core: str, function: str, *args: int) -> int:
    m = Machine(core)
    m.load_elf(elf_for(core))
    return m.call(function, *args).cycles


def test_boards_without_a_core_model_are_only_the_m7_and_m33_ones():
    waiting = {load_board(n).core for n in board_names() if not runnable(n)}
    assert waiting <= {"m7", "m33"}
    assert {"stm32f407vg", "stm32g071rb", "stm32wl33cc"} <= {
        n for n in board_names() if runnable(n)
    }


@pytest.mark.parametrize(("name", "clock", "setting"), RUNS)
def test_board_runs_code_at_its_default_and_maximum_clocks(name, clock, setting):
    board = load_board(name)
    result = run(name, clock, setting, "loop_in_line", 25)
    straight = run(name, clock, setting, "straight16", 0)
    assert result.return_value == 0
    assert straight.return_value == 0  # r0 untouched (the ADDS work on r1)
    assert result.clock_mhz == clock
    assert result.memory_config["wait_states"] == wait_states(board, clock)
    assert result.memory_config["cache"] is (setting == "on" and bool(board.accelerators))
    assert straight.cycles >= ideal(board.core, "straight16", 0)
    assert straight.time_us == pytest.approx(straight.cycles / clock)


@pytest.mark.parametrize(("name", "clock"), sorted({(n, c) for n, c, _ in RUNS}))
def test_caches_off_is_never_faster_on_any_board(name, clock):
    for function, args in (("straight16", (0,)), ("loop_in_line", (40,))):
        on = run(name, clock, "on", function, *args)
        off = run(name, clock, "off", function, *args)
        assert on.cycles <= off.cycles, function


def test_wl33_reads_flash_one_word_at_a_time_without_prefetch():
    ws = wait_states("stm32wl33cc", 64)
    reads = math.ceil(STRAIGHT16_BYTES / (load_board("stm32wl33cc").flash.line_bits // 8))
    assert (ws, reads) == (1, 33)
    for setting in ("on", "off"):  # no prefetch and no cache on this part: both the same
        result = run("stm32wl33cc", 64, setting, "straight16", 0)
        assert result.memory_cycles == reads * ws
        assert result.cycles == ideal("m0plus", "straight16", 0) + reads * ws


def test_g071_prefetch_hides_four_cycle_lines_at_two_wait_states():
    ws = wait_states("stm32g071rb", 64)
    lines = math.ceil(STRAIGHT16_BYTES / 8)  # 64-bit flash reads (RM0444 §3.3.1 per the profile)
    assert (ws, lines) == (2, 17)
    with_prefetch = run("stm32g071rb", 64, "on", "straight16", 0)
    without = run("stm32g071rb", 64, "off", "straight16", 0)
    assert with_prefetch.memory_cycles == ws  # 4 cycles per line >= WS+1: only the entry line
    assert without.memory_cycles == lines * ws


def test_l4a6_prefetch_leaves_one_cycle_per_line_at_four_wait_states():
    ws = wait_states("stm32l4a6zg", 80)
    lines = math.ceil(STRAIGHT16_BYTES / 8)
    shortfall = min(ws, max(0, ws + 1 - 4))  # four 1-cycle ADDS per 64-bit line
    assert (ws, lines, shortfall) == (4, 17, 1)
    off = run("stm32l4a6zg", 80, "off", "straight16", 0, prefetch="on")
    on = run("stm32l4a6zg", 80, "on", "straight16", 0)
    assert off.memory_cycles == ws + (lines - 1) * shortfall
    assert on.memory_cycles == (lines - 1) * shortfall  # entry read cached by the earlier call


def test_wl55_hides_two_wait_states_completely():
    ws = wait_states("stm32wl55jc", 48)
    assert ws == 2
    assert run("stm32wl55jc", 48, "off", "straight16", 0, prefetch="on").memory_cycles == ws
    assert run("stm32wl55jc", 48, "on", "straight16", 0).memory_cycles == 0


def test_h7_wait_states_count_on_the_axi_clock_and_hops_fit_its_l1_cache():
    memory = board_memory("stm32h753zi", 480, "off")
    assert (memory.wait_states, memory.wait_cycles) == (4, 9)  # (4 WS + 1) x 2 core cycles per read, less the core's own 1
    assert not memory.prefetch  # none on this part (profile)
    n, targets = 3, 81
    off = run("stm32h753zi", 480, "off", "hops81", n)
    on = run("stm32h753zi", 480, "on", "hops81", n)
    # every hop a flash read without the cache; 81 32-byte lines fit the 512-line 2-way L1
    # I-cache, which allocates every line read (R5), so a repeated call hits throughout
    assert off.memory_cycles == n * targets * memory.wait_cycles
    assert on.memory_cycles == 0
