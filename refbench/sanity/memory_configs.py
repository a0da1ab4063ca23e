"""The memory configurations the emulator rule (``emulator``) runs a board in: which the board's profile
allows at a clock, and the label every message and JSON field uses for each.

A configuration is data (board, clock, wait states, caches, prefetch, where code and constant
tables sit); :meth:`MemoryConfig.memory` builds the emulator's memory system for it
(:func:`cortexm_emu.board_memory`, rules R1-R8 of :mod:`cortexm_emu.flash`).

Parts without a profile (a user's own log run with ``--core C --clock MHZ``, see
:mod:`refbench.inputs`) are a :class:`GenericPart`: the core, clock, flash wait states and the
cache and prefetch settings the user stated, ``"unknown"`` for what they do not know.
:func:`generic_configurations` turns it into configurations of a board built from those facts
alone (:func:`generic_board`); what no statement gives is bounded, never fitted, as its
docstring says.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Literal

from cortexm_emu import board_memory
from cortexm_emu.boards import (
    Board,
    Citation,
    Flash,
    FlashLatency,
    Fpu,
    Prefetch,
    SramRegion,
    board_names,
    load_board,
    wait_states,
)
from cortexm_emu.flash import BoardMemory
from refbench.published.model import CORE_NAMES

MEMORY_NOTE = ("memory: each board's flash wait states at the published clock, with caches/ART and prefetch on, "
               "off and mixed, constant tables in SRAM, and code in SRAM (cortexm_emu.flash rules R1-R8)")

ConfigKind = Literal["cache on", "cache off", "flash", "code in SRAM", "cache on, prefetch off", "prefetch only",
                     "tables in SRAM"]
#: Configurations a board is normally benchmarked in (caches and prefetch on, code in flash): the
#: emulator rule's nearest explanation and the cross-board rule's gap reproduction prefer them to caches off or code in SRAM.
DEFAULT_KINDS = frozenset({"cache on", "flash"})
#: Names of the instruction/data caches in configuration labels, by cache kind of the profile.
_CACHE_NAMES = {"art_icache": "ART", "art_dcache": "ART", "l1_icache": "L1 caches", "l1_dcache": "L1 caches",
                "icache": "ICACHE", "dcache": "DCACHE", "flash_icache": "flash cache"}


def slow_side_unbounded(board: Board) -> str | None:
    """Why the slowest modelled configuration of ``board`` does not bound a published figure from
    above, or None when it does: the profile says its caches-off path is a lower bound
    (``[memory] uncached_path = "lower-bound"``, with the APPROXIMATIONS.md entries that say what
    no document gives and is left out)."""
    memory = board.memory
    if memory.uncached_path != "lower-bound":
        return None
    slowest = (f"; the slowest configuration reads the flash once per {memory.uncached_read_bits}-bit fetch"
               if memory.uncached_read_bits else "")
    return (f"the {board.part} caches-off path is a lower bound (cortexm_emu/boards/{board.name}.toml [memory], "
            f"cortexm_emu/timing/{memory.uncached_rule}): latencies no document gives are left out{slowest}, so "
            "a figure slower than every modelled configuration is not evidence against the page")


@dataclass(frozen=True)
class MemoryConfig:
    """One memory configuration of a board at one clock, with the label every message uses."""

    label: str
    kind: ConfigKind
    board: str
    clock_mhz: float
    wait_states: int
    cache: Literal["on", "off"]
    code: Literal["flash", "ram"]
    #: the flash prefetch buffer; None: as ``cache`` (board_memory's default)
    prefetch: Literal["on", "off"] | None = None
    #: where the read-only data sections (constant tables) are read from; None: where the code is
    tables: Literal["flash", "ram"] | None = None
    #: a part without a profile (:class:`GenericPart`): its core and flash read width; ``board`` is
    #: then the name of the board :func:`generic_board` builds, not a profile file
    generic_core: str | None = None
    flash_line_bits: int | None = None
    #: one flash read per core fetch of this many bits: the slow end of a caches-off path the
    #: profile marks a lower bound (``[memory] uncached_read_bits``); None: the profile's flash line
    flash_read_bits: int | None = None
    #: the ``[[sram]]`` block the stack counts as for the memory-block rule (R8); None: the
    #: profile's ``stack_block`` (where the part's default linker scripts put it)
    stack: str | None = None

    def memory(self) -> BoardMemory:
        """The emulator's memory system for this configuration (built on each call)."""
        board: Board | str = self.board
        if self.generic_core is not None:
            assert self.flash_line_bits is not None
            board = generic_board(self.generic_core, self.clock_mhz, self.wait_states, self.flash_line_bits)
        return board_memory(board, self.clock_mhz, self.cache, prefetch=self.prefetch, code=self.code,
                            tables=self.tables, flash_read_bits=self.flash_read_bits, stack=self.stack)

    def measurer_target(self) -> dict[str, str | None]:
        """``board`` (a profile name) or ``core`` (a part without a profile) for a measurer."""
        if self.generic_core is not None:
            return {"core": self.generic_core, "board": None}
        return {"core": None, "board": self.board}

    def as_json(self) -> dict[str, Any]:
        data = {"label": self.label, "kind": self.kind, "board": self.board, "clock_mhz": self.clock_mhz,
                "wait_states": self.wait_states, "cache": self.cache, "code": self.code}
        if self.prefetch is not None:
            data["prefetch"] = self.prefetch
        if self.tables is not None:
            data["tables"] = self.tables
        if self.flash_read_bits is not None:
            data["flash_read_bits"] = self.flash_read_bits
        if self.stack is not None:
            data["stack"] = self.stack
        if self.generic_core is not None:
            data.update(profile=None, core=self.generic_core, flash_line_bits=self.flash_line_bits)
        return data



