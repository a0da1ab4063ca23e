"""Dynamic branch prediction of the Cortex-M7 (the default; ``prediction="static"`` turns it off).

What is documented: the Cortex-M7 TRM (Arm DDI 0489F, §3.2.2 "ACTLR", Table 3-3 "ACTLR bit
assignments") has DISBTACREAD "1: BTAC is not used and only static branch prediction can occur"
and DISBTACALLOC (no new BTAC entries), both 0 at reset: out of reset branches are predicted from
a branch target address cache trained by the branches that executed, and a static predictor covers
the others. jnk0le's measurements (cortex_m7.md, STM32H743) give the misprediction cost (8 cycles,
6 with early flags) and say a predicted branch "of any direction and length" costs no refill. The
size of the BTAC, its replacement and its history scheme are not published.

The model, with each undocumented part chosen and stated ([here], UNCONFIRMED):

* every conditional direct branch (B<cc>, CBZ, CBNZ) has its own entry: no capacity or aliasing
  limit (the documented bound: a kernel's few branches fit any cache of the sizes Arm uses);
* an entry is a two-bit saturating counter, the textbook direction predictor; it starts weakly
  in the static rule's direction (backward taken, forward not taken: what is predicted before
  the BTAC knows the branch);
* a prediction that differs from the outcome costs the block's misprediction (8 or 6 cycles),
  charged when the branch executes; a correct one costs nothing beyond its issue slot.

How it runs without a per-instruction hook: the outcome of a block's final conditional branch is
known from the edge the accounting counts (previous block -> next block: taken unless the next
block is the fall-through). The pricing attaches the branch to each such edge
(:func:`encode_branch`), and the accounting (``blockcount.c`` in C, or
``PythonAccounting``) keeps one counter per branch address, cleared at the start of every call,
and adds the misprediction as the edge is counted (:func:`step`). A call's count therefore does
not depend on the calls before it, and the same call gives the same count every time.
"""

from __future__ import annotations

#: encode_branch layout (the same as CME_BRANCH_* in blockcount.c)
_VALID = 1 << 47
_TAKEN = 1 << 40


def initial_counter(backward: bool) -> int:
    """The two-bit counter before a branch first executes: weakly taken (2) if backward, else
    weakly not taken (1): the static rule's direction."""
    return 2 if backward else 1


def encode_branch(address: int, mispredict: int, taken: bool, backward: bool) -> int:
    """The branch an edge carries for the accounting (0 is "none")."""
    if not 0 <= mispredict <= 0xFF:
        raise ValueError(f"Invalid misprediction cost {mispredict}; accepted: 0..255 cycles")
    if not 0 <= address <= 0xFFFF_FFFF:
        raise ValueError(f"Invalid branch address {address:#x}; accepted: a 32-bit address")
    return (
        _VALID
        | (initial_counter(backward) << 41)
        | (_TAKEN if taken else 0)
        | (mispredict << 32)
        | address
    )


def decode_branch(code: int) -> tuple[int, int, bool, int] | None:
    """(address, misprediction cycles, taken, initial counter) of :func:`encode_branch`'s
    value, or None for 0 (no predicted branch)."""
    if not code & _VALID:
        return None
    return code & 0xFFFF_FFFF, (code >> 32) & 0xFF, bool(code & _TAKEN), (code >> 41) & 3


def step(counter: int, taken: bool) -> tuple[int, bool]:
    """One execution of a branch: (the counter after it, whether it was mispredicted)."""
    mispredicted = (counter >= 2) != taken
    counter = min(counter + 1, 3) if taken else max(counter - 1, 0)
    return counter, mispredicted
