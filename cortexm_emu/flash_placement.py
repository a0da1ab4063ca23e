"""Where a call's code, constant tables and data lie on a board (rule R7 of :mod:`cortexm_emu.flash`):
the address ranges fetched or read as flash, and the board region an address lies in.

``code`` is where ``.text`` (instructions and the literal pools between functions) is fetched from,
``tables`` where the ELF's read-only data sections (constant tables) are read from; each is
"flash" or "ram". Code linked in the Code region (below 0x2000_0000, e.g. at the 0x0 boot alias) is
fetched as flash when the code is in flash.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from cortexm_emu.address_ranges import Ranges, intersect, merge, subtract
from cortexm_emu.boards import Board
from cortexm_emu.memory import CODE_REGION_END, architectural_region


def flash_ranges(
    board: Board, code: str, tables: str, segments: Iterable[Any], sections: Iterable[Any] = ()
) -> Ranges:
    """Address ranges [start, end) fetched/read as flash: the board's flash, and the ELF's
    read-only segments in the Code region (linked at 0x0: the boot alias, see the Cortex-M7 note
    of :mod:`cortexm_emu.flash`) -- without the read-only data sections (``sections``: the ELF's
    allocated sections, :class:`cortexm_emu.elf.Section`) when the tables are in RAM, and only
    those sections when the code is in RAM and the tables in flash."""
    if "flash" not in (code, tables):
        return []
    flash = board.flash
    ranges = [(flash.base, flash.base + flash.size_kib * 1024)]
    for seg in segments:
        if seg.writable or seg.memsz == 0:
            continue
        if seg.vaddr < CODE_REGION_END:
            ranges.append((seg.vaddr, min(seg.vaddr + seg.memsz, CODE_REGION_END)))
    ranges = merge(ranges)
    if code == tables:
        return ranges
    table_ranges = merge(
        [(sec.address, sec.end) for sec in sections if sec.read_only_data and sec.size > 0]
    )
    if code == "flash":
        return subtract(ranges, table_ranges)
    return intersect(ranges, table_ranges)


def region_of(board: Board, code: str, address: int) -> str:
    """The board region ``address`` lies in (SRAM rows of the profile, flash, or why not)."""
    for region in board.sram:
        if region.base <= address < region.end:
            return region.name
    flash = board.flash
    if flash.base <= address < flash.base + flash.size_kib * 1024:
        return "flash"
    architectural = architectural_region(address)
    if architectural == "SRAM":
        return "SRAM region beyond the part's SRAM (emulator layout; timed as 0 WS SRAM)"
    if architectural == "Code":
        return "flash (code linked at the boot alias)" if code == "flash" else "code RAM"
    return "outside the board's memories"
