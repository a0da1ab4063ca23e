"""cortexm_emu: a cycle-counting Cortex-M emulator on Unicorn (knows nothing about cryptography).

    from cortexm_emu import Machine, Buffer, U64
    m = Machine("m4"); m.load_elf("prog.elf")
    r = m.call("func", 1, Buffer(b"abc"), U64(2**40))
    r.cycles, r.instructions, r.stack_bytes, r.code_bytes, r.buffers

See :mod:`cortexm_emu.machine` for what the count covers and how it is computed, and the
modules it is made of (memory_map, call, pricing, faults).
"""

from cortexm_emu.call import U64, Buffer, CallResult, Pointer
from cortexm_emu.errors import (
    BudgetExceeded,
    BufferOverrun,
    CalleeSavedClobbered,
    ElfError,
    EmulatorError,
    EmulatorFault,
    HardFault,
    IllegalInstruction,
    ProtectedAccess,
    StackOverflow,
    UnalignedAccess,
    UnmappedAccess,
)
from cortexm_emu.flash import board_memory
from cortexm_emu.float_abi import F32, F64
from cortexm_emu.machine import Machine
from cortexm_emu.memory import IdealMemory

__all__ = [
    "U64",
    "F32",
    "F64",
    "board_memory",
    "BudgetExceeded",
    "Buffer",
    "BufferOverrun",
    "CalleeSavedClobbered",
    "CallResult",
    "ElfError",
    "EmulatorError",
    "EmulatorFault",
    "HardFault",
    "IdealMemory",
    "IllegalInstruction",
    "Machine",
    "Pointer",
    "ProtectedAccess",
    "StackOverflow",
    "UnalignedAccess",
    "UnmappedAccess",
]