def _cache_label(memory: BoardMemory) -> str:
    names = [_CACHE_NAMES.get(g.kind, g.name) for g in (memory.icache, memory.dcache) if g is not None]
    names = list(dict.fromkeys(names))
    if memory.prefetch:
        names.append("prefetch")
    return "+".join(names)


def configurations(board: Board, clock_mhz: float) -> list[MemoryConfig]:
    """The memory configurations ``board`` allows at ``clock_mhz`` that can change a count.

    Flash with the caches/ART and prefetch on, and with them off (one "flash" configuration
    when the part has neither a modelled cache nor prefetch, or runs at 0 wait states); when
    the part has both a modelled cache and a prefetch buffer, the two mixed settings too:
    caches on with prefetch off (STM32CubeL4/WB/WL's ``stm32*_hal_conf.h`` templates ship
    ``PREFETCH_ENABLE 0`` with both caches enabled) and prefetch on with caches off; when every
    SRAM row of the profile has 0 wait states and flash has wait states (at 0 wait states SRAM
    and flash cost the same: rules R1, R7), the constant tables copied to SRAM with the code in
    flash and the caches on (as firmware that copies its AES/GHASH tables at start-up), and code
    and constants in SRAM. A board whose caches-off path is a lower bound with a stated slow end
    (``[memory] uncached_read_bits``: one flash read per 64-bit Cortex-M7 AXI fetch, not per 256-bit
    flash word; APPROXIMATIONS.md 46, 51) gets that end as a second caches-off configuration. On a
    board whose stack block differs from its data block (the F4s: ``[memory] stack_block``, where
    the default linker scripts start the stack, against ``data_block``), each configuration is run
    with the stack there and with the stack linked with the data: a library that keeps its
    operands on the stack (or a linker script that puts the stack low) has no block switches
    between the two (R8), so both ends of the range stay covered.
    """
    ws = wait_states(board, clock_mhz)
    on = board_memory(board, clock_mhz, "on")
    wait = f"{ws} WS" + (f" (= {on.wait_cycles} core cycles)" if on.wait_cycles != ws else "")
    where = f"{wait} @ {clock_mhz:g} MHz"

    def make(label: str, kind: ConfigKind, cache: Literal["on", "off"], code: Literal["flash", "ram"],
             prefetch: Literal["on", "off"] | None = None, tables: Literal["flash", "ram"] | None = None
             ) -> MemoryConfig:
        return MemoryConfig(label, kind, board.name, float(clock_mhz), ws, cache, code, prefetch, tables)

    accelerated = _cache_label(on)
    if ws == 0 or not accelerated:
        configs = [make(f"flash, {where}" + ("" if accelerated else ", no modelled cache or prefetch"), "flash",
                        "on", "flash")]
    else:
        read_bits = board.memory.uncached_read_bits
        per_word = f", one flash read per {board.flash.line_bits}-bit word" if read_bits else ""
        configs = [make(f"{accelerated} on, {where}", "cache on", "on", "flash"),
                   make(f"{accelerated} off{per_word}, {where}", "cache off", "off", "flash")]
        caches = _cache_label(board_memory(board, clock_mhz, "on", prefetch="off"))
        if on.prefetch and caches:
            configs += [make(f"{caches} on, prefetch off, {where}", "cache on, prefetch off", "on", "flash", "off"),
                        make(f"{caches} off, prefetch on, {where}", "prefetch only", "off", "flash", "on")]
        if read_bits:
            configs.append(MemoryConfig(f"{accelerated} off, one flash read per {read_bits}-bit fetch, {where}",
                                        "cache off", board.name, float(clock_mhz), ws, "off", "flash",
                                        flash_read_bits=read_bits))
    if ws > 0 and all(region.wait_states == 0 for region in board.sram):
        code_in_flash = f"{accelerated} on" if accelerated else "code in flash"
        configs.append(make(f"tables in SRAM, {code_in_flash}, {where}", "tables in SRAM", "on", "flash",
                            tables="ram"))
        configs.append(make(f"code in SRAM, 0 WS @ {clock_mhz:g} MHz", "code in SRAM", "on", "ram"))
    data_block, stack_block = board.memory.data_block, board.memory.stack_block
    if stack_block and stack_block != data_block:  # R8 boards: also the stack linked with the data
        stack_where = f", stack at the top of RAM in {stack_block}"
        configs = [c for config in configs for c in (
            replace(config, label=config.label + stack_where),
            replace(config, label=config.label + f", stack with the data in {data_block}",
                                stack=data_block))]
    return configs


