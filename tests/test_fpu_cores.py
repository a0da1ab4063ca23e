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
    assert "Cortex-M4F" in capsys.readouterr().out


@pytest.mark.parametrize(("board", "core", "accepted"), [
    ("stm32f407vg", "m7f", "--core m4 or --core m4f"),
    ("stm32g071rb", "m4f", "--core m0plus, or no --core"),
    ("stm32f407vg", "m3", "--core m4 or --core m4f"),
])
def test_a_core_the_part_does_not_have_is_refused_naming_the_accepted_ones(capsys, board, core, accepted):
    elf = build([ASM / "calls.c"], "m4").elf
    assert main(["run", str(elf), "negate", "--board", board, "--core", core, "--arg", "5"]) == 2
    assert accepted in capsys.readouterr().err


def test_validate_offers_only_the_cores_it_runs(capsys):
    with pytest.raises(SystemExit) as info:
        main(["validate", "--core", "m4f"])
    assert info.value.code == 2
    assert "invalid choice: 'm4f'" in capsys.readouterr().err
