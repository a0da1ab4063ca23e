"""The same microbenchmarks end to end: cortexm_emu.Machine runs them and must report the cycles
the manuals give. Expected values are the sums derived (with their table rows) in
tests/test_timing.py; here each is restated as its sum with the rule names. These runs also
cover what static pricing cannot: Unicorn's own block splits (edge_cost), the branch actually
taken, and the operand-dependent costs read from the registers (dynamic_cost).
"""

from __future__ import annotations

import math

import pytest
from test_timing import P_LOADED_PC, V6M, P, elf_for

from cortexm_emu.machine import Buffer, Machine
from cortexm_emu.timing import model_for


def machine(core: str, source: str, elf_core: str | None = None, **options: str) -> Machine:
    m = Machine(core, timing=model_for(core, **options)) if options else Machine(core)
    m.load_elf(elf_for(source, elf_core or core))
    return m


# ---------------------------------------------------------------------------- ARMv6-M


def v6m_expected(t: dict[str, int]) -> dict[str, int]:
    """Table 3.1 sums for the v6m.S functions (t: the core's branch/system costs)."""
    return {
        "alu_run": 8 * 1 + t["bx"],
        "load_run": 4 * 2 + t["bx"],
        "store_run": 1 + 4 * 2 + t["bx"],
        "ldm_stm": (1 + 3) + (1 + 2) + t["bx"],
        "push_pop": (1 + 5) + (t["pop_pc_base"] + 5),
        "mul_run": 1 + 4 * 1 + t["bx"],
        # MOVS; 4 x SUBS; 3 x BNE taken; BNE not taken 1; BX LR
        "branch_loop": 1 + 4 * 1 + 3 * t["b_taken"] + 1 + t["bx"],
        "uncond_branch": 1 + t["b_taken"] + t["bx"],
        # PUSH 1+2; BL; leaf ADDS 1 + BX LR; POP {r4, pc}
        "call_leaf": (1 + 2) + t["bl"] + 1 + t["bx"] + (t["pop_pc_base"] + 2),
        "system_run": t["mrs"] + 3 * t["barrier"] + t["bx"],
        "literal_load": 2 * 2 + t["bx"],
    }


@pytest.mark.parametrize("core", ["m0plus", "m0"])
def test_v6m_microbenchmarks_on_the_machine(core):
    m = machine(core, "v6m.S")
    for name, expected in v6m_expected(V6M[core]).items():
        assert m.call(name, Buffer.zeros(64)).cycles == expected, name


@pytest.mark.parametrize("core", ["m0plus", "m0"])
def test_v6m_small_multiplier_on_the_machine(core):
    m = machine(core, "v6m.S", multiplier="small")
    # MOVS 1, 4 x MULS at the small multiplier's 32 (Table 3.1 "1 or 32"), BX LR
    assert m.call("mul_run", 3).cycles == 1 + 4 * 32 + V6M[core]["bx"]


@pytest.mark.parametrize("core", ["m0plus", "m0"])
def test_v6m_machine_faults_on_thumb2(core):
    from cortexm_emu.errors import IllegalInstruction

    m = machine(core, "v7m.S", elf_core="m4")
    with pytest.raises(IllegalInstruction, match="ARMv6-M"):
        m.call("cbz_skip", 0)


# ---------------------------------------------------------------------------- ARMv7-M


def v7m_expected(core: str) -> dict[str, int]:
    """Table 3-1 / 3.3.2 sums for the v7m.S functions (see tests/test_timing.py for each row)."""
    bx = 1 + P
    mla = 1 if core == "m4" else 2
    second_writeback = 1 if core == "m4" else 2
    return {
        "alu_run": 8 * 1 + bx,
        # pipelined loads; the 4th (LDRH.W r12) is 32-bit on an odd halfword: not pipelined
        "load_run": 2 + 1 + 1 + 2 + bx,
        "load_dependent": 2 + 2 + 1 + bx,  # no pipelining into a dependent address
        "load_store_mix": 1 + 2 + 1 + 2 + 1 + 2 + bx,  # the store after a load: no store-then-load
        "address_interlock": 1 + (2 + 1) + 1 + bx,
        "store_imm_run": 4 * 1 + bx,
        "store_writeback": 2 + (1 if core == "m4" else 2) + (1 + 1) + bx,
        "ldrd_strd": 2 + 3 + 3 + bx,
        "ldm_stm": (1 + 4) + (1 + 2) + bx,
        "push_pop": (1 + 5) + (1 + 5 + P_LOADED_PC),
        "writeback_same_base": 2 + 2 + bx,
        "writeback_two_bases": 1 + 2 + second_writeback + bx,
        "literal_load": 2 + 1 + bx,
        "branch_loop": 1 + 4 * 1 + 3 * (1 + P) + 1 + bx,
        "wide_target_loop": 1 + 4 * 1 + 3 * (1 + P + 1) + 1 + bx,
        "call_leaf": (1 + 2) + (1 + P) + 1 + (1 + P) + (1 + 2 + P_LOADED_PC),
        "wide_load_alignment": 2 + 1 + 1 + 2 + 1 + bx,
        "store_then_load": 1 + 1 + (2 + 1) + 1 + 2 + bx,
        "pop_pc_return": (1 + 1) + (1 + 1 + P_LOADED_PC),
        "ldr_pc_return": (1 + 1) + (2 + P_LOADED_PC),
        "mul_run": 1 + 1 + 1 + mla + mla + bx,
        "it_select": 1 + 0 + 1 + 1 + 1 + bx,  # folded ITE, one MOV skipped (1)
        "it_unfolded": 1 + 1 + 1 + bx,
        "system_run": 1 + 1 + 1 + (1 + P) + bx,
        "long_straight": 8 * (4 * 1 + 2 + 1 + 4 * 1) + bx,
        "page_straddle": 2 + 7 * 1 + bx,  # 8 pipelined loads, split by Unicorn at the page boundary
        # [rules] eats_following_nop: see test_timing.py for the sum
        "nop_after_memory": 2 + 0 + 2 + 1 + 0 + 1 + 3 + 0 + 2 + 1 + 2 + 1 + 1 + 1 + bx,
        "it_load_then_nop": 1 + 0 + 1 + 1 + bx,  # r0 != r1: LDREQ skipped, the NOP not eaten
        "nop_page_straddle": 1 + 2 + 0 + bx,
    }


