"""Cycle models against hand-written microbenchmarks (tests/asm/timing/*.S), priced statically.

Every expected count is written as the sum the manuals give, with the table row cited:
M0+ = ARM DDI 0484C Table 3.1, M0 = ARM DDI 0432C Table 3.1, M3 = ARM 100165_0201 Table 3-1
and 3.3.2, M4 = ARM DDI 0439D Table 3-1, Table 3-2 and 3.3.2. Where a rule is not documented,
the comment names the data entry (cortexm_emu/timing/data/<core>.toml) that chose it. No number
here was copied from a run of the model.

Each function is decoded from the assembled ELF (pyelftools + capstone) and cut into blocks the
way Unicorn executes it (a block ends at an instruction that can branch); ``path_cycles`` then
adds the blocks of one execution path like the machine does.
"""

from __future__ import annotations

import itertools
import math
from functools import cache
from pathlib import Path

import capstone
import pytest
from elftools.elf.elffile import ELFFile
from hypothesis import given, settings
from hypothesis import strategies as st
from unicorn import UC_ARCH_ARM, UC_MODE_THUMB, Uc
from unicorn import arm_const as uc_arm

from cortexm_emu.timing import BlockPrice, divide_cycles, model_for
from cortexm_emu.toolchain import build

ASM = Path(__file__).resolve().parent / "asm" / "timing"

# M3/M4 pipeline refill P chosen in m3.toml/m4.toml [rules] branch_refill: the best case of the
# TRM's "1 to 3" (100165_0201 / DDI 0439D 3.3.1), plus 1 for a 32-bit target on an odd halfword.
P = 1
# P when the PC is loaded from memory (LDR PC, POP/LDM {.., PC}): 3.3.2 "LDR PC,[any] is always a
# blocking operation. This means at least two cycles for the load, and three cycles for the
# pipeline reload" (DDI 0439D / 100165_0201).
P_LOADED_PC = 3

# ARMv6-M branch and system costs, straight from the two Table 3.1s.
V6M = {
    # DDI 0484C Table 3.1: B taken 2, BL 3, BX 2, POP {..,PC} 3+N, DMB/DSB/ISB 3, MRS 3
    "m0plus": {"b_taken": 2, "bl": 3, "bx": 2, "pop_pc_base": 3, "barrier": 3, "mrs": 3},
    # DDI 0432C Table 3.1: B taken 3, BL 4, BX 3, POP {..,PC} 4+N, DMB/DSB/ISB 4, MRS 4
    "m0": {"b_taken": 3, "bl": 4, "bx": 3, "pop_pc_base": 4, "barrier": 4, "mrs": 4},
}


def elf_for(source: str, core: str) -> Path:
    # The explicit entry works around zig's default "--entry _start", which with --gc-sections
    # would otherwise drop every section (reported to the coordinator).
    return build([ASM / source], core, opt="Os", extra_flags=["-Wl,--entry=cortexm_emu_halt"]).elf


@cache
def functions(source: str, core: str) -> dict[str, list]:
    """name -> capstone instructions of that function (from the symbol's address and size)."""
    with open(elf_for(source, core), "rb") as handle:
        elf = ELFFile(handle)
        text = elf.get_section_by_name(".text")
        code, base = text.data(), text["sh_addr"]
        symbols = [
            s for s in elf.get_section_by_name(".symtab").iter_symbols() if s["st_info"]["type"] == "STT_FUNC"
        ]
        md = capstone.Cs(capstone.CS_ARCH_ARM, capstone.CS_MODE_THUMB | capstone.CS_MODE_MCLASS)
        md.detail = True
        result = {}
        for sym in symbols:
            start = (sym["st_value"] & ~1) - base
            result[sym.name] = list(md.disasm(code[start : start + sym["st_size"]], base + start))
    return result


def blocks_of(model, insns) -> list[list]:
    """Cut a function into consecutive blocks, each ending after an instruction that can branch."""
    blocks: list[list] = []
    current: list = []
    for insn in insns:
        current.append(insn)
        if model.info(insn).branches:
            blocks.append(current)
            current = []
    if current:
        blocks.append(current)
    return blocks


def block_at(model, insns, address: int) -> list:
    """The Unicorn block entered at ``address``: from there up to the first instruction that can branch."""
    start = next(i for i, insn in enumerate(insns) if insn.address == address)
    block = []
    for insn in insns[start:]:
        block.append(insn)
        if model.info(insn).branches:
            break
    return block


def loop_blocks(model, insns) -> tuple[list, list, list]:
    """Entry block, loop body block (entered at the back-edge target) and the block after the loop."""
    first = block_at(model, insns, insns[0].address)
    target = model.price_block(first).branch_target
    loop = block_at(model, insns, target)
    after = block_at(model, insns, model.price_block(loop).end)
    return first, loop, after


def path_cycles(model, blocks: list[list], taken: list[bool]) -> int:
    """Cycles of one execution path through blocks, accounted the way the machine does:
    each block's static price, taken_extra when its final branch is taken, edge_cost between
    consecutive blocks (fallthrough when the next block starts where the previous one ends)."""
    prices: list[BlockPrice] = [model.price_block(b) for b in blocks]
    total = 0
    for index, price in enumerate(prices):
        total += price.cycles
        if taken[index]:
            total += price.taken_extra
        if index > 0:
            prev = prices[index - 1]
            total += model.edge_cost(prev, price, fallthrough=prev.end == price.start and not taken[index - 1])
    return total


