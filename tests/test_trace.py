"""cortexm_emu.trace: the execution trace a caller asks for (blocks, data accesses, memory outcomes).

It must not change the cycle count, must leave no hook behind, must be deterministic, and its
per-access memory outcomes must add up to the stalls the board's replay charged.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cortexm_emu import Buffer, Machine
from cortexm_emu.flash import board_memory
from cortexm_emu.toolchain import build
from cortexm_emu.trace import TraceOptions, Tracer, trace_call
from refbench.kernels.harness import KernelHarness, call_arguments
from refbench.measure import make_inputs

SOURCE = Path(__file__).parent / "leak_kernels" / "leaks.c"


@pytest.fixture(scope="module")
def machine() -> Machine:
    m = Machine("m4")
    m.load_elf(build([SOURCE], "m4", exports=["leak_index"]).elf)
    return m


def call_args() -> tuple:
    return Buffer(bytes(range(16))), Buffer(bytes(16)), Buffer.zeros(16, "out"), 16


def test_tracing_changes_no_cycle_and_leaves_no_hook(machine: Machine) -> None:
    before = machine.call("leak_index", *call_args())
    with Tracer(machine) as tracer:
        traced = machine.call("leak_index", *call_args())
    blocks, accesses = len(tracer.trace.blocks), len(tracer.trace.accesses)
    after = machine.call("leak_index", *call_args())
    assert before.cycles == traced.cycles == after.cycles
    assert blocks > 0 and accesses > 0
    assert (len(tracer.trace.blocks), len(tracer.trace.accesses)) == (blocks, accesses)  # detached


def test_trace_is_deterministic(machine: Machine) -> None:
    first = trace_call(machine, "leak_index", *call_args()).trace
    second = trace_call(machine, "leak_index", *call_args()).trace
    assert first.blocks == second.blocks
    assert first.accesses == second.accesses


def test_accesses_name_the_instruction_and_the_buffer(machine: Machine) -> None:
    traced = trace_call(machine, "leak_index", *call_args())
    out = traced.result.buffer_addresses[traced.result.buffer_names.index("out")]
    function = machine.image.functions["leak_index"]
    stores = [a for a in traced.trace.accesses if a.write and out <= a.address < out + 16]
    assert sorted(a.address for a in stores) == list(range(out, out + 16))
    assert all(a.size == 1 and function.address <= a.pc < function.address + function.size for a in stores)
    table_reads = traced.trace.addresses_by_pc(writes=False)
    assert any(len(set(addresses)) == 16 for addresses in table_reads.values())  # TABLE[0..15]


def test_successors_follow_the_block_sequence(machine: Machine) -> None:
    trace = trace_call(machine, "leak_index", *call_args()).trace
    following = trace.successors()
    assert sum(map(len, following.values())) == len(trace.blocks) - 1
    assert trace.blocks[0] == machine.image.functions["leak_index"].address


def test_options_are_checked() -> None:
    with pytest.raises(ValueError, match="accesses"):
        TraceOptions(memory=True, accesses=False)


@pytest.mark.parametrize(("board", "start"), [("stm32h753zi", "cold"), ("stm32f756zg", "warm"),
                                              ("stm32l4a6zg", "cold"), ("stm32l4a6zg", "warm")])
def test_memory_outcomes_add_up_to_the_replay(board: str, start: str) -> None:
    """Per flash data read: hit or miss; the misses and their stalls are the replay's own counts."""
    memory = board_memory(board, cache="on", start=start)  # type: ignore[arg-type]
    harness = KernelHarness("aes", "ttable4", memory.board.core, memory=memory)
    op = harness.operation("ecb-encrypt")
    inputs = make_inputs(op, 32)
    ctx = harness.machine.call(op.setup, *call_arguments(op, op.setup_args, inputs, None)).buffer("ctx")
    traced = trace_call(harness.machine, op.function, *call_arguments(op, op.args, inputs, ctx))
    counts, trace = traced.result.memory_counts, traced.trace
    assert len(trace.flash_reads) == counts["flash_data_reads"] > 0
    assert sum(o.outcome == "miss" for o in trace.flash_reads) == counts["dcache_misses"]
    assert sum(o.outcome == "hit" for o in trace.flash_reads) == counts["dcache_hits"]
    assert sum(o.stall_cycles for o in trace.flash_reads) == counts["data_stall_cycles"]
    assert sum(not hit for _line, hit in trace.fetches) == counts["icache_misses"]
    assert trace.dcache_line_bytes == memory.dcache.line_bytes  # type: ignore[union-attr]


def test_no_outcome_without_flash_stalls() -> None:
    memory = board_memory("stm32f407vg", cache="on")  # 24 MHz: 0 wait states
    harness = KernelHarness("aes", "ttable4", "m4", memory=memory)
    op = harness.operation("ecb-encrypt")
    inputs = make_inputs(op, 16)
    ctx = harness.machine.call(op.setup, *call_arguments(op, op.setup_args, inputs, None)).buffer("ctx")
    trace = trace_call(harness.machine, op.function, *call_arguments(op, op.args, inputs, ctx)).trace
    assert trace.flash_reads == [] and trace.fetches == [] and trace.accesses
