"""Cortex-M33 cycle model (cortexm_emu/timing/data/m33.toml + pipeline.py) against hand-written
microbenchmarks (tests/asm/timing_m33/m33.S), end to end through ``Machine("m33")`` and
statically through ``price_block``.

Every expected count is a sum written from the documented rules, with the rule named:
[meas-j] = jnk0le cortex_m33.md (RP2350), [meas-s] = SLOTHY cortex_m33.py (RP2350), [M4] = the
Cortex-M4 rule reused where the M33 is unmeasured. No number here was copied from a run of the
model. A function's count ends with its BX LR: one issue cycle plus the refill (REFILL).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_timing_m7 import ASM, M7_SOURCE, function_names, functions, machine

from cortexm_emu.machine import Buffer
from cortexm_emu.timing import divide_cycles, model_for
from cortexm_emu.timing.data import parse_core_data
from cortexm_emu.timing.pipeline import PIPELINE_KEYS, parse_pipeline

M33_SOURCE = ASM / "timing_m33" / "m33.S"

# Rules of m33.toml (sources there):
REFILL = 2  # [rules] branch_refill: a taken branch's refill [meas-j]; unpaired 1 + 2 = 3 = [meas-s]
REFILL_NO_FLAGS = 1  # [pipeline] taken_refill_paired_no_flags [meas-j]
RET = 1 + REFILL  # BX LR: one issue cycle + refill (indirect_extra 2, [here])

M33_EXPECTED = {
    # single issue: 4 cycles [meas-s]
    "alu_wide": 4 + RET,
    # two 16-bit ALU ops never pair ([meas-j] 'can't dual issue arithmetic+arithmetic')
    "alu_narrow": 4 + RET,
    # ADDS.N + NOP pair | LDR.N + NOP pair | ADD.W | NOP (after a 32-bit op: no pair)
    "nop_pairs": 1 + 1 + 1 + 1 + RET,
    # EOR ROR (latency 2) | stall | ADD | EOR LSL (latency 1, [meas-s]) | ADD
    "shifted_latency": 1 + 1 + 1 + 1 + 1 + RET,
    # EOR shifted constant (latency 2) | stall | ADD | EORS shifted constant: 2 cycles [meas-j]
    "shifted_constant": 1 + 1 + 1 + 2 + RET,
    # LDR | stall (load-to-use 2) | ADD | LDR | stall (load into address, also 2) | LDR | LDR | STR (load-to-store 1)
    "load_use": 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + RET,
    # MUL | stall (latency 2) | ADD | MLA x3 chained on the accumulator, 1 each
    "mul_latency": 1 + 1 + 1 + 3 + RET,
    # MULS.N takes 2 cycles [meas-j]
    "muls_narrow": 2 + RET,
    # LDM 3 regs: 3 | STM 2 regs: 2 | LDRD 2 | STRD 2 (its r3 comes from LDRD's second word:
    # ready 1 + 2 after LDRD issue, minus the store-data advance 1 = at STRD's issue) [meas-j]
    "multiple": 3 + 2 + 2 + 2 + RET,
    # MOVS | SUBS.N + BNE.N pair (taken: +2, flags from the partner) ; SUBS + BNE taken +2 ;
    # SUBS + BNE not taken (0)
    "loop_flags": (1 + 1 + REFILL) + (1 + REFILL) + 1 + RET,
    # MOVS | SUBS | ADD.N (no flags) + BNE.N (taken +1) ; SUBS | ADD + BNE (+1) ; SUBS | ADD + BNE not taken
    "loop_no_flags": (1 + 1 + 1 + REFILL_NO_FLAGS) + (2 + REFILL_NO_FLAGS) + 2 + RET,
    # MOVS | SUBS.W | BNE.N cannot pair with a 32-bit op: 1, taken +2 ; SUBS.W | BNE +2 ; SUBS.W | BNE
    "loop_wide": (1 + 1 + 1 + REFILL) + (2 + REFILL) + 2 + RET,
    # LDA (load, 1) | STL (load-to-store 1: needs r1 one cycle after issue) | UADD8 (load-to-use 2 reached)
    "v8m_ops": 1 + 1 + 1 + RET,
    # literal LDR | stall (load into address) | LDR
    "read_cpuid": 1 + 1 + 1 + RET,
    # three UXTAB chained through Rn, one per cycle ([meas-j] '*xta* ... accumulate dependency can
    # be chained like in multiply accumulates'; the last result's latency 2 is not waited for)
    "xta_chain": 3 + RET,
    # LDR | stall (a load result as *xta* accumulator: 'cannot consume like that', load-to-use 2) | UXTAB
    "xta_after_load": 1 + 1 + 1 + RET,
    # PLD 1 | LDR 1 | stall (load-to-use 2 into the PLD address) | PLD 1 ([M4] rule, UNCONFIRMED)
    "preload_ops": 1 + 1 + 1 + 1 + RET,
}


def it_load_expected(executed: bool) -> int:
    # CMP | IT pairs with it ([meas-j]) | LDR.W predicated out = NOP (32-bit: no pair) | ADD
    # executed: the ADD waits for the load (load-to-use 2): one cycle more
    return 1 + 1 + (1 if executed else 0) + 1 + RET


def test_m33_microbenchmarks_on_the_machine():
    m = machine(M33_SOURCE, "m33")
    for name, expected in M33_EXPECTED.items():
        assert m.call(name, Buffer.zeros(64)).cycles == expected, name


def test_every_m33_function_has_an_expectation():
    assert set(function_names(M33_SOURCE)) == set(M33_EXPECTED) | {"it_load", "divide_ops"}


@pytest.mark.parametrize("executed", [True, False])
def test_m33_predicated_out_load_is_a_nop(executed):
    m = machine(M33_SOURCE, "m33")
    assert m.call("it_load", Buffer.zeros(64), 1 if executed else 0).cycles == it_load_expected(executed)


@pytest.mark.parametrize("dividend, divisor", [(100, 7), (0, 5), (3, 1000), (0xFFFFFFFF, 1)])
def test_m33_divide_uses_the_m4_rule_on_the_machine(dividend, divisor):
    m = machine(M33_SOURCE, "m33")
    table = model_for("m33").data.divide
    assert table == model_for("m4").data.divide
    assert m.call("divide_ops", dividend, divisor).cycles == divide_cycles(dividend, divisor, False, table) + RET


def test_m33_cpuid_and_unicorn_model():
    assert machine(M33_SOURCE, "m33").call("read_cpuid").return_value == 0x410FD214


STRAIGHT = [name for name in M33_EXPECTED if not name.startswith("loop_")]


@pytest.mark.parametrize("name", STRAIGHT)
def test_m33_straight_functions_priced_statically(name):
    model = model_for("m33")
    price = model.price_block(functions(M33_SOURCE, "m33")[name])
    assert price.cycles + price.taken_extra == M33_EXPECTED[name]
    assert sum(cycles for _, cycles, _ in price.per_insn) == price.cycles
    for _, _, rule in price.per_insn:
        assert model.source_of(rule)


def test_m33_taken_branch_refill_depends_on_the_partner():
    model = model_for("m33")
    funcs = functions(M33_SOURCE, "m33")
    flags = model.price_block(funcs["loop_flags"][1:3])  # SUBS.N; BNE.N
    no_flags = model.price_block(funcs["loop_no_flags"][1:4])  # SUBS.N; ADD.N; BNE.N
    wide = model.price_block(funcs["loop_wide"][1:3])  # SUBS.W; BNE.N
    assert (flags.cycles, flags.taken_extra) == (1, REFILL)
    assert (no_flags.cycles, no_flags.taken_extra) == (2, REFILL_NO_FLAGS)
    assert (wide.cycles, wide.taken_extra) == (2, REFILL)


@settings(max_examples=80, deadline=None)
@given(data=st.data())
def test_m33_block_split_invariant(data):
    pool = [
        i
        for name in STRAIGHT + ["it_load"]
        for i in functions(M33_SOURCE, "m33")[name]
        if i.mnemonic != "bx"
    ]
    picks = data.draw(st.lists(st.integers(0, len(pool) - 1), min_size=2, max_size=14))
    insns = [pool[i] for i in picks]
    cut = data.draw(st.integers(1, len(insns) - 1))
    model = model_for("m33")
    whole = model.price_block(insns)
    a, b = model.price_block(insns[:cut]), model.price_block(insns[cut:])
    assert whole.cycles == a.cycles + b.cycles + model.edge_cost(a, b, True)


def test_m33_accepts_v8m_mainline_and_v7em():
    """ARMv8-M Mainline with DSP keeps every ARMv7E-M instruction and adds load-acquire/store-release."""
    model = model_for("m33")
    assert all(model.check(i) is None for i in functions(M33_SOURCE, "m33")["v8m_ops"])
    for name in function_names(M7_SOURCE):  # the whole M7 (ARMv7E-M) microbenchmark set
        for insn in functions(M7_SOURCE, "m7")[name]:
            assert model.check(insn) is None, (name, insn.mnemonic)


def test_m33_pipeline_table_is_complete_and_cited():
    data = parse_core_data(Path(model_for("m33").data.path))
    pipe = parse_pipeline(data)
    assert set(pipe.values) == set(PIPELINE_KEYS)
    assert {"lda", "stl"} <= pipe.accepts_v8m and len(pipe.accepts_v8m_source) > 20
    for entry in data.classes:
        assert any(tag in entry.source for tag in ("[meas-j]", "[meas-s]", "[M4]", "[here]")), entry.name


@pytest.mark.parametrize("core", ["m7", "m33"])
@pytest.mark.parametrize("source", ["v7m.S", "dsp.S"])
def test_accepts_exactly_what_the_m4_accepts(core, source):
    """M7 (ARMv7E-M) and M33 (ARMv8-M Mainline + DSP) lack nothing the M4 has (tests/asm/timing)."""
    m4, model = model_for("m4"), model_for(core)
    for name, insns in functions(ASM / "timing" / source, "m4").items():
        for insn in insns:
            assert (model.check(insn) is None) == (m4.check(insn) is None), (name, insn.mnemonic, insn.op_str)


@pytest.mark.parametrize("core", ["m7", "m33"])
def test_m4_programs_compute_the_same_on_the_m7_and_m33_unicorn_models(core):
    """The Unicorn M7/M33 CPU models (cores.py rows) run the M4 microbenchmarks to the same results."""
    source = ASM / "timing" / "v7m.S"
    reference, other = machine(source, "m4"), machine(source, core)
    for name in function_names(source):
        if name == "cortexm_emu_halt":  # the return trampoline, not a function to call
            continue
        expected = reference.call(name, Buffer.zeros(64))
        got = other.call(name, Buffer.zeros(64))
        assert (got.return_value64, got.buffers) == (expected.return_value64, expected.buffers), name
