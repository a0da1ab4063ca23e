"""A board whose part has no cache is never labelled "caches on" (issue 32)."""

from __future__ import annotations

import pytest

from cortexm_emu.boards import load_board
from cortexm_emu.flash import board_memory


@pytest.mark.parametrize("cache", ["on", "off"])
def test_a_part_without_caches_is_named_so_whatever_the_option(cache):
    board = load_board("stm32wl33cc")
    assert board.accelerators == ()
    memory = board_memory(board, cache=cache)
    assert "no caches" in memory.name
    assert "caches on" not in memory.name
    assert memory.describe()["cache"] is False
    assert any("no cache on STM32WL33" in note for note in memory.notes)


def test_a_part_with_caches_keeps_its_label():
    assert "caches on" in board_memory("stm32f407vg", cache="on").name
    assert "caches off" in board_memory("stm32f407vg", cache="off").name
