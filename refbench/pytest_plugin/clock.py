"""The clock of a board case: emulated board time (cycles / clock_hz), never host time, and the
notes that say so in every report."""

from __future__ import annotations

#: Where the clock of a case comes from, what its time is, and why rounds do not vary.
CLOCK_SOURCE = ("the board's default clock (default_clock_mhz of the board file: the part maximum unless the "
                "file's [default_clock] names another, with its reason)")
TIME_SOURCE = "emulated board time = cycles / clock_hz (not host time)"
REPEAT_NOTE = (
    "exact repeats: same ELF, inputs and timing model give the same cycles every round, "
    "so stddev is 0 by construction (not measured variance)"
)


class EmulatedClock:
    """The per-test ``timer`` of one board case: it counts emulated board time, never host time.

    Reading it returns the board time that the emulated runs took since the previous reading,
    ``cycles / clock_hz`` seconds (a lap timer). ``benchmark.pedantic`` reads it just before and
    just after each round, and the measured call advances it by the kernel's cycles, so
    ``end - start`` is exactly ``cycles / clock_hz`` (an accumulating float clock would add
    rounding noise of ~1e-20 s and a false non-zero stddev).
    """

    def __init__(self, board: str, clock_hz: int) -> None:
        if not isinstance(clock_hz, int) or clock_hz <= 0:
            raise ValueError(f"Invalid clock_hz ({clock_hz!r}) for board {board!r}; accepted: a positive integer")
        self.board = board
        self.clock_hz = clock_hz
        self.cycles = 0  # every cycle counted so far
        self._unread = 0  # cycles since the previous reading

    def advance(self, cycles: int) -> None:
        if not isinstance(cycles, int) or cycles < 0:
            raise ValueError(f"Invalid cycles ({cycles!r}); accepted: a non-negative integer")
        self.cycles += cycles
        self._unread += cycles

    def __call__(self) -> float:
        lap, self._unread = self._unread, 0
        return lap / self.clock_hz

    def __repr__(self) -> str:
        return f"EmulatedClock({self.board} @ {self.clock_hz / 1e6:g} MHz)"


