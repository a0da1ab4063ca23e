"""Helpers for the data-file tests (board profiles, part files): a copy of a shipped file with
one fragment replaced, and the line a fragment stands on."""

from __future__ import annotations

from pathlib import Path


def corrupt_copy(source: Path, tmp_path: Path, old: str, new: str) -> Path:
    """``source`` copied into ``tmp_path`` (same name) with its one ``old`` replaced by ``new``."""
    text = source.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path = tmp_path / source.name
    path.write_text(text.replace(old, new), encoding="utf-8")
    return path


def line_of(path: Path, fragment: str) -> int:
    """The 1-based line of ``path`` that holds ``fragment`` (which must stand on exactly one)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    matches = [index + 1 for index, line in enumerate(lines) if fragment in line]
    assert len(matches) == 1, fragment
    return matches[0]
