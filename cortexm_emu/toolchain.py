"""Cross-compile C and assembly for a Cortex-M core, reproducibly and cached.

Two compilers:

* ``zig`` (default): clang from the ``ziglang`` PyPI package, hermetic (no root,
  no system package); compiler-rt supplies ``__aeabi_*`` helpers.
* ``gcc``: Debian's ``arm-none-eabi-gcc`` when installed (most published
  figures were built with GCC).

A build is cached under ``~/.cache/cortexm_emu/builds`` (or
``$CORTEXM_EMU_CACHE``) by the SHA-256 of the contents of the sources, headers
(the include folders' ``*.h`` and every file a source names in ``#include "..."``)
and linker script, their layout relative to each other, the flags and the
compiler's version string (never an absolute path), so the same inputs give the
same ELF bytes without recompiling, in any checkout. Beside each ``out.elf`` a
build record (``build.json``) holds the SHA-256 of the ELF and the command that made it; an
ELF that does not match its record (truncated, corrupted, unreadable) is rebuilt
with a :class:`BuildCacheWarning` naming the file. A cache directory that
cannot be written is said once, and the builds go on in a temporary directory.
"""

from __future__ import annotations

import atexit
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from cortexm_emu.cache_files import write_atomic

Compiler = Literal["zig", "gcc"]
OptLevel = Literal["O0", "O1", "O2", "O3", "Os"]

#: -mcpu names per core. ``m0plus`` for both M0 and M0+ with gcc would lose the
#: distinction only in scheduling, not in the instruction set (both ARMv6-M).
CPU_FLAGS: dict[str, dict[str, str]] = {
    "m0": {"zig": "cortex_m0", "gcc": "cortex-m0"},
    "m0plus": {"zig": "cortex_m0plus", "gcc": "cortex-m0plus"},
    "m3": {"zig": "cortex_m3", "gcc": "cortex-m3"},
    "m4": {"zig": "cortex_m4", "gcc": "cortex-m4"},
    "m7": {"zig": "cortex_m7", "gcc": "cortex-m7"},
    "m33": {"zig": "cortex_m33", "gcc": "cortex-m33"},
}
# The FPU variants build as their integer cores: the flags ask for no FPU code (soft-float ABI), so
# the same sources give the same ELF; the FPU is the emulated machine's business (cortexm_emu.cores).
CPU_FLAGS.update({f"{core}f": CPU_FLAGS[core] for core in ("m4", "m7", "m33")})

IDEAL_LINKER_SCRIPT = Path(__file__).resolve().parent / "ld" / "ideal.ld"


class ToolchainError(RuntimeError):
    """The compiler is missing or rejected the sources; the message carries its stderr."""


class BuildCacheWarning(UserWarning):
    """A cached build was unusable (rebuilt) or the build cache cannot be written (builds go
    to a temporary directory); the message names the file or directory."""


#: Layout of ``build.json``, the record beside each cached ``out.elf``.
BUILD_RECORD_SCHEMA = "cortexm_emu.build/1"


@dataclass(frozen=True)
class Build:
    elf: Path
    compiler: str
    compiler_version: str
    command: tuple[str, ...]
    cached: bool


def _cache_dir() -> Path:
    root = os.environ.get("CORTEXM_EMU_CACHE") or Path.home() / ".cache" / "cortexm_emu"
    return Path(root) / "builds"


def gcc_available() -> bool:
    return shutil.which("arm-none-eabi-gcc") is not None


def _driver(compiler: Compiler) -> list[str]:
    if compiler == "zig":
        return [sys.executable, "-m", "ziglang", "cc"]
    if compiler == "gcc":
        if not gcc_available():
            raise ToolchainError(
                "arm-none-eabi-gcc not found; install Debian's gcc-arm-none-eabi or use compiler='zig'"
            )
        return ["arm-none-eabi-gcc"]
    raise ValueError(f"Invalid compiler {compiler!r}; accepted: 'zig', 'gcc'")


_VERSIONS: dict[str, str] = {}


