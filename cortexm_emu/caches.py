"""Set-associative LRU caches for the board memory systems (ART, ICACHE, Cortex-M7 L1).

A cache is described by its size, line size and associativity, as the board profile states
them (``cortexm_emu/boards/*.toml``, ``[[accelerators]]``). The model is a plain
least-recently-used cache:

* ``ways = 0`` in a profile means no document seen gives the associativity. It is then
  modelled **fully associative** (one set, global LRU). For the STM32F4 ART this is what
  RM0090 §3.5.2 describes ("Once all the instruction cache memory lines have been filled,
  the LRU policy is used to determine the line to replace"); for the others it is the
  assumption that keeps the most lines of a given size, and the report says so.
* A line may be wider than one flash read (STM32L4/WB/WL ART: 4 x 64-bit per cache line
  against a 64-bit flash read, RM0440 §4.3.4 geometry, the same ART wording in
  RM0351/RM0434/RM0453). No document seen says whether a miss fills the
  whole line or only the requested flash word, so a line is kept **sectored**: a miss
  allocates the line (evicting the LRU line of its set) and marks only the flash word that
  was read as valid; the other words of the line are fetched (and charged) when first needed.
  This is the lower bound on what the line holds, i.e. the higher bound on wait states.

The cache holds no data, only which lines are present: the emulator's memory stays the
single source of values.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class CacheGeometry:
    """Size and organisation of one cache, with the reason each figure was chosen."""

    name: str
    kind: str
    size_bytes: int
    line_bytes: int
    ways: int  # as modelled (never 0: a profile's 0 becomes the number of lines)
    sector_bytes: int  # granularity of a fill: the flash read width, at most the line size
    fully_associative_assumed: bool
    source: str

    @property
    def lines(self) -> int:
        return self.size_bytes // self.line_bytes

    @property
    def sets(self) -> int:
        return self.lines // self.ways

    def describe(self) -> str:
        ways = (
            f"{self.ways}-way (fully associative: associativity not documented)"
            if self.fully_associative_assumed
            else f"{self.ways}-way"
        )
        sectors = (
            f", filled {self.sector_bytes} bytes (one flash read) at a time"
            if self.sector_bytes < self.line_bytes
            else ""
        )
        return (
            f"{self.name}: {self.size_bytes} bytes, {self.lines} lines of {self.line_bytes} bytes, "
            f"{ways}, LRU{sectors} [{self.source}]"
        )


def geometry(
    name: str,
    kind: str,
    size_bytes: int,
    line_bits: int,
    ways: int,
    flash_read_bytes: int,
    source: str,
) -> CacheGeometry:
    """Build a geometry from profile figures; raises ``ValueError`` naming the bad figure."""
    if line_bits <= 0 or line_bits % 8:
        raise ValueError(
            f"Invalid cache line ({line_bits} bits) for {name}; accepted: a positive multiple of 8"
        )
    line_bytes = line_bits // 8
    if size_bytes <= 0 or size_bytes % line_bytes:
        raise ValueError(
            f"Invalid cache size ({size_bytes} bytes) for {name}; "
            f"accepted: a positive multiple of the {line_bytes}-byte line"
        )
    lines = size_bytes // line_bytes
    if ways < 0 or (ways and lines % ways):
        raise ValueError(
            f"Invalid associativity ({ways} ways) for {name} with {lines} lines; "
            "accepted: 0 (not documented) or a divisor of the number of lines"
        )
    if flash_read_bytes <= 0:
        raise ValueError(
            f"Invalid flash read width ({flash_read_bytes} bytes) for {name}; accepted: > 0"
        )
    return CacheGeometry(
        name=name,
        kind=kind,
        size_bytes=size_bytes,
        line_bytes=line_bytes,
        ways=ways or lines,
        sector_bytes=min(flash_read_bytes, line_bytes),
        fully_associative_assumed=ways == 0,
        source=source,
    )


class LruCache:
    """Presence-only LRU cache over addresses. ``lookup`` then (on a miss) ``fill``."""

    def __init__(self, geometry: CacheGeometry) -> None:
        self.geometry = geometry
        self._line_bytes = geometry.line_bytes
        self._sector_bytes = geometry.sector_bytes
        self._sectors_per_line = geometry.line_bytes // geometry.sector_bytes
        self._ways = geometry.ways
        self._nsets = geometry.sets
        # one dict per set: line index -> bit mask of valid sectors; insertion order = LRU order
        self._sets: list[dict[int, int]] = [{} for _ in range(self._nsets)]
        self.hits = 0
        self.misses = 0

    def _locate(self, address: int) -> tuple[dict[int, int], int, int]:
        line = address // self._line_bytes
        sector = (address % self._line_bytes) // self._sector_bytes
        return self._sets[line % self._nsets], line, 1 << sector

    def lookup(self, address: int) -> bool:
        """True if the sector holding ``address`` is present (and make its line most recent)."""
        # _locate written out: this is the replay's innermost call
        line = address // self._line_bytes
        bit = 1 << ((address % self._line_bytes) // self._sector_bytes)
        ways = self._sets[line % self._nsets]
        mask = ways.get(line)
        if mask is None or not mask & bit:
            self.misses += 1
            return False
        del ways[line]
        ways[line] = mask
        self.hits += 1
        return True

    def fill(self, address: int) -> None:
        """Bring the sector holding ``address`` in, evicting the set's LRU line if needed."""
        ways, line, bit = self._locate(address)
        mask = ways.pop(line, None)
        if mask is None:
            if len(ways) >= self._ways:
                del ways[next(iter(ways))]
            mask = 0
        ways[line] = mask | bit

    def contains(self, address: int) -> bool:
        """Presence test without touching the LRU order or the hit/miss counts."""
        ways, line, bit = self._locate(address)
        return bool(ways.get(line, 0) & bit)

    def clear(self) -> None:
        for ways in self._sets:
            ways.clear()
        self.hits = 0
        self.misses = 0
