"""Reading cited TOML data files with errors that name file, line and field.

:class:`DataFileError` is the one data-file error of the project (emulator and refbench alike);
:func:`read_toml` reads and parses a TOML file, naming the line of a syntax error;
:class:`TomlReader` gives typed access to a parsed TOML file and raises that error with the line
of the offending key; :func:`error_at` raises it for a loader that kept only the parsed data;
:func:`locate` finds that line, and :func:`line_matching` the line of a pattern (for a reader that
names an entry by its content, e.g. ``name = "..."``). They are the project's data-file line
locators: refbench's loaders use them too.

Why a line locator of our own: ``tomllib`` returns plain dicts without positions, and
``tomlkit`` (the maintained round-trip parser) keeps comments and whitespace but no line numbers
either (python-poetry/tomlkit issue #55, open: "Get the line and column numbers of parsed
elements"), so the line of a key is found by scanning the text: the key's own line inside its
``[table]`` / ``[[array]]`` section, else the section header, else line 1. The scan knows the
layout the data files use (one key, or one inline-table item, per line); tests pin it.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

__all__ = ["DataFileError", "Field", "TomlReader", "dotted", "error_at", "line_matching", "locate", "read_toml",
           "undotted"]

#: A path to a value: table keys (str) and array indices (int), e.g. ("flash", "wait_states", 2).
Field = tuple[str | int, ...]


class DataFileError(ValueError):
    """A data file is malformed. Names the file, the line, the field and the offending text."""

    def __init__(
        self, path: str | Path, line: int | None, field: str | None, problem: str, text: str = ""
    ):
        self.path = str(path)
        self.line = line
        self.field = field
        self.problem = problem
        self.text = text
        where = self.path if line is None else f"{self.path}:{line}"
        parts = [where] + ([f"field {field!r}"] if field else []) + [problem]
        message = ": ".join(parts)
        super().__init__(f"{message}: {text!r}" if text else message)


def dotted(field: Field) -> str:
    """``("flash", "wait_states", 2, "max_mhz")`` -> ``"flash.wait_states[2].max_mhz"``."""
    out = ""
    for key in field:
        out += f"[{key}]" if isinstance(key, int) else (f".{key}" if out else key)
    return out


def undotted(name: str) -> Field:
    """``"flash.wait_states[2].max_mhz"`` -> ``("flash", "wait_states", 2, "max_mhz")`` (the inverse
    of :func:`dotted` for keys without ``.``, ``[`` or ``]``)."""
    return tuple(int(index) if index else key for key, index in re.findall(r"([^.\[\]]+)|\[(\d+)\]", name))


def read_toml(path: Path, *, kind: str = "data file") -> tuple[str, dict[str, Any]]:
    """The text of ``path`` and its parsed TOML; an unreadable file or invalid TOML raises
    :class:`DataFileError` (naming the line of a syntax error and showing it)."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise DataFileError(path, None, None, f"cannot read {kind} ({exc.strerror})") from exc
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        line = getattr(exc, "lineno", None)
        match = re.search(r"line (\d+)", str(exc))
        if line is None and match:
            line = int(match.group(1))
        lines = text.splitlines()
        shown = lines[line - 1].strip() if line and line <= len(lines) else ""
        raise DataFileError(path, line, None, f"not valid TOML ({exc})", shown) from exc
    return text, data


def error_at(path: str | Path, field: Field | str, problem: str, text: str | None = None) -> DataFileError:
    """:meth:`TomlReader.fail` for a loader that kept only the data of :func:`read_toml`: the file is
    read again to find the line of ``field`` (a :data:`Field` or its :func:`dotted` form). ``text``
    replaces the line's text in the message (e.g. a value that stands on no line)."""
    path = Path(path)
    key = undotted(field) if isinstance(field, str) else field
    try:
        content = path.read_text(encoding="utf-8")
    except OSError:
        return DataFileError(path, None, dotted(key), problem, text or "")
    error = TomlReader(path, content, {}).fail(key, problem)
    return error if text is None else DataFileError(path, error.line, error.field, problem, text)


