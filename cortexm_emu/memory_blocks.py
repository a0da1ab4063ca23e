"""Memory blocks: load/store pipelining only within one block (STM32F4 boards).

The Cortex-M4 model removes one cycle from an LDR/STR that follows an LDR (DDI 0439D §3.3.2
"LDR [any] are pipelined when possible"). Measured on an STM32F407 (jnk0le, github.com/jnk0le/
random, ``pipeline cycle test/doc/cortex_m3m4.md``): "load pipelining happens only when
targeting the same memory block by all loads (e.g. SRAM1 vs SRAM2 (and CCM) on f407)", and
"stores can pipeline with preceding load ... only when targeting the same memory block". A board
whose profile says ``[memory] load_pipelining = "same-block"`` gets that rule here: each pair the
core model priced as pipelined inside one block of code is checked at run time, and a pair whose
two accesses lie in different memory blocks costs the credit back (+1 cycle).

Why a hook, and which
    Pricing is static (per block of code), the addresses are not. The first instruction of each
    pipelined pair gets a ``UC_HOOK_CODE`` bounded to its address (Unicorn calls it for that
    instruction only), in C when a host compiler exists (``memory_blocks.c``, like the alignment
    hooks), else in Python. Before that instruction runs, the registers both address computations
    read hold their values -- the pairing rule already excludes a second address that depends on
    the first instruction's result or written-back base -- so the hook computes both effective
    addresses, maps each to its block, and counts the pair if they differ. The count is a pure
    function of the executed instructions and their register values: deterministic.

The blocks (:func:`block_ranges`)
    Each ``[[sram]]`` row of the profile (the RM's addresses) is a block and the flash another
    (the board's flash and code linked at the boot alias 0x0, as far as they are read as flash:
    :meth:`cortexm_emu.flash.BoardMemory.flash_ranges`). The emulator places the stack and the
    buffers past the part's SRAM (:mod:`cortexm_emu.memory_map`): the buffers count as the
    profile's ``data_block`` (SRAM1 on the F4s, where a default linker script puts .data, .bss and
    the heap) and the stack as its ``stack_block`` (where the same scripts put the stack: the top
    of the contiguous RAM, SRAM2 on the F407 and SRAM3 on the F437; ``data_block`` when the
    profile names none) unless the memory system names another block for the buffers or the stack
    (``buffers=``, ``stack=`` of :func:`~cortexm_emu.flash.board_memory`); code or read-only data placed in RAM
    by the memory configuration (``code="ram"``,
    ``tables="ram"``) counts as that block too (startup code copies them to .data). An address in
    none of these (peripherals, the PPB) is a block of its own.

What is not checked (APPROXIMATIONS.md 49)
    A pair across a block edge (an LDR ending one block of code and a load starting the next) and
    a pair with a conditional (IT) instruction keep their credit; the store-after-load and
    store-then-load rules are left as the core model prices them.
"""

from __future__ import annotations

import ctypes
import weakref
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from capstone import arm_const as cs_arm
from unicorn import UC_HOOK_CODE, Uc
from unicorn.unicorn_py3.unicorn import uclib

from cortexm_emu import native
from cortexm_emu.boards import Board
from cortexm_emu.memory import CODE_REGION_END
from cortexm_emu.memory_map import SRAM_END, Layout, align_down
from cortexm_emu.pricing import _CS_TO_UC_REG, Block

SOURCE = Path(__file__).resolve().parent / "memory_blocks.c"
LIBRARY = "libcortexm_emu_memory_blocks.so"
MAX_RANGES = 32
FLASH = "flash"
OTHER = "other (peripherals, unmapped)"
RULE = (
    "M3/M4 load/store pipelining only within one memory block (jnk0le cortex_m3m4.md, STM32F407): "
    "a pipelined pair whose accesses are in different blocks costs +1"
)


@dataclass(frozen=True)
class Operand:
    """An effective address: base (Unicorn register id, or -1 with ``base_value``) + index << shift + disp."""

    base: int
    index: int
    shift: int
    subtract: bool
    disp: int
    base_value: int = 0

    def address(self, read: Any) -> int:
        value = read(self.base) if self.base >= 0 else self.base_value
        if self.index >= 0:
            index = (read(self.index) << self.shift) & 0xFFFF_FFFF
            value = value - index if self.subtract else value + index
        return (value + self.disp) & 0xFFFF_FFFF


@dataclass(frozen=True)
class Pair:
    """A pipelined pair of one block: the hook sits at ``address`` (the first instruction)."""

    address: int
    second: int
    first_operand: Operand
    second_operand: Operand