def stated_configurations(board: Board, clock_mhz: float, cache: str = "unknown",
                          prefetch: str = "unknown") -> list[MemoryConfig]:
    """:func:`configurations` of a profiled board, keeping those that agree with what a user stated
    of the run (``cache``/``prefetch`` "on", "off" or "unknown": every setting). Code and tables
    in SRAM are placements, not settings, and stay. Raises ``ValueError`` when the statements
    leave no configuration (e.g. prefetch stated on a part that has none)."""
    def agrees(c: MemoryConfig) -> bool:
        if c.code == "ram" or c.kind == "flash":
            return True
        memory = board_memory(board, clock_mhz, c.cache, prefetch=c.prefetch)
        has_cache = memory.icache is not None or memory.dcache is not None
        cache_ok = cache == "unknown" or not has_cache or c.cache == cache
        prefetch_ok = prefetch == "unknown" or not board.prefetch.present or (c.prefetch or c.cache) == prefetch
        return cache_ok and prefetch_ok
    kept = [c for c in configurations(board, clock_mhz) if agrees(c)]
    if not kept:
        raise ValueError(f"Invalid cache/prefetch ({cache}/{prefetch}) for board {board.name}: no memory "
                         "configuration of its profile has them")
    return kept


@dataclass(frozen=True)
class GenericPart:
    """A part without a board profile: what a user stated of it (core ``m0plus``/``m4``/``m7``/``m33``,
    clock, flash wait states per read in core cycles -- None: not stated --, cache and prefetch
    ``"on"``, ``"off"`` or ``"unknown"``), and ``text``: that statement in words, for every message."""

    core: str
    clock_mhz: float
    wait_states: int | None
    cache: Literal["on", "off", "unknown"]
    prefetch: Literal["on", "off", "unknown"]
    text: str

    @property
    def name(self) -> str:
        return f"unprofiled-{self.core}"


#: Where the generic board puts flash and SRAM: the Cortex-M code and SRAM regions (ARMv7-M ARM
#: B3.1 / ARMv6-M ARM B3.1 system address map), where every profiled STM32 has them.
_GENERIC_FLASH_BASE = 0x0800_0000
_GENERIC_SRAM_BASE = 0x2000_0000
_STATED = Citation("stated by the user for this run (refbench sanity --wait-states/--cache/--prefetch)",
                   "unconfirmed")


def flash_line_widths(core: str) -> tuple[int, ...]:
    """The flash read widths (bits) of the profiled parts with core ``core`` (``cortexm_emu/boards``),
    narrowest first: an unprofiled part's read width is not known, so the emulator rule runs each documented one
    (a narrower read means more flash reads, each with the wait states: R1, R4). Every width of the
    profiles when none has this core."""
    boards = [load_board(name) for name in board_names()]
    widths = {b.flash.line_bits for b in boards if b.core == core} or {b.flash.line_bits for b in boards}
    return tuple(sorted(widths))


