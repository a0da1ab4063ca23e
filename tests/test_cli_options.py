"""The machine options declared once (cortexm_emu.machine_options) and every numeric option
bounded before any work (refbench.options): issue 26 item 5 and issue 32's option items. Each
case is refused at parse or check time, with exit status 2 and a message naming the option."""

from __future__ import annotations

import argparse

import pytest

from cortexm_emu.cli import build_parser as emu_parser
from cortexm_emu.cli import main as emu_main
from cortexm_emu.machine_options import (
    BOARD_HELP,
    CLOCK_DEFAULT,
    CLOCK_HELP,
    MAX_CLOCK_MHZ,
    board_clock,
    resolve_board,
)
from cortexm_emu.timing import CORES as TIMED_CORES
from cortexm_emu.validate import run_validation
from refbench.cli import build_parser as refbench_parser
from refbench.cli import main
from refbench.options import MAX_LEAKAGE_SIZE, MAX_LEAKAGE_TRACED_BYTES, MAX_SECRETS, board_name


def _emu(argv: list[str]) -> int:
    try:
        return emu_main(argv)
    except SystemExit as exc:  # argparse
        return int(exc.code or 0)


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    (action,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return dict(action.choices)


def _option(parser: argparse.ArgumentParser, flag: str) -> argparse.Action | None:
    return next((a for a in parser._actions if flag in a.option_strings), None)


# --------------------------------------------------------------------------- declared once

MACHINE_COMMANDS = [("refbench", "cycles"), ("refbench", "annotate"), ("refbench", "leakage"),
                    ("cortexm-emu", "run")]


@pytest.mark.parametrize(("program", "command"), MACHINE_COMMANDS)
def test_every_command_declares_board_and_clock_with_the_one_help(program: str, command: str) -> None:
    parser = _subparsers(refbench_parser() if program == "refbench" else emu_parser())[command]
    board, clock = _option(parser, "--board"), _option(parser, "--clock")
    assert board is not None and board.help is not None and board.help.startswith(BOARD_HELP)
    assert clock is not None and clock.help == CLOCK_HELP
    assert CLOCK_DEFAULT in clock.help and "part maximum" in CLOCK_DEFAULT  # the default clock, stated


@pytest.mark.parametrize(("alias", "profile"), [
    ("stm32h753zi", "stm32h753zi"), ("STM32H753ZI", "stm32h753zi"), ("NUCLEO-H753ZI", "stm32h753zi"),
    ("nucleo-f756zg", "stm32f756zg"), ("NUCLEO-WL55JC RevC", "stm32wl55jc"),
    ("NUCLEO-WL55JC1 (MB1389-HIGHBAND-E02)", "stm32wl55jc"),
])
def test_board_is_a_profile_with_part_and_board_names_as_aliases(alias: str, profile: str) -> None:
    assert resolve_board(alias).name == profile
    assert board_name(alias) == profile


def test_a_pages_board_name_is_an_alias_of_its_figures_part() -> None:
    """STM32F437I-EVAL is how a page writes ST's STM32437I-EVAL; its figures name part STM32F437."""
    with pytest.raises(ValueError, match=r"Invalid --board \('STM32F437I-EVAL'\)"):
        resolve_board("STM32F437I-EVAL")
    assert board_name("STM32F437I-EVAL") == "stm32f437ii"


def test_every_command_parses_the_same_alias_to_the_same_profile() -> None:
    refbench = _subparsers(refbench_parser())
    for command in ("cycles", "annotate", "leakage"):
        args = refbench[command].parse_args(["aes/ttable4", "--board", "NUCLEO-H753ZI"] if command != "cycles"
                                            else ["--board", "NUCLEO-H753ZI"])
        assert args.board in ("stm32h753zi", ["stm32h753zi"]), command
    run = _subparsers(emu_parser())["run"].parse_args(["x.elf", "f", "--board", "NUCLEO-H753ZI"])
    assert run.board == "stm32h753zi"


def test_the_default_clock_is_the_boards_and_said() -> None:
    f407 = resolve_board("stm32f407vg")
    clock, note = board_clock(f407, None)
    assert clock == f407.default_clock_mhz and "no --clock" in note and f407.default_clock_note() in note
    assert board_clock(f407, 100.0) == (100.0, "")


# --------------------------------------------------------------------------- --clock


BAD_CLOCKS = ["inf", "-inf", "nan", "-5", "0", "1e300", str(int(MAX_CLOCK_MHZ) + 1)]


@pytest.mark.parametrize("clock", BAD_CLOCKS)
@pytest.mark.parametrize("argv", [
    ["cycles", "--kernel", "sha256", "--board", "stm32f407vg"],
    ["annotate", "sha256/rolled", "--board", "stm32f407vg"],
    ["leakage", "aes/ttable4", "--board", "stm32f407vg"],
    ["sanity", "--input", "-", "--core", "m4", "--no-emulator"],
])
def test_a_clock_that_is_not_a_finite_positive_mhz_is_refused_naming_it(capsys, argv, clock) -> None:
    assert main([*argv, f"--clock={clock}"]) == 2
    err = capsys.readouterr().err
    assert "Invalid --clock (" in err and "accepted: a number of MHz above 0" in err and "Traceback" not in err


@pytest.mark.parametrize("clock", BAD_CLOCKS)
def test_emulator_refuses_the_same_clocks(capsys, clock) -> None:
    assert _emu(["run", "x.elf", "f", "--board", "stm32f407vg", f"--clock={clock}"]) == 2
    assert "argument --clock: Invalid --clock (" in capsys.readouterr().err


def test_a_clock_above_the_boards_maximum_names_clock_and_board(capsys) -> None:
    assert main(["annotate", "sha256/rolled", "--board", "stm32f407vg", "--clock", "200"]) == 2
    assert "Invalid --clock (200) with --board stm32f407vg: above the part maximum, 168 MHz" in capsys.readouterr().err


def test_wait_states_are_bounded(capsys) -> None:
    assert main(["sanity", "--input", "-", "--core", "m4", "--clock", "100", "--wait-states", "1000000"]) == 2
    assert "Invalid --wait-states (1000000); accepted: an integer from 0 to 15" in capsys.readouterr().err


# --------------------------------------------------------------------------- leakage bounds


@pytest.mark.parametrize(("argv", "message"), [
    (["--secrets", "100000000"], f"Invalid --secrets ('100000000'); accepted: an integer from 2 to {MAX_SECRETS:,}"),
    (["--size", "1000000"], f"Invalid --size ('1000000'); accepted: an integer from 1 to {MAX_LEAKAGE_SIZE:,}"),
    (["--size", "0"], "Invalid --size (0); accepted: an integer from 1"),
    (["--secrets", "1"], "Invalid --secrets (1); accepted: an integer from 2"),
    (["--secrets", "1024", "--size", "4096"],
     f"Invalid --secrets (1024) with --size (4096): 4,194,304 traced bytes; accepted: --secrets x --size at most "
     f"{MAX_LEAKAGE_TRACED_BYTES:,}"),
])
def test_leakage_work_is_bounded_before_it_starts(capsys, argv, message) -> None:
    assert main(["leakage", "aes/ttable4", "--core", "m4", *argv]) == 2
    assert message in capsys.readouterr().err


# --------------------------------------------------------------------------- annotate, plot, parts, validate


def test_annotate_a_partial_cbc_block_is_an_option_error_not_a_fault(capsys) -> None:
    assert main(["annotate", "aes/ttable4", "--operation", "cbc-encrypt", "--size", "17", "--core", "m4"]) == 2
    err = capsys.readouterr().err
    assert "Invalid --size (17) for aes/ttable4 cbc-encrypt" in err and "a multiple of 16" in err
    assert "faulted" not in err


def test_leakage_a_size_the_operation_refuses_is_an_option_error(capsys) -> None:
    assert main(["leakage", "bignum/c32", "--operation", "p256-mul", "--core", "m4", "--size", "31"]) == 2
    err = capsys.readouterr().err
    assert "Invalid --size (31) for bignum/c32 p256-mul" in err and "accepted: 32 bytes" in err


@pytest.mark.parametrize(("plot", "message"), [
    ("", "Invalid --plot (''): empty"),
    (".", "Invalid --plot ('.'): a folder"),
    ("/proc/refbench-curves.png", "Invalid --plot ('/proc/refbench-curves.png'): cannot be written"),
])
def test_plot_path_problems_are_clear_errors(capsys, plot, message) -> None:
    assert main(["cycles", "--kernel", "sha256", "--sizes", "64", "--plot", plot]) == 2
    assert message in capsys.readouterr().err


def test_a_folder_named_like_a_plot_is_refused(tmp_path, capsys) -> None:
    folder = tmp_path / "curves.png"
    folder.mkdir()
    assert main(["cycles", "--kernel", "sha256", "--sizes", "64", "--plot", str(folder)]) == 2
    assert "a folder" in capsys.readouterr().err


@pytest.mark.parametrize("part", ["STM32H753ZI", "stm32h753zi", "NUCLEO-H753ZI"])
def test_parts_accepts_part_names_as_pages_write_them(capsys, part) -> None:
    assert main(["parts", "--part", part]) == 0
    assert "stm32h753zi (STM32H753ZI)" in capsys.readouterr().out


def test_parts_unknown_name_names_the_option(capsys) -> None:
    assert main(["parts", "--part", "stm32f999"]) == 2
    assert "argument --part: Invalid --part ('stm32f999')" in capsys.readouterr().err


def test_validate_offers_only_the_cores_it_validates(capsys) -> None:
    core = _option(_subparsers(emu_parser())["validate"], "--core")
    assert core is not None and core.help is not None
    offered = core.help.rsplit("accepted: ", 1)[1].split(";")[0].split(", ")
    assert offered == list(TIMED_CORES) and "m4f" not in offered
    run_validation(offered[:1], names=[])  # each one offered is accepted
    assert _emu(["validate", "--core", "m4f"]) == 2
    assert "argument --core: Invalid --core ('m4f')" in capsys.readouterr().err


def test_usage_errors_exit_2_from_main_without_raising(capsys) -> None:
    assert main(["cycles", "--no-such-option"]) == 2
    assert main(["nosuchcommand"]) == 2
    assert main(["cycles", "--help"]) == 0
    capsys.readouterr()


def test_sanity_board_filter_takes_a_profile_name_like_every_command(capsys) -> None:
    """Without --input, --board selects the pages' figures; a profile name (as every other command's
    --board takes) selects the same figures as the page's own board name."""
    import json

    selected = {}
    for board in ("stm32l4a6zg", "NUCLEO-L4A6ZG", "STM32L4A6ZG"):
        assert main(["sanity", "--no-emulator", "--board", board, "--format", "json"]) == 0
        selected[board] = {f["id"] for f in json.loads(capsys.readouterr().out)["figures"]}
    assert selected["stm32l4a6zg"] and len(set(map(frozenset, selected.values()))) == 1


def test_emulator_core_with_a_board_is_the_boards_core_with_its_fpu(capsys) -> None:
    """--board stm32f407vg (an M4 with an FPU): --core m4, --core m4f and no --core all run the
    board's core with its FPU; a core of another part is refused naming both options."""
    import json
    from pathlib import Path

    from cortexm_emu.toolchain import build

    elf = str(build([Path(__file__).parent / "asm" / "machine" / "calls.c"], "m4").elf)
    runs = {}
    for core in ([], ["--core", "m4"], ["--core", "m4f"]):
        argv = ["run", elf, "negate", "--arg", "5", "--board", "stm32f407vg", "--clock", "24", "--json", *core]
        assert _emu(argv) == 0
        out = json.loads(capsys.readouterr().out)
        runs[" ".join(core)] = (out["core"], out["cycles"], out["return_value"])
    assert len(set(runs.values())) == 1, runs
    assert _emu(["run", elf, "negate", "--board", "stm32f407vg", "--core", "m7f"]) == 2
    assert "Invalid --core (m7f) with --board stm32f407vg: that part has a m4 core with an FPU; accepted: --core m4 " \
           "or m4f" in capsys.readouterr().err


def test_sanity_input_board_is_named_as_every_command_names_it(capsys) -> None:
    """With --input, --board names the input's board: a page's board name is an alias there too,
    and an unknown one is an error naming --board."""
    from pathlib import Path

    template = str(Path(__file__).resolve().parents[1] / "refbench" / "inputs" / "template.csv")
    assert main(["sanity", "--input", template, "--board", "nope", "--no-emulator"]) == 2
    assert "Invalid --board ('nope')" in capsys.readouterr().err
    assert main(["sanity", "--input", template, "--board", "STM32F437I-EVAL", "--no-emulator",
                 "--format", "json"]) in (0, 1)
    assert "Invalid" not in capsys.readouterr().err


MACHINE_FLAGS = ("--core", "--board", "--clock", "--cache", "--prefetch", "--code", "--tables", "--start",
                 "--wait-states")


def test_machine_options_are_declared_in_one_module() -> None:
    """No command declares a machine option itself: every one goes through add_machine_options."""
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    found = set()
    for package in ("refbench", "cortexm_emu"):
        for path in sorted((root / package).rglob("*.py")):
            if path.name == "machine_options.py":
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                        and node.func.attr in ("add_argument", "addoption") and node.args
                        and isinstance(node.args[0], ast.Constant) and node.args[0].value in MACHINE_FLAGS):
                    found.add((path.relative_to(root).as_posix(), node.args[0].value))
    assert not found, sorted(found)


