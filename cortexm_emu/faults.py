"""Decoding why Unicorn stopped into a named fault (see :mod:`cortexm_emu.errors`).

A fault names the core, the PC as symbol+offset, the instruction, and for a memory fault the
address and the region it falls in (a buffer's guard or canary bytes, the stack guard, a
segment of the program, the Private Peripheral Bus, an architectural region of the memory map).
The machine's hooks record what Unicorn reports (an invalid memory access, an exception number);
:class:`FaultDecoder` turns that record, or the ``UcError`` of ``emu_start``, into an exception.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import capstone
from capstone import arm as cs_arm
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
    UnalignedAccess,
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


# -- alignment -----------------------------------------------------------------------------------
# ARMv7-M ARM (DDI 0403E) A3.2.1 "Alignment support": these always fault when not aligned,
# whatever CCR.UNALIGN_TRP says: non word-aligned LDREX/STREX, LDRD/STRD, LDM/LDMDB/POP,
# STM/STMDB/PUSH, LDC/STC, VLDR/VSTR, VLDM/VSTM/VPUSH/VPOP; non halfword-aligned LDREXH/STREXH.
# ARMv8-M ARM (DDI 0553B) keeps that list and adds the load-acquire/store-release family
# (LDA/STL, LDAEX/STLEX and their H forms). LDR/STR/LDRH/STRH/LDRSH (and TBH) are unaligned-capable
# there unless UNALIGN_TRP is set; the emulated cores start with UNALIGN_TRP = 0 (its reset value).
# Unicorn 2 (QEMU 5) does not check the multi-word ones, so the Machine hooks exactly these.
_ALWAYS_ALIGNED: dict[str, int] = {
    **dict.fromkeys(
        ("ldrd", "strd", "ldm", "ldmia", "ldmdb", "ldmea", "ldmfd", "stm", "stmia", "stmdb",
         "stmea", "stmfd", "push", "pop", "ldrex", "strex", "ldc", "ldc2", "stc", "stc2",
         "vldr", "vstr", "vldmia", "vldmdb", "vstmia", "vstmdb", "vpush", "vpop",
         "lda", "stl", "ldaex", "stlex"),
        4,
    ),
    **dict.fromkeys(("ldrexh", "strexh", "ldah", "stlh", "ldaexh", "stlexh"), 2),
}
# ARMv6-M ARM (DDI 0419E) A3.2 "Alignment support": every unaligned load or store faults
# (a HardFault; CCR.UNALIGN_TRP reads as one). Access sizes of the ARMv6-M loads and stores:
_ACCESS_SIZE: dict[str, int] = {
    **dict.fromkeys(("ldr", "str"), 4),
    **dict.fromkeys(("ldrh", "strh", "ldrsh"), 2),
    **dict.fromkeys(("ldrb", "strb", "ldrsb"), 1),
}
_NO_CHECK_BASES = (cs_arm.ARM_REG_SP, cs_arm.ARM_REG_PC)
_CS_REG_NAMES = {getattr(cs_arm, f"ARM_REG_R{i}"): f"R{i}" for i in range(13)} | {
    cs_arm.ARM_REG_SP: "SP",
    cs_arm.ARM_REG_LR: "LR",
    cs_arm.ARM_REG_PC: "PC",
}


def _uc_reg(cs_reg: int) -> int:
    return getattr(uc_arm, f"UC_ARM_REG_{_CS_REG_NAMES[cs_reg]}")


@dataclass(frozen=True)
class AlignmentCheck:
    """One instruction that must find its base register aligned: ``mask`` = alignment - 1."""

    address: int
    base: int  # Unicorn register id
    mask: int
    cc: int  # capstone condition code (an instruction inside an IT block)
    insn: Any
    #: "access": ``insn`` (at ``address``) must find ``base`` aligned, else it faults.
    #: "sp": ``insn`` (just before ``address``) wrote SP from a value that may have bits[1:0]
    #: set: the hardware ignores them (the SP is always word-aligned, ARMv7-M ARM DDI 0403 B1.4.1;
    #: ARMv6-M ARM DDI 0419 B1.4.1), Unicorn keeps them, so they are cleared before ``address``.
    kind: str = "access"


def _mnemonic(insn: Any) -> str:
    base = insn.mnemonic.split(".")[0]
    # An instruction inside an IT block carries its condition as a suffix (ldrdeq).
    if insn.cc not in (cs_arm.ARM_CC_AL, cs_arm.ARM_CC_INVALID) and base not in _ALWAYS_ALIGNED:
        base = base[:-2]
    return base


def _base_register(insn: Any) -> int | None:
    if _mnemonic(insn) in ("push", "pop", "vpush", "vpop"):
        return cs_arm.ARM_REG_SP
    for op in insn.operands:
        if op.type == cs_arm.ARM_OP_MEM:
            return op.mem.base
    if insn.operands and insn.operands[0].type == cs_arm.ARM_OP_REG:
        return insn.operands[0].reg  # ldm/stm/vldm/vstm Rn{!}, {list}
    return None


def alignment_checks(insns: list[Any], armv6m: bool) -> list[AlignmentCheck]:
    """The instructions of a block that Unicorn would let through unaligned, to check before
    they run. On ARMv6-M there are none: Unicorn already raises a data abort for every
    unaligned access there (named by :meth:`FaultDecoder.hard_fault`). SP- and PC-based ones are
    never unaligned: the SP is word-aligned (the hardware ignores bits[1:0] of a value written
    to SP, ARMv7-M ARM DDI 0403 B1.4.1 and B1.5.5; Unicorn keeps them, so an instruction that may
    write SP unaligned gets an "sp" check after it that clears them, on ARMv6-M too) and PC-relative LDRD/VLDR use Align(PC, 4) with a word-multiple offset, as do all the
    listed immediate offsets (imm8:'00'), so checking the base register is exact."""
    checks: list[AlignmentCheck] = []
    if armv6m:
        return [c for insn in insns if (c := _sp_check(insn)) is not None]
    known: dict[int, int] = {}  # register -> alignment mask its value was checked against
    for insn in insns:
        name = _mnemonic(insn)
        need = _ALWAYS_ALIGNED.get(name)
        base = _base_register(insn) if need is not None else None
        checked = base is not None and base not in _NO_CHECK_BASES and base in _CS_REG_NAMES
        if checked and known.get(base, -1) < need - 1:
            checks.append(AlignmentCheck(insn.address, _uc_reg(base), need - 1, insn.cc, insn))
        unconditional = insn.cc in (cs_arm.ARM_CC_AL, cs_arm.ARM_CC_INVALID)
        written_regs = insn.regs_access()[1]
        if cs_arm.ARM_REG_SP in written_regs and _may_misalign_sp(insn, name):
            sp = _uc_reg(cs_arm.ARM_REG_SP)
            checks.append(AlignmentCheck(insn.address + insn.size, sp, 3, cs_arm.ARM_CC_AL, insn, "sp"))
        for written in written_regs:
            known.pop(written, None)
        if checked and unconditional and not _loads_into(insn, base):
            # A checked base stays aligned through the rest of the block until something else
            # writes it: the writeback of these instructions adds a multiple of 4 (a register
            # list of 4n bytes, or imm8:'00'), so a later check of it would always pass.
            known[base] = max(known.get(base, -1), need - 1)
    return checks


def _sp_check(insn: Any) -> AlignmentCheck | None:
    if cs_arm.ARM_REG_SP in insn.regs_access()[1] and _may_misalign_sp(insn, _mnemonic(insn)):
        return AlignmentCheck(
            insn.address + insn.size, _uc_reg(cs_arm.ARM_REG_SP), 3, cs_arm.ARM_CC_AL, insn, "sp"
        )
    return None


def _may_misalign_sp(insn: Any, name: str) -> bool:
    """Whether an instruction that writes SP may leave bits[1:0] set: not PUSH/POP or an SP-based
    LDM/STM/LDRD/STRD writeback (multiples of 4), nor ADD/SUB SP with an immediate multiple of 4."""
    if name in _ALWAYS_ALIGNED and _base_register(insn) == cs_arm.ARM_REG_SP:
        return _loads_into(insn, cs_arm.ARM_REG_SP)
    if name in ("add", "sub", "addw", "subw"):
        imms = [op.imm for op in insn.operands if op.type == cs_arm.ARM_OP_IMM]
        regs = [op.reg for op in insn.operands if op.type == cs_arm.ARM_OP_REG]
        if imms and all(r == cs_arm.ARM_REG_SP for r in regs) and all(i % 4 == 0 for i in imms):
            return False
    return True


def _loads_into(insn: Any, base: int) -> bool:
    """Whether ``base`` is also a data register of the instruction (LDM r0, {r0, r1})."""
    ops = insn.operands
    skip_first = _mnemonic(insn).startswith(("ldm", "stm", "vldm", "vstm"))
    return any(
        op.type == cs_arm.ARM_OP_REG and op.reg == base for op in (ops[1:] if skip_first else ops)
    )


def condition_passed(cc: int, xpsr: int) -> bool:
    """ARMv7-M ARM A7.3 ConditionPassed() for capstone's condition codes and the APSR flags."""
    n, z, c, v = (xpsr >> 31) & 1, (xpsr >> 30) & 1, (xpsr >> 29) & 1, (xpsr >> 28) & 1
    table = {
        cs_arm.ARM_CC_EQ: z == 1, cs_arm.ARM_CC_NE: z == 0,
        cs_arm.ARM_CC_HS: c == 1, cs_arm.ARM_CC_LO: c == 0,
        cs_arm.ARM_CC_MI: n == 1, cs_arm.ARM_CC_PL: n == 0,
        cs_arm.ARM_CC_VS: v == 1, cs_arm.ARM_CC_VC: v == 0,
        cs_arm.ARM_CC_HI: c == 1 and z == 0, cs_arm.ARM_CC_LS: c == 0 or z == 1,
        cs_arm.ARM_CC_GE: n == v, cs_arm.ARM_CC_LT: n != v,
        cs_arm.ARM_CC_GT: z == 0 and n == v, cs_arm.ARM_CC_LE: z == 1 or n != v,
    }  # fmt: skip
    return table.get(cc, True)


