"""Per-core cycle models: static price per Unicorn block, plus pairing, edge and operand terms.

The numbers come from ``data/<core>.toml`` (each with its source). This module only
applies them:

* :meth:`TimingModel.price_block` prices one Unicorn block: per-instruction class costs,
  the pairing rules between neighbouring instructions (M3/M4 load pipelining, the
  address-generation interlock, IT folding, store-then-load, a NOP hidden behind a load or a
  register-offset store), the skip cost of conditional
  instructions inside IT blocks, and what a taken final branch adds.
* :meth:`TimingModel.edge_cost` applies the same pairing rules across a block boundary
  (Unicorn cuts straight-line code into several blocks) and the target-alignment refill term
  of taken branches. It may return a negative number: a pipelining credit relative to the
  cold-start price of the next block.
* :meth:`TimingModel.dynamic_cost` adds the operand-dependent part of an instruction from the
  register values just before it executes (division, M3 long multiplies), and the executed-
  minus-skipped difference of a conditional instruction in an IT block, including what its
  execution changes in the pairing of the next instruction (a skipped instruction does no bus
  transfer: the static price pairs the next instruction with nothing). The machine hooks
  exactly the addresses listed in ``BlockPrice.dynamic``; a condition-failed instruction in
  an IT block fires no code hook in Unicorn, so its entries are only charged when it runs.

Invariant (tested): for straight-line code cut anywhere into blocks A and B,
``price(A+B).cycles == price(A).cycles + price(B).cycles + edge_cost(A, B, True)``.
"""

from __future__ import annotations

import hashlib
import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from capstone import arm as cs_arm
from unicorn import arm_const as uc_arm

from .data import ClassEntry, CoreData, pickled_by_fields
from .flash_fetch import flash_fetch_cycles
from .fpu import fp_refusal, transfer_words

CORES: tuple[str, ...] = ("m0", "m0plus", "m3", "m4", "m7", "m33")
#: Cores priced by the in-order issue scheduler of ``pipeline.py`` instead of this module's rules.
SCHEDULED_CORES: frozenset[str] = frozenset({"m7", "m33"})
#: Cores with a branch target address cache (option ``prediction``: "static" or "dynamic", see
#: ``prediction.py``): the Cortex-M7 (DDI 0489F Table 3-3 ACTLR.DISBTACREAD).
PREDICTION_CORES: frozenset[str] = frozenset({"m7"})
PREDICTIONS: tuple[str, ...] = ("static", "dynamic")
#: The M7's default: the BTAC is used out of reset (DDI 0489F §3.2.2, Table 3-3: ACTLR.DISBTACREAD
#: resets to 0, and "1: BTAC is not used and only static branch prediction can occur"). The
#: accounting keeps the history and clears it at the start of every call (``prediction.py``).
DEFAULT_PREDICTION = "dynamic"

_MEMORY_ROLES = frozenset({"load", "store", "load_double", "store_double", "load_multiple", "store_multiple"})
_DATA_ROLES = frozenset({"data", "multiply", "divide"})
_LOAD_ROLES = frozenset({"load", "load_double", "load_multiple"})
_REG_ALIASES = {"sb": "r9", "sl": "r10", "fp": "r11", "ip": "r12"}
_GPRS = frozenset({f"r{n}" for n in range(13)} | {"sp", "lr"})
_CONDITION_SUFFIXES = ("eq", "ne", "cs", "hs", "cc", "lo", "mi", "pl", "vs", "vc", "hi", "ls", "ge", "lt", "gt", "le")
_NO_FPU_GROUPS = frozenset(
    {
        cs_arm.ARM_GRP_VFP2,
        cs_arm.ARM_GRP_VFP3,
        cs_arm.ARM_GRP_VFP4,
        cs_arm.ARM_GRP_NEON,
        cs_arm.ARM_GRP_FPARMV8,
        cs_arm.ARM_GRP_DPVFP,
        cs_arm.ARM_GRP_FPVMLX,
        cs_arm.ARM_GRP_CRYPTO,
        cs_arm.ARM_GRP_CRC,
    }
)
_V8_GROUPS = frozenset({cs_arm.ARM_GRP_V8, cs_arm.ARM_GRP_TRUSTZONE, cs_arm.ARM_GRP_VIRTUALIZATION})
_EXCEPTION_GENERATING = frozenset({"trap", "udf", "bkpt", "svc"})
_DSP_GROUPS = frozenset({cs_arm.ARM_GRP_THUMB2DSP, cs_arm.ARM_GRP_T2EXTRACTPACK})