class TomlReader:
    """Typed access to one parsed TOML file; every problem raises :class:`DataFileError` with
    file:line:field."""

    def __init__(self, path: Path, text: str, data: dict[str, Any]):
        self.path = path
        self.text = text
        self.lines = text.splitlines()
        self.data = data

    @classmethod
    def load(cls, path: Path, *, kind: str = "data file") -> TomlReader:
        """Read and parse ``path`` (:func:`read_toml`)."""
        text, data = read_toml(path, kind=kind)
        return cls(path, text, data)

    # -- errors ------------------------------------------------------------------------------
    def fail(self, field: Field, problem: str) -> DataFileError:
        line = locate(self.lines, field)
        text = self.lines[line - 1].strip() if 1 <= line <= len(self.lines) else ""
        if text.startswith("#"):
            text = ""  # fell back to the file's first line: a comment says nothing about the field
        return DataFileError(self.path, line, dotted(field), problem, text)

    def check_keys(self, field: Field, accepted: Iterable[str]) -> None:
        """Every key of the table at ``field`` is one of ``accepted`` (a misspelt key fails)."""
        table = self.value(field) if field else self.data
        if not isinstance(table, dict):
            raise self.fail(field, "expected a table")
        allowed = set(accepted)
        for key in table:
            if key not in allowed:
                raise self.fail((*field, key), f"unknown field; accepted: {', '.join(sorted(allowed))}")

    # -- getters -----------------------------------------------------------------------------
    def value(self, field: Field) -> Any:
        node: Any = self.data
        for depth, key in enumerate(field):
            if isinstance(key, int):
                if not isinstance(node, list) or key >= len(node):
                    raise self.fail(field[: depth + 1], "missing entry")
                node = node[key]
            else:
                if not isinstance(node, dict):
                    raise self.fail(field[:depth], "expected a table")
                if key not in node:
                    raise self.fail(field[: depth + 1], "missing field")
                node = node[key]
        return node

    def has(self, field: Field) -> bool:
        node: Any = self.data
        for key in field:
            if isinstance(key, int):
                if not isinstance(node, list) or key >= len(node):
                    return False
            elif not isinstance(node, dict) or key not in node:
                return False
            node = node[key]
        return True

    def string(self, field: Field, *, allow_empty: bool = False) -> str:
        value = self.value(field)
        if not isinstance(value, str):
            raise self.fail(field, f"expected a string, got {type(value).__name__}")
        if not allow_empty and not value.strip():
            raise self.fail(field, "must not be empty")
        return value

    def optional_string(self, field: Field) -> str:
        """The string at ``field`` (may be empty), or "" when the key is absent."""
        return self.string(field, allow_empty=True) if self.has(field) else ""

    def choice(self, field: Field, accepted: tuple[str, ...]) -> str:
        value = self.string(field)
        if value not in accepted:
            raise self.fail(field, f"invalid value {value!r}; accepted: {', '.join(accepted)}")
        return value

    def integer(self, field: Field, *, minimum: int = 0) -> int:
        value = self.value(field)
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(field, f"expected an integer, got {type(value).__name__}")
        if value < minimum:
            raise self.fail(field, f"must be >= {minimum}, got {value}")
        return value

    def number(self, field: Field) -> float:
        value = self.value(field)
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise self.fail(field, f"expected a number, got {type(value).__name__}")
        if not value > 0:
            raise self.fail(field, f"must be > 0, got {value}")
        return value

    def boolean(self, field: Field) -> bool:
        value = self.value(field)
        if not isinstance(value, bool):
            raise self.fail(field, f"expected true or false, got {type(value).__name__}")
        return value

    def choice_list(self, field: Field, accepted: tuple[Any, ...]) -> tuple[Any, ...]:
        """An array of distinct values, each one of ``accepted`` (strings or integers)."""
        value = self.value(field)
        if not isinstance(value, list):
            raise self.fail(field, f"expected an array, got {type(value).__name__}")
        shown = ", ".join(str(item) for item in accepted)
        for item in value:
            if isinstance(item, bool) or item not in accepted:
                raise self.fail(field, f"invalid value {item!r}; accepted: {shown}")
        if len(set(value)) != len(value):
            raise self.fail(field, "values must not repeat")
        return tuple(value)

    def string_list(self, field: Field) -> tuple[str, ...]:
        """An array of non-empty strings (may be empty)."""
        value = self.value(field)
        if not isinstance(value, list) or not all(isinstance(s, str) and s.strip() for s in value):
            raise self.fail(field, "expected an array of non-empty strings")
        return tuple(value)

    def table_list(self, field: Field) -> int:
        """Length of the array of tables at ``field``."""
        value = self.value(field)
        if not isinstance(value, list) or not all(isinstance(item, dict) for item in value):
            raise self.fail(field, "expected an array of tables")
        return len(value)


