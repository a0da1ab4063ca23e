"""Loading one board TOML file: the schema check, with file:line:field on any bad value.

Every key of every table must be one the schema names: a misspelt key is an error, not a
silently ignored value. The checks beyond types: the latency table rises and covers the part
maximum; SRAM regions do not overlap; a cache's size equals lines x line size.
"""

from __future__ import annotations

import itertools
from pathlib import Path

from cortexm_emu.boards.model import (
    CACHE_KINDS,
    CONFIDENCES,
    CORES,
    FLASH_CLOCKS,
    FPU_PRECISIONS,
    LOAD_PIPELINING,
    UNCACHED_PATHS,
    Board,
    Cache,
    Citation,
    Flash,
    FlashLatency,
    Fpu,
    MemoryRules,
    Prefetch,
    SramRegion,
)
from cortexm_emu.datafile import Field, TomlReader
from cortexm_emu.xip import XipFlash

__all__ = ["parse_board", "read_citation"]

_CITED = ("source", "confidence", "note")
KEYS: dict[str, tuple[str, ...]] = {
    "": ("name", "board", "part", "core", "datasheet", "reference_manual", "notes", "max_clock",
         "default_clock", "flash", "prefetch", "fpu", "accelerators", "sram", "memory", "xip"),
    "max_clock": ("mhz", "source", "confidence"),
    "default_clock": ("mhz", "reason"),
    "flash": ("base", "size_kib", "line_bits", "clock", "hclk_divider", "voltage_range",
              "wait_states", *_CITED),
    "flash.wait_states": ("max_mhz", "wait_states"),
    "prefetch": ("present", "enabled_at_reset", *_CITED),
    "fpu": ("present", "precision", *_CITED),
    "accelerators": ("name", "kind", "size_bytes", "lines", "line_bits", "ways", "enabled_at_reset",
                     *_CITED),
    "sram": ("name", "base", "size_kib", "bus", "wait_states", *_CITED),
    "xip": ("controller", "protocol", "dtr", "command_bits", "address_bits", "mode_bits", "dummy_cycles",
            "line_bytes", "clock_mhz", "clock_divider", *_CITED),
    "memory": ("load_pipelining", "data_block", "stack_block", "uncached_path", "uncached_rule", "uncached_read_bits", *_CITED),
}


def read_citation(r: TomlReader, field: Field) -> Citation:
    """The ``source`` and ``confidence`` keys of the table at ``field``."""
    return Citation(
        source=r.string((*field, "source")),
        confidence=r.choice((*field, "confidence"), CONFIDENCES),  # type: ignore[arg-type]
    )


def parse_board(path: Path) -> Board:
    """Load and schema-check the board file at ``path``."""
    r = TomlReader.load(path, kind="board file")
    r.check_keys((), KEYS[""])
    for table in ("max_clock", "flash", "prefetch", "fpu"):
        r.check_keys((table,), KEYS[table])

    name = r.string(("name",))
    if name != path.stem:
        raise r.fail(("name",), f"must equal the file name stem {path.stem!r}")
    if name != name.lower():
        raise r.fail(("name",), "must be lower-case")

    max_clock_mhz = r.number(("max_clock", "mhz"))
    default_mhz, default_reason = _default_clock(r, max_clock_mhz)
    xip = _xip(r)
    flash = _flash(r, max_clock_mhz, xip)
    accelerators = tuple(_cache(r, i) for i in range(r.table_list(("accelerators",))))
    sram = tuple(_sram(r, i) for i in range(r.table_list(("sram",))))
    if not sram:
        raise r.fail(("sram",), "at least one SRAM region is required")
    _check_no_overlap(r, sram)
    notes = r.string_list(("notes",))
    if not notes:
        raise r.fail(("notes",), "expected an array of non-empty strings")

    core = r.choice(("core",), CORES)
    return Board(
        name=name,
        board=r.string(("board",)),
        part=r.string(("part",)),
        core=core,  # type: ignore[arg-type]
        datasheet=r.string(("datasheet",)),
        reference_manual=r.string(("reference_manual",)),
        max_clock_mhz=max_clock_mhz,
        max_clock=read_citation(r, ("max_clock",)),
        default_clock_mhz=default_mhz,
        default_clock_reason=default_reason,
        flash=flash,
        prefetch=Prefetch(
            present=r.boolean(("prefetch", "present")),
            enabled_at_reset=r.boolean(("prefetch", "enabled_at_reset")),
            citation=read_citation(r, ("prefetch",)),
            note=r.optional_string(("prefetch", "note")),
        ),
        fpu=_fpu(r, core),
        accelerators=accelerators,
        sram=sram,
        notes=notes,
        path=path,
        memory=_memory(r, sram),
        xip=xip,
    )


