"""In-order issue scheduler for the Cortex-M7 (dual issue) and Cortex-M33 (limited dual issue).

The M0/M0+/M3/M4 models add a cost per instruction plus neighbour rules (``model.py``). The M7
and the M33 need more state: which issue slot is free, which unit is busy in this cycle and when
each register's value becomes usable. This module prices a Unicorn block by scheduling it:

* every instruction becomes an :class:`Op`: issue occupancy (cycles before the next issue group),
  pipeline units, slot rule, the registers it reads (with the pipeline port that reads them) and
  the registers it writes (with the latency to late and to early consumers); all numbers come
  from ``data/m7.toml`` / ``data/m33.toml`` (class fields ``cycles``, ``latency``,
  ``early_latency``, ``units``, ``issue`` and the ``[pipeline]`` table), each with its source;
* ops issue in program order: an op joins the open issue group (the second slot) if the pairing
  rule of the core allows it and its operands are ready in that cycle, else it starts a new group
  at the first cycle where the previous group has finished and its operands are ready;
* ``cycles`` of a block = the cycle after its last group finishes, starting from an empty
  pipeline with every register ready;
* the state at the end of a block (open slot, register ready times, relative to the block's end)
  is kept in the price, so :meth:`ScheduledModel.edge_cost` reschedules the next block from that
  state: a pair across the boundary is a credit, a result latency across it a stall. For straight
  code cut anywhere into A and B, ``price(A+B) = price(A) + price(B) + edge_cost(A, B, True)``
  exactly (tested).

Branches. M7 (``prediction = "btfn"`` in the data): direct unconditional branches and calls are
predicted taken; returns and register calls are predicted by the branch target cache (class
``taken_extra`` 0), computed jumps (MOV PC, TBB/TBH) never (the refill). Conditional branches, by
default (model option ``prediction="dynamic"``, the BTAC enabled out of reset), are predicted from
per-branch history (``prediction.py``): :meth:`ScheduledModel.predicted_branch` gives the branch
each edge carries and the accounting charges a misprediction as it counts the edge. With
``prediction="static"`` they are predicted taken when backward and not taken when forward.
A correct prediction costs nothing beyond the issue slot, a wrong one the measured refill (8
cycles, 6 when the flags were set early enough in the block). A static taken cost goes into
``BlockPrice.taken_extra`` (the machine adds it on taken edges) and the static not-taken
misprediction of a backward branch into ``edge_cost``. M33 (``prediction = "none"``):
a taken branch adds the refill; a 16-bit branch dual-issued after a 16-bit instruction that sets
no flags refills faster.

Conditional instructions in IT blocks are priced statically as NOPs (predicated out); when one
executes, a dynamic ``it_exec N`` entry adds the difference between the block scheduled with it
executing and the static price (N >= 1 only; a condition-passed instruction never makes a block
cheaper in this model).
"""

from __future__ import annotations

import hashlib
import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from capstone import arm as cs_arm

from .data import CoreData, pickled_by_fields
from .fpu import transfer_words
from .model import DEFAULT_PREDICTION, BlockPrice, InsnInfo, TimingModel, base_name
from .pipeline_data import PIPELINE_KEYS, ClassTiming, PipelineData, parse_pipeline
from .prediction import encode_branch

_GPRS = frozenset({f"r{n}" for n in range(13)} | {"sp", "lr"})
_REG_ALIASES = {"sb": "r9", "sl": "r10", "fp": "r11", "ip": "r12"}
_LOAD_ROLES = frozenset({"load", "load_double", "load_multiple"})
_STORE_ROLES = frozenset({"store", "store_double", "store_multiple"})
_FLAG_SETTERS = frozenset({"cmp", "cmn", "tst", "teq"})
_PURE_SHIFTS = frozenset({"lsl", "lsr", "asr", "ror", "rrx"})
#: Multiplies whose first two operands (RdLo, RdHi) are also accumulated.
_LONG_ACCUMULATE = frozenset(
    {"umlal", "smlal", "umaal", "smlalbb", "smlalbt", "smlaltb", "smlaltt", "smlald", "smlaldx", "smlsld", "smlsldx"}
)
#: Multiplies whose fourth operand (Ra) is the accumulator.
_ACCUMULATE_RA = frozenset({"mla", "mls", "smlabb", "smlabt", "smlatb", "smlatt", "smlawb", "smlawt",
                            "smlad", "smladx", "smlsd", "smlsdx", "smmla", "smmlar", "smmls", "smmlsr", "usada8"})
