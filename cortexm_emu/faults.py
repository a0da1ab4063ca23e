"""Decoding why Unicorn stopped into a named fault (see :mod:`cortexm_emu.errors`).

A fault names the core, the PC as symbol+offset, the instruction, and for a memory fault the
address and the region it falls in (a buffer's guard or canary bytes, the stack guard, a
segment of the program, the Private Peripheral Bus, an architectural region of the memory map).
The machine's hooks record what Unicorn reports (an invalid memory access, an exception number);
:class:`FaultDecoder` turns that record, or the ``UcError`` of ``emu_start``, into an exception.
"""

from __future__ import annotations

from typing import Any

import capstone
from unicorn import (
    UC_ERR_EXCEPTION,
    UC_ERR_FETCH_PROT,
    UC_ERR_FETCH_UNALIGNED,
    UC_ERR_FETCH_UNMAPPED,
    UC_ERR_INSN_INVALID,
    UC_ERR_READ_PROT,
    UC_ERR_READ_UNALIGNED,
    UC_ERR_READ_UNMAPPED,
    UC_ERR_WRITE_PROT,
    UC_ERR_WRITE_UNALIGNED,
    UC_ERR_WRITE_UNMAPPED,
    UC_MEM_FETCH_PROT,
    UC_MEM_FETCH_UNMAPPED,
    UC_MEM_READ_PROT,
    UC_MEM_READ_UNMAPPED,
    UC_MEM_WRITE_PROT,
    UC_MEM_WRITE_UNMAPPED,
    Uc,
    UcError,
)
from unicorn import arm_const as uc_arm

from cortexm_emu.call import BufferArena
from cortexm_emu.cores import CoreInfo
from cortexm_emu.elf import ElfImage
from cortexm_emu.errors import (
    BufferOverrun,
    EmulatorError,
    FaultSite,
    HardFault,
    IllegalInstruction,
    ProtectedAccess,
    StackOverflow,
    UnmappedAccess,
)
from cortexm_emu.memory import architectural_region
from cortexm_emu.memory_map import SRAM_END, SRAM_START, STACK_OVERFLOW_REACH, Layout

#: (access kind, address, size, PC, SP) recorded by the UC_HOOK_MEM_INVALID hook
InvalidAccess = tuple[int, int, int, int, int]

# Unicorn QEMU exception numbers seen by UC_HOOK_INTR (qemu/target/arm/cpu.h EXCP_*).
EXCEPTION_NAMES = {
    1: "undefined instruction (UDF or an encoding the core lacks)",
    2: "SVC (supervisor call)",
    3: "prefetch abort",
    4: "data abort",
    7: "BKPT (breakpoint)",
    8: "exception return (EXC_RETURN value branched to)",
    17: "coprocessor/FPU instruction with the FPU disabled (NOCP)",
    18: "invalid state (branch to an ARM-state address, Thumb bit clear)",
    22: "unaligned access",
}

_VERBS = {
    UC_MEM_READ_UNMAPPED: "read",
    UC_MEM_WRITE_UNMAPPED: "write",
    UC_MEM_FETCH_UNMAPPED: "instruction fetch",
    UC_MEM_WRITE_PROT: "write",
    UC_MEM_READ_PROT: "read",
    UC_MEM_FETCH_PROT: "instruction fetch",
}