def _memory(r: TomlReader, sram: tuple[SramRegion, ...]) -> MemoryRules:
    """``[memory]`` (optional): load pipelining across memory blocks, the emulator's data block,
    and whether the caches-off path is fully bounded."""
    if not r.has(("memory",)):
        return MemoryRules()
    field: Field = ("memory",)
    r.check_keys(field, KEYS["memory"])
    pipelining = r.choice((*field, "load_pipelining"), LOAD_PIPELINING)
    data_block = r.optional_string((*field, "data_block"))
    names = [region.name for region in sram]
    if data_block and data_block not in names:
        raise r.fail((*field, "data_block"), f"{data_block!r} is not an [[sram]] region; accepted: {', '.join(names)}")
    if pipelining == "same-block" and not data_block:
        raise r.fail((*field, "data_block"), "required with load_pipelining = \"same-block\" (the block the "
                     f"emulator's buffers, and its stack unless stack_block names another, count as); accepted: {', '.join(names)}")
    stack_block = r.optional_string((*field, "stack_block"))
    if stack_block and pipelining != "same-block":
        raise r.fail((*field, "stack_block"), "only with load_pipelining = \"same-block\" (where the stack lies "
                     "changes no count otherwise)")
    if stack_block and stack_block not in names:
        raise r.fail((*field, "stack_block"), f"{stack_block!r} is not an [[sram]] region; accepted: {', '.join(names)}")
    uncached = r.choice((*field, "uncached_path"), UNCACHED_PATHS)
    rule = r.optional_string((*field, "uncached_rule"))
    if uncached == "lower-bound" and not rule:
        raise r.fail((*field, "uncached_rule"), "required with uncached_path = \"lower-bound\" (the "
                     "APPROXIMATIONS.md entries naming what is left out)")
    read_bits = 0
    if r.has((*field, "uncached_read_bits")):
        read_bits = r.integer((*field, "uncached_read_bits"))
        line_bits = r.integer(("flash", "line_bits"))
        if uncached != "lower-bound":
            raise r.fail((*field, "uncached_read_bits"), "only with uncached_path = \"lower-bound\" (the slow "
                         "end of an undocumented caches-off path)")
        if read_bits not in (32, 64, 128) or read_bits >= line_bits:
            raise r.fail((*field, "uncached_read_bits"), f"{read_bits} bits; accepted: 32, 64 or 128, narrower "
                         f"than the flash line ([flash] line_bits = {line_bits})")
    return MemoryRules(
        load_pipelining=pipelining,
        data_block=data_block,
        stack_block=stack_block,
        uncached_path=uncached,
        uncached_rule=rule,
        uncached_read_bits=read_bits,
        citation=read_citation(r, field),
        note=r.optional_string((*field, "note")),
    )


#: cores whose FPU is an implementation option (the rest have none)
_FPU_CORES = ("m4", "m7", "m33")


def _fpu(r: TomlReader, core: str) -> Fpu:
    """``[fpu]``: present or not, its precision, and where that is stated."""
    present = r.boolean(("fpu", "present"))
    precision = r.choice(("fpu", "precision"), FPU_PRECISIONS)
    if present == (precision == "none"):
        raise r.fail(("fpu", "precision"), f"{precision!r} contradicts present = {str(present).lower()}")
    if present and core not in _FPU_CORES:
        raise r.fail(("fpu", "present"), f"core {core!r} has no FPU option; accepted with an FPU: {', '.join(_FPU_CORES)}")
    return Fpu(present, precision, read_citation(r, ("fpu",)), r.optional_string(("fpu", "note")))


def _default_clock(r: TomlReader, max_clock_mhz: float) -> tuple[float, str]:
    """``[default_clock]`` (optional): a clock at or below the maximum, and why."""
    if not r.has(("default_clock",)):
        return max_clock_mhz, ""
    r.check_keys(("default_clock",), KEYS["default_clock"])
    mhz = r.number(("default_clock", "mhz"))
    if mhz > max_clock_mhz:
        raise r.fail(("default_clock", "mhz"), f"{mhz:g} MHz is above the part maximum {max_clock_mhz:g} MHz")
    return mhz, r.string(("default_clock", "reason"))


def _xip(r: TomlReader) -> XipFlash | None:
    """``[xip]`` (optional): the external flash's read command on a cache miss
    (:mod:`cortexm_emu.xip`); the flash latency table is then computed from it."""
    if not r.has(("xip",)):
        return None
    field: Field = ("xip",)
    r.check_keys(field, KEYS["xip"])
    read_citation(r, field)
    clock = r.number((*field, "clock_mhz")) if r.has((*field, "clock_mhz")) else None
    divider = r.integer((*field, "clock_divider"), minimum=1) if r.has((*field, "clock_divider")) else None
    try:
        return XipFlash(
            controller=r.string((*field, "controller")), protocol=r.string((*field, "protocol")),
            dtr=r.boolean((*field, "dtr")), command_bits=r.integer((*field, "command_bits")),
            address_bits=r.integer((*field, "address_bits")), mode_bits=r.integer((*field, "mode_bits")),
            dummy_cycles=r.integer((*field, "dummy_cycles")), line_bytes=r.integer((*field, "line_bytes")),
            clock_mhz=clock, clock_divider=divider)
    except ValueError as exc:
        raise r.fail(field, str(exc)) from None


