"""A function call's arguments and result: AAPCS marshalling, buffers with canaries, CallResult.

Arguments are ints (32-bit), :class:`U64` (64-bit) and :class:`Buffer` (passed by address),
names of buffers given by name, or a :class:`Pointer` (a named buffer's address plus an offset: a
pointer into the middle of a buffer). A struct holding pointers is a Buffer whose ``pointers``
maps byte offsets of the struct to Pointers: each 32-bit little-endian word there is written with
the target's address once every buffer is placed. Registers r4-r12 can be set for functions with
an internal (non-AAPCS) calling convention (:func:`check_registers`); without them, r4-r11 start
with known values and :func:`check_callee_saved` verifies that an AAPCS function kept them and SP. :func:`marshal` places them as AAPCS (IHI 0042) §6.5 says:
r0-r3, then the stack. :class:`BufferArena` gives each buffer its own mapped region above the
stack: the data ends at the region's page end (so an overrun past the end is an unmapped access
at once), the bytes before it hold a canary checked after the call, and an unmapped guard
follows each region.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from unicorn import UC_PROT_READ, UC_PROT_WRITE, Uc
from unicorn import arm_const as uc_arm

from cortexm_emu.elf import ElfImage
from cortexm_emu.errors import BufferOverrun, CalleeSavedClobbered, ElfError, FaultSite
from cortexm_emu.float_abi import F32, F64
from cortexm_emu.memory_map import (
    BUFFER_GUARD,
    HALT_SYMBOL,
    SRAM_END,
    SRAM_START,
    align_down,
    align_up,
)
from cortexm_emu.registers import RegisterBatch

DEFAULT_BUDGET = 1_000_000_000  # instructions
MAX_BUDGET = (1 << 63) - 1  # the native counter's budgets are signed 64-bit
CANARY = 0xA5
#: the largest buffer: the SRAM region of the memory map, 0x20000000-0x3FFFFFFF (ARMv7-M ARM DDI
#: 0403E B3.1 Table B3-1; ARMv6-M the same), where the stack and the buffers are placed
MAX_BUFFER_SIZE = SRAM_END - SRAM_START
#: registers a call may set besides its arguments (internal-ABI functions)
SETTABLE_REGISTERS = tuple(f"r{i}" for i in range(4, 13))
#: AAPCS (IHI 0042) §6.1.1: r4-r8, r10, r11 (and r9 in its default role) and SP are callee-saved
CALLEE_SAVED = tuple(range(4, 12))
_CORE_REGISTERS = tuple(getattr(uc_arm, f"UC_ARM_REG_R{i}") for i in range(13))
#: what :func:`enter` sets: r0-r12, SP, LR, xPSR (Unicorn identifiers)
ENTRY_REGISTERS = (*_CORE_REGISTERS, uc_arm.UC_ARM_REG_SP, uc_arm.UC_ARM_REG_LR, uc_arm.UC_ARM_REG_XPSR)
#: what a call reads back: r0, r1 (the result), r4-r11 and SP (:func:`check_callee_saved`)
RETURN_REGISTERS = (
    *_CORE_REGISTERS[:2],
    *(_CORE_REGISTERS[i] for i in CALLEE_SAVED),
    uc_arm.UC_ARM_REG_SP,
)


def callee_saved_pattern(index: int) -> int:
    """The value r``index`` (4-11) holds when an AAPCS call starts: distinct per register, so a
    function that overwrites one is seen."""
    return 0xCA11_0000 | (index << 8) | index


@dataclass
class Buffer:
    """A buffer in SRAM whose address is passed as an argument; readable after the call.

    ``Buffer(b"...")`` is initialised from bytes; ``Buffer.zeros(n)`` is n zero bytes.
    """

    data: bytes = b""
    name: str = ""
    #: byte offset in ``data`` -> Pointer: a struct holding pointers (see the module docstring)
    pointers: Mapping[int, Pointer] = field(default_factory=dict)

    @classmethod
    def zeros(cls, size: int, name: str = "") -> Buffer:
        if not isinstance(size, int) or isinstance(size, bool) or not 0 <= size <= MAX_BUFFER_SIZE:
            raise ValueError(
                f"Invalid buffer size {size!r}; accepted: an integer 0 .. {MAX_BUFFER_SIZE} "
                "(the 512 MiB SRAM region 0x20000000-0x3FFFFFFF holds the stack and every buffer)"
            )
        return cls(bytes(size), name)

    @classmethod
    def floats(cls, values: Sequence[float], double: bool = False, name: str = "") -> Buffer:
        """An array of ``float`` (binary32) or, with ``double``, ``double`` values, little-endian
        (``CallResult.floats`` reads one back)."""
        kind = F64 if double else F32
        return cls(b"".join(kind(v).bits().to_bytes(8 if double else 4, "little") for v in values), name)

    def __post_init__(self) -> None:
        if not isinstance(self.data, (bytes, bytearray, memoryview)):
            raise ValueError(  # noqa: TRY004 - project rule: a bad parameter is a ValueError
                f"Invalid buffer data of type {type(self.data).__name__}; accepted: bytes"
            )
        self.data = bytes(self.data)
        if len(self.data) > MAX_BUFFER_SIZE:
            raise ValueError(
                f"Invalid buffer of {len(self.data)} bytes; accepted: at most {MAX_BUFFER_SIZE} "
                "(the SRAM region 0x20000000-0x3FFFFFFF)"
            )
        for offset, pointer in dict(self.pointers).items():
            if not isinstance(offset, int) or not 0 <= offset <= len(self.data) - 4:
                raise ValueError(
                    f"Invalid pointer offset {offset!r} in buffer {self.name or '(unnamed)'} of "
                    f"{len(self.data)} bytes; accepted: 0 .. {len(self.data) - 4} (a 4-byte word inside it)"
                )
            if not isinstance(pointer, Pointer):
                raise ValueError(  # noqa: TRY004 - project rule: a bad parameter is a ValueError
                    f"Invalid pointers[{offset}] of type {type(pointer).__name__}; accepted: Pointer"
                )


@dataclass(frozen=True)
class Pointer:
    """The address of the named buffer ``buffer`` (given in ``buffers=``) plus ``offset`` bytes:
    an argument pointing into the middle of a buffer, or a pointer stored inside a struct buffer
    (``Buffer.pointers``). ``offset`` may be 0 .. the buffer's size (one past the end, as in C)."""

    buffer: str
    offset: int = 0

    def __post_init__(self) -> None:
        if not isinstance(self.buffer, str) or not self.buffer:
            raise ValueError(f"Invalid Pointer buffer {self.buffer!r}; accepted: a buffer name")
        if not isinstance(self.offset, int) or isinstance(self.offset, bool):
            raise ValueError(f"Invalid Pointer offset {self.offset!r}; accepted: an integer")