@pytest.mark.parametrize("core", ["m3", "m4"])
def test_v7m_microbenchmarks_on_the_machine(core):
    m = machine(core, "v7m.S")
    for name, expected in v7m_expected(core).items():
        assert m.call(name, Buffer.zeros(64), 0).cycles == expected, name


@pytest.mark.parametrize("core", ["m3", "m4"])
def test_pipelining_survives_unicorns_block_split(core):
    m = machine(core, "v7m.S")
    result = m.call("page_straddle", Buffer.zeros(64))
    blocks = sorted(result.block_counts)
    assert len(blocks) == 2, "Unicorn did not split the block at the page boundary"
    # the edge gives back the pipelined cycle of the first load of the second block
    assert m.edge(blocks[0], blocks[1]).edge_cost == -1
    assert result.cycles == 2 + 7 * 1 + (1 + P)


@pytest.mark.parametrize("core", ["m3", "m4", "m7", "m33", "m4f", "m7f", "m33f"])
def test_every_preload_form_runs_on_every_core_with_pld(core):
    """The issue's AES-CTR with PLD was refused on the M7: every PLD/PLI form now has a class
    (class preload of each data file, with its source) on every ARMv7-M/ARMv8-M core."""
    m = machine(core, "v7m.S", elf_core=core.removesuffix("f"))
    result = m.call("preload_forms", Buffer.zeros(256), 4)
    assert result.classes["preload"] == 7
    model = m.timing
    block = m.block(m.image.functions["preload_forms"].address)
    assert all("preload" in rule for _, _, rule in block.price.per_insn[:7])
    assert model.source_of("preload")


@pytest.mark.parametrize("core", ["m3", "m4"])
def test_nop_eaten_across_unicorns_block_split(core):
    m = machine(core, "v7m.S")
    result = m.call("nop_page_straddle", Buffer.zeros(64))
    blocks = sorted(result.block_counts)
    assert len(blocks) == 2, "Unicorn did not split the block at the page boundary"
    # the NOP opens the second block (priced 1 cold); the edge from the LDR hides it ([rules] eats_following_nop)
    assert m.edge(blocks[0], blocks[1]).edge_cost == -1
    assert result.cycles == 1 + 2 + 0 + (1 + P)


@pytest.mark.parametrize("core", ["m3", "m4"])
def test_cbz_both_ways_on_the_machine(core):
    m = machine(core, "v7m.S")
    # taken (r0 == 0): MOVS 1 + CBZ 1+P + BX LR 1+P; not taken: MOVS, CBZ, MOVS 1 each + BX LR 1+P
    assert m.call("cbz_skip", 0).cycles == 1 + (1 + P) + (1 + P)
    assert m.call("cbz_skip", 7).cycles == 1 + 1 + 1 + (1 + P)


@pytest.mark.parametrize("core", ["m3", "m4"])
def test_it_block_skipped_loads_on_the_machine(core):
    m = machine(core, "v7m.S")
    # CMP 1, ITT folded 0, BX LR 1+P; loads executed (r1 == 0): 2 + 1 (pipelined); skipped: 1 + 1
    assert m.call("it_loads", Buffer.zeros(64), 0).cycles == 1 + 0 + 2 + 1 + (1 + P)
    assert m.call("it_loads", Buffer.zeros(64), 1).cycles == 1 + 0 + 1 + 1 + (1 + P)


