"""The presence-only LRU caches of cortexm_emu.caches: replacement, sets, sectors, bad figures."""

from __future__ import annotations

import pytest

from cortexm_emu.caches import LruCache, geometry


def cache(size: int = 64, line_bits: int = 128, ways: int = 0, read_bytes: int = 16) -> LruCache:
    return LruCache(geometry("test cache", "art_icache", size, line_bits, ways, read_bytes, "test"))


def test_miss_then_hit_after_fill():
    c = cache()
    assert not c.lookup(0x100)
    c.fill(0x100)
    assert c.lookup(0x10C)  # same 16-byte line
    assert (c.hits, c.misses) == (1, 1)


def test_fully_associative_evicts_the_least_recently_used_line():
    c = cache(size=64)  # 4 lines of 16 bytes, ways 0 -> fully associative
    for line in range(4):
        c.fill(line * 16)
    assert c.lookup(0)  # line 0 becomes most recent; line 1 is now the LRU line
    c.fill(4 * 16)
    assert not c.contains(1 * 16)
    assert all(c.contains(line * 16) for line in (0, 2, 3, 4))


def test_cyclic_access_one_line_larger_than_the_cache_always_misses():
    c = cache(size=64)
    for _ in range(3):
        for line in range(5):
            if not c.lookup(line * 16):
                c.fill(line * 16)
    assert c.hits == 0


def test_set_associative_lines_only_compete_within_their_set():
    c = cache(size=64, ways=2)  # 4 lines, 2 sets of 2 ways: even lines in set 0, odd in set 1
    for line in (0, 2, 4):  # three lines into set 0
        c.fill(line * 16)
    c.fill(1 * 16)
    assert not c.contains(0)  # evicted from set 0
    assert c.contains(2 * 16) and c.contains(4 * 16) and c.contains(1 * 16)


def test_sectored_line_holds_only_the_flash_reads_made():
    c = cache(size=128, line_bits=256, read_bytes=8)  # 32-byte lines filled 8 bytes at a time
    c.fill(0x40)
    assert c.contains(0x44)
    assert not c.lookup(0x48)  # same line, next flash read: not yet present
    c.fill(0x48)
    assert c.lookup(0x4C)


def test_geometry_records_what_was_assumed():
    g = geometry("ART", "art_icache", 1024, 128, 0, 16, "RM0090 §3.5.2")
    assert (g.lines, g.ways, g.sets, g.fully_associative_assumed) == (64, 64, 1, True)
    assert "associativity not documented" in g.describe()
    g2 = geometry("L1", "l1_icache", 16384, 256, 2, 32, "TRM")
    assert (g2.lines, g2.sets, g2.fully_associative_assumed) == (512, 256, False)


def test_clear_forgets_lines_and_counts():
    c = cache()
    c.fill(0)
    c.lookup(0)
    c.clear()
    assert not c.contains(0)
    assert (c.hits, c.misses) == (0, 0)


@pytest.mark.parametrize(
    ("size", "line_bits", "ways", "read", "message"),
    [
        (
            1000,
            128,
            0,
            16,
            r"Invalid cache size \(1000 bytes\) for bad; accepted: a positive multiple of the 16-byte line",
        ),
        (
            1024,
            12,
            0,
            16,
            r"Invalid cache line \(12 bits\) for bad; accepted: a positive multiple of 8",
        ),
        (1024, 128, 3, 16, r"Invalid associativity \(3 ways\) for bad with 64 lines"),
        (1024, 128, 2, 0, r"Invalid flash read width \(0 bytes\) for bad"),
    ],
)
def test_bad_figures_are_rejected(size, line_bits, ways, read, message):
    with pytest.raises(ValueError, match=message):
        geometry("bad", "icache", size, line_bits, ways, read, "test")
