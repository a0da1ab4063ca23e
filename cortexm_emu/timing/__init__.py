"""Cycle models of Cortex-M cores for the block-counting emulator.

Interface (the machine codes against it)::

    model = model_for("m4")                       # "m0", "m0plus", "m3", "m4", "m7", "m33"; model_for("m0plus", multiplier="small")
    model.core                                    # "m4"
    model.version                                 # hash of the data file and options (for result caches)
    model.check(insn) -> str | None               # why the core lacks this capstone instruction, or None
    price = model.price_block(insns)              # one Unicorn block, capstone CsInsn list (Thumb|MCLASS, detail on)
    price.cycles, price.taken_extra, price.branch_target, price.dynamic, price.per_insn, price.classes
    model.dynamic_cost(kind, uc) -> int           # at a price.dynamic address, registers read before the insn runs
    model.edge_cost(prev, nxt, fallthrough) -> int  # may be negative (pipelining credit across a block split)
    model.source_of(rule) -> str                  # citation of a rule name from price.per_insn

Total cycles of a run = sum(count(block) * block.cycles) + sum(taken edges: prev.taken_extra)
+ sum(count(edge) * edge_cost) + sum(dynamic_cost at each executed dynamic address).

M7 and M33 are priced by the in-order issue scheduler in ``pipeline.py`` (same interface).

The numbers live in ``data/<core>.toml``, one citation per entry; every approximated rule is
listed in ``APPROXIMATIONS.md`` next to this file.
"""

from .model import CORES, BlockPrice, InsnInfo, TimingModel, divide_cycles
from .registry import model_for

__all__ = [
    "CORES",
    "BlockPrice",
    "InsnInfo",
    "TimingModel",
    "divide_cycles",
    "model_for",
]
