"""What a run reports besides pytest-benchmark's tables: the conditions of the emulated cases in
``machine_info`` and a terminal summary of every board case (cycles, c/B, exact repeats)."""

from __future__ import annotations

from typing import Any

import pytest

from cortexm_emu.boards import load_board
from refbench.pytest_plugin.board_time import CASES_KEY
from refbench.pytest_plugin.clock import CLOCK_SOURCE, REPEAT_NOTE, TIME_SOURCE
from refbench.pytest_plugin.options import memory_note
from refbench.pytest_plugin.selection import selected_boards


@pytest.hookimpl(optionalhook=True)
def pytest_benchmark_update_machine_info(config: pytest.Config, machine_info: dict[str, Any]) -> None:
    """Say in ``machine_info`` how emulated cases are timed and which boards are selected.

    It depends only on the options (not on which tests ran), so ``--benchmark-compare`` between
    two runs of the same selection sees the same machine_info.
    """
    boards = {}
    for name in selected_boards(config):
        board = load_board(name)
        boards[name] = {"part": board.part, "core": board.core, "clock_mhz": board.default_clock_mhz}
    machine_info["refbench"] = {
        "emulated_timer": TIME_SOURCE,
        "clock_source": CLOCK_SOURCE,
        "memory": memory_note(config),
        "memory_option": config.getoption("refbench_memory"),
        "repeatability": REPEAT_NOTE,
        "boards": boards,
    }


@pytest.hookimpl(trylast=True)
def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    rows = config.stash.get(CASES_KEY, [])
    if not rows:
        return
    write = terminalreporter.write_line
    terminalreporter.section("refbench board time (emulated)")
    write(f"Times in the 'board time' groups are {TIME_SOURCE}.")
    write(f"Clock: {CLOCK_SOURCE}. Memory: {memory_note(config)} (--refbench-memory "
          f"{config.getoption('refbench_memory')}).")
    identical = all(row["exact_repeats"] for row in rows)
    write(
        f"Rounds are exact repeats (stddev 0 by construction, not measured variance): "
        f"{'all' if identical else 'NOT all'} {len(rows)} cases gave one cycle count per round."
    )
    width = max(len(row["name"]) for row in rows)
    write(f"{'case':<{width}} {'MHz':>5} {'cycles':>10} {'c/B':>8} {'instr':>10} {'stack':>6} {'code':>6} verified")
    for row in sorted(rows, key=lambda r: (r["operation"], r["size_bytes"], r["board"], r["kernel"])):
        write(
            f"{row['name']:<{width}} {row['clock_mhz']:>5g} {row['cycles']:>10} {row['cycles_per_byte']:>8.1f} "
            f"{row['instructions']:>10} {row['stack_bytes']:>6} {row['code_bytes']:>6} {row['verified']}"
        )