def _operand(insn: Any) -> Operand | None:
    for op in insn.operands:
        if op.type != cs_arm.ARM_OP_MEM:
            continue
        base = op.mem.base
        if base == cs_arm.ARM_REG_PC:
            base_reg, base_value = -1, align_down(insn.address + 4, 4)
        elif base in _CS_TO_UC_REG:
            base_reg, base_value = _CS_TO_UC_REG[base], 0
        else:
            return None
        index = _CS_TO_UC_REG.get(op.mem.index, -1) if op.mem.index else -1
        shift = op.shift.value if index >= 0 and op.shift.type == cs_arm.ARM_SFT_LSL else 0
        return Operand(base_reg, index, shift, bool(op.subtracted), op.mem.disp & 0xFFFF_FFFF, base_value)
    return None


def pipelined_pairs(block: Block) -> tuple[list[Pair], int]:
    """The pairs of ``block`` the core model priced as pipelined (rule tag "pipelined"), with
    neither instruction conditional, and how many such pairs cannot be checked (no memory
    operand capstone resolves)."""
    per_insn = block.price.per_insn
    if not any("pipelined" in rule.split("+") for _a, _c, rule in per_insn):
        return [], 0
    insns = block.insns
    if len(insns) != len(per_insn):
        return [], 0
    pairs: list[Pair] = []
    unchecked = 0
    for index in range(1, len(insns)):
        tags = per_insn[index][2].split("+")
        if "pipelined" not in tags or "conditional" in tags or "conditional" in per_insn[index - 1][2].split("+"):
            continue
        first, second = _operand(insns[index - 1]), _operand(insns[index])
        if first is None or second is None:
            unchecked += 1
            continue
        pairs.append(Pair(insns[index - 1].address, insns[index].address, first, second))
    return pairs, unchecked


def block_ranges(
    board: Board, layout: Layout, flash: Iterable[tuple[int, int]], buffers: str = "", stack: str = ""
) -> tuple[list[tuple[int, int, int]], list[str]]:
    """([start, end) ranges with their block index, first match wins), block names. ``flash``:
    the ranges read as flash (:meth:`~cortexm_emu.flash.BoardMemory.flash_ranges`);
    ``buffers``, ``stack``: the regions the buffers and the stack count as ("": the profile's data
    block; for the stack its ``stack_block`` first)."""
    names = [region.name for region in board.sram] + [FLASH, OTHER]
    data = names.index(board.memory.data_block)
    arena = names.index(buffers) if buffers else data
    stack = stack or board.memory.stack_block
    stack_block = names.index(stack) if stack else data
    ranges: list[tuple[int, int, int]] = [
        (layout.stack_guard_start, layout.buffers_base, stack_block),
        (layout.buffers_base, SRAM_END, arena),
    ]
    ranges += [(region.base, region.end, i) for i, region in enumerate(board.sram)]
    ranges += [(start, end, names.index(FLASH)) for start, end in flash]
    ranges.append((0, CODE_REGION_END, data))  # code/tables placed in RAM by the configuration
    if len(ranges) > MAX_RANGES:
        raise ValueError(f"{board.path}: {len(ranges)} memory-block ranges; accepted: at most {MAX_RANGES}")
    return ranges, names


class _Range(ctypes.Structure):
    _fields_ = [("start", ctypes.c_uint32), ("end", ctypes.c_uint32), ("block", ctypes.c_int32),
                ("pad", ctypes.c_int32)]


class _State(ctypes.Structure):
    _fields_ = [("reg_read", ctypes.c_void_p), ("n_ranges", ctypes.c_uint32), ("other", ctypes.c_int32),
                ("ranges", _Range * MAX_RANGES), ("pairs", ctypes.c_uint64), ("switches", ctypes.c_uint64)]


class _Operand(ctypes.Structure):
    _fields_ = [("base", ctypes.c_int32), ("index", ctypes.c_int32), ("shift", ctypes.c_uint32),
                ("subtract", ctypes.c_int32), ("disp", ctypes.c_uint32), ("base_value", ctypes.c_uint32)]


class _Pair(ctypes.Structure):
    _fields_ = [("state", ctypes.POINTER(_State)), ("first", _Operand), ("second", _Operand)]


_LIBRARY: tuple[ctypes.CDLL | None, str] | None = None


def _library() -> tuple[ctypes.CDLL | None, str]:
    global _LIBRARY
    if _LIBRARY is None:
        _LIBRARY = native.open_library(SOURCE, LIBRARY)
    return _LIBRARY


def _c_operand(op: Operand) -> _Operand:
    return _Operand(op.base, op.index, op.shift, int(op.subtract), op.disp, op.base_value)


