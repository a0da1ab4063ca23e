"""Build and load the native block counter (``blockcount.c``) with the host C compiler.

The shared library is compiled on first use with ``cc`` (or ``$CC``) and cached
under ``$CORTEXM_EMU_CACHE/native`` (default ``~/.cache/cortexm_emu/native``),
keyed by a digest of the C source, the flags and the compiler's version
line. If no compiler is found or compilation fails, :func:`load_native` returns
``None`` together with the reason and the emulator falls back to a Python block
hook (same counts, slower).

:func:`compile_library` is the same build for any other C source of the package (the board
memory replay, ``flash_replay.c``, loaded by :mod:`cortexm_emu.flash_native`).
"""

from __future__ import annotations

import atexit
import ctypes
import hashlib
import os
import shutil
import subprocess
import tempfile
import warnings
from functools import cache
from pathlib import Path

from cortexm_emu.cache_files import warn_once, write_atomic
from cortexm_emu.toolchain import BuildCacheWarning

SOURCE = Path(__file__).resolve().parent / "blockcount.c"
CFLAGS = ("-O2", "-shared", "-fPIC", "-std=c99")

NO_PREV = 0xFFFF_FFFF

#: stop_reason values of blockcount.c
RUNNING, STOP_INSN_BUDGET, STOP_CYCLE_BUDGET, STOP_DISCOVER, STOP_NO_MEMORY = range(5)


class Edge(ctypes.Structure):
    _fields_ = [
        ("prev", ctypes.c_uint32),
        ("cur", ctypes.c_uint32),
        ("used", ctypes.c_uint32),
        ("insns", ctypes.c_uint32),
        ("cost", ctypes.c_int64),
        ("count", ctypes.c_uint64),
        ("next", ctypes.c_uint64),
        ("branch", ctypes.c_uint64),
        ("counter", ctypes.c_uint64),
        ("mispredicted", ctypes.c_uint64),
    ]


DISCOVER_FN = ctypes.CFUNCTYPE(
    ctypes.c_int,
    ctypes.c_uint32,
    ctypes.c_uint32,
    ctypes.c_uint32,
    ctypes.POINTER(ctypes.c_int64),
    ctypes.POINTER(ctypes.c_uint32),
    ctypes.POINTER(ctypes.c_uint64),
)


class State(ctypes.Structure):
    _fields_ = [
        ("cycles", ctypes.c_int64),
        ("instructions", ctypes.c_uint64),
        ("blocks", ctypes.c_uint64),
        ("insn_limit", ctypes.c_uint64),
        ("cycle_limit", ctypes.c_int64),
        ("prev", ctypes.c_uint32),
        ("stop_reason", ctypes.c_int32),
        ("last", ctypes.c_uint64),
        ("edges_used", ctypes.c_uint64),
        ("capacity", ctypes.c_uint64),
        ("table", ctypes.c_void_p),
        ("discover", ctypes.c_void_p),
        ("stop", ctypes.c_void_p),
        ("trace", ctypes.c_void_p),
        ("trace_len", ctypes.c_uint64),
        ("trace_cap", ctypes.c_uint64),
        ("counters", ctypes.c_void_p),
        ("counters_used", ctypes.c_uint64),
        ("counters_cap", ctypes.c_uint64),
        ("counter_keys", ctypes.c_void_p),
        ("counter_slots", ctypes.c_void_p),
        ("counter_hash_cap", ctypes.c_uint64),
        ("branch_cycles", ctypes.c_int64),
    ]


def cache_root() -> Path:
    root = os.environ.get("CORTEXM_EMU_CACHE") or Path.home() / ".cache" / "cortexm_emu"
    return Path(root) / "native"


def _compiler() -> str | None:
    for candidate in (os.environ.get("CC"), "cc", "gcc", "clang"):
        if candidate and shutil.which(candidate):
            return candidate
    return None


def _compile() -> tuple[Path | None, str]:
    return compile_library(SOURCE, "libcortexm_emu_blockcount.so")


