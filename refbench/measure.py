"""Measurements of kernels in the emulator: cycles per operation and per byte, with a result cache.

One measurement is one call of one kernel operation (``refbench/kernels/<family>/kernel.toml``)
on deterministic, seeded inputs of a given size, on one core with one memory system, verified
against the Python reference by :class:`refbench.kernels.harness.KernelHarness`.

The emulator is deterministic (same ELF, same inputs, same timing model, same memory system:
same cycle count), so a result is cached on disk, keyed by everything that changes the answer:

* the ELF's SHA-256 (which covers sources, compiler, its version and flags),
* the function called (and its setup function),
* the SHA-256 of the inputs,
* the timing model's version string,
* the memory configuration (its name and parameters),
* the core.

A cached record is self-describing JSON: what ran (kernel, variant, operation, function, ELF
hash, input lengths and digest, compiler, optimisation), where (core, timing model version,
memory configuration), from which commit, and the result, including the ``verified`` flag of the
run that produced it (that run compared that exact ELF's output on those exact inputs with the
reference). The cache lives under ``$REFBENCH_CACHE`` or ``~/.cache/refbench``.

Every measurement uses the memory system it is given: :class:`cortexm_emu.IdealMemory` (zero
wait states) by default, or a board's memory system from :func:`cortexm_emu.board_memory`
(flash wait states at the clock, prefetch, ART / ICACHE / L1 caches, code in flash or SRAM). Its
full description (:meth:`cortexm_emu.flash.BoardMemory.describe`) is part of the cache key and of
the record, and the stall cycles it added (``memory_cycles``, included in ``cycles``) are stored.
"""

from __future__ import annotations

import dataclasses
import hashlib
import itertools
import json
import subprocess
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import Any

from cortexm_emu import IdealMemory
from cortexm_emu.boards import Board, board_names, load_board
from cortexm_emu.errors import EmulatorError
from cortexm_emu.flash import BoardMemory, board_memory
from cortexm_emu.memory import MemorySystem
from cortexm_emu.memory_map import SRAM_END, SRAM_START
from cortexm_emu.timing import CORES as TIMED_CORES
from cortexm_emu.timing import model_for
from cortexm_emu.toolchain import ToolchainError
from refbench.kernels.catalog import (
    OPERAND_ROLES,
    Family,
    Operation,
    build_variant,
    families,
    family,
)
from refbench.kernels.harness import DATA_ROLES, KernelHarness
from refbench.kernels.references import reference
from refbench.result_cache import ResultCache, ResultCacheWarning, cache_root

#: Version of the cached record layout; part of the cache key so a layout change never
#: reads an old record.
RECORD_SCHEMA = "refbench.measurement/2"
#: The seed every input is derived from (inputs are deterministic so caching is sound).
DEFAULT_SEED = "refbench-measure-1"
DEFAULT_SIZES: tuple[int, ...] = (16, 64, 1024, 8000)
OPT_LEVELS: tuple[str, ...] = ("Os", "O2", "O3")
COMPILERS: tuple[str, ...] = ("zig", "gcc")
#: The largest message a job may ask for: the Cortex-M architecture's SRAM region
#: (0x20000000-0x3FFFFFFF, 512 MiB; ARMv7-M Architecture Reference Manual, B3.1 "The system
#: address map"; ARMv6-M and ARMv8-M use the same map), where the emulator places buffers.
MAX_MESSAGE_BYTES = SRAM_END - SRAM_START
MAX_MESSAGE_REASON = "the Cortex-M SRAM region, 0x20000000-0x3FFFFFFF, where buffers go"
#: Length candidates tried, in order, for roles whose length the manifest does not state; the
#: first combination the operation's reference accepts is used (so no per-kernel table here).
LENGTH_CANDIDATES: dict[str, tuple[int, ...]] = {
    "key": (16, 32, 24, 8),
    "nonce": (12, 16, 13, 8, 7),
    "iv": (16, 8),
    "counter": (16, 8),
    "entropy": (32, 48, 16),
}
#: Bytes of data given to the reference while probing the lengths above (a whole number of
#: 8- and 16-byte blocks, so ECB and CBC accept it).
PROBE_BYTES = 16