@dataclass(frozen=True)
class U64:
    """A 64-bit argument (unsigned; negative values are taken modulo 2**64).

    AAPCS: passed in an even register pair (r0:r1 or r2:r3, low word first) or
    an 8-byte-aligned stack slot.
    """

    value: int


@dataclass
class CallResult:
    """What a call returns. ``cycles`` covers the function up to and including its own return."""

    function: str
    core: str
    return_value: int  # r0, unsigned 32-bit
    return_value64: int  # r1:r0, unsigned 64-bit
    cycles: int
    instructions: int
    classes: dict[str, int]
    stack_bytes: int
    code_bytes: int
    functions: tuple[str, ...]
    buffers: tuple[bytes, ...]
    buffer_addresses: tuple[int, ...]
    buffer_names: tuple[str, ...]
    block_counts: dict[int, int]
    edge_counts: dict[tuple[int | None, int], int]
    dynamic_cycles: dict[int, int]
    exit_block: int  # the block whose final branch returned (its taken_extra is in cycles)
    accounting: str
    memory: str
    model_version: str  # the timing model's version string (part of any result cache key)
    #: stall cycles of a board memory system (flash wait states, prefetch, caches), included
    #: in ``cycles``; 0 with ideal memory
    memory_cycles: int = 0
    #: what the memory replay counted (stalls by cause, cache hits/misses) and its configuration
    memory_counts: dict[str, int] = field(default_factory=dict)
    memory_config: dict[str, Any] = field(default_factory=dict)
    #: board clock the memory system was built for (None with ideal memory)
    clock_mhz: float | None = None
    #: board memory region of the stack and of each buffer ("stack", buffer names or indices)
    placement: dict[str, str] = field(default_factory=dict)
    #: the calling convention used: "soft" (AAPCS base: everything in core registers) or "hard"
    #: (VFP variant: F32/F64 arguments and the FP result in s/d registers; Tag_ABI_VFP_args = 1)
    abi: str = "soft"
    #: s0 and s1 after the call (hard float: the float result in s0, a double's in d0 = s1:s0)
    return_s0: int = 0
    return_s1: int = 0
    #: ``dynamic_cycles`` split by the block that ran the instruction: (block start, instruction
    #: address) -> cycles. An instruction in two overlapping blocks (a branch into the middle
    #: of a block) has one entry per block; annotation sums these, so rows add up to ``cycles``
    dynamic_by_block: dict[tuple[int, int], int] = field(default_factory=dict)

    @property
    def time_us(self) -> float | None:
        """Time of the call at the board clock in microseconds (None without a board clock)."""
        return None if self.clock_mhz is None else self.cycles / self.clock_mhz

    @property
    def return_float(self) -> float:
        """The result as a ``float``: s0 (hard float) or r0's 32 bits (soft float)."""
        bits = self.return_s0 if self.abi == "hard" else self.return_value
        return struct.unpack("<f", bits.to_bytes(4, "little"))[0]

    @property
    def return_double(self) -> float:
        """The result as a ``double``: d0 = s1:s0 (hard float) or r1:r0 (soft float)."""
        bits = (self.return_s1 << 32) | self.return_s0 if self.abi == "hard" else self.return_value64
        return struct.unpack("<d", bits.to_bytes(8, "little"))[0]

    @property
    def return_value_signed(self) -> int:
        return (
            self.return_value - (1 << 32) if self.return_value & 0x8000_0000 else self.return_value
        )

    def floats(self, buffer: str | int, double: bool = False) -> tuple[float, ...]:
        """A buffer (by name, or by index in ``buffers``) read as ``float`` (or ``double``) values."""
        data = self.buffer(buffer) if isinstance(buffer, str) else self.buffers[buffer]
        width = 8 if double else 4
        if len(data) % width:
            raise ValueError(f"Invalid floats of buffer {buffer!r}: {len(data)} bytes is not a multiple of {width}")
        return struct.unpack(f"<{len(data) // width}{'d' if double else 'f'}", data)

    def buffer(self, name: str) -> bytes:
        if name not in self.buffer_names:
            raise ValueError(
                f"Invalid buffer name {name!r}; accepted: {', '.join(n for n in self.buffer_names if n)}"
            )
        return self.buffers[self.buffer_names.index(name)]