@pickled_by_fields
@dataclass(frozen=True, slots=True)
class InsnInfo:
    """What the pairing rules need to know about one decoded instruction."""

    address: int
    size: int
    name: str
    cls: ClassEntry
    cycles: int  # cost when executed, on a cold pipeline (no neighbour effects)
    taken_extra: int  # added when this instruction transfers control
    branches: bool  # can transfer control (a block ends here)
    conditional: bool  # predicated by an IT block (not a branch): may be skipped
    addr_regs: frozenset[str]  # registers the address of a memory access is computed from
    writes: frozenset[str]  # general-purpose registers written (incl. a written-back base)
    writeback: str | None  # base register updated by writeback, if any
    target: int | None  # static target of a direct branch
    kinds: tuple[str, ...]  # operand-dependent cost kinds ("udiv r1 r2", ...)
    cc: int  # capstone condition code (ARM_CC_AL when unconditional)


@dataclass(frozen=True)
class BlockPrice:
    """Static price of one Unicorn block (see the module docstring for the accounting)."""

    cycles: int
    taken_extra: int
    branch_target: int | None
    dynamic: list[tuple[int, str]]  # at most one entry per address (kinds joined with " + ")
    per_insn: list[tuple[int, int, str]]
    classes: dict[str, int]
    start: int
    end: int
    first: InsnInfo | None
    last: InsnInfo | None
    second: InsnInfo | None  # the instruction after ``first`` (its pairing may look back across the edge)
    before_last: InsnInfo | None  # the instruction before ``last``


def _reg(name: str) -> str:
    return _REG_ALIASES.get(name, name)


def base_name(insn: Any) -> str:
    """Capstone's canonical instruction name, with hints (``nop``, ``wfi``...) named by mnemonic."""
    name = insn.insn_name()
    if name != "hint":
        return name
    mnemonic = insn.mnemonic.split(".")[0]
    if insn.cc not in (cs_arm.ARM_CC_AL, cs_arm.ARM_CC_INVALID) and mnemonic[-2:] in _CONDITION_SUFFIXES:
        mnemonic = mnemonic[:-2]
    return mnemonic


def divide_cycles(dividend: int, divisor: int, signed: bool, table: dict[str, int]) -> int:
    """Approximate SDIV/UDIV cycles from the operand bit lengths (see ``[divide]`` in the data).

    Zero dividend or divisor: ``zero_operand``; quotient certainly zero (dividend shorter than
    divisor): ``quotient_zero``; otherwise ``base + ceil(quotient_bits / quotient_bits_per_cycle)``
    with ``quotient_bits = bits(dividend) - bits(divisor) + 1``, at most ``maximum``.
    Signed divides use the operand magnitudes.
    """
    dividend &= 0xFFFFFFFF
    divisor &= 0xFFFFFFFF
    if signed:
        dividend = abs(dividend - (1 << 32) if dividend & 0x80000000 else dividend)
        divisor = abs(divisor - (1 << 32) if divisor & 0x80000000 else divisor)
    if dividend == 0 or divisor == 0:
        return table["zero_operand"]
    quotient_bits = dividend.bit_length() - divisor.bit_length() + 1
    if quotient_bits <= 0:
        return table["quotient_zero"]
    cycles = table["base"] + math.ceil(quotient_bits / table["quotient_bits_per_cycle"])
    return min(cycles, table["maximum"])