def memory_description(memory: MemorySystem) -> dict[str, Any]:
    """The memory configuration as JSON: its name and every parameter (a board memory system's
    :meth:`~cortexm_emu.flash.BoardMemory.describe`: board, clock, wait states, caches, prefetch,
    placement, start, the rules applied and their sources; a plain dataclass's fields)."""
    if isinstance(memory, BoardMemory):
        fields = memory.describe()
    elif dataclasses.is_dataclass(memory) and not isinstance(memory, type):
        fields = {k: v for k, v in dataclasses.asdict(memory).items() if k != "name"}
    else:
        fields = {}
    return {"name": memory.name, "class": type(memory).__name__, "parameters": fields}


def memory_label(memory: MemorySystem) -> str:
    """A short label for reports: ``ideal`` for the zero-wait-state memory."""
    return memory.name


@cache
def commit_info() -> dict[str, str]:
    """The checkout's commit, if ``git`` can tell (read-only query, no index refresh)."""
    root = Path(__file__).resolve().parent.parent
    try:
        out = subprocess.run(["git", "--no-optional-locks", "rev-parse", "HEAD"], cwd=root,
                             capture_output=True, text=True, check=False, timeout=10)
    except (OSError, subprocess.SubprocessError) as exc:
        return {"commit": "", "note": f"git not usable: {exc}"}
    if out.returncode != 0:
        return {"commit": "", "note": f"git rev-parse failed: {out.stderr.strip()}"}
    return {"commit": out.stdout.strip(), "note": "working tree changes, if any, are not recorded"}


# ------------------------------------------------------------------------------------------
# Inputs


def _stream(seed: str, role: str, length: int) -> bytes:
    return hashlib.shake_256(f"{seed}/{role}/{length}".encode()).digest(length) if length else b""


def operation_of(fam: Family, name: str | None) -> Operation:
    """The operation ``name`` of ``fam`` (its first one when ``name`` is None)."""
    if name is None:
        return fam.operations[0]
    for op in fam.operations:
        if op.name == name:
            return op
    raise ValueError(f"Unknown operation {name!r} of kernel {fam.name!r}; valid: {', '.join(o.name for o in fam.operations)}")


def size_role(op: Operation) -> str:
    """The role whose length is the measured size: ``in``, else ``msg``, else ``out_len``, else the
    operand ``a`` (multi-precision arithmetic), else ``aad``."""
    roles = set(op.args) | set(op.setup_args)
    for role in ("in", "msg", "out_len", "a", "aad"):
        if role in roles:
            return role
    raise ValueError(f"operation {op.name!r} has no role that carries a message size")


def _build_inputs(op: Operation, size: int, lengths: dict[str, int], aad_bytes: int, seed: str) -> dict[str, Any]:
    roles = set(op.args) | set(op.setup_args)
    sized = size_role(op)
    inputs: dict[str, Any] = {}
    for role in sorted(roles):
        if role == "counter32":
            inputs[role] = 1  # RFC 8439 §2.4: the first block counter used for encryption
        elif role == "out_len":
            inputs[role] = size
        elif role == sized or (sized == "a" and role in OPERAND_ROLES):
            inputs[role] = _stream(seed, role, size)
        elif role == "aad":
            inputs[role] = _stream(seed, role, aad_bytes)
        elif role == "personalization":
            inputs[role] = b""
        elif role in lengths:
            inputs[role] = _stream(seed, role, lengths[role])
        elif role in DATA_ROLES:
            raise ValueError(f"operation {op.name!r}: no length rule for role {role!r}")
    return inputs