def _flash(r: TomlReader, max_clock_mhz: float, xip: XipFlash | None = None) -> Flash:
    rows: list[FlashLatency] = []
    if xip is not None:
        if r.has(("flash", "wait_states")):
            raise r.fail(("flash", "wait_states"), "not with [xip]: the latency is the refill [xip] describes")
        if r.integer(("flash", "line_bits")) != xip.line_bytes * 8:
            raise r.fail(("flash", "line_bits"), f"must equal [xip] line_bytes x 8 ({xip.line_bytes * 8}): one "
                         "refill is one read")
        rows = [FlashLatency(max_mhz=mhz, wait_states=ws) for mhz, ws in xip.latency_rows(max_clock_mhz)]
    count = 0 if xip is not None else r.table_list(("flash", "wait_states"))
    if count == 0 and not rows:
        raise r.fail(("flash", "wait_states"), "the latency table must have at least one row")
    for i in range(count):
        r.check_keys(("flash", "wait_states", i), KEYS["flash.wait_states"])
        row = FlashLatency(
            max_mhz=r.number(("flash", "wait_states", i, "max_mhz")),
            wait_states=r.integer(("flash", "wait_states", i, "wait_states")),
        )
        if rows and row.max_mhz <= rows[-1].max_mhz:
            raise r.fail(("flash", "wait_states", i, "max_mhz"), "rows must increase in max_mhz")
        if rows and row.wait_states < rows[-1].wait_states:
            raise r.fail(
                ("flash", "wait_states", i, "wait_states"),
                "wait states must not decrease with clock",
            )
        rows.append(row)
    divider = r.integer(("flash", "hclk_divider"), minimum=1)
    if rows[-1].max_mhz * divider < max_clock_mhz - 1e-9:
        raise r.fail(
            ("flash", "wait_states", count - 1, "max_mhz"),
            f"the table ends at {rows[-1].max_mhz:g} MHz flash clock (x{divider}), "
            f"below the part maximum {max_clock_mhz:g} MHz",
        )
    line_bits = r.integer(("flash", "line_bits"), minimum=8)
    if line_bits % 8:
        raise r.fail(("flash", "line_bits"), f"must be a whole number of bytes, got {line_bits}")
    return Flash(
        base=r.integer(("flash", "base")),
        size_kib=r.integer(("flash", "size_kib"), minimum=1),
        line_bits=line_bits,
        clock=r.choice(("flash", "clock"), FLASH_CLOCKS),
        hclk_divider=divider,
        voltage_range=r.string(("flash", "voltage_range")),
        latency=tuple(rows),
        citation=read_citation(r, ("flash",)),
        note=r.optional_string(("flash", "note")),
    )


def _cache(r: TomlReader, i: int) -> Cache:
    field: Field = ("accelerators", i)
    r.check_keys(field, KEYS["accelerators"])
    note = r.optional_string((*field, "note"))
    size_bytes = r.integer((*field, "size_bytes"))
    if size_bytes == 0 and not note.strip():
        raise r.fail((*field, "size_bytes"), "0 (size unknown) needs a 'note' saying why")
    lines = r.integer((*field, "lines"))
    line_bits = r.integer((*field, "line_bits"))
    ways = r.integer((*field, "ways"))
    if size_bytes and lines and line_bits and size_bytes * 8 != lines * line_bits:
        raise r.fail(
            (*field, "size_bytes"),
            f"{size_bytes} bytes does not equal {lines} lines x {line_bits} bits",
        )
    if ways and lines and lines % ways:
        raise r.fail((*field, "ways"), f"{lines} lines cannot be split into {ways} ways")
    return Cache(
        name=r.string((*field, "name")),
        kind=r.choice((*field, "kind"), CACHE_KINDS),
        size_bytes=size_bytes,
        lines=lines,
        line_bits=line_bits,
        ways=ways,
        enabled_at_reset=r.boolean((*field, "enabled_at_reset")),
        citation=read_citation(r, field),
        note=note,
    )


def _sram(r: TomlReader, i: int) -> SramRegion:
    field: Field = ("sram", i)
    r.check_keys(field, KEYS["sram"])
    return SramRegion(
        name=r.string((*field, "name")),
        base=r.integer((*field, "base")),
        size_kib=r.integer((*field, "size_kib"), minimum=1),
        bus=r.string((*field, "bus")),
        wait_states=r.integer((*field, "wait_states")),
        citation=read_citation(r, field),
        note=r.optional_string((*field, "note")),
    )


def _check_no_overlap(r: TomlReader, regions: tuple[SramRegion, ...]) -> None:
    ordered = sorted(enumerate(regions), key=lambda item: item[1].base)
    for (_, low), (index, high) in itertools.pairwise(ordered):
        if high.base < low.end:
            raise r.fail(("sram", index, "base"), f"region {high.name} overlaps {low.name}")