def compiler_version(compiler: Compiler) -> str:
    """The compiler's own version line (part of every cache key)."""
    if compiler not in _VERSIONS:
        cmd = _driver(compiler) + ["--version"]
        out = subprocess.run(cmd, capture_output=True, text=True, check=False)
        if out.returncode != 0:
            raise ToolchainError(f"{' '.join(cmd)} failed: {out.stderr.strip()}")
        _VERSIONS[compiler] = out.stdout.splitlines()[0].strip()
    return _VERSIONS[compiler]


def flags_for(core: str, compiler: Compiler, opt: OptLevel) -> list[str]:
    """Target and code-generation flags for one core (no FPU code: soft-float ABI)."""
    if core not in CPU_FLAGS:
        raise ValueError(f"Invalid core {core!r}; accepted: {', '.join(CPU_FLAGS)}")
    if opt not in ("O0", "O1", "O2", "O3", "Os"):
        raise ValueError(f"Invalid optimisation level {opt!r}; accepted: O0, O1, O2, O3, Os")
    cpu = CPU_FLAGS[core][compiler]
    common = [f"-{opt}", "-g", "-ffreestanding", "-fno-common", "-ffunction-sections", "-fdata-sections"]
    if compiler == "zig":
        return ["-target", "thumb-freestanding-eabi", f"-mcpu={cpu}", *common]
    return [f"-mcpu={cpu}", "-mthumb", "-mfloat-abi=soft", *common, "-nostdlib"]


def _libraries(compiler: Compiler) -> list[str]:
    """Libraries linked after the sources: with gcc, libgcc supplies ``__aeabi_*`` (no libc);
    zig links compiler-rt by itself."""
    return ["-lgcc"] if compiler == "gcc" else []