def _is_large(value: int, signed: bool, bits: int) -> bool:
    """Whether a source operand is too large to terminate early: ABS(value) >= 2**bits.

    Signed forms take the magnitude of the two's complement value.
    """
    value &= 0xFFFFFFFF
    if signed and value & 0x80000000:
        value = (1 << 32) - value
    return value >= 1 << bits


def long_multiply_extra(kind: str, rn: int, rm: int, bits: int) -> int:
    """M3 early termination (see ``[long_multiply]`` in m3.toml): +1 per large source operand.

    The Cortex-M3 TRM's footnote: "MULL versions take three to five cycles", "MLAL versions take
    four to seven cycles", "For MLAL, the signed version is one cycle longer than the unsigned";
    an earlier M3 TRM revision: "ABS(inputs) < 64K terminates early". With the class minimum (UMULL/SMULL 3,
    UMLAL 4, SMLAL 5) this spans exactly the documented ranges.
    """
    signed = kind.startswith("s")
    return _is_large(rn, signed, bits) + _is_large(rm, signed, bits)


@cache
def _parse_kind(kind: str) -> tuple[str, tuple[int, ...], int]:
    op, *args = kind.split() or [""]
    if op == "it_exec":
        if len(args) != 1 or not args[0].removeprefix("-").isdigit():
            raise ValueError(f"Invalid dynamic kind {kind!r}; accepted: 'it_exec N' with N a (signed) cycle count")
        return op, (), int(args[0])
    regs = []
    for arg in args:
        constant = f"UC_ARM_REG_{_reg(arg).upper()}"
        if _reg(arg) not in _GPRS:
            raise ValueError(f"Invalid dynamic kind {kind!r}: unknown register {arg!r}")
        regs.append(getattr(uc_arm, constant))
    if op not in ("udiv", "sdiv", "umull_m3", "smull_m3", "umlal_m3", "smlal_m3") or len(regs) != 2:
        raise ValueError(
            f"Invalid dynamic kind {kind!r}; accepted: 'it_exec N', or 'udiv|sdiv|umull_m3|smull_m3|umlal_m3|smlal_m3 Rn Rm'"
        )
    return op, tuple(regs), 0


