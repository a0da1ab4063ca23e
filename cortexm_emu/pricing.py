"""Blocks and edges, decoded and priced once; cycles at a memory access; a call's tallies.

:class:`Pricing` decodes each new Unicorn translation block with capstone, checks every
instruction against the core (``timing.check``), prices the block (``timing.price_block``, plus
``memory.block_extra``) and prices each new edge previous block -> block:

    cost(prev -> block) = block.cycles + block.memory_extra
                        + prev.taken_extra            if prev's final instruction branched
                        + timing.edge_cost(prev, block, fallthrough) + memory.edge_extra(...)

and, when prev ends in a conditional branch the model predicts from history (M7), the edge
carries that branch (``timing.predicted_branch``): the accounting adds its misprediction each
time the edge is counted and the predictor's counter says so (``timing/prediction.py``).

A final branch counts as taken when it always branches (B, BL, BX, POP {PC} outside IT) or
when the next block is not the fall-through address.

:meth:`Pricing.cycles_at_access` gives the cycles a self-measuring program sees when it reads
DWT->CYCCNT or SYST_CVR: every instruction before the reading load. Unicorn does not report the
PC inside a block to memory-mapped callbacks, so the reading instruction is found by recomputing
each load's address in the current block from the register values at the access (the k-th
matching load for the k-th access in the block); if none matches, the whole block counts as not
yet executed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import capstone
from capstone import arm_const as cs_arm
from unicorn import Uc
from unicorn import arm_const as uc_arm

from cortexm_emu.accounting import Accounting
from cortexm_emu.cores import CoreInfo
from cortexm_emu.elf import ElfImage
from cortexm_emu.errors import FaultSite, IllegalInstruction
from cortexm_emu.faults import alignment_checks
from cortexm_emu.memory import MemorySystem
from cortexm_emu.memory_map import align_down
from cortexm_emu.price_cache import price_cache_for

_MULTI_ACCESS = frozenset(
    {"ldrd", "strd", "ldm", "ldmia", "ldmdb", "stm", "stmia", "stmdb", "push", "pop"}
)

_CS_TO_UC_REG = {
    **{getattr(cs_arm, f"ARM_REG_R{i}"): getattr(uc_arm, f"UC_ARM_REG_R{i}") for i in range(13)},
    cs_arm.ARM_REG_SP: uc_arm.UC_ARM_REG_SP,
    cs_arm.ARM_REG_LR: uc_arm.UC_ARM_REG_LR,
    cs_arm.ARM_REG_PC: uc_arm.UC_ARM_REG_PC,
}


class Block:
    """One Unicorn translation block, priced once; its capstone instructions are decoded on first
    use (a block priced by an earlier run, :mod:`cortexm_emu.price_cache`, is not decoded unless
    something asks for them)."""

    __slots__ = ("address", "size", "price", "branches", "always_branches", "code", "count",
                 "memory_extra", "dynamic", "hooks_ready", "_insns", "_cs", "functions", "alignment_free")

    def __init__(self, address: int, size: int, insns: list[Any] | None, price: Any, branches: bool,
                 always_branches: bool, code: bytes, count: int | None = None, cs: Any = None) -> None:
        self.address = address
        self.size = size
        self.price = price  # timing model BlockPrice
        self.branches = branches  # final instruction may write the PC
        self.always_branches = always_branches  # ... and always does (B, BL, BX, POP {PC} outside IT)
        self.code = code
        self.count = count if count is not None else len(insns or ())  # instructions
        self.memory_extra = 0
        self.dynamic: dict[int, str] = {}
        self.hooks_ready = False
        self._insns = insns
        self._cs = cs
        self.functions: tuple[Any, ...] | None = None  # the function symbols it touches, once known
        #: no instruction of the block needs an alignment check (faults.alignment_checks), so a block
        #: priced by an earlier run need not be decoded for them
        self.alignment_free = False

    @property
    def insns(self) -> list[Any]:
        """The capstone instructions (CsInsn), decoded now if the block came from the cache."""
        if self._insns is None:
            self._insns = list(self._cs.disasm(self.code, self.address))
        return self._insns

    @property
    def end(self) -> int:
        return self.address + self.size

    def prefix_cycles(self, pc: int) -> int:
        return sum(cycles for address, cycles, _rule in self.price.per_insn if address < pc)

    def __repr__(self) -> str:
        return f"Block(address={self.address:#x}, size={self.size}, count={self.count})"


@dataclass(frozen=True)
class EdgeInfo:
    prev: int | None
    cur: int
    taken: bool
    taken_extra: int
    edge_cost: int
    cost: int
    branch: int = 0  # the predicted branch the accounting charges (timing.predicted_branch), 0: none


def base_mnemonic(insn: Any) -> str:
    return insn.mnemonic.split(".")[0]


def branch_kind(insn: Any) -> tuple[bool, bool]:
    """(may write the PC, always writes the PC) for a capstone Thumb instruction."""
    mnemonic = base_mnemonic(insn)
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


class Pricing:
    """The priced blocks and edges of one machine (kept across calls; a block whose code
    changed is decoded again and every edge repriced)."""

    def __init__(
        self,
        uc: Uc,
        cs: capstone.Cs,
        info: CoreInfo,
        timing: Any,
        memory: MemorySystem,
        site: Callable[[int, Any], FaultSite],
    ) -> None:
        self.uc = uc
        self.cs = cs
        self.info = info
        self.timing = timing
        self.memory = memory
        self._site = site
        self.blocks: dict[int, Block] = {}
        self.edges: dict[tuple[int | None, int], EdgeInfo] = {}
        #: prices of earlier runs on disk (model version + block address and bytes)
        self.price_cache = price_cache_for(str(getattr(timing, "version", "")))
        self.access_seq: tuple[int, int] = (-1, 0)  # (block number, PC) of the last PPB access
        #: how many times a known block was found with other code (every edge repriced then)
        self.code_changes = 0
        self._changes_seen = 0
        #: (start, end) of the read-only segments: code there cannot change between calls
        self.read_only: tuple[tuple[int, int], ...] = ()
        self._writable_blocks: tuple[Any, list[Block]] = (None, [])

    def block_at(self, address: int, size: int) -> Block:
        """The block at ``address``: known, or priced now (from the on-disk price cache when an
        earlier run priced the same bytes at the same address with the same model, else decoded,
        checked and priced)."""
        code = bytes(self.uc.mem_read(address, size))
        known = self.blocks.get(address)
        if known is not None:
            if known.code == code:
                return known
            self.edges.clear()  # the code changed: every edge into or out of it is repriced
            self.code_changes += 1
        stored = self.price_cache.get(address, code)
        if stored is not None:
            price, branches, always, count, alignment_free = stored
            block = Block(address, size, None, price, branches, always, code, count, self.cs)
            block.alignment_free = alignment_free
        else:
            block = self._decode(address, size, code)
            block.alignment_free = not alignment_checks(block.insns, not self.info.has_cyccnt)
            self.price_cache.put(address, code, (block.price, block.branches, block.always_branches, block.count,
                                                 block.alignment_free))
        block.dynamic = dict(block.price.dynamic)
        block.hooks_ready = not block.dynamic
        block.memory_extra = self.memory.block_extra(block)
        self.blocks[address] = block
        return block

    def code_unchanged_since_last_call(self) -> bool:
        """Whether no known block changed since the last call began: none was found with other
        code during it (``code_changes``), and each block outside the :attr:`read_only` ranges
        (writable memory, which the host or a call with ``keep_state`` can overwrite) still holds
        the code it was priced for. Then every priced edge still holds."""
        unchanged = self.code_changes == self._changes_seen
        self._changes_seen = self.code_changes
        key = (len(self.blocks), self.code_changes, self.read_only)
        if self._writable_blocks[0] != key:  # new blocks since the last look
            blocks = [
                block
                for address, block in self.blocks.items()
                if not any(start <= address < end for start, end in self.read_only)
            ]
            self._writable_blocks = (key, blocks)
        read = self.uc.mem_read
        return unchanged and all(bytes(read(b.address, b.size)) == b.code for b in self._writable_blocks[1])

    def _decode(self, address: int, size: int, code: bytes) -> Block:
        insns = list(self.cs.disasm(code, address))
        decoded = sum(i.size for i in insns)
        if decoded != size:
            bad = address + decoded
            raise IllegalInstruction(
                f"undecodable instruction (capstone cannot decode {code[decoded : decoded + 4].hex()}) for {self.info.title}",
                self._site(bad, None),
            )
        for insn in insns:
            reason = self.timing.check(insn)
            if reason:
                raise IllegalInstruction(
                    f"illegal instruction for {self.info.title} ({reason})",
                    self._site(insn.address, insn),
                )
        price = self.timing.price_block(insns)
        branches, always = branch_kind(insns[-1]) if insns else (False, False)
        return Block(address, size, insns, price, branches, always, code, cs=self.cs)

    def edge(self, prev: int | None, block: Block) -> EdgeInfo:
        """The edge ``prev`` -> ``block``: known, or priced now."""
        info = self.edges.get((prev, block.address))
        if info is not None:
            return info
        if prev is None:
            info = EdgeInfo(
                None, block.address, False, 0, 0, block.price.cycles + block.memory_extra
            )
        else:
            before = self.blocks[prev]
            fallthrough = block.address == before.end
            taken = before.always_branches or (before.branches and not fallthrough)
            taken_extra = before.price.taken_extra if taken else 0
            carry = self.timing.edge_cost(before.price, block.price, fallthrough)
            carry += self.memory.edge_extra(before, block, fallthrough)
            cost = block.price.cycles + block.memory_extra + taken_extra + carry
            branch = self.timing.predicted_branch(before.price, not fallthrough) if before.branches else 0
            info = EdgeInfo(prev, block.address, taken, taken_extra, carry, cost, branch)
        self.edges[(prev, block.address)] = info
        return info

    # -- cycles seen by the program -----------------------------------------------------------
    def cycles_at_access(self, address: int, accounting: Accounting, dynamic: int) -> int:
        """Cycles before the instruction of the current block that accesses ``address``
        (``dynamic``: the operand-dependent cycles so far)."""
        current = accounting.current
        total = accounting.cycles + dynamic
        if current is None or current not in self.blocks:
            return total
        block = self.blocks[current]
        pc = self._locate_access(block, address, accounting.blocks)
        done = block.prefix_cycles(pc) if pc is not None else 0
        return total - block.price.cycles + done

    def _locate_access(self, block: Block, address: int, executed: int) -> int | None:
        """The instruction of ``block`` making this PPB access: the first load/store after the
        previous PPB access of this block execution whose address, recomputed from the
        registers now, covers ``address`` (multi-word transfers may match twice)."""
        last_block, last_pc = self.access_seq
        after = last_pc if last_block == executed else -1
        for insn in block.insns:
            multi = base_mnemonic(insn) in _MULTI_ACCESS
            if insn.address < after or (insn.address == after and not multi):
                continue
            for op in insn.operands:
                if op.type != cs_arm.ARM_OP_MEM:
                    continue
                ea = self._effective_address(insn, op)
                span = 8 if multi else 4
                if ea is not None and ea <= address < ea + span:
                    self.access_seq = (executed, insn.address)
                    return insn.address
        return None

    def _effective_address(self, insn: Any, op: Any) -> int | None:
        base = op.mem.base
        if base == cs_arm.ARM_REG_PC:
            value = align_down(insn.address + 4, 4)
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

    # -- a call's tallies -----------------------------------------------------------------------
    def classes(self, block_counts: Mapping[int, int]) -> dict[str, int]:
        """Instructions executed per timing class."""
        classes: dict[str, int] = {}
        for address, count in block_counts.items():
            for name, n in self.blocks[address].price.classes.items():
                classes[name] = classes.get(name, 0) + n * count
        return classes

    def executed_functions(self, image: ElfImage, addresses: Iterable[int]) -> list[Any]:
        """The function symbols holding an instruction of the blocks at ``addresses``, by address."""
        seen: dict[str, Any] = {}
        for address in addresses:
            block = self.blocks[address]
            if block.functions is None:  # once per block: a block's symbols do not change
                symbols = {}
                for insn_address in _insn_addresses(block):
                    sym = image.function_containing(insn_address)
                    if sym is not None:
                        symbols[sym.name] = sym
                block.functions = tuple(symbols.values())
            for sym in block.functions:
                seen[sym.name] = sym
        return sorted(seen.values(), key=lambda s: s.address)


def _insn_addresses(block: Block) -> list[int]:
    """Instruction addresses of ``block`` from its price (no capstone objects needed)."""
    return [address for address, _cycles, _rule in block.price.per_insn]


def block_counts(edges: Mapping[tuple[int | None, int], int]) -> dict[int, int]:
    """Executions of each block from the executions of the edges into it."""
    counts: dict[int, int] = {}
    for (_prev, cur), count in edges.items():
        counts[cur] = counts.get(cur, 0) + count
    return counts