@dataclass(frozen=True)
class Allocation:
    """Where one buffer of a call was placed: ``[region_start, region_end)`` is mapped, the data
    is ``[address, address + size)`` at its end."""

    index: int
    name: str
    address: int
    size: int
    region_start: int
    region_end: int

    def label(self) -> str:
        title = f"buffer {self.index}" + (f" '{self.name}'" if self.name else "")
        return f"{title} ({self.size} bytes at 0x{self.address:08x})"


# -- checks of a call's parameters ------------------------------------------------------------


def entry_address(image: ElfImage, function: str) -> int:
    """The address of ``function``, or a ValueError listing the public functions."""
    if function not in image.functions or function == HALT_SYMBOL:
        public = sorted(
            n
            for n in image.functions
            if n != HALT_SYMBOL and not n.startswith(("_", "OUTLINED_FUNCTION"))
        )
        names = ", ".join(public[:12]) + (
            f", ... ({len(public)} in all)" if len(public) > 12 else ""
        )
        raise ValueError(
            f"Invalid function {function!r}; accepted: a function symbol of {image.path.name} ({names})"
        )
    check_thumb(image, function)
    return image.functions[function].address


def check_budgets(budget: int | None, cycle_budget: int | None) -> None:
    for name, value in (("budget", budget), ("cycle_budget", cycle_budget)):
        if value is not None and (
            not isinstance(value, int) or isinstance(value, bool) or not 0 < value <= MAX_BUDGET
        ):
            raise ValueError(
                f"Invalid {name} {value!r}; accepted: a positive integer up to 2**63-1, or None"
            )