@cache
def _probe_lengths(reference_name: str, op: Operation, key_bytes: int | None) -> tuple[tuple[str, int], ...]:
    roles = set(op.args) | set(op.setup_args)
    probed = [role for role in LENGTH_CANDIDATES if role in roles and role != size_role(op)]
    if not probed:  # nothing to choose; whether a size is accepted is asked per job (_size_problem)
        return ()
    choices = [((key_bytes,) if role == "key" and key_bytes is not None else LENGTH_CANDIDATES[role]) for role in probed]
    problems = []
    for combination in itertools.product(*choices):
        lengths = dict(zip(probed, combination))
        inputs = _build_inputs(op, PROBE_BYTES, lengths, 0, "probe")
        try:
            reference(reference_name)(inputs)
        except ValueError as exc:
            problems.append(f"{lengths}: {exc}")
            continue
        return tuple(sorted(lengths.items()))
    raise ValueError(f"Invalid inputs for operation {op.name!r} (reference {reference_name}): no accepted lengths; "
                     f"tried {'; '.join(problems)}")


def make_inputs(op: Operation, size: int, *, key_bytes: int | None = None, aad_bytes: int = 0,
                seed: str = DEFAULT_SEED) -> dict[str, Any]:
    """Deterministic inputs by role for one call of ``op`` with a ``size``-byte message.

    Data bytes are SHAKE256(seed/role/length). Key, nonce, IV, counter and entropy lengths
    are the first of :data:`LENGTH_CANDIDATES` that the operation's reference accepts
    (``key_bytes`` fixes the key length, e.g. 32 for AES-256). ``aad_bytes`` of associated
    data go to AEAD operations; the integer block counter of ChaCha20 is 1.
    """
    if not isinstance(size, int) or isinstance(size, bool) or not 0 <= size <= MAX_MESSAGE_BYTES:
        raise ValueError(f"Invalid size ({size!r}); accepted: an integer number of bytes from 0 to "
                         f"{MAX_MESSAGE_BYTES:,} ({MAX_MESSAGE_REASON})")
    if aad_bytes < 0:
        raise ValueError(f"Invalid aad_bytes ({aad_bytes!r}); accepted: an integer >= 0")
    lengths = dict(_probe_lengths(op.reference, op, key_bytes))
    return _build_inputs(op, size, lengths, aad_bytes, seed)


def _canonical(value: Any) -> Any:
    if isinstance(value, bytes):
        return {"hex": value.hex()}
    return value