def straight(model, insns) -> int:
    """A function that is one straight-line block ending in a return that always branches."""
    price = model.price_block(insns)
    return price.cycles + price.taken_extra


def uc_with(**regs: int) -> Uc:
    uc = Uc(UC_ARCH_ARM, UC_MODE_THUMB)
    for name, value in regs.items():
        uc.reg_write(getattr(uc_arm, f"UC_ARM_REG_{name.upper()}"), value & 0xFFFFFFFF)
    return uc


# ---------------------------------------------------------------------------- model_for


def test_model_for_rejects_unknown_core():
    with pytest.raises(ValueError, match=r"Invalid core 'm5'; accepted: m0, m0plus, m3, m4"):
        model_for("m5")


def test_model_for_rejects_unknown_option():
    with pytest.raises(ValueError, match=r"Invalid option 'multiplier' for core 'm4'; accepted: fpu"):
        model_for("m4", multiplier="small")
    with pytest.raises(ValueError, match=r"Invalid option 'multiplier' for core 'm3'; accepted: other_end"):
        model_for("m3", multiplier="small")
    with pytest.raises(ValueError, match=r"Invalid option 'cache' for core 'm0plus'; accepted: multiplier"):
        model_for("m0plus", cache="on")


def test_model_for_rejects_unknown_multiplier():
    with pytest.raises(ValueError, match=r"Invalid multiplier 'medium' for core 'm0'; accepted: fast, small"):
        model_for("m0", multiplier="medium")


def test_model_version_changes_with_options():
    assert model_for("m0plus").version != model_for("m0plus", multiplier="small").version
    assert model_for("m0plus").core == "m0plus"


# ---------------------------------------------------------------------------- ARMv6-M


@pytest.fixture(params=["m0plus", "m0"])
def v6m(request):
    core = request.param
    return core, model_for(core), functions("v6m.S", core), V6M[core]


def test_v6m_alu_run(v6m):
    core, model, fns, t = v6m
    # 8 x ADDS/SUBS/EORS/ANDS/ORRS/LSLS/MOVS/MVNS: Table 3.1 "1" each; BX LR: "BX 2" (M0+) / "3" (M0)
    assert straight(model, fns["alu_run"]) == 8 * 1 + t["bx"]


def test_v6m_load_run(v6m):
    core, model, fns, t = v6m
    # LDR, LDR, LDRB, LDRH: Table 3.1 "Load ... 2" each, no pipelining on ARMv6-M
    assert straight(model, fns["load_run"]) == 4 * 2 + t["bx"]


def test_v6m_store_run(v6m):
    core, model, fns, t = v6m
    # MOVS 1; STR, STRB, STRH, STR (register offset): Table 3.1 "Store ... 2" each
    assert straight(model, fns["store_run"]) == 1 + 4 * 2 + t["bx"]


def test_v6m_ldm_stm_cost_one_plus_n(v6m):
    core, model, fns, t = v6m
    # LDM of 3: "1 + N" = 4; STM of 2: "1 + N" = 3
    assert straight(model, fns["ldm_stm"]) == (1 + 3) + (1 + 2) + t["bx"]


def test_v6m_push_pop_pc(v6m):
    core, model, fns, t = v6m
    # PUSH {r4-r7, lr}: "1 + N", N = 5; POP {r4-r7, pc}: "3 + N" (M0+) / "4 + N" (M0), N = 5
    assert straight(model, fns["push_pop"]) == (1 + 5) + (t["pop_pc_base"] + 5)


def test_v6m_muls_fast_and_small_multiplier(v6m):
    core, _, fns, t = v6m
    # MOVS 1, 4 x MULS: Table 3.1 "MULS 1 or 32" (fast / small multiplier implementation option)
    assert straight(model_for(core), fns["mul_run"]) == 1 + 4 * 1 + t["bx"]
    assert straight(model_for(core, multiplier="small"), fns["mul_run"]) == 1 + 4 * 32 + t["bx"]


def test_v6m_taken_and_not_taken_branches(v6m):
    core, model, fns, t = v6m
    first, loop, ret = loop_blocks(model, fns["branch_loop"])
    assert [len(first), len(loop), len(ret)] == [3, 2, 1]
    path = [first, loop, loop, loop, ret]
    taken = [True, True, True, False, True]
    # MOVS 1; 4 x SUBS 1; 3 x BNE taken ("B<cc> 1 or 2" M0+ / "1 or 3" M0); 1 x BNE not taken 1; BX LR
    expected = 1 + 4 * 1 + 3 * t["b_taken"] + 1 * 1 + t["bx"]
    assert path_cycles(model, path, taken) == expected


def test_v6m_unconditional_branch(v6m):
    core, model, fns, t = v6m
    insns = fns["uncond_branch"]
    first = block_at(model, insns, insns[0].address)
    ret = block_at(model, insns, model.price_block(first).branch_target)
    assert len(first) == 2 and len(ret) == 1
    # MOVS 1; B (unconditional) "2" (M0+) / "3" (M0); the jumped-over MOVS never runs; BX LR
    path = [first, ret]
    assert path_cycles(model, path, [True, True]) == 1 + t["b_taken"] + t["bx"]