def compile_library(source: Path, library_name: str) -> tuple[Path | None, str]:
    """Compile ``source`` into the shared library ``library_name`` in the cache (once per
    source, flags and compiler version); returns its path, or ``None`` and why not."""
    compiler = _compiler()
    if compiler is None:
        return None, "no host C compiler (cc, gcc, clang or $CC) on PATH"
    version = subprocess.run([compiler, "--version"], capture_output=True, text=True, check=False)
    if version.returncode != 0:
        return None, f"{compiler} --version failed: {version.stderr.strip()}"
    key = hashlib.sha256()
    for part in (
        source.read_bytes(),
        " ".join(CFLAGS).encode(),
        version.stdout.splitlines()[0].encode(),
    ):
        key.update(part)
    out_dir = cache_root() / key.hexdigest()[:24]
    lib = out_dir / library_name
    if lib.exists() and _cached_library_ok(lib):
        return lib, ""
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
        (out_dir / f"probe.{os.getpid()}.tmp").touch()
        (out_dir / f"probe.{os.getpid()}.tmp").unlink()
    except OSError as exc:  # an unwritable cache: compile in a temporary folder
        out_dir, lib = _elsewhere(library_name, f"{exc.strerror or exc}")
    tmp = out_dir / f"tmp.{os.getpid()}.so"
    try:
        failure = _cc(compiler, source, tmp)
        if failure and out_dir.parent == cache_root():
            # a compiler that cannot write its output (a full disk) fails like one that rejects
            # the source: compile once more outside the cache to tell which it is
            scratch, scratch_lib = _elsewhere(library_name, "")
            if not _cc(compiler, source, scratch_lib):
                _say_once(cache_root(), f"{compiler} failed writing there and succeeded elsewhere: {failure}")
                return scratch_lib, ""
        if failure:
            return None, f"{compiler} failed on {source.name}: {failure}"
        try:
            record = lib.with_name(lib.name + ".digest")
            write_atomic(record, hashlib.sha256(tmp.read_bytes()).hexdigest().encode())
            tmp.replace(lib)  # atomic: parallel test workers may race here
        except OSError as exc:  # a full disk: use the library from a temporary folder
            _say_once(cache_root(), f"{exc.strerror or exc}")
            elsewhere, lib = _elsewhere(library_name, "")
            shutil.move(tmp, lib)
    finally:
        tmp.unlink(missing_ok=True)
    return lib, ""


class NativeCacheWarning(BuildCacheWarning):
    """A cached native library failed its checksum (compiled again) or the native cache cannot be
    written (compiled in a temporary folder); names the file or folder."""


def _say_once(folder: Path, problem: str) -> None:
    warn_once(folder, f"native library cache {folder} cannot be written ({problem}): compiling in a temporary "
              "folder", NativeCacheWarning, stacklevel=4)


def _elsewhere(library_name: str, problem: str) -> tuple[Path, Path]:
    folder = Path(tempfile.mkdtemp(prefix="cortexm_emu-native-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    if problem:
        _say_once(cache_root(), problem)
    return folder, folder / library_name


def _cc(compiler: str, source: Path, output: Path) -> str:
    """Compile ``source`` to ``output``: "" on success, else the compiler's message (or status)."""
    result = subprocess.run([compiler, *CFLAGS, str(source), "-o", str(output)], capture_output=True, text=True,
                            check=False)
    if result.returncode == 0 and output.is_file():
        return ""
    return result.stderr.strip() or f"it exited with status {result.returncode} and printed nothing"


def _cached_library_ok(lib: Path) -> bool:
    """Whether the cached ``lib`` is the one compiled there: a regular file whose digest is its record's
    (``<lib>.digest``). A library of the format before records is compiled again quietly; one that fails
    its record (replaced, corrupted: loading it could count differently or crash) with a warning."""
    record = lib.with_name(lib.name + ".digest")
    try:
        if not lib.is_file() or (record.exists() and not record.is_file()):
            problem = "is not a regular file"
        elif not record.exists():
            return False
        elif hashlib.sha256(lib.read_bytes()).hexdigest() == record.read_text(encoding="ascii").strip():
            return True
        else:
            problem = "does not match its checksum (replaced or corrupted)"
    except (OSError, ValueError) as exc:
        problem = f"is unreadable ({exc})"
    warnings.warn(f"cached native library {lib} {problem}: compiling it again", NativeCacheWarning, stacklevel=4)
    try:
        lib.unlink()
    except OSError:
        pass
    return False


def open_library(source: Path, library_name: str) -> tuple[ctypes.CDLL | None, str]:
    """``source`` compiled (:func:`compile_library`) and loaded, or ``None`` and why not
    (also when ``$CORTEXM_EMU_NO_NATIVE`` is set)."""
    if os.environ.get("CORTEXM_EMU_NO_NATIVE"):
        return None, "disabled by $CORTEXM_EMU_NO_NATIVE"
    lib_path, reason = compile_library(source, library_name)
    if lib_path is None:
        return None, reason
    try:
        return ctypes.CDLL(str(lib_path)), ""
    except OSError as exc:
        return None, f"cannot load {lib_path}: {exc}"


@cache
def load_native() -> tuple[ctypes.CDLL | None, str]:
    """The loaded library (``None`` if unavailable) and, if unavailable, why."""
    lib, reason = open_library(SOURCE, "libcortexm_emu_blockcount.so")
    if lib is None:
        return None, reason
    lib.cme_new.restype = ctypes.POINTER(State)
    lib.cme_new.argtypes = [ctypes.c_uint64]
    lib.cme_free.argtypes = [ctypes.POINTER(State)]
    lib.cme_free.restype = None
    lib.cme_reset.argtypes = [ctypes.POINTER(State), ctypes.c_uint64, ctypes.c_int64, ctypes.c_int]
    lib.cme_reset.restype = None
    lib.cme_export.argtypes = [ctypes.POINTER(State), ctypes.POINTER(Edge), ctypes.c_uint64]
    lib.cme_export.restype = ctypes.c_uint64
    return lib, ""
