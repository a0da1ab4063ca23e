"""The measurement result cache: one self-describing JSON record per key, written atomically.

A record is trusted only when its ``key`` equals the fields it is looked up by, its ``checksum``
is the SHA-256 of the rest of the record (:func:`record_checksum`: an edited number, e.g. cycles
raised to 10^30 or halved, no longer matches) and its ``result`` has every field with the right
type (:data:`RESULT_FIELDS`). A record that cannot be read, is not JSON, fails its checksum or
carries a malformed result is discarded with a :class:`ResultCacheWarning` naming the file, and
the measurement runs again; a record without a checksum (written before records had one) is
measured again and replaced. The checksum finds corruption and edits, not a forger who
recomputes it. A cache folder that cannot be written is said once (naming
the folder); the run goes on without storing. Writes go through ``<key>.<pid>.tmp`` and
``os.replace``, and the temporary file is removed whatever stops the write (an interrupt too).
"""

from __future__ import annotations

import hashlib
import json
import os
import warnings
from pathlib import Path
from typing import Any


class ResultCacheWarning(UserWarning):
    """A cached measurement was discarded, or the cache cannot be written; names the file or folder."""


def cache_root() -> Path:
    """``$REFBENCH_CACHE`` or ``~/.cache/refbench``."""
    root = os.environ.get("REFBENCH_CACHE")
    return Path(root) if root else Path.home() / ".cache" / "refbench"


def _count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


#: Every field of a record's ``result`` and the test its value must pass.
RESULT_FIELDS: dict[str, tuple[str, Any]] = {
    "cycles": ("a whole number >= 0", _count),
    "instructions": ("a whole number >= 0", _count),
    "stack_bytes": ("a whole number >= 0 or null", lambda v: v is None or _count(v)),
    "code_bytes": ("a whole number >= 0 or null", lambda v: v is None or _count(v)),
    "verified": ("true or false", lambda v: isinstance(v, bool)),
    "mismatch": ("a string", lambda v: isinstance(v, str)),
    "memory_cycles": ("a whole number >= 0 or null", lambda v: v is None or _count(v)),
}


def record_checksum(record: dict[str, Any]) -> str:
    """SHA-256 of ``record`` without its ``checksum`` field (canonical JSON: sorted keys)."""
    body = {name: value for name, value in record.items() if name != "checksum"}
    return hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()


def result_problem(record: Any) -> str:
    """Why ``record``'s result is malformed (the first field that fails), or ""."""
    result = record.get("result") if isinstance(record, dict) else None
    if not isinstance(result, dict):
        return "no 'result' object"
    for name, (expected, ok) in RESULT_FIELDS.items():
        if name not in result:
            return f"result field {name!r} is missing"
        if not ok(result[name]):
            return f"result field {name!r} is {json.dumps(result[name])}; expected {expected}"
    return ""


class ResultCache:
    """Measurement records as JSON files, one per key, under ``root/measurements``."""

    def __init__(self, root: Path | None = None) -> None:
        self.root = (root if root is not None else cache_root()) / "measurements"
        #: False once a write failed: the run goes on without storing (said once)
        self.writable = True

    @staticmethod
    def key_of(fields: dict[str, Any]) -> str:
        return hashlib.sha256(json.dumps(fields, sort_keys=True).encode()).hexdigest()

    def path(self, key: str) -> Path:
        return self.root / key[:2] / f"{key}.json"

    def get(self, fields: dict[str, Any]) -> dict[str, Any] | None:
        """The stored record for these key fields, or None: when there is none, when it belongs to
        other fields, or when it is unusable (then discarded with a warning naming the file)."""
        path = self.path(self.key_of(fields))
        try:
            if not path.is_file() and path.exists():  # a folder, a device: /dev/zero would never end
                return self._discard(path, "is not a regular file")
            text = path.read_text(encoding="utf-8")
        except (FileNotFoundError, NotADirectoryError):  # no record (or no cache folder at all)
            return None
        except (OSError, UnicodeDecodeError) as exc:
            return self._discard(path, f"cannot be read ({exc})")
        try:
            record = json.loads(text)
        except ValueError as exc:
            return self._discard(path, f"is not JSON ({exc})")
        if not isinstance(record, dict) or record.get("key") != fields:
            return None
        if "checksum" not in record:  # a record of the format before checksums: measured again
            return None
        if record["checksum"] != record_checksum(record):
            return self._discard(path, "does not match its checksum (edited or corrupted)")
        problem = result_problem(record)
        if problem:
            return self._discard(path, f"has a malformed result: {problem}")
        return record

    def _discard(self, path: Path, problem: str) -> None:
        warnings.warn(f"cached measurement {path} {problem}: discarded, measuring again", ResultCacheWarning,
                      stacklevel=3)
        try:
            path.unlink()
        except OSError:
            pass  # an unwritable cache: the measurement is simply not stored again
        return None

    def put(self, fields: dict[str, Any], record: dict[str, Any]) -> Path | None:
        """Store atomically (write a temporary file, then rename); the record's path, or None when the
        cache cannot be written (said once, naming the folder)."""
        if not self.writable:
            return None
        path = self.path(self.key_of(fields))
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        record = {**record, "checksum": record_checksum(record)}
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp.write_text(json.dumps(record, indent=1, sort_keys=True), encoding="utf-8")
            tmp.replace(path)
        except OSError as exc:
            self.writable = False
            warnings.warn(f"result cache {self.root} cannot be written ({exc.strerror or exc}): "
                          "running on without storing measurements", ResultCacheWarning, stacklevel=2)
            return None
        finally:
            try:
                tmp.unlink(missing_ok=True)
            except OSError:
                pass
        return path
