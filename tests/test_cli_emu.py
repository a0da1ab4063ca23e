"""The cortexm-emu command line: run, annotate, JSON output, argument order, errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from cortexm_emu import Machine
from cortexm_emu.cli import main
from cortexm_emu.toolchain import build

ASM = Path(__file__).parent / "asm" / "machine"


@pytest.fixture(scope="module")
def calls_elf() -> str:
    return str(build([ASM / "calls.c"], "m4").elf)


def run_json(capsys, *argv: str) -> dict:
    assert main([*argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_run_json_has_the_documented_fields(capsys, calls_elf):
    out = run_json(
        capsys,
        "run",
        calls_elf,
        "xor_into",
        "--core",
        "m4",
        "--buf",
        "0f102030",
        "--buf",
        "hex:f0010203",
        "--arg",
        "4",
    )
    for key in (
        "cycles",
        "instructions",
        "stack_bytes",
        "return_value",
        "code_bytes",
        "buffers",
        "count_includes",
    ):
        assert key in out
    assert [b["hex"] for b in out["buffers"]] == ["ff112233", "f0010203"]
    direct = Machine("m4")
    direct.load_elf(calls_elf)
    from cortexm_emu import Buffer

    expected = direct.call(
        "xor_into", Buffer(bytes.fromhex("0f102030")), Buffer(bytes.fromhex("f0010203")), 4
    )
    assert (out["cycles"], out["instructions"], out["stack_bytes"]) == (
        expected.cycles,
        expected.instructions,
        expected.stack_bytes,
    )


def test_arguments_keep_their_order_including_64_bit_ones(capsys, calls_elf):
    out = run_json(
        capsys,
        "run",
        calls_elf,
        "mix64",
        "--arg",
        "7",
        "--arg64",
        "0x1122334455667788",
        "--arg",
        "9",
        "--arg64",
        "0x8102030405060708",
    )
    b, d = 0x1122_3344_5566_7788, 0x8102_0304_0506_0708
    assert out["return_value64"] == ((b ^ ((d << 1) & (2**64 - 1))) + 7 + (9 << 32)) & (2**64 - 1)


@pytest.mark.parametrize("spec, size", [("size:24", 24), ("24", 24), ("0", 0)])
def test_decimal_buffer_spec_is_a_zeroed_size(capsys, calls_elf, spec, size):
    out = run_json(
        capsys,
        "run",
        calls_elf,
        "fill",
        "--buf",
        spec,
        "--arg",
        str(size),
        "--arg",
        "3",
        "--core",
        "m3",
    )
    assert out["buffers"][0]["hex"] == bytes((3 + i) & 0xFF for i in range(size)).hex()


@pytest.mark.parametrize(
    "spec, data",
    [("0024", b"\x00\x24"), ("hex:24", b"\x24"), ("deadbeef", bytes.fromhex("deadbeef"))],
)
def test_other_buffer_specs_are_hex_bytes(capsys, calls_elf, spec, data):
    out = run_json(
        capsys,
        "run",
        calls_elf,
        "xor_into",
        "--buf",
        spec,
        "--buf",
        "size:" + str(len(data)),
        "--arg",
        str(len(data)),
    )
    assert out["buffers"][0]["hex"] == data.hex()


def test_run_text_output(capsys, calls_elf):
    assert main(["run", calls_elf, "negate", "--arg", "-5", "--core", "m0plus"]) == 0
    text = capsys.readouterr().out
    assert "cycles" in text and "instructions" in text and "stack" in text
    assert "r0 = 5 (0x00000005)" in text
    assert "caller's BL is not counted" in text


def test_annotate_rows_sum_to_the_cycles(capsys, calls_elf):
    out = run_json(capsys, "annotate", calls_elf, "stack_user", "--arg", "50", "--core", "m4")
    assert sum(b["total_cycles"] for b in out["blocks"]) == out["cycles"]
    totals = [b["total_cycles"] for b in out["blocks"]]
    assert totals == sorted(totals, reverse=True)
    rows = [row for b in out["blocks"] for row in b["instructions"]]
    assert all(row["rule"] for row in rows)
    assert any(row["taken"] for row in rows)


def test_annotate_text_shows_rules_and_hottest_first(capsys, calls_elf):
    assert (
        main(
            [
                "annotate",
                calls_elf,
                "divide",
                "--arg",
                "1000",
                "--arg",
                "7",
                "--core",
                "m4",
                "--top",
                "2",
            ]
        )
        == 0
    )
    text = capsys.readouterr().out
    assert "udiv" in text and "+dyn" in text
    assert text.index("block 0x") < text.rindex("bx lr")


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--buf", "zz"], "invalid buffer 'zz'"),
        (["--arg", "twelve"], "invalid integer 'twelve'; expected e.g. 42"),
        (["--arg", "0x1ffffffff"], "does not fit 32 bits"),
        (["--core", "m5"], "argument --core: Invalid --core ('m5'); accepted: m0, m0plus"),
        # issue 19 item 7: sizes beyond the memory map, before anything is allocated
        (["--buf", "size:1000000000"], "invalid buffer size 1000000000 in 'size:1000000000': larger than the 536870912-byte SRAM region"),
        (["--buf", "99999999999999999999"], "invalid buffer size 99999999999999999999"),
        (["--stack", "99999999999999999999"], "invalid stack size '99999999999999999999'; expected a multiple of 8 from 256 to 536870912"),
        (["--stack", "100"], "invalid stack size '100'"),
        (["--budget", "-1"], "invalid budget '-1'"),
        (["--budget", str(1 << 70)], "invalid budget"),
        # issue 19 item 12
        (["--arg64", str(1 << 64)], "argument --arg64: 18446744073709551616 does not fit 64 bits"),
        (["--arg64", str(-(1 << 63) - 1)], "does not fit 64 bits"),
        # issue 19 item 13
        (["--reg", "r3=1"], "invalid register setting 'r3=1'; expected rN=INT with rN one of r4, r5"),
        (["--reg", "r4=0x100000000"], "does not fit 32 bits"),
        (["--reg", "r4"], "invalid register setting 'r4'"),
    ],
)
def test_bad_arguments_exit_2_with_the_bad_value(capsys, calls_elf, argv, message):
    with pytest.raises(SystemExit) as info:
        main(["run", calls_elf, "negate", *argv])
    assert info.value.code == 2
    assert message in capsys.readouterr().err


def test_unknown_function_exits_2(capsys, calls_elf):
    assert main(["run", calls_elf, "no_such_function"]) == 2
    assert "Invalid function 'no_such_function'" in capsys.readouterr().err


def test_fault_exits_1_with_the_fault(capsys, calls_elf):
    assert main(["run", calls_elf, "spin", "--budget", "1000"]) == 1
    err = capsys.readouterr().err
    assert "BudgetExceeded" in err and "(spin" in err


def test_bad_elf_exits_1(capsys, tmp_path):
    bad = tmp_path / "bad.elf"
    bad.write_bytes(b"not an elf at all")
    assert main(["run", str(bad), "f"]) == 1
    assert "not an ELF file" in capsys.readouterr().err


def test_help_says_what_the_count_includes():
    out = subprocess.run(
        [sys.executable, "-m", "cortexm_emu", "run", "--help"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "own return included" in " ".join(out.split())
    assert "caller's BL is not counted" in " ".join(out.split())
    assert "size:N" in out and "hex:HEX" in out


def test_annotate_top_must_be_positive(capsys, calls_elf):
    for top in ("-1", "0"):
        with pytest.raises(SystemExit) as info:
            main(["annotate", calls_elf, "negate", "--arg", "1", "--top", top])
        assert info.value.code == 2
        assert f"invalid --top '{top}'; expected a number of blocks >= 1" in capsys.readouterr().err


def test_board_with_a_contradicting_core_is_an_error(capsys, calls_elf):
    assert main(["run", calls_elf, "negate", "--arg", "1", "--board", "stm32f407vg", "--core", "m0plus"]) == 2
    err = capsys.readouterr().err
    assert "Invalid --core (m0plus) with --board stm32f407vg: that part has a m4 core" in err
    assert main(["run", calls_elf, "negate", "--arg", "1", "--board", "stm32f407vg", "--core", "m4", "--clock", "24"]) == 0


def test_buffers_and_stack_that_overflow_sram_together_exit_2(capsys, calls_elf):
    argv = ["run", calls_elf, "negate", "--buf", "size:300000000", "--buf", "size:300000000"]
    assert main(argv) == 2
    assert "Invalid buffer 1 'buf1' of 300000000 bytes: the call's buffers would end at" in capsys.readouterr().err
    assert main(["run", calls_elf, "negate", "--stack", "536870912", "--arg", "1"]) == 2
    assert "Invalid stack_size 536870912: the stack would end at" in capsys.readouterr().err


def test_pointer_into_a_buffer_and_registers(capsys):
    elf = str(build([ASM / "abi.S"], "m4").elf)
    out = run_json(capsys, "run", elf, "load_word", "--data", "hex:0001020304050607", "--arg", "buf0+4")
    assert out["return_value"] == 0x0706_0504
    assert out["buffers"][0]["name"] == "buf0" and out["buffers"][0]["hex"] == "0001020304050607"
    out = run_json(capsys, "run", elf, "load_word", "--arg", "buf1+2", "--buf", "size:4", "--data", "aabbccddeeff")
    assert out["return_value"] == 0xFFEE_DDCC  # --buf and --data share one numbering, in order
    assert [(b["index"], b["name"], b["size"]) for b in out["buffers"]] == [(0, "buf0", 4), (1, "buf1", 6)]
    out = run_json(capsys, "run", elf, "internal_sum", "--reg", "r4=10", "--reg", "R5=3", "--reg", "r12=0x64")
    assert out["return_value"] == 123
    assert main(["run", elf, "load_word", "--buf", "size:8", "--arg", "buf1"]) == 2
    assert "Invalid --arg buf1+0: there is no buf1 (1 --buf/--data given; accepted: buf0)" in capsys.readouterr().err
    assert main(["run", elf, "load_word", "--buf", "size:8", "--arg", "buf0+9"]) == 2
    assert "offset outside the 8-byte buffer" in capsys.readouterr().err


def test_clobbered_callee_saved_register_exits_1_naming_it(capsys):
    elf = str(build([ASM / "abi.S"], "m4").elf)
    assert main(["run", elf, "clobber_r4"]) == 1
    err = capsys.readouterr().err
    assert "CalleeSavedClobbered: callee-saved register r4 changed by clobber_r4" in err
    assert main(["run", elf, "clobber_r4", "--reg", "r4=1"]) == 0  # its own convention: no check


def test_arm_state_elf_exits_1_naming_a32(capsys):
    a32 = build([ASM / "calls.c"], "m4", extra_flags=["-target", "arm-freestanding-eabi", "-mcpu=cortex_a7"], exports=["negate", "cortexm_emu_halt"]).elf
    assert main(["run", str(a32), "negate", "--arg", "1"]) == 1
    err = capsys.readouterr().err
    assert "ElfError" in err and "ARM-state (A32) ELF" in err and "unmapped" not in err