def test_v6m_bl_bx_pop_pc(v6m):
    core, model, fns, t = v6m
    a, b = blocks_of(model, fns["call_leaf"])
    leaf = fns["v6m_leaf"]
    # PUSH {r4, lr} 1+2; BL "3"/"4"; leaf ADDS 1 + BX LR "2"/"3"; POP {r4, pc} "3+N"/"4+N", N = 2
    expected = (1 + 2) + t["bl"] + 1 + t["bx"] + (t["pop_pc_base"] + 2)
    assert path_cycles(model, [a, leaf, b], [True, True, True]) == expected


def test_v6m_system_and_barriers(v6m):
    core, model, fns, t = v6m
    # MRS "3"/"4"; DMB, DSB, ISB "3"/"4" each; BX LR
    assert straight(model, fns["system_run"]) == t["mrs"] + 3 * t["barrier"] + t["bx"]


def test_v6m_literal_loads(v6m):
    core, model, fns, t = v6m
    # LDR Rd, [PC, #imm]: "Load ... 2" each
    assert straight(model, fns["literal_load"][:3]) == 2 * 2 + t["bx"]


def test_v6m_everything_in_the_v6m_benchmarks_is_accepted(v6m):
    core, model, fns, _ = v6m
    for name, insns in fns.items():
        code = insns if name != "literal_load" else insns[:3]  # skip the literal pool
        assert [model.check(i) for i in code] == [None] * len(code), name


@pytest.mark.parametrize("core", ["m0", "m0plus"])
def test_v6m_rejects_thumb2_it_cbz_and_divide(core):
    model = model_for(core)
    fns = functions("v7m.S", "m4")
    rejected = {
        "ite": fns["it_select"][1],
        "cbz": fns["cbz_skip"][1],
        "add.w": fns["alu_run"][1],
        "udiv": fns["udiv_ops"][0],
        "umull": fns["umull_ops"][0],
        "ldrd": fns["ldrd_strd"][1],
        "subs.w": fns["wide_target_loop"][1],
    }
    for label, insn in rejected.items():
        reason = model.check(insn)
        assert reason is not None and "ARMv6-M" in reason, label
    # the 32-bit instructions ARMv6-M does have
    for insn in fns["system_run"][:4]:
        assert model.check(insn) is None, insn.mnemonic


# ---------------------------------------------------------------------------- ARMv7-M


@pytest.fixture(params=["m3", "m4"])
def v7m(request):
    core = request.param
    return core, model_for(core), functions("v7m.S", core)


def test_v7m_alu_run(v7m):
    core, model, fns = v7m
    # ADDS, ADD.W (shifted op2), ORN, UBFX, RBIT, CLZ, MOVW, MOVT: Table 3-1 "1" each; BX LR "1 + P"
    assert straight(model, fns["alu_run"]) == 8 * 1 + (1 + P)


def test_v7m_preload_is_one_cycle_and_breaks_load_pipelining(v7m):
    core, model, fns = v7m
    # PLD 1 | LDR 2 | PLI 1 | LDR 2 (its predecessor is no load: not pipelined) | BX LR 1 + P.
    # No PLD/PLI row in Table 3-1: one issue cycle, the NOP row (m3.toml/m4.toml class preload,
    # UNCONFIRMED)
    assert straight(model, fns["preload"]) == 1 + 2 + 1 + 2 + (1 + P)


def test_v7m_independent_loads_pipeline(v7m):
    core, model, fns = v7m
    # 3.3.2: a run of LDRs whose addresses do not use the previous destination: 2 + 1 + 1, then
    # LDRH.W r12 (32-bit, at an odd halfword): not pipelined, 2 (DDI 0439D Table 3-1 footnote b,
    # [rules] unaligned_wide_pipelines)
    assert fns["load_run"][3].size == 4 and fns["load_run"][3].address % 4 == 2
    assert straight(model, fns["load_run"]) == 2 + 1 + 1 + 2 + (1 + P)


def test_v7m_dependent_load_is_not_pipelined(v7m):
    core, model, fns = v7m
    # LDR r1 2; LDR r2,[r0,r1] uses r1 for its address: not pipelined, 2; LDR r3 pipelined 1
    assert straight(model, fns["load_dependent"]) == 2 + 2 + 1 + (1 + P)


def test_v7m_load_store_mix(v7m):
    core, model, fns = v7m
    expected = (
        1  # MOVS r3, #12
        + 2  # LDR r1, [r0]
        + 1  # STR r1, [r0, #4]: 3.3.2 "STR Rx,[Ry,#imm] is always one cycle"
        # LDR after a 1-cycle store that itself followed a load: not pipelined, and no store-then-load
        # cycle ([rules] store_after_load_stalls_load, [meas] "store placed after load, removes the stall")
        + 2
        + 1  # STR r2, [r0, r3] (Table 3-1 "2") right after an LDR: pipelined, one cycle removed
        + 2  # LDR r12 after a register-offset store: "nothing can be pipelined after the store"
        + (1 + P)  # BX LR
    )
    assert straight(model, fns["load_store_mix"]) == expected


