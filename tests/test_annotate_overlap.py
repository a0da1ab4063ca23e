"""Annotation rows sum to the call's cycles when an instruction sits in two overlapping blocks
(issue 32): its operand-dependent cycles and branch mispredictions are counted once, in the
block that ran them."""

from __future__ import annotations

from pathlib import Path

import pytest

from cortexm_emu import Machine
from cortexm_emu.annotate import annotate
from cortexm_emu.toolchain import build

ASM = Path(__file__).parent / "asm" / "machine"


@pytest.mark.parametrize("accounting", ["native", "python"])
@pytest.mark.parametrize("core", ["m3", "m4", "m7", "m33"])
def test_rows_sum_to_the_cycles_with_overlapping_blocks(core, accounting):
    m = Machine(core, accounting=accounting)
    m.load_elf(build([ASM / "overlap.S"], core).elf)
    result = m.call("enter_mid_loop", 9, 0x7FFF_FFFF)
    blocks = annotate(m, result)
    rows_by_address: dict[int, int] = {}
    for block in blocks:
        for row in block.rows:
            rows_by_address[row.address] = rows_by_address.get(row.address, 0) + 1
    assert max(rows_by_address.values()) == 2  # the loop's tail is in two blocks
    assert sum(block.total for block in blocks) == result.cycles
    dynamic_rows = sum(row.dynamic_cycles for block in blocks for row in block.rows)
    assert dynamic_rows == sum(result.dynamic_cycles.values())
    assert sum(result.dynamic_by_block.values()) == sum(result.dynamic_cycles.values())
