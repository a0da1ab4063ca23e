"""Exceptions of cortexm_emu: one base, one class per thing that happened.

A fault raised while a function runs names the core, the PC as symbol+offset,
the faulting address and the memory region it falls in, and the instruction
(capstone disassembly), so the message alone says what went wrong and where.
"""

from __future__ import annotations

from dataclasses import dataclass

from cortexm_emu.datafile import DataFileError


class EmulatorError(Exception):
    """Base of every error cortexm_emu raises on purpose."""


class BoardDataError(EmulatorError, DataFileError):
    """A board profile (``cortexm_emu/boards/*.toml``) is malformed: names file, line and field."""


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


class BudgetExceeded(EmulatorFault):
    """The call ran past its instruction or cycle budget (e.g. an infinite loop)."""

    def __init__(self, summary: str, site: FaultSite, instructions: int, cycles: int) -> None:
        self.instructions = instructions
        self.cycles = cycles
        super().__init__(summary, site)
