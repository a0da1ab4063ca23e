"""``cortexm-emu run --board/--clock/--cache`` and ``cortexm-emu boards [--json]``."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest

from cortexm_emu import Machine
from cortexm_emu.boards import board_names, load_board
from cortexm_emu.cli import main
from cortexm_emu.flash import board_memory
from cortexm_emu.toolchain import build

ASM = Path(__file__).parent / "asm" / "memory"


@cache
def fetch_elf() -> str:
    return str(
        build([ASM / "fetch.S"], "m4", opt="Os", extra_flags=["-Wl,--entry=cortexm_emu_halt"]).elf
    )


def test_run_with_a_board_reports_memory_stalls_and_time(capsys):
    argv = [
        "run",
        fetch_elf(),
        "hops41",
        "--board",
        "stm32f407vg",
        "--clock",
        "168",
        "--cache",
        "off",
        "--arg",
        "3",
        "--json",
    ]
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    m = Machine("m4", board_memory("stm32f407vg", 168, "off"))
    m.load_elf(fetch_elf())
    expected = m.call("hops41", 3)
    assert out["cycles"] == expected.cycles
    assert out["memory_cycles"] == expected.memory_cycles == 3 * 41 * 5
    assert out["clock_mhz"] == 168
    assert out["time_us"] == pytest.approx(expected.cycles / 168)
    assert out["memory_config"]["wait_states"] == 5
    assert out["core"] == "m4"  # the board's core by default
    assert "stack" in out["placement"]


def test_run_accepts_a_part_number_and_defaults_to_the_boards_default_clock(capsys):
    # one default clock everywhere (Board.default_clock_mhz), said on stderr with its reason:
    # the F407 profile names 24 MHz (0 wait states); a profile without [default_clock] its maximum
    assert main(["run", fetch_elf(), "straight16", "--board", "STM32F407", "--json"]) == 0
    captured = capsys.readouterr()
    out = json.loads(captured.out)
    assert out["clock_mhz"] == 24
    assert out["memory_config"]["wait_states"] == 0
    assert "no --clock; running stm32f407vg at 24 MHz, the board's default clock: 24 MHz: flash needs 0" in captured.err
    assert main(["run", fetch_elf(), "straight16", "--board", "stm32l4a6zg", "--json"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["clock_mhz"] == 80
    assert "running stm32l4a6zg at 80 MHz, the part maximum (" in captured.err


def test_run_text_shows_time_and_stalls(capsys):
    assert (
        main(
            [
                "run",
                fetch_elf(),
                "loop_in_line",
                "--board",
                "stm32f407vg",
                "--clock",
                "168",
                "--arg",
                "5",
            ]
        )
        == 0
    )
    text = capsys.readouterr().out
    assert "us at 168 MHz" in text
    assert "stall cycles included" in text


def test_prefetch_switch_reaches_the_model(capsys):
    cycles = {}
    for setting in ("on", "off"):
        argv = [
            "run",
            fetch_elf(),
            "straight16",
            "--board",
            "stm32f407vg",
            "--clock",
            "168",
            "--cache",
            "off",
            "--prefetch",
            setting,
            "--json",
        ]
        assert main(argv) == 0
        cycles[setting] = json.loads(capsys.readouterr().out)["memory_cycles"]
    assert cycles == {"on": 5, "off": 9 * 5}


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["--board", "stm32f407vg", "--clock", "200"],
            "Invalid --clock (200) with --board stm32f407vg: above the part maximum, 168 MHz",
        ),
        (["--board", "nosuch"], "argument --board: Invalid --board ('nosuch')"),
        (["--clock", "100"], "Invalid --clock (100) without --board"),
        (["--tables", "ram"], "Invalid --tables (ram) without --board"),
        (["--cache", "off"], "Invalid --cache (off) without --board"),
    ],
)
def test_bad_board_options_exit_2_with_the_bad_value(capsys, argv, message):
    try:
        code = main(["run", fetch_elf(), "straight16", *argv])
    except SystemExit as exc:  # argparse: a value its parser refuses
        code = exc.code
    assert code == 2
    assert message in capsys.readouterr().err


def test_bad_cache_value_is_an_argument_error(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["run", fetch_elf(), "straight16", "--board", "stm32f407vg", "--cache", "maybe"])
    assert exc.value.code == 2
    assert "invalid choice: 'maybe'" in capsys.readouterr().err


def test_boards_lists_every_profile_with_wait_states(capsys):
    assert main(["boards"]) == 0
    text = capsys.readouterr().out
    for name in board_names():
        assert name in text
    assert "24 MHz: 0 WS, 168 MHz: 5 WS" in text  # the F407 default and maximum clocks
    assert "crypto" not in text.lower() and "AES" not in text  # crypto peripherals: refbench parts


def test_boards_json_is_every_profile(capsys):
    assert main(["boards", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [entry["name"] for entry in data] == board_names()
    assert data[0] == json.loads(json.dumps(load_board(board_names()[0]).as_dict()))


def test_help_documents_the_board_options(capsys):
    with pytest.raises(SystemExit):
        main(["run", "--help"])
    text = capsys.readouterr().out
    for flag in ("--board", "--clock", "--cache", "--prefetch", "cortexm-emu boards"):
        assert flag in text


def test_tables_and_code_placement_reach_the_model(capsys):
    """sum_words over 64 table words at 5 WS with caches off: the tables in SRAM leave one
    flash data read (the literal pool); code and tables in SRAM leave no stall at all."""
    stalls = {}
    for placement in ([], ["--tables", "ram"], ["--code", "ram"]):
        argv = ["run", fetch_elf(), "sum_words", "--arg", "64", "--board", "stm32f407vg", "--clock", "168",
                "--cache", "off", *placement, "--json"]
        assert main(argv) == 0
        stalls[" ".join(placement) or "flash"] = json.loads(capsys.readouterr().out)["memory_counts"]
    assert stalls["flash"]["flash_data_reads"] == 65 and stalls["--tables ram"]["flash_data_reads"] == 1
    assert stalls["--tables ram"]["data_stall_cycles"] == 5
    assert stalls["--code ram"]["data_stall_cycles"] == stalls["--code ram"]["sequential_stall_cycles"] == 0
