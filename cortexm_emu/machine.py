"""A cycle-counting Cortex-M machine on Unicorn: load an ELF, call a function, get cycles.

Usage::

    from cortexm_emu import Machine, Buffer, U64
    m = Machine("m4")                 # Unicorn's Cortex-M4 model, ideal zero-wait-state memory
    m.load_elf("kernel.elf")
    r = m.call("xor_into", Buffer(b"\\x01" * 16), Buffer.zeros(16), 16)
    r.cycles, r.instructions, r.stack_bytes, r.buffers[1]

What the count covers
    From the first instruction of the function to its own return included (BX LR / POP {PC},
    with the pipeline refill of that branch); the caller's BL is not counted. ``instructions``
    counts every instruction issued, including IT-block instructions whose condition failed.

How it counts (per block, not per instruction)
    Unicorn reports each translated block it enters (UC_HOOK_BLOCK). The accounting (native C by
    default, see :mod:`cortexm_emu.accounting`) counts EDGES: previous block -> this block. Each
    new block and each new edge is decoded, checked and priced once (:mod:`cortexm_emu.pricing`),
    and cycles = sum(count(edge) x cost(edge)) + dynamic costs + the return's taken_extra + the
    memory system's replayed stalls. Operand-dependent instructions (divides, M3 long multiplies)
    get a UC_HOOK_CODE at their address only, adding ``model.dynamic_cost(kind, uc)`` each time.

The parts
    :mod:`cortexm_emu.memory_map` (segments, stack, guards, return address), :mod:`cortexm_emu.call`
    (Buffer, U64, CallResult, AAPCS marshalling, buffers with canaries), :mod:`cortexm_emu.pricing`
    (blocks, edges, cycles at a PPB access), :mod:`cortexm_emu.faults` (what stopped Unicorn, as a
    named fault). This module builds them, installs the hooks (each only when a feature needs it,
    each holding the machine weakly) and runs the call, in slices (Ctrl-C). DWT and SysTick are
    memory-mapped callbacks (:mod:`cortexm_emu.ppb`) reading ``Pricing.cycles_at_access``.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import capstone
from unicorn import (
    UC_ARCH_ARM,
    UC_HOOK_CODE,
    UC_HOOK_INTR,
    UC_HOOK_MEM_INVALID,
    UC_HOOK_MEM_READ,
    UC_MODE_THUMB,
    UC_QUERY_PAGE_SIZE,
    Uc,
    UcError,
)
from unicorn import arm_const as uc_arm

from cortexm_emu import accounting as acct
from cortexm_emu import flash_native
from cortexm_emu.alignment import AlignmentHooks
from cortexm_emu.call import (
    DEFAULT_BUDGET,
    ENTRY_REGISTERS,
    RETURN_REGISTERS,
    U64,
    Buffer,
    BufferArena,
    CallResult,
    check_budgets,
    check_callee_saved,
    check_registers,
    enter,
    entry_address,
    marshal,
)
from cortexm_emu.cores import CoreInfo, core_info
from cortexm_emu.elf import ElfImage, load_elf_image
from cortexm_emu.errors import BudgetExceeded, EmulatorError
from cortexm_emu.faults import FaultDecoder, InvalidAccess
from cortexm_emu.float_abi import (
    check_float_abi,
    check_vfp_used,
    read_vfp_result,
    split_vfp,
    write_vfp,
)
from cortexm_emu.memory import FlashReads, HistoryMemory, IdealMemory, MemoryReplay, MemorySystem
from cortexm_emu.memory_blocks import BlockSwitches
from cortexm_emu.memory_map import (
    DEFAULT_STACK_SIZE,
    HALT_SYMBOL,
    Layout,
    map_image,
    paint_stack,
    restore_writable,
    stack_depth,
)
from cortexm_emu.ppb import SystemPeripherals
from cortexm_emu.pricing import Block, EdgeInfo, Pricing, block_counts
from cortexm_emu.registers import RegisterBatch

if TYPE_CHECKING:
    from cortexm_emu.boards import Board
    from cortexm_emu.flash import OnOff, Placement, Start


#: instructions per slice of a run (``Machine._run``): Python, and so Ctrl-C, gets control this often
RUN_SLICE = 5_000_000


def _weak(method: Callable[..., Any]) -> Callable[..., Any]:
    """A callable that forwards to ``method`` without keeping its object alive."""
    ref = weakref.WeakMethod(method)

    def forward(*args: Any) -> Any:
        bound = ref()
        if bound is None:
            raise EmulatorError("the Machine that owns this Unicorn hook was garbage-collected")
        return bound(*args)

    return forward


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
        self._entry_registers = RegisterBatch(self.uc, ENTRY_REGISTERS)
        self._return_registers = RegisterBatch(self.uc, RETURN_REGISTERS)
        self.cs = capstone.Cs(
            capstone.CS_ARCH_ARM, capstone.CS_MODE_THUMB | capstone.CS_MODE_MCLASS
        )
        self.cs.detail = True
        self.faults = FaultDecoder(self.uc, self.cs, self.info)
        self.pricing = Pricing(self.uc, self.cs, self.info, timing, self.memory, self.faults.site)
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
        self.layout: Layout | None = None
        self._arena: BufferArena | None = None
        self._dynamic_kinds: dict[int, str] = {}
        # Instructions that must be aligned whatever CCR.UNALIGN_TRP says (ARMv7-M ARM A3.2.1),
        # which Unicorn lets through: a UC_HOOK_CODE at each checks its base register.
        self._alignment = AlignmentHooks(
            self.uc, _weak(self._on_aligned), "python" if accounting == "python" else "auto"
        )
        # Load/store pipelining only within one memory block (board [memory], memory_blocks.py).
        self._block_switches = BlockSwitches.for_machine(
            self.memory, timing, self.uc, "python" if accounting == "python" else "auto"
        )
        self._reset_run_state()

    # -- loading ------------------------------------------------------------------------------
    def load_elf(self, path: str | Path) -> ElfImage:
        """Map every PT_LOAD segment where it is linked; keep the symbols. Raises ElfError."""
        if self.image is not None:
            raise EmulatorError(
                f"{self.image.path} is already loaded; use a new Machine for another ELF"
            )
        image = load_elf_image(path)
        check_float_abi(image, self.info.title, self.has_fpu)
        self.layout = map_image(self.uc, image, self.page, self.stack_size)
        self.image = image
        self._arena = BufferArena(self.uc, self.page, self.layout.buffers_base)
        self.pricing.read_only = tuple((seg.vaddr, seg.vaddr + seg.memsz) for seg in image.segments if not seg.writable)
        self.faults.attach(image, self.layout, self._arena)
        self._install_memory_tracing(image)
        if self._block_switches is not None:
            self._block_switches.set_map(self.layout, self.memory.flash_ranges(image.segments, image.sections))  # type: ignore[attr-defined]
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
        """A machine with ``board``'s core (or ``core``; with the FPU when the board's ``[fpu]``
        says the part has one) and memory system
        (:func:`cortexm_emu.flash.board_memory`; ``options`` go to :class:`Machine`)."""
        from cortexm_emu.flash import board_memory

        memory = board_memory(
            board, clock_mhz, cache, prefetch=prefetch, code=code, start=start, tables=tables
        )
        if "timing" not in options:
            from cortexm_emu.timing import model_for
            from cortexm_emu.timing.registry import has_flash_fetch_rules

            chosen = {"fpu": "on"} if core is None and memory.board.fpu.present else {}  # the part's FPU
            if code == "flash" and has_flash_fetch_rules(core or memory.board.core):
                chosen["fetch"] = "flash"  # code from the board's flash (APPROXIMATIONS.md 52-53)
            if chosen:
                options["timing"] = model_for(core or memory.board.core, **chosen)
        return cls(core or memory.board.core, memory, **options)

    @property
    def has_fpu(self) -> bool:  # core m4f/m7f/m33f, or a board whose part has one
        return self.info.fpu or bool(getattr(self.timing, "fpu", False))

    @property
    def halt_address(self) -> int:
        """The return address of every call (``cortexm_emu_halt`` or the trampoline page)."""
        return self._require_layout().halt_address

    @property
    def stack_base(self) -> int:
        return self._require_layout().stack_base

    @property
    def stack_top(self) -> int:
        return self._require_layout().stack_top

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

    # -- calling -----------------------------------------------------------------------------
    def call(
        self,
        function: str,
        *args: int | U64 | Buffer | str,
        buffers: Mapping[str, Buffer] | None = None,
        budget: int | None = DEFAULT_BUDGET,
        cycle_budget: int | None = None,
        keep_state: bool = False,
        registers: Mapping[str, int] | None = None,
        aapcs: bool = True,
    ) -> CallResult:
        """Call ``function`` with AAPCS arguments and run it to its return.

        ``args``: ints (32-bit, signed or unsigned), :class:`U64` (64-bit), :class:`F32`/:class:`F64`
        (in s/d registers for a hard-float ELF, else as their bits), :class:`Buffer` (its SRAM address)
        or the name of a buffer given in ``buffers`` (name -> Buffer; its address is passed and
        ``result.buffer(name)`` reads it back; named buffers no argument refers to are allocated too),
        or :class:`Pointer` (a named buffer's address plus an offset); a Buffer's ``pointers`` make it
        a struct holding pointers. ``budget``: instructions the call may execute (checked before each
        block; ``None``: no limit); ``cycle_budget``: the same in cycles (static block costs).
        ``keep_state``: keep .data/.bss from the previous call instead of restoring them from the ELF
        (the default restores, so the same call always gives the same result). ``registers``: r4-r12
        for a function with its own calling convention ({"r4": 1, ...}; the others start at 0);
        without it r4-r11 start with known values and a function that returns with one of them or SP
        changed raises CalleeSavedClobbered (AAPCS IHI 0042 §6.1.1); ``aapcs=False`` skips that check
        (e.g. measurement sequences that use r4-r11 freely; r4-r12 then start at 0).
        """
        image = self._require_image()
        layout, arena = self._require_layout(), self._arena
        assert arena is not None
        entry = entry_address(image, function)
        check_budgets(budget, cycle_budget)
        extra = check_registers(registers)
        if not keep_state:
            restore_writable(self.uc, image, self.page)
        arena.free()
        hard = image.vfp_args == 1
        args, vfp_words = split_vfp(args) if hard else (args, {})
        words, stack_words = marshal(args, dict(buffers or {}), arena.allocate, arena.write)
        uc = self.uc
        paint_stack(uc, layout)
        check_abi = aapcs and registers is None
        sp = enter(uc, self._entry_registers, words, stack_words, layout.stack_top, layout.halt_address, extra, check_abi)
        if hard:
            write_vfp(uc, vfp_words)
        self.ppb.reset()
        self._reset_run_state()
        # edges priced by earlier calls stay while no code changed: Python is asked for new ones only
        self.accounting.reset(budget or 0, cycle_budget or 0, self.pricing.code_unchanged_since_last_call())
        try:
            self._run(entry, function, budget or 0)
        finally:
            self.pricing.price_cache.flush()  # blocks priced by this call, for later runs
        acc = self.accounting
        edges = acc.edges()
        blocks = self.pricing.blocks
        last = blocks[acc.current] if acc.current is not None else None
        final_taken = last.price.taken_extra if last is not None else 0
        replay = self._replay_memory()
        dynamic = dict(self._dynamic_cycles)  # + the mispredictions the accounting counted (M7)
        for address, extra in acc.mispredictions().items():
            dynamic[address] = dynamic.get(address, 0) + extra
        by_block = dict(self._dynamic_by_block)
        for key, extra in acc.mispredictions_by_block().items():
            by_block[key] = by_block.get(key, 0) + extra
        cycles = acc.cycles - acc.branch_cycles + sum(dynamic.values()) + final_taken + replay.cycles
        counts = block_counts(edges)
        executed = self.pricing.executed_functions(image, counts)
        contents = arena.contents()
        arena.check_canaries(self.info.title)
        returned = self._return_registers.read()
        if check_abi:
            check_callee_saved(returned, function, sp, self.info.title)
        r0, r1 = returned[:2]
        classes = self.pricing.classes(counts)
        if vfp_words:
            check_vfp_used(image, function, classes, self.timing)
        s0, s1 = read_vfp_result(uc) if hard else (0, 0)
        return CallResult(
            function=function,
            core=self.core,
            return_value=r0,
            return_value64=(r1 << 32) | r0,
            cycles=cycles,
            instructions=acc.instructions,
            classes=classes,
            stack_bytes=stack_depth(uc, layout, sp),
            code_bytes=sum(sym.size for sym in executed),
            functions=tuple(sym.name for sym in executed),
            buffers=contents,
            buffer_addresses=tuple(a.address for a in arena.allocations),
            buffer_names=tuple(a.name for a in arena.allocations),
            block_counts=counts,
            edge_counts=edges,
            dynamic_cycles=dynamic,
            dynamic_by_block=by_block,
            abi="hard" if hard else "soft",
            return_s0=s0,
            return_s1=s1,
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
        blocks, edges = self.pricing.blocks, self.pricing.edges
        extra: tuple[Any, ...] = ()
        if self._block_switches is not None:  # only board memories with the rule (memory_blocks.py)
            extra = ((self._block_switches.switches, self._block_switches.pairs),)
        if not self._history.needs_trace:
            return self._history.replay((), blocks, edges, (), [], *extra)
        return self._history.replay(
            self.accounting.trace(),
            blocks,
            edges,
            self._read_log.reads() if self._read_log is not None else self._flash_reads,
            self._flash_ranges,
            *extra,
        )

    def _placement(self, sp: int) -> dict[str, str]:
        if self._history is None:
            return {}
        where = {"stack": self._history.placement(sp - 4)}
        assert self._arena is not None
        for alloc in self._arena.allocations:
            where[alloc.name or f"buffer {alloc.index}"] = self._history.placement(alloc.address)
        return where

    def block(self, address: int) -> Block:
        """The decoded, priced block starting at ``address`` (after a call executed it)."""
        return self.pricing.blocks[address]

    def edge(self, prev: int | None, cur: int) -> EdgeInfo:
        return self.pricing.edges[(prev, cur)]

    def describe(self, address: int) -> str:
        return self._require_image().describe(address)

    def _require_image(self) -> ElfImage:
        if self.image is None:
            raise EmulatorError("no ELF loaded; call load_elf(path) first")
        return self.image

    def _require_layout(self) -> Layout:
        if self.layout is None:
            raise EmulatorError("no ELF loaded; call load_elf(path) first")
        return self.layout

    # -- the run loop -------------------------------------------------------------------------
    def _reset_run_state(self) -> None:
        self._pending: BaseException | None = None
        self._restart_block: Block | None = None
        self._invalid: InvalidAccess | None = None
        self._interrupt: tuple[int, int] | None = None
        self._dynamic_cycles: dict[int, int] = {}
        self._dynamic_by_block: dict[tuple[int, int], int] = {}
        self.pricing.access_seq = (-1, 0)
        self._flash_reads = FlashReads()
        if self._read_log is not None:
            self._read_log.reset()
        if getattr(self, "_block_switches", None) is not None:
            self._block_switches.reset()

    def _slice_limit(self, budget: int, length: int) -> int:
        """The count the run next returns to Python at: ``length`` on, not past ``budget`` (0: none)."""
        return min(self.accounting.instructions + length, budget) if budget else self.accounting.instructions + length

    def _run(self, entry: int, function: str, budget: int = 0) -> None:
        """Run to the return, in slices of :data:`RUN_SLICE` instructions (a Ctrl-C is raised in Python
        only): a slice ends like a budget, before a block is counted, and the run resumes at it."""
        start = entry
        halt = self.halt_address
        length = RUN_SLICE
        limit = self._slice_limit(budget, length)
        self.accounting.set_instruction_limit(limit)
        stopped_at = -1
        while True:
            try:
                self.uc.emu_start(start | 1, halt)
            except UcError as exc:
                raise self._fault_from(exc) from None
            if self._pending is not None:
                error, self._pending = self._pending, None
                raise error
            if self._invalid is not None:
                invalid, self._invalid = self._invalid, None
                raise self.faults.memory_fault(invalid)
            if self._interrupt is not None:
                interrupt, self._interrupt = self._interrupt, None
                raise self.faults.hard_fault(interrupt)
            reason = self.accounting.stop_reason
            if reason == acct.STOP_DISCOVER and self._restart_block is not None:
                block, self._restart_block = self._restart_block, None
                self.uc.ctl_remove_cache(block.address, block.end)
                block.hooks_ready = True
                self.accounting.clear_stop()
                start = block.address
                continue
            if reason == acct.STOP_INSN_BUDGET and limit != budget:
                # a slice ended (a pending KeyboardInterrupt is raised here); a slice shorter than
                # the uncounted block grows until it fits
                if self.accounting.instructions == stopped_at:
                    length *= 2
                stopped_at = self.accounting.instructions
                limit = self._slice_limit(budget, length)
                self.accounting.set_instruction_limit(limit)
                self.accounting.clear_stop()
                start = self.uc.reg_read(uc_arm.UC_ARM_REG_PC)
                continue
            if reason in (acct.STOP_INSN_BUDGET, acct.STOP_CYCLE_BUDGET):
                pc = self.uc.reg_read(uc_arm.UC_ARM_REG_PC)
                what = "instruction" if reason == acct.STOP_INSN_BUDGET else "cycle"
                raise BudgetExceeded(
                    f"{what} budget exhausted after {self.accounting.instructions} instructions "
                    f"and {self.accounting.cycles} cycles (infinite loop?) in {function}",
                    self.faults.site(pc),
                    self.accounting.instructions,
                    self.accounting.cycles,
                )
            if reason == acct.STOP_NO_MEMORY:
                raise MemoryError("the native edge table could not grow")
            pc = self.uc.reg_read(uc_arm.UC_ARM_REG_PC)
            if pc != halt:
                raise EmulatorError(
                    f"emulation stopped at 0x{pc:08x} ({self.describe(pc)}) without returning"
                )
            return

    def _fault_from(self, exc: UcError) -> BaseException:
        if self._pending is not None:
            error, self._pending = self._pending, None
            return error
        invalid, self._invalid = self._invalid, None
        return self.faults.from_uc_error(exc, invalid, self._interrupt)

    # -- hooks (each holds the machine weakly) ------------------------------------------------
    def _discover(self, prev: int | None, cur: int, size: int) -> tuple[int, int, int] | None:
        """The accounting's callback for a new edge: its (cost, instructions, predicted branch), or None to stop
        before the block runs (a fault, or code hooks to install for its dynamic instructions)."""
        try:
            block = self.pricing.block_at(cur, size)
            missing = [a for a in block.dynamic if a not in self._dynamic_kinds]
            unchecked = self._alignment.unhooked(block, not self.info.has_cyccnt)
            switches = self._block_switches  # memory-block hooks (memory_blocks.py), added on their own
            paired = switches is not None and bool(switches.new_pairs(block))
            if missing or unchecked or paired or not block.hooks_ready and block.dynamic:
                for address in missing:
                    self._dynamic_kinds[address] = block.dynamic[address]
                    self.uc.hook_add(UC_HOOK_CODE, _weak(self._on_dynamic), None, address, address)
                for check in unchecked:
                    self._alignment.add(check.address, check.base, check.mask)
                if missing or unchecked or paired:
                    self._restart_block = block
                    return None
                block.hooks_ready = True
            info = self.pricing.edge(prev, block)
            return info.cost, block.count, info.branch
        except BaseException as exc:  # noqa: BLE001 - raised again by _run once Unicorn has stopped (Ctrl-C too)
            self._pending = exc
            return None

    def _on_aligned(self, uc: Uc, address: int, size: int, _user: object) -> None:
        for check in self._alignment.checks.get(address, ()):
            if not uc.reg_read(check.base) & check.mask:
                continue
            fault = self.faults.unaligned(check)
            if fault is not None:
                self._pending = fault
                uc.emu_stop()
                return

    def _on_dynamic(self, uc: Uc, address: int, size: int, _user: object) -> None:
        kind = self._dynamic_kinds.get(address)
        if kind is None:
            return
        extra = self.timing.dynamic_cost(kind, uc)
        self._dynamic_cycles[address] = self._dynamic_cycles.get(address, 0) + extra
        # the block hook ran first: the current block is the one running this instruction
        key = (self.accounting.current or 0, address)
        self._dynamic_by_block[key] = self._dynamic_by_block.get(key, 0) + extra

    def _cycles_at_access(self, address: int) -> int:
        return self.pricing.cycles_at_access(
            address, self.accounting, sum(self._dynamic_cycles.values())
        )

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

    def _on_flash_read(
        self, uc: Uc, access: int, address: int, size: int, value: int, _user: object
    ) -> None:
        self._flash_reads.append(self.accounting.blocks - 1, address)

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
        pc = uc.reg_read(uc_arm.UC_ARM_REG_PC)
        if intno == 3 and self.layout is not None and pc == self.layout.halt_address == 0:
            # The return reached a halt stub at address 0 (the first function linked with
            # ideal.ld): Unicorn's ARMv7-M/ARMv8-M models raise a prefetch abort on a branch to 0
            # although the Code region there is executable (ARMv7-M ARM B3.1 Table B3-1); the
            # call has returned, the stub's block did not run.
            uc.emu_stop()
            return
        self._interrupt = (intno, pc)
        uc.emu_stop()


__all__ = ["DEFAULT_BUDGET", "DEFAULT_STACK_SIZE", "HALT_SYMBOL", "U64", "Block", "Buffer", "CallResult", "EdgeInfo",
           "Machine"]
