"""Which of a board's caches serve instruction fetches and flash data reads (rules R5 and R6 of
:mod:`cortexm_emu.flash`), and their geometry from the board profile (``[[accelerators]]``).

A part may have several caches on different paths; the first kind of :data:`I_KINDS` the profile
lists serves instruction fetches, the first of :data:`D_KINDS` data reads of flash. One cache may
serve both (the Cortex-M33 ICACHE): the two geometries are then the same object.
"""

from __future__ import annotations

from collections.abc import Sequence

from cortexm_emu.boards import Board, Cache
from cortexm_emu.caches import CacheGeometry, geometry

#: Instruction-side caches, by preference when a part has several on different paths.
I_KINDS = ("l1_icache", "icache", "art_icache", "flash_icache")
#: Data-side caches for reads of flash. The M33 ICACHE sits on C-AHB, which also carries
#: data reads of the code region (R6, UNCONFIRMED).
D_KINDS = ("l1_dcache", "art_dcache", "dcache", "icache")
#: Kinds that copy a line only on a demand miss, not when the prefetched line is used (R5).
MISS_ONLY = frozenset({"art_icache"})


def choose(board: Board, kinds: Sequence[str]) -> Cache | None:
    """The board's cache of the first of ``kinds`` it has, or None."""
    for kind in kinds:
        for cache in board.accelerators:
            if cache.kind == kind:
                return cache
    return None


def geometry_for(
    cache: Cache | None, flash_read_bytes: int, notes: list[str]
) -> CacheGeometry | None:
    """The geometry of ``cache`` over flash reads of ``flash_read_bytes``; None when there is no
    cache or no source gives its size. What is assumed is appended to ``notes``."""
    if cache is None:
        return None
    if cache.size_bytes == 0 or cache.line_bits == 0:
        notes.append(
            f"{cache.name}: size not given by any source seen ({cache.citation.source}); "
            "not modelled, every line is read from flash (the bound)"
        )
        return None
    built = geometry(
        cache.name,
        cache.kind,
        cache.size_bytes,
        cache.line_bits,
        cache.ways,
        flash_read_bytes,
        f"{cache.citation.source} ({cache.citation.confidence})",
    )
    if built.fully_associative_assumed:
        notes.append(f"{cache.name}: associativity not documented; modelled fully associative LRU")
    if built.sector_bytes < built.line_bytes:
        notes.append(
            f"{cache.name}: {built.line_bytes}-byte lines over {built.sector_bytes}-byte flash reads; "
            "filled one flash read at a time (sectored)"
        )
    return built


def flash_caches(
    board: Board, flash_read_bytes: int, notes: list[str]
) -> tuple[CacheGeometry | None, CacheGeometry | None]:
    """(instruction cache, data cache) of ``board`` over flash reads of ``flash_read_bytes``; the
    same geometry twice when one cache serves both."""
    icache = geometry_for(choose(board, I_KINDS), flash_read_bytes, notes)
    d_choice = choose(board, D_KINDS)
    if d_choice is not None and icache is not None and d_choice.name == icache.name:
        return icache, icache
    return icache, geometry_for(d_choice, flash_read_bytes, notes)