def generic_board(core: str, clock_mhz: float, ws: int, line_bits: int) -> Board:
    """A board built from statements alone: ``core`` at ``clock_mhz`` with ``ws`` flash wait states
    (core cycles per read, so the flash runs at the core clock), a ``line_bits`` flash read, a flash
    prefetch buffer (switched on or off by the configuration), no cache (see
    :func:`generic_configurations` for the cache), 0-wait-state SRAM (R7, as every profiled part).
    Sizes do not change a count: 1 MiB of flash, 128 KiB of SRAM hold any kernel."""
    name = f"unprofiled-{core}-{line_bits}bit-flash"
    note = "not a profile: built from the user's statements (refbench.sanity.memory_configs.generic_board)"
    return Board(
        name=name, board=name, part=f"unprofiled {CORE_NAMES[core]}", core=core, datasheet="none (no profile)",  # type: ignore[arg-type]
        reference_manual="none (no profile)", max_clock_mhz=float(clock_mhz), max_clock=_STATED,
        default_clock_mhz=float(clock_mhz), default_clock_reason="the stated clock",
        flash=Flash(base=_GENERIC_FLASH_BASE, size_kib=1024, line_bits=line_bits, clock="hclk", hclk_divider=1,
                    voltage_range="not stated", latency=(FlashLatency(float(clock_mhz), ws),), citation=Citation(
                        f"{_STATED.source}; read width {line_bits} bits: one of the profiled parts' widths "
                        "(flash_line_widths)", "unconfirmed"), note=note),
        prefetch=Prefetch(present=True, enabled_at_reset=False, citation=_STATED, note=note),
        fpu=Fpu(present=False, precision="none", citation=_STATED,
                note=note + "; no FPU stated: the kernels are integer code and never use one"),
        accelerators=(),
        sram=(SramRegion("SRAM", _GENERIC_SRAM_BASE, 128, "not stated", 0, _STATED, note),),
        notes=(note,), path=Path(f"<{name}>"),
    )


def generic_configurations(part: GenericPart) -> list[MemoryConfig]:
    """The memory configurations of an unprofiled part, from what the user stated (``"unknown"``
    runs every setting, as :func:`configurations` does for a profiled board):

    * with 0 wait states: one, flash as fast as the ideal memory (R1);
    * cache on or unknown: the cache's size is not known, so its fast bound runs -- a warm cache
      that holds the kernel's code and tables, every fetch and flash read a hit (R5: a hit inserts
      no delay), which counts as code and tables read at 0 wait states (``code="ram"``) -- and its
      slow bound is the flash timing below (a cache that misses every line adds nothing, R4);
    * the flash timing: code and tables in flash, no cache, prefetch on and/or off as stated, for
      each flash read width of the profiled parts of this core (:func:`flash_line_widths`).

    Their kinds are those of a profiled board's configurations with the same effect: the cache-hit
    bound is ``cache on``, the flash timing ``prefetch only`` or ``cache off``.

    Raises ``ValueError`` when the wait states were not stated (the emulator rule's plan says so instead)."""
    if part.wait_states is None:
        raise ValueError(f"Invalid generic part ({part.text}): flash wait states not stated")
    clock, ws = float(part.clock_mhz), part.wait_states
    where = f"{ws} WS @ {clock:g} MHz (stated)"
    widths = flash_line_widths(part.core)

    def make(label: str, kind: ConfigKind, code: Literal["flash", "ram"], prefetch: Literal["on", "off"],
             line_bits: int) -> MemoryConfig:
        return MemoryConfig(label, kind, f"{part.name}-{line_bits}bit-flash", clock, ws, "off", code, prefetch, None,
                            part.core, line_bits)

    if ws == 0:
        return [make(f"flash, {where}, as fast as the ideal memory", "flash", "flash", "off", widths[0])]
    configs = []
    if part.cache in ("on", "unknown"):
        configs.append(make(f"cache on, size unknown: warm hits on every fetch (bound; = 0 WS), {where}",
                            "cache on", "ram", "off", widths[0]))
    for setting in ("on", "off"):
        if part.prefetch in (setting, "unknown"):
            for bits in widths:
                configs.append(make(f"{'cache missing every line' if part.cache == 'on' else 'no cache'}, "
                                    f"prefetch {setting}, {bits}-bit flash reads, {where}",
                                    "prefetch only" if setting == "on" else "cache off", "flash", setting, bits))
    return configs