def access_of(insn: Any, uc: Uc) -> tuple[int, int, str] | None:
    """(first address, bytes, "read"/"write") of a load or store, from the registers as they are
    before it runs; None for an instruction that is not one."""
    name = _mnemonic(insn)
    base = _base_register(insn)
    if base is None or base not in _CS_REG_NAMES:
        return None
    value = uc.reg_read(_uc_reg(base))
    writes = name.startswith(("st", "push", "vst", "vpush"))
    verb = "write" if writes else "read"
    lists = name.startswith(("ldm", "stm", "push", "pop", "vldm", "vstm", "vpush", "vpop"))
    if lists:
        count = sum(1 for op in insn.operands if op.type == cs_arm.ARM_OP_REG) - (
            0 if name in ("push", "pop", "vpush", "vpop") else 1
        )
        width = 8 if any(op.reg >= cs_arm.ARM_REG_D0 for op in insn.operands[1:]) and name.startswith("v") else 4
        size = max(count, 1) * width
        downward = name.endswith(("db", "ea")) or name in ("push", "vpush")
        return (value - size if downward else value) & 0xFFFF_FFFF, size, verb
    mem = next((op for op in insn.operands if op.type == cs_arm.ARM_OP_MEM), None)
    if mem is None:
        return None
    if base == cs_arm.ARM_REG_PC:
        value = (insn.address + 4) & ~3
    offset = mem.mem.disp
    if mem.mem.index not in (0, cs_arm.ARM_REG_INVALID) and mem.mem.index in _CS_REG_NAMES:
        offset = uc.reg_read(_uc_reg(mem.mem.index)) << (mem.shift.value if mem.shift.type else 0)
    if getattr(mem, "subtracted", False):
        offset = -offset
    post_indexed = getattr(insn, "post_index", False)
    address = value if post_indexed else value + offset
    size = _ACCESS_SIZE.get(name) or (8 if name in ("ldrd", "strd") else _ALWAYS_ALIGNED.get(name, 4))
    return address & 0xFFFF_FFFF, size, verb


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
        """The fault of an exception the UC_HOOK_INTR hook recorded as (number, PC). A data abort
        (Unicorn raises one for an unaligned access on ARMv6-M, and for LDREX/STREX) is named
        as the unaligned access it was when the instruction's address is unaligned."""
        intno, at = interrupt
        if intno in (4, 22):
            unaligned = self._unaligned_at(at)
            if unaligned is not None:
                return unaligned
        cause = EXCEPTION_NAMES.get(intno, f"exception {intno}")
        return HardFault(f"HardFault: {cause}", self.site(at))

    def unaligned(self, check: AlignmentCheck) -> UnalignedAccess | None:
        """The fault of an always-aligned instruction about to run with an unaligned base, or None
        (aligned, or its IT condition fails so it does not access memory). An "sp" check clears
        SP[1:0] as the hardware does and returns None."""
        if check.kind == "sp":
            sp = self.uc.reg_read(uc_arm.UC_ARM_REG_SP)
            self.uc.reg_write(uc_arm.UC_ARM_REG_SP, sp & ~3)
            return None
        if check.cc not in (cs_arm.ARM_CC_AL, cs_arm.ARM_CC_INVALID) and not condition_passed(
            check.cc, self.uc.reg_read(uc_arm.UC_ARM_REG_XPSR)
        ):
            return None
        return self._unaligned_at(check.address, check.insn)

    def _unaligned_at(self, pc: int, insn: Any = None) -> UnalignedAccess | None:
        if insn is None:
            insn = self._decode_at(pc)
        if insn is None:
            return None
        access = access_of(insn, self.uc)
        if access is None:
            return None
        address, size, verb = access
        name = _mnemonic(insn)
        if self.info.name in ("m0", "m0plus"):
            need = min(size, 4)
            if address % need == 0:
                return None
            rule = "ARMv6-M faults on every unaligned load and store (ARMv6-M ARM DDI 0419E A3.2)"
            summary = f"HardFault (unaligned access): {name} {verb}s {size} bytes, needs {need}-byte alignment; {rule}; at"
        else:
            need = _ALWAYS_ALIGNED.get(name, min(size, 4))
            if address % need == 0:
                return None
            rule = (
                f"{name.upper()} always needs {need}-byte alignment whatever CCR.UNALIGN_TRP says "
                "(ARMv7-M ARM DDI 0403E A3.2.1); UFSR.UNALIGNED"
            )
            summary = f"UsageFault: unaligned access: {name} {verb}s {size} bytes; {rule}; at"
        return UnalignedAccess(summary, self.site(pc, insn), address, self._region_or_blank(address))

    def _region_or_blank(self, address: int) -> str:
        """Where an access that is mapped falls: inside a buffer, the stack, or the map."""
        if self.arena is not None:
            for alloc in self.arena.allocations:
                if alloc.address <= address < alloc.address + max(alloc.size, 1):
                    return f"offset {address - alloc.address} of {alloc.label()}"
        if self.layout is not None and self.layout.stack_base <= address < self.layout.stack_top:
            return f"the stack, {self.layout.stack_top - address} bytes below its top"
        try:
            return self.region(address)
        except EmulatorError:
            return ""

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