def inputs_digest(inputs: dict[str, Any]) -> str:
    """SHA-256 of the inputs by role (canonical JSON, bytes as hex)."""
    text = json.dumps({k: _canonical(v) for k, v in sorted(inputs.items())}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


def inputs_summary(inputs: dict[str, Any]) -> dict[str, Any]:
    """Lengths of the byte inputs and values of the integer inputs (for records and reports)."""
    return {k: (f"{len(v)} bytes" if isinstance(v, bytes) else v) for k, v in sorted(inputs.items())}


#: Lengths congruent modulo this (a multiple of every block size, 8 and 16 bytes) and at least
#: this long are accepted or rejected alike by a whole-block mode (SP 800-38A §6.1-6.2).
_BLOCK_PERIOD = 48

#: SHA-256 of an ELF file by (path, mtime, size), for this process: a report's measurers (one per
#: core, level, compiler and memory configuration) would otherwise hash the same ELF once each.
_ELF_DIGESTS: dict[tuple[str, int, int], str] = {}


def _elf_digest(path: Path) -> str:
    stat = path.stat()
    key = (str(path), stat.st_mtime_ns, stat.st_size)
    if key not in _ELF_DIGESTS:
        _ELF_DIGESTS[key] = hashlib.sha256(path.read_bytes()).hexdigest()
    return _ELF_DIGESTS[key]


def _size_problem(op: Operation, job: Job, seed: str) -> str:
    """Why the reference rejects a message of ``job.size`` bytes (e.g. CBC with a partial block),
    or "" — asked on a short message of the same length modulo every block size. An operation without
    a message (multi-precision operands, whose accepted lengths are not periodic: a table read takes
    96 bytes, not 48) is asked at its own size."""
    message = "in" in op.args or "msg" in op.args
    short = _BLOCK_PERIOD + job.size % _BLOCK_PERIOD if message and job.size >= _BLOCK_PERIOD else job.size
    try:
        reference(op.reference)(make_inputs(op, short, key_bytes=job.key_bytes, aad_bytes=job.aad_bytes, seed=seed))
    except ValueError as exc:
        if short == job.size:
            return str(exc)
        return (f"{op.reference} rejects a {job.size}-byte message (asked on {short} bytes, the same length "
                f"modulo {_BLOCK_PERIOD}: {exc})")
    return ""


# ------------------------------------------------------------------------------------------
# The cache


# ------------------------------------------------------------------------------------------
# Measurements


@dataclass(frozen=True)
class Job:
    """What to measure: one operation of one variant at one size."""

    kernel: str
    variant: str
    operation: str
    size: int
    key_bytes: int | None = None
    aad_bytes: int = 0


@dataclass(frozen=True)
class Measurement:
    """One measured (or failed) call. ``cycles`` is None when the call did not complete."""

    kernel: str
    variant: str
    operation: str
    core: str
    board: str | None
    clock_mhz: float | None
    size: int
    cycles: int | None
    instructions: int | None
    stack_bytes: int | None
    code_bytes: int | None
    verified: bool
    mismatch: str
    error: str
    elf_sha256: str
    function: str
    inputs_sha256: str
    inputs: dict[str, Any]
    model_version: str
    memory: str
    compiler: str
    opt: str
    cached: bool
    key_bytes: int | None = None
    aad_bytes: int = 0
    #: stall cycles of the board memory system, included in ``cycles`` (0 with ideal memory)
    memory_cycles: int | None = None

    @property
    def cycles_per_byte(self) -> float | None:
        if self.cycles is None or self.size <= 0:
            return None
        return self.cycles / self.size

    @property
    def time_us(self) -> float | None:
        """Time at the board's clock in microseconds (None without a board clock)."""
        if self.cycles is None or not self.clock_mhz:
            return None
        return self.cycles / self.clock_mhz

    def as_json(self) -> dict[str, Any]:
        return {
            "kernel": self.kernel,
            "variant": self.variant,
            "operation": self.operation,
            "core": self.core,
            "board": self.board,
            "clock_mhz": self.clock_mhz,
            "size": self.size,
            "cycles": self.cycles,
            "cycles_per_byte": self.cycles_per_byte,
            "time_us": self.time_us,
            "instructions": self.instructions,
            "stack_bytes": self.stack_bytes,
            "code_bytes": self.code_bytes,
            "verified": self.verified,
            "mismatch": self.mismatch,
            "error": self.error,
            "memory": self.memory,
            "memory_cycles": self.memory_cycles,
            "model_version": self.model_version,
            "compiler": self.compiler,
            "opt": self.opt,
            "elf_sha256": self.elf_sha256,
            "function": self.function,
            "inputs_sha256": self.inputs_sha256,
            "inputs": self.inputs,
            "cached": self.cached,
        }


Progress = Callable[[int, int, str], None]


def check_core(core: str) -> str:
    """``core`` if the emulator has a timing model for it, else a ValueError listing those it has."""
    if core not in TIMED_CORES:
        raise ValueError(f"Invalid core ({core!r}); accepted (cores with a timing model): {', '.join(TIMED_CORES)}")
    return core


def check_board(name: str) -> Board:
    """The board profile ``name``; its core must have a timing model."""
    if name not in board_names():
        raise ValueError(f"Invalid board ({name!r}); accepted: {', '.join(board_names())}")
    board = load_board(name)
    if board.core not in TIMED_CORES:
        raise ValueError(f"Invalid board ({name!r}): its core {board.core} has no timing model yet; "
                         f"boards with an emulated core: "
                         f"{', '.join(b for b in board_names() if load_board(b).core in TIMED_CORES)}")
    return board


class Measurer:
    """Measures jobs on one core (or a board's core) with one memory system, through the cache.

    With ``board`` and no ``memory``, the memory system is the board's at ``clock_mhz`` (default
    the part maximum) with its caches/ART and prefetch ``memory_cache`` ("on" or "off"); with a
    core only, it is the ideal memory unless ``memory`` is given. ``harness_runs`` counts calls of
    the emulator (cache misses), for reports and tests.
    """

    def __init__(self, core: str | None = None, *, board: str | None = None, clock_mhz: float | None = None,
                 memory: MemorySystem | None = None, memory_cache: str | None = None, opt: str = "Os",
                 compiler: str = "zig", cache: ResultCache | None = None, use_cache: bool = True,
                 seed: str = DEFAULT_SEED, timing: dict[str, str] | None = None) -> None:
        if memory_cache is not None and memory_cache not in ("on", "off"):
            raise ValueError(f"Invalid memory_cache ({memory_cache!r}); accepted: 'on', 'off'")
        if memory_cache is not None and (board is None or memory is not None):
            raise ValueError(f"Invalid memory_cache ({memory_cache!r}) without a board (or with an explicit memory): "
                             "caches belong to a board's memory system")
        if isinstance(memory, BoardMemory) and board is not None and memory.board.name != board:
            raise ValueError(f"Invalid memory ({memory.name!r}) for board {board}; it models {memory.board.name}")
        if board is not None:
            profile = check_board(board)
            if core is not None and core != profile.core:
                raise ValueError(f"Invalid core ({core!r}) for board {board}; its core is {profile.core}")
            core = profile.core
            if clock_mhz is None and isinstance(memory, BoardMemory):
                clock_mhz = memory.clock_mhz
            elif isinstance(memory, BoardMemory) and clock_mhz != memory.clock_mhz:
                raise ValueError(f"Invalid clock ({clock_mhz:g} MHz) for memory {memory.name!r}; "
                                 f"accepted: its clock, {memory.clock_mhz:g} MHz")
            if clock_mhz is None:  # the one default clock (cortexm_emu.boards.Board.default_clock_mhz)
                clock_mhz = float(profile.default_clock_mhz)
            elif not 0 < clock_mhz <= profile.max_clock_mhz:
                raise ValueError(f"Invalid clock ({clock_mhz:g} MHz) for board {board}; "
                                 f"accepted: above 0, at most {profile.max_clock_mhz:g} MHz")
        if core is None:
            raise ValueError("Invalid target: give a core or a board")
        self.core = check_core(core)
        self.board = board
        self.clock_mhz = clock_mhz
        if opt not in OPT_LEVELS:
            raise ValueError(f"Invalid optimisation level ({opt!r}); accepted: {', '.join(OPT_LEVELS)}")
        if compiler not in COMPILERS:
            raise ValueError(f"Invalid compiler ({compiler!r}); accepted: {', '.join(COMPILERS)}")
        self.opt = opt
        self.compiler = compiler
        if memory is None and board is not None:
            memory = board_memory(board, clock_mhz, "on" if memory_cache is None else memory_cache)  # type: ignore[arg-type]
        self.memory: MemorySystem = memory if memory is not None else IdealMemory()
        self.cache = cache if cache is not None else ResultCache()
        self.use_cache = use_cache
        self.seed = seed
        #: timing-model options (``model_for(core, **timing)``, e.g. ``other_end="6"``); None: the default model
        self.timing = dict(timing or {})
        self.harness_runs = 0
        self.cache_hits = 0
        self._harnesses: dict[str, KernelHarness] = {}
        self._elves: dict[str, tuple[str, str]] = {}

    @property
    def model_version(self) -> str:
        return model_for(self.core, **self.timing).version

    def _elf(self, kernel: str, variant: str) -> tuple[str, str]:
        """(ELF SHA-256, compiler version) of the variant's build (built, or taken from the build cache)."""
        name = f"{kernel}/{variant}"
        if name not in self._elves:
            built = build_variant(family(kernel).variant(variant), self.core, opt=self.opt, compiler=self.compiler)
            self._elves[name] = (_elf_digest(built.elf), built.compiler_version)
        return self._elves[name]

    def _harness(self, kernel: str, variant: str) -> KernelHarness:
        name = f"{kernel}/{variant}"
        if name not in self._harnesses:
            extra = {"timing": model_for(self.core, **self.timing)} if self.timing else {}
            self._harnesses[name] = KernelHarness(kernel, variant, self.core, opt=self.opt, compiler=self.compiler,
                                                  memory=self.memory, **extra)
        return self._harnesses[name]

    def key_fields(self, job: Job, op: Operation, elf_sha256: str, digest: str) -> dict[str, Any]:
        return {
            "schema": RECORD_SCHEMA,
            "elf_sha256": elf_sha256,
            "function": op.function,
            "setup": op.setup or "",
            "reference": op.reference,
            "inputs_sha256": digest,
            "timing_model_version": self.model_version,
            "memory": memory_description(self.memory),
            "core": self.core,
        }

    def cached(self, job: Job) -> Measurement | None:
        """The stored measurement of ``job``, or None when it must run (builds the ELF to know)."""
        return self._measure(job, run=False)

    def measure(self, job: Job) -> Measurement:
        """Measure one job; a cache hit returns the stored numbers and verified flag."""
        measurement = self._measure(job, run=True)
        assert measurement is not None
        return measurement

    def store(self, job: Job, measurement: Measurement) -> Path | None:
        """Put ``measurement`` of ``job``, made by another measurer of the same core, memory system,
        build and seed (e.g. in a worker process, without the cache), in this measurer's cache.
        Only a completed call is stored (an error is retried next time); returns the record's path,
        or None when nothing was stored. A measurement of another ELF or other inputs is a ValueError."""
        if not self.use_cache or measurement.error or measurement.cycles is None:
            return None
        op = operation_of(family(job.kernel), job.operation)
        inputs = make_inputs(op, job.size, key_bytes=job.key_bytes, aad_bytes=job.aad_bytes, seed=self.seed)
        digest = inputs_digest(inputs)
        elf_sha256, compiler_version = self._elf(job.kernel, job.variant)
        if (measurement.elf_sha256, measurement.inputs_sha256, measurement.memory) != (
                elf_sha256, digest, memory_label(self.memory)):
            raise ValueError(f"Invalid measurement of {job.kernel}/{job.variant} {job.operation} {job.size} B for "
                             f"this measurer: ELF {measurement.elf_sha256[:12]}, inputs {measurement.inputs_sha256[:12]}, "
                             f"memory {measurement.memory!r}; expected ELF {elf_sha256[:12]}, inputs {digest[:12]}, "
                             f"memory {memory_label(self.memory)!r}")
        fields = self.key_fields(job, op, elf_sha256, digest)
        return self.cache.put(fields, self._record(fields, measurement, op, compiler_version))

    def _measure(self, job: Job, run: bool) -> Measurement | None:
        fam = family(job.kernel)
        variant = fam.variant(job.variant)
        op = operation_of(fam, job.operation)
        inputs = make_inputs(op, job.size, key_bytes=job.key_bytes, aad_bytes=job.aad_bytes, seed=self.seed)
        digest = inputs_digest(inputs)
        if not variant.supports(self.core):
            return Measurement(kernel=job.kernel, variant=job.variant, operation=op.name, core=self.core,
                               board=self.board, clock_mhz=self.clock_mhz, size=job.size, cycles=None,
                               instructions=None, stack_bytes=None, code_bytes=None, verified=False, mismatch="",
                               error=f"not applicable: {variant.path} runs on {', '.join(variant.cores or ())} "
                                     f"(its manifest's cores), not {self.core}",
                               elf_sha256="", function=op.function, inputs_sha256=digest,
                               inputs=inputs_summary(inputs), model_version=self.model_version,
                               memory=memory_label(self.memory), compiler=self.compiler, opt=self.opt,
                               cached=False, key_bytes=job.key_bytes, aad_bytes=job.aad_bytes)
        elf_sha256, compiler_version = self._elf(job.kernel, job.variant)
        fields = self.key_fields(job, op, elf_sha256, digest)
        common: dict[str, Any] = {
            "kernel": job.kernel, "variant": job.variant, "operation": op.name, "core": self.core,
            "board": self.board, "clock_mhz": self.clock_mhz, "size": job.size, "elf_sha256": elf_sha256,
            "function": op.function, "inputs_sha256": digest, "inputs": inputs_summary(inputs),
            "model_version": self.model_version, "memory": memory_label(self.memory), "compiler": self.compiler,
            "opt": self.opt, "key_bytes": job.key_bytes, "aad_bytes": job.aad_bytes,
        }
        if self.use_cache:
            record = self.cache.get(fields)
            if record is not None:
                self.cache_hits += 1
                result = record["result"]
                return Measurement(**common, cycles=result["cycles"], instructions=result["instructions"],
                                   stack_bytes=result["stack_bytes"], code_bytes=result["code_bytes"],
                                   verified=result["verified"], mismatch=result["mismatch"], error="", cached=True,
                                   memory_cycles=result["memory_cycles"])
        if not run:
            return None
        problem = _size_problem(op, job, self.seed)
        if problem:
            return Measurement(**common, cycles=None, instructions=None, stack_bytes=None, code_bytes=None,
                               verified=False, mismatch="", error=f"not applicable: {problem}", cached=False)
        self.harness_runs += 1
        try:
            run = self._harness(job.kernel, job.variant).run(inputs, op.name)
        except EmulatorError as exc:
            return Measurement(**common, cycles=None, instructions=None, stack_bytes=None, code_bytes=None,
                               verified=False, mismatch="", error=f"{type(exc).__name__}: {exc}", cached=False)
        except ValueError as exc:  # the reference rejects these inputs (e.g. CBC with a partial block)
            return Measurement(**common, cycles=None, instructions=None, stack_bytes=None, code_bytes=None,
                               verified=False, mismatch="", error=f"not applicable: {exc}", cached=False)
        if run.elf_sha256 != elf_sha256:
            raise RuntimeError(f"build of {job.kernel}/{job.variant} changed during the run "
                               f"({elf_sha256} -> {run.elf_sha256})")
        measurement = Measurement(**common, cycles=run.cycles, instructions=run.instructions,
                                  stack_bytes=run.stack_bytes, code_bytes=run.code_bytes, verified=run.verified,
                                  mismatch=run.mismatch, error="", cached=False, memory_cycles=run.memory_cycles)
        if self.use_cache:
            self.cache.put(fields, self._record(fields, measurement, op, compiler_version))
        return measurement

    def _record(self, fields: dict[str, Any], m: Measurement, op: Operation, compiler_version: str) -> dict[str, Any]:
        return {
            "schema": RECORD_SCHEMA,
            "key": fields,
            "what": {
                "kernel": m.kernel, "variant": m.variant, "operation": m.operation, "function": op.function,
                "setup": op.setup or "", "reference": op.reference, "size": m.size, "size_role": size_role(op),
                "inputs": m.inputs, "inputs_sha256": m.inputs_sha256, "seed": self.seed,
                "elf_sha256": m.elf_sha256, "compiler": self.compiler, "compiler_version": compiler_version,
                "opt": self.opt,
            },
            "where": {"core": self.core, "timing_model_version": m.model_version,
                      "memory": memory_description(self.memory),
                      "memory_note": "ideal: zero wait states" if isinstance(self.memory, IdealMemory)
                      else "board memory system: stall cycles by rules R1-R8 of cortexm_emu.flash"},
            "commit": commit_info(),
            "created_utc": datetime.now(UTC).isoformat(timespec="seconds"),
            "rounds": 1,
            "rounds_note": "the emulator is deterministic: one call gives the count every call gives",
            "result": {"cycles": m.cycles, "instructions": m.instructions, "stack_bytes": m.stack_bytes,
                       "code_bytes": m.code_bytes, "verified": m.verified, "mismatch": m.mismatch,
                       "memory_cycles": m.memory_cycles},
        }

    def measure_all(self, jobs: Sequence[Job], progress: Progress | None = None) -> list[Measurement]:
        """Measure every job in order; ``progress(done, total, label)`` after each."""
        out = []
        for done, job in enumerate(jobs, start=1):
            out.append(self.measure(job))
            if progress is not None:
                progress(done, len(jobs), f"{job.kernel}/{job.variant} {job.operation} {job.size} B")
        return out


def plan(kernels: Iterable[str] | None = None, variants: Iterable[str] | None = None,
         operations: Iterable[str] | None = None, sizes: Iterable[int] = DEFAULT_SIZES, *,
         key_bytes: int | None = None, aad_bytes: int = 0) -> list[Job]:
    """Jobs for every selected kernel x variant x operation x size (default: the whole catalogue).

    Unknown kernel, variant or operation names raise ValueError listing the valid ones.
    """
    catalogue = families()
    names = list(kernels) if kernels else list(catalogue)
    for name in names:
        family(name)
    chosen_variants = list(variants) if variants else None
    chosen_ops = list(operations) if operations else None
    if chosen_variants:
        valid = sorted({v for n in names for v in catalogue[n].variants})
        for v in chosen_variants:
            if v not in valid:
                raise ValueError(f"Unknown variant {v!r} of kernel(s) {', '.join(names)}; valid: {', '.join(valid)}")
    if chosen_ops:
        valid = sorted({o.name for n in names for o in catalogue[n].operations})
        for o in chosen_ops:
            if o not in valid:
                raise ValueError(f"Unknown operation {o!r} of kernel(s) {', '.join(names)}; valid: {', '.join(valid)}")
    if key_bytes is not None and (not isinstance(key_bytes, int) or key_bytes <= 0):
        raise ValueError(f"Invalid key_bytes ({key_bytes!r}); accepted: a positive number of bytes")
    if not isinstance(aad_bytes, int) or aad_bytes < 0:
        raise ValueError(f"Invalid aad_bytes ({aad_bytes!r}); accepted: an integer >= 0")
    sizes = list(sizes)
    for size in sizes:
        if not isinstance(size, int) or isinstance(size, bool) or not 0 <= size <= MAX_MESSAGE_BYTES:
            raise ValueError(f"Invalid size ({size!r}); accepted: an integer number of bytes from 0 to "
                             f"{MAX_MESSAGE_BYTES:,} ({MAX_MESSAGE_REASON})")
    jobs = []
    for name in names:
        fam = catalogue[name]
        for variant in fam.variants:
            if chosen_variants and variant not in chosen_variants:
                continue
            for op in fam.operations:
                if chosen_ops and op.name not in chosen_ops:
                    continue
                op_key = key_bytes if "key" in op.args + op.setup_args else None
                op_aad = aad_bytes if "aad" in op.args else 0
                make_inputs(op, PROBE_BYTES, key_bytes=op_key, aad_bytes=op_aad)  # ValueError if not accepted
                jobs.extend(Job(name, variant, op.name, size, op_key, op_aad) for size in sizes)
    return jobs


__all__ = [
    "DEFAULT_SIZES",
    "Job",
    "Measurement",
    "Measurer",
    "ResultCache",
    "ResultCacheWarning",
    "ToolchainError",
    "cache_root",
    "check_board",
    "check_core",
    "inputs_digest",
    "make_inputs",
    "plan",
]
