"""The flash-fetch rules of a core's timing model (model option ``fetch="flash"``): costs that come
from fetching the code from a board's flash rather than from zero-wait-state memory, stated in the
core's data file (``[rules] unaligned_wide_group_*``, ``literal_load_extra``; only the M4 has them)
and applied by :meth:`cortexm_emu.timing.model.TimingModel.price_block` to each block.
APPROXIMATIONS.md 52 and 53 say where each number comes from and what is left out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any


def flash_fetch_cycles(rules: Mapping[str, int | bool], infos: Sequence[Any],
                       per_insn: list[tuple[int, int, str]]) -> int:
    """Cycles the flash-fetch rules add to one block; ``per_insn`` (address, cycles, rule) is
    updated in place, each charged instruction's rule name tagged with the rule that charged it."""
    return _wide_groups(rules, infos, per_insn) + _literal_loads(rules, infos, per_insn)


def _charge(per_insn: list[tuple[int, int, str]], index: int, extra: int, tag: str) -> None:
    address, cost, rule = per_insn[index]
    per_insn[index] = (address, cost + extra, f"{rule}+{tag}")


def _wide_groups(rules: Mapping[str, int | bool], infos: Sequence[Any],
                 per_insn: list[tuple[int, int, str]]) -> int:
    """A run of consecutive 32-bit instructions on odd halfwords ("unaligned wide") of at least
    ``unaligned_wide_group_min`` instructions (``unaligned_wide_store_group_min`` when all are
    stores) costs ``unaligned_wide_group_extra`` once, charged to the instruction that completes
    the run. Runs are counted within one block (a run a block edge splits is not charged)."""
    if "unaligned_wide_group_extra" not in rules:
        return 0
    shortest = int(rules["unaligned_wide_group_min"])
    shortest_stores = int(rules["unaligned_wide_store_group_min"])
    extra = int(rules["unaligned_wide_group_extra"])
    added = 0
    run: list[int] = []
    for index in [*range(len(infos)), None]:
        info = infos[index] if index is not None else None
        if info is not None and info.size == 4 and info.address % 4 == 2:
            run.append(index)
            continue
        if run:
            need = shortest_stores if all(infos[i].cls.role == "store" for i in run) else shortest
            if len(run) >= need:
                _charge(per_insn, run[need - 1], extra, "unaligned-wide-group")
                added += extra
            run = []
    return added


def _literal_loads(rules: Mapping[str, int | bool], infos: Sequence[Any],
                   per_insn: list[tuple[int, int, str]]) -> int:
    """A PC-relative (literal) load costs ``literal_load_extra`` more: its data read and the
    instruction fetch both go to the flash, where the data read wins."""
    extra = int(rules.get("literal_load_extra", 0))
    added = 0
    for index, info in enumerate(infos):
        if extra and info.cls.role == "load" and "pc" in info.addr_regs:
            _charge(per_insn, index, extra, "literal-fetch-contention")
            added += extra
    return added
