"""The M4 flash-fetch rules (model option fetch="flash", cortexm_emu/timing/data/m4.toml
[rules] unaligned_wide_group_* and literal_load_extra, APPROXIMATIONS.md 52-53): from the
compendium's measurements on a Cortex-M4 running from flash, "Groups of three or more unaligned
wide instructions will take one extra cycle", "Groups of unaligned wide str only add the penalty
cycle from a length of 4"; from DDI 0439D 3.3.2, "LDR Rx,[PC,#imm] might add a cycle because of
contention with the fetch unit"."""

from __future__ import annotations

import pytest

from cortexm_emu.machine import Buffer, Machine
from cortexm_emu.timing import model_for
from cortexm_emu.toolchain import build

# Each function starts word-aligned; a 16-bit NOP puts the next instruction on an odd halfword,
# so a run of 32-bit (.w) instructions after it is a run of "unaligned wide" instructions.
BODIES = {
    "alu3_unaligned": ["nop", "add.w r1, r2, r3", "add.w r2, r3, r1", "add.w r3, r1, r2"],
    "alu2_unaligned": ["nop", "add.w r1, r2, r3", "add.w r2, r3, r1", "adds r3, r1"],
    "alu3_aligned": ["add.w r1, r2, r3", "add.w r2, r3, r1", "add.w r3, r1, r2", "nop"],
    "str3_unaligned": ["nop", "str.w r1, [r0, #4]", "str.w r2, [r0, #8]", "str.w r3, [r0, #12]"],
    "str4_unaligned": ["nop", "str.w r1, [r0, #4]", "str.w r2, [r0, #8]", "str.w r3, [r0, #12]",
                       "str.w r1, [r0, #16]"],
    "alu6_unaligned": ["nop", *["add.w r1, r2, r3"] * 6],
    "literal_load": ["ldr r1, =0x12345678", "adds r2, #1"],
}


@pytest.fixture(scope="module")
def elf(tmp_path_factory):
    lines = ["        .syntax unified\n        .thumb\n        .text\n"]
    for name, body in BODIES.items():
        lines.append(f"        .balign 4\n        .global {name}\n        .type {name}, %function\n"
                     f"        .thumb_func\n{name}:\n")
        lines += [f"        {insn}\n" for insn in body]
        lines.append(f"        bx lr\n        .ltorg\n        .size {name}, .-{name}\n")
    lines.append("        .balign 4\n        .global cortexm_emu_halt\n        .type cortexm_emu_halt, %function\n"
                 "        .thumb_func\ncortexm_emu_halt:\n        b cortexm_emu_halt\n")
    path = tmp_path_factory.mktemp("fetch") / "groups.S"
    path.write_text("".join(lines))
    return build([path], "m4", opt="Os").elf


def _extra(elf, name: str) -> int:
    cycles = []
    for timing in (model_for("m4", fetch="flash"), model_for("m4")):
        machine = Machine("m4", timing=timing)
        machine.load_elf(elf)
        cycles.append(machine.call(name, Buffer.zeros(32), aapcs=False).cycles)
    return cycles[0] - cycles[1]


@pytest.mark.parametrize(
    "name, extra",
    [
        ("alu3_unaligned", 1),  # a group of three
        ("alu2_unaligned", 0),  # two are not a group
        ("alu3_aligned", 0),  # on word boundaries: not unaligned
        ("str3_unaligned", 0),  # stores only from four
        ("str4_unaligned", 1),
        ("alu6_unaligned", 1),  # one group, one cycle, however long
        ("literal_load", 1),  # LDR Rx,[PC,#imm]: the literal read contends with the fetch
    ],
)
def test_flash_fetch_charges_groups_of_unaligned_wide_instructions(elf, name, extra):
    assert _extra(elf, name) == extra


def test_the_rule_is_an_option_of_the_m4_only():
    assert model_for("m4", fetch="ideal") is model_for("m4")
    assert model_for("m4", fetch="flash").version != model_for("m4").version
    with pytest.raises(ValueError, match="Invalid fetch 'rom'"):
        model_for("m4", fetch="rom")
    with pytest.raises(ValueError, match="Invalid option 'fetch' for core 'm3'"):
        model_for("m3", fetch="flash")


def test_annotated_rule_names_its_source(elf):
    timing = model_for("m4", fetch="flash")
    assert "compendium" in timing.source_of("alu+unaligned-wide-group")
    assert "DDI 0439D 3.3.2" in timing.source_of("load+literal-fetch-contention")


def test_a_board_machine_running_from_flash_uses_the_flash_fetch_rules():
    # the F407 profile: an M4 with an FPU; code in flash by default
    from_flash = Machine.for_board("stm32f407vg", 24)
    assert from_flash.timing.flash_fetch and from_flash.timing.fpu
    from_ram = Machine.for_board("stm32f407vg", 24, code="ram")
    assert not from_ram.timing.flash_fetch
    # a core without the rules on the same board: no fetch option
    assert not getattr(Machine.for_board("stm32f407vg", 24, core="m3").timing, "flash_fetch", False)
