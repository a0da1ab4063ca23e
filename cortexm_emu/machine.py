"""A cycle-counting Cortex-M machine on Unicorn: load an ELF, call a function, get cycles.

Usage::

    from cortexm_emu import Machine, Buffer, U64
    m = Machine("m4")                 # Unicorn's Cortex-M4 model, ideal zero-wait-state memory
    m.load_elf("kernel.elf")
    r = m.call("xor_into", Buffer(b"\\x01" * 16), Buffer.zeros(16), 16)
    r.cycles, r.instructions, r.stack_bytes, r.buffers[1]

What the count covers
    From the first instruction of the function to its own return included
    (BX LR / POP {PC}, with the pipeline refill of that branch); the caller's BL
    is not counted. ``instructions`` counts every instruction issued, including
    IT-block instructions whose condition failed.

How it counts (per block, not per instruction)
    Unicorn reports each translated block it enters (UC_HOOK_BLOCK). The
    accounting (native C by default, see :mod:`cortexm_emu.accounting`) counts
    EDGES: previous block -> this block. Each new block is decoded once with
    capstone, checked against the core's instruction set and priced by the
    timing model; each new edge is priced once:

        cost(prev -> block) = block.cycles                  (static, falls through)
                            + prev.taken_extra if prev's final instruction branched
                            + model.edge_cost(prev, block)  (pipeline carry-over)
                            + memory-system extras (0 for IdealMemory)

    and cycles = sum(count(edge) x cost(edge)) + dynamic costs + the return's
    taken_extra. A final branch counts as taken when it always branches or when
    the next block is not the fall-through address. Operand-dependent
    instructions (divides, M3 long multiplies) get a UC_HOOK_CODE at their
    address only, which adds ``model.dynamic_cost(kind, uc)`` each time they run.

Memory map of a call
    ELF segments where they are linked (code read-only + executable); above the
    program's highest SRAM address: an unmapped gap, a 64 KiB unmapped stack
    guard, the stack (``stack_size`` bytes, painted to measure its depth), and
    the buffers, each ending at a page end and followed by an unmapped guard.
    The return address is ``cortexm_emu_halt`` if the ELF defines it, otherwise
    a reserved trampoline page. DWT and SysTick are memory-mapped callbacks.

Self-measuring firmware
    A read of DWT->CYCCNT or SYST_CVR returns the cycles of every instruction
    before the reading load (the load itself not included). Unicorn does not
    report the PC inside a block to memory-mapped callbacks, so the emulator
    finds the reading instruction by recomputing each load's address in the
    current block from the register values at the access (the k-th matching
    load for the k-th access in the block); if none matches it prices the
    whole block prefix as not yet executed (the read then sees the cycle count
    at the start of its block).
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import capstone
from capstone import arm_const as cs_arm
from unicorn import (
    UC_ARCH_ARM,
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
    UC_HOOK_CODE,
    UC_HOOK_INTR,
    UC_HOOK_MEM_INVALID,
    UC_HOOK_MEM_READ,
    UC_MEM_FETCH_PROT,
    UC_MEM_FETCH_UNMAPPED,
    UC_MEM_READ_PROT,
    UC_MEM_READ_UNMAPPED,
    UC_MEM_WRITE_PROT,
    UC_MEM_WRITE_UNMAPPED,
    UC_MODE_THUMB,
    UC_PROT_EXEC,
    UC_PROT_READ,
    UC_PROT_WRITE,
    UC_QUERY_PAGE_SIZE,
    Uc,
    UcError,
)
from unicorn import arm_const as uc_arm

from cortexm_emu import accounting as acct
from cortexm_emu import flash_native
from cortexm_emu.cores import CoreInfo, core_info
from cortexm_emu.elf import ElfImage, load_elf_image
from cortexm_emu.errors import (
    BudgetExceeded,
    BufferOverrun,
    EmulatorError,
    FaultSite,
    HardFault,
    IllegalInstruction,
    ProtectedAccess,
    StackOverflow,
    UnmappedAccess,
)
from cortexm_emu.memory import (
    FlashReads,
    HistoryMemory,
    IdealMemory,
    MemoryReplay,
    MemorySystem,
    architectural_region,
)
from cortexm_emu.ppb import SystemPeripherals

if TYPE_CHECKING:
    from cortexm_emu.boards import Board
    from cortexm_emu.flash import OnOff, Placement, Start

HALT_SYMBOL = "cortexm_emu_halt"
DEFAULT_STACK_SIZE = 64 * 1024
DEFAULT_BUDGET = 1_000_000_000  # instructions
STACK_GUARD = 64 * 1024
STACK_OVERFLOW_REACH = 512  # bytes below SP an overflowing access may touch (PUSH/STMDB/SUB SP)
BUFFER_GUARD = 4 * 1024
STACK_PAINT = 0xCD
CANARY = 0xA5
_SRAM_START, _SRAM_END = 0x2000_0000, 0x4000_0000
_TRAMPOLINE_CANDIDATES = (0x1FFF_FC00, 0x0FFF_FC00, 0x1000_0000, 0x6000_0000)
_THUMB_B_SELF = b"\xfe\xe7"  # b .

# Unicorn QEMU exception numbers seen by UC_HOOK_INTR (qemu/target/arm/cpu.h EXCP_*).
_EXCEPTION_NAMES = {
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

_MULTI_ACCESS = frozenset(
    {"ldrd", "strd", "ldm", "ldmia", "ldmdb", "stm", "stmia", "stmdb", "push", "pop"}
)

_CS_TO_UC_REG = {
    **{getattr(cs_arm, f"ARM_REG_R{i}"): getattr(uc_arm, f"UC_ARM_REG_R{i}") for i in range(13)},
    cs_arm.ARM_REG_SP: uc_arm.UC_ARM_REG_SP,
    cs_arm.ARM_REG_LR: uc_arm.UC_ARM_REG_LR,
    cs_arm.ARM_REG_PC: uc_arm.UC_ARM_REG_PC,
}


# -- call arguments ---------------------------------------------------------------


@dataclass
class Buffer:
    """A buffer in SRAM whose address is passed as an argument; readable after the call.

    ``Buffer(b"...")`` is initialised from bytes; ``Buffer.zeros(n)`` is n zero bytes.
    """

    data: bytes = b""
    name: str = ""

    @classmethod
    def zeros(cls, size: int, name: str = "") -> Buffer:
        if not isinstance(size, int) or size < 0:
            raise ValueError(f"Invalid buffer size {size!r}; accepted: an integer >= 0")
        return cls(bytes(size), name)

    def __post_init__(self) -> None:
        if not isinstance(self.data, (bytes, bytearray, memoryview)):
            raise ValueError(  # noqa: TRY004 - project rule: a bad parameter is a ValueError
                f"Invalid buffer data of type {type(self.data).__name__}; accepted: bytes"
            )
        self.data = bytes(self.data)


@dataclass(frozen=True)
class U64:
    """A 64-bit argument (unsigned; negative values are taken modulo 2**64).

    AAPCS: passed in an even register pair (r0:r1 or r2:r3, low word first) or
    an 8-byte-aligned stack slot.
    """

    value: int


# -- blocks ---------------------------------------------------------------------------


@dataclass
class Block:
    """One Unicorn translation block, decoded and priced once."""

    address: int
    size: int
    insns: list[Any]  # capstone CsInsn
    price: Any  # timing model BlockPrice
    branches: bool  # final instruction may write the PC
    always_branches: bool  # ... and always does (B, BL, BX, POP {PC} outside IT; not CBZ/B<cond>)
    code: bytes
    memory_extra: int = 0
    dynamic: dict[int, str] = field(default_factory=dict)
    hooks_ready: bool = False

    @property
    def end(self) -> int:
        return self.address + self.size

    def prefix_cycles(self, pc: int) -> int:
        return sum(cycles for address, cycles, _rule in self.price.per_insn if address < pc)


@dataclass(frozen=True)
class EdgeInfo:
    prev: int | None
    cur: int
    taken: bool
    taken_extra: int
    edge_cost: int
    cost: int


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

    @property
    def time_us(self) -> float | None:
        """Time of the call at the board clock in microseconds (None without a board clock)."""
        return None if self.clock_mhz is None else self.cycles / self.clock_mhz

    @property
    def return_value_signed(self) -> int:
        return (
            self.return_value - (1 << 32) if self.return_value & 0x8000_0000 else self.return_value
        )

    def buffer(self, name: str) -> bytes:
        if name not in self.buffer_names:
            raise ValueError(
                f"Invalid buffer name {name!r}; accepted: {', '.join(n for n in self.buffer_names if n)}"
            )
        return self.buffers[self.buffer_names.index(name)]


@dataclass(frozen=True)
class _Allocation:
    index: int
    name: str
    address: int
    size: int
    region_start: int
    region_end: int

    def label(self) -> str:
        title = f"buffer {self.index}" + (f" '{self.name}'" if self.name else "")
        return f"{title} ({self.size} bytes at 0x{self.address:08x})"


class _Stop(Exception):
    """Internal: a reason recorded by a hook to end the run."""


def _weak(method: Callable[..., Any]) -> Callable[..., Any]:
    """A callable that forwards to ``method`` without keeping its object alive."""
    ref = weakref.WeakMethod(method)

    def forward(*args: Any) -> Any:
        bound = ref()
        if bound is None:
            raise EmulatorError("the Machine that owns this Unicorn hook was garbage-collected")
        return bound(*args)

    return forward


def _align_up(value: int, alignment: int) -> int:
    return (value + alignment - 1) // alignment * alignment


def _align_down(value: int, alignment: int) -> int:
    return value // alignment * alignment


def _base_mnemonic(insn: Any) -> str:
    return insn.mnemonic.split(".")[0]


def _branch_kind(insn: Any) -> tuple[bool, bool]:
    """(may write the PC, always writes the PC) for a capstone Thumb instruction."""
    mnemonic = _base_mnemonic(insn)
    if mnemonic.startswith("it"):
        return False, False
    writes_pc = (
        any(
            group in insn.groups
            for group in (capstone.CS_GRP_JUMP, capstone.CS_GRP_CALL, capstone.CS_GRP_RET)
        )
        or cs_arm.ARM_REG_PC in insn.regs_access()[1]
        or mnemonic in ("b", "bl", "blx", "bx", "cbz", "cbnz", "tbb", "tbh")
    )
    if not writes_pc:
        return False, False
    conditional = insn.cc not in (cs_arm.ARM_CC_AL, cs_arm.ARM_CC_INVALID) or mnemonic in (
        "cbz",
        "cbnz",
    )
    return True, not conditional


class Machine:
    """One emulated Cortex-M core with ideal (or a board's) memory and one loaded ELF.

    ``core``: "m0", "m0plus", "m3", "m4", "m7" or "m33" (Unicorn is opened in UC_MODE_THUMB and the CPU
    model set explicitly: UC_MODE_MCLASS would silently select a Cortex-M33).
    ``timing``: a timing model (default ``cortexm_emu.timing.model_for(core)``).
    ``accounting``: "auto" (native C counter if a host C compiler is available, else Python),
    "native" or "python".
    ``memory``: the memory system (default :class:`IdealMemory`); a board's is
    ``cortexm_emu.flash.board_memory(board, clock_mhz, cache="on"|"off")``, or use
    :meth:`Machine.for_board`. Its stall cycles are in ``CallResult.cycles`` (and, separately,
    ``memory_cycles``); ``clock_mhz`` and ``time_us`` give the time at the board clock.
    """

    def __init__(
        self,
        core: str = "m4",
        memory: MemorySystem | None = None,
        *,
        timing: Any = None,
        accounting: str = "auto",
        stack_size: int = DEFAULT_STACK_SIZE,
    ) -> None:
        self.info: CoreInfo = core_info(core)
        self.core = core
        if timing is None:
            from cortexm_emu.timing import model_for

            timing = model_for(core)
        self.timing = timing
        self.memory: MemorySystem = memory if memory is not None else IdealMemory()
        self._history: HistoryMemory | None = memory if isinstance(memory, HistoryMemory) else None
        self._flash_ranges: list[tuple[int, int]] = []
        self._flash_reads = FlashReads()
        self._read_log: flash_native.NativeReadLog | None = None
        if not isinstance(stack_size, int) or stack_size < 256 or stack_size % 8:
            raise ValueError(
                f"Invalid stack_size {stack_size!r}; accepted: a multiple of 8, at least 256 bytes"
            )
        self.stack_size = stack_size
        self.uc = Uc(UC_ARCH_ARM, UC_MODE_THUMB)
        self.uc.ctl_set_cpu_model(self.info.unicorn_model)
        self.page = self.uc.query(UC_QUERY_PAGE_SIZE)
        self.cs = capstone.Cs(
            capstone.CS_ARCH_ARM, capstone.CS_MODE_THUMB | capstone.CS_MODE_MCLASS
        )
        self.cs.detail = True
        # Hooks hold the machine weakly (no Machine <-> Uc reference cycle).
        self.accounting, self.accounting_note = acct.make_accounting(accounting)
        tracing = self._history is not None and self._history.needs_trace
        self.accounting.install(self.uc, _weak(self._discover), trace=tracing)
        self.ppb = SystemPeripherals(self.info, _weak(self._cycles_at_access))
        for base, size in self.ppb.mapped_pages():
            self.uc.mmio_map(
                base, size, _weak(self._mmio_read), base, _weak(self._mmio_write), base
            )
        self.uc.hook_add(UC_HOOK_MEM_INVALID, _weak(self._on_invalid_memory))
        self.uc.hook_add(UC_HOOK_INTR, _weak(self._on_interrupt))
        self.image: ElfImage | None = None
        self._blocks: dict[int, Block] = {}
        self._edges: dict[tuple[int | None, int], EdgeInfo] = {}
        self._dynamic_kinds: dict[int, str] = {}
        self._allocations: list[_Allocation] = []
        self._buffer_cursor = 0
        self._reset_run_state()

    # -- loading ------------------------------------------------------------------------------
    def load_elf(self, path: str | Path) -> ElfImage:
        """Map every PT_LOAD segment where it is linked; keep the symbols. Raises ElfError."""
        if self.image is not None:
            raise EmulatorError(
                f"{self.image.path} is already loaded; use a new Machine for another ELF"
            )
        image = load_elf_image(path)
        pages: dict[int, int] = {}
        for seg in image.segments:
            perms = UC_PROT_READ | (UC_PROT_WRITE if seg.writable else 0) | UC_PROT_EXEC
            self._add_pages(pages, seg.vaddr, seg.memsz, perms)
            if seg.paddr != seg.vaddr and seg.data:
                self._add_pages(pages, seg.paddr, len(seg.data), UC_PROT_READ | UC_PROT_EXEC)
        for start, size, perms in self._runs(pages):
            self.uc.mem_map(start, size, perms)
        for seg in image.segments:
            self._write_segment(seg)
            if seg.paddr != seg.vaddr and seg.data:
                self.uc.mem_write(seg.paddr, seg.data)
        self.image = image
        sram_end = max(
            (seg.end for seg in image.segments if _SRAM_START <= seg.vaddr < _SRAM_END),
            default=_SRAM_START,
        )
        self.image_sram_end = _align_up(sram_end, self.page)
        self.stack_guard_start = _align_up(self.image_sram_end + 16 * 1024, self.page)
        self.stack_base = self.stack_guard_start + STACK_GUARD
        self.stack_top = self.stack_base + self.stack_size
        self.uc.mem_map(
            self.stack_base, _align_up(self.stack_size, self.page), UC_PROT_READ | UC_PROT_WRITE
        )
        self.buffers_base = _align_up(self.stack_top + BUFFER_GUARD, self.page)
        if HALT_SYMBOL in image.functions:
            self.halt_address = image.functions[HALT_SYMBOL].address
        else:
            self.halt_address = self._reserve_trampoline(pages)
        self._install_memory_tracing(image)
        return image

    @classmethod
    def for_board(
        cls,
        board: Board | str,
        clock_mhz: float | None = None,
        cache: OnOff = "on",
        *,
        core: str | None = None,
        prefetch: OnOff | None = None,
        code: Placement = "flash",
        start: Start = "warm",
        tables: Placement | None = None,
        **options: Any,
    ) -> Machine:
        """A machine with ``board``'s core (or ``core``) and memory system
        (:func:`cortexm_emu.flash.board_memory`; ``options`` go to :class:`Machine`)."""
        from cortexm_emu.flash import board_memory

        memory = board_memory(
            board, clock_mhz, cache, prefetch=prefetch, code=code, start=start, tables=tables
        )
        return cls(core or memory.board.core, memory, **options)

    def _install_memory_tracing(self, image: ElfImage) -> None:
        """Board memory with history: record the block sequence, and flash data reads with a
        read hook bounded to the flash ranges (only then: memory hooks slow every access).
        The read hook is native C (:class:`cortexm_emu.flash_native.NativeReadLog`) with the
        native counter, unless the memory's ``engine`` is "python"; else Python."""
        if self._history is None or not self._history.needs_trace:
            return
        self._flash_ranges = self._history.flash_ranges(image.segments, image.sections)
        counter = flash_native.block_counter_address(self.accounting)
        if counter is not None and getattr(self._history, "engine", "auto") != "python":
            lib, _reason = flash_native.load_flash_native()
            if lib is not None:
                self._read_log = flash_native.NativeReadLog(lib, counter)
                self._read_log.install(self.uc, self._flash_ranges)
                return
        for start, end in self._flash_ranges:
            self.uc.hook_add(UC_HOOK_MEM_READ, _weak(self._on_flash_read), None, start, end - 1)

    def _on_flash_read(
        self, uc: Uc, access: int, address: int, size: int, value: int, _user: object
    ) -> None:
        self._flash_reads.append(self.accounting.blocks - 1, address)

    def _add_pages(self, pages: dict[int, int], start: int, size: int, perms: int) -> None:
        first = _align_down(start, self.page)
        last = _align_up(start + size, self.page)
        for page in range(first, last, self.page):
            pages[page] = pages.get(page, 0) | perms

    def _runs(self, pages: dict[int, int]) -> list[tuple[int, int, int]]:
        runs: list[tuple[int, int, int]] = []
        for page in sorted(pages):
            perms = pages[page]
            if runs and runs[-1][0] + runs[-1][1] == page and runs[-1][2] == perms:
                start, size, _ = runs[-1]
                runs[-1] = (start, size + self.page, perms)
            else:
                runs.append((page, self.page, perms))
        return runs

    def _write_segment(self, seg: Any) -> None:
        self.uc.mem_write(seg.vaddr, seg.data + bytes(seg.memsz - len(seg.data)))

    def _reserve_trampoline(self, pages: dict[int, int]) -> int:
        for candidate in _TRAMPOLINE_CANDIDATES:
            if candidate not in pages:
                self.uc.mem_map(candidate, self.page, UC_PROT_READ | UC_PROT_EXEC)
                self.uc.mem_write(candidate, _THUMB_B_SELF * (self.page // 2))
                self.trampoline_page = candidate
                return candidate
        raise EmulatorError(
            "no free page for the return trampoline; define cortexm_emu_halt in the program"
        )

    # -- calling -----------------------------------------------------------------------------
    def call(
        self,
        function: str,
        *args: int | U64 | Buffer | str,
        buffers: Mapping[str, Buffer] | None = None,
        budget: int | None = DEFAULT_BUDGET,
        cycle_budget: int | None = None,
        keep_state: bool = False,
    ) -> CallResult:
        """Call ``function`` with AAPCS arguments and run it to its return.

        ``args``: ints (32-bit, signed or unsigned), :class:`U64` (64-bit), :class:`Buffer`
        (its SRAM address is passed) or the name of a buffer given in ``buffers`` (a mapping
        name -> Buffer; its address is passed and ``result.buffer(name)`` reads it back;
        named buffers no argument refers to are allocated too). ``budget``: instructions the call may execute
        (checked before each block; ``None``: no limit); ``cycle_budget``: the same in
        cycles (static block costs). ``keep_state``: keep .data/.bss from the previous
        call instead of restoring them from the ELF (the default restores, so the same
        call always gives the same result).
        """
        image = self._require_image()
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
        for name, value in (("budget", budget), ("cycle_budget", cycle_budget)):
            if value is not None and (not isinstance(value, int) or value <= 0):
                raise ValueError(f"Invalid {name} {value!r}; accepted: a positive integer or None")
        entry = image.functions[function].address
        if not keep_state:
            for seg in image.segments:
                if seg.writable:
                    self._write_segment(seg)
        self._free_buffers()
        registers, stack_words = self._marshal(args, dict(buffers or {}))
        uc = self.uc
        paint = bytes([STACK_PAINT]) * self.stack_size
        uc.mem_write(self.stack_base, paint)
        sp = _align_down(self.stack_top - 4 * len(stack_words), 8)
        for i, word in enumerate(stack_words):
            uc.mem_write(sp + 4 * i, word.to_bytes(4, "little"))
        for i in range(13):
            uc.reg_write(
                getattr(uc_arm, f"UC_ARM_REG_R{i}"), registers[i] if i < len(registers) else 0
            )
        uc.reg_write(uc_arm.UC_ARM_REG_SP, sp)
        uc.reg_write(uc_arm.UC_ARM_REG_LR, self.halt_address | 1)
        uc.reg_write(uc_arm.UC_ARM_REG_XPSR, 0x0100_0000)
        self.ppb.reset()
        self._reset_run_state()
        self.accounting.reset(budget or 0, cycle_budget or 0)
        self._run(entry, function)
        acc = self.accounting
        edges = acc.edges()
        last = self._blocks[acc.current] if acc.current is not None else None
        final_taken = last.price.taken_extra if last is not None else 0
        replay = self._replay_memory()
        cycles = acc.cycles + sum(self._dynamic_cycles.values()) + final_taken + replay.cycles
        block_counts: dict[int, int] = {}
        for (_prev, cur), count in edges.items():
            block_counts[cur] = block_counts.get(cur, 0) + count
        classes: dict[str, int] = {}
        for address, count in block_counts.items():
            for name, n in self._blocks[address].price.classes.items():
                classes[name] = classes.get(name, 0) + n * count
        executed = self._executed_functions(block_counts)
        contents = tuple(bytes(uc.mem_read(a.address, a.size)) for a in self._allocations)
        self._check_canaries()
        r0 = uc.reg_read(uc_arm.UC_ARM_REG_R0)
        r1 = uc.reg_read(uc_arm.UC_ARM_REG_R1)
        return CallResult(
            function=function,
            core=self.core,
            return_value=r0,
            return_value64=(r1 << 32) | r0,
            cycles=cycles,
            instructions=acc.instructions,
            classes=classes,
            stack_bytes=self._stack_depth(sp),
            code_bytes=sum(sym.size for sym in executed),
            functions=tuple(sym.name for sym in executed),
            buffers=contents,
            buffer_addresses=tuple(a.address for a in self._allocations),
            buffer_names=tuple(a.name for a in self._allocations),
            block_counts=block_counts,
            edge_counts=edges,
            dynamic_cycles=dict(self._dynamic_cycles),
            exit_block=acc.current if acc.current is not None else entry,
            accounting=acc.kind,
            memory=self.memory.name,
            model_version=str(getattr(self.timing, "version", "")),
            memory_cycles=replay.cycles,
            memory_counts=dict(replay.counts),
            memory_config=dict(replay.config),
            clock_mhz=self._history.clock_mhz if self._history is not None else None,
            placement=self._placement(sp),
        )

    def _replay_memory(self) -> MemoryReplay:
        if self._history is None:
            return MemoryReplay(0)
        if not self._history.needs_trace:
            return self._history.replay((), self._blocks, self._edges, (), [])
        return self._history.replay(
            self.accounting.trace(),
            self._blocks,
            self._edges,
            self._read_log.reads() if self._read_log is not None else self._flash_reads,
            self._flash_ranges,
        )

    def _placement(self, sp: int) -> dict[str, str]:
        if self._history is None:
            return {}
        where = {"stack": self._history.placement(sp - 4)}
        for alloc in self._allocations:
            where[alloc.name or f"buffer {alloc.index}"] = self._history.placement(alloc.address)
        return where

    def block(self, address: int) -> Block:
        """The decoded, priced block starting at ``address`` (after a call executed it)."""
        return self._blocks[address]

    def edge(self, prev: int | None, cur: int) -> EdgeInfo:
        return self._edges[(prev, cur)]

    def describe(self, address: int) -> str:
        return self._require_image().describe(address)

    def _require_image(self) -> ElfImage:
        if self.image is None:
            raise EmulatorError("no ELF loaded; call load_elf(path) first")
        return self.image

    def _marshal(
        self, args: Sequence[Any], named: dict[str, Buffer]
    ) -> tuple[list[int], list[int]]:
        """AAPCS (IHI 0042) §6.5: core registers r0-r3 then the stack; 64-bit values in an
        even register pair or an 8-byte-aligned stack slot; once an argument went to the
        stack, all following ones do (NCRN = 4)."""
        for name, buffer in named.items():
            if not isinstance(buffer, Buffer):
                raise ValueError(  # noqa: TRY004 - project rule: a bad parameter is a ValueError
                    f"Invalid buffers[{name!r}] of type {type(buffer).__name__}; accepted: Buffer"
                )
        placed: dict[str, _Allocation] = {}
        registers: list[int] = []
        stack: list[int] = []
        ncrn = 0
        for position, arg in enumerate(args):
            if isinstance(arg, str):
                if arg not in named:
                    accepted = ", ".join(repr(n) for n in named) or "none given"
                    raise ValueError(
                        f"Invalid argument {position} ({arg!r}): no such buffer; accepted: {accepted}"
                    )
                if arg not in placed:
                    buffer = named[arg]
                    placed[arg] = self._allocate(Buffer(buffer.data, arg))
                words = [placed[arg].address]
            elif isinstance(arg, Buffer):
                words = [self._allocate(arg).address]
            elif isinstance(arg, U64):
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
                    f"Invalid argument {position} of type {type(arg).__name__}; accepted: int, U64, Buffer, buffer name"
                )
            if len(words) == 2:
                ncrn = _align_up(ncrn, 2)
                if ncrn + 2 <= 4:
                    registers.extend([0] * (ncrn - len(registers)))
                    registers.extend(words)
                    ncrn += 2
                else:
                    ncrn = 4
                    if len(stack) % 2:
                        stack.append(0)
                    stack.extend(words)
            else:
                if ncrn < 4:
                    registers.extend([0] * (ncrn - len(registers)))
                    registers.append(words[0])
                    ncrn += 1
                else:
                    stack.append(words[0])
        for name, buffer in named.items():
            if name not in placed:
                self._allocate(Buffer(buffer.data, name))
        return registers, stack

    def _allocate(self, buffer: Buffer) -> _Allocation:
        size = len(buffer.data)
        rounded = _align_up(max(size, 1), 8)
        region_start = self._buffer_cursor
        region_end = region_start + _align_up(rounded, self.page)
        address = region_end - rounded
        self.uc.mem_map(region_start, region_end - region_start, UC_PROT_READ | UC_PROT_WRITE)
        self.uc.mem_write(region_start, bytes([CANARY]) * (region_end - region_start))
        self.uc.mem_write(address, buffer.data)
        self._buffer_cursor = region_end + BUFFER_GUARD
        alloc = _Allocation(
            len(self._allocations), buffer.name, address, size, region_start, region_end
        )
        self._allocations.append(alloc)
        return alloc

    def _free_buffers(self) -> None:
        for alloc in self._allocations:
            self.uc.mem_unmap(alloc.region_start, alloc.region_end - alloc.region_start)
        self._allocations = []
        self._buffer_cursor = self.buffers_base

    def _check_canaries(self) -> None:
        for alloc in self._allocations:
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
                        FaultSite(self.info.title, None, "", ""),
                        address,
                        where,
                    )

    def _stack_depth(self, sp: int) -> int:
        """Stack painting: the lowest stack byte that no longer holds the paint, in words."""
        data = bytes(self.uc.mem_read(self.stack_base, sp - self.stack_base))
        untouched = len(data) - len(data.lstrip(bytes([STACK_PAINT])))
        lowest = _align_down(self.stack_base + untouched, 4)
        return max(0, sp - lowest)

    def _executed_functions(self, block_counts: dict[int, int]) -> list[Any]:
        image = self._require_image()
        seen: dict[str, Any] = {}
        for address in block_counts:
            block = self._blocks[address]
            for insn in block.insns:
                sym = image.function_containing(insn.address)
                if sym is not None:
                    seen[sym.name] = sym
        return sorted(seen.values(), key=lambda s: s.address)

    # -- the run loop -------------------------------------------------------------------------
    def _reset_run_state(self) -> None:
        self._pending: Exception | None = None
        self._restart_block: Block | None = None
        self._invalid: tuple[int, int, int, int, int] | None = None
        self._interrupt: tuple[int, int] | None = None
        self._dynamic_cycles: dict[int, int] = {}
        self._access_seq: tuple[int, int] = (-1, 0)
        self._flash_reads = FlashReads()
        if self._read_log is not None:
            self._read_log.reset()

    def _run(self, entry: int, function: str) -> None:
        start = entry
        while True:
            try:
                self.uc.emu_start(start | 1, self.halt_address)
            except UcError as exc:
                raise self._fault_from(exc) from None
            if self._pending is not None:
                error, self._pending = self._pending, None
                raise error
            if self._invalid is not None:
                raise self._memory_fault()
            if self._interrupt is not None:
                intno, at = self._interrupt
                self._interrupt = None
                cause = _EXCEPTION_NAMES.get(intno, f"exception {intno}")
                raise HardFault(f"HardFault: {cause}", self._site(at))
            reason = self.accounting.stop_reason
            if reason == acct.STOP_DISCOVER and self._restart_block is not None:
                block, self._restart_block = self._restart_block, None
                self.uc.ctl_remove_cache(block.address, block.end)
                block.hooks_ready = True
                self.accounting.clear_stop()
                start = block.address
                continue
            if reason in (acct.STOP_INSN_BUDGET, acct.STOP_CYCLE_BUDGET):
                pc = self.uc.reg_read(uc_arm.UC_ARM_REG_PC)
                what = "instruction" if reason == acct.STOP_INSN_BUDGET else "cycle"
                raise BudgetExceeded(
                    f"{what} budget exhausted after {self.accounting.instructions} instructions "
                    f"and {self.accounting.cycles} cycles (infinite loop?) in {function}",
                    self._site(pc),
                    self.accounting.instructions,
                    self.accounting.cycles,
                )
            if reason == acct.STOP_NO_MEMORY:
                raise MemoryError("the native edge table could not grow")
            pc = self.uc.reg_read(uc_arm.UC_ARM_REG_PC)
            if pc != self.halt_address:
                raise EmulatorError(
                    f"emulation stopped at 0x{pc:08x} ({self.describe(pc)}) without returning"
                )
            return

    # -- discovery: decode, check, price -----------------------------------------------------
    def _discover(self, prev: int | None, cur: int, size: int) -> tuple[int, int] | None:
        try:
            block = self._block_at(cur, size)
            missing = [a for a in block.dynamic if a not in self._dynamic_kinds]
            if missing or not block.hooks_ready and block.dynamic:
                for address in missing:
                    self._dynamic_kinds[address] = block.dynamic[address]
                    self.uc.hook_add(UC_HOOK_CODE, _weak(self._on_dynamic), None, address, address)
                if missing:
                    self._restart_block = block
                    return None
                block.hooks_ready = True
            info = self._edges.get((prev, cur))
            if info is None:
                info = self._price_edge(prev, block)
            return info.cost, len(block.insns)
        except Exception as exc:  # noqa: BLE001 - raised again by _run once Unicorn has stopped
            self._pending = exc
            return None

    def _block_at(self, address: int, size: int) -> Block:
        code = bytes(self.uc.mem_read(address, size))
        known = self._blocks.get(address)
        if known is not None:
            if known.code == code:
                return known
            self._edges.clear()  # the code changed: every edge into or out of it is repriced
        insns = list(self.cs.disasm(code, address))
        decoded = sum(i.size for i in insns)
        if decoded != size:
            bad = address + decoded
            raise IllegalInstruction(
                f"undecodable instruction (capstone cannot decode {code[decoded : decoded + 4].hex()}) for {self.info.title}",
                self._site(bad),
            )
        for insn in insns:
            reason = self.timing.check(insn)
            if reason:
                raise IllegalInstruction(
                    f"illegal instruction for {self.info.title} ({reason})",
                    self._site(insn.address, insn),
                )
        price = self.timing.price_block(insns)
        branches, always = _branch_kind(insns[-1]) if insns else (False, False)
        block = Block(address, size, insns, price, branches, always, code)
        block.dynamic = dict(price.dynamic)
        block.hooks_ready = not block.dynamic
        block.memory_extra = self.memory.block_extra(block)
        self._blocks[address] = block
        return block

    def _price_edge(self, prev: int | None, block: Block) -> EdgeInfo:
        key = (prev, block.address)
        if prev is None:
            info = EdgeInfo(
                None, block.address, False, 0, 0, block.price.cycles + block.memory_extra
            )
        else:
            before = self._blocks[prev]
            fallthrough = block.address == before.end
            taken = before.always_branches or (before.branches and not fallthrough)
            taken_extra = before.price.taken_extra if taken else 0
            carry = self.timing.edge_cost(before.price, block.price, fallthrough)
            carry += self.memory.edge_extra(before, block, fallthrough)
            cost = block.price.cycles + block.memory_extra + taken_extra + carry
            info = EdgeInfo(prev, block.address, taken, taken_extra, carry, cost)
        self._edges[key] = info
        return info

    def _on_dynamic(self, uc: Uc, address: int, size: int, _user: object) -> None:
        kind = self._dynamic_kinds.get(address)
        if kind is None:
            return
        extra = self.timing.dynamic_cost(kind, uc)
        self._dynamic_cycles[address] = self._dynamic_cycles.get(address, 0) + extra

    # -- cycles seen by the program ----------------------------------------------------------
    def _cycles_at_access(self, address: int) -> int:
        acc = self.accounting
        current = acc.current
        total = acc.cycles + sum(self._dynamic_cycles.values())
        if current is None or current not in self._blocks:
            return total
        block = self._blocks[current]
        pc = self._locate_access(block, address)
        done = block.prefix_cycles(pc) if pc is not None else 0
        return total - block.price.cycles + done

    def _locate_access(self, block: Block, address: int) -> int | None:
        """The instruction of ``block`` making this PPB access: the first load/store after the
        previous PPB access of this block execution whose address, recomputed from the
        registers now, covers ``address`` (multi-word transfers may match twice)."""
        last_block, last_pc = self._access_seq
        after = last_pc if last_block == self.accounting.blocks else -1
        for insn in block.insns:
            multi = _base_mnemonic(insn) in _MULTI_ACCESS
            if insn.address < after or (insn.address == after and not multi):
                continue
            for op in insn.operands:
                if op.type != cs_arm.ARM_OP_MEM:
                    continue
                ea = self._effective_address(insn, op)
                span = 8 if multi else 4
                if ea is not None and ea <= address < ea + span:
                    self._access_seq = (self.accounting.blocks, insn.address)
                    return insn.address
        return None

    def _effective_address(self, insn: Any, op: Any) -> int | None:
        base = op.mem.base
        if base == cs_arm.ARM_REG_PC:
            value = _align_down(insn.address + 4, 4)
        elif base in _CS_TO_UC_REG:
            value = self.uc.reg_read(_CS_TO_UC_REG[base])
        else:
            return None
        if op.mem.index in _CS_TO_UC_REG:
            index = self.uc.reg_read(_CS_TO_UC_REG[op.mem.index])
            if op.shift.type == cs_arm.ARM_SFT_LSL:
                index <<= op.shift.value
            value = value - index if op.subtracted else value + index
        return (value + op.mem.disp) & 0xFFFF_FFFF

    def _mmio_read(self, uc: Uc, offset: int, size: int, base: int) -> int:
        try:
            return self.ppb.read(base + offset, size)
        except Exception as exc:  # noqa: BLE001 - raised again by _run once Unicorn has stopped
            self._pending = exc
            uc.emu_stop()
            return 0

    def _mmio_write(self, uc: Uc, offset: int, size: int, value: int, base: int) -> None:
        try:
            self.ppb.write(base + offset, size, value)
        except Exception as exc:  # noqa: BLE001 - raised again by _run once Unicorn has stopped
            self._pending = exc
            uc.emu_stop()

    # -- faults --------------------------------------------------------------------------------
    def _on_invalid_memory(
        self, uc: Uc, access: int, address: int, size: int, value: int, _user: object
    ) -> bool:
        self._invalid = (
            access,
            address,
            size,
            uc.reg_read(uc_arm.UC_ARM_REG_PC),
            uc.reg_read(uc_arm.UC_ARM_REG_SP),
        )
        return False

    def _on_interrupt(self, uc: Uc, intno: int, _user: object) -> None:
        self._interrupt = (intno, uc.reg_read(uc_arm.UC_ARM_REG_PC))
        uc.emu_stop()

    def _site(self, pc: int, insn: Any = None) -> FaultSite:
        if insn is None:
            insn = self._decode_at(pc)
        text = f"{insn.mnemonic} {insn.op_str}".strip() if insn is not None else ""
        location = self.describe(pc) if self.image is not None else f"0x{pc:08x}"
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

    def _region(self, address: int) -> str:
        image = self._require_image()
        for alloc in self._allocations:
            if alloc.address + alloc.size <= address < alloc.region_end + BUFFER_GUARD:
                return f"offset {address - alloc.address}, past the end of {alloc.label()}"
            if alloc.region_start <= address < alloc.address:
                return f"{alloc.address - address} bytes before {alloc.label()}"
        if self.stack_guard_start <= address < self.stack_base:
            return f"stack guard region, {self.stack_base - address} bytes below the {self.stack_size}-byte stack"
        if self.image_sram_end <= address < self.stack_guard_start:
            return f"unowned SRAM, {address - self.image_sram_end} bytes past the program's .data/.bss pages"
        for seg in image.segments:
            if seg.vaddr <= address < seg.end:
                kind = "code/read-only" if not seg.writable else ".data/.bss"
                return f"{kind} segment of {image.path.name}, {self.describe(address)}"
        sym = image.symbol_at(address)
        if address >= 0xE000_0000 and address < 0xE010_0000:
            if 0xE000_1000 <= address < 0xE000_1400 and not self.info.has_cyccnt:
                return f"DWT: {self.info.title} has no cycle counter (ARMv6-M)"
            return "Private Peripheral Bus register not modelled"
        region = architectural_region(address)
        return f"{region}" + (f", {sym.name}" if sym else "") + ", nothing mapped"

    def _memory_fault(self) -> Exception:
        assert self._invalid is not None
        (access, address, size, hook_pc, sp), self._invalid = self._invalid, None
        site = self._site(hook_pc)
        region = self._region(address)
        verb = {
            UC_MEM_READ_UNMAPPED: "read",
            UC_MEM_WRITE_UNMAPPED: "write",
            UC_MEM_FETCH_UNMAPPED: "instruction fetch",
            UC_MEM_WRITE_PROT: "write",
            UC_MEM_READ_PROT: "read",
            UC_MEM_FETCH_PROT: "instruction fetch",
        }.get(access, "access")
        if access in (UC_MEM_FETCH_UNMAPPED, UC_MEM_FETCH_PROT):
            site = FaultSite(self.info.title, address, self.describe(address), "")
        if access in (UC_MEM_WRITE_PROT, UC_MEM_READ_PROT, UC_MEM_FETCH_PROT):
            return ProtectedAccess(
                f"{verb} of {size} bytes to protected memory at", site, address, region
            )
        in_guard = self.stack_guard_start <= address < self.stack_base
        # An overflow touches memory at (or just below) SP, or happens once SP has left the
        # stack; a wild pointer into the guard while SP is fine is not an overflow.
        near_sp = sp - STACK_OVERFLOW_REACH <= address < self.stack_base
        sp_left_stack = sp < self.stack_base
        if (in_guard and (near_sp or sp_left_stack)) or (sp_left_stack and near_sp):
            return StackOverflow(
                f"stack overflow: {verb} of {size} bytes at", site, address, region
            )
        if access == UC_MEM_WRITE_UNMAPPED and _SRAM_START <= address < _SRAM_END:
            return BufferOverrun(
                f"write of {size} bytes outside the call's stack, buffers and .data/.bss at",
                site,
                address,
                region,
            )
        return UnmappedAccess(f"{verb} of {size} bytes at unmapped", site, address, region)

    def _fault_from(self, exc: UcError) -> Exception:
        if self._pending is not None:
            error, self._pending = self._pending, None
            return error
        errno = exc.errno
        pc = self.uc.reg_read(uc_arm.UC_ARM_REG_PC)
        if self._invalid is not None:
            return self._memory_fault()
        if errno in (UC_ERR_READ_UNMAPPED, UC_ERR_WRITE_UNMAPPED, UC_ERR_FETCH_UNMAPPED):
            return UnmappedAccess(f"unmapped access ({exc})", self._site(pc))
        if errno in (UC_ERR_READ_PROT, UC_ERR_WRITE_PROT, UC_ERR_FETCH_PROT):
            return ProtectedAccess(f"protected access ({exc})", self._site(pc))
        if errno == UC_ERR_INSN_INVALID:
            return IllegalInstruction(
                f"instruction rejected by Unicorn's {self.info.title} model", self._site(pc)
            )
        if errno in (UC_ERR_READ_UNALIGNED, UC_ERR_WRITE_UNALIGNED, UC_ERR_FETCH_UNALIGNED):
            return HardFault("unaligned access", self._site(pc))
        if errno == UC_ERR_EXCEPTION:
            intno, at = self._interrupt if self._interrupt else (-1, pc)
            cause = _EXCEPTION_NAMES.get(intno, f"exception {intno}")
            return HardFault(f"HardFault: {cause}", self._site(at))
        return EmulatorError(f"Unicorn error {exc} at 0x{pc:08x} ({self.describe(pc)})")


__all__ = [
    "DEFAULT_BUDGET",
    "HALT_SYMBOL",
    "U64",
    "Block",
    "Buffer",
    "CallResult",
    "EdgeInfo",
    "Machine",
]