# --------------------------------------------------------------------------------------------
# Finding the line of a field by scanning the text

_HEADER = re.compile(r"^\s*(\[\[?)\s*([A-Za-z0-9_.\-\"]+?)\s*(\]\]?)\s*(#.*)?$")


def line_matching(lines: Sequence[str], pattern: str, start: int = 0, end: int | None = None) -> int | None:
    """1-based number of the first of ``lines[start:end]`` where the regular expression ``pattern``
    matches (``re.search``) the text before any ``#`` comment; None when no line does."""
    compiled = re.compile(pattern)
    for index in range(start, len(lines) if end is None else end):
        if compiled.search(lines[index].split("#", 1)[0]):
            return index + 1
    return None


def _key_line(lines: Sequence[str], start: int, end: int, key: str) -> int | None:
    """1-based line of the first ``key =`` (or ``key=`` inside an inline table) in [start, end)."""
    return line_matching(lines, rf"(^|[{{,\s]){re.escape(key)}\s*=", start, end)


def _inline_item_line(lines: list[str], key_line: int, end: int, rest: Field) -> int | None:
    """For ``key = [ {a = 1}, {a = 2}, ... ]`` written one item per line, the item's line."""
    if not rest or not isinstance(rest[0], int):
        return None
    item_key = rest[1] if len(rest) >= 2 and isinstance(rest[1], str) else None
    seen = 0
    for index in range(key_line - 1, end):
        if "{" in lines[index].split("#", 1)[0]:
            if seen == rest[0]:
                if item_key is None:
                    return index + 1
                return _key_line(lines, index, index + 1, item_key) or index + 1
            seen += 1
    return None


def _key_in(lines: list[str], start: int, end: int, rest: Field) -> int | None:
    """Line of ``rest`` (a key, maybe followed by inline-array indices) in lines [start, end)."""
    if not rest or not isinstance(rest[0], str):
        return None
    found = _key_line(lines, start, end, rest[0])
    if found is None:
        return None
    return _inline_item_line(lines, found, end, rest[1:]) or found


def locate(lines: list[str], field: Field) -> int:
    """Best 1-based line for ``field``: the key's own line, else its table header, else 1."""
    if not field:
        return 1
    headers: list[tuple[int, str, bool]] = []  # (0-based index, dotted name, is array item)
    for index, line in enumerate(lines):
        match = _HEADER.match(line)
        if match:
            headers.append((index, match.group(2).replace('"', ""), match.group(1) == "[["))
    first_header = headers[0][0] if headers else len(lines)
    if all(name.split(".")[0] != field[0] for _, name, _ in headers):
        # a top-level key, written before the first header
        return _key_in(lines, 0, first_header, field) or 1

    # the longest prefix of the field that names a header: [a.b] or the n-th [[a.b]]
    for length in range(len(field), 0, -1):
        prefix, last = field[:length], field[length - 1]
        if isinstance(last, int):
            name, array, nth = ".".join(map(str, prefix[:-1])), True, last
        else:
            name, array, nth = ".".join(map(str, prefix)), False, 0
        positions = [pos for pos, h in enumerate(headers) if h[1] == name and h[2] == array]
        if nth < len(positions):
            position = positions[nth]
            start = headers[position][0]
            end = headers[position + 1][0] if position + 1 < len(headers) else len(lines)
            return _key_in(lines, start + 1, end, field[length:]) or start + 1
    # e.g. a whole [flash] table missing: the first table of that group
    return next((index + 1 for index, name, _ in headers if name.split(".")[0] == field[0]), 1)