def build(
    sources: Sequence[Path | str],
    core: str,
    *,
    opt: OptLevel = "Os",
    compiler: Compiler = "zig",
    linker_script: Path | str | None = None,
    extra_flags: Sequence[str] = (),
    include_dirs: Sequence[Path | str] = (),
    exports: Sequence[str] | None = None,
) -> Build:
    """Compile and link ``sources`` (``.c``, ``.S``, ``.s``) into an ELF for ``core``.

    The default linker script is the ideal machine's (code at 0, SRAM at
    0x20000000). The entry symbol is ``cortexm_emu_halt`` (zig would otherwise
    ask for ``_start``). With ``exports`` (the functions the caller will call),
    unreferenced sections are dropped (``--gc-sections`` keeping those roots),
    which gives small ELFs; without it nothing is dropped (with zig, all of
    compiler-rt is then linked in: larger, but harmless).
    The result is cached; ``Build.cached`` says whether this call compiled anything.
    """
    sources = [Path(s).resolve() for s in sources]
    for src in sources:
        if not src.is_file():
            raise FileNotFoundError(f"source file {src} not found")
    script = Path(linker_script).resolve() if linker_script else IDEAL_LINKER_SCRIPT
    includes = [Path(d).resolve() for d in include_dirs]
    flags = flags_for(core, compiler, opt) + list(extra_flags)
    flags += ["-Wl,--entry=cortexm_emu_halt"]
    if exports is not None:
        flags += ["-Wl,--gc-sections"] + [f"-Wl,-u,{name}" for name in exports]
    else:
        flags += ["-Wl,--no-gc-sections"]  # zig's driver garbage-collects by default
    version = compiler_version(compiler)
    # Paths are written relative to the folder holding every source and include folder, which
    # -ffile-prefix-map turns into "." (and the compiler runs there, so DW_AT_comp_dir is "." too):
    # the ELF bytes and the key do not depend on where the checkout is.
    nearby = _quoted_includes(sources, includes)
    root = Path(os.path.commonpath([*(s.parent for s in sources), *includes, *(n.parent for n in nearby)]))
    key = hashlib.sha256()
    for part in (version, " ".join(flags), script.read_bytes()):
        key.update(part if isinstance(part, bytes) else part.encode())
    for src in sources:
        key.update(_relative(src, root).encode() + b"\0" + src.read_bytes())
    for directory in includes:
        key.update(b"-I" + _relative(directory, root).encode() + b"\0")
        for header in sorted(directory.glob("*.h")):
            key.update(header.name.encode() + b"\0" + header.read_bytes())
    for included in nearby:
        key.update(b"#include " + _relative(included, root).encode() + b"\0" + included.read_bytes())
    digest = key.hexdigest()[:24]
    flags += [f"-I{d}" for d in includes]
    command = tuple(_driver(compiler) + flags + [f"-Wl,-T,{script}", *map(str, sources), *_libraries(compiler), "-o"])
    out_dir = _writable_dir(_cache_dir()) / digest
    elf = out_dir / "out.elf"
    if elf.exists() and _cached_elf_ok(elf, digest):
        return Build(elf, compiler, version, command + (str(elf),), cached=True)
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
        (out_dir / f"probe.{os.getpid()}.tmp").touch()  # can this folder be written?
        (out_dir / f"probe.{os.getpid()}.tmp").unlink()
    except OSError as exc:
        out_dir = _unwritable(_cache_dir(), exc) / digest
        out_dir.mkdir(parents=True, exist_ok=True)
        elf = out_dir / "out.elf"
    what = f"{', '.join(s.name for s in sources)} ({core}, -{opt})"
    tmp = out_dir / f"out.{os.getpid()}.tmp"
    try:
        failure = _compile(command, root, tmp)
        if failure and out_dir.parent == _cache_dir():
            # A compiler that cannot write its output (a full disk, a quota) fails like one that
            # rejects the sources: build once more outside the cache to tell which it is.
            scratch = Path(tempfile.mkdtemp(prefix="cortexm_emu-probe-"))
            try:
                if not _compile(command, root, scratch / "out.elf"):
                    said = OSError(f"{compiler} failed writing there and succeeded elsewhere: {failure}")
                    out_dir = _unwritable(_cache_dir(), said) / digest
                    out_dir.mkdir(parents=True, exist_ok=True)
                    elf = out_dir / "out.elf"
                    tmp.unlink(missing_ok=True)
                    tmp = out_dir / f"out.{os.getpid()}.tmp"
                    shutil.move(scratch / "out.elf", tmp)
                    failure = ""
            finally:
                shutil.rmtree(scratch, ignore_errors=True)
        if failure:
            raise ToolchainError(f"{compiler} failed for {what}:\n{failure}")
        record = {"schema": BUILD_RECORD_SCHEMA, "key": digest, "elf_sha256": _sha256(tmp.read_bytes()),
                  "compiler": compiler, "compiler_version": version, "command": [*command, str(elf)]}
        # The record first, then the ELF: an out.elf that exists always has its record beside it.
        try:
            write_atomic(out_dir / "build.json", json.dumps(record, indent=1).encode())
            tmp.replace(elf)
        except OSError as exc:  # a folder where out.elf should be, a full disk
            out_dir = _unwritable(_cache_dir(), exc, f"{elf} cannot be written") / digest
            elf = out_dir / "out.elf"
            try:
                out_dir.mkdir(parents=True, exist_ok=True)
                write_atomic(out_dir / "build.json", json.dumps(record, indent=1).encode())
                shutil.move(tmp, elf)
            except OSError as again:
                raise ToolchainError(f"cannot store the build of {what} in the cache nor in {out_dir}: "
                                     f"{again.strerror or again}") from again
    finally:
        tmp.unlink(missing_ok=True)
    return Build(elf, compiler, version, command + (str(elf),), cached=False)


def _compile(command: tuple[str, ...], root: Path, output: Path) -> str:
    """Run the compiler driver writing ``output``: "" on success, else what went wrong (its stderr,
    or its exit status when it printed nothing)."""
    cmd = list(command[:-1]) + [f"-ffile-prefix-map={root}=.", "-o", str(output)]
    result = subprocess.run(cmd, capture_output=True, text=True, check=False, cwd=root)
    if result.returncode == 0 and output.is_file():
        return ""
    message = (result.stderr or "").strip() or (result.stdout or "").strip()
    if result.returncode == 0:
        return f"it exited with status 0 but wrote no {output.name}"
    return message or f"it exited with status {result.returncode} and printed nothing"


_QUOTED_INCLUDE = re.compile(rb'^[ \t]*#[ \t]*include[ \t]+"([^"]+)"', re.MULTILINE)


