"""Execute in place from external serial flash (cortexm_emu.xip): the refill of one cache line
from the read command's phases, and board profiles that describe it ([xip])."""

from __future__ import annotations

import pytest

from cortexm_emu.boards import load_board, wait_states
from cortexm_emu.boards.schema import parse_board
from cortexm_emu.datafile import DataFileError
from cortexm_emu.xip import XipFlash


def xip(**changes) -> XipFlash:
    base = dict(controller="test", protocol="1-4-4", dtr=False, command_bits=0, address_bits=24, mode_bits=8,
                dummy_cycles=4, line_bytes=8, clock_mhz=None, clock_divider=2)
    return XipFlash(**(base | changes))


def test_refill_counts_each_phase_over_its_lanes():
    # continuous read: no command; 32 address+mode bits / 4 lanes = 8; 4 dummy; 64 data bits / 4 = 16
    assert xip().interface_clocks() == 28
    assert xip().refill_cycles(125) == 56 and xip().refill_cycles(50) == 56  # a divider: the same at any clock
    assert xip(command_bits=8).interface_clocks() == 36                      # 0xEB sent on one lane: 8 more
    assert xip(protocol="8-8-8", dtr=True, command_bits=16, address_bits=32, mode_bits=0, dummy_cycles=20,
               line_bytes=32).interface_clocks() == 1 + 2 + 20 + 16
    fixed = xip(clock_mhz=100.0, clock_divider=None)
    assert fixed.refill_cycles(100) == 28 and fixed.refill_cycles(400) == 112 and fixed.refill_cycles(150) == 42


def test_latency_rows_give_the_refill_at_every_clock():
    fixed = xip(clock_mhz=100.0, clock_divider=None)
    rows = fixed.latency_rows(600)
    assert rows[-1] == (600.0, fixed.refill_cycles(600) - 1)
    for mhz in (1, 99.9, 100, 133, 333.3, 600):
        ws = next(w for top, w in rows if mhz <= top)
        assert ws == fixed.refill_cycles(mhz) - 1, mhz
    assert xip().latency_rows(133) == ((133.0, 55),)


@pytest.mark.parametrize("changes, message", [
    ({"protocol": "1-3-4"}, "Invalid protocol"),
    ({"line_bytes": 12}, "Invalid line_bytes"),
    ({"clock_mhz": 100.0}, "exactly one of clock_mhz"),
    ({"clock_divider": None}, "exactly one of clock_mhz"),
    ({"dummy_cycles": -1}, "Invalid dummy_cycles"),
])
def test_bad_xip_values_are_named(changes, message):
    with pytest.raises(ValueError, match=message):
        xip(**changes)


def test_an_xip_profile_gets_its_latency_from_the_refill(tmp_path):
    board = load_board("rp2040")
    assert board.xip is not None and wait_states(board, 125) == 55 and board.flash.line_bits == 64
    text = board.path.read_text(encoding="utf-8")
    bad = tmp_path / "rp2040.toml"
    bad.write_text(text.replace("line_bits = 64\nclock", "line_bits = 128\nclock"), encoding="utf-8")
    with pytest.raises(DataFileError, match=r"flash\.line_bits.*must equal \[xip\] line_bytes x 8 \(64\)"):
        parse_board(bad)
    bad.write_text(text.replace('voltage_range = "not', 'wait_states = [{ max_mhz = 133, wait_states = 1 }]\n'
                                                         'voltage_range = "not'), encoding="utf-8")
    with pytest.raises(DataFileError, match=r"flash\.wait_states.*not with \[xip\]"):
        parse_board(bad)
    bad.write_text(text.replace('protocol = "1-4-4"', 'protocol = "quad"'), encoding="utf-8")
    with pytest.raises(DataFileError, match=r"xip.*Invalid protocol \('quad'\)"):
        parse_board(bad)