class FaultDecoder:
    """Names faults of one machine; ``attach`` gives it the loaded program and its map."""

    def __init__(self, uc: Uc, cs: capstone.Cs, info: CoreInfo) -> None:
        self.uc = uc
        self.cs = cs
        self.info = info
        self.image: ElfImage | None = None
        self.layout: Layout | None = None
        self.arena: BufferArena | None = None

    def attach(self, image: ElfImage, layout: Layout, arena: BufferArena) -> None:
        self.image, self.layout, self.arena = image, layout, arena

    # -- where ------------------------------------------------------------------------------------
    def site(self, pc: int, insn: Any = None) -> FaultSite:
        """The core, ``pc`` as symbol+offset and the instruction there (decoded if not given)."""
        if insn is None:
            insn = self._decode_at(pc)
        text = f"{insn.mnemonic} {insn.op_str}".strip() if insn is not None else ""
        location = self.image.describe(pc) if self.image is not None else f"0x{pc:08x}"
        return FaultSite(self.info.title, pc, location, text)

    def _decode_at(self, pc: int) -> Any:
        try:
            code = bytes(self.uc.mem_read(pc, 4))
        except UcError:
            try:
                code = bytes(self.uc.mem_read(pc, 2))
            except UcError:
                return None
        return next(iter(self.cs.disasm(code, pc, 1)), None)

    def region(self, address: int) -> str:
        """The part of the memory map ``address`` is in, for a fault message."""
        image, layout, arena = self._attached()
        named = arena.region(address) or layout.region(address)
        if named is not None:
            return named
        for seg in image.segments:
            if seg.vaddr <= address < seg.end:
                kind = "code/read-only" if not seg.writable else ".data/.bss"
                return f"{kind} segment of {image.path.name}, {image.describe(address)}"
        sym = image.symbol_at(address)
        if address >= 0xE000_0000 and address < 0xE010_0000:
            if 0xE000_1000 <= address < 0xE000_1400 and not self.info.has_cyccnt:
                return f"DWT: {self.info.title} has no cycle counter (ARMv6-M)"
            return "Private Peripheral Bus register not modelled"
        region = architectural_region(address)
        return f"{region}" + (f", {sym.name}" if sym else "") + ", nothing mapped"

    def _attached(self) -> tuple[ElfImage, Layout, BufferArena]:
        if self.image is None or self.layout is None or self.arena is None:
            raise EmulatorError("no ELF loaded; call load_elf(path) first")
        return self.image, self.layout, self.arena

    # -- what -------------------------------------------------------------------------------------
    def memory_fault(self, invalid: InvalidAccess) -> Exception:
        """The fault of an access the UC_HOOK_MEM_INVALID hook recorded."""
        access, address, size, hook_pc, sp = invalid
        image, layout, _arena = self._attached()
        site = self.site(hook_pc)
        region = self.region(address)
        verb = _VERBS.get(access, "access")
        if access in (UC_MEM_FETCH_UNMAPPED, UC_MEM_FETCH_PROT):
            site = FaultSite(self.info.title, address, image.describe(address), "")
        if access in (UC_MEM_WRITE_PROT, UC_MEM_READ_PROT, UC_MEM_FETCH_PROT):
            return ProtectedAccess(
                f"{verb} of {size} bytes to protected memory at", site, address, region
            )
        in_guard = layout.stack_guard_start <= address < layout.stack_base
        # An overflow touches memory at (or just below) SP, or happens once SP has left the
        # stack; a wild pointer into the guard while SP is fine is not an overflow.
        near_sp = sp - STACK_OVERFLOW_REACH <= address < layout.stack_base
        sp_left_stack = sp < layout.stack_base
        if (in_guard and (near_sp or sp_left_stack)) or (sp_left_stack and near_sp):
            return StackOverflow(
                f"stack overflow: {verb} of {size} bytes at", site, address, region
            )
        if access == UC_MEM_WRITE_UNMAPPED and SRAM_START <= address < SRAM_END:
            return BufferOverrun(
                f"write of {size} bytes outside the call's stack, buffers and .data/.bss at",
                site,
                address,
                region,
            )
        return UnmappedAccess(f"{verb} of {size} bytes at unmapped", site, address, region)

    def hard_fault(self, interrupt: tuple[int, int]) -> HardFault:
        """The fault of an exception the UC_HOOK_INTR hook recorded as (number, PC)."""
        intno, at = interrupt
        cause = EXCEPTION_NAMES.get(intno, f"exception {intno}")
        return HardFault(f"HardFault: {cause}", self.site(at))

    def from_uc_error(
        self, exc: UcError, invalid: InvalidAccess | None, interrupt: tuple[int, int] | None
    ) -> Exception:
        """The fault of a ``UcError`` from ``emu_start``, with what the hooks recorded."""
        errno = exc.errno
        pc = self.uc.reg_read(uc_arm.UC_ARM_REG_PC)
        if invalid is not None:
            return self.memory_fault(invalid)
        if errno in (UC_ERR_READ_UNMAPPED, UC_ERR_WRITE_UNMAPPED, UC_ERR_FETCH_UNMAPPED):
            return UnmappedAccess(f"unmapped access ({exc})", self.site(pc))
        if errno in (UC_ERR_READ_PROT, UC_ERR_WRITE_PROT, UC_ERR_FETCH_PROT):
            return ProtectedAccess(f"protected access ({exc})", self.site(pc))
        if errno == UC_ERR_INSN_INVALID:
            return IllegalInstruction(
                f"instruction rejected by Unicorn's {self.info.title} model", self.site(pc)
            )
        if errno in (UC_ERR_READ_UNALIGNED, UC_ERR_WRITE_UNALIGNED, UC_ERR_FETCH_UNALIGNED):
            return HardFault("unaligned access", self.site(pc))
        if errno == UC_ERR_EXCEPTION:
            return self.hard_fault(interrupt if interrupt else (-1, pc))
        describe = self._attached()[0].describe(pc)
        return EmulatorError(f"Unicorn error {exc} at 0x{pc:08x} ({describe})")
