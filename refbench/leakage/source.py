"""Where an instruction is: symbol + offset, its disassembly (capstone), its C source line (DWARF).

The source line comes from the ELF's DWARF line table (``.debug_line``, read with pyelftools):
the row with the greatest address at or below the instruction inside the same sequence. The
kernels are built with ``-g`` (:func:`cortexm_emu.toolchain.flags_for`) and
``-ffile-prefix-map``, so file names are relative to the source folder (``./aes.c``); the
compilation unit's name gives the folder back where it can.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass
from pathlib import Path

import capstone
from elftools.elf.elffile import ELFFile

from cortexm_emu.elf import ElfImage


@dataclass(frozen=True)
class Location:
    """One instruction, named for a reader."""

    address: int
    symbol: str  # name+0xoff
    disassembly: str  # "ldr r3, [r2, r1, lsl #2]"
    source: str  # "ttable4/aes.c:42", or "" without line information

    def __str__(self) -> str:
        where = f" ({self.source})" if self.source else ""
        return f"{self.symbol}: {self.disassembly}{where}"


class LineTable:
    """Address -> "file:line" for one ELF, from every compilation unit's line program.

    Sequences of functions the linker dropped (``--gc-sections``) stay in ``.debug_line`` with
    address 0; where several sequences cover an address, the one that starts nearest below it
    wins, and between equal starts the one whose length is nearest the enclosing function's
    size (``sizes``: function start -> size, from the symbol table)."""

    def __init__(self, elf: Path, sizes: dict[int, int] | None = None) -> None:
        self._sizes = sizes or {}
        #: (start, end, row addresses, rows as (file, line))
        self._sequences: list[tuple[int, int, list[int], list[tuple[str, int]]]] = []
        with elf.open("rb") as handle:
            elffile = ELFFile(handle)
            if not elffile.has_dwarf_info():
                return
            dwarf = elffile.get_dwarf_info()
            for unit in dwarf.iter_CUs():
                program = dwarf.line_program_for_CU(unit)
                if program is not None:
                    self._read_program(program)

    def _read_program(self, program) -> None:  # type: ignore[no-untyped-def]
        header = program.header
        version = header["version"]
        files = header["file_entry"]
        dirs = header["include_directory"]
        addresses: list[int] = []
        rows: list[tuple[str, int]] = []
        for entry in program.get_entries():
            state = entry.state
            if state is None:
                continue
            if state.end_sequence:
                if addresses:
                    self._sequences.append((addresses[0], state.address, addresses, rows))
                addresses, rows = [], []
                continue
            index = state.file if version >= 5 else state.file - 1
            if not 0 <= index < len(files):
                continue
            entry_file = files[index]
            name = entry_file.name.decode(errors="replace")
            directory = entry_file.dir_index if version >= 5 else entry_file.dir_index - 1
            if 0 <= directory < len(dirs) and not name.startswith("/"):
                folder = dirs[directory].decode(errors="replace")
                if folder not in (".", ""):
                    name = f"{folder}/{name}"
            addresses.append(state.address)
            rows.append((_tidy(name), state.line))

    def line_of(self, address: int) -> str:
        """``file:line`` of the instruction at ``address``, or "" when no row covers it."""
        covering = [seq for seq in self._sequences if seq[0] <= address < seq[1]]
        if not covering:
            return ""
        size = self._sizes.get(max((s for s in self._sizes if s <= address), default=-1), 0)
        start, end, addresses, rows = max(covering, key=lambda seq: (seq[0], -abs(seq[1] - seq[0] - size)))
        index = bisect.bisect_right(addresses, address) - 1
        name, line = rows[index]
        return f"{name}:{line}" if line else name


def _tidy(name: str) -> str:
    return name[2:] if name.startswith("./") else name


class Locator:
    """Names instructions of one loaded ELF (image + capstone + line table)."""

    def __init__(self, image: ElfImage, cs: capstone.Cs, read: callable) -> None:  # type: ignore[valid-type]
        self.image = image
        self.cs = cs
        self.read = read
        self.lines = LineTable(image.path, {f.address: f.size for f in image.functions.values()})

    def locate(self, address: int) -> Location:
        code = bytes(self.read(address, 4))
        insn = next(self.cs.disasm(code, address, 1), None)
        text = f"{insn.mnemonic} {insn.op_str}".strip() if insn is not None else "(not decodable)"
        return Location(address, self.image.describe(address), text, self.lines.line_of(address))
