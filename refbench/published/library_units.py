"""Bytes per printed unit of a benchmark program's output, per library and version
(``library_units.toml``), for figures read from a user's input (``refbench.inputs``); it lives
beside the pages' unit rules so that normalising a figure needs nothing of the readers.

The built-in pages keep their own rules in ``refbench/published/sources.toml`` (per page and
version); an input has no page, so its rules are per library and version range. A unit that
no rule covers raises ``ValueError`` naming library, version and unit: nothing is guessed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from cortexm_emu.datafile import error_at, read_toml

UNITS_PATH = Path(__file__).resolve().parent / "library_units.toml"
ANY_LIBRARY = "*"


@dataclass(frozen=True)
class LibraryUnitRule:
    library: str
    since: tuple[int, ...] | None
    before: tuple[int, ...] | None
    bytes: dict[str, int]
    reason: str

    def covers(self, version: tuple[int, ...] | None) -> bool:
        if self.since is None and self.before is None:
            return True
        if version is None:
            return False
        return (self.since is None or version >= self.since) and (self.before is None or version < self.before)


def release(version: str | None) -> tuple[int, ...] | None:
    """``"5.6.6"``, ``"v5.6.6-stable"``, ``"5.6.6 (built ...)"`` -> ``(5, 6, 6)``; None if no release number."""
    if not version:
        return None
    match = re.search(r"(\d+)\.(\d+)(?:\.(\d+))?", version)
    if not match:
        return None
    return tuple(int(part) for part in match.groups(default="0"))


def load_unit_rules(path: Path = UNITS_PATH) -> tuple[LibraryUnitRule, ...]:
    _, data = read_toml(path, kind="library units file")
    rules = []
    for k, entry in enumerate(data.get("unit", [])):
        for key in ("library", "bytes", "reason"):
            if key not in entry:
                raise error_at(path, f"unit[{k}].{key}", "missing field")
        bounds = {}
        for key in ("since", "before"):
            bounds[key] = release(entry.get(key)) if key in entry else None
            if key in entry and bounds[key] is None:
                raise error_at(path, f"unit[{k}].{key}", "not a release number", entry[key])
        for unit, size in entry["bytes"].items():
            if not isinstance(size, int) or size <= 0:
                raise error_at(path, f"unit[{k}].bytes.{unit}", "must be an integer > 0", repr(size))
        rules.append(LibraryUnitRule(entry["library"], bounds["since"], bounds["before"], dict(entry["bytes"]),
                                     entry["reason"]))
    return tuple(rules)


@lru_cache(maxsize=1)
def _rules() -> tuple[LibraryUnitRule, ...]:
    return load_unit_rules()


def _rule(library: str | None, version: str | None, unit: str) -> LibraryUnitRule:
    if library is None:
        # a caller that forgets the library would silently get the "*" rules (wolfSSL 4.x 'KB'
        # would become 1000 bytes): refuse instead
        raise ValueError(f"Invalid unit lookup ({unit!r}, version {version or 'not stated'}) for an input "
                         "figure without its library; pass the figure's library")
    base = unit.removesuffix("/s")
    own = [r for r in _rules() if r.library == library]
    candidates = own or [r for r in _rules() if r.library == ANY_LIBRARY]
    number = release(version)
    for rule in candidates:
        if base in rule.bytes and rule.covers(number):
            return rule
    versioned = [r for r in candidates if base in r.bytes]
    if versioned and number is None:
        raise ValueError(
            f"Invalid unit ({unit!r}) for {library} without a version: its size depends "
            f"on the version ({'; '.join(r.reason for r in versioned)}); state the library version"
        )
    raise ValueError(
        f"Invalid unit ({unit!r}) for {library} version {version or 'not stated'}; "
        f"no rule in {UNITS_PATH.name} covers it"
    )


def input_unit_bytes(library: str | None, version: str | None, unit: str) -> tuple[int, str]:
    """Bytes one printed ``unit`` (``KB``, ``KiB/s``...) stands for, and ``"verified"`` (every rule
    cites the benchmark source or the schema that defines it)."""
    return _rule(library, version, unit).bytes[unit.removesuffix("/s")], "verified"


def input_unit_reason(library: str | None, version: str | None, unit: str) -> str:
    return _rule(library, version, unit).reason
