"""Emulated board time of every selected kernel variant (``--refbench-board/-kernel/-size``).

The time pytest-benchmark reports is the kernel's time on the board at its clock
(cycles / clock_hz), through :class:`refbench.pytest_plugin.clock.EmulatedClock`; cycles, cycles/byte,
instructions, stack and code bytes, board, core, clock, compiler and opt are in ``extra_info``.
A case whose output differs from the Python reference fails: wrong code has no speed.
"""

from refbench.pytest_plugin import BoardBenchmark


def test_board_time(board_benchmark: BoardBenchmark) -> None:
    run = board_benchmark()
    assert run.verified, run.mismatch
    assert board_benchmark.benchmark.extra_info["exact_repeats"], board_benchmark.benchmark.extra_info["round_cycles"]
