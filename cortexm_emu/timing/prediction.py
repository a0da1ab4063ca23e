"""Dynamic branch prediction of the Cortex-M7 (``model_for("m7", prediction="dynamic")``).

What is documented: the Cortex-M7 TRM (Arm DDI 0489F, Table 3-3 "ACTLR bit assignments") has
DISBTACREAD "1: BTAC is not used and only static branch prediction can occur" and DISBTACALLOC
(no new BTAC entries), both 0 at reset: by default branches are predicted from a branch target
address cache trained by the branches that executed, and a static predictor covers the others.
jnk0le's measurements (cortex_m7.md, STM32H743) give the misprediction cost (8 cycles, 6 with early
flags) and say a predicted branch "of any direction and length" costs no refill. The size of the
BTAC, its replacement and its history scheme are not published.

The model, with each undocumented part chosen and stated ([here], UNCONFIRMED):

* every conditional direct branch (B<cc>, CBZ, CBNZ) has its own entry: no capacity or aliasing
  limit (the documented bound: a kernel's few branches fit any cache of the sizes Arm uses);
* an entry is a two-bit saturating counter, the textbook direction predictor; it starts weakly
  in the static rule's direction (backward taken, forward not taken: what is predicted before
  the BTAC knows the branch);
* a prediction that differs from the outcome costs the block's misprediction (8 or 6 cycles),
  charged when the branch executes; a correct one costs nothing beyond its issue slot.

The state lives per Unicorn engine and must be cleared at the start of each call
(:meth:`BranchPredictor.start_call`) so that a call's count does not depend on earlier calls.
"""

from __future__ import annotations

import weakref
from typing import Any

from unicorn import arm_const as uc_arm

#: Capstone ARM condition codes (ARM_CC_EQ = 1 ... ARM_CC_LE = 14) -> test on N, Z, C, V.
_CONDITIONS = {
    1: lambda n, z, c, v: z,  # EQ
    2: lambda n, z, c, v: not z,  # NE
    3: lambda n, z, c, v: c,  # HS
    4: lambda n, z, c, v: not c,  # LO
    5: lambda n, z, c, v: n,  # MI
    6: lambda n, z, c, v: not n,  # PL
    7: lambda n, z, c, v: v,  # VS
    8: lambda n, z, c, v: not v,  # VC
    9: lambda n, z, c, v: c and not z,  # HI
    10: lambda n, z, c, v: not c or z,  # LS
    11: lambda n, z, c, v: n == v,  # GE
    12: lambda n, z, c, v: n != v,  # LT
    13: lambda n, z, c, v: not z and n == v,  # GT
    14: lambda n, z, c, v: z or n != v,  # LE
}


def branch_kind(address: int, mispredict: int, condition: int | None, register: int | None,
                nonzero: bool, backward: bool) -> str:
    """The dynamic kind string of one conditional branch (see :func:`parse_branch_kind`)."""
    if register is not None:
        test = f"{'cbnz' if nonzero else 'cbz'}:{register}"
    else:
        test = f"cc:{condition}"
    return f"bpred {address:#x} {mispredict} {test} {int(backward)}"


def parse_branch_kind(kind: str) -> tuple[int, int, str, int, bool]:
    """(address, mispredict cycles, test, operand, backward) of a ``bpred`` kind; ValueError if malformed."""
    parts = kind.split()
    try:
        op, address, mispredict, test, backward = parts
        name, operand = test.split(":")
        if op != "bpred" or name not in ("cc", "cbz", "cbnz") or backward not in ("0", "1"):
            raise ValueError
        return int(address, 0), int(mispredict), name, int(operand), backward == "1"
    except ValueError:
        raise ValueError(
            f"Invalid dynamic kind {kind!r}; accepted: 'bpred ADDRESS CYCLES cc:N|cbz:REG|cbnz:REG 0|1'"
        ) from None


def taken(uc: Any, test: str, operand: int) -> bool:
    """Whether the branch will be taken, from the registers just before it executes."""
    if test == "cc":
        flags = uc.reg_read(uc_arm.UC_ARM_REG_XPSR) >> 28
        n, z, c, v = bool(flags & 8), bool(flags & 4), bool(flags & 2), bool(flags & 1)
        return bool(_CONDITIONS[operand](n, z, c, v))
    value = uc.reg_read(operand)
    return value != 0 if test == "cbnz" else value == 0


class BranchPredictor:
    """Two-bit counters per branch address, one table per Unicorn engine (see the module doc)."""

    def __init__(self) -> None:
        self._tables: weakref.WeakKeyDictionary[Any, dict[int, int]] = weakref.WeakKeyDictionary()

    def start_call(self, uc: Any) -> None:
        """Forget every branch's history for ``uc`` (call at the start of each measured call)."""
        self._tables[uc] = {}

    def started(self, uc: Any) -> bool:
        return uc in self._tables

    def cost(self, uc: Any, kind: str) -> int:
        """Cycles of one execution of the branch described by ``kind``: 0 or its misprediction."""
        address, mispredict, test, operand, backward = parse_branch_kind(kind)
        table = self._tables.get(uc)
        if table is None:
            raise ValueError(
                "dynamic branch prediction needs start_call(uc) at the start of each call "
                "(Machine.call must call timing.start_call)"
            )
        outcome = taken(uc, test, operand)
        counter = table.get(address, 2 if backward else 1)
        table[address] = min(counter + 1, 3) if outcome else max(counter - 1, 0)
        return 0 if (counter >= 2) == outcome else mispredict