def test_v7m_address_generation_interlock(v7m):
    core, model, fns = v7m
    # ADDS r1 1; LDR r2,[r1]: 2 + 1 (3.3.2 "stalls the pipeline for an additional cycle");
    # LDR r3,[r0,#8] pipelined 1; BX LR
    assert straight(model, fns["address_interlock"]) == 1 + (2 + 1) + 1 + (1 + P)


def test_v7m_immediate_stores_one_cycle(v7m):
    core, model, fns = v7m
    # STR, STR, STRB, STRH with immediate offsets: 3.3.2 "always one cycle"
    assert straight(model, fns["store_imm_run"]) == 4 * 1 + (1 + P)


def test_v7m_writeback_stores(v7m):
    core, model, fns = v7m
    expected = (
        2  # LDR r1, [r0]
        # STR r1, [r0, #4]! 1 (3.3.2 immediate-offset store); on the M3 a pre/post-indexed store right
        # after a load takes 2 ([rules] writeback_store_after_load_extra, [meas] jnk0le)
        + (1 if core == "m4" else 2)
        # STR r1, [r0, #4]! again: its base is the one just written back, +1 ([rules] writeback_store_interlock)
        + (1 + 1)
        + (1 + P)  # BX LR
    )
    assert straight(model, fns["store_writeback"]) == expected


def test_v7m_wide_loads_pipeline_only_word_aligned(v7m):
    core, model, fns = v7m
    insns = fns["wide_load_alignment"]
    assert [(i.size, i.address % 4) for i in insns[:5]] == [(4, 0), (4, 0), (2, 0), (4, 2), (2, 2)]
    expected = (
        2  # LDR.W 2
        + 1  # LDR.W at a word boundary after a load: pipelined (3.3.2)
        + 1  # LDR (16-bit): pipelined
        # LDR.W on an odd halfword: "in some cases such as 32-bit opcodes aligned on odd halfword
        # boundaries they might not pipeline optimally" (DDI 0439D Table 3-1 footnote b): the bound, 2
        + 2
        + 1  # LDR (16-bit) after it: pipelined
        + (1 + P)  # BX LR
    )
    assert straight(model, insns) == expected
    rules = [rule for _, _, rule in model.price_block(insns).per_insn]
    assert rules[3] == "load+unaligned-wide-not-pipelined"
    assert "footnote b" in model.source_of(rules[3]) or "odd halfword" in model.source_of(rules[3])


def test_v7m_store_then_load_only_when_the_store_did_not_follow_a_load(v7m):
    core, model, fns = v7m
    expected = (
        1  # MOVS
        + 1  # STR after an ALU op: 3.3.2 "always one cycle"
        + 2 + 1  # LDR after it: +1 ([rules] store_then_load, [meas] "stores cannot be pipelined with following load")
        + 1  # STR after a load
        + 2  # LDR: no +1 ([meas] "store placed after load, removes the stall")
        + (1 + P)  # BX LR
    )
    assert straight(model, fns["store_then_load"]) == expected


def test_v7m_nop_after_a_load_or_register_offset_store_is_eaten(v7m):
    core, model, fns = v7m
    insns = fns["nop_after_memory"]
    # [rules] eats_following_nop ([meas] jnk0le cortex_m3m4.md "load instructions can eat following
    # nop", "reg offset store ... can eat following nop (reg + imm or mov instructions don't work)";
    # compendium.i-0.nl "regardless of 16- or 32-bit encoded instructions")
    expected = (
        2 + 0  # LDR, NOP eaten
        + 2  # LDR after a NOP: nothing to pipeline with (3.3.2 needs an LDR right before)
        + 1 + 0  # LDR pipelined (3.3.2), NOP.W eaten
        + 1  # MOVS
        + 2 + 1 + 0  # STR Rt,[Rn,Rm] 2, +1 address interlock on Rm (3.3.2), NOP eaten
        + 2 + 1  # STR register offset 2, MOV R3,R3 is not a NOP: 1
        + 2 + 1  # LDR, CMP is not a NOP ([meas] "cmp, tst don't work"): 1
        + 1 + 1  # STR immediate offset 1 (3.3.2), NOP after it: 1
        + (1 + P)  # BX LR
    )
    assert straight(model, insns) == expected
    rules = [rule for _, _, rule in model.price_block(insns).per_insn]
    assert rules[1] == "nop_hint+nop-eaten" and rules[4] == "nop_hint+nop-eaten" and rules[7] == "nop_hint+nop-eaten"
    assert rules[13] == "nop_hint"
    assert "can eat following" in model.source_of(rules[1])


def test_v7m_nop_after_a_skipped_load_is_not_eaten(v7m):
    core, model, fns = v7m
    insns = fns["it_load_then_nop"]
    price = model.price_block(insns)
    # static (LDREQ skipped, a NOP's issue cycle): CMP 1, IT folded 0, LDREQ 1, NOP 1, BX LR 1 + P
    assert price.cycles + price.taken_extra == 1 + 0 + 1 + 1 + (1 + P)
    # executed: LDREQ 2 (+1) and the NOP eaten (-1): no dynamic entry
    assert price.dynamic == []


def test_nop_is_never_eaten_on_the_m0_cores():
    for core in ("m0", "m0plus"):
        model = model_for(core)
        assert model.rules["eats_following_nop"] is False