_DIRECT_BRANCHES = frozenset({"b", "bl", "cbz", "cbnz"})
#: The flags as a scheduler register: written by flag-setting instructions (latency 1), read by
#: the carry consumers, so a dependent ADCS chain issues one per cycle ([here], APPROXIMATIONS 26).
_FLAGS = "apsr"
_CARRY_READERS = frozenset({"adc", "sbc", "rrx"})


@pickled_by_fields
@dataclass(frozen=True, slots=True)
class Op:
    """One instruction as the scheduler sees it."""

    info: InsnInfo
    occupancy: int
    units: tuple[str, ...]
    issue: str
    is16: bool
    reads: tuple[tuple[str, str], ...]  # (register, port): normal, early, acc, store, mac, pair
    writes: tuple[tuple[str, int, int], ...]  # (register, latency, early latency)
    is_load: bool
    sets_flags: bool
    tags: tuple[str, ...]
    early_forward: str = "always"  # see pipeline_data.py
    same_cycle_forward: bool = False
    bank: tuple[str, int] | None = None  # load address as (base register or "@" = absolute, offset)


@pickled_by_fields
@dataclass(frozen=True, slots=True)
class PipeState:
    """Pipeline state at a block boundary; times are relative to the first free cycle."""

    group_time: int | None  # issue cycle of a group that still has a free slot
    group_op: Op | None
    group_units: tuple[str, ...]
    ready: tuple[tuple[str, int, int, bool, int | None], ...]  # (register, late, early, produced by a load, same-cycle time)
    flags_time: int | None

    def closed(self, delay: int) -> PipeState:
        """The state after ``delay`` more cycles with no issue (a taken branch or a refill)."""
        ready = tuple((r, late - delay, early - delay, load, None) for r, late, early, load, _ in self.ready
                      if max(late, early) - delay > -4)
        flags = self.flags_time - delay if self.flags_time is not None else None
        return PipeState(None, None, (), ready, flags)


COLD = PipeState(None, None, (), (), None)


@dataclass(frozen=True)
class ScheduledPrice(BlockPrice):
    """A BlockPrice plus what the scheduler needs at the block's edges."""

    ops: tuple[Op, ...]
    exit: PipeState
    branch_kind: str  # none, uncond, cond_backward, cond_forward, indirect
    mispredict: int  # M7: cycles of a misprediction of this block's final branch


@dataclass
class _Run:
    end: int
    exit: PipeState
    per_op: list[tuple[int, int, tuple[str, ...]]]  # (issue cycle, cycles added, tags)
    flags_time: int | None


def _reg(name: str) -> str:
    return _REG_ALIASES.get(name, name)


def _shifted_constant(insn: Any) -> bool:
    """A T32 modified immediate built by rotating an 8-bit value (not a plain or repeated byte)."""
    if insn.size != 4:
        return False
    raw = bytes(insn.bytes)
    hw1 = int.from_bytes(raw[0:2], "little")
    hw2 = int.from_bytes(raw[2:4], "little")
    if (hw1 & 0xFA00) != 0xF000 or hw2 & 0x8000:
        return False  # not "data processing (modified immediate)"
    imm12 = ((hw1 >> 10) & 1) << 11 | ((hw2 >> 12) & 7) << 8 | (hw2 & 0xFF)
    return (imm12 >> 10) != 0


