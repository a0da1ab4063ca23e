"""The memory-system seam and the architectural memory map.

A memory system adds cycles on top of the core's timing model (flash wait
states, prefetch, caches). The ideal memory of this module adds none: every
access completes in zero wait states, which is what the Arm TRM cycle tables
assume ("zero-wait-state memory system", DDI 0439D §3.3.1).

A memory system is any object with the :class:`MemorySystem` methods. The
emulator calls them once per distinct block and once per distinct edge
(previous block -> next block), never per executed instruction, so their result
must depend only on the code (addresses, instructions), not on data or history.

History-dependent effects (prefetch buffer, caches) go through the optional
:class:`HistoryMemory` methods: a memory system with ``needs_trace`` true makes
the machine record the sequence of executed blocks and the reads of flash data
(a ``UC_HOOK_MEM_READ`` bounded to ``flash_ranges``, into :class:`FlashReads`), and
``replay`` turns them into stall cycles after the run (see :mod:`cortexm_emu.flash` for
the boards).
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:
    from cortexm_emu.pricing import Block


class MemorySystem(Protocol):
    name: str

    def block_extra(self, block: Block) -> int:
        """Extra cycles each time ``block`` executes (e.g. instruction-fetch wait states)."""
        ...

    def edge_extra(self, prev: Block, nxt: Block, fallthrough: bool) -> int:
        """Extra cycles when ``nxt`` runs right after ``prev`` (e.g. a refetch after a taken branch)."""
        ...


@dataclass(frozen=True)
class MemoryReplay:
    """Stall cycles a history-dependent memory system adds to one call, and why."""

    cycles: int
    counts: dict[str, int] = field(default_factory=dict)
    config: dict[str, Any] = field(default_factory=dict)


@dataclass
class FlashReads:
    """Reads of flash data in one call, in execution order: read ``i`` was made by the block at
    index ``positions[i]`` of the block trace, at ``addresses[i]``."""

    positions: array = field(default_factory=lambda: array("q"))
    addresses: array = field(default_factory=lambda: array("I"))

    @classmethod
    def from_pairs(cls, pairs: Iterable[tuple[int, int]]) -> FlashReads:
        reads = cls()
        for position, address in pairs:
            reads.append(position, address)
        return reads

    def append(self, position: int, address: int) -> None:
        self.positions.append(position)
        self.addresses.append(address)

    def pairs(self) -> list[tuple[int, int]]:
        return list(zip(self.positions, self.addresses, strict=True))

    def __len__(self) -> int:
        return len(self.positions)


@runtime_checkable
class HistoryMemory(Protocol):
    """A memory system whose cost depends on the order of execution (board memories)."""

    name: str
    clock_mhz: float

    @property
    def needs_trace(self) -> bool:
        """Record the block sequence and flash data reads (False: the replay adds nothing)."""
        ...

    def flash_ranges(
        self, segments: Iterable[Any], sections: Iterable[Any] = ()
    ) -> list[tuple[int, int]]:
        """[start, end) ranges read as flash, given the ELF's PT_LOAD segments and sections."""
        ...

    def placement(self, address: int) -> str:
        """The board memory region ``address`` lies in."""
        ...

    def replay(
        self,
        trace: Sequence[int],
        blocks: Mapping[int, Any],
        edges: Mapping[tuple[int | None, int], Any],
        reads: FlashReads | Sequence[tuple[int, int]],
        flash: list[tuple[int, int]],
        block_switches: tuple[int, int] | None = None,
    ) -> MemoryReplay:
        """Stall cycles of the run: ``trace`` block addresses in order, ``reads`` (trace
        index, address) of flash data reads; ``block_switches`` (extra cycles, pairs checked)
        of the memory-block rule when the machine counted them (:mod:`cortexm_emu.memory_blocks`)."""
        ...


@dataclass(frozen=True)
class IdealMemory:
    """Zero-wait-state code and data memory (the TRM tables' assumption)."""

    name: str = "ideal"

    def block_extra(self, block: Block) -> int:
        return 0

    def edge_extra(self, prev: Block, nxt: Block, fallthrough: bool) -> int:
        return 0


#: The ARMv7-M / ARMv6-M default memory map (Arm DDI 0403E B3.1 Table B3-1;
#: ARMv6-M DDI 0419E B3.1 has the same regions): (start, end exclusive, name).
ARCHITECTURAL_REGIONS: tuple[tuple[int, int, str], ...] = (
    (0x0000_0000, 0x2000_0000, "Code"),
    (0x2000_0000, 0x4000_0000, "SRAM"),
    (0x4000_0000, 0x6000_0000, "Peripheral"),
    (0x6000_0000, 0xA000_0000, "External RAM"),
    (0xA000_0000, 0xE000_0000, "External device"),
    (0xE000_0000, 0xE010_0000, "Private Peripheral Bus"),
    (0xE010_0000, 0x1_0000_0000, "Vendor system"),
)


#: The end of the Code region (instructions and constants linked at 0x0 or in on-chip flash).
CODE_REGION_END = ARCHITECTURAL_REGIONS[0][1]


def architectural_region(address: int) -> str:
    for start, end, name in ARCHITECTURAL_REGIONS:
        if start <= address < end:
            return name
    return "outside the 32-bit address space"
