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
corrupt the file). ``$CORTEXM_EMU_NO_PRICE_CACHE`` turns it off; an unreadable file is
ignored and rewritten.
"""

from __future__ import annotations

import os
import pickle
from pathlib import Path
from typing import Any

#: one stored block: (price, branches, always_branches, instruction count)
Entry = tuple[Any, bool, bool, int, bool]  # price, branches, always branches, count, alignment-free
#: a cache file holds (_FORMAT, {(address, code): pickled Entry}): each entry is unpickled only
#: when its block runs, so a file that holds the blocks of many programs loads fast
_FORMAT = 3


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
            with open(self.path, "rb") as handle:
                fmt, entries = pickle.load(handle)
        except (OSError, pickle.UnpicklingError, EOFError, ValueError, TypeError, AttributeError, ImportError):
            return {}
        return entries if fmt == _FORMAT and isinstance(entries, dict) else {}

    def get(self, address: int, code: bytes) -> Entry | None:
        if not self.enabled:
            return None
        stored = self._load().get((address, code))
        if stored is None:
            return None
        try:
            return pickle.loads(stored)
        except (pickle.UnpicklingError, EOFError, ValueError, TypeError, AttributeError, ImportError):
            return None  # priced again, and stored again

    def put(self, address: int, code: bytes, entry: Entry) -> None:
        if self.enabled:
            stored = pickle.dumps(entry, protocol=pickle.HIGHEST_PROTOCOL)
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
            tmp = self.path.with_name(f"{self.path.name}.{os.getpid()}.tmp")
            with open(tmp, "wb") as handle:
                pickle.dump((_FORMAT, entries), handle, protocol=pickle.HIGHEST_PROTOCOL)
            tmp.replace(self.path)
        except OSError:
            pass  # a read-only or full cache directory only costs the next run its pricing
