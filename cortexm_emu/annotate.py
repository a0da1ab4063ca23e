"""Per-instruction attribution of a call's cycles (``cortexm-emu annotate``).

Every cycle of ``CallResult.cycles`` lands on exactly one row:

* each instruction: executions x its static cycles (the timing model's
  ``per_insn`` entry, with the rule that priced it) + its operand-dependent
  extra cycles (divides, M3 long multiplies);
* the final instruction of a block: + taken_extra each time it branched
  (always-branching instructions: every time; the function's own return included);
* the first instruction of a block: + the pipeline carry-over of the edges
  into it (``edge_cost``, e.g. load pipelining across a block split) and
  memory-system extras (0 with ideal memory).

An instruction that sits in two overlapping blocks (a branch into the middle of a block starts
a second Unicorn block ending at the same place) has a row in each, each with that block's
executions and the operand-dependent cycles of those executions only
(``CallResult.dynamic_by_block``).

Blocks are listed hottest first (most cycles).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cortexm_emu.call import CallResult
from cortexm_emu.machine import Machine


@dataclass
class InsnRow:
    address: int
    location: str
    text: str
    count: int
    cycles_each: int
    rule: str
    source: str
    taken: int = 0  # branches taken (final instruction)
    taken_cycles: int = 0
    carry_cycles: int = 0  # edge carry-over and memory extras (first instruction)
    dynamic_cycles: int = 0

    @property
    def total(self) -> int:
        return (
            self.count * self.cycles_each
            + self.taken_cycles
            + self.carry_cycles
            + self.dynamic_cycles
        )

    def as_json(self) -> dict[str, Any]:
        return {
            "address": self.address,
            "location": self.location,
            "instruction": self.text,
            "count": self.count,
            "cycles_each": self.cycles_each,
            "taken": self.taken,
            "taken_cycles": self.taken_cycles,
            "carry_cycles": self.carry_cycles,
            "dynamic_cycles": self.dynamic_cycles,
            "total_cycles": self.total,
            "rule": self.rule,
            "source": self.source,
        }


@dataclass
class BlockRows:
    address: int
    location: str
    count: int
    rows: list[InsnRow] = field(default_factory=list)

    @property
    def total(self) -> int:
        return sum(row.total for row in self.rows)


def _source(timing: Any, rule: str) -> str:
    lookup = getattr(timing, "source_of", None)
    if lookup is None:
        return ""
    try:
        return str(lookup(rule))
    except (KeyError, ValueError):
        return ""


def annotate(machine: Machine, result: CallResult) -> list[BlockRows]:
    """Rows for every executed block of ``result`` (hottest first); totals sum to ``result.cycles``."""
    taken: dict[int, tuple[int, int]] = {}
    carry: dict[int, int] = {}
    for (prev, cur), count in result.edge_counts.items():
        info = machine.edge(prev, cur)
        block = machine.block(cur)
        carry[cur] = carry.get(cur, 0) + count * (info.edge_cost + block.memory_extra)
        if prev is not None and info.taken:
            n, cycles = taken.get(prev, (0, 0))
            taken[prev] = (n + count, cycles + count * info.taken_extra)
    exit_block = machine.block(result.exit_block)
    n, cycles = taken.get(exit_block.address, (0, 0))
    taken[exit_block.address] = (n + 1, cycles + exit_block.price.taken_extra)
    blocks: list[BlockRows] = []
    for address, count in result.block_counts.items():
        block = machine.block(address)
        rows = BlockRows(address, machine.describe(address), count)
        per_insn = {a: (c, rule) for a, c, rule in block.price.per_insn}
        for index, insn in enumerate(block.insns):
            cycles_each, rule = per_insn.get(insn.address, (0, ""))
            row = InsnRow(
                address=insn.address,
                location=machine.describe(insn.address),
                text=f"{insn.mnemonic} {insn.op_str}".strip(),
                count=count,
                cycles_each=cycles_each,
                rule=rule,
                source=_source(machine.timing, rule) if rule else "",
                dynamic_cycles=result.dynamic_by_block.get((address, insn.address), 0),
            )
            if index == 0:
                row.carry_cycles = carry.get(address, 0)
            if index == len(block.insns) - 1:
                row.taken, row.taken_cycles = taken.get(address, (0, 0))
            rows.rows.append(row)
        blocks.append(rows)
    blocks.sort(key=lambda b: (-b.total, b.address))
    return blocks


def render_text(
    machine: Machine, result: CallResult, blocks: list[BlockRows], top: int | None = None
) -> str:
    lines = [
        (
            f"{result.function} on {machine.info.title} ({result.memory} memory): {result.cycles} cycles, "
            f"{result.instructions} instructions; counted from the first instruction to the function's own "
            "return included (not the caller's BL)"
        ),
        (
            "columns: address  location  executions  cycles/exec  total  rule  instruction  (+taken: extra "
            "cycles of taken branches; +carry: pipeline carry-over into the block; +dyn: operand-dependent)"
        ),
    ]
    shown = blocks if top is None else blocks[:top]
    for block in shown:
        share = 100.0 * block.total / result.cycles if result.cycles else 0.0
        lines.append("")
        lines.append(
            f"block 0x{block.address:08x} {block.location}: executed {block.count}x, {block.total} cycles ({share:.1f} %)"
        )
        for row in block.rows:
            extras = []
            if row.taken_cycles:
                extras.append(f"+taken {row.taken}x={row.taken_cycles}")
            if row.carry_cycles:
                extras.append(f"+carry {row.carry_cycles}")
            if row.dynamic_cycles:
                extras.append(f"+dyn {row.dynamic_cycles}")
            extra = (" " + " ".join(extras)) if extras else ""
            lines.append(
                f"  0x{row.address:08x}  {row.location:<24} {row.count:>9} {row.cycles_each:>4} {row.total:>10}  "
                f"{row.rule:<22} {row.text}{extra}"
            )
    if top is not None and len(blocks) > top:
        rest = sum(b.total for b in blocks[top:])
        lines.append("")
        lines.append(f"... {len(blocks) - top} more blocks, {rest} cycles")
    return "\n".join(lines)


def as_json(machine: Machine, result: CallResult, blocks: list[BlockRows]) -> dict[str, Any]:
    return {
        "function": result.function,
        "core": result.core,
        "cycles": result.cycles,
        "instructions": result.instructions,
        "blocks": [
            {
                "address": b.address,
                "location": b.location,
                "count": b.count,
                "total_cycles": b.total,
                "instructions": [row.as_json() for row in b.rows],
            }
            for b in blocks
        ],
    }
