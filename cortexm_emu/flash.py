"""The memory system of a board: flash wait states, prefetch buffer, ART / ICACHE / L1 caches.

``board_memory("stm32f407vg", clock_mhz=168, cache="on")`` builds a :class:`BoardMemory`
from the board profile (``cortexm_emu/boards/*.toml``; every number there cites its ST
reference manual or datasheet). ``Machine(core, memory=board_memory(...))`` or
``Machine.for_board(...)`` runs code with it.

The modules
    This module holds the rules and :class:`BoardMemory` (the settings, its description and the
    replay's entry point); the work is done by small modules: :mod:`cortexm_emu.flash_caches`
    (which caches serve fetches and flash data reads, R5/R6), :mod:`cortexm_emu.flash_placement`
    (the ranges read as flash and the region of an address, R7), :mod:`cortexm_emu.fetch_plan`
    (each block as flash lines and cycles) and :mod:`cortexm_emu.flash_replay` (the walk of a call's
    trace through the line buffer, prefetch buffer and caches, R2-R6, in C or Python). With no flash
    stall possible (0 wait states at a flash clock equal to the core clock, or code and tables
    placed in RAM) no trace and no hook is installed and the result is exactly the ideal-memory
    count.

Placement
    ``code``: where ``.text`` (the instructions and the literal pools the compiler puts
    between functions) is fetched from; ``tables``: where the ELF's read-only data sections
    (``.rodata``-type: allocated, neither writable nor executable) are read from -- the
    constant tables (lookup tables, round constants). ``tables``
    defaults to ``code``: ``code="ram"`` is code and constants in SRAM. ``code="flash",
    tables="ram"`` is what firmware does when its startup code copies the tables to SRAM:
    instruction fetches and literal-pool reads stay flash reads (R1-R6), table reads are SRAM
    reads (R7).

The rules (each applied as written; where a document gives only a bound, the bound is used)

R1  Wait states: the flash latency at the core clock is the reference manual's table
    (``boards.wait_states``, e.g. RM0090 Table 11). "A wait state is one extra HCLK per flash
    line read" (RM0090 §3.5.2; RM0440 §4.3.4 for 64-bit flash), where a line is the flash
    read width of the part (``[flash] line_bits``). The core's timing model already assumes a
    0-wait-state fetch of one core cycle, so a line read costs WS extra cycles -- of the flash
    clock: a read is WS + 1 flash-clock cycles, and on the STM32H7 (``hclk_divider = 2``, flash
    on the AXI clock) that is 2 x (WS + 1) core cycles, i.e. 2 x WS + 1 beyond the core's own
    cycle (``BoardMemory.wait_cycles``); below, "WS" means these core cycles and WS+1 the whole
    read.
R2  Line buffer: instructions in the line being executed need no new flash read, including
    a branch back into that line ("If a loop is present in the current buffer, no new flash
    access is performed", RM0440 §4.3.4).
R3  Prefetch (``[prefetch] present`` and switched on): when a line is delivered, the next
    sequential line is read. Entering it costs ``min(WS, max(0, WS + 1 - c))`` where ``c`` is
    the cycles spent executing the previous line: prefetch hides the wait states only when a
    line takes at least WS+1 cycles (RM0090 §3.5.2 "at least four CPU cycles are needed to
    execute the previous read instruction line" at 3 WS; RM0440 §4.3.4 the same for 64-bit
    lines). It never costs more than a demand read (R4).
R4  Any other line (a taken branch out of the buffered lines, or sequential code without
    prefetch) that is not in an instruction cache costs WS: "the penalty in terms of number
    of cycles is at least equal to the number of wait states" (RM0090 §3.5.2) -- the bound.
R5  Instruction cache: a hit is delivered "without inserting any delay" (RM0090 §3.5.2).
    The ART I-cache copies a line into the cache only on a miss, i.e. when it was in neither
    the current line, the prefetched line nor the cache (RM0090 §3.5.2); the Cortex-M33
    ICACHE (ST ICACHE block) and the Cortex-M7 L1 I-cache allocate every line read. Sizes,
    lines and ways from the profile; LRU (see :mod:`cortexm_emu.caches`).
R6  Data reads from flash (literal pools, constant tables; D-Code on M3/M4): a read that
    misses the data cache (or with no data cache) stalls WS cycles -- "the CPU pipeline is
    consequently stalled until the requested literal pool is provided" (RM0090 §3.5.2); the
    LDR's own cycles are in the core model. Data cache: ART D-cache (F4: 8 x 128 bit; L4/WB/
    WL: 8 x 4 x 64 bit), Cortex-M7 L1 D-cache; on the Cortex-M33 parts data reads from the
    code region travel on C-AHB through the ICACHE (UNCONFIRMED reading of the ST ICACHE
    description "fetching instructions and data").
R7  SRAM (SRAM1/SRAM2/CCM/DTCM...) has 0 wait states in every profile row, so SRAM accesses add
    nothing (a row with wait states would need an SRAM read hook, which is not installed;
    :func:`board_memory` then says so in ``notes``). The stack, buffers and .data/.bss are
    placed in SRAM by the machine; :meth:`BoardMemory.placement` names the board region each
    lies in. With ``code="ram"`` the code, with ``tables="ram"`` the read-only data sections
    are SRAM too: their fetches and reads are not flash accesses (no R1-R6 stall).

R8  Memory blocks (profiles with ``[memory] load_pipelining = "same-block"``, the F4s): a
    load/store the core model priced as pipelined after a load costs +1 when the two accesses
    lie in different memory blocks (``[[sram]]`` rows, the flash): jnk0le cortex_m3m4.md,
    measured on the F407. Counted by the machine's code hooks (:mod:`cortexm_emu.memory_blocks`)
    and added by :meth:`BoardMemory.replay`; ``buffers`` names the block of the call's buffers
    (default: ``[memory] data_block``, where .data/.bss and the heap are linked), ``stack`` that of
    the stack (default: ``[memory] stack_block``, where the part's default linker scripts start it).

What is approximated (and why)
    * The prefetch clock is the timing model's per-instruction cycles; operand-dependent
      extras (divides) and data stalls of the same block are charged at block start.
    * A prefetch in flight that turns out useless (a taken branch) does not delay the
      demand read of the branch target (the RMs do not say); D-Code priority over I-Code
      (RM0090 §3.5.2) is not modelled as a delay of a pending instruction prefetch.
    * Cache line fills of lines wider than one flash read are sectored (see caches.py).
    * A cache whose size no document gives (``size_bytes = 0``, e.g. the G0 flash
      interface cache) is not modelled: every line is read from flash (the bound).
    * Associativity not documented (``ways = 0``): fully associative LRU.
    * Cortex-M7 (F7): the ART accelerator and prefetch sit on the ITCM flash interface; code
      is modelled as fetched over AXI through the L1 caches, without prefetch (UNCONFIRMED).
    * Cortex-M7: only the caches' presence/absence and flash wait states are modelled here;
      the AXI bus latency of a line fill beyond the flash wait states is not documented and is
      not added. Code linked at 0x0000_0000 is treated as fetched from the main flash
      (STM32 boot from main flash aliases it there, RM0090 §2.4), also on parts whose 0x0 is
      ITCM RAM -- i.e. as if linked at the flash address; ``code="ram"`` models code in
      SRAM/ITCM instead (0 wait states).
    * The stalls are added after the run: DWT->CYCCNT / SysTick reads inside the program and
      the ``cycle_budget`` check see the core's cycles without them.
    * Tables in SRAM (``tables="ram"``): every read-only data section of the ELF counts as
      copied to SRAM, whatever it holds (tables, constant strings); the copy itself (startup
      code) is not part of the call. Constants the compiler keeps inside ``.text`` (literal
      pools, inline TBB/TBH jump tables) stay in flash, as they would on the part.
    * Warm start (default): the call's trace is replayed once to fill the caches, then
      replayed again from empty line/prefetch buffers and only the second pass is counted --
      as in a benchmark loop that repeats the call (the loop's own code, not modelled, is
      assumed to evict nothing). ``start="cold"`` counts a first call from empty caches.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from cortexm_emu.boards import Board, load_board, wait_states
from cortexm_emu.caches import CacheGeometry
from cortexm_emu.fetch_plan import FetchPlans
from cortexm_emu.flash_caches import flash_caches
from cortexm_emu.flash_placement import flash_ranges, region_of
from cortexm_emu.flash_replay import (
    COUNTS,
    FetchUnit,
    ReplayInput,
    cycles_before,
    native_library,
    replay_counts,
)
from cortexm_emu.memory import FlashReads, MemoryReplay

OnOff = Literal["on", "off"]
Placement = Literal["flash", "ram"]
Start = Literal["warm", "cold"]
Engine = Literal["auto", "native", "python"]

RULES: dict[str, str] = {
    "R1 wait states": "RM table at the core clock; one WS = one extra HCLK per flash line read "
    "(RM0090 §3.5.2; RM0440 §4.3.4)",
    "R2 line buffer": "no new flash read inside the current line, loops in it included (RM0440 §4.3.4)",
    "R3 prefetch": "next line read when a line is delivered; entering it costs "
    "min(WS, max(0, WS+1-c)), c = cycles spent in the previous line (RM0090 §3.5.2)",
    "R4 miss": "a line not buffered, prefetched or cached costs WS, the documented lower bound "
    "(RM0090 §3.5.2 'at least equal to the number of wait states')",
    "R5 I-cache": "hit: no delay (RM0090 §3.5.2); ART copies only demand misses; ICACHE/L1 allocate "
    "every line read; LRU, sizes from the board profile",
    "R6 flash data": "a flash data read missing the data cache stalls WS (RM0090 §3.5.2 literal pools)",
    "R7 SRAM": "SRAM/CCM/TCM at the profile's wait states (0 on every profiled part); code "
    "(code='ram') or read-only data sections (tables='ram') placed there are not flash accesses",
    "R8 memory blocks": "[memory] load_pipelining = 'same-block' (F4): a load/store pipelined after a "
    "load costs +1 when the two access different blocks ([[sram]] rows, flash) (jnk0le cortex_m3m4.md, "
    "F407; cortexm_emu/memory_blocks.py)",
}


@dataclass
class BoardMemory:
    """A board's memory system at one clock. Build it with :func:`board_memory`."""

    board: Board
    clock_mhz: float
    wait_states: int
    cache: bool
    prefetch: bool
    code: Placement
    start: Start
    icache: CacheGeometry | None
    dcache: CacheGeometry | None
    notes: tuple[str, ...]
    #: where the read-only data sections (constant tables) are read from
    tables: Placement = "flash"
    #: the [[sram]] region the call's buffers count as for the memory-block rule (R8); "": the
    #: profile's ``[memory] data_block``
    buffers: str = ""
    #: the same for the stack ("": the profile's ``stack_block``, else its ``data_block``)
    stack: str = ""
    #: bits per flash read when narrower than the profile's ``[flash] line_bits`` (the slow end of
    #: an undocumented caches-off path, ``[memory] uncached_read_bits``); 0: the profile's line
    flash_read_bits: int = 0
    name: str = ""
    #: replay implementation: "auto" (native C if it builds, else Python), "native", "python";
    #: it never changes a count, so it is not part of :meth:`describe` or ``name``
    engine: Engine = "auto"
    #: the blocks' fetch plans, kept across calls
    _plans: FetchPlans = field(default_factory=FetchPlans, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not self.name:
            self.name = self._default_name()

    def _default_name(self) -> str:
        caches = "caches on" if self.cache else "caches off"
        if not self.board.accelerators:  # e.g. the STM32WL33: no ART, ICACHE or flash cache
            caches = "no caches"
        prefetch = "prefetch on" if self.prefetch else "prefetch off"
        if not self.board.prefetch.present:
            prefetch = "no prefetch"
        placement = f"code in {self.code}"
        if self.tables != self.code:
            placement += f", tables in {self.tables}"
        if self.stack:
            placement += f", stack in {self.stack}"
        if self.buffers:
            placement += f", buffers in {self.buffers}"
        if self.flash_read_bits:
            placement += f", one flash read per {self.flash_read_bits}-bit fetch"
        return (
            f"{self.board.name} @ {self.clock_mhz:g} MHz, {self.wait_states} WS, "
            f"{caches}, {prefetch}, {placement}"
        )

    # -- the static MemorySystem protocol: everything here is history-dependent ----------------
    def block_extra(self, block: Any) -> int:
        return 0

    def edge_extra(self, prev: Any, nxt: Any, fallthrough: bool) -> int:
        return 0

    # -- what the machine must record ---------------------------------------------------------
    @property
    def line_bytes(self) -> int:
        return (self.flash_read_bits or self.board.flash.line_bits) // 8

    @property
    def wait_cycles(self) -> int:
        """Core cycles one flash read adds to the core model's fetch: a read takes WS + 1
        flash-clock cycles (R1), and the flash clock is the core clock / ``hclk_divider`` (2 on
        the STM32H7, whose flash runs on the AXI clock: RM0433 via the profile's ``[flash]``
        entry; 1 elsewhere), i.e. (WS + 1) x divider core cycles, of which the core model
        already counts one (its zero-wait-state fetch): (WS + 1) x divider - 1. With divider 1
        that is WS; on the H7 at 4 WS, 9 (not 8: the 0-WS read itself is a 2-core-cycle AXI
        read)."""
        return (self.wait_states + 1) * self.board.flash.hclk_divider - 1

    @property
    def fetch_unit(self) -> FetchUnit:
        """What the replay (:mod:`cortexm_emu.flash_replay`) needs of this memory system."""
        return FetchUnit(
            wait_cycles=self.wait_cycles,
            read_cycles=(self.wait_states + 1) * self.board.flash.hclk_divider,
            line_bytes=self.line_bytes,
            prefetch=self.prefetch,
            passes=2 if self.start == "warm" else 1,
            icache=self.icache,
            dcache=self.dcache,
            cache=self.cache,
        )

    @property
    def needs_trace(self) -> bool:
        """Flash stalls are possible: record the block sequence (and flash data reads)."""
        return self.wait_cycles > 0 and "flash" in (self.code, self.tables)

    def flash_ranges(
        self, segments: Iterable[Any], sections: Iterable[Any] = ()
    ) -> list[tuple[int, int]]:
        """Address ranges [start, end) fetched/read as flash
        (:func:`cortexm_emu.flash_placement.flash_ranges`)."""
        return flash_ranges(self.board, self.code, self.tables, segments, sections)

    def placement(self, address: int) -> str:
        """The board region ``address`` lies in (SRAM rows of the profile, flash, or why not)."""
        return region_of(self.board, self.code, address)

    def describe(self) -> dict[str, Any]:
        """What was modelled, for results and reports (JSON-ready)."""
        return {
            "board": self.board.name,
            "part": self.board.part,
            "core": self.board.core,
            "clock_mhz": self.clock_mhz,
            "wait_states": self.wait_states,
            "wait_cycles": self.wait_cycles,
            "flash_line_bytes": self.line_bytes,
            "flash_source": self.board.flash.citation.source,
            "prefetch": self.prefetch,
            "prefetch_source": self.board.prefetch.citation.source,
            "cache": self.cache,
            "icache": self.icache.describe() if self.icache else None,
            "dcache": self.dcache.describe() if self.dcache else None,
            "code": self.code,
            "tables": self.tables,
            "buffers": self.buffers or self.board.memory.data_block,
            "stack": self.stack or self.board.memory.stack_block or self.board.memory.data_block,
            "load_pipelining": self.board.memory.load_pipelining,
            "uncached_path": self.board.memory.uncached_path,
            "uncached_rule": self.board.memory.uncached_rule,
            "start": self.start,
            "rules": dict(RULES),
            "notes": list(self.notes),
        }

    def replay(
        self,
        trace: Sequence[int],
        blocks: Mapping[int, Any],
        edges: Mapping[tuple[int | None, int], Any],
        reads: FlashReads | Sequence[tuple[int, int]],
        flash: list[tuple[int, int]],
        block_switches: tuple[int, int] | None = None,
    ) -> MemoryReplay:
        """Stall cycles of one call: ``trace`` = block addresses in execution order, ``reads`` =
        (index in trace, address) of each flash data read, ``flash`` = :meth:`flash_ranges`;
        ``block_switches``: (pipelined pairs whose accesses were in different memory blocks,
        pairs checked), counted by the machine's memory-block hooks (R8) and added as they are.
        Native C (``flash_replay.c``) unless ``engine`` is "python" or no host C compiler
        exists; both give the same counts. The counts are :data:`cortexm_emu.flash_replay.COUNTS`
        and, with R8, ``block_switch_cycles`` and ``pipelined_pairs_checked``."""
        replay = self._replay_flash(trace, blocks, edges, reads, flash)
        if block_switches is None:
            return replay
        switches, pairs = block_switches
        counts = {**replay.counts, "block_switch_cycles": switches, "pipelined_pairs_checked": pairs}
        return MemoryReplay(replay.cycles + switches, counts, replay.config)

    def _replay_flash(
        self,
        trace: Sequence[int],
        blocks: Mapping[int, Any],
        edges: Mapping[tuple[int | None, int], Any],
        reads: FlashReads | Sequence[tuple[int, int]],
        flash: list[tuple[int, int]],
    ) -> MemoryReplay:
        if not self.needs_trace or not len(trace):
            return MemoryReplay(0, dict.fromkeys(COUNTS, 0), self.describe())
        if not isinstance(reads, FlashReads):
            reads = FlashReads.from_pairs(reads)
        plans = self._plans.for_trace(trace, blocks, flash, self.line_bytes)
        call = ReplayInput(trace, plans, cycles_before(blocks, edges), reads)
        counts = replay_counts(self.fetch_unit, self.engine, call)
        total = (
            counts["sequential_stall_cycles"]
            + counts["branch_stall_cycles"]
            + counts["data_stall_cycles"]
        )
        return MemoryReplay(total, counts, self.describe())


def _on_off(name: str, value: str) -> bool:
    if value not in ("on", "off"):
        raise ValueError(f"Invalid {name} ({value!r}); accepted: 'on', 'off'")
    return value == "on"


def board_memory(
    board: Board | str,
    clock_mhz: float | None = None,
    cache: OnOff = "on",
    *,
    prefetch: OnOff | None = None,
    code: Placement = "flash",
    start: Start = "warm",
    tables: Placement | None = None,
    engine: Engine = "auto",
    buffers: str | None = None,
    stack: str | None = None,
    flash_read_bits: int | None = None,
) -> BoardMemory:
    """The memory system of ``board`` at ``clock_mhz`` (default: the board's default clock,
    ``Board.default_clock_mhz``). ``cache``: ART / ICACHE / L1 caches on or off; ``prefetch``:
    the flash prefetch buffer (default: same as ``cache``; ignored when the part has none);
    ``code``: "flash" (default) or "ram" (code in 0-WS RAM); ``tables``: where the ELF's
    read-only data sections (constant tables; not the literal pools inside ``.text``) are
    read from, "flash" or "ram" (default: where the code is, so ``code="ram"`` alone puts
    code and constants in RAM; ``code="flash", tables="ram"`` models tables copied to SRAM
    at startup); ``start``: "warm" (default, caches filled by one earlier identical call) or
    "cold"; ``engine``: the replay implementation, "auto" (default: native C if the host C
    compiler builds it, else Python), "native" or "python" -- the same counts either way;
    ``buffers``: the ``[[sram]]`` region (e.g. "CCM") the call's buffers count as for the
    memory-block rule (R8; boards with ``[memory] load_pipelining = "same-block"`` only; default:
    the profile's ``data_block``); ``stack``: the same for the stack (default: the profile's
    ``stack_block``, where the part's default linker scripts put it -- SRAM2 at the top of the
    F407's 128 KB RAM --, else its ``data_block``);
    ``flash_read_bits``: read the flash in units of this many bits instead of the profile's line
    (the slow end of a caches-off path the profile marks ``[memory] uncached_path = "lower-bound"``:
    its ``uncached_read_bits``, e.g. one read per 64-bit Cortex-M7 AXI fetch; APPROXIMATIONS.md 46)."""
    if isinstance(board, str):
        board = load_board(board)
    cache_on = _on_off("cache", cache)
    prefetch_on = cache_on if prefetch is None else _on_off("prefetch", prefetch)
    if tables is None:
        tables = code
    _check_options(board, code, tables, start, engine, buffers, stack, flash_read_bits)
    clock = board.default_clock_mhz if clock_mhz is None else clock_mhz
    ws = wait_states(board, clock)  # ValueError for a bad or too-high clock
    notes: list[str] = []
    read_bytes = (flash_read_bits or board.flash.line_bits) // 8
    icache, dcache = flash_caches(board, read_bytes, notes)
    if not board.accelerators:
        cache_on = False  # nothing to switch on: the name says "no caches", describe() cache False
        notes.append(f"no cache on {board.part} (the profile lists no [[accelerators]])")
    if not board.prefetch.present:
        prefetch_on = False
        notes.append(f"no flash prefetch buffer ({board.prefetch.citation.source})")
    elif icache is not None and icache.kind == "l1_icache" and prefetch_on:
        # STM32F7: prefetch and ART serve the ITCM flash interface; code fetched over AXI
        # (the usual 0x0800_0000 link address) goes through the Cortex-M7 L1 cache only.
        prefetch_on = False
        notes.append(
            "flash prefetch serves the ITCM path only (RM0385/RM0410 flash chapter, UNCONFIRMED); "
            "code fetched over AXI through the L1 I-cache is modelled without it"
        )
    for region in board.sram:
        if region.wait_states:
            notes.append(
                f"{region.name}: {region.wait_states} wait states in the profile, not modelled "
                "(SRAM accesses are timed as 0 wait states)"
            )
    if ws == 0:
        notes.append("0 wait states at this clock: flash is as fast as the ideal memory")
    return BoardMemory(
        board=board,
        clock_mhz=float(clock),
        wait_states=ws,
        cache=cache_on,
        prefetch=prefetch_on,
        code=code,
        start=start,
        icache=icache,
        dcache=dcache,
        notes=tuple(notes),
        tables=tables,
        engine=engine,
        buffers=buffers or "",
        stack=stack or "",
        flash_read_bits=flash_read_bits or 0,
    )


def _check_options(
    board: Board,
    code: str,
    tables: str,
    start: str,
    engine: str,
    buffers: str | None,
    stack: str | None,
    flash_read_bits: int | None,
) -> None:
    """Raise ``ValueError`` naming the first option of :func:`board_memory` ``board`` does not accept."""
    if code not in ("flash", "ram"):
        raise ValueError(f"Invalid code placement ({code!r}); accepted: 'flash', 'ram'")
    if tables not in ("flash", "ram"):
        raise ValueError(f"Invalid tables placement ({tables!r}); accepted: 'flash', 'ram'")
    if engine not in ("auto", "native", "python"):
        raise ValueError(f"Invalid engine ({engine!r}); accepted: 'auto', 'native', 'python'")
    if engine == "native":
        native_library(engine)  # RuntimeError when the native replay does not build
    for what, where in (("buffers", buffers), ("stack", stack)):
        if where is None:
            continue
        regions = [region.name for region in board.sram]
        if board.memory.load_pipelining != "same-block":
            raise ValueError(
                f"Invalid {what} placement ({where!r}) for {board.name}: its profile has no memory-block "
                f"rule ([memory] load_pipelining = \"same-block\"), so where the {what} lies changes no count"
            )
        if where not in regions:
            raise ValueError(f"Invalid {what} placement ({where!r}) for {board.name}; accepted: {', '.join(regions)}")
    if start not in ("warm", "cold"):
        raise ValueError(f"Invalid start ({start!r}); accepted: 'warm', 'cold'")
    if flash_read_bits is not None and flash_read_bits != board.memory.uncached_read_bits:
        stated = board.memory.uncached_read_bits
        raise ValueError(
            f"Invalid flash_read_bits ({flash_read_bits!r}) for {board.name}; accepted: "
            + (f"{stated} (its [memory] uncached_read_bits)" if stated else
               "none (its profile states no narrower read: [memory] uncached_read_bits)")
        )