class ScheduledModel(TimingModel):
    """Timing model of a core priced by the in-order issue scheduler (M7, M33)."""

    def __init__(self, data: CoreData, options: dict[str, str]) -> None:
        super().__init__(data, options)
        self.pipe = parse_pipeline(data)
        self.p = self.pipe.values
        #: M7 option prediction="dynamic" (the default): per-branch history (prediction.py)
        self.dynamic_prediction = (
            self.p["prediction"] == "btfn" and options.get("prediction", DEFAULT_PREDICTION) == "dynamic"
        )
        digest = hashlib.sha256(self.version.encode())
        digest.update(Path(__file__).read_bytes())
        for module in ("pipeline_data.py", "prediction.py", "fpu.py"):
            digest.update((Path(__file__).parent / module).read_bytes())
        self.version = digest.hexdigest()[:16]

    # ------------------------------------------------------------------ instruction set

    def check(self, insn: Any) -> str | None:
        name = base_name(insn)
        if name in self.pipe.accepts_v8m:
            if self._class_of(insn, name) is None:
                return f"{insn.mnemonic} {insn.op_str}: no cycle count for {name!r} in {self.data.path.name}"
            return None
        return super().check(insn)

    # ------------------------------------------------------------------ ops

    def op_of(self, insn: Any) -> Op:
        """Translate one capstone instruction into a scheduler op (as executed)."""
        info = self.info(insn)
        name = info.name
        timing = self.pipe.classes[info.cls.name]
        p = self.p
        role = info.cls.role
        latency, early = timing.latency, timing.early_latency
        units = list(timing.units)
        occupancy = info.cls.cycles
        tags: list[str] = []
        reg_ops = [op for op in insn.operands if op.type == cs_arm.ARM_OP_REG]
        reg_names = [_reg(insn.reg_name(op.reg)) for op in reg_ops]
        sets_flags = bool(insn.update_flags) or name in _FLAG_SETTERS

        # shifted operand2 (not the pure shift instructions, which are their own class)
        shifted_reg = None
        if timing.operand2 and name not in _PURE_SHIFTS:
            for op in reg_ops:
                if op.shift.type not in (0, cs_arm.ARM_SFT_INVALID) and op.shift.value:
                    shifted_reg = (_reg(insn.reg_name(op.reg)), op.shift.type)
        shifted_const = timing.operand2 and _shifted_constant(insn)
        if shifted_reg is not None:
            lsl = shifted_reg[1] in (cs_arm.ARM_SFT_LSL, cs_arm.ARM_SFT_LSL_REG)
            latency = p["shifted_lsl_latency"] if lsl else p["shifted_register_latency"]
            early = latency + p["early_read_extra"]
            units += [u for u in p["shifted_units"] if u not in units]
            tags.append("shifted")
        elif shifted_const:
            latency = p["shifted_constant_latency"]
            early = latency + p["early_read_extra"]
            units += [u for u in p["shifted_units"] if u not in units]
            if sets_flags:
                occupancy = max(occupancy, p["flag_setting_shifted_constant_cycles"])
            tags.append("shifted")
        if name == "mul" and insn.size == 2:
            occupancy = max(occupancy, p["muls_16bit_cycles"])
            tags.append("muls16")

        # registers read, by port
        read_regs, _ = insn.regs_access()
        reads_set = {_reg(insn.reg_name(r)) for r in read_regs}
        if role == "data" and name not in _FLAG_SETTERS:
            reads_set |= set(reg_names[1:])  # capstone's regs_access misses e.g. UXTAB's Rm
        accumulators: set[str] = set()
        if role == "multiply":
            if name in _LONG_ACCUMULATE:
                accumulators = set(reg_names[:2])
            elif name in _ACCUMULATE_RA and len(reg_names) >= 4:
                accumulators = {reg_names[3]}
        if timing.accumulator == "rn" and len(reg_names) >= 3:
            accumulators = {reg_names[1]}
        reads_set |= accumulators
        early_sources = set()
        if timing.early_read == "sources":
            early_sources = set(reg_names[1:])
        elif timing.early_read == "last" and len(reg_names) >= 2:
            early_sources = {reg_names[-1]}
        address_regs = set(info.addr_regs)
        port_address = "early" if p["address_read"] == "early" else "normal"
        reads: list[tuple[str, str]] = []
        for reg in sorted(r for r in reads_set if r in _GPRS):
            if reg in address_regs:
                port = port_address
            elif role in _STORE_ROLES:
                port = "store"
            elif reg in accumulators:
                port = "acc" if role == "multiply" else "acc_noload"
            elif role == "multiply":
                port = "mac"
            elif shifted_reg is not None and reg == shifted_reg[0] and p["shifted_read"] == "early":
                port = "early"
            elif reg in early_sources and p["shifted_read"] == "early":
                port = "early"
            elif name == "movt" and p["movt_pairs_with_movw"]:
                port = "pair"
            else:
                port = "normal"
            reads.append((reg, port))
        if name in _CARRY_READERS:
            reads.append((_FLAGS, "normal"))

        # registers written, with their latencies
        writes: list[tuple[str, int, int]] = []
        rpc = p["registers_per_cycle"]
        if role in ("load_multiple", "store_multiple", "load_double", "store_double"):
            if role in ("load_multiple", "store_multiple"):
                listed = reg_names if name in ("push", "pop", "vpush", "vpop") else reg_names[1:]
            else:
                listed = reg_names[:2] if not info.cls.fpu else reg_names[:1]  # VLDR.64/VSTR.64: one D register
            occupancy = info.cls.cycles + max(1, math.ceil(transfer_words(listed) / rpc))
            if role in ("load_multiple", "load_double"):
                for k, reg in enumerate(listed):
                    if reg in _GPRS:
                        writes.append((reg, latency + k // rpc, early + k // rpc))
        else:
            for reg in sorted(info.writes):
                if reg in _GPRS and reg != info.writeback:
                    writes.append((reg, latency, early))
        if sets_flags:
            writes.append((_FLAGS, 1, 1))
        if info.writeback is not None:
            # base writeback is produced by the AGU: usable by the next cycle (also by another AGU)
            writes = [w for w in writes if w[0] != info.writeback] + [(info.writeback, 1, 1)]
        return Op(
            info=info,
            occupancy=occupancy,
            units=tuple(units),
            issue=timing.issue,
            is16=insn.size == 2,
            reads=tuple(reads),
            writes=tuple(writes),
            is_load=role in _LOAD_ROLES,
            sets_flags=sets_flags,
            tags=tuple(tags),
            bank=self._bank_key(insn, info) if role == "load" else None,
            early_forward="always" if "shifted" in tags else timing.early_forward,
            same_cycle_forward=timing.same_cycle_forward and "shifted" not in tags,
        )

    @staticmethod
    def _bank_key(insn: Any, info: InsnInfo) -> tuple[str, int] | None:
        """A load's address as far as it is known statically: (base, offset), base "@" for an
        absolute (PC-relative literal) address; None with an index register."""
        for op in insn.operands:
            if op.type == cs_arm.ARM_OP_MEM and not op.mem.index and op.mem.base:
                base = _reg(insn.reg_name(op.mem.base))
                offset = 0 if insn.post_index else op.mem.disp
                if base == "pc":
                    return "@", ((info.address + 4) & ~3) + offset
                return base, offset
        return None

    @staticmethod
    def _bank_parity(older: Op, younger: Op) -> int | None:
        """Whether two loads hit the same (0) or the other (1) DTCM/D-cache bank (even/odd word), from
        their addresses as far as known: the same base register (not written back by the older) with
        offsets a whole number of words apart, or two literal addresses; None when not known."""
        a, b = older.bank, younger.bank
        if a is None or b is None or a[0] != b[0]:
            return None
        if a[0] == "@":
            return ((a[1] >> 2) ^ (b[1] >> 2)) & 1
        return None if older.info.writeback == a[0] or (a[1] - b[1]) % 4 else ((a[1] - b[1]) // 4) & 1

    def nop_op(self, op: Op) -> Op:
        """A condition-failed instruction: one issue slot, no units, no operands, no result."""
        issue = "younger16" if self.p["pairing"] == "m33" else "any"
        return Op(op.info, 1, (), issue, op.is16, (), (), False, False, ("conditional",))

    # ------------------------------------------------------------------ scheduling

    def _can_pair(self, older: Op, younger: Op, used: Counter[str]) -> bool:
        if self.p["pairing"] == "m33":
            if younger.issue == "younger_any":
                return True
            return younger.issue == "younger16" and younger.is16 and older.is16
        if older.issue == "single" or younger.issue in ("single", "slot0"):
            return False
        parity = self._bank_parity(older, younger)
        if (self.p["load_bank_conflicts"] and parity == 0) or (not self.p["load_pairs_unknown_bank"] and parity != 1
                                                               and "load" in older.units and "load" in younger.units):
            return False
        capacity = self.p["units"]
        for unit in younger.units:
            if used[unit] + 1 > capacity[unit]:
                return False
        # [meas] multiplies "can't dual issue with stores"
        return not (("mac" in older.units and "store" in younger.units) or ("store" in older.units and "mac" in younger.units))

    def _need(self, op: Op, ready: dict[str, tuple[int, int, bool, int | None]], same_cycle: bool = True) -> int:
        """Earliest issue cycle of ``op`` from its operands; ``same_cycle``: a result forwarded to
        the younger op of its own issue group counts (the op would issue as that younger op)."""
        p = self.p
        need = -(1 << 30)
        for reg, port in op.reads:
            entry = ready.get(reg)
            if entry is None:
                continue
            late, early, from_load, forward = entry
            if port == "normal":
                at = min(late, forward) if same_cycle and forward is not None else late
            elif port == "early":
                at = early
            elif port == "acc":
                at = late - p["accumulator_advance"]
            elif port == "acc_noload":
                at = late if from_load else late - p["accumulator_advance"]
            elif port == "store":
                at = late - p["store_data_advance"]
            elif port == "mac":
                at = late + (p["load_to_multiply_extra"] if from_load else 0)
            else:  # "pair": MOVT reads the MOVW result in the same cycle
                at = late - 1
            need = max(need, at)
        return need

    def schedule(self, ops: Sequence[Op], start: PipeState) -> _Run:
        """Issue ``ops`` in order from ``start``; times relative to the first cycle after ``start``."""
        ready = {reg: (late, early, load, forward) for reg, late, early, load, forward in start.ready}
        group_time = start.group_time
        group_op = start.group_op
        used: Counter[str] = Counter(start.group_units)
        next_free = 0
        flags_time = start.flags_time
        width = self.p["issue_width"]
        per_op: list[tuple[int, int, tuple[str, ...]]] = []
        for op in ops:
            older = group_op
            shares_shifter = older is not None and "shift" in op.units and "shift" in older.units
            same_cycle = older is not None and not (older.early_forward == "unshared" and "shift" in op.units)
            need = self._need(op, ready, same_cycle)
            tags: list[str] = list(op.tags)
            before = next_free
            paired = False
            if group_time is not None and older is not None and need <= group_time and self._can_pair(older, op, used):
                t = group_time
                next_free = max(next_free, t + op.occupancy)
                group_time, group_op, used = None, None, Counter()
                tags.append("paired")
                paired = True
                if older.early_forward == "unshared" and "shift" in op.units:
                    self._lose_early_forward(older, t, ready)
            else:
                t = max(next_free, need)
                if need > next_free:
                    tags.append("stall")
                next_free = t + op.occupancy
                can_take_younger = width > 1 and (self.p["pairing"] == "m33" or op.issue != "single")
                group_time, group_op = (t, op) if can_take_younger else (None, None)
                used = Counter(op.units)
            lost = paired and (op.early_forward == "older" or (op.early_forward == "unshared" and shares_shifter))
            forward = t if op.same_cycle_forward and not paired else None
            for reg, latency, early in op.writes:
                early_at = t + (max(early, latency + 1) if lost else early)
                # flags are never forwarded in the same cycle ([meas] jnk0le cortex_m7.md: "flags generated
                # in early ALU cannot be forwarded to late ALU in 0 cycles")
                ready[reg] = (t + latency, early_at, op.is_load, forward if reg != _FLAGS else None)
            if op.sets_flags:
                flags_time = t
            per_op.append((t, next_free - before, tuple(tags)))
        end = next_free
        exit_ready = tuple(
            (reg, late - end, early - end, load, forward - end if forward is not None and group_op is not None else None)
            for reg, (late, early, load, forward) in sorted(ready.items())
            if max(late, early) - end > -4
        )
        exit_state = PipeState(
            group_time - end if group_time is not None else None,
            group_op,
            tuple(sorted(used.elements())) if group_op is not None else (),
            exit_ready,
            flags_time - end if flags_time is not None else None,
        )
        return _Run(end, exit_state, per_op, flags_time)

    @staticmethod
    def _lose_early_forward(older: Op, t: int, ready: dict[str, tuple[int, int, bool, int | None]]) -> None:
        """``older`` (issued at ``t``) was paired with a younger op using the early shifter: its
        result reaches early consumers one cycle after the late ones, not with ``early_latency``."""
        for reg, latency, early in older.writes:
            entry = ready.get(reg)
            if entry is not None and entry[:2] == (t + latency, t + early):
                ready[reg] = (t + latency, t + max(early, latency + 1), entry[2], None)

    # ------------------------------------------------------------------ pricing

    def _branch_kind(self, insn: Any, info: InsnInfo) -> str:
        if not info.branches:
            return "none"
        if info.name not in _DIRECT_BRANCHES or info.target is None:
            return "indirect"
        conditional = info.name in ("cbz", "cbnz") or insn.cc not in (cs_arm.ARM_CC_AL, cs_arm.ARM_CC_INVALID)
        if not conditional:
            return "uncond"
        return "cond_backward" if info.target <= info.address else "cond_forward"

    def price_block(self, insns: Sequence[Any]) -> BlockPrice:
        key = tuple((i.address, bytes(i.bytes)) for i in insns)
        cached = self._block_cache.get(key)
        if cached is not None:
            return cached
        executed = [self.op_of(i) for i in insns]
        static = [self.nop_op(op) if op.info.conditional else op for op in executed]
        run = self.schedule(static, COLD)
        dynamic: list[tuple[int, str]] = []
        per_insn: list[tuple[int, int, str]] = []
        classes: Counter[str] = Counter()
        for index, (op, (_t, added, tags)) in enumerate(zip(static, run.per_op)):
            kinds = list(op.info.kinds)
            if op.info.conditional:
                variant = list(static)
                variant[index] = executed[index]
                difference = self.schedule(variant, COLD).end - run.end
                if difference > 0:
                    kinds.insert(0, f"it_exec {difference}")
            if kinds:
                dynamic.append((op.info.address, " + ".join(kinds)))
            per_insn.append((op.info.address, added, "+".join((op.info.cls.name, *tags))))
            classes[op.info.cls.name] += 1
        first = executed[0].info if executed else None
        last = executed[-1].info if executed else None
        kind = self._branch_kind(insns[-1], last) if last is not None else "none"
        taken_extra, mispredict = self._branch_costs(kind, static, run)
        price = ScheduledPrice(
            cycles=run.end,
            taken_extra=taken_extra,
            branch_target=last.target if last is not None else None,
            dynamic=dynamic,
            per_insn=per_insn,
            classes=dict(classes),
            start=insns[0].address if insns else 0,
            end=insns[-1].address + insns[-1].size if insns else 0,
            first=first,
            last=last,
            second=executed[1].info if len(executed) > 1 else None,
            before_last=executed[-2].info if len(executed) > 1 else None,
            ops=tuple(executed),
            exit=run.exit,
            branch_kind=kind,
            mispredict=mispredict,
        )
        self._block_cache[key] = price
        return price

    def predicted_branch(self, prev: BlockPrice, taken: bool) -> int:
        """The branch the edge out of ``prev`` carries for the accounting's predictor
        (``prediction.encode_branch``), or 0: ``prev`` ends in a conditional direct branch and
        prediction is dynamic; ``taken``: the edge is its taken side."""
        if not self.dynamic_prediction or not isinstance(prev, ScheduledPrice):
            return 0
        if prev.branch_kind not in ("cond_forward", "cond_backward") or prev.last is None:
            return 0
        return encode_branch(prev.last.address, prev.mispredict, taken, prev.branch_kind == "cond_backward")

    def _branch_costs(self, kind: str, ops: Sequence[Op], run: _Run) -> tuple[int, int]:
        """(cycles added when the final branch is taken, cycles of a misprediction)."""
        p = self.p
        if kind == "none":
            return 0, 0
        dynamic = self.dynamic_prediction and kind in ("cond_forward", "cond_backward")
        last = ops[-1]
        if p["prediction"] == "btfn":
            branch_time = run.per_op[-1][0]
            early = (
                last.info.name not in ("cbz", "cbnz")
                and run.flags_time is not None
                and branch_time - run.flags_time >= p["early_flags_distance"]
            )
            mispredict = p["mispredict_early_flags"] if early else p["mispredict"]
            if dynamic:
                return 0, mispredict  # charged by the accounting's predictor (predicted_branch)
            if kind == "indirect":
                return last.info.taken_extra, mispredict  # the class says: BTAC-predicted or a refill
            if kind == "cond_forward":
                return mispredict, mispredict  # predicted not taken: taking it is the misprediction
            return p["predicted_taken_extra"], mispredict
        # no prediction (M33): the refill of a taken branch
        refill = last.info.taken_extra
        if kind == "indirect":
            return refill, 0
        if "paired" in run.per_op[-1][2] and len(ops) >= 2 and last.is16 and not ops[-2].sets_flags:
            refill = p["taken_refill_paired_no_flags"]
        return refill, 0

    def edge_cost(self, prev: BlockPrice, nxt: BlockPrice, fallthrough: bool) -> int:
        """Cycles added (negative: credited) when ``nxt`` runs right after ``prev``.

        The next block is rescheduled from ``prev``'s exit state: kept open on a fall-through
        (pairing and latencies cross the boundary); after a taken branch the state is delayed
        by the branch's taken cost (which the machine adds from ``prev.taken_extra``); a
        mispredicted not-taken backward branch (M7) adds the misprediction here.
        """
        if not isinstance(prev, ScheduledPrice) or not isinstance(nxt, ScheduledPrice):
            return 0
        if prev.last is None or nxt.first is None:
            return 0
        extra = 0
        state = prev.exit
        if (
            fallthrough
            and prev.branch_kind == "cond_backward"
            and self.p["prediction"] == "btfn"
            and not self.dynamic_prediction
        ):
            extra = prev.mispredict
            state = state.closed(extra)
        elif not fallthrough and not (self.p["branch_target_pairs"] and prev.taken_extra == 0):
            state = state.closed(prev.taken_extra)
        statics = [self.nop_op(op) if op.info.conditional else op for op in nxt.ops]
        warm = self.schedule(statics, state).end
        return warm - nxt.cycles + extra

    def source_of(self, rule: str) -> str:
        parts = rule.split("+")
        if parts[0] not in self._sources:
            raise ValueError(f"Invalid rule name {rule!r} for {self.core}")
        texts = [f"{parts[0]}: {self._sources[parts[0]]}"]
        tag_sources = {"paired": self.pipe.sources["pairing"],
                       "stall": "operand not ready: class latency/early_latency and [pipeline] accumulator_advance, "
                       f"store_data_advance, load_to_multiply_extra ({self.data.path.name})",
                       "conditional": self.data.rule_sources["skipped_conditional"],
                       "shifted": f"{self.pipe.sources['shifted_register_latency']}; "
                                  f"{self.pipe.sources['shifted_constant_latency']}",
                       "muls16": self.pipe.sources["muls_16bit_cycles"]}
        for tag in parts[1:]:
            if tag not in tag_sources:
                raise ValueError(f"Invalid rule name {rule!r} for {self.core}")
            texts.append(f"{tag}: {tag_sources[tag]}")
        return "\n".join(texts)


__all__ = ["PIPELINE_KEYS", "ClassTiming", "PipelineData", "ScheduledModel", "ScheduledPrice", "parse_pipeline"]
