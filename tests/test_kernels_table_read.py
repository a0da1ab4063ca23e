"""The constant-time table reads of the bignum kernels (table.h) in the emulated Cortex-M: wolfSSL SP's
read of a 16-entry point table (sp-table-read) and wolfSSL's WOLFSSL_ARMASM Ed25519 row read
(ref10-cmov-table), against tables built here entry by entry, on every variant of the default cores,
constant time on ARMv6-M and ARMv7E-M, and cheaper than the selects that priced them before."""

from __future__ import annotations

import hashlib
from functools import cache

import pytest

from refbench.kernels import catalog
from refbench.kernels.harness import KernelHarness
from refbench.kernels.references import FIELDS, SP_TABLE_ENTRY_BYTES, reference
from refbench.leakage.check import analyze
from refbench.leakage.runner import make_target

P25519 = FIELDS["25519"][0]
CORES = ("m0plus", "m4")


@cache
def harness(variant: str, core: str) -> KernelHarness:
    return KernelHarness("bignum", variant, core)


def variants(core: str) -> list[str]:
    return [v.name for v in catalog.family("bignum").variants.values() if v.supports(core)]


def entries(label: str, count: int, size: int) -> list[bytes]:
    return [hashlib.shake_256(f"{label}/{i}".encode()).digest(size) for i in range(count)]


def le(x: int) -> bytes:
    return x.to_bytes(32, "little")


@pytest.mark.parametrize("core", CORES)
@pytest.mark.parametrize("size", SP_TABLE_ENTRY_BYTES)
def test_sp_table_read_returns_the_indexed_entry_and_zero_for_entry_0(core, size, subtests):
    table = entries(f"sp {size}", 16, size)
    for variant in variants(core):
        for index in (0, 1, 6, 15) if variant != "c32" else range(16):
            raw = {"a": bytes([0x30 | index]) + bytes(size - 1), "b": b"".join(table)}
            want = table[index] if index else bytes(size)  # entry 0 is never read (the point at infinity)
            with subtests.test(msg=f"bignum/{variant}:sp-table-read:{core}:{size}:{index}"):
                assert reference("sp-table-read")(raw)["r"] == want
                run = harness(variant, core).run(raw, "sp-table-read")
                assert run.verified, run.mismatch


@pytest.mark.parametrize("core", CORES)
def test_ref10_row_read_returns_the_entry_of_the_digit_negated_for_a_negative_digit(core, subtests):
    row = [[int.from_bytes(e, "little") % P25519 for e in entries(f"row {j}", 3, 32)] for j in range(8)]
    flat = b"".join(le(v) for entry in row for v in entry)
    for variant in variants(core):
        for digit in range(-8, 9) if variant == "c32" else (-8, -1, 0, 3, 8):
            raw = {"a": (digit & 0xFF).to_bytes(1, "little") + bytes(95), "b": flat}
            if digit == 0:
                yplusx, yminusx, xy2d = 1, 1, 0  # the neutral point
            else:
                yplusx, yminusx, xy2d = row[abs(digit) - 1]
            if digit < 0:
                yplusx, yminusx, xy2d = yminusx, yplusx, P25519 - xy2d
            with subtests.test(msg=f"bignum/{variant}:ref10-cmov-table:{core}:{digit}"):
                assert reference("ref10-cmov-table")(raw)["r"] == le(yplusx) + le(yminusx) + le(xy2d)
                run = harness(variant, core).run(raw, "ref10-cmov-table")
                assert run.verified, run.mismatch


def test_table_reads_reject_other_lengths_by_name():
    with pytest.raises(ValueError, match=r"Invalid operand length \(32 bytes\) for the SP table read; accepted: 64, 96, 144"):
        reference("sp-table-read")({"a": bytes(32), "b": bytes(32)})
    with pytest.raises(ValueError, match=r"Invalid b length \(100 bytes\) for the SP table read; accepted: 1024 bytes"):
        reference("sp-table-read")({"a": bytes(64), "b": bytes(100)})
    with pytest.raises(ValueError, match=r"Invalid operand length \(64 bytes\) for the Ed25519 row read; accepted: 96"):
        reference("ref10-cmov-table")({"a": bytes(64), "b": bytes(64)})
    with pytest.raises(ValueError, match=r"Invalid b length \(32 bytes\) for the Ed25519 row read; accepted: 768"):
        reference("ref10-cmov-table")({"a": bytes(96), "b": bytes(32)})


@pytest.mark.parametrize("core", ("m0plus", "m7"))
@pytest.mark.parametrize(("operation", "size"), [("sp-table-read", 96), ("sp-table-read", 64), ("ref10-cmov-table", 96)])
def test_table_reads_are_constant_time(core, operation, size):
    report = analyze("bignum", "c32", operation, make_target(core, None), secrets=5, size=size)
    assert report.findings == (), [str(f.location) for f in report.findings]
    assert report.verdict == "constant-time" and all(t.spread == 0 for t in report.timing)


@pytest.mark.parametrize("core", ("m0plus", "m4", "m7"))
def test_a_read_in_the_library_shape_costs_less_than_a_select_per_coordinate_of_each_entry(core):
    h = harness("c32", core)
    sp = h.run({"a": bytes(96), "b": bytes(96)}, "sp-table-read")
    select = h.run({"a": bytes(32), "b": bytes(32)}, "select")
    row = h.run({"a": bytes(96), "b": bytes(96)}, "ref10-cmov-table")
    wide = h.run({"a": bytes(96), "b": bytes(96)}, "select")
    assert sp.verified and select.verified and row.verified and wide.verified
    # 15 entries of three 8-word coordinates: fewer cycles than 45 element selects (the pricing they replace)
    assert 15 * 24 < sp.cycles < 45 * select.cycles
    # 8 entries of 24 words: fewer than 8 selects of an entry's 96 bytes
    assert 8 * 24 / 2 < row.cycles < 8 * wide.cycles


def test_the_measurer_asks_an_operand_length_at_its_own_size(tmp_path):
    """A 96- or 144-byte read is measured: the measurer's block-period shortcut (48 + size mod 48) is for
    messages; an operation of operands is asked at its own length, which the table reads require."""
    from refbench.measure import Job, Measurer, ResultCache

    measurer = Measurer("m4", cache=ResultCache(tmp_path))
    for operation, size in (("sp-table-read", 96), ("sp-table-read", 144), ("ref10-cmov-table", 96)):
        m = measurer.measure(Job("bignum", "c32", operation, size))
        assert m.verified and m.cycles and not m.error, (operation, size, m.error)
    rejected = measurer.measure(Job("bignum", "c32", "ref10-cmov-table", 48))
    assert not rejected.verified and "Invalid operand length (48 bytes) for the Ed25519 row read" in rejected.error
