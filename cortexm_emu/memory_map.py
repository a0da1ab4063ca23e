"""The memory map of a machine: where the ELF, the stack, the buffers and the return stub go.

``map_image`` maps every PT_LOAD segment where it is linked (code read-only + executable, an
LMA copy where it differs from the VMA) and, above the program's highest SRAM address: an
unmapped gap, a 64 KiB unmapped stack guard, the stack (``stack_size`` bytes, painted before each
call to measure its depth) and the start of the buffer area (see :mod:`cortexm_emu.call`). The
return address is ``cortexm_emu_halt`` if the ELF defines it, otherwise a reserved trampoline page
of ``b .`` instructions. :meth:`Layout.region` names the part of this map an address falls in,
for fault messages.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from unicorn import UC_PROT_EXEC, UC_PROT_READ, UC_PROT_WRITE, Uc, UcError

from cortexm_emu.elf import HALT_SYMBOL, ElfImage
from cortexm_emu.errors import EmulatorError

__all__ = ["HALT_SYMBOL", "Layout", "map_image"]
DEFAULT_STACK_SIZE = 64 * 1024
STACK_GUARD = 64 * 1024
STACK_OVERFLOW_REACH = 512  # bytes below SP an overflowing access may touch (PUSH/STMDB/SUB SP)
STACK_PAINT = 0xCD
SRAM_START, SRAM_END = 0x2000_0000, 0x4000_0000
UNOWNED_GAP = 16 * 1024  # unmapped bytes between the program's SRAM pages and the stack guard
BUFFER_GUARD = 4 * 1024  # unmapped bytes after the stack and after each buffer
_TRAMPOLINE_CANDIDATES = (0x1FFF_FC00, 0x0FFF_FC00, 0x1000_0000, 0x6000_0000)
_THUMB_B_SELF = b"\xfe\xe7"  # b .


def align_up(value: int, alignment: int) -> int:
    return (value + alignment - 1) // alignment * alignment


def align_down(value: int, alignment: int) -> int:
    return value // alignment * alignment


@dataclass(frozen=True)
class Layout:
    """Where a loaded program's stack, guards, buffers and return address are."""

    page: int
    image_sram_end: int  # end of the program's .data/.bss pages
    stack_guard_start: int
    stack_base: int  # lowest stack address (the guard ends here)
    stack_size: int
    buffers_base: int
    halt_address: int  # the return address of every call (Thumb bit clear)
    trampoline_page: int | None  # the reserved return page, when the ELF has no cortexm_emu_halt

    @property
    def stack_top(self) -> int:
        return self.stack_base + self.stack_size

    def region(self, address: int) -> str | None:
        """The stack guard or the unowned SRAM gap below it, or None."""
        if self.stack_guard_start <= address < self.stack_base:
            return f"stack guard region, {self.stack_base - address} bytes below the {self.stack_size}-byte stack"
        if self.image_sram_end <= address < self.stack_guard_start:
            return f"unowned SRAM, {address - self.image_sram_end} bytes past the program's .data/.bss pages"
        return None


def map_image(uc: Uc, image: ElfImage, page: int, stack_size: int) -> Layout:
    """Map and write ``image``'s segments, map the stack, find the return address."""
    pages: dict[int, int] = {}
    for seg in image.segments:
        perms = UC_PROT_READ | (UC_PROT_WRITE if seg.writable else 0) | UC_PROT_EXEC
        _add_pages(pages, page, seg.vaddr, seg.memsz, perms)
        if seg.paddr != seg.vaddr and seg.data:
            _add_pages(pages, page, seg.paddr, len(seg.data), UC_PROT_READ | UC_PROT_EXEC)
    for start, size, perms in _runs(pages, page):
        try:
            uc.mem_map(start, size, perms)
        except UcError as exc:
            raise EmulatorError(
                f"{image.path}: cannot map 0x{start:08x}-0x{start + size - 1:08x} for its segments ({exc}); "
                "it overlaps memory the emulator maps itself (the Private Peripheral Bus)"
            ) from None
    for seg in image.segments:
        # Freshly mapped memory is zero: only the file bytes are written (no .bss zeros).
        uc.mem_write(seg.vaddr, seg.data)
        if seg.paddr != seg.vaddr and seg.data:
            uc.mem_write(seg.paddr, seg.data)
    sram_end = max(
        (seg.end for seg in image.segments if SRAM_START <= seg.vaddr < SRAM_END),
        default=SRAM_START,
    )
    image_sram_end = align_up(sram_end, page)
    stack_guard_start = align_up(image_sram_end + UNOWNED_GAP, page)
    stack_base = stack_guard_start + STACK_GUARD
    stack_top = stack_base + stack_size
    if stack_top + BUFFER_GUARD > SRAM_END:
        room = max(0, SRAM_END - BUFFER_GUARD - stack_base)
        raise ValueError(
            f"Invalid stack_size {stack_size}: the stack would end at 0x{stack_top:08x}, past the SRAM "
            f"region 0x{SRAM_START:08x}-0x{SRAM_END - 1:08x} (ARMv7-M ARM DDI 0403E B3.1 Table B3-1); "
            f"accepted: at most {room} bytes with {image.path.name}"
        )
    uc.mem_map(stack_base, align_up(stack_size, page), UC_PROT_READ | UC_PROT_WRITE)
    trampoline: int | None = None
    if HALT_SYMBOL in image.functions:
        halt_address = image.functions[HALT_SYMBOL].address
    else:
        halt_address = trampoline = _reserve_trampoline(uc, pages, page)
    return Layout(
        page=page,
        image_sram_end=image_sram_end,
        stack_guard_start=stack_guard_start,
        stack_base=stack_base,
        stack_size=stack_size,
        buffers_base=align_up(stack_top + BUFFER_GUARD, page),
        halt_address=halt_address,
        trampoline_page=trampoline,
    )


