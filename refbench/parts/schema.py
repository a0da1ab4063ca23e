"""Loading one part file (``refbench/parts/<board>.toml``) with file:line:field errors.

The file names its board profile (``board``, equal to the file stem and to a file of
:mod:`cortexm_emu.boards`); published clocks are checked against that profile's maximum.
Every key of every table must be one the schema names.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cortexm_emu.boards import Board, Citation, board_names, load_board
from cortexm_emu.boards.model import CONFIDENCES
from cortexm_emu.boards.schema import read_citation
from cortexm_emu.datafile import Field, TomlReader
from refbench.parts.model import (
    AES_KEY_BITS,
    CRYPTO_BLOCKS,
    CRYPTO_FUNCTIONS,
    HASH_ALGORITHMS,
    PKA_VARIANTS,
    TIMING_CLOCKS,
    TIMING_KINDS,
    TIMING_OPERATIONS,
    TIMING_PHASES,
    CryptoBlock,
    CryptoCapability,
    PartProfile,
    PeripheralTiming,
    PublishedClock,
    TimingRow,
)

__all__ = ["parse_part"]

KEYS: dict[str, tuple[str, ...]] = {
    "": ("board", "board_as_published", "notes", "published_clocks", "crypto_hw"),
    "published_clocks": ("mhz", "source", "seed", "reported_wait_states", "finding"),
    "block": ("present", "detail", "source", "confidence", "provides", "timing"),
    "provides": ("functions", "aes_key_bits", "hash_algorithms", "source", "confidence"),
    "timing": ("clock", "clock_max_mhz", "clock_at_most_core", "clock_source", "clock_confidence",
               "source", "confidence", "note", "rows"),
    "row": ("function", "operation", "key_bits", "phase", "bytes", "cycles", "kind", "variant", "ref"),
}


def parse_part(path: Path) -> PartProfile:
    """Load and schema-check the part file at ``path``."""
    r = TomlReader.load(path, kind="part file")
    r.check_keys((), KEYS[""])
    name = r.string(("board",))
    if name != path.stem:
        raise r.fail(("board",), f"must equal the file name stem {path.stem!r}")
    if name not in board_names():
        raise r.fail(("board",), f"no board profile of that name; accepted: {', '.join(board_names())}")
    board = load_board(name)
    count = r.table_list(("published_clocks",))
    published = tuple(_published_clock(r, i, board) for i in range(count))
    if not published:
        raise r.fail(("published_clocks",), "at least one published clock is required")
    return PartProfile(
        name=name,
        part=board.part,
        board=board,
        board_as_published=r.optional_string(("board_as_published",)),
        published_clocks=published,
        crypto_hw=_crypto(r),
        notes=r.string_list(("notes",)),
        path=path,
    )


def _published_clock(r: TomlReader, i: int, board: Board) -> PublishedClock:
    field: Field = ("published_clocks", i)
    r.check_keys(field, KEYS["published_clocks"])
    mhz = r.number((*field, "mhz"))
    finding = r.optional_string((*field, "finding"))
    if mhz > board.max_clock_mhz and not finding.strip():
        raise r.fail(
            (*field, "mhz"),
            f"{mhz:g} MHz is above the part maximum {board.max_clock_mhz:g} MHz "
            f"({board.path.name} [max_clock]); record it with a 'finding'",
        )
    reported_field = (*field, "reported_wait_states")
    return PublishedClock(
        mhz=mhz,
        source=r.string((*field, "source")),
        seed=r.string((*field, "seed"), allow_empty=True),
        reported_wait_states=r.integer(reported_field) if r.has(reported_field) else None,
        finding=finding,
    )


def _crypto(r: TomlReader) -> tuple[CryptoBlock, ...]:
    table = r.value(("crypto_hw",))
    if not isinstance(table, dict):
        raise r.fail(("crypto_hw",), "expected a table of peripherals")
    for required in CRYPTO_BLOCKS:
        if required not in table:
            raise r.fail(
                ("crypto_hw", required),
                "missing field (every part file states every crypto peripheral)",
            )
    names = list(CRYPTO_BLOCKS) + sorted(key for key in table if key not in CRYPTO_BLOCKS)
    blocks = []
    for name in names:
        r.check_keys(("crypto_hw", name), KEYS["block"])
        present = r.boolean(("crypto_hw", name, "present"))
        provides = _provides(r, name, present)
        blocks.append(
            CryptoBlock(
                name=name,
                present=present,
                detail=r.string(("crypto_hw", name, "detail"), allow_empty=True),
                citation=read_citation(r, ("crypto_hw", name)),
                provides=provides,
                timing=_timing(r, name, provides),
            )
        )
    return tuple(blocks)


def _provides(r: TomlReader, name: str, present: bool) -> CryptoCapability | None:
    """``[crypto_hw.<name>.provides]``: required for a present block, forbidden otherwise."""
    field: Field = ("crypto_hw", name, "provides")
    if not present:
        if r.has(field):
            raise r.fail(field, "an absent peripheral provides nothing; remove this table")
        return None
    if not r.has(field):
        raise r.fail(field, "missing field (a present peripheral states what it provides)")
    r.check_keys(field, KEYS["provides"])
    functions = r.choice_list((*field, "functions"), CRYPTO_FUNCTIONS)
    return CryptoCapability(
        functions=functions,
        aes_key_bits=_capability_list(r, field, "aes_key_bits", "AES", functions, AES_KEY_BITS),
        hash_algorithms=_capability_list(
            r, field, "hash_algorithms", "HASH", functions, HASH_ALGORITHMS
        ),
        citation=read_citation(r, field),
    )


def _capability_list(
    r: TomlReader,
    field: Field,
    key: str,
    function: str,
    functions: tuple[str, ...],
    accepted: tuple[Any, ...],
) -> tuple[Any, ...]:
    """``key`` is stated (non-empty) exactly when the block provides ``function``."""
    if function not in functions:
        if r.has((*field, key)):
            raise r.fail((*field, key), f"only for a block whose functions include {function}")
        return ()
    values = r.choice_list((*field, key), accepted)
    if not values:
        raise r.fail((*field, key), f"a block providing {function} must name at least one")
    return values


def _timing(r: TomlReader, name: str, provides: CryptoCapability | None) -> PeripheralTiming | None:
    """``[crypto_hw.<name>.timing]``: optional, only for a present block, rows of what it provides."""
    field: Field = ("crypto_hw", name, "timing")
    if not r.has(field):
        return None
    if provides is None:
        raise r.fail(field, "an absent peripheral has no processing times; remove this table")
    r.check_keys(field, KEYS["timing"])
    count = r.table_list((*field, "rows"))
    if not count:
        raise r.fail((*field, "rows"), "at least one documented processing time is required")
    return PeripheralTiming(
        clock=r.choice((*field, "clock"), TIMING_CLOCKS),
        clock_max_mhz=r.number((*field, "clock_max_mhz")),
        clock_at_most_core=r.boolean((*field, "clock_at_most_core")),
        clock_citation=Citation(
            source=r.string((*field, "clock_source")),
            confidence=r.choice((*field, "clock_confidence"), CONFIDENCES),  # type: ignore[arg-type]
        ),
        rows=tuple(_timing_row(r, (*field, "rows", i), provides) for i in range(count)),
        citation=read_citation(r, field),
        note=r.optional_string((*field, "note")),
    )


def _timing_row(r: TomlReader, field: Field, provides: CryptoCapability) -> TimingRow:
    r.check_keys(field, KEYS["row"])
    function = r.choice((*field, "function"), provides.functions)
    operation = r.choice((*field, "operation"), TIMING_OPERATIONS[function])
    key_bits = r.integer((*field, "key_bits"))
    if function == "AES" and key_bits not in provides.aes_key_bits:
        shown = ", ".join(str(bits) for bits in provides.aes_key_bits)
        raise r.fail((*field, "key_bits"), f"invalid value {key_bits}; this block's AES key sizes: {shown}")
    if function == "HASH" and operation not in provides.hash_algorithms:
        raise r.fail(
            (*field, "operation"),
            f"invalid value {operation!r}; this block's digests: {', '.join(provides.hash_algorithms)}",
        )
    if function == "PKA" and key_bits < 1:
        raise r.fail((*field, "key_bits"), "a PKA row states its modulus size in bits")
    if function in ("DES", "HASH", "RNG") and key_bits:
        raise r.fail((*field, "key_bits"), f"must be 0 for {function} (no key or modulus size applies)")
    phase = r.choice((*field, "phase"), TIMING_PHASES)
    size = r.integer((*field, "bytes"))
    if phase == "block" and size < 1:
        raise r.fail((*field, "bytes"), "a 'block' row states the bytes of its data block")
    if phase != "block" and size:
        raise r.fail((*field, "bytes"), f"must be 0 for phase {phase!r} (only 'block' rows count bytes)")
    if (function == "PKA") != (phase == "op"):
        raise r.fail((*field, "phase"), "PKA rows and only PKA rows use phase 'op'")
    variant = ""
    if r.has((*field, "variant")):
        if not operation.startswith("modexp"):
            raise r.fail((*field, "variant"), "only for modexp rows")
        variant = r.choice((*field, "variant"), PKA_VARIANTS)
    elif operation.startswith("modexp"):
        raise r.fail((*field, "variant"), f"missing field (a modexp row names its mode: {', '.join(PKA_VARIANTS)})")
    return TimingRow(
        function=function,
        operation=operation,
        key_bits=key_bits,
        phase=phase,
        bytes=size,
        cycles=r.number((*field, "cycles")),
        kind=r.choice((*field, "kind"), TIMING_KINDS),
        variant=variant,
        ref=r.string((*field, "ref")),
    )
