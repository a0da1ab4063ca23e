"""The board files shipped with the package: names, loading (cached) and lookup by part."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from cortexm_emu.boards.model import Board
from cortexm_emu.boards.schema import parse_board

__all__ = ["BOARD_DIR", "board_names", "find_board", "load_board", "load_board_file"]

BOARD_DIR = Path(__file__).resolve().parent


def board_names() -> list[str]:
    """Names of all board files shipped with the package, sorted."""
    return sorted(path.stem for path in BOARD_DIR.glob("*.toml"))


def load_board(name: str) -> Board:
    """Load the board profile ``name`` (e.g. ``"stm32l4a6zg"``)."""
    names = board_names()
    if name not in names:
        raise ValueError(f"Unknown board ({name!r}); accepted: {', '.join(names)}")
    return _load_cached(BOARD_DIR / f"{name}.toml")


def load_board_file(path: str | Path) -> Board:
    """Load and schema-check one board TOML file (any location)."""
    return parse_board(Path(path))


@cache
def _load_cached(path: Path) -> Board:
    return parse_board(path)


def find_board(name_or_part: str) -> Board:
    """The board whose name, part number or board name matches ``name_or_part``.

    Accepts a board file name (``"stm32wb55rg"``) or a part/board prefix (``"STM32WB55"``,
    ``"STM32L4A6Z"``, ``"STM32L562E"``); case-insensitive. Raises ``ValueError`` when nothing
    or more than one board matches.
    """
    names = board_names()
    if name_or_part in names:
        return load_board(name_or_part)
    wanted = name_or_part.strip().upper()
    matches = []
    if wanted:
        for name in names:
            board = load_board(name)
            if board.part.upper().startswith(wanted) or board.board.upper().startswith(wanted):
                matches.append(name)
    if len(matches) != 1:
        found = f"matches {', '.join(matches)}" if matches else "matches no board"
        raise ValueError(
            f"Invalid board or part ({name_or_part!r}): {found}; accepted: a board name "
            f"({', '.join(names)}) or a unique part-number prefix"
        )
    return load_board(matches[0])