class BlockSwitches:
    """The memory-block hooks of one Unicorn engine; :attr:`switches` is the extra cycles of the
    current call (one per pipelined pair that crossed blocks)."""

    def __init__(self, uc: Uc, board: Board, engine: str = "auto", buffers: str = "", stack: str = "") -> None:
        self._uc = uc
        self.board = board
        self.buffers = buffers
        self.stack = stack
        lib, self.note = _library() if engine != "python" else (None, "python requested")
        self._lib = lib
        self.kind = "native" if lib is not None else "python"
        self._ranges: list[tuple[int, int, int]] = []
        self.names: list[str] = []
        self._seen: dict[int, Block] = {}
        self._hooked: set[int] = set()
        self._keep: list[Any] = []
        self.unchecked_pairs = 0
        self._py_pairs = 0
        self._py_switches = 0
        if lib is not None:
            self._state = _State()
            self._state.reg_read = ctypes.cast(uclib.uc_reg_read, ctypes.c_void_p).value
            self._hook_fn = ctypes.cast(lib.mb_pair_hook, ctypes.c_void_p)

    @classmethod
    def for_machine(cls, memory: Any, timing: Any, uc: Uc, engine: str = "auto") -> BlockSwitches | None:
        """The hooks when ``memory`` is a board memory whose profile has the same-block rule and
        the core model pipelines loads (M3/M4); else None."""
        board = getattr(memory, "board", None)
        rules = getattr(timing, "rules", None)
        if not isinstance(board, Board) or board.memory.load_pipelining != "same-block":
            return None
        if not isinstance(rules, dict) or not rules.get("load_pipelining"):
            return None
        return cls(uc, board, engine, getattr(memory, "buffers", ""), getattr(memory, "stack", ""))

    def set_map(self, layout: Layout, flash: Iterable[tuple[int, int]]) -> None:
        """The block map of the loaded program (call once, before the first run)."""
        self._ranges, self.names = block_ranges(self.board, layout, flash, self.buffers, self.stack)
        if self._lib is not None:
            state = self._state
            state.n_ranges = len(self._ranges)
            state.other = self.names.index(OTHER)
            for i, (start, end, block) in enumerate(self._ranges):
                state.ranges[i] = _Range(start, end - 1, block, 0)

    def _block_index(self, address: int) -> int:
        for start, end, block in self._ranges:
            if start <= address < end:
                return block
        return len(self.names) - 1  # OTHER

    def reset(self) -> None:
        if self._lib is not None:
            self._state.pairs = 0
            self._state.switches = 0
        self._py_pairs = self._py_switches = 0

    @property
    def pairs(self) -> int:
        """Pipelined pairs checked in the current call."""
        return int(self._state.pairs) if self._lib is not None else self._py_pairs

    @property
    def switches(self) -> int:
        """Pipelined pairs of the current call whose accesses were in different blocks."""
        return int(self._state.switches) if self._lib is not None else self._py_switches

    def new_pairs(self, block: Block) -> list[Pair]:
        """Hook the pairs of ``block`` not hooked yet; returns them (non-empty: the block must be
        translated again for Unicorn to call the new hooks)."""
        if self._seen.get(block.address) is block:
            return []
        self._seen[block.address] = block
        pairs, unchecked = pipelined_pairs(block)
        self.unchecked_pairs += unchecked
        new = [pair for pair in pairs if pair.address not in self._hooked]
        for pair in new:
            self._hooked.add(pair.address)
            self._add(pair)
        return new

    def _add(self, pair: Pair) -> None:
        if self._lib is None:
            ref = weakref.ref(self)

            def check(uc: Uc, _address: int, _size: int, _user: Any) -> None:
                owner = ref()
                if owner is None:
                    return
                a = pair.first_operand.address(uc.reg_read)
                b = pair.second_operand.address(uc.reg_read)
                owner._py_pairs += 1
                if owner._block_index(a) != owner._block_index(b):
                    owner._py_switches += 1

            self._uc.hook_add(UC_HOOK_CODE, check, None, pair.address, pair.address)
            return
        entry = _Pair(ctypes.pointer(self._state), _c_operand(pair.first_operand), _c_operand(pair.second_operand))
        handle = ctypes.c_size_t()
        status = uclib.uc_hook_add(
            self._uc._uch,
            ctypes.byref(handle),
            UC_HOOK_CODE,
            self._hook_fn,
            ctypes.cast(ctypes.pointer(entry), ctypes.c_void_p),
            ctypes.c_uint64(pair.address),
            ctypes.c_uint64(pair.address),
        )
        if status != 0:
            raise RuntimeError(f"uc_hook_add(UC_HOOK_CODE) for a memory-block check at 0x{pair.address:08x} failed with status {status}")
        self._keep.append((entry, handle))
