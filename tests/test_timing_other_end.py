"""The model option ``other_end`` (``[[other_end]]`` of cortexm_emu/timing/data/<core>.toml): the
other documented bound of each undocumented two-ended rule (APPROXIMATIONS.md 6, 13, 32, 36, 37, 41)
changes cycles on a synthetic sequence the way that bound says, and nothing else; the default
model is the model's own end."""

from __future__ import annotations

import pytest

from cortexm_emu.datafile import DataFileError
from cortexm_emu.machine import Buffer, Machine
from cortexm_emu.timing import model_for
from cortexm_emu.timing.data import DATA_DIR, parse_core_data
from cortexm_emu.timing.registry import other_ends
from cortexm_emu.toolchain import build

# Each function starts word-aligned (.balign 4).
BODIES = {
    # 6: one more taken branch (B to the next-but-one instruction): 1 + P cycles
    "taken_branch": ["movs r1, #0", "b.n 1f", "nop", "1: adds r1, #1"],
    "no_branch": ["movs r1, #0", "adds r1, #1"],
    # 13: LDR.W on an odd halfword after a 16-bit LDR (no pipelining credit at the model's end)
    "ldr_wide_odd": ["ldr r1, [r0]", "ldr.w r2, [r0, #4]", "nop"],
    "ldr_wide_even": ["ldr.w r1, [r0]", "ldr.w r2, [r0, #4]"],
    # 32: two loads with index registers (banks unknown) and two at offsets 4 apart (banks known)
    "ldr_indexed": ["movs r2, #0", "movs r4, #4", "nop", "nop", "nop", "nop",
                    "ldr r1, [r0, r2]", "ldr r3, [r0, r4]", "nop", "nop", "nop"],
    "ldr_other_bank": ["ldr r1, [r0]", "ldr r3, [r0, #4]", "nop", "nop", "nop"],
    # 36: a forward conditional branch taken 8 times in 9 (static: mispredicted every time)
    "forward_taken": ["movs r1, #9", "2: subs r1, #1", "cmp r1, #0", "bne.n 3f", "nop", "3: cmp r1, #0",
                      "bne.n 2b"],
    # 37: a predicted taken branch issued alone, and one paired with the instruction before it
    "branch_alone": ["b.n 1f", "nop", "1: adds r1, #1", "nop"],
    # 41: an LSL-shifted operand2 result consumed by the next instruction
    "lsl_then_use": ["add.w r1, r2, r3, lsl #2", "add.w r4, r1, r5", "nop", "nop"],
    "lsr_then_use": ["add.w r1, r2, r3, lsr #2", "add.w r4, r1, r5", "nop", "nop"],
}


@pytest.fixture(scope="module")
def elves(tmp_path_factory):
    lines = ["        .syntax unified\n        .thumb\n        .text\n"]
    for name, body in BODIES.items():
        lines.append(f"        .balign 4\n        .global {name}\n        .type {name}, %function\n"
                     f"        .thumb_func\n{name}:\n")
        lines += [f"{insn}\n" if insn[0].isdigit() else f"        {insn}\n" for insn in body]
        lines.append(f"        bx lr\n        .size {name}, .-{name}\n")
    lines.append("        .balign 4\n        .global cortexm_emu_halt\n        .type cortexm_emu_halt, %function\n"
                 "        .thumb_func\ncortexm_emu_halt:\n        b cortexm_emu_halt\n")
    path = tmp_path_factory.mktemp("other_end") / "bounds.S"
    path.write_text("".join(lines))
    return {core: build([path], core, opt="Os").elf for core in ("m3", "m4", "m7", "m33")}


def _cycles(elves, core: str, name: str, **options: str) -> int:
    machine = Machine(core, timing=model_for(core, **options))
    machine.load_elf(elves[core])
    return machine.call(name, Buffer.zeros(64), aapcs=False).cycles


def _moved(elves, core: str, name: str, item: int) -> int:
    return _cycles(elves, core, name, other_end=str(item)) - _cycles(elves, core, name)


