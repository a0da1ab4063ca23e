"""Cross-compile C and assembly for a Cortex-M core, reproducibly and cached.

Two compilers:

* ``zig`` (default): clang from the ``ziglang`` PyPI package, hermetic (no root,
  no system package); compiler-rt supplies ``__aeabi_*`` helpers.
* ``gcc``: Debian's ``arm-none-eabi-gcc`` when installed (most published
  figures were built with GCC).

A build is cached under ``~/.cache/cortexm_emu/builds`` (or
``$CORTEXM_EMU_CACHE``) by the SHA-256 of the sources, the linker script, the
flags and the compiler's version string, so the same inputs give the same ELF
bytes without recompiling.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

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

IDEAL_LINKER_SCRIPT = Path(__file__).resolve().parent / "ld" / "ideal.ld"


class ToolchainError(RuntimeError):
    """The compiler is missing or rejected the sources; the message carries its stderr."""


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
    flags = flags_for(core, compiler, opt) + list(extra_flags)
    flags += [f"-I{Path(d).resolve()}" for d in include_dirs]
    flags += ["-Wl,--entry=cortexm_emu_halt"]
    if exports is not None:
        flags += ["-Wl,--gc-sections"] + [f"-Wl,-u,{name}" for name in exports]
    else:
        flags += ["-Wl,--no-gc-sections"]  # zig's driver garbage-collects by default
    version = compiler_version(compiler)
    key = hashlib.sha256()
    for part in (version, " ".join(flags), script.read_bytes()):
        key.update(part if isinstance(part, bytes) else part.encode())
    for src in sources:
        key.update(src.name.encode() + b"\0" + src.read_bytes())
    for directory in include_dirs:
        for header in sorted(Path(directory).glob("*.h")):
            key.update(header.name.encode() + b"\0" + header.read_bytes())
    digest = key.hexdigest()[:24]
    out_dir = _cache_dir() / digest
    elf = out_dir / "out.elf"
    command = tuple(_driver(compiler) + flags + [f"-Wl,-T,{script}", *map(str, sources), *_libraries(compiler), "-o"])
    if elf.is_file():
        return Build(elf, compiler, version, command + (str(elf),), cached=True)
    out_dir.mkdir(parents=True, exist_ok=True)
    tmp = out_dir / f"out.{os.getpid()}.elf"
    # -ffile-prefix-map keeps absolute source paths out of the debug info (reproducible bytes).
    repro = [f"-ffile-prefix-map={src.parent}=." for src in {s.parent: s for s in sources}.values()]
    cmd = list(command[:-1]) + repro + ["-o", str(tmp)]
    result = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise ToolchainError(f"{compiler} failed for {', '.join(s.name for s in sources)} ({core}, -{opt}):\n{result.stderr.strip()}")
    tmp.replace(elf)
    return Build(elf, compiler, version, command + (str(elf),), cached=False)
