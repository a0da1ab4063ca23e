"""Speed cost of the memory-block rule (cortexm_emu/memory_blocks.py): the same call on the
STM32F407 board memory with the profile's ``[memory] load_pipelining = "same-block"`` (a native
code hook at the first instruction of every pipelined load/store pair) and with the rule removed
(the profile's ``[memory]`` replaced by the default, "any"), at 24 MHz (0 wait states: no flash
trace either way). Run with ``pytest benchmarks/test_memory_blocks_speed.py --benchmark-only``.
``extra_info`` holds both CPU times (best of several, warm: blocks and hooks known) and their
ratio, measured in the same run; the cycle counts differ by the block switches only.
"""

from __future__ import annotations

import dataclasses
import time
from pathlib import Path

import pytest

from cortexm_emu import Buffer, Machine
from cortexm_emu.boards import load_board
from cortexm_emu.boards.model import MemoryRules
from cortexm_emu.flash import board_memory
from cortexm_emu.toolchain import build

TESTS = Path(__file__).resolve().parents[1] / "tests" / "asm"
#: (source, function, arguments): compiled C with few pipelined pairs, and the worst case, a loop
#: of four instructions holding one pair that crosses blocks (flash table -> buffer)
CASES = {
    "sha256_like": (TESTS / "machine" / "speed.c", "sha256_like",
                    lambda: (Buffer(bytes(range(32))), Buffer(bytes(range(64, 128))), 3000)),
    "pair_per_4_insns": (TESTS / "memory" / "blocks.S", "flash_then_buffer",
                         lambda: (Buffer(bytes(16)), 2_500_000)),
}


def _machine(case: str, rule: bool) -> Machine:
    board = load_board("stm32f407vg")
    if not rule:
        board = dataclasses.replace(board, memory=MemoryRules())
    m = Machine("m4", board_memory(board, 24, "on"))
    source = CASES[case][0]
    flags = ["-Wl,--entry=cortexm_emu_halt"] if source.suffix == ".S" else []
    m.load_elf(build([source], "m4", opt="O2", extra_flags=flags).elf)
    return m


def _best(machine: Machine, case: str, rounds: int = 3) -> tuple[float, int, int]:
    _source, function, arguments = CASES[case]
    best, cycles, pairs = float("inf"), 0, 0
    for _ in range(rounds):
        start = time.process_time()
        result = machine.call(function, *arguments())
        best = min(best, time.process_time() - start)
        cycles, pairs = result.cycles, result.memory_counts.get("pipelined_pairs_checked", 0)
    return best, cycles, pairs


@pytest.mark.benchmark(group="memory-blocks")
@pytest.mark.parametrize("case", list(CASES))
def test_memory_block_hooks_speed(benchmark, case):
    with_rule, without_rule = _machine(case, True), _machine(case, False)
    _best(with_rule, case, 1), _best(without_rule, case, 1)  # warm: blocks priced, hooks installed
    hooked, hooked_cycles, pairs = _best(with_rule, case)
    plain, plain_cycles, _ = _best(without_rule, case)
    benchmark.extra_info.update(
        seconds_with_rule=hooked,
        seconds_without_rule=plain,
        time_ratio=hooked / plain,
        pipelined_pairs_checked=pairs,
        cycles_with_rule=hooked_cycles,
        cycles_without_rule=plain_cycles,
    )
    benchmark.pedantic(lambda: None, rounds=1)
    assert hooked_cycles >= plain_cycles
