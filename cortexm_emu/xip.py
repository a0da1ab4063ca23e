"""Execute in place from external serial NOR flash behind a cache: the refill of one cache line.

Parts without embedded flash (i.MX RT, STM32H7S, RP2040/RP2350) run their code from a QSPI,
OctoSPI or FlexSPI NOR flash mapped into the address space; the controller turns a cache miss
into one read command on the serial bus. That command's length, from the flash's own read
protocol as the part's boot code programs it, is the refill latency:

* command: ``command_bits`` over the command lanes (0 in continuous-read ("XIP", "performance
  enhance") mode, where the mode bits after the address tell the flash to expect no command);
* address and mode bits: ``address_bits + mode_bits`` over the address lanes;
* ``dummy_cycles`` interface clocks (the flash's access time at that clock);
* data: ``line_bytes x 8`` bits over the data lanes.

Each phase moves ``lanes`` bits per interface clock, twice that in DTR (both edges). The
protocol is written as the JEDEC x-y-z lane counts (``1-4-4``: command on one lane, address and
data on four). The interface clock is fixed (``clock_mhz``: FlexSPI's own root clock) or the
core clock over a divider (``clock_divider``: the RP2040 SSI's ``BAUDR``); in core cycles the
refill is ``ceil(interface clocks x core MHz / interface MHz)``.

What the part's manual does not document (chip-select high time between commands, the
controller's own pipeline, an AHB prefetch that hides part of a sequential refill) is not
added: the refill is a lower bound of a miss, and profiles say so in their ``[memory]`` rules.

A board profile's ``[xip]`` table states these facts (each cited); :func:`latency_rows` turns
them into the profile's flash latency table (one "read" of ``line_bytes`` per miss, its wait
states the refill less the one cycle a zero-wait read takes), so the emulator's flash rules
(``cortexm_emu.flash``) replay XIP code with the refill on every cache miss and nothing else
changed.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

#: ``command-address-data`` lane counts, each 1, 2, 4 or 8 (JEDEC JESD216 notation)
_PROTOCOL = re.compile(r"([1248])-([1248])-([1248])")


@dataclass(frozen=True)
class XipFlash:
    """One read command of an external NOR flash as the part's controller issues it on a miss."""

    controller: str
    protocol: str
    dtr: bool
    command_bits: int
    address_bits: int
    mode_bits: int
    dummy_cycles: int
    line_bytes: int
    clock_mhz: float | None
    clock_divider: int | None

    def __post_init__(self) -> None:
        if not _PROTOCOL.fullmatch(self.protocol):
            raise ValueError(f"Invalid protocol ({self.protocol!r}); accepted: command-address-data lane counts "
                             "such as 1-1-4, 1-4-4, 4-4-4, 8-8-8")
        for name in ("command_bits", "address_bits", "mode_bits", "dummy_cycles"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"Invalid {name} ({value!r}); must be an integer >= 0")
        if self.line_bytes <= 0 or self.line_bytes & (self.line_bytes - 1):
            raise ValueError(f"Invalid line_bytes ({self.line_bytes!r}); must be a power of two")
        if (self.clock_mhz is None) == (self.clock_divider is None):
            raise ValueError("Invalid clock: give exactly one of clock_mhz (a fixed interface clock) and "
                             "clock_divider (the core clock over an integer)")
        if self.clock_mhz is not None and not (math.isfinite(self.clock_mhz) and self.clock_mhz > 0):
            raise ValueError(f"Invalid clock_mhz ({self.clock_mhz!r}); must be > 0")
        if self.clock_divider is not None and self.clock_divider < 1:
            raise ValueError(f"Invalid clock_divider ({self.clock_divider!r}); must be >= 1")

    @property
    def lanes(self) -> tuple[int, int, int]:
        command, address, data = (int(x) for x in _PROTOCOL.fullmatch(self.protocol).groups())  # type: ignore[union-attr]
        return command, address, data

    def interface_clocks(self) -> float:
        """Interface clocks of one line read: command, address and mode, dummy, data."""
        command, address, data = self.lanes
        edges = 2 if self.dtr else 1
        return (self.command_bits / (command * edges) + (self.address_bits + self.mode_bits) / (address * edges)
                + self.dummy_cycles + self.line_bytes * 8 / (data * edges))

    def interface_mhz(self, core_mhz: float) -> float:
        return self.clock_mhz if self.clock_mhz is not None else core_mhz / self.clock_divider  # type: ignore[operator]

    def refill_cycles(self, core_mhz: float) -> int:
        """Core cycles of one line refill at ``core_mhz`` (a lower bound: see the module docstring)."""
        if self.clock_divider is not None:
            return math.ceil(self.interface_clocks() * self.clock_divider)
        return math.ceil(self.interface_clocks() * core_mhz / self.interface_mhz(core_mhz) - 1e-9)

    def latency_rows(self, max_clock_mhz: float) -> tuple[tuple[float, int], ...]:
        """``(max core MHz, wait states)`` rows up to ``max_clock_mhz``: the refill at each core
        clock as the wait states of one ``line_bytes`` read (refill - 1)."""
        if self.clock_divider is not None:
            return ((float(max_clock_mhz), self.refill_cycles(max_clock_mhz) - 1),)
        per_mhz = self.interface_clocks() / self.clock_mhz  # core cycles per core MHz  # type: ignore[operator]
        final = self.refill_cycles(max_clock_mhz)
        # a refill of `cycles` up to the core clock cycles / per_mhz; the last row ends at the maximum
        # (the same 1e-9 slack as refill_cycles, so a clock on a boundary gets the same count)
        rows = [((cycles + 1e-9) / per_mhz, cycles - 1) for cycles in range(1, final)]
        return (*rows, (float(max_clock_mhz), final - 1))

    def describe(self, core_mhz: float) -> str:
        clock = (f"{self.clock_mhz:g} MHz" if self.clock_mhz is not None else
                 f"core/{self.clock_divider} = {self.interface_mhz(core_mhz):g} MHz")
        return (f"{self.controller} {self.protocol}{' DTR' if self.dtr else ''} at {clock}: "
                f"{self.interface_clocks():g} interface clocks per {self.line_bytes}-byte line = "
                f"{self.refill_cycles(core_mhz)} core cycles at {core_mhz:g} MHz")
