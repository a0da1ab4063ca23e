"""The records of a board profile: frozen dataclasses, each value with its citation."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from cortexm_emu.xip import XipFlash

__all__ = [
    "CACHE_KINDS",
    "CONFIDENCES",
    "CORES",
    "FLASH_CLOCKS",
    "Board",
    "Cache",
    "Citation",
    "Flash",
    "FlashLatency",
    "Prefetch",
    "LOAD_PIPELINING",
    "MemoryRules",
    "SramRegion",
    "UNCACHED_PATHS",
]

Core = Literal["m0plus", "m3", "m4", "m7", "m33"]
Confidence = Literal["primary", "secondary", "unconfirmed"]

CORES: tuple[str, ...] = ("m0plus", "m3", "m4", "m7", "m33")
CONFIDENCES: tuple[str, ...] = ("primary", "secondary", "unconfirmed")
CACHE_KINDS: tuple[str, ...] = (
    "art_icache",  # ST ART accelerator instruction cache on the flash I-Code path
    "art_dcache",  # ST ART accelerator data cache on the flash D-Code path
    "icache",  # ST ICACHE block on the Cortex-M33 C-AHB bus (L5/U5/H5/U3)
    "dcache",  # ST DCACHE block (U5/H5)
    "l1_icache",  # Cortex-M7 L1 instruction cache (AXI path)
    "l1_dcache",  # Cortex-M7 L1 data cache (AXI path)
    "flash_icache",  # small instruction cache in the flash interface, not ART-branded (G0)
)
FLASH_CLOCKS: tuple[str, ...] = ("hclk",)
#: ``[memory] load_pipelining``: "any" (neighbouring loads/stores pipeline whatever they address,
#: the core model alone) or "same-block" (only when both access the same memory block: each
#: ``[[sram]]`` row is a block, the flash another; APPROXIMATIONS.md 49)
LOAD_PIPELINING: tuple[str, ...] = ("any", "same-block")
#: ``[memory] uncached_path``: "bounded" (every documented latency of the caches-off path is
#: modelled) or "lower-bound" (part of it is undocumented and not added: the emulated caches-off
#: cycles are a lower bound; APPROXIMATIONS.md 46-48)
UNCACHED_PATHS: tuple[str, ...] = ("bounded", "lower-bound")


@dataclass(frozen=True)
class Citation:
    """Where a value comes from and how firmly it was checked."""

    source: str
    confidence: Confidence


@dataclass(frozen=True)
class FlashLatency:
    """One row of a reference-manual latency table: up to ``max_mhz`` needs ``wait_states``."""

    max_mhz: float
    wait_states: int


@dataclass(frozen=True)
class Flash:
    """Embedded flash: where it is, how wide a read is, and its wait states against clock.

    ``latency`` is indexed by the flash interface clock, which is the core clock divided by
    ``hclk_divider`` (1 on every part except the STM32H7, whose flash runs on the AXI clock).
    """

    base: int
    size_kib: int
    line_bits: int
    clock: str
    hclk_divider: int
    voltage_range: str
    latency: tuple[FlashLatency, ...]
    citation: Citation
    note: str


@dataclass(frozen=True)
class Prefetch:
    present: bool
    enabled_at_reset: bool
    citation: Citation
    note: str


@dataclass(frozen=True)
class Fpu:
    """The part's floating-point unit: present or not, and its precision (``single``: FPv4-SP /
    FPv5-SP, ``double``: FPv5-DP, ``none``). With one, ``Machine.for_board`` uses the core's
    model with the FPU (``model_for(core, fpu="on")``)."""

    present: bool
    precision: str
    citation: Citation
    note: str


FPU_PRECISIONS: tuple[str, ...] = ("none", "single", "double")


@dataclass(frozen=True)
class Cache:
    """An instruction/data cache or flash accelerator. ``size_bytes``/``lines``/``line_bits``/
    ``ways`` are 0 when no document seen gives the figure (``note`` then says so)."""

    name: str
    kind: str
    size_bytes: int
    lines: int
    line_bits: int
    ways: int
    enabled_at_reset: bool
    citation: Citation
    note: str


@dataclass(frozen=True)
class SramRegion:
    name: str
    base: int
    size_kib: int
    bus: str
    wait_states: int
    citation: Citation
    note: str

    @property
    def end(self) -> int:
        """First address after the region."""
        return self.base + self.size_kib * 1024


@dataclass(frozen=True)
class MemoryRules:
    """``[memory]``: rules of the board's memory system beyond wait states and caches.

    ``load_pipelining``: see :data:`LOAD_PIPELINING`. ``data_block``: the ``[[sram]]`` row the
    emulator's stack and buffers count as (they lie past the part's SRAM in the emulator's
    layout, :mod:`cortexm_emu.memory_map`), "" when the rule does not need one.
    ``uncached_path``: see :data:`UNCACHED_PATHS`; ``uncached_rule`` names the APPROXIMATIONS.md
    entries that say what is left out. A board file without ``[memory]`` has "any", "",
    "bounded", "" and no citation (the core model's pipelining, every latency modelled)."""

    load_pipelining: str = "any"
    data_block: str = ""
    #: the ``[[sram]]`` row the emulator's stack counts as when it is not ``data_block``: where the
    #: part's default linker scripts put the stack (the top of the contiguous RAM); "": data_block
    stack_block: str = ""
    uncached_path: str = "bounded"
    uncached_rule: str = ""
    #: the slow end of a "lower-bound" caches-off path: one flash read per core fetch of this many
    #: bits instead of one per ``[flash] line_bits`` word (0: none stated); boards/README.md
    uncached_read_bits: int = 0
    citation: Citation | None = None
    note: str = ""


@dataclass(frozen=True)
class Board:
    """What the emulator needs to know about one board, each value with its citation.

    ``default_clock_mhz`` is the one default clock: every command, fixture and library call that
    is given a board and no clock runs it there (a memory system, ``Machine.for_board``,
    ``cortexm-emu run``, ``refbench cycles``/``annotate``/``leakage``, the benchmark plugin). It is
    the part maximum unless the file's ``[default_clock]`` names another (``default_clock_reason``
    then says why; "" otherwise); :meth:`default_clock_note` says which, for ``--help`` and notes.
    """

    name: str
    board: str
    part: str
    core: Core
    datasheet: str
    reference_manual: str
    max_clock_mhz: float
    max_clock: Citation
    default_clock_mhz: float
    default_clock_reason: str
    flash: Flash
    prefetch: Prefetch
    fpu: Fpu
    accelerators: tuple[Cache, ...]
    sram: tuple[SramRegion, ...]
    notes: tuple[str, ...]
    path: Path
    memory: MemoryRules = MemoryRules()
    #: execute in place from external serial flash (``[xip]``): the read command of a cache
    #: miss, from which ``flash.latency`` is computed (:mod:`cortexm_emu.xip`)
    xip: XipFlash | None = None

    def default_clock_note(self) -> str:
        """Where the default clock comes from, in words: "168 MHz, the part maximum (source)" or
        "24 MHz, the board's default clock: reason"."""
        if self.default_clock_reason:
            return f"{self.default_clock_mhz:g} MHz, the board's default clock: {self.default_clock_reason}"
        return f"{self.default_clock_mhz:g} MHz, the part maximum ({self.max_clock.source})"

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready dictionary (for ``cortexm-emu boards --json`` and reports)."""
        data = lists(dataclasses.asdict(self))
        data["path"] = str(self.path)
        return data


def lists(node: Any) -> Any:
    """Tuples (from the frozen dataclasses) become lists, recursively, for JSON."""
    if isinstance(node, dict):
        return {key: lists(value) for key, value in node.items()}
    if isinstance(node, (list, tuple)):
        return [lists(value) for value in node]
    return node
