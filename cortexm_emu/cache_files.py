"""Writing this package's cache files, and saying a cache's problem once per process.

The build, native-library and price caches write every file through :func:`write_atomic` (a
temporary file in the same folder, then a rename, so a reader or a parallel writer never sees half
a file), and report what goes wrong with a cache (an unwritable folder, a file that fails its
checksum) with :func:`warn_once`: once per process for each cache and kind of problem, however
many builds or blocks meet it.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Hashable
from pathlib import Path

#: (warning class, what it is about) already said in this process
_SAID: set[tuple[type[Warning], Hashable]] = set()


def write_atomic(path: Path, data: bytes) -> None:
    """Write ``path`` through a temporary file in its folder and a rename; the temporary file is
    removed if anything fails (the failure, an ``OSError``, is the caller's to handle)."""
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        tmp.write_bytes(data)
        tmp.replace(path)
    finally:
        try:
            tmp.unlink(missing_ok=True)
        except OSError:  # e.g. a folder where the temporary file would be: the write failed already
            pass


def warn_once(about: Hashable, message: str, category: type[Warning], stacklevel: int = 2) -> None:
    """Warn ``message`` as ``category`` unless this process has already warned ``category`` about
    ``about``; ``stacklevel`` is the one ``warnings.warn`` would take called where this function is
    called (1: the line calling this function)."""
    if (category, about) not in _SAID:
        _SAID.add((category, about))
        warnings.warn(message, category, stacklevel=stacklevel + 1)