def write_segment(uc: Uc, seg: Any) -> None:
    """Write a segment's file bytes and zero its .bss tail."""
    uc.mem_write(seg.vaddr, seg.data + bytes(seg.memsz - len(seg.data)))


def restore_writable(uc: Uc, image: ElfImage, page: int) -> None:
    """Put .data/.bss back as the ELF has them: the ``page``-sized pieces that differ are written
    and Unicorn's translations of them dropped. Unicorn does not translate code again after a
    write from the host (uc_mem_write), so code in a writable segment that a call changed would
    otherwise run stale on the next call."""
    for seg in image.segments:
        if not seg.writable:
            continue
        wanted = seg.data + bytes(seg.memsz - len(seg.data))
        held = uc.mem_read(seg.vaddr, seg.memsz)
        if held == wanted:
            continue
        for offset in range(0, seg.memsz, page):
            piece = wanted[offset : offset + page]
            if held[offset : offset + page] != piece:
                uc.mem_write(seg.vaddr + offset, piece)
                uc.ctl_remove_cache(seg.vaddr + offset, seg.vaddr + offset + len(piece))


def paint_stack(uc: Uc, layout: Layout) -> None:
    uc.mem_write(layout.stack_base, bytes([STACK_PAINT]) * layout.stack_size)


def stack_depth(uc: Uc, layout: Layout, sp: int) -> int:
    """Stack painting: bytes from the lowest stack byte that no longer holds the paint (rounded
    down to a word) up to the call's initial ``sp``."""
    data = uc.mem_read(layout.stack_base, sp - layout.stack_base)
    lowest = align_down(layout.stack_base + _painted_prefix(data), 4)
    return max(0, sp - lowest)


_PAINT_CHUNK = bytes([STACK_PAINT]) * 4096


def _painted_prefix(data: bytearray) -> int:
    """Length of the leading run of paint bytes. Whole 4 KiB chunks are compared with memcmp and
    only the first chunk that differs is scanned byte by byte: a per-byte scan of a 64 KiB stack
    took most of a short call's fixed cost."""
    chunk = len(_PAINT_CHUNK)
    for start in range(0, len(data), chunk):
        piece = _PAINT_CHUNK[: len(data) - start]
        if not data.startswith(piece, start):  # compares in place, no copy of the chunk
            differing = bytes(data[start : start + chunk])
            return start + len(differing) - len(differing.lstrip(_PAINT_CHUNK[:1]))
    return len(data)


def _add_pages(pages: dict[int, int], page: int, start: int, size: int, perms: int) -> None:
    for address in range(align_down(start, page), align_up(start + size, page), page):
        pages[address] = pages.get(address, 0) | perms


def _runs(pages: dict[int, int], page: int) -> list[tuple[int, int, int]]:
    """Adjacent pages with equal permissions merged into (start, size, perms) runs."""
    runs: list[tuple[int, int, int]] = []
    for address in sorted(pages):
        perms = pages[address]
        if runs and runs[-1][0] + runs[-1][1] == address and runs[-1][2] == perms:
            start, size, _ = runs[-1]
            runs[-1] = (start, size + page, perms)
        else:
            runs.append((address, page, perms))
    return runs


def _reserve_trampoline(uc: Uc, pages: dict[int, int], page: int) -> int:
    for candidate in _TRAMPOLINE_CANDIDATES:
        if candidate not in pages:
            uc.mem_map(candidate, page, UC_PROT_READ | UC_PROT_EXEC)
            uc.mem_write(candidate, _THUMB_B_SELF * (page // 2))
            return candidate
    raise EmulatorError(
        "no free page for the return trampoline; define cortexm_emu_halt in the program"
    )
