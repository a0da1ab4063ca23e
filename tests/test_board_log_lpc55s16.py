"""A real log judged against the board profile of the board it ran on: the LPCXpresso55S16 log
(tests/fixtures/logs/mbedtls-lpcxpresso55s16.txt) with `--board lpc55s16` resolves the profile by
its part-number prefix, and the emulator runs its kernel at the profile's clock and flash wait
states (the LPC55S16's own SDK table). Only what the profile contributes is checked, never the
verdict of the published figure."""

from __future__ import annotations

import json
from pathlib import Path

from cortexm_emu.boards import find_board, wait_states
from refbench.cli import main as refbench_main

LOG = Path(__file__).resolve().parent / "fixtures" / "logs" / "mbedtls-lpcxpresso55s16.txt"


def test_the_part_prefix_names_the_lpc55s16_profile():
    board = find_board("lpc55s16")
    assert board.name == "lpc55s16jbd100" and board.core == "m33"
    assert board.max_clock_mhz == 150 and wait_states(board, 150) == 11
    # its own table, not the LPC55S69's: 84 MHz still takes 6 wait states (the LPC55S69: 7)
    assert wait_states(board, 84) == 6 and wait_states(find_board("lpc55s69"), 84) == 7


def test_the_log_is_emulated_on_the_lpc55s16_profile(capsys):
    status = refbench_main(["sanity", "--input", str(LOG), "--board", "lpc55s16",
                            "--algorithm", "MD5", "--format", "json"])
    assert status == 0
    report = json.loads(capsys.readouterr().out)
    [figure] = report["figures"]
    assert figure["part"] == "LPC55S16JBD100" and figure["clock_mhz"] == 150
    assert figure["tested"] and figure["emulated_min"] and figure["emulated_max"]
    assert any(reason.startswith("[emulator]") for reason in figure["reasons"])
    text = json.dumps(figure)
    assert "board profile lpc55s16jbd100" in text
    assert "11 WS @ 150 MHz" in text  # the profile's flash latency at the clock the figure ran at
