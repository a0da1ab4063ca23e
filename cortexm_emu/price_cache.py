"""Priced blocks kept on disk across runs, keyed by the block's content and the timing model.

A block's static price (``timing.price_block``) depends only on its address, its bytes and the
timing model (whose ``version`` hashes its data file, options and code). :class:`PriceCache`
keeps, per model version, ``(address, bytes) -> (price, branches, always_branches, count)`` in
one file under ``$CORTEXM_EMU_CACHE/prices/`` (default ``~/.cache/cortexm_emu/prices``), so a
new process skips capstone decoding, the instruction checks and the pricing of every block an
earlier run priced: the block is decoded again only when something asks for its instructions
(annotation, a fault, a self-timing access). Only blocks that passed the core's instruction
checks are stored, so a stored price is a block this model accepts.

The file is this package's own cache (a pickle of its dataclasses, written atomically with a
temporary file and a rename; parallel writers may each drop the other's new entries, never
corrupt the file). ``$CORTEXM_EMU_NO_PRICE_CACHE`` turns it off.

Every read and write is checked: each entry carries a digest of its bytes, and an entry that
does not match it (a price edited or corrupted on disk) is priced again, never used; a file that
cannot be read or is not this format is ignored and rewritten; a write that fails (any OSError:
a full disk, a read-only folder) leaves the run on its in-memory prices. Each of these is said
once per file with a :class:`PriceCacheWarning` naming it. The checksum finds corruption and
edits, not a forger who recomputes it.
"""

from __future__ import annotations

import hashlib
import os
import pickle
from pathlib import Path
from typing import Any

from cortexm_emu.cache_files import warn_once, write_atomic
from cortexm_emu.toolchain import BuildCacheWarning

#: one stored block: (price, branches, always_branches, instruction count)
Entry = tuple[Any, bool, bool, int, bool]  # price, branches, always branches, count, alignment-free
#: a cache file holds (_FORMAT, {(address, code): checksum + pickled Entry}): each entry is
#: checked and unpickled only when its block runs, so a file that holds the blocks of many
#: programs loads fast
_FORMAT = 4
_DIGEST = 16  # bytes of the digest (hashlib) before each stored entry


class PriceCacheWarning(BuildCacheWarning):
    """The price cache file is unreadable, holds an entry that fails its checksum, or cannot be
    written; names the file (a BuildCacheWarning, so every front end shows it as a cache warning)."""


def _say_once(path: Path, kind: str, message: str) -> None:
    warn_once((path, kind), f"price cache {path} {message}", PriceCacheWarning, stacklevel=4)


def _sealed(entry: Entry) -> bytes:
    stored = pickle.dumps(entry, protocol=pickle.HIGHEST_PROTOCOL)
    return hashlib.sha256(stored).digest()[:_DIGEST] + stored


def cache_dir() -> Path:
    root = os.environ.get("CORTEXM_EMU_CACHE") or Path.home() / ".cache" / "cortexm_emu"
    return Path(root) / "prices"


class PriceCache:
    """The stored prices of one timing model (``version``), loaded on first use."""

    def __init__(self, version: str) -> None:
        self.enabled = bool(version) and not os.environ.get("CORTEXM_EMU_NO_PRICE_CACHE")
        self.path = cache_dir() / f"{version}.pickle"
        self._entries: dict[tuple[int, bytes], bytes] | None = None
        self._new: dict[tuple[int, bytes], bytes] = {}

    def _load(self) -> dict[tuple[int, bytes], bytes]:
        if self._entries is None:
            self._entries = self._read() if self.enabled else {}
        return self._entries

    def _read(self) -> dict[tuple[int, bytes], bytes]:
        try:
            if not self.path.is_file():
                if self.path.exists():
                    _say_once(self.path, "read", "is not a regular file: ignored, prices computed again")
                return {}
            with open(self.path, "rb") as handle:
                fmt, entries = pickle.load(handle)
        except FileNotFoundError:
            return {}
        except (OSError, pickle.UnpicklingError, EOFError, ValueError, TypeError, AttributeError, ImportError,
                IndexError, MemoryError) as exc:
            _say_once(self.path, "read", f"cannot be read ({type(exc).__name__}: {exc}): ignored, prices computed "
                                         "again and the file rewritten")
            return {}
        if fmt != _FORMAT or not isinstance(entries, dict):
            return {}  # another format of this package (an older version): replaced quietly
        return entries

    def get(self, address: int, code: bytes) -> Entry | None:
        if not self.enabled:
            return None
        stored = self._load().get((address, code))
        if stored is None:
            return None
        if not isinstance(stored, bytes) or hashlib.sha256(stored[_DIGEST:]).digest()[:_DIGEST] != stored[:_DIGEST]:
            _say_once(self.path, "checksum", f"holds a price that fails its checksum (block at 0x{address:08x}; "
                                             "edited or corrupted): priced again, never used")
            return None
        try:
            return pickle.loads(stored[_DIGEST:])
        except (pickle.UnpicklingError, EOFError, ValueError, TypeError, AttributeError, ImportError):
            return None  # priced again, and stored again

    def put(self, address: int, code: bytes, entry: Entry) -> None:
        if self.enabled:
            stored = _sealed(entry)
            self._load()[(address, code)] = stored
            self._new[(address, code)] = stored

    def flush(self) -> None:
        """Write the entries added since the last flush (merged with what is on disk now)."""
        if not self._new:
            return
        entries = self._read()
        entries.update(self._new)
        self._new = {}
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(self.path, pickle.dumps((_FORMAT, entries), protocol=pickle.HIGHEST_PROTOCOL))
        except OSError as exc:  # a read-only or full cache directory costs the next run its pricing only
            # said once per folder: every file of an unwritable folder fails alike
            _say_once(self.path.parent, "write", f"cannot be written ({exc.strerror or exc}): prices kept in "
                                                 "memory only")


#: the price caches open in this process, by file and state: one per file, however many machines
_OPEN: dict[tuple[Path, bool], PriceCache] = {}


def price_cache_for(version: str) -> PriceCache:
    """This process's price cache of model ``version``: one object per file, so every machine of the
    process shares one loaded copy (the file holds every block any earlier run priced with that model:
    tens of MB in memory, which each machine loading its own copy multiplied)."""
    cache = PriceCache(version)
    return _OPEN.setdefault((cache.path, cache.enabled), cache)


def forget_price_caches() -> None:
    """Forget the price caches this process opened: the next machine reads its file again, as a
    new process would (after the file was moved, edited or removed)."""
    _OPEN.clear()