def test_v7m_pop_pc_and_ldr_pc_pay_the_same_refill(v7m):
    core, model, fns = v7m
    # PUSH {lr} 1 + N; POP {pc} "1 + N + P" and LDR PC "two cycles for the load, and three cycles
    # for the pipeline reload" (3.3.2): both 1 + 1 + 3 = 5 for one register
    assert straight(model, fns["pop_pc_return"]) == (1 + 1) + (1 + 1 + P_LOADED_PC)
    assert straight(model, fns["ldr_pc_return"]) == (1 + 1) + (2 + P_LOADED_PC)


def test_v7m_skipped_load_gives_no_pipelining_credit(v7m):
    core, model, fns = v7m
    insns = fns["it_load_then_load"]
    price = model.price_block(insns)
    # static (LDREQ skipped): CMP 1, IT folded 0, LDREQ 1, LDR not pipelined 2, BX LR 1 + P
    assert price.cycles + price.taken_extra == 1 + 0 + 1 + 2 + (1 + P)
    # executed: LDREQ 2 (+1) and the LDR pipelined (-1): no dynamic entry
    assert price.dynamic == []


def test_v7m_skipped_add_causes_no_address_interlock(v7m):
    core, model, fns = v7m
    insns = fns["it_add_then_load"]
    price = model.price_block(insns)
    # static (ADDEQ skipped): CMP 1, IT 0, ADDEQ 1, LDR 2, BX LR; executed: the interlock (+1, 3.3.2)
    assert price.cycles + price.taken_extra == 1 + 0 + 1 + 2 + (1 + P)
    assert price.dynamic == [(insns[2].address, "it_exec 1")]


def test_v7m_ldrd_strd_not_pipelined(v7m):
    core, model, fns = v7m
    # LDR 2; LDRD "1 + N" = 3 and STRD 3, "cannot be pipelined with preceding or following instructions"
    assert straight(model, fns["ldrd_strd"]) == 2 + 3 + 3 + (1 + P)


def test_v7m_ldm_stm_cost_one_plus_n(v7m):
    core, model, fns = v7m
    # LDM of 4 "1 + N" = 5; STM of 2 "1 + N" = 3
    assert straight(model, fns["ldm_stm"]) == (1 + 4) + (1 + 2) + (1 + P)


def test_v7m_push_pop_pc(v7m):
    core, model, fns = v7m
    # PUSH of 5 "1 + N"; POP {.., PC} of 5 "1 + N + P" with the refill of a PC loaded from memory,
    # 3.3.2 "three cycles for the pipeline reload" ([[class]] load_multiple_pc)
    assert straight(model, fns["push_pop"]) == (1 + 5) + (1 + 5 + P_LOADED_PC)


def test_v7m_writeback_loads_on_one_base_do_not_chain(v7m):
    core, model, fns = v7m
    # the second LDR's address is the first LDR's written-back base: not pipelined (3.3.2 rule)
    assert straight(model, fns["writeback_same_base"]) == 2 + 2 + (1 + P)


def test_v7m_writeback_loads_on_two_bases(v7m):
    core, model, fns = v7m
    # ADDS r3 1; LDR r1,[r0],#4 2; LDR r2,[r3],#4: pipelined on M4 (1), never on M3 (2)
    # ([rules] writeback_load_pipelines, [meas] jnk0le cortex_m3m4.md)
    second = 1 if core == "m4" else 2
    assert straight(model, fns["writeback_two_bases"]) == 1 + 2 + second + (1 + P)


def test_v7m_literal_loads_pipeline(v7m):
    core, model, fns = v7m
    # LDR Rd,[PC,#imm] 2, then pipelined 1 (the "might add a cycle" fetch contention is not charged)
    assert straight(model, fns["literal_load"][:3]) == 2 + 1 + (1 + P)


def test_v7m_taken_and_not_taken_branches(v7m):
    core, model, fns = v7m
    first, loop, ret = loop_blocks(model, fns["branch_loop"])
    path = [first, loop, loop, loop, ret]
    # MOVS 1; 4 x SUBS 1; BNE "1 or 1 + P": 3 taken (1 + P), 1 not taken (1); BX LR 1 + P
    expected = 1 + 4 * 1 + 3 * (1 + P) + 1 + (1 + P)
    assert path_cycles(model, path, [True, True, True, False, True]) == expected


def test_v7m_branch_to_unaligned_wide_target(v7m):
    core, model, fns = v7m
    first, loop, ret = loop_blocks(model, fns["wide_target_loop"])
    assert loop[0].size == 4 and loop[0].address % 4 == 2
    path = [first, loop, loop, loop, ret]
    # as above, but each taken BNE lands on a 32-bit SUBS.W at an odd halfword: P + 1
    # ([rules] unaligned_wide_target_extra, [meas] compendium alignment rules)
    expected = 1 + 4 * 1 + 3 * (1 + P + 1) + 1 + (1 + P)
    assert path_cycles(model, path, [True, True, True, False, True]) == expected


