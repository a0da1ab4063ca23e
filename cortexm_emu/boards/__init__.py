"""Board profiles: the core, clocks, flash, caches and memory map of a board, as cited data.

One TOML file per board sits next to this package (``stm32f407vg.toml`` ...). Every value
carries a ``source`` (document number, revision where known, section/table) and a
``confidence``:

* ``primary``     -- the ST document text was seen (directly or in a faithful copy that the
  source string names);
* ``secondary``   -- taken from code or data derived from ST documents (STM32Cube HAL/LL,
  embassy-stm32, CubeMX-derived chip data, linker scripts), named in the source string;
* ``unconfirmed`` -- not seen in a primary or secondary source while writing the file; the
  value is the best available and the source string says what it rests on.

Modules: :mod:`~cortexm_emu.boards.model` (the records), :mod:`~cortexm_emu.boards.schema`
(loading one file: schema check, :class:`cortexm_emu.datafile.DataFileError` naming file, line and
field, unknown keys included), :mod:`~cortexm_emu.boards.catalogue` (the shipped files, ``load_board``,
``find_board``) and :mod:`~cortexm_emu.boards.latency` (``wait_states(board, clock)``; a clock
above the part maximum is a ``ValueError``).
"""

from __future__ import annotations

from cortexm_emu.boards.catalogue import (
    BOARD_DIR,
    board_names,
    find_board,
    load_board,
    load_board_file,
)
from cortexm_emu.boards.latency import wait_states
from cortexm_emu.boards.model import (
    CACHE_KINDS,
    CONFIDENCES,
    CORES,
    FLASH_CLOCKS,
    Board,
    Cache,
    Citation,
    Flash,
    FlashLatency,
    Fpu,
    Prefetch,
    SramRegion,
)

__all__ = [
    "BOARD_DIR",
    "CACHE_KINDS",
    "CONFIDENCES",
    "CORES",
    "FLASH_CLOCKS",
    "Board",
    "Cache",
    "Citation",
    "Flash",
    "FlashLatency",
    "Fpu",
    "Prefetch",
    "SramRegion",
    "board_names",
    "find_board",
    "load_board",
    "load_board_file",
    "wait_states",
]
