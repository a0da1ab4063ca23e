"""pytest plugin: emulated board time for pytest-benchmark, and the refbench selection options.

What pytest-benchmark reports for an emulated case is the time the kernel takes on the board
at its clock, ``cycles / clock_hz``, not the host's time. It gets there through the documented
per-test timer: every case is parametrised with ``pytest.mark.benchmark(timer=EmulatedClock)``,
a clock that advances only when the emulated board runs, and the fixture times the kernel with
``benchmark.pedantic`` and fixed rounds. (The automatic ``benchmark(fn)`` path calibrates against
a wall clock and never finishes with a clock that only moves inside the measured call.)
Tables, ``--benchmark-json``, ``--benchmark-compare``, ``--benchmark-histogram``,
``--benchmark-group-by`` and ``--benchmark-sort`` therefore all work on board time.

Emulated rounds are exact repeats: the same ELF, inputs and timing model give the same cycle
count every time (cortexm_emu is deterministic), so stddev is 0 by construction. The plugin
says so in each case's ``extra_info``, in the group name, in ``machine_info`` and in a
terminal summary line.

A case runs the board's core at the board's maximum clock with the board's memory system
(``cortexm_emu.board_memory``: flash wait states, prefetch, ART/ICACHE/L1 caches, code in
flash), with the caches and prefetch on unless ``--refbench-memory off``; ``--refbench-memory
ideal`` runs with zero wait states. Each case says which memory it ran with.

The modules:

* :mod:`~refbench.pytest_plugin.options`: the ``--refbench-*`` options, their defaults and parsers;
* :mod:`~refbench.pytest_plugin.selection`: the board cases the options select;
* :mod:`~refbench.pytest_plugin.clock`: :class:`EmulatedClock`, the per-case timer;
* :mod:`~refbench.pytest_plugin.inputs`: the deterministic kernel inputs of a case;
* :mod:`~refbench.pytest_plugin.board_time`: the ``board_case`` / ``board_benchmark`` fixtures;
* :mod:`~refbench.pytest_plugin.reporting`: the ``machine_info`` and terminal-summary hooks.

This package is the plugin: pytest loads it through the ``pytest11`` entry point ``refbench``
of the installed distribution, or with ``-p refbench.pytest_plugin``. Examples::

    pytest benchmarks --benchmark-only
    pytest benchmarks --benchmark-only --refbench-board stm32f756zg --refbench-kernel sha256
    pytest benchmarks --benchmark-only --refbench-size 64 --refbench-size 4096 \\
        --benchmark-json board.json
    pytest benchmarks/test_board_time.py --benchmark-only --refbench-full \\
        --benchmark-group-by param:refbench_board --benchmark-sort mean
"""

from __future__ import annotations

# pytest registers the hooks and fixtures it finds on this module, so each is imported here.
from refbench.pytest_plugin.board_time import (
    BoardBenchmark,
    board_benchmark,
    board_case,
    pytest_generate_tests,
)
from refbench.pytest_plugin.clock import EmulatedClock
from refbench.pytest_plugin.inputs import candidate_inputs, chosen_inputs, kernel_inputs
from refbench.pytest_plugin.options import emulated_boards, pytest_addoption
from refbench.pytest_plugin.reporting import (
    pytest_benchmark_update_machine_info,
    pytest_terminal_summary,
)
from refbench.pytest_plugin.selection import BoardCase, board_cases

__all__ = [
    "BoardBenchmark",
    "BoardCase",
    "EmulatedClock",
    "board_benchmark",
    "board_case",
    "board_cases",
    "candidate_inputs",
    "chosen_inputs",
    "emulated_boards",
    "kernel_inputs",
    "pytest_addoption",
    "pytest_benchmark_update_machine_info",
    "pytest_generate_tests",
    "pytest_terminal_summary",
]