def check_registers(registers: Mapping[str, int] | None) -> dict[int, int]:
    """``{"r4": value, ...}`` as {register number: 32-bit value}; r4-r12 only (r0-r3 carry the
    arguments, SP/LR/PC belong to the call)."""
    values: dict[int, int] = {}
    for name, value in dict(registers or {}).items():
        key = str(name).lower()
        if key not in SETTABLE_REGISTERS:
            raise ValueError(
                f"Invalid register {name!r}; accepted: {', '.join(SETTABLE_REGISTERS)} "
                "(r0-r3 are the arguments; SP, LR and PC are set by the call)"
            )
        if not isinstance(value, int) or isinstance(value, bool) or not -(1 << 31) <= value < (1 << 32):
            raise ValueError(
                f"Invalid value {value!r} for register {key}; accepted: a 32-bit integer (-2**31 .. 2**32-1)"
            )
        values[int(key[1:])] = value & 0xFFFF_FFFF
    return values


def check_callee_saved(returned: Sequence[int], function: str, sp: int, core_title: str) -> None:
    """Raise CalleeSavedClobbered if the AAPCS call of ``function`` returned with r4-r11 not
    holding :func:`callee_saved_pattern` or SP not back at the call's ``sp``. ``returned``: the
    values of :data:`RETURN_REGISTERS` after the call."""
    site = FaultSite(core_title, None, "", "")
    rule = "AAPCS (IHI 0042) §6.1.1: r4-r8, r10, r11, r9 (default role) and SP are callee-saved"
    values = returned[2:]
    for index, value in zip(CALLEE_SAVED, values):
        expected = callee_saved_pattern(index)
        if value != expected:
            raise CalleeSavedClobbered(
                f"callee-saved register r{index} changed by {function}: 0x{expected:08x} at the call, "
                f"0x{value:08x} at its return ({rule}; a function with its own convention: call it "
                "with registers=... to skip this check)",
                site,
            )
    after = values[-1]
    if after != sp:
        raise CalleeSavedClobbered(
            f"SP changed by {function}: 0x{sp:08x} at the call, 0x{after:08x} at its return ({rule})",
            site,
        )


def check_thumb(image: ElfImage, function: str) -> None:
    """Refuse an ARM-state (A32) function: M-profile cores execute Thumb only (ARMv7-M ARM DDI
    0403E A4.1: 'ARMv7-M only supports the Thumb instruction set'; EPSR.T = 0 faults, B1.4.2)."""
    sym = image.functions[function]
    if not sym.thumb:
        raise ElfError(
            str(image.path),
            f"function {function} is ARM-state (A32) code ({sym.thumb_evidence}); Cortex-M cores "
            "execute Thumb only (ARMv7-M ARM DDI 0403E A4.1): build it with -mthumb",
        )


# -- AAPCS --------------------------------------------------------------------------------------


