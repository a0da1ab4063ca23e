"""The FPU of each core on the command line (issue 32): a board whose part has an FPU accepts its
core with the FPU (--core m4f on an STM32F407), a part without one does not, and validate offers
only the cores it runs."""

from __future__ import annotations

from pathlib import Path

import pytest

from cortexm_emu.cli import main
from cortexm_emu.toolchain import build

ASM = Path(__file__).parent / "asm" / "machine"


def test_a_board_whose_part_has_an_fpu_accepts_its_core_with_the_fpu(capsys):
    elf = build([ASM / "calls.c"], "m4").elf
    assert main(["run", str(elf), "negate", "--board", "stm32f407vg", "--core", "m4f", "--arg", "5"]) == 0
    out = capsys.readouterr().out
    assert "Cortex-M4F" in out or "Cortex-M4 with its FPU" in out


@pytest.mark.parametrize(("board", "core", "accepted"), [
    ("stm32f407vg", "m7f", "--core m4 or m4f"),
    ("stm32g071rb", "m4f", "--core m0plus, or no --core"),
    ("stm32f407vg", "m3", "--core m4 or m4f"),
])
def test_a_core_the_part_does_not_have_is_refused_naming_the_accepted_ones(capsys, board, core, accepted):
    elf = build([ASM / "calls.c"], "m4").elf
    assert main(["run", str(elf), "negate", "--board", board, "--core", core, "--arg", "5"]) == 2
    assert accepted in capsys.readouterr().err


def test_validate_offers_only_the_cores_it_runs(capsys):
    with pytest.raises(SystemExit) as info:
        main(["validate", "--core", "m4f"])
    assert info.value.code == 2
    assert "Invalid --core ('m4f'); accepted: m0, m0plus, m3, m4, m7, m33" in capsys.readouterr().err


# -- FPU data processing on the M7 and M33 (issue 32): priced from the cited rows, or refused by name --

from cortexm_emu import F32, F64, Machine  # noqa: E402
from cortexm_emu.timing import model_for  # noqa: E402
from cortexm_emu.toolchain import gcc_available  # noqa: E402

FP_ASM = Path(__file__).parent / "asm" / "timing_fpu" / "fpu.S"
FP_C = Path(__file__).parent / "asm" / "hard_float" / "fp_ops.c"


def _class_cycles(core: str, name: str, operands: str = "s1, s0, s0") -> tuple[str, int]:
    """(class, static cycles) the core's FPU model gives one instruction, assembled alone."""
    import capstone

    from cortexm_emu.timing.fpu import FPU_VARIANTS

    model = model_for(core)
    ks = {"vadd.f32": b"\x30\xee\x00\x0a", "vadd.f64": b"\x30\xee\x00\x1b", "vfma.f32": b"\xa0\xee\x00\x0a",
          "vdiv.f32": b"\x80\xee\x00\x0a", "vsqrt.f32": b"\xb1\xee\xc0\x0a", "vcvt.f32.s32": b"\xb8\xee\xc0\x0a",
          "vmul.f64": b"\x20\xee\x00\x1b", "vdiv.f64": b"\x80\xee\x00\x1b", "vfma.f64": b"\xa0\xee\x00\x1b",
          "vsqrt.f64": b"\xb1\xee\xc0\x1b"}
    cs = capstone.Cs(capstone.CS_ARCH_ARM, capstone.CS_MODE_THUMB | capstone.CS_MODE_MCLASS)
    cs.detail = True
    (insn,) = cs.disasm(ks[name], 0)
    assert f"{insn.mnemonic} {insn.op_str}".startswith(name)  # the encoding is the instruction named
    assert core in FPU_VARIANTS
    reason = model.check(insn)
    if reason:
        raise ValueError(reason)
    entry = model._class_of(insn, insn.insn_name())
    return entry.name, entry.cycles


@pytest.mark.parametrize(("core", "insn", "expected"), [
    # Cortex-M7: jnk0le cortex_m7.md "fpu (single precision)" / "(double precision)"
    ("m7f", "vadd.f32", ("fp_alu", 1)), ("m7f", "vfma.f32", ("fp_mac", 1)), ("m7f", "vdiv.f32", ("fp_divide", 16)),
    ("m7f", "vsqrt.f32", ("fp_sqrt", 14)), ("m7f", "vcvt.f32.s32", ("fp_alu", 1)),
    ("m7f", "vadd.f64", ("fp_double_alu", 3)), ("m7f", "vmul.f64", ("fp_double_multiply", 5)),
    ("m7f", "vdiv.f64", ("fp_double_divide", 30)), ("m7f", "vfma.f64", ("fp_double_mac", 10)),
    # Cortex-M33: jnk0le cortex_m33.md FMA (1 + 2 lockout cycles); the rest the M4's Table 7-1
    ("m33f", "vadd.f32", ("fp_alu", 1)), ("m33f", "vfma.f32", ("fp_mac", 3)), ("m33f", "vdiv.f32", ("fp_divide", 14)),
    ("m33f", "vsqrt.f32", ("fp_divide", 14)), ("m33f", "vcvt.f32.s32", ("fp_alu", 1)),
    # Cortex-M4: DDI 0439D Table 7-1 (unchanged)
    ("m4f", "vadd.f32", ("fp_alu", 1)), ("m4f", "vfma.f32", ("fp_mac", 3)), ("m4f", "vdiv.f32", ("fp_divide", 14)),
])
def test_fpu_data_processing_is_priced_from_the_cited_rows(core, insn, expected):
    assert _class_cycles(core, insn) == expected


@pytest.mark.parametrize(("core", "insn", "message"), [
    ("m7f", "vsqrt.f64", r"double-precision 'vsqrt' has no cycle count in m7.toml \(double precision priced: vadd, "),
    ("m33f", "vadd.f64", r"double-precision arithmetic; the Cortex-M33 FPU is single precision"),
])
def test_unmeasured_fp_instructions_are_refused_naming_what_is_priced(core, insn, message):
    with pytest.raises(ValueError, match=message):
        _class_cycles(core, insn)


@pytest.mark.skipif(not gcc_available(), reason="arm-none-eabi-gcc builds the hard-float ELF")
@pytest.mark.parametrize("core", ["m4f", "m7f", "m33f"])
def test_compiled_float_code_runs_on_every_fpu_core(core):
    fpu = "fpv5-d16" if core == "m7f" else "fpv4-sp-d16"
    elf = build([FP_C], core[:-1], compiler="gcc", extra_flags=["-mfloat-abi=hard", f"-mfpu={fpu}"]).elf
    m = Machine(core)
    m.load_elf(elf)
    assert m.call("fmac", F32(2.0), F32(3.0), F32(1.0)).return_float == 7.0
    assert m.call("fdivide", F32(7.0), F32(2.0)).return_float == 3.5
    assert m.call("fconv", 3).return_float == 3.5
    if core == "m7f":
        assert m.call("dmac", F64(2.0), F64(3.0), F64(1.0)).return_double == 7.0