@pytest.mark.parametrize("core", ["m3", "m4"])
def test_skipped_load_gives_no_pipelining_credit_on_the_machine(core):
    m = machine(core, "v7m.S")
    # CMP 1, IT folded 0, BX LR 1+P. r1 == 0: LDREQ 2, LDR pipelined after it 1 (3.3.2);
    # r1 != 0: LDREQ skipped 1 ([rules] skipped_conditional, no bus transfer), LDR not pipelined 2
    assert m.call("it_load_then_load", Buffer.zeros(64), 0).cycles == 1 + 0 + 2 + 1 + (1 + P)
    assert m.call("it_load_then_load", Buffer.zeros(64), 1).cycles == 1 + 0 + 1 + 2 + (1 + P)


@pytest.mark.parametrize("core", ["m3", "m4"])
def test_skipped_add_causes_no_address_interlock_on_the_machine(core):
    m = machine(core, "v7m.S")
    # r1 == 0: ADDEQ 1, LDR 2 + 1 (3.3.2 address interlock); r1 != 0: ADDEQ skipped 1, LDR 2
    assert m.call("it_add_then_load", Buffer.zeros(64), 0).cycles == 1 + 0 + 1 + (2 + 1) + (1 + P)
    assert m.call("it_add_then_load", Buffer.zeros(64), 1).cycles == 1 + 0 + 1 + 2 + (1 + P)


@pytest.mark.parametrize(
    ("name", "operands", "multiply"),
    [
        # UMULL/SMULL 3..5 (footnote a "MULL versions take three to five cycles"), +1 per
        # operand with ABS >= 64K (earlier M3 TRM "ABS(inputs) < 64K terminates early")
        ("umull_ops", (100, 200), 3),
        ("umull_ops", (0x12345678, 0x9ABCDEF0), 3 + 2),
        ("smull_ops", (-5, 7), 3),
        ("smull_ops", (-70000, 7), 3 + 1),
        ("smull_ops", (-70000, 70000), 3 + 2),
    ],
)
def test_m3_long_multiply_operands_on_the_machine(name, operands, multiply):
    m = machine("m3", "v7m.S")
    # multiply + MOV, MOV + BX LR
    assert m.call(name, *operands).cycles == multiply + 1 + 1 + (1 + P)


@pytest.mark.parametrize(
    ("operands", "multiply"),
    [((100, 200), 4), ((0x10000, 200), 4 + 1), ((0x10000, 0x20000), 4 + 2)],  # UMLAL 4..6
)
def test_m3_umlal_operands_on_the_machine(operands, multiply):
    m = machine("m3", "v7m.S")
    # MOVS, MOVS; UMLAL; MOV, MOV; BX LR
    result = m.call("umlal_ops", *operands)
    assert result.cycles == 1 + 1 + multiply + 1 + 1 + (1 + P)
    assert result.return_value64 == 7 + operands[0] * operands[1]


def test_m4_long_multiplies_ignore_operands_on_the_machine():
    m = machine("m4", "v7m.S")
    for operands in ((3, 5), (0xFFFFFFFF, 0xFFFFFFFF)):
        # UMULL "1" (DDI 0439D Table 3-1), MOV, MOV, BX LR
        assert m.call("umull_ops", *operands).cycles == 1 + 1 + 1 + (1 + P)


@pytest.mark.parametrize(
    ("name", "dividend", "divisor", "divide"),
    [
        ("udiv_ops", 0, 5, 2),
        ("udiv_ops", 3, 100, 3),
        ("udiv_ops", 100, 3, 3 + math.ceil(6 / 4)),
        ("udiv_ops", 0xFFFFFFFF, 1, 3 + math.ceil(32 / 4)),
        ("sdiv_ops", -100, 3, 3 + math.ceil(6 / 4)),
    ],
)
@pytest.mark.parametrize("core", ["m3", "m4"])
def test_divide_operands_on_the_machine(core, name, dividend, divisor, divide):
    m = machine(core, "v7m.S")
    result = m.call(name, dividend, divisor)
    assert result.cycles == divide + (1 + P)  # the [divide] approximation + BX LR
    if divisor:
        assert result.return_value == int(dividend / divisor) & 0xFFFFFFFF


def test_m4_dsp_on_the_machine_and_rejected_on_m3():
    from cortexm_emu.errors import IllegalInstruction

    m4 = machine("m4", "dsp.S")
    # 10 DSP instructions at "1" (DDI 0439D Table 3-2) + BX LR
    assert m4.call("dsp_run", 0x01020304, 0x05060708).cycles == 10 * 1 + (1 + P)
    m3 = machine("m3", "dsp.S", elf_core="m4")
    with pytest.raises(IllegalInstruction, match="DSP"):
        m3.call("dsp_run", 1, 2)


@pytest.mark.parametrize("core", ["m0", "m0plus", "m3", "m4"])
def test_same_call_twice_same_cycles(core):
    m = machine(core, "v6m.S")
    first = m.call("branch_loop").cycles
    assert m.call("branch_loop").cycles == first