def marshal(
    args: Sequence[Any],
    named: Mapping[str, Buffer],
    allocate: Callable[[Buffer], Allocation],
    write: Callable[[int, bytes], None] | None = None,
) -> tuple[list[int], list[int]]:
    """(r0-r3 values, stack words) for ``args``; buffers are placed with ``allocate``.

    AAPCS (IHI 0042) §6.5: core registers r0-r3 then the stack; 64-bit values in an
    even register pair or an 8-byte-aligned stack slot; once an argument went to the
    stack, all following ones do (NCRN = 4). Named buffers no argument refers to are
    allocated too, after the arguments' buffers."""
    for name, buffer in named.items():
        if not isinstance(buffer, Buffer):
            raise ValueError(  # noqa: TRY004 - project rule: a bad parameter is a ValueError
                f"Invalid buffers[{name!r}] of type {type(buffer).__name__}; accepted: Buffer"
            )
    placed: dict[str, Allocation] = {}
    registers: list[int] = []
    stack: list[int] = []
    structs: list[tuple[Allocation, Buffer]] = []

    def place(buffer: Buffer) -> Allocation:
        alloc = allocate(buffer)
        if buffer.pointers:
            structs.append((alloc, buffer))
        return alloc

    def named_buffer(name: str, what: str) -> Allocation:
        if name not in named:
            accepted = ", ".join(repr(n) for n in named) or "none given"
            raise ValueError(f"Invalid {what} ({name!r}): no such buffer; accepted: {accepted}")
        if name not in placed:
            buffer = named[name]
            placed[name] = place(Buffer(buffer.data, name, buffer.pointers))
        return placed[name]

    ncrn = 0
    for position, arg in enumerate(args):
        if isinstance(arg, Pointer):
            target = named_buffer(arg.buffer, f"argument {position}")
            if not 0 <= arg.offset <= target.size:
                raise ValueError(
                    f"Invalid argument {position} (Pointer({arg.buffer!r}, {arg.offset})): offset outside "
                    f"the {target.size}-byte buffer; accepted: 0 .. {target.size}"
                )
            words = [target.address + arg.offset]
        elif isinstance(arg, str):
            words = [named_buffer(arg, f"argument {position}").address]
        elif isinstance(arg, Buffer):
            words = [place(arg).address]
        elif isinstance(arg, F32):  # soft-float ABI: the float's bits in a core register
            words = [arg.bits()]
        elif isinstance(arg, F64):
            bits = arg.bits()
            words = [bits & 0xFFFF_FFFF, bits >> 32]
        elif isinstance(arg, U64):
            if not isinstance(arg.value, int) or not -(1 << 63) <= arg.value < (1 << 64):
                raise ValueError(
                    f"Invalid argument {position} (U64({arg.value!r})); accepted: a 64-bit integer "
                    "(-2**63 .. 2**64-1)"
                )
            value = arg.value % (1 << 64)
            words = [value & 0xFFFF_FFFF, value >> 32]
        elif isinstance(arg, int) and not isinstance(arg, bool):
            if not -(1 << 31) <= arg < (1 << 32):
                raise ValueError(
                    f"Invalid argument {position} ({arg}); accepted: a 32-bit integer "
                    "(-2**31 .. 2**32-1), U64(value) for 64-bit values, or a Buffer"
                )
            words = [arg & 0xFFFF_FFFF]
        else:
            raise ValueError(  # noqa: TRY004 - project rule: a bad parameter is a ValueError
                f"Invalid argument {position} of type {type(arg).__name__}; accepted: int, U64, F32, F64, Buffer, buffer name, Pointer"
            )
        if len(words) == 2:
            ncrn = align_up(ncrn, 2)
            if ncrn + 2 <= 4:
                registers.extend([0] * (ncrn - len(registers)))
                registers.extend(words)
                ncrn += 2
            else:
                ncrn = 4
                if len(stack) % 2:
                    stack.append(0)
                stack.extend(words)
        elif ncrn < 4:
            registers.extend([0] * (ncrn - len(registers)))
            registers.append(words[0])
            ncrn += 1
        else:
            stack.append(words[0])
    for name in named:
        if name not in placed:
            named_buffer(name, "buffer")
    for alloc, buffer in structs:
        if write is None:
            raise ValueError("a Buffer with pointers needs a machine to write them (marshal(write=...))")
        for offset, pointer in sorted(buffer.pointers.items()):
            target = named_buffer(pointer.buffer, f"pointers[{offset}] of {alloc.label()}")
            if not 0 <= pointer.offset <= target.size:
                raise ValueError(
                    f"Invalid pointers[{offset}] of {alloc.label()} (Pointer({pointer.buffer!r}, "
                    f"{pointer.offset})): offset outside the {target.size}-byte buffer; accepted: 0 .. {target.size}"
                )
            write(alloc.address + offset, (target.address + pointer.offset).to_bytes(4, "little"))
    return registers, stack


