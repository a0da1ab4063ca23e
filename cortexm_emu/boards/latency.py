"""Flash wait states at a core clock, read from the board's reference-manual latency table."""

from __future__ import annotations

from cortexm_emu.boards.catalogue import load_board
from cortexm_emu.boards.model import Board

__all__ = ["wait_states"]


def wait_states(board: Board | str, clock_mhz: float) -> int:
    """Flash wait states the reference manual requires at core clock ``clock_mhz``.

    Raises ``ValueError`` if the clock is not positive or exceeds the part maximum.
    """
    if isinstance(board, str):
        board = load_board(board)
    is_number = isinstance(clock_mhz, (int, float)) and not isinstance(clock_mhz, bool)
    if not is_number or not clock_mhz > 0:
        raise ValueError(
            f"Invalid clock ({clock_mhz!r} MHz) for board {board.name}; "
            "accepted: a positive number of MHz"
        )
    if clock_mhz > board.max_clock_mhz:
        raise ValueError(
            f"Invalid clock ({clock_mhz:g} MHz) for board {board.name}: above the part maximum of "
            f"{board.max_clock_mhz:g} MHz ({board.max_clock.source})"
        )
    flash_clock = clock_mhz / board.flash.hclk_divider
    for row in board.flash.latency:
        if flash_clock <= row.max_mhz:
            return row.wait_states
    # The schema check guarantees the table covers the part maximum, so this is unreachable
    # for a loaded board; keep an explicit error rather than a silent default.
    raise ValueError(
        f"Invalid clock ({clock_mhz:g} MHz) for board {board.name}: "
        "not covered by its flash latency table"
    )
