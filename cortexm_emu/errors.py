"""Exceptions of cortexm_emu: one base, one class per thing that happened.

A fault raised while a function runs names the core, the PC as symbol+offset,
the faulting address and the memory region it falls in, and the instruction
(capstone disassembly), so the message alone says what went wrong and where.
"""

from __future__ import annotations

from dataclasses import dataclass


class EmulatorError(Exception):
    """Base of every error cortexm_emu raises on purpose while it loads and runs a program (a
    malformed data file raises :class:`cortexm_emu.datafile.DataFileError`, a ``ValueError``)."""


class ElfError(EmulatorError):
    """The file is not an ELF this emulator can load (names the file and the problem)."""

    def __init__(self, path: str, problem: str) -> None:
        self.path = path
        self.problem = problem
        super().__init__(f"{path}: {problem}")


@dataclass(frozen=True)
class FaultSite:
    """Where a fault happened: what the message is built from."""

    core: str
    pc: int | None
    location: str  # "func+0x12" or "0x00001234" when no symbol covers it
    instruction: str  # "ldr r0, [r1, #4]" or "" when unknown

    def describe(self) -> str:
        if self.pc is None:
            return f"on {self.core} (PC unknown: detected after the call)"
        where = f"PC=0x{self.pc:08x} ({self.location})"
        insn = f": {self.instruction}" if self.instruction else ""
        return f"on {self.core} at {where}{insn}"


class EmulatorFault(EmulatorError):
    """A fault of the emulated program while a call ran."""

    def __init__(
        self, summary: str, site: FaultSite, address: int | None = None, region: str = ""
    ) -> None:
        self.summary = summary
        self.site = site
        self.address = address
        self.region = region
        target = ""
        if address is not None:
            target = f" address 0x{address:08x}" + (f" ({region})" if region else "")
        super().__init__(f"{summary}{target} {site.describe()}")


class UnmappedAccess(EmulatorFault):
    """A load, store or instruction fetch at an address nothing is mapped at."""


class ProtectedAccess(EmulatorFault):
    """A write to read-only memory (code/flash), or a fetch from non-executable memory."""


class IllegalInstruction(EmulatorFault):
    """An instruction the selected core does not have (checked before it executes)."""


class StackOverflow(EmulatorFault):
    """The stack grew into the guard region below the stack the call was given."""


class BufferOverrun(EmulatorFault):
    """A write outside the call's stack, its buffers and the program's .data/.bss."""


class HardFault(EmulatorFault):
    """The core raised an exception the emulator does not model further
    (unaligned access on ARMv6-M, UDF, BKPT, SVC, a disabled FPU...)."""


class UnalignedAccess(HardFault):
    """An access the architecture requires to be aligned was not: on ARMv7-M/ARMv8-M a UsageFault
    (UFSR.UNALIGNED) for LDRD/STRD/LDM/STM/LDREX/STREX... whatever CCR.UNALIGN_TRP says
    (ARMv7-M ARM DDI 0403E A3.2.1); on ARMv6-M a HardFault for every unaligned load or store
    (ARMv6-M ARM DDI 0419E A3.2). A UsageFault escalates to HardFault at reset (SHCSR.USGFAULTENA
    is 0), hence the base class."""


class CalleeSavedClobbered(EmulatorFault):
    """A function called with the AAPCS returned with r4-r11 or SP changed (AAPCS IHI 0042
    §6.1.1: a subroutine must preserve r4-r8, r10, r11 and SP, and r9 in the default role)."""


class BudgetExceeded(EmulatorFault):
    """The call ran past its instruction or cycle budget (e.g. an infinite loop)."""

    def __init__(self, summary: str, site: FaultSite, instructions: int, cycles: int) -> None:
        self.instructions = instructions
        self.cycles = cycles
        super().__init__(summary, site)
