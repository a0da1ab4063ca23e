"""Address ranges (cortexm_emu/address_ranges.py), which decide what a board reads as flash with
code and tables placed apart: each operation agrees with the same operation on sets of addresses."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from cortexm_emu.address_ranges import inside, intersect, merge, subtract

SPAN = 64
ranges = st.lists(st.tuples(st.integers(0, SPAN), st.integers(1, 16)).map(lambda t: (t[0], t[0] + t[1])),
                  max_size=6)


def addresses(rs: list[tuple[int, int]]) -> set[int]:
    return {a for start, end in rs for a in range(start, end)}


def well_formed(rs: list[tuple[int, int]]) -> bool:
    """Sorted, each non-empty, neither overlapping nor touching the next."""
    return all(start < end for start, end in rs) and all(a[1] < b[0] for a, b in zip(rs, rs[1:], strict=False))


@given(ranges)
def test_merge_keeps_the_addresses_in_well_formed_ranges(rs):
    merged = merge(rs)
    assert addresses(merged) == addresses(rs) and well_formed(merged)


@given(ranges, ranges)
def test_subtract_and_intersect_are_the_set_difference_and_intersection(rs, holes):
    a, b = merge(rs), merge(holes)
    assert addresses(subtract(a, b)) == addresses(a) - addresses(b)
    assert addresses(intersect(a, b)) == addresses(a) & addresses(b)
    assert well_formed(intersect(a, b))


@given(ranges, st.integers(-1, SPAN + 17))
def test_inside_is_membership(rs, address):
    assert inside(address, rs) == (address in addresses(rs))


def test_touching_ranges_merge_and_a_hole_splits_a_range():
    assert merge([(8, 12), (0, 4), (4, 8)]) == [(0, 12)]
    assert subtract([(0, 12)], [(4, 6)]) == [(0, 4), (6, 12)]
    assert intersect([(0, 4), (8, 12)], [(2, 10)]) == [(2, 4), (8, 10)]