def enter(
    uc: Uc,
    entry_registers: RegisterBatch,
    registers: Sequence[int],
    stack_words: Sequence[int],
    stack_top: int,
    return_to: int,
    extra: Mapping[int, int] | None = None,
    pattern: bool = True,
) -> int:
    """Write the arguments to r0-r3 (unused ones 0); r4-r12 from ``extra`` ({register number:
    value}), the others 0, or with ``pattern`` r4-r11 :func:`callee_saved_pattern` (what
    :func:`check_callee_saved` expects back); the stack, LR (Thumb bit set), and an xPSR with
    only T set (``entry_registers``: :data:`ENTRY_REGISTERS` of ``uc``). Returns the call's SP:
    8-byte aligned (AAPCS §6.2.1.2), stack arguments at SP upwards."""
    sp = align_down(stack_top - 4 * len(stack_words), 8)
    for i, word in enumerate(stack_words):
        uc.mem_write(sp + 4 * i, word.to_bytes(4, "little"))
    extra = extra or {}
    values = []
    for i in range(13):
        if i < 4:
            value = registers[i] if i < len(registers) else 0
        else:
            value = extra.get(i, callee_saved_pattern(i) if pattern and i in CALLEE_SAVED else 0)
        values.append(value)
    entry_registers.write([*values, sp, return_to | 1, 0x0100_0000])
    return sp


# -- buffers --------------------------------------------------------------------------------------


class BufferArena:
    """The buffers of one call, from ``base`` upwards, each in its own region with a canary
    before the data and an unmapped guard after the region."""

    def __init__(self, uc: Uc, page: int, base: int) -> None:
        self.uc = uc
        self.page = page
        self.base = base
        self.allocations: list[Allocation] = []
        self._cursor = base

    def allocate(self, buffer: Buffer) -> Allocation:
        size = len(buffer.data)
        rounded = align_up(max(size, 1), 8)
        region_start = self._cursor
        region_end = region_start + align_up(rounded, self.page)
        address = region_end - rounded
        if region_end + BUFFER_GUARD > SRAM_END:
            title = f"buffer {len(self.allocations)}" + (f" '{buffer.name}'" if buffer.name else "")
            raise ValueError(
                f"Invalid {title} of {size} bytes: the call's buffers would end at 0x{region_end:08x}, "
                f"past the SRAM region 0x{SRAM_START:08x}-0x{SRAM_END - 1:08x} (ARMv7-M ARM DDI 0403E "
                f"B3.1 Table B3-1); about {max(0, SRAM_END - BUFFER_GUARD - region_start)} bytes are "
                "left for it"
            )
        self.uc.mem_map(region_start, region_end - region_start, UC_PROT_READ | UC_PROT_WRITE)
        self.uc.mem_write(region_start, bytes([CANARY]) * (region_end - region_start))
        self.uc.mem_write(address, buffer.data)
        self._cursor = region_end + BUFFER_GUARD
        alloc = Allocation(
            len(self.allocations), buffer.name, address, size, region_start, region_end
        )
        self.allocations.append(alloc)
        return alloc

    def write(self, address: int, data: bytes) -> None:
        self.uc.mem_write(address, data)

    def free(self) -> None:
        for alloc in self.allocations:
            self.uc.mem_unmap(alloc.region_start, alloc.region_end - alloc.region_start)
        self.allocations = []
        self._cursor = self.base

    def contents(self) -> tuple[bytes, ...]:
        return tuple(bytes(self.uc.mem_read(a.address, a.size)) for a in self.allocations)

    def region(self, address: int) -> str | None:
        """Where ``address`` is relative to a buffer it is just past or before, or None."""
        for alloc in self.allocations:
            if alloc.address + alloc.size <= address < alloc.region_end + BUFFER_GUARD:
                return f"offset {address - alloc.address}, past the end of {alloc.label()}"
            if alloc.region_start <= address < alloc.address:
                return f"{alloc.address - address} bytes before {alloc.label()}"
        return None

    def check_canaries(self, core_title: str) -> None:
        """Raise BufferOverrun for the first byte around a buffer that the call changed."""
        for alloc in self.allocations:
            region = bytes(
                self.uc.mem_read(alloc.region_start, alloc.region_end - alloc.region_start)
            )
            for offset, byte in enumerate(region):
                address = alloc.region_start + offset
                if alloc.address <= address < alloc.address + alloc.size:
                    continue
                if byte != CANARY:
                    where = (
                        f"offset {address - alloc.address}, past the end of {alloc.label()}"
                        if address >= alloc.address + alloc.size
                        else f"{alloc.address - address} bytes before {alloc.label()}"
                    )
                    raise BufferOverrun(
                        "write outside the call's buffers (found changed after the call) at",
                        FaultSite(core_title, None, "", ""),
                        address,
                        where,
                    )