def test_v7m_cbz_taken_and_not_taken(v7m):
    core, model, fns = v7m
    insns = fns["cbz_skip"]
    first = block_at(model, insns, insns[0].address)
    taken = block_at(model, insns, model.price_block(first).branch_target)
    fallthrough = block_at(model, insns, model.price_block(first).end)
    assert [len(first), len(taken), len(fallthrough)] == [2, 1, 2]
    # CBZ "1 or 1 + P"; taken: MOVS 1 + CBZ (1 + P) + BX LR (1 + P)
    assert path_cycles(model, [first, taken], [True, True]) == 1 + (1 + P) + (1 + P)
    # not taken: MOVS 1 + CBZ 1 + MOVS 1 + BX LR (1 + P)
    assert path_cycles(model, [first, fallthrough], [False, True]) == 1 + 1 + 1 + (1 + P)


def test_v7m_bl_bx_pop_pc(v7m):
    core, model, fns = v7m
    a, b = blocks_of(model, fns["call_leaf"])
    # PUSH {r4, lr} 1+2; BL 1+P; leaf ADDS 1, BX LR 1+P; POP {r4, pc} 1+N+P, N = 2, P = 3 (loaded PC)
    expected = (1 + 2) + (1 + P) + 1 + (1 + P) + (1 + 2 + P_LOADED_PC)
    assert path_cycles(model, [a, fns["v7m_leaf"], b], [True, True, True]) == expected


def test_v7m_multiplies(v7m):
    core, model, fns = v7m
    # MOVS, MOVS 1; MUL "1"; MLA, MLS: "1" (M4 Table 3-1) / "2" (M3 Table 3-1)
    mla = 1 if core == "m4" else 2
    assert straight(model, fns["mul_run"]) == 1 + 1 + 1 + mla + mla + (1 + P)


def test_m4_long_multiplies_single_cycle():
    model = model_for("m4")
    fns = functions("v7m.S", "m4")
    # UMULL/SMULL "1"; MOV, MOV 1; BX LR (DDI 0439D Table 3-1)
    for name in ("umull_ops", "smull_ops"):
        price = model.price_block(fns[name])
        assert price.cycles + price.taken_extra == 1 + 1 + 1 + (1 + P)
        assert price.dynamic == []
    # MOVS, MOVS; UMLAL/SMLAL "1"; MOV, MOV; BX LR
    for name in ("umlal_ops", "smlal_ops"):
        assert straight(model, fns[name]) == 1 + 1 + 1 + 1 + 1 + (1 + P)


@pytest.mark.parametrize(
    ("name", "minimum", "operands", "extra"),
    [
        # UMULL "3 to 5", footnote a ("MULL versions take three to five cycles"); "ABS(inputs) < 64K
        # terminates early" (earlier M3 TRM): +1 per source operand of magnitude >= 0x10000
        ("umull_ops", 3, (100, 200), 0),
        ("umull_ops", 3, (0xFFFF, 0xFFFF), 0),
        ("umull_ops", 3, (0x12345678, 3), 1),
        ("umull_ops", 3, (0x12345678, 0x9ABCDEF0), 2),
        # SMULL: also 3..5 (the footnote's "signed version is one cycle longer" is "For MLAL");
        # magnitudes: -5, 7, 0x8000 and -0xFFFF are below 64K, -0x10000 is not
        ("smull_ops", 3, (-5, 7), 0),
        ("smull_ops", 3, (0x8000, -0xFFFF), 0),
        ("smull_ops", 3, (-0x10000, 1), 1),
        ("smull_ops", 3, (-(2**31), 0x7FFFFFFF), 2),
        # UMLAL "4 to 7": unsigned 4..6, +1 per large source operand
        ("umlal_ops", 4, (100, 200), 0),
        ("umlal_ops", 4, (0x10000, 200), 1),
        ("umlal_ops", 4, (0x10000, 0x20000), 2),
        # SMLAL: "For MLAL, the signed version is one cycle longer": 5..7
        ("smlal_ops", 5, (-1, -1), 0),
        ("smlal_ops", 5, (-0x8001, 0x7FFF), 0),
        ("smlal_ops", 5, (-0x10000, 0xFFFF), 1),
        ("smlal_ops", 5, (-0x10000, 0x40000000), 2),
    ],
)
def test_m3_long_multiply_early_termination(name, minimum, operands, extra):
    model = model_for("m3")
    insns = functions("v7m.S", "m3")[name]
    price = model.price_block(insns)
    setup = 2 if "mlal" in name else 0  # MOVS r2, MOVS r3
    # setup + multiply minimum + MOV, MOV + BX LR (1 + P)
    assert price.cycles + price.taken_extra == setup + minimum + 1 + 1 + (1 + P)
    ((address, kind),) = price.dynamic
    assert address == insns[setup].address
    assert model.dynamic_cost(kind, uc_with(r0=operands[0], r1=operands[1])) == extra