@pytest.mark.parametrize("core", ["m3", "m4"])
def test_branch_refill_other_end_is_p_3(elves, core):
    """6: P = 3 instead of 1 (TRM "1 to 3"): a taken branch costs 2 more; code without the extra
    branch moves by the same amount for its return only."""
    extra = _moved(elves, core, "taken_branch", 6) - _moved(elves, core, "no_branch", 6)
    assert extra == 2


@pytest.mark.parametrize("core", ["m3", "m4"])
def test_odd_halfword_load_pipelines_at_the_other_end(elves, core):
    """13: an LDR.W on an odd halfword gets the load-pipelining credit (-1); on word boundaries
    nothing changes."""
    assert _moved(elves, core, "ldr_wide_odd", 13) == -1
    assert _moved(elves, core, "ldr_wide_even", 13) == 0


def test_m7_loads_of_unknown_banks_do_not_pair_at_the_other_end(elves):
    """32: two indexed loads (banks unknown) pair at the model's end, not at the other (+1); two
    loads known to be in different banks pair at both."""
    assert _moved(elves, "m7", "ldr_indexed", 32) == 1
    assert _moved(elves, "m7", "ldr_other_bank", 32) == 0


def test_m7_static_prediction_is_the_other_end_of_36(elves):
    """36: the other end is the static predictor (prediction="static"): a forward branch taken 8
    times in 9 mispredicts more, and the count equals the prediction="static" model's."""
    static = _cycles(elves, "m7", "forward_taken", other_end="36")
    assert static == _cycles(elves, "m7", "forward_taken", prediction="static")
    assert static > _cycles(elves, "m7", "forward_taken")
    with pytest.raises(ValueError, match="that end sets prediction='static'"):
        model_for("m7", other_end="36", prediction="dynamic")


def test_m7_branch_target_issues_with_the_branch_at_the_other_end(elves):
    """37: the target of a predicted taken branch joins the branch's issue group (-1) where the
    group has a free slot; after a branch paired with its predecessor nothing changes."""
    assert _moved(elves, "m7", "branch_alone", 37) == -1
    assert _moved(elves, "m7", "taken_branch", 37) == 0


def test_m33_lsl_latency_2_at_the_other_end(elves):
    """41: an LSL-shifted operand2 result at latency 2 (jnk0le) instead of 1 (SLOTHY): its consumer
    waits one more cycle; the LSR form (2 at both ends) does not move."""
    assert _moved(elves, "m33", "lsl_then_use", 41) == 1
    assert _moved(elves, "m33", "lsr_then_use", 41) == 0


def test_default_model_is_unchanged_by_declaring_other_ends():
    for core in ("m3", "m4", "m7", "m33"):
        default = model_for(core)
        for end in other_ends(core):
            other = model_for(core, other_end=str(end.item))
            assert other.version != default.version
            assert other.options["other_end"] == str(end.item)
        assert "other_end" not in default.options


def test_bad_other_end_names_the_option():
    with pytest.raises(ValueError, match="Invalid other_end '7' for core 'm4'"):
        model_for("m4", other_end="7")
    with pytest.raises(ValueError, match="Invalid option 'other_end' for core 'm0plus'"):
        model_for("m0plus", other_end="6")


def test_malformed_other_end_names_file_and_field(tmp_path):
    text = (DATA_DIR / "m4.toml").read_text()
    bad = tmp_path / "m4.toml"
    bad.write_text(text.replace('"rules.unaligned_wide_pipelines" = true', '"rules.unaligned_wide_pipelines" = false'))
    with pytest.raises(DataFileError, match=r"other_end\[1\]\.set") as info:
        parse_core_data(bad)
    assert "m4.toml" in str(info.value)
    bad.write_text(text.replace('"rules.branch_refill" = 3', '"rules.no_such_rule" = 3'))
    with pytest.raises(DataFileError, match="not a rules"):
        parse_core_data(bad)
