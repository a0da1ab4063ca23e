"""Address ranges as sorted lists of ``(start, end)`` pairs, ``end`` exclusive: membership, union,
difference and intersection (used to tell which addresses a board reads as flash)."""

from __future__ import annotations

Ranges = list[tuple[int, int]]


def inside(address: int, ranges: Ranges) -> bool:
    """``address`` lies in one of ``ranges``."""
    return any(start <= address < end for start, end in ranges)


def merge(ranges: Ranges) -> Ranges:
    """``ranges`` sorted, overlapping or touching ranges joined."""
    merged: Ranges = []
    for start, end in sorted(ranges):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged


def subtract(ranges: Ranges, holes: Ranges) -> Ranges:
    """``ranges`` without ``holes`` (both sorted, non-overlapping)."""
    result: Ranges = []
    for start, end in ranges:
        cursor = start
        for hole_start, hole_end in holes:
            if hole_end <= cursor or hole_start >= end:
                continue
            if hole_start > cursor:
                result.append((cursor, hole_start))
            cursor = max(cursor, hole_end)
        if cursor < end:
            result.append((cursor, end))
    return result


def intersect(ranges: Ranges, others: Ranges) -> Ranges:
    """The parts of ``ranges`` inside ``others``, merged."""
    result = [
        (max(start, other_start), min(end, other_end))
        for start, end in ranges
        for other_start, other_end in others
        if max(start, other_start) < min(end, other_end)
    ]
    return merge(result)
