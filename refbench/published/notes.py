"""Page-specific notes as data (``notes.toml``): a quote from a seed page, the figures it speaks
about (computed from where the quote stands in the page) and the rule finding it explains.

:func:`load_notes` reads and checks the file (every quote must be in its seed; errors name file,
line and field); :func:`notes_for` gives the notes whose scope holds a figure and that explain a
given rule. The wolfSSL page is one line of Markdown (its line breaks were lost), so a heading
is found by its ``## `` marker (``### `` starts a configuration inside it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from cortexm_emu.datafile import TomlReader
from refbench.published.model import Figure
from refbench.published.transcribe import SEEDS_DIR, SOURCE_FILES

NOTES_PATH = Path(__file__).resolve().parent / "notes.toml"
SCHEMA = "refbench.published.notes/1"
SCOPES = ("heading", "page")
FIELDS = ("id", "source", "quote", "scope", "explains", "hardware", "software_math", "meaning")
#: Optional: the operations the note says ``hardware`` accelerates (none given: the note names none).
OPTIONAL_FIELDS = ("operations",)
#: A level-2 Markdown heading marker (``## `` not preceded by another ``#``).
_HEADING = re.compile(r"(?<!#)## (?!#)")


@dataclass(frozen=True)
class Note:
    """One quoted note and the character ranges of its seed it covers."""

    id: str
    source: str
    quote: str
    scope: str
    explains: str
    hardware: str
    software_math: str
    meaning: str
    ranges: tuple[tuple[int, int], ...]  # [start, end) offsets in the seed
    operations: tuple[str, ...] = ()  # the operations the note says ``hardware`` accelerates

    def covers(self, f: Figure) -> bool:
        return f.source == self.source and any(start <= f.offset < end for start, end in self.ranges)

    def quoted(self) -> str:
        return f"the page says '{self.quote}' ({self.source}, notes.toml {self.id}): {self.meaning}"


def _ranges(text: str, quote: str, scope: str) -> list[tuple[int, int]]:
    """The [start, end) ranges of ``text`` a quote covers; empty when the quote is not in it."""
    positions = [m.start() for m in re.finditer(re.escape(quote), text)]
    if scope == "page":
        return [(0, len(text))] if positions else []
    headings = [m.start() for m in _HEADING.finditer(text)]
    out = []
    for at in positions:
        starts = [h for h in headings if h <= at]
        if not starts:
            continue
        start = starts[-1]
        end = next((h for h in headings if h > at), len(text))
        out.append((start, end))
    return out


def load_notes(path: Path = NOTES_PATH, seeds: Path = SEEDS_DIR) -> tuple[Note, ...]:
    """Every note of ``path`` with its computed ranges; a bad file raises DataFileError."""
    reader = TomlReader.load(path, kind="notes file")
    reader.check_keys((), ("schema", "note"))
    if reader.string(("schema",)) != SCHEMA:
        raise reader.fail(("schema",), f"unknown schema; accepted: {SCHEMA}")
    notes = []
    for k in range(len(reader.value(("note",)))):
        reader.check_keys(("note", k), FIELDS + OPTIONAL_FIELDS)
        values = {name: reader.string(("note", k, name)) for name in FIELDS}
        operations = reader.string_list(("note", k, "operations")) if reader.has(("note", k, "operations")) else ()
        if values["source"] not in SOURCE_FILES:
            raise reader.fail(("note", k, "source"), f"unknown source; accepted: {', '.join(SOURCE_FILES)}")
        if values["scope"] not in SCOPES:
            raise reader.fail(("note", k, "scope"), f"unknown scope; accepted: {', '.join(SCOPES)}")
        text = (seeds / values["source"]).read_text(encoding="utf-8")
        ranges = _ranges(text, values["quote"], values["scope"])
        if not ranges:
            raise reader.fail(("note", k, "quote"), f"not found verbatim in {values['source']}"
                              + (" under a '## ' heading" if values["quote"] in text else ""))
        notes.append(Note(**values, ranges=tuple(ranges), operations=operations))
    return tuple(notes)


@cache
def _notes() -> tuple[Note, ...]:
    return load_notes()


def notes_for(f: Figure, rule: str) -> list[Note]:
    """The notes of ``notes.toml`` whose scope holds ``f`` and that explain findings of ``rule``."""
    return [n for n in _notes() if n.explains == rule and n.covers(f)]
