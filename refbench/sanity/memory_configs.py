"""The memory configurations rule e (``emulator``) runs a board in: which the board's profile
allows at a clock, and the label every message and JSON field uses for each.

A configuration is data (board, clock, wait states, caches, prefetch, where code and constant
tables sit); :meth:`MemoryConfig.memory` builds the emulator's memory system for it
(:func:`cortexm_emu.board_memory`, rules R1-R7 of :mod:`cortexm_emu.flash`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from cortexm_emu import board_memory
from cortexm_emu.boards import Board, wait_states
from cortexm_emu.flash import BoardMemory

MEMORY_NOTE = ("memory: each board's flash wait states at the published clock, with caches/ART and prefetch on, "
               "off and mixed, constant tables in SRAM, and code in SRAM (cortexm_emu.flash rules R1-R7)")

ConfigKind = Literal["cache on", "cache off", "flash", "code in SRAM", "cache on, prefetch off", "prefetch only",
                     "tables in SRAM"]
#: Configurations a board is normally benchmarked in (caches and prefetch on, code in flash): rule
#: e's nearest explanation and rule d's gap reproduction prefer them to caches off or code in SRAM.
DEFAULT_KINDS = frozenset({"cache on", "flash"})
#: Names of the instruction/data caches in configuration labels, by cache kind of the profile.
_CACHE_NAMES = {"art_icache": "ART", "art_dcache": "ART", "l1_icache": "L1 caches", "l1_dcache": "L1 caches",
                "icache": "ICACHE", "dcache": "DCACHE", "flash_icache": "flash cache"}


@dataclass(frozen=True)
class MemoryConfig:
    """One memory configuration of a board at one clock, with the label every message uses."""

    label: str
    kind: ConfigKind
    board: str
    clock_mhz: float
    wait_states: int
    cache: Literal["on", "off"]
    code: Literal["flash", "ram"]
    #: the flash prefetch buffer; None: as ``cache`` (board_memory's default)
    prefetch: Literal["on", "off"] | None = None
    #: where the read-only data sections (constant tables) are read from; None: where the code is
    tables: Literal["flash", "ram"] | None = None

    def memory(self) -> BoardMemory:
        """The emulator's memory system for this configuration (built on each call)."""
        return board_memory(self.board, self.clock_mhz, self.cache, prefetch=self.prefetch, code=self.code,
                            tables=self.tables)

    def as_json(self) -> dict[str, Any]:
        data = {"label": self.label, "kind": self.kind, "board": self.board, "clock_mhz": self.clock_mhz,
                "wait_states": self.wait_states, "cache": self.cache, "code": self.code}
        if self.prefetch is not None:
            data["prefetch"] = self.prefetch
        if self.tables is not None:
            data["tables"] = self.tables
        return data



def _cache_label(memory: BoardMemory) -> str:
    names = [_CACHE_NAMES.get(g.kind, g.name) for g in (memory.icache, memory.dcache) if g is not None]
    names = list(dict.fromkeys(names))
    if memory.prefetch:
        names.append("prefetch")
    return "+".join(names)


def configurations(board: Board, clock_mhz: float) -> list[MemoryConfig]:
    """The memory configurations ``board`` allows at ``clock_mhz`` that can change a count.

    Flash with the caches/ART and prefetch on, and with them off (one "flash" configuration
    when the part has neither a modelled cache nor prefetch, or runs at 0 wait states); when
    the part has both a modelled cache and a prefetch buffer, the two mixed settings too:
    caches on with prefetch off (STM32CubeL4/WB/WL's ``stm32*_hal_conf.h`` templates ship
    ``PREFETCH_ENABLE 0`` with both caches enabled) and prefetch on with caches off; when every
    SRAM row of the profile has 0 wait states and flash has wait states (at 0 wait states SRAM
    and flash cost the same: rules R1, R7), the constant tables copied to SRAM with the code in
    flash and the caches on (as firmware that copies its AES/GHASH tables at start-up), and code
    and constants in SRAM.
    """
    ws = wait_states(board, clock_mhz)
    on = board_memory(board, clock_mhz, "on")
    wait = f"{ws} WS" + (f" (= {on.wait_cycles} core cycles)" if on.wait_cycles != ws else "")
    where = f"{wait} @ {clock_mhz:g} MHz"

    def make(label: str, kind: ConfigKind, cache: Literal["on", "off"], code: Literal["flash", "ram"],
             prefetch: Literal["on", "off"] | None = None, tables: Literal["flash", "ram"] | None = None
             ) -> MemoryConfig:
        return MemoryConfig(label, kind, board.name, float(clock_mhz), ws, cache, code, prefetch, tables)

    accelerated = _cache_label(on)
    if ws == 0 or not accelerated:
        configs = [make(f"flash, {where}" + ("" if accelerated else ", no modelled cache or prefetch"), "flash",
                        "on", "flash")]
    else:
        configs = [make(f"{accelerated} on, {where}", "cache on", "on", "flash"),
                   make(f"{accelerated} off, {where}", "cache off", "off", "flash")]
        caches = _cache_label(board_memory(board, clock_mhz, "on", prefetch="off"))
        if on.prefetch and caches:
            configs += [make(f"{caches} on, prefetch off, {where}", "cache on, prefetch off", "on", "flash", "off"),
                        make(f"{caches} off, prefetch on, {where}", "prefetch only", "off", "flash", "on")]
    if ws > 0 and all(region.wait_states == 0 for region in board.sram):
        code_in_flash = f"{accelerated} on" if accelerated else "code in flash"
        configs.append(make(f"tables in SRAM, {code_in_flash}, {where}", "tables in SRAM", "on", "flash",
                            tables="ram"))
        configs.append(make(f"code in SRAM, 0 WS @ {clock_mhz:g} MHz", "code in SRAM", "on", "ram"))
    return configs