class TimingModel:
    """The cycle model of one core, built from its data file and options."""

    def __init__(self, data: CoreData, options: dict[str, str]) -> None:
        self.data = data
        self.core = data.core
        self.options = dict(options)
        self.rules = data.rules
        digest = hashlib.sha256(data.text.encode())
        digest.update(repr(sorted(options.items())).encode())
        # the rules, the flash-fetch rules, the FPU's refusals, the class records
        for module in ("model.py", "flash_fetch.py", "fpu.py", "data.py"):
            digest.update(Path(__file__).with_name(module).read_bytes())
        #: Changes whenever the data file, the options or this module change (for result cache keys).
        self.version = digest.hexdigest()[:16]
        multiplier = options.get("multiplier", data.multiplier_default)
        self._multiplier_cycles = data.multiplier[multiplier] if data.multiplier and multiplier else None
        #: the FPU's instruction classes are in use (model option fpu="on")
        self.fpu = options.get("fpu", "off") == "on"
        #: code fetched from flash (model option fetch="flash"): the data's flash-fetch rules apply
        self.flash_fetch = options.get("fetch", "ideal") == "flash"
        self._by_name: dict[str, list[ClassEntry]] = {}
        for entry in data.classes:
            if entry.fpu and not self.fpu:
                continue
            for mnemonic in entry.mnemonics:
                self._by_name.setdefault(mnemonic, []).append(entry)
        self._sources = {entry.name: entry.source for entry in data.classes}
        self._block_cache: dict[tuple[tuple[int, bytes], ...], BlockPrice] = {}

    def __repr__(self) -> str:
        opts = "".join(f", {k}={v!r}" for k, v in sorted(self.options.items()))
        return f"model_for({self.core!r}{opts})"

    # ------------------------------------------------------------------ classification

    def _class_of(self, insn: Any, name: str) -> ClassEntry | None:
        candidates = self._by_name.get(name)
        if not candidates:
            return None
        for entry in candidates:
            if entry.pattern is None or self._matches(insn, entry.pattern):
                return entry
        return None

    @staticmethod
    def _matches(insn: Any, pattern: str) -> bool:
        if pattern == "writes_pc":
            _, written = insn.regs_access()
            return any(insn.reg_name(r) == "pc" for r in written)
        if pattern == "reglist_pc":
            return any(op.type == cs_arm.ARM_OP_REG and insn.reg_name(op.reg) == "pc" for op in insn.operands)
        if pattern == "reg_offset":
            return any(op.type == cs_arm.ARM_OP_MEM and op.mem.index != 0 for op in insn.operands)
        if pattern == "two_core_registers":
            names = [_reg(insn.reg_name(op.reg)) for op in insn.operands if op.type == cs_arm.ARM_OP_REG]
            return sum(1 for n in names if n in _GPRS) == 2
        if pattern == "double":
            return any(
                op.type == cs_arm.ARM_OP_REG and insn.reg_name(op.reg).startswith("d") for op in insn.operands
            )
        raise ValueError(f"Invalid pattern {pattern!r}")

    def check(self, insn: Any) -> str | None:
        """Why this core cannot execute ``insn`` (capstone Thumb+MCLASS decoding), or None."""
        name = base_name(insn)
        text = f"{insn.mnemonic} {insn.op_str}".strip()
        groups = set(insn.groups)
        if groups & _NO_FPU_GROUPS:
            return fp_refusal(self, insn, name, text, groups)
        if groups & _V8_GROUPS:
            return f"{text}: ARMv8-M/security-extension instruction, not in {self.data.architecture}"
        only_32 = self.data.only_32bit
        if only_32 is not None and insn.size == 4 and name not in only_32:
            return f"{text}: 32-bit Thumb-2 instruction {self.data.lacks_reason}"
        if name in self.data.lacks_16bit:
            return f"{text}: {self.data.lacks_reason}"
        if name in self.data.lacks or (self.data.lacks and groups & _DSP_GROUPS):
            return f"{text}: {self.data.lacks_reason}"
        if name in _EXCEPTION_GENERATING:
            return f"{text}: exception-generating instruction; exception entry is not modelled on {self.core}"
        if self._class_of(insn, name) is None:
            return f"{text}: no cycle count for {name!r} in {self.data.path.name}; not modelled on {self.core}"
        return None

    def info(self, insn: Any) -> InsnInfo:
        """Classify one instruction; ValueError (naming it) if the core data has no class for it."""
        name = base_name(insn)
        entry = self._class_of(insn, name)
        if entry is None:
            reason = self.check(insn) or f"{insn.mnemonic} {insn.op_str}: unclassified"
            raise ValueError(f"Invalid instruction at {insn.address:#x} for {self.core}: {reason}")
        operands = list(insn.operands)
        reg_ops = [_reg(insn.reg_name(op.reg)) for op in operands if op.type == cs_arm.ARM_OP_REG]
        addr_regs: set[str] = set()
        writeback: str | None = None
        cycles = entry.cycles if entry.cycles >= 0 else int(self._multiplier_cycles or 0)
        if entry.role in ("load_multiple", "store_multiple"):
            if name in ("push", "pop", "vpush", "vpop"):
                base, reglist = "sp", reg_ops
                writeback = "sp"
            else:
                base, reglist = reg_ops[0], reg_ops[1:]
                writeback = base if insn.writeback else None
            addr_regs.add(base)
            cycles += entry.per_register * transfer_words(reglist)
        else:
            for op in operands:
                if op.type == cs_arm.ARM_OP_MEM:
                    if op.mem.base:
                        addr_regs.add(_reg(insn.reg_name(op.mem.base)))
                    if op.mem.index:
                        addr_regs.add(_reg(insn.reg_name(op.mem.index)))
                    if insn.writeback and op.mem.base:
                        writeback = _reg(insn.reg_name(op.mem.base))
        _, written = insn.regs_access()
        writes = {_reg(insn.reg_name(r)) for r in written}
        writes = {r for r in writes if r.startswith("r") or r in ("sp", "lr", "pc")}
        if writeback:
            writes.add(writeback)
        branches = entry.role == "branch" or entry.taken_extra > 0
        conditional = (
            insn.cc not in (cs_arm.ARM_CC_AL, cs_arm.ARM_CC_INVALID)
            and entry.role not in ("branch", "it")
        )
        target = None
        if entry.role == "branch" and operands and operands[-1].type == cs_arm.ARM_OP_IMM:
            target = operands[-1].imm
        kinds: tuple[str, ...] = ()
        if entry.dynamic is not None:
            rn, rm = reg_ops[-2], reg_ops[-1]
            op = name if entry.dynamic == "divide" else f"{name}_m3"
            kinds = (f"{op} {rn} {rm}",)
        return InsnInfo(
            address=insn.address,
            size=insn.size,
            name=name,
            cls=entry,
            cycles=cycles,
            taken_extra=entry.taken_extra,
            branches=branches,
            conditional=conditional,
            addr_regs=frozenset(addr_regs),
            writes=frozenset(writes),
            writeback=writeback,
            target=target,
            kinds=kinds,
            cc=insn.cc,
        )

    # ------------------------------------------------------------------ pairing rules

    def pair_delta(
        self, prev: InsnInfo, cur: InsnInfo, before: InsnInfo | None = None
    ) -> tuple[int, tuple[str, ...]]:
        """Cycles added to ``cur`` (negative: removed) because ``prev`` executed right before it.

        ``before`` is the instruction that executed before ``prev`` (None: unknown or none); only
        the store-then-load rule looks at it.
        """
        rules = self.rules
        delta = 0
        tags: list[str] = []
        if cur.cls.role == "it":
            if rules["it_folding"] and prev.size == 2:
                return -cur.cycles, ("folded",)
            return 0, ()
        if cur.name == "nop" and rules["eats_following_nop"] and self._eats_nop(prev):
            return -cur.cycles, ("nop-eaten",)
        if cur.cls.role not in _MEMORY_ROLES:
            return 0, ()
        prev_role = prev.cls.role
        unaligned_wide = cur.size == 4 and cur.address % 4 == 2
        if (
            rules["load_pipelining"]
            and prev_role == "load"
            and not prev.branches
            and cur.cls.role in ("load", "store")
            and not cur.branches
            and not (cur.addr_regs & prev.writes)
            and (cur.cls.role == "store" or cur.writeback is None or rules["writeback_load_pipelines"])
            and cur.cycles > 1
        ):
            if unaligned_wide and not rules["unaligned_wide_pipelines"]:
                tags.append("unaligned-wide-not-pipelined")
            else:
                delta -= 1
                tags.append("pipelined")
        if prev_role == "load" and cur.cls.role == "store" and cur.writeback and rules["writeback_store_after_load_extra"]:
            delta += int(rules["writeback_store_after_load_extra"])
            tags.append("writeback-store-after-load")
        if rules["store_then_load"] and prev_role == "store" and prev.cycles == 1 and cur.cls.role in _LOAD_ROLES:
            store_followed_load = (
                before is not None
                and before.cls.role == "load"
                and not before.branches
                and not (prev.writeback and rules["writeback_store_after_load_extra"])
            )
            if store_followed_load and not rules["store_after_load_stalls_load"]:
                tags.append("store-after-load")
            else:
                delta += int(rules["store_then_load"])
                tags.append("store-then-load")
        if rules["address_interlock"] and prev_role in _DATA_ROLES and prev.writes & cur.addr_regs:
            delta += int(rules["address_interlock"])
            tags.append("address-interlock")
        elif (
            rules["writeback_store_interlock"]
            and prev_role == "store"
            and prev.writeback is not None
            and prev.writeback in cur.addr_regs
        ):
            delta += int(rules["writeback_store_interlock"])
            tags.append("writeback-interlock")
        return delta, tuple(tags)

    @staticmethod
    def _eats_nop(prev: InsnInfo) -> bool:
        """``prev`` hides a following NOP in its second cycle (rule ``eats_following_nop``): a
        single load (not one that loads the PC) or a register-offset store."""
        if prev.branches:
            return False
        return prev.cls.role == "load" or (prev.cls.role == "store" and prev.cls.pattern == "reg_offset")

    # ------------------------------------------------------------------ block pricing

    def static_pair(
        self, before: InsnInfo | None, prev: InsnInfo, cur: InsnInfo
    ) -> tuple[int, tuple[str, ...], int]:
        """Pairing of ``cur`` after ``prev`` as priced statically: (delta, tags, carry).

        A conditional ``prev`` (inside an IT block) may be skipped; a skipped instruction does no
        bus transfer and issues like a NOP, so the static price of ``cur`` pairs with nothing
        (delta 0) and ``carry``, the difference the executed ``prev`` makes, is charged with
        ``prev``'s ``it_exec`` entry (which fires only when ``prev`` runs). A conditional ``cur``
        is priced at the skip cost and its own ``it_exec`` holds its executed pairing: after a
        conditional ``prev`` with the same condition both run or neither does (pairing as
        executed); with the opposite condition exactly one runs (pairing as after a NOP). IT
        instructions always pair (folding).
        """
        if prev.conditional and cur.cls.role != "it":
            if cur.conditional:
                if cur.cc == prev.cc:
                    delta, tags = self.pair_delta(prev, cur, before)
                    return delta, tags, 0
                return 0, (), 0
            delta, _ = self.pair_delta(prev, cur, before)
            return 0, (), delta
        delta, tags = self.pair_delta(prev, cur, before)
        return delta, tags, 0

    def price_block(self, insns: Sequence[Any]) -> BlockPrice:
        """Price one Unicorn block (capstone instructions in order). Pure; cached by address and bytes."""
        key = tuple((i.address, bytes(i.bytes)) for i in insns)
        cached = self._block_cache.get(key)
        if cached is not None:
            return cached
        infos = [self.info(i) for i in insns]
        skip_cost = int(self.rules["skipped_conditional"])
        cycles = 0
        per_insn: list[tuple[int, int, str]] = []
        classes: Counter[str] = Counter()
        executed_extra = [0] * len(infos)  # it_exec amount of each conditional instruction
        for index, info in enumerate(infos):
            prev = infos[index - 1] if index > 0 else None
            before = infos[index - 2] if index > 1 else None
            delta, tags, carry = self.static_pair(before, prev, info) if prev is not None else (0, (), 0)
            if carry:
                executed_extra[index - 1] += carry
            executed = info.cycles + delta
            rule = "+".join((info.cls.name, *tags))
            if info.conditional:
                static = skip_cost
                executed_extra[index] += executed - skip_cost
                rule += "+conditional"
            else:
                static = executed
            cycles += static
            per_insn.append((info.address, static, rule))
            classes[info.cls.name] += 1
        if self.flash_fetch:
            cycles += flash_fetch_cycles(self.rules, infos, per_insn)
        dynamic: list[tuple[int, str]] = []
        for info, extra in zip(infos, executed_extra):
            kinds = list(info.kinds)
            if info.conditional and extra:
                kinds.insert(0, f"it_exec {extra}")
            if kinds:  # one entry per address: several kinds are joined with " + "
                dynamic.append((info.address, " + ".join(kinds)))
        last = infos[-1] if infos else None
        price = BlockPrice(
            cycles=cycles,
            taken_extra=last.taken_extra if last is not None and last.branches else 0,
            branch_target=last.target if last is not None else None,
            dynamic=dynamic,
            per_insn=per_insn,
            classes=dict(classes),
            start=insns[0].address if insns else 0,
            end=insns[-1].address + insns[-1].size if insns else 0,
            first=infos[0] if infos else None,
            last=last,
            second=infos[1] if len(infos) > 1 else None,
            before_last=infos[-2] if len(infos) > 1 else None,
        )
        self._block_cache[key] = price
        return price

    def edge_cost(self, prev: BlockPrice, nxt: BlockPrice, fallthrough: bool) -> int:
        """Cycles added (negative: credited) when ``nxt`` runs right after ``prev``.

        ``fallthrough``: ``nxt`` starts where ``prev`` ends (a Unicorn split or a not-taken
        branch); the pairing rules then apply across the boundary, to ``nxt``'s first
        instruction and, for the rules that look two instructions back, to its second.
        Otherwise ``prev``'s final instruction branched and only the refill's target-alignment
        term applies. Static prices only: an ``it_exec`` difference across the edge is dropped.
        """
        if prev.last is None or nxt.first is None:
            return 0
        if not fallthrough:
            first = nxt.first
            if first.size == 4 and first.address % 4 == 2:
                return int(self.rules["unaligned_wide_target_extra"])
            return 0
        delta = 0
        if not nxt.first.conditional:
            delta += self.static_pair(prev.before_last, prev.last, nxt.first)[0]
        if nxt.second is not None and not nxt.second.conditional:
            warm = self.static_pair(prev.last, nxt.first, nxt.second)[0]
            cold = self.static_pair(None, nxt.first, nxt.second)[0]
            delta += warm - cold
        return delta

    def predicted_branch(self, prev: BlockPrice, taken: bool) -> int:
        """The predicted branch an edge out of ``prev`` carries (``prediction.encode_branch``);
        0 on cores without dynamic prediction."""
        return 0

    def dynamic_cost(self, kind: str, uc: Any) -> int:
        """Extra cycles of one operand-dependent instruction, from registers read just before it runs."""
        total = 0
        for part in kind.split(" + "):
            op, regs, constant = _parse_kind(part)
            if op == "it_exec":
                total += constant
            else:
                rn, rm = (uc.reg_read(r) for r in regs)
                total += self.operand_cost(op, rn, rm)
        return total

    def operand_cost(self, op: str, rn: int, rm: int) -> int:
        """Extra cycles above the class minimum for ``op`` with source operands ``rn``, ``rm``."""
        if op in ("udiv", "sdiv"):
            if self.data.divide is None:
                raise ValueError(f"Invalid dynamic kind {op!r} for {self.core}: no [divide] table")
            minimum = self._by_name[op][0].cycles
            return divide_cycles(rn, rm, op == "sdiv", self.data.divide) - minimum
        if op in ("umull_m3", "smull_m3", "umlal_m3", "smlal_m3"):
            if self.data.long_multiply_bits is None:
                raise ValueError(f"Invalid dynamic kind {op!r} for {self.core}: no [long_multiply] table")
            return long_multiply_extra(op, rn, rm, self.data.long_multiply_bits)
        raise ValueError(f"Invalid dynamic kind {op!r}")

    def source_of(self, rule: str) -> str:
        """The citation behind a rule name as it appears in ``BlockPrice.per_insn``."""
        parts = rule.split("+")
        texts = [f"{parts[0]}: {self._sources[parts[0]]}"] if parts[0] in self._sources else []
        tag_rules = {
            "pipelined": "load_pipelining",
            "folded": "it_folding",
            "address-interlock": "address_interlock",
            "store-then-load": "store_then_load",
            "writeback-interlock": "writeback_store_interlock",
            "writeback-store-after-load": "writeback_store_after_load_extra",
            "unaligned-wide-not-pipelined": "unaligned_wide_pipelines",
            "store-after-load": "store_after_load_stalls_load",
            "conditional": "skipped_conditional",
            "nop-eaten": "eats_following_nop",
            "unaligned-wide-group": "unaligned_wide_group_extra",
            "literal-fetch-contention": "literal_load_extra",
        }
        for tag in parts[1:]:
            rule_name = tag_rules[tag]
            texts.append(f"{tag}: {self.data.rule_sources[rule_name]}")
        if not texts:
            raise ValueError(f"Invalid rule name {rule!r} for {self.core}")
        return "\n".join(texts)