def _quoted_includes(sources: Sequence[Path], includes: Sequence[Path]) -> list[Path]:
    """Files the sources name in ``#include "..."`` (and those name in turn) that the include
    folders' ``*.h`` do not already cover in the key: a header or an assembler include file next
    to a source, or one reached by a relative path (``#include "../func.inc"``). Each name is looked
    up as the preprocessor does, beside the including file first, then in the include folders;
    a name found nowhere is left to the compiler to report."""
    covered = {header for directory in includes for header in directory.glob("*.h")}
    found: list[Path] = []
    pending = list(sources)
    seen = set(pending)
    while pending:
        current = pending.pop()
        for name in _QUOTED_INCLUDE.findall(current.read_bytes()):
            text = name.decode(errors="replace")
            for folder in (current.parent, *includes):
                candidate = (folder / text).resolve()
                if candidate.is_file():
                    if candidate not in seen:
                        seen.add(candidate)
                        pending.append(candidate)
                        if candidate not in covered:
                            found.append(candidate)
                    break
    return sorted(found)


def _relative(path: Path, root: Path) -> str:
    return path.relative_to(root).as_posix() if path != root else "."


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _cached_elf_ok(elf: Path, digest: str) -> bool:
    """Whether the cached ``elf`` matches its build record; if not, a warning naming the file says why
    (the caller rebuilds it)."""
    record_path = elf.with_name("build.json")
    try:
        if record_path.exists() and not record_path.is_file():  # e.g. a symlink to /dev/zero
            raise ValueError("not a regular file")
        record = json.loads(record_path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        problem, name = "has no build record (build.json)", elf
    except (OSError, ValueError) as exc:
        problem, name = f"is unreadable or not JSON ({exc})", record_path
    else:
        if not elf.is_file():  # e.g. a symlink to /dev/zero: never read it whole
            problem, name = "is not a regular file", elf
        elif not isinstance(record, dict) or record.get("schema") != BUILD_RECORD_SCHEMA \
                or record.get("key") != digest or not isinstance(record.get("elf_sha256"), str):
            problem, name = "does not describe this build (schema, key or elf_sha256)", record_path
        else:
            try:
                actual = _sha256(elf.read_bytes())
            except OSError as exc:
                problem, name = f"is unreadable ({exc})", elf
            else:
                if actual == record["elf_sha256"]:
                    return True
                problem, name = (f"does not match its build record: the SHA-256 of its bytes is {actual[:16]}..., "
                                 f"the record says {record['elf_sha256'][:16]}... (truncated or corrupted)"), elf
    warnings.warn(f"cached build {name} {problem}: rebuilding it", BuildCacheWarning, stacklevel=3)
    return False


#: cache directory -> the temporary directory used instead, when it cannot be written
_FALLBACK: dict[Path, Path] = {}


def build_cache_redirects() -> dict[str, str]:
    """The build caches this process found unwritable and the temporary folders used instead (for a
    worker process to adopt with :func:`adopt_build_cache_redirects`, without warning again)."""
    return {str(k): str(v) for k, v in _FALLBACK.items()}


def adopt_build_cache_redirects(redirects: dict[str, str]) -> None:
    """Use the temporary build folders of another process (see :func:`build_cache_redirects`)."""
    _FALLBACK.update({Path(k): Path(v) for k, v in redirects.items()})


def _writable_dir(cache: Path) -> Path:
    return _FALLBACK.get(cache, cache)


def _unwritable(cache: Path, exc: OSError, what: str = "") -> Path:
    """Say once that ``cache`` cannot be written; builds then go to a temporary directory removed
    at exit."""
    if cache not in _FALLBACK:
        fallback = Path(tempfile.mkdtemp(prefix="cortexm_emu-builds-"))
        atexit.register(shutil.rmtree, fallback, ignore_errors=True)
        _FALLBACK[cache] = fallback
        warnings.warn(f"build cache {cache} cannot be written ({what or exc.strerror or exc}): building without it "
                      f"(in {fallback}, removed at exit)", BuildCacheWarning, stacklevel=3)
    return _FALLBACK[cache]