@pytest.mark.parametrize(
    ("name", "dividend", "divisor", "expected_div"),
    [
        ("udiv_ops", 0, 5, 2),  # a zero operand: the documented minimum 2
        ("udiv_ops", 5, 0, 2),  # divide by zero (result 0 without DIV_0_TRP): 2
        ("udiv_ops", 3, 100, 3),  # dividend shorter than divisor: quotient 0, 3
        ("udiv_ops", 100, 3, 3 + math.ceil((7 - 2 + 1) / 4)),  # 7-bit / 2-bit: 6 quotient bits
        ("udiv_ops", 0x80000000, 0x10000, 3 + math.ceil((32 - 17 + 1) / 4)),
        ("udiv_ops", 0xFFFFFFFF, 1, 3 + math.ceil(32 / 4)),  # 32 quotient bits: 11 <= 12
        ("sdiv_ops", -100, 3, 3 + math.ceil((7 - 2 + 1) / 4)),  # magnitudes, as 100 / 3
        ("sdiv_ops", -(2**31), -1, 3 + math.ceil(32 / 4)),
    ],
)
@pytest.mark.parametrize("core", ["m3", "m4"])
def test_v7m_divide_from_operand_bit_lengths(core, name, dividend, divisor, expected_div):
    # SDIV/UDIV "2 to 12" (Table 3-1) with the [divide] approximation of m3.toml/m4.toml
    model = model_for(core)
    price = model.price_block(functions("v7m.S", core)[name])
    ((_, kind),) = price.dynamic
    extra = model.dynamic_cost(kind, uc_with(r0=dividend, r1=divisor))
    assert price.cycles + extra + price.taken_extra == expected_div + (1 + P)


def test_v7m_it_block_folded_and_skipped(v7m):
    core, model, fns = v7m
    price = model.price_block(fns["it_select"])
    # CMP 1; ITE folded onto the 16-bit CMP: 0 (Table 3-1 footnote); MOVEQ, MOVNE: one runs (1),
    # one is skipped ([rules] skipped_conditional = 1); ADDS 1; BX LR 1 + P
    assert price.cycles + price.taken_extra == 1 + 0 + 1 + 1 + 1 + (1 + P)
    assert price.dynamic == []  # a MOV costs the same executed or skipped
    assert [rule for _, _, rule in price.per_insn][:4] == ["alu", "it+folded", "alu+conditional", "alu+conditional"]


def test_v7m_it_block_with_loads_charges_execution_dynamically(v7m):
    core, model, fns = v7m
    insns = fns["it_loads"]
    price = model.price_block(insns)
    # CMP 1; ITT folded 0; two conditional loads at the skip cost 1 each; BX LR 1 + P
    assert price.cycles + price.taken_extra == 1 + 0 + 1 + 1 + (1 + P)
    # executed: LDREQ 2 (1 more than skipped), second LDREQ pipelined 1 (= skip cost, nothing extra)
    assert price.dynamic == [(insns[2].address, "it_exec 1")]
    assert model.dynamic_cost("it_exec 1", uc_with()) == 1


def test_v7m_it_not_folded_after_32bit_instruction(v7m):
    core, model, fns = v7m
    # CMP.W 1; IT "1" (nothing 16-bit to fold onto); MOVEQ 1 (run or skipped); BX LR 1 + P
    assert straight(model, fns["it_unfolded"]) == 1 + 1 + 1 + (1 + P)


def test_v7m_system_and_barriers(v7m):
    core, model, fns = v7m
    # MRS "1 or 2" (lower bound); DMB, DSB "1 + B", B = 0; ISB "1 + B", B = P; BX LR
    assert straight(model, fns["system_run"]) == 1 + 1 + 1 + (1 + P) + (1 + P)


def test_v7m_long_straight_line(v7m):
    core, model, fns = v7m
    # per repetition: ADDS, EORS, ADDS, LSLS 4 x 1; LDR 2; LDR pipelined 1; EORS, ORRS, SUBS, MOVS 4 x 1
    per_rep = 4 * 1 + 2 + 1 + 4 * 1
    assert straight(model, fns["long_straight"]) == 8 * per_rep + (1 + P)


def test_m4_dsp_instructions_single_cycle():
    model = model_for("m4")
    insns = functions("dsp.S", "m4")["dsp_run"]
    # UADD8, SADD16, QADD, SEL, USAD8, SMLAD, SMULBB, UMAAL, PKHBT, SXTAB: Table 3-2 "1" each
    assert straight(model, insns) == 10 * 1 + (1 + P)


def test_m3_rejects_every_dsp_instruction():
    model = model_for("m3")
    insns = functions("dsp.S", "m4")["dsp_run"]
    reasons = [model.check(i) for i in insns[:-1]]
    assert all(r is not None and "DSP" in r for r in reasons), reasons
    assert model.check(insns[-1]) is None  # BX LR


@pytest.mark.parametrize("core", ["m0", "m0plus", "m3", "m4"])
@pytest.mark.parametrize("code", ["fede", "00be", "00df"])  # UDF #254 (llvm.trap), BKPT #0, SVC #0
def test_exception_generating_instructions_are_rejected(core, code):
    md = capstone.Cs(capstone.CS_ARCH_ARM, capstone.CS_MODE_THUMB | capstone.CS_MODE_MCLASS)
    md.detail = True
    insn = next(md.disasm(bytes.fromhex(code), 0))
    assert "exception entry is not modelled" in model_for(core).check(insn)
    with pytest.raises(ValueError, match=r"Invalid instruction at 0x0"):
        model_for(core).price_block([insn])


def test_m4_accepts_everything_in_its_benchmarks():
    model = model_for("m4")
    for source in ("v7m.S", "dsp.S"):
        for name, insns in functions(source, "m4").items():
            code = insns if name != "literal_load" else insns[:3]
            assert [model.check(i) for i in code] == [None] * len(code), name


