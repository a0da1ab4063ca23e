"""A block as the flash fetch unit sees it: the flash line each instruction comes from and the
cycles the core spends on it, which the replay (:mod:`cortexm_emu.flash_replay`) walks.

An instruction outside the flash ranges has line -1 (no flash read); one that crosses a line
boundary needs both lines; consecutive instructions in one line are merged into one step.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from cortexm_emu.address_ranges import Ranges, inside


@dataclass(frozen=True)
class BlockPlan:
    """One block: (flash line index or -1, cycles) per fetch step, and the block's cycles."""

    steps: tuple[tuple[int, int], ...]
    cycles: int


def plan_block(block: Any, flash: Ranges, line_bytes: int) -> BlockPlan:
    """The fetch plan of ``block`` (a priced :class:`cortexm_emu.pricing.Block`) with ``flash``
    read in lines of ``line_bytes``."""
    steps: list[tuple[int, int]] = []
    cycles_at = {address: cycles for address, cycles, _rule in block.price.per_insn}
    for insn in block.insns:
        start, end = insn.address, insn.address + insn.size
        cycles = cycles_at.get(start, 0)
        if not inside(start, flash):
            steps.append((-1, cycles))
            continue
        first, last = start // line_bytes, (end - 1) // line_bytes
        for index in range(first, last):  # an instruction across a line boundary needs both
            steps.append((index, 0))
        steps.append((last, cycles))
    merged: list[tuple[int, int]] = []
    for index, cycles in steps:
        if merged and merged[-1][0] == index:
            merged[-1] = (index, merged[-1][1] + cycles)
        else:
            merged.append((index, cycles))
    return BlockPlan(tuple(merged), block.price.cycles)


@dataclass
class FetchPlans:
    """Fetch plans by block address, kept across calls: a plan is reused while the machine's block
    object and the flash ranges are the same ones."""

    _known: dict[int, tuple[Any, tuple[tuple[int, int], ...], BlockPlan]] = field(default_factory=dict)

    def for_trace(
        self, addresses: Iterable[int], blocks: Mapping[int, Any], flash: Ranges, line_bytes: int
    ) -> dict[int, BlockPlan]:
        """The plan of each block in ``addresses``."""
        ranges = tuple(flash)
        plans: dict[int, BlockPlan] = {}
        for address in set(addresses):
            block = blocks[address]
            known = self._known.get(address)
            if known is None or known[0] is not block or known[1] != ranges:
                known = (block, ranges, plan_block(block, flash, line_bytes))
                self._known[address] = known
            plans[address] = known[2]
        return plans
