"""Calls follow the ELF's floating-point ABI (issue 32): Tag_ABI_VFP_args read from the build
attributes; F32/F64 arguments and the result through s/d registers for a hard-float ELF, as their
bits through core registers for a soft-float one; an ELF whose ABI the machine cannot honour is
refused by name."""

from __future__ import annotations

import json
import struct
from pathlib import Path

import pytest

from cortexm_emu import F32, F64, Buffer, ElfError, Machine
from cortexm_emu.cli import main
from cortexm_emu.float_abi import split_vfp
from cortexm_emu.toolchain import build, gcc_available

SOURCE = Path(__file__).parent / "asm" / "hard_float" / "fmac.c"
HARD = ["-mfloat-abi=hard", "-mfpu=fpv4-sp-d16"]
needs_gcc = pytest.mark.skipif(not gcc_available(), reason="arm-none-eabi-gcc builds the hard-float ELF "
                               "(zig's cortex_m4 has no FP feature)")


def _hard() -> Path:
    return build([SOURCE], "m4", compiler="gcc", extra_flags=HARD).elf


def test_vfp_arguments_fill_s_registers_in_order_with_back_filling():
    rest, words = split_vfp([F32(1.0), 7, F64(2.0), F32(3.0), "buf"])
    assert rest == [7, "buf"]
    one, three = F32(1.0).bits(), F32(3.0).bits()
    two = F64(2.0).bits()
    # s0 = 1.0f, d1 = s2:s3 = 2.0, then 3.0f back-fills s1 (AAPCS IHI 0042 §6.5 C.1.cp)
    assert words == {0: one, 1: three, 2: two & 0xFFFF_FFFF, 3: two >> 32}


def test_more_fp_arguments_than_vfp_registers_are_refused_by_name():
    with pytest.raises(ValueError, match=r"argument 16 \(F32\).*s0-s15"):
        split_vfp([F32(float(i)) for i in range(17)])


@pytest.mark.parametrize("value", [1e39, "1.0", True])
def test_bad_floats_are_named(value):
    with pytest.raises(ValueError, match="Invalid F32"):
        F32(value)


@needs_gcc
@pytest.mark.parametrize("core", ["m4f", "m7f", "m33f"])
def test_a_hard_float_function_gets_its_arguments_and_result_in_s_registers(core):
    m = Machine(core)
    image = m.load_elf(_hard())
    assert image.vfp_args == 1
    result = m.call("fmac", F32(2.0), F32(3.0), F32(1.0))
    assert result.abi == "hard" and result.return_float == 7.0
    assert m.call("pick3", F32(1.5), F64(2.0), F32(4.0)).return_float == 2.5  # d1, s1 back-filled
    assert m.call("mixed", 1, F32(2.5), 3).return_value == 6  # ints in r0, r1; the float in s0


@needs_gcc
def test_a_board_whose_part_has_an_fpu_runs_a_hard_float_elf():
    m = Machine.for_board("stm32f407vg", 168)
    m.load_elf(_hard())
    assert m.call("fmac", F32(2.0), F32(3.0), F32(1.0)).return_float == 7.0


@needs_gcc
@pytest.mark.parametrize("core", ["m4", "m0plus", "m7"])
def test_a_hard_float_elf_on_a_core_without_fpu_is_refused_by_name(core):
    with pytest.raises(ElfError, match=r"hard-float ABI \(Tag_ABI_VFP_args = 1.*use core m4f"):
        Machine(core).load_elf(_hard())


def test_a_soft_float_elf_gets_float_bits_in_core_registers():
    m = Machine("m4")
    assert m.load_elf(build([SOURCE], "m4").elf).vfp_args == 0
    result = m.call("fmac", F32(2.0), F32(3.0), F32(1.0))
    assert result.abi == "soft" and result.return_float == 7.0
    assert m.call("pick3", F32(1.5), F64(2.0), F32(4.0)).return_float == 2.5  # d in r2:r3, b on the stack


def test_soft_float_code_tagged_hard_float_is_refused_not_miscomputed():
    """The issue's build: zig cc -mfloat-abi=hard for cortex_m4 (no FP feature) writes
    Tag_ABI_VFP_args = 1 over soft-float code, which reads its arguments from r0-r2."""
    elf = build([SOURCE], "m4", extra_flags=HARD).elf
    m = Machine("m4f")
    assert m.load_elf(elf).vfp_args == 1
    with pytest.raises(ElfError, match="executed no floating-point instruction.*contradict the code"):
        m.call("fmac", F32(2.0), F32(3.0), F32(1.0))


@needs_gcc
def test_the_cli_takes_float_arguments_and_prints_the_s0_result(capsys):
    code = main(["run", str(_hard()), "fmac", "--core", "m4f", "--arg", "2.0f", "--arg", "3f", "--arg", "1.0f",
                 "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["abi"] == "hard" and out["return_float"] == 7.0


@pytest.mark.parametrize(("text", "message"), [("1.5", "invalid integer"), ("1e39f", "binary32 range"),
                                                ("1.5q", "invalid integer")])
def test_the_cli_names_bad_float_arguments(capsys, text, message):
    with pytest.raises(SystemExit) as info:
        main(["run", "x.elf", "fmac", "--arg", text])
    assert info.value.code == 2 and message in capsys.readouterr().err


@needs_gcc
def test_a_buffer_of_floats_and_a_float_argument():
    m = Machine("m4f")
    m.load_elf(_hard())
    result = m.call("scale", Buffer.floats([1.0, -2.5, 3.0]), 3, F32(2.0))
    assert result.floats(0) == (2.0, -5.0, 6.0)


def test_a_buffer_of_doubles_reads_back():
    data = Buffer.floats([1.5, -0.25], double=True).data
    assert len(data) == 16 and struct.unpack("<2d", data) == (1.5, -0.25)


@needs_gcc
def test_the_cli_takes_a_buffer_of_floats(capsys):
    code = main(["run", str(_hard()), "scale", "--core", "m4f", "--buf", "f32:1,-2.5,3", "--arg", "3", "--arg", "2f",
                 "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and struct.unpack("<3f", bytes.fromhex(out["buffers"][0]["hex"])) == (2.0, -5.0, 6.0)


def test_the_cli_names_a_bad_float_buffer(capsys):
    with pytest.raises(SystemExit):
        main(["run", "x.elf", "scale", "--buf", "f32:1,x"])
    assert "invalid buffer 'f32:1,x'" in capsys.readouterr().err