def test_the_input_machine_and_the_sweeps_cores_parse_as_every_command_does(capsys) -> None:
    """sanity --input states its machine with the shared options (a core as a log writes it,
    ``unknown`` settings, bounded wait states); the sweep script and held-out take cores as lists."""
    from refbench.sanity.matrix import main as matrix_main

    args = refbench_parser().parse_args(["sanity", "--input", "-", "--core", "Cortex-M4F", "--clock", "80",
                                         "--wait-states", "2", "--cache", "unknown", "--prefetch", "off",
                                         "--board", "H753, F756"])
    assert (args.core, args.clock, args.wait_states, args.cache, args.prefetch) == ("Cortex-M4F", 80.0, 2, "unknown",
                                                                                    "off")
    assert args.board == ["H753", "F756"]
    with pytest.raises(SystemExit):
        refbench_parser().parse_args(["sanity", "--input", "-", "--core", "m5"])
    assert "argument --core: Invalid --core ('m5')" in capsys.readouterr().err
    held = refbench_parser().parse_args(["held-out", "--core", "m4,m7", "--core", "m0plus"])
    assert held.core == ["m4", "m7", "m0plus"]
    with pytest.raises(SystemExit):
        matrix_main(["--core", "m4,m9"])
    assert "argument --core: Invalid --core ('m9')" in capsys.readouterr().err