# ---------------------------------------------------------------------------- block splits


@pytest.mark.parametrize("core", ["m0", "m0plus", "m3", "m4"])
def test_split_blocks_price_like_one_block(core):
    """Unicorn may cut straight-line code anywhere; edge_cost must carry the pipeline state."""
    model = model_for(core)
    source = "v6m.S" if core.startswith("m0") else "v7m.S"
    names = ["load_run", "alu_run"] + (
        ["store_run", "ldm_stm", "mul_run"]
        if core.startswith("m0")
        else [
            "store_imm_run", "long_straight", "load_store_mix", "address_interlock", "writeback_two_bases",
            "writeback_same_base", "store_writeback", "ldrd_strd", "it_select", "it_loads", "it_unfolded",
            "wide_load_alignment", "store_then_load", "it_load_then_load", "it_add_then_load",
            "nop_after_memory", "it_load_then_nop",
        ]
    )
    for name in names:
        body = functions(source, core)[name][:-1]  # without the final BX LR
        whole = model.price_block(body).cycles
        for cut in range(1, len(body)):
            head, tail = model.price_block(body[:cut]), model.price_block(body[cut:])
            split = head.cycles + tail.cycles + model.edge_cost(head, tail, fallthrough=True)
            assert split == whole, (name, cut)


def test_edge_cost_credits_load_pipelining_across_a_split():
    model = model_for("m4")
    loads = functions("v7m.S", "m4")["load_run"]
    head, tail = model.price_block(loads[:2]), model.price_block(loads[2:4])
    # LDR 2 + LDR 1 | LDRB priced cold (2) in its own block, then LDRH.W on an odd halfword (not
    # pipelined, 2); the edge gives back the pipelined cycle of the LDRB
    assert (head.cycles, tail.cycles) == (2 + 1, 2 + 2)
    assert model.edge_cost(head, tail, fallthrough=True) == -1
    assert model.edge_cost(head, tail, fallthrough=False) == 0


# ---------------------------------------------------------------------------- properties


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(0, 2**32 - 1), st.booleans())
def test_divide_stays_within_documented_range(dividend, divisor, signed):
    table = model_for("m4").data.divide
    # Table 3-1: "2 to 12"
    assert 2 <= divide_cycles(dividend, divisor, signed, table) <= 12


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(0, 2**32 - 1))
def test_m3_long_multiplies_stay_within_footnote_ranges(rn, rm):
    model = model_for("m3")
    uc = uc_with(r0=rn, r1=rm)
    # footnote a: MULL 3..5, MLAL 4..7, for MLAL signed one longer: UMULL/SMULL 3..5, UMLAL 4..6, SMLAL 5..7
    ranges = {"umull_m3": (3, 5), "smull_m3": (3, 5), "umlal_m3": (4, 6), "smlal_m3": (5, 7)}
    minimum = {"umull_m3": 3, "smull_m3": 3, "umlal_m3": 4, "smlal_m3": 5}
    for op, (low, high) in ranges.items():
        assert low <= minimum[op] + model.dynamic_cost(f"{op} r0 r1", uc) <= high


def test_m3_long_multiply_ranges_are_reached_at_both_ends():
    model = model_for("m3")
    small, large = uc_with(r0=3, r1=5), uc_with(r0=0x7FFFFFFF, r1=0x7FFFFFFF)
    ops = ("umull_m3", "smull_m3", "umlal_m3", "smlal_m3")
    assert [model.dynamic_cost(f"{op} r0 r1", small) for op in ops] == [0, 0, 0, 0]
    assert [model.dynamic_cost(f"{op} r0 r1", large) for op in ops] == [2, 2, 2, 2]


def test_price_block_is_cached_and_pure():
    model = model_for("m4")
    insns = functions("v7m.S", "m4")["load_store_mix"]
    assert model.price_block(insns) is model.price_block(list(insns))


def test_per_insn_rules_have_sources():
    model = model_for("m4")
    for name, insns in functions("v7m.S", "m4").items():
        code = insns if name != "literal_load" else insns[:3]
        for block in blocks_of(model, code):
            price = model.price_block(block)
            assert sum(c for _, c, _ in price.per_insn) == price.cycles
            assert sum(price.classes.values()) == len(block)
            for _, _, rule in price.per_insn:
                assert "DDI 0439D" in model.source_of(rule) or "[meas]" in model.source_of(rule), rule


def test_invalid_dynamic_kind_is_named():
    with pytest.raises(ValueError, match=r"Invalid dynamic kind 'udiv r1'"):
        model_for("m4").dynamic_cost("udiv r1", uc_with())
    with pytest.raises(ValueError, match=r"unknown register 'q9'"):
        model_for("m4").dynamic_cost("udiv q9 r1", uc_with())
    with pytest.raises(ValueError, match=r"Invalid dynamic kind 'it_exec two'"):
        model_for("m4").dynamic_cost("it_exec two", uc_with())


def test_all_cut_points_listed_once():
    # sanity of the helper used above: blocks partition the function
    model = model_for("m4")
    insns = functions("v7m.S", "m4")["cbz_skip"]
    assert list(itertools.chain(*blocks_of(model, insns))) == insns
