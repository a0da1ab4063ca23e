"""Test helper shared by the streaming tests: cut a message into consecutive chunks."""

from __future__ import annotations


def split(data: bytes, cuts: list[int]) -> list[bytes]:
    """``data`` as consecutive chunks of the lengths in ``cuts`` (shorter or empty once ``data``
    runs out), then whatever is left; ``b"".join(split(data, cuts)) == data`` always."""
    chunks, rest = [], data
    for cut in cuts:
        chunks.append(rest[:cut])
        rest = rest[cut:]
    return chunks + [rest]
