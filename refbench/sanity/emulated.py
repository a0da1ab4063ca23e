"""Rule e -- the emulator: compare each published software figure with what the kernels need
on the figure's board, with the board's memory system.

For a software figure whose algorithm and operation some kernel of the catalogue computes
(found by the operation's reference name, never by a table of families), every variant of
every such kernel runs on the figure's board (its core, and its memory system from
:func:`cortexm_emu.board_memory`) at the published clock -- the part maximum when the page
states a higher clock, which the board rule flags -- and at the published message size
(wolfSSL: its 1024-byte blocks; ST CMOX: its message in its chunks; CycloneCRYPTO states no
size, so the steady state at :data:`STEADY_STATE_BYTES` is used). It runs in every memory
configuration the board allows (:func:`configurations`): flash with the caches/ART and
prefetch on, the same with them off, the two mixed settings, the constant tables copied to
SRAM, and code and constants in SRAM (0 wait states in every SRAM row of the profiles). The
kernels are built at the figure's optimisation level (:func:`kernel_build`), and the work is
the benchmark's (wolfCrypt's 25 blocks per Final for hashes and MACs; a CMOX final tag as one
call, compared in cycles). Uncached measurements run in :func:`workers` processes. The published cycles per byte is compared with the range
(fastest .. slowest over variants x configurations):

* inside the range -> the nearest variant AND configuration explain it, with the residual
  ("aes/ttable1, ART+prefetch on, 4 WS @ 80 MHz (+3.2%)");
* faster than every variant in every configuration -> it needs hardware acceleration or
  hand-written assembly; the message says whether the page claims either (explained if it
  does, suspicious if not);
* slower than every one -> by how much, and which configuration comes closest (suspicious:
  no modelled configuration explains it).

Every message names the board, clock, wait states and the configurations measured; JSON
carries them per variant. Figures no kernel computes, hardware figures and figures on cores
without a timing model get no finding; their :class:`Emulation` says why ("not emulated
yet") and the summary counts them. :func:`gap_explainer` gives the cross-board rule d the
configuration pair that reproduces a gap between two boards, if one does. Measurements go
through :mod:`refbench.measure` and its disk cache, so a second run is fast; a progress
callback set with :func:`progress_to` sees each kernel run, and :func:`switched_off` turns
the rule off (for reports and tests of the other rules).
"""

from __future__ import annotations

import math
import os
import re
import sys
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from multiprocessing import get_context
from typing import Any, Literal

from cortexm_emu import board_memory
from cortexm_emu.boards import Board, load_board, wait_states
from cortexm_emu.flash import BoardMemory
from cortexm_emu.timing import CORES as TIMED_CORES
from cortexm_emu.toolchain import ToolchainError
from refbench.kernels.catalog import families
from refbench.measure import Job, Measurement, Measurer
from refbench.parts import load_part_profile
from refbench.published.model import Figure, Part
from refbench.published.normalise import normalise
from refbench.ref import hashes
from refbench.sanity.peripherals import HardwareJudgement, judge_hardware
from refbench.sanity.rules import (
    CROSS_BOARD_TOLERANCE,
    SAME_WORK_TOLERANCE,
    fmt,
    relative_resolution,
)
from refbench.sanity.verdicts import Finding, Verdict

RULE = "emulator"
MEMORY_NOTE = ("memory: each board's flash wait states at the published clock, with caches/ART and prefetch on, "
               "off and mixed, constant tables in SRAM, and code in SRAM (cortexm_emu.flash rules R1-R7)")
#: CycloneCRYPTO pages state no message size; a long message measures the steady state
#: (per-call overhead below 1 % for every kernel at this size). Also the largest default size
#: of ``refbench cycles`` and the CMOX message size, so the cache is shared.
STEADY_STATE_BYTES = 8000
#: wolfCrypt's benchmark passes AES_AUTH_ADD_SZ = 13 bytes of AAD to AES-GCM/CCM unless built
#: for the STM32 crypto hardware (16 then): wolfssl wolfcrypt/benchmark/benchmark.c,
#: ``#ifndef AES_AUTH_ADD_SZ / #define AES_AUTH_ADD_SZ 13``. The page's "(no AAD)" rows pass none.
WOLFSSL_AAD_BYTES = 13
#: Allowance on the range: a published timing repeats within SAME_WORK_TOLERANCE (rules.py),
#: plus the printed resolution of the figure.
CIPHER_KEY_BYTES = {"SM4": 16, "3DES": 24}
#: The kernels are built with the hermetic compiler (the ``ziglang`` package's clang, installed
#: by pip with refbench), so the report is the same on every machine without a cross toolchain.
#: The optimisation level follows the figure (:func:`kernel_build`); every message names the build.
KERNEL_COMPILER = "zig"
KERNEL_OPT = "Os"
#: The figure's stated optimisation -> the level the kernels are built at. IAR's "High, Speed"
#: and ARMCC/Clang -O3 optimise for speed like clang -O3; a level the page does not state is
#: built at -Os, the level the same pages state for their other builds.
OPT_OF_OPTIONS = {"-Os": "Os", "-O2": "O2", "-O3": "O3", "High Speed optimisation": "O3"}
#: wolfCrypt's benchmark built with BENCH_EMBEDDED (the STM32 pages' 1024-byte blocks) runs
#: ``numBlocks = 25`` updates of ``bench_size = 1024`` bytes and then one Final for every hash,
#: HMAC, CMAC and Poly1305 (wolfssl wolfcrypt/benchmark/benchmark.c: "#ifdef BENCH_EMBEDDED ...
#: static int numBlocks = 25; /* how many kB to test (en/de)cryption */ static word32 bench_size
#: = (1024ul);", and bench_hmac/bench_sha256/bench_cmac/bench_poly1305: "for (times = 0; times <
#: numBlocks; ...) Update(..., BENCH_SIZE); ... Final"). The work per Final is one message of
#: 25 x 1024 bytes; GMAC (one wc_GmacUpdate of bench_size per call) and ciphers (one call per
#: block) are per 1024-byte block.
WOLFSSL_NUM_BLOCKS = 25
WOLFSSL_STREAMED = ("hash", "mac")
#: wolfCrypt's RNG is Hash_DRBG over SHA-256 (wolfcrypt/src/random.c, "Hash_DRBG_Generate"), and
#: bench_rng calls wc_RNG_GenerateBlock once per 1024-byte block: one Generate, instantiated before.
DRBG_REFERENCE = "hash-drbg-sha-256-generate"
#: ST CMOX "final tag generation done through the call to cmox_hash_generateTag" after the data
#: flow mode's 8000-byte message (seed 002, §2.2.2): the bytes left in the block buffer then are
#: 8000 mod the block size, and generateTag pads them and runs the last compression(s).
CMOX_FINAL_MESSAGE_BYTES = 8000
CIPHER_FAMILY = {"AES": "aes", "SM4": "sm4", "3DES": "tdea"}

_BLOCK_MODE = re.compile(r"^(AES)-(128|192|256)-(CBC|CTR|ECB|GCM|CCM)$|^(SM4|3DES)-(CBC|CTR|ECB|GCM|CCM)$")

#: Why a decryption figure may be compared with the encryption kernel: the same work.
SAME_WORK_DECRYPT = {
    "ctr": "CTR decryption is the same function as encryption (SP 800-38A §6.5)",
    "gcm-encrypt": "GCM-AD performs the same GCTR and GHASH as GCM-AE plus a tag comparison (SP 800-38D §7.2)",
    "ccm-encrypt": "CCM decryption-verification performs the same CTR and CBC-MAC passes (SP 800-38C §6.2)",
    "chacha20": "ChaCha20 decryption is the same function as encryption (RFC 8439 §2.4)",
    "chacha20-poly1305-encrypt": "AEAD_CHACHA20_POLY1305 decryption runs the same ChaCha20 and Poly1305 (RFC 8439 §2.8)",
    "ascon-aead128-encrypt": "Ascon-AEAD128 decryption runs the same permutations as encryption (SP 800-232 §4)",
}

ProgressCallback = Callable[[int, int, str], None]
_PROGRESS: ContextVar[ProgressCallback | None] = ContextVar("refbench_emulated_progress", default=None)


@contextmanager
def progress_to(callback: ProgressCallback | None) -> Iterator[None]:
    """Within the block, rule e reports ``callback(done, total, label)`` for each measurement."""
    token = _PROGRESS.set(callback)
    try:
        yield
    finally:
        _PROGRESS.reset(token)


_ENABLED: ContextVar[bool] = ContextVar("refbench_emulated_enabled", default=True)


@contextmanager
def switched_off() -> Iterator[None]:
    """Within the block, rule e runs no kernel: every software figure is "not emulated" (switched
    off), rule e gives no finding and rule d reports gaps without emulation (hardware figures
    still meet the peripheral rule; footprint figures are not applicable)."""
    token = _ENABLED.set(False)
    try:
        yield
    finally:
        _ENABLED.reset(token)


ConfigKind = Literal["cache on", "cache off", "flash", "code in SRAM", "cache on, prefetch off", "prefetch only",
                     "tables in SRAM"]
#: Names of the instruction/data caches in configuration labels, by cache kind of the profile.
_CACHE_NAMES = {"art_icache": "ART", "art_dcache": "ART", "l1_icache": "L1 caches", "l1_dcache": "L1 caches",
                "icache": "ICACHE", "dcache": "DCACHE", "flash_icache": "flash cache"}


@dataclass(frozen=True)
class MemoryConfig:
    """One memory configuration of a board at one clock, with the label every message uses."""

    label: str
    kind: ConfigKind
    board: str
    clock_mhz: float
    wait_states: int
    cache: Literal["on", "off"]
    code: Literal["flash", "ram"]
    #: the flash prefetch buffer; None: as ``cache`` (board_memory's default)
    prefetch: Literal["on", "off"] | None = None
    #: where the read-only data sections (constant tables) are read from; None: where the code is
    tables: Literal["flash", "ram"] | None = None

    def memory(self) -> BoardMemory:
        return _memory(self)

    def as_json(self) -> dict[str, Any]:
        data = {"label": self.label, "kind": self.kind, "board": self.board, "clock_mhz": self.clock_mhz,
                "wait_states": self.wait_states, "cache": self.cache, "code": self.code}
        if self.prefetch is not None:
            data["prefetch"] = self.prefetch
        if self.tables is not None:
            data["tables"] = self.tables
        return data


_MEMORIES: dict[MemoryConfig, BoardMemory] = {}


def _memory(config: MemoryConfig) -> BoardMemory:
    if config not in _MEMORIES:
        _MEMORIES[config] = board_memory(config.board, config.clock_mhz, config.cache, prefetch=config.prefetch,
                                         code=config.code, tables=config.tables)
    return _MEMORIES[config]


def run_clock(board: Board, published_mhz: float) -> tuple[float, str]:
    """The clock rule e runs ``board`` at for a figure published at ``published_mhz``, and a note
    when that is not the published clock (above the part maximum: the maximum is used)."""
    if published_mhz > board.max_clock_mhz:
        return float(board.max_clock_mhz), (f"published clock {published_mhz:g} MHz exceeds the {board.part} maximum "
                                            f"{board.max_clock_mhz:g} MHz (the board rule flags it): run at "
                                            f"{board.max_clock_mhz:g} MHz")
    return float(published_mhz), ""


def _cache_label(memory: BoardMemory) -> str:
    names = [_CACHE_NAMES.get(g.kind, g.name) for g in (memory.icache, memory.dcache) if g is not None]
    names = list(dict.fromkeys(names))
    if memory.prefetch:
        names.append("prefetch")
    return "+".join(names)


def configurations(board: Board, clock_mhz: float) -> list[MemoryConfig]:
    """The memory configurations ``board`` allows at ``clock_mhz`` that can change a count.

    Flash with the caches/ART and prefetch on, and with them off (one "flash" configuration
    when the part has neither a modelled cache nor prefetch, or runs at 0 wait states); when
    the part has both a modelled cache and a prefetch buffer, the two mixed settings too:
    caches on with prefetch off (STM32CubeL4/WB/WL's ``stm32*_hal_conf.h`` templates ship
    ``PREFETCH_ENABLE 0`` with both caches enabled) and prefetch on with caches off; when every
    SRAM row of the profile has 0 wait states and flash has wait states (at 0 wait states SRAM
    and flash cost the same: rules R1, R7), the constant tables copied to SRAM with the code in
    flash and the caches on (as firmware that copies its AES/GHASH tables at start-up), and code
    and constants in SRAM.
    """
    ws = wait_states(board, clock_mhz)
    on = board_memory(board, clock_mhz, "on")
    wait = f"{ws} WS" + (f" (= {on.wait_cycles} core cycles)" if on.wait_cycles != ws else "")
    where = f"{wait} @ {clock_mhz:g} MHz"

    def make(label: str, kind: ConfigKind, cache: Literal["on", "off"], code: Literal["flash", "ram"],
             prefetch: Literal["on", "off"] | None = None, tables: Literal["flash", "ram"] | None = None
             ) -> MemoryConfig:
        return MemoryConfig(label, kind, board.name, float(clock_mhz), ws, cache, code, prefetch, tables)

    accelerated = _cache_label(on)
    if ws == 0 or not accelerated:
        configs = [make(f"flash, {where}" + ("" if accelerated else ", no modelled cache or prefetch"), "flash",
                        "on", "flash")]
    else:
        configs = [make(f"{accelerated} on, {where}", "cache on", "on", "flash"),
                   make(f"{accelerated} off, {where}", "cache off", "off", "flash")]
        caches = _cache_label(board_memory(board, clock_mhz, "on", prefetch="off"))
        if on.prefetch and caches:
            configs += [make(f"{caches} on, prefetch off, {where}", "cache on, prefetch off", "on", "flash", "off"),
                        make(f"{caches} off, prefetch on, {where}", "prefetch only", "off", "flash", "on")]
    if ws > 0 and all(region.wait_states == 0 for region in board.sram):
        code_in_flash = f"{accelerated} on" if accelerated else "code in flash"
        configs.append(make(f"tables in SRAM, {code_in_flash}, {where}", "tables in SRAM", "on", "flash",
                            tables="ram"))
        configs.append(make(f"code in SRAM, 0 WS @ {clock_mhz:g} MHz", "code in SRAM", "on", "ram"))
    return configs


@dataclass(frozen=True)
class KernelTarget:
    """What to run for a figure: an operation (by reference name), its inputs, the optimisation
    level the kernels are built at, and whether the figure is compared per byte of ``size``
    (throughput) or per call (``per_op``: a latency such as a final tag generation)."""

    reference: str
    key_bytes: int | None
    aad_bytes: int
    size: int
    chunk: int | None
    notes: tuple[str, ...]
    opt: str = KERNEL_OPT
    per_op: bool = False

    @property
    def unit(self) -> str:
        return "cycles" if self.per_op else "c/B"


@dataclass(frozen=True)
class VariantResult:
    """One kernel variant in one memory configuration (cycles summed over the figure's calls)."""

    kernel: str
    variant: str
    operation: str
    cycles: int | None
    cycles_per_byte: float | None
    verified: bool
    problem: str
    memory: str = "ideal"  # the configuration's label
    memory_cycles: int | None = None  # stall cycles of the memory system, included in cycles
    per_op: bool = False  # compared per call (cycles) rather than per byte

    @property
    def rate(self) -> float | None:
        """What is compared with the published figure: cycles per byte, or cycles per call."""
        if not self.verified or self.cycles is None:
            return None
        return float(self.cycles) if self.per_op else self.cycles_per_byte

    @property
    def name(self) -> str:
        """``kernel/variant, configuration`` as every message writes it."""
        return f"{self.kernel}/{self.variant}, {self.memory}"


@dataclass
class Emulation:
    """Rule e's view of one figure; ``status`` is emulated, not emulated yet, or hardware."""

    figure_id: str
    status: str
    explanation: str
    emulated_min: float | None = None
    emulated_max: float | None = None
    residual: float | None = None
    published: float | None = None
    size: int | None = None
    core: str | None = None
    memory: str = ""  # the configuration of the explanation (nearest, fastest or slowest)
    variants: tuple[VariantResult, ...] = ()
    finding: Finding | None = None
    position: str = ""  # inside, faster, slower (emulated figures only)
    notes: tuple[str, ...] = field(default_factory=tuple)
    board: str | None = None
    clock_mhz: float | None = None
    configs: tuple[MemoryConfig, ...] = ()
    unit: str = "c/B"  # of published, emulated_min/max and the per-configuration ranges: c/B or cycles
    build: str = ""  # compiler and optimisation level of the kernels
    hardware: HardwareJudgement | None = None  # a hardware figure's peripheral rule

    def by_config(self) -> dict[str, tuple[float, float]]:
        """(min, max) of the compared rate (``unit``) over the verified variants, per configuration label."""
        ranges: dict[str, tuple[float, float]] = {}
        for v in self.variants:
            rate = v.rate
            if rate is not None:
                lo, hi = ranges.get(v.memory, (math.inf, 0.0))
                ranges[v.memory] = (min(lo, rate), max(hi, rate))
        return ranges

    def as_json(self) -> dict[str, Any]:
        emulated = self.status == "emulated"
        peripheral = self.hardware
        return {
            "emulation": self.status,
            "peripheral": peripheral.peripheral if peripheral else None,
            "peripheral_bound": peripheral.bound if peripheral else None,
            "peripheral_unit": peripheral.unit if peripheral else None,
            "peripheral_ratio": peripheral.ratio if peripheral else None,
            "peripheral_source": peripheral.source if peripheral else None,
            "emulated_min": self.emulated_min,
            "emulated_max": self.emulated_max,
            "explanation": self.explanation,
            "explanation_memory": self.memory if emulated else None,
            "residual": self.residual,
            "emulated_size": self.size,
            "emulated_unit": self.unit if emulated else None,
            "emulated_build": self.build if emulated else None,
            "emulated_board": self.board if emulated else None,
            "emulated_clock_mhz": self.clock_mhz if emulated else None,
            "emulated_memory": [c.as_json() for c in self.configs] if emulated else None,
            "emulated_range_by_memory": {k: list(v) for k, v in self.by_config().items()} if emulated else None,
            "emulated_variants": [
                {"kernel": v.kernel, "variant": v.variant, "operation": v.operation, "memory": v.memory,
                 "cycles": v.cycles, "memory_cycles": v.memory_cycles, "cycles_per_byte": v.cycles_per_byte,
                 "verified": v.verified, "problem": v.problem}
                for v in self.variants
            ],
        }


def _operation_name(algorithm: str, operation: str, mode: str) -> str:
    if mode in ("CBC", "ECB"):
        return f"{mode.lower()}-{operation}"
    return {"CTR": "ctr", "GCM": "gcm-encrypt", "CCM": "ccm-encrypt"}[mode]


def kernel_build(f: Figure) -> tuple[str, str]:
    """The optimisation level the kernels are built at for figure ``f`` (see
    :data:`OPT_OF_OPTIONS`), and the words every message uses for the build."""
    opt = OPT_OF_OPTIONS.get(f.options, KERNEL_OPT)
    stated = f"{f.compiler} {f.options}" if f.options in OPT_OF_OPTIONS else f"{f.compiler}, level not stated"
    return opt, f"{KERNEL_COMPILER} -{opt}; the page: {stated}"


def _final_target(f: Figure) -> tuple[KernelTarget | None, str]:
    """A hash's final tag generation (ST CMOX ``cmox_hash_generateTag``), as one call: the
    digest of the bytes the data flow mode left buffered (see :data:`CMOX_FINAL_MESSAGE_BYTES`)."""
    name = f.algorithm.lower()
    if not f.library.startswith("ST CMOX") or name not in hashes.NAMES:
        return None, f"no kernel operation corresponds to {f.algorithm} {f.operation}"
    block = hashes.block_size(name)  # type: ignore[arg-type]
    left = CMOX_FINAL_MESSAGE_BYTES % block
    note = (f"final tag generation after the page's {CMOX_FINAL_MESSAGE_BYTES}-byte message: {left} bytes left in "
            f"the {block}-byte block, measured as the digest of a {left}-byte message (padding and the last "
            "compression; the initial state setup is included)")
    return KernelTarget(name, None, 0, left, None, (note,), kernel_build(f)[0], per_op=True), ""


def kernel_target(f: Figure) -> tuple[KernelTarget | None, str]:
    """The kernel operation and inputs matching figure ``f``, or (None, why not)."""
    if f.operation == "finalize":
        return _final_target(f)
    normalised = normalise(f)
    if normalised.cycles_per_byte is None:
        return None, "no per-byte figure to compare (a per-operation or footprint figure)"
    notes: list[str] = []
    key_bytes: int | None = None
    aad = 0
    match = _BLOCK_MODE.match(f.algorithm)
    if match:
        cipher = match.group(1) or match.group(4)
        mode = match.group(3) or match.group(5)
        key_bytes = int(match.group(2)) // 8 if match.group(2) else CIPHER_KEY_BYTES[cipher]
        reference = f"{CIPHER_FAMILY[cipher]}-{_operation_name(f.algorithm, f.operation, mode)}"
        if mode in ("GCM", "CCM") and f.library == "wolfSSL" and "no AAD" not in (f.mode or ""):
            aad = WOLFSSL_AAD_BYTES
            notes.append(f"{aad} bytes of AAD as wolfCrypt's benchmark (AES_AUTH_ADD_SZ)")
    elif f.algorithm == "ChaCha20":
        reference = "chacha20"
    elif f.algorithm == "ChaCha20-Poly1305":
        reference = "chacha20-poly1305-encrypt"
    elif f.algorithm == "Ascon-AEAD128":
        reference = "ascon-aead128-encrypt"
    elif f.algorithm == "Poly1305":
        reference = "poly1305"
    elif f.algorithm == "GMAC":
        reference, key_bytes = "aes-gmac", 16
        notes.append("AES-128 GMAC of the block as AAD with a 12-byte IV, as wolfCrypt's bench_gmac "
                     "(wc_GmacSetKey(..., 16); wc_GmacUpdate(iv, 12, plain, bench_size, tag, 16))")
    elif f.algorithm == "RNG" and f.library == "wolfSSL":
        reference = DRBG_REFERENCE
        notes.append("wolfCrypt's RNG is Hash_DRBG with SHA-256 (wolfcrypt/src/random.c): one Generate per "
                     "wc_RNG_GenerateBlock call, instantiated beforehand (not timed)")
    elif f.operation in ("hash", "mac"):
        reference = f.algorithm.lower()
    else:
        return None, f"no kernel operation corresponds to {f.algorithm} {f.operation}"
    op_name = reference.split("-", 1)[1] if "-" in reference else reference
    if f.operation == "decrypt" and not reference.endswith("decrypt"):
        same = SAME_WORK_DECRYPT.get(op_name) or SAME_WORK_DECRYPT.get(reference)
        if same is None:
            return None, f"no decryption kernel for {f.algorithm}"
        notes.append(f"decryption measured with the encryption kernel: {same}")
    if f.block_bytes and f.library == "wolfSSL" and f.operation in WOLFSSL_STREAMED and f.algorithm != "GMAC":
        size, chunk = WOLFSSL_NUM_BLOCKS * f.block_bytes, None
        notes.append(f"wolfCrypt's benchmark hashes {WOLFSSL_NUM_BLOCKS} updates of {f.block_bytes} bytes per "
                     f"Final (BENCH_EMBEDDED numBlocks): one {size}-byte message")
    elif f.block_bytes:
        size, chunk = f.block_bytes, None
    elif f.message_bytes:
        size, chunk = f.message_bytes, f.chunk_bytes
    else:
        size, chunk = STEADY_STATE_BYTES, None
        notes.append(f"message size not stated: steady state at {STEADY_STATE_BYTES} bytes")
    return KernelTarget(reference, key_bytes, aad, size, chunk, tuple(notes), kernel_build(f)[0]), ""


def _operations_for(reference: str) -> list[tuple[str, str, str]]:
    """(kernel, variant, operation) of every catalogue operation with this reference."""
    found = []
    for fam in families().values():
        for op in fam.operations:
            if op.reference == reference:
                found.extend((fam.name, variant, op.name) for variant in fam.variants)
    return found


def _streamable(kernel: str, operation: str) -> bool:
    """True when the operation carries its chaining state in place (iv or counter), so a message
    processed in chunks costs the sum of the chunk calls."""
    op = next(o for o in families()[kernel].operations if o.name == operation)
    return "iv" in op.args or "counter" in op.args


def _jobs(kernel: str, variant: str, operation: str, target: KernelTarget) -> list[Job]:
    """The calls whose cycles add up to the figure's work (one, or one per chunk size)."""

    def make(size: int) -> Job:
        return Job(kernel, variant, operation, size, target.key_bytes, target.aad_bytes)

    if target.chunk and target.chunk < target.size and _streamable(kernel, operation):
        full, rest = divmod(target.size, target.chunk)
        return [make(target.chunk)] * full + ([make(rest)] if rest else [])
    return [make(target.size)]


_MEMO: dict[tuple[Figure, str], Emulation] = {}
_BOARDS: dict[str, Board] = {}


def _board(name: str) -> Board:
    if name not in _BOARDS:
        _BOARDS[name] = load_board(name)
    return _BOARDS[name]


def load_board_of(f: Figure, parts: dict[str, Part]) -> Board | None:
    """The board profile of figure ``f``'s part, or None when no profile models it."""
    part = parts.get(f.part)
    return _board(part.board) if part else None


def _published_claims(f: Figure) -> list[str]:
    claims = []
    if f.implementation == "hardware" or f.hw:
        claims.append(f"hardware ({', '.join(f.hw) or 'stated'})")
    if f.asm and not f.asm.lower().startswith("none"):
        claims.append(f"assembly ({f.asm})")
    return claims


@dataclass(frozen=True)
class _Pending:
    figure: Figure
    target: KernelTarget
    board: Board
    clock_mhz: float
    clock_note: str
    configs: tuple[MemoryConfig, ...]


def _whole(x: float) -> str:
    return f"{x:,.0f}"


def _judge(f: Figure, p: _Pending, results: list[VariantResult]) -> Emulation:
    target, board = p.target, p.board
    unit = target.unit
    show = _whole if target.per_op else fmt
    normalised = normalise(f)
    published = normalised.cycles_per_op if target.per_op else normalised.cycles_per_byte
    assert published is not None
    good = sorted((r for r in results if r.rate is not None), key=lambda r: r.rate or 0.0)
    chunks = ""
    if target.chunk and target.chunk < target.size:
        streamed = any(len(_jobs(k, v, o, target)) > 1 for k, v, o in _operations_for(target.reference))
        chunks = (f" in {target.chunk}-byte chunks" if streamed else
                  f" as one call (the page: {target.chunk}-byte chunks; this kernel keeps no state between calls, "
                  "so the per-chunk overhead is not modelled)")
    build = kernel_build(f)[1]
    context = f"{board.part} ({board.core}, {build}) at {target.size} B{chunks}"
    notes = [n for n in (p.clock_note, *target.notes) if n]
    if notes:
        context += "; " + "; ".join(notes)
    common = dict(published=published, size=target.size, core=board.core, variants=tuple(results),
                  notes=tuple(notes), board=board.name, clock_mhz=p.clock_mhz, configs=p.configs, unit=unit,
                  build=build)
    if not good:
        problems = "; ".join(dict.fromkeys(f"{r.kernel}/{r.variant}: {r.problem}" for r in results))
        return Emulation(f.id, "not emulated yet", f"not emulated yet: no variant verified ({problems})", **common)
    rate = {r: float(r.rate or 0.0) for r in good}
    lo, hi = rate[good[0]], rate[good[-1]]
    fastest, slowest = good[0], good[-1]
    allowance = SAME_WORK_TOLERANCE + relative_resolution(f)
    # Nearest variant x configuration; within the allowance, one in a configuration a board is
    # normally benchmarked in (caches and prefetch on, code in flash) is preferred.
    def error(r: VariantResult) -> float:
        return abs(published - rate[r]) / rate[r]

    kinds = {c.label: c.kind for c in p.configs}
    usual = [r for r in good if kinds.get(r.memory) in DEFAULT_KINDS and error(r) <= allowance]
    nearest = min(usual or good, key=error)
    residual = (published - rate[nearest]) / rate[nearest]
    spread = "; ".join(
        f"[{config.label}: " + ", ".join(f"{r.kernel}/{r.variant} {show(rate[r])}" for r in good
                                         if r.memory == config.label) + "]"
        for config in p.configs if any(r.memory == config.label for r in good))
    variants = len({(r.kernel, r.variant) for r in good})
    head = (f"published {show(published)} {unit}; emulated {show(lo)}..{show(hi)} {unit} over {variants} variant(s) x "
            f"{len(p.configs)} memory configuration(s) on {context}: {spread}")
    claims = _published_claims(f)
    verdict: Verdict
    if lo * (1 - allowance) <= published <= hi * (1 + allowance):
        position, chosen = "inside", nearest
        explanation = f"{nearest.name} ({residual:+.1%})"
        verdict = "consistent"
        message = f"{head}: inside the range; nearest {explanation}"
    elif published < lo:
        position, chosen = "faster", fastest
        residual = (published - lo) / lo
        if claims:
            verdict = "explained"
            explanation = (f"faster than every emulated software variant in every memory configuration ({residual:+.1%} "
                           f"against {fastest.name}): the page claims {' and '.join(claims)}")
        else:
            verdict = "suspicious"
            explanation = (f"faster than every emulated software variant in every memory configuration ({residual:+.1%} "
                           f"against {fastest.name}, the fastest of {variants} C variant(s) built with "
                           f"{KERNEL_COMPILER} -{target.opt}): requires hardware acceleration or hand-written "
                           "assembly (or C faster than these variants), and the page claims neither")
        message = f"{head}: {explanation}"
    else:
        position, chosen = "slower", slowest
        residual = (published - hi) / hi
        verdict = "suspicious"
        explanation = (f"slower than every variant in every memory configuration ({residual:+.1%}); the closest is "
                       f"{slowest.name}: no modelled configuration explains it")
        message = f"{head}: {explanation}"
    return Emulation(f.id, "emulated", explanation, lo, hi, residual, memory=chosen.memory,
                     finding=Finding(RULE, verdict, message), position=position, **common)


_SCOPE: ContextVar[frozenset[str] | None] = ContextVar("refbench_emulated_scope", default=None)


@contextmanager
def scoped_to(figure_ids: Iterable[str] | None) -> Iterator[None]:
    """Within the block, rule d's gap explainer emulates only pairs whose figures are both in
    ``figure_ids`` (None: every pair), so a filtered report runs kernels for its figures only."""
    token = _SCOPE.set(None if figure_ids is None else frozenset(figure_ids))
    try:
        yield
    finally:
        _SCOPE.reset(token)


_PARALLEL: ContextVar[bool] = ContextVar("refbench_emulated_parallel", default=False)


@contextmanager
def in_parallel() -> Iterator[None]:
    """Within the block, uncached kernels run in one process per usable CPU (``refbench sanity``
    does this; library callers get one process unless they ask, since spawned processes
    re-import the caller's main module)."""
    token = _PARALLEL.set(True)
    try:
        yield
    finally:
        _PARALLEL.reset(token)


def usable_cpus() -> int:
    """CPUs this process may run on (its affinity where the OS tells, else the CPU count)."""
    affinity = getattr(os, "sched_getaffinity", None)
    return max(1, len(affinity(0)) if affinity else (os.cpu_count() or 1))


def workers() -> int:
    """Processes that run kernels: ``$REFBENCH_WORKERS`` if set; else one per usable CPU inside
    :func:`in_parallel` (one when the main program is not a file a spawned process can import,
    e.g. a script read from stdin); else one."""
    text = os.environ.get("REFBENCH_WORKERS", "")
    if text:
        if not text.isdigit() or int(text) < 1:
            raise ValueError(f"Invalid REFBENCH_WORKERS ({text!r}); accepted: a whole number of processes >= 1")
        return int(text)
    if not _PARALLEL.get():
        return 1
    main_file = getattr(sys.modules.get("__main__"), "__file__", None)
    if main_file is not None and not os.path.exists(main_file):
        return 1
    return usable_cpus()


_Key = tuple[MemoryConfig, str, Job]


def _measurer(config: MemoryConfig, opt: str) -> Measurer:
    return Measurer(board=config.board, clock_mhz=config.clock_mhz, memory=config.memory(), opt=opt,
                    compiler=KERNEL_COMPILER)


def _unbuilt(measurer: Measurer, job: Job, exc: ToolchainError) -> Measurement:
    """The measurement of a job whose kernel variant the compiler rejected (the error is kept)."""
    return Measurement(job.kernel, job.variant, job.operation, measurer.core, measurer.board, measurer.clock_mhz,
                       job.size, None, None, None, None, False, "", f"build failed: {exc}", "", "", "", {},
                       measurer.model_version, measurer.memory.name, measurer.compiler, measurer.opt, False,
                       job.key_bytes, job.aad_bytes)


def _run_group(config: MemoryConfig, opt: str, jobs: list[Job]) -> list[Measurement]:
    """Measure ``jobs`` (one kernel variant) in one configuration: the body of a worker process."""
    measurer = _measurer(config, opt)
    return [measurer.measure(job) for job in jobs]


def _measure(by_config: dict[tuple[MemoryConfig, str], list[Job]], total: int,
             callback: ProgressCallback | None) -> dict[_Key, Measurement]:
    """Every job's measurement: cache hits first (and every ELF built, in this process), then the
    rest in :func:`workers` processes, one task per configuration and kernel variant. The
    emulator is deterministic, so where a job runs does not change its count."""
    measured: dict[_Key, Measurement] = {}
    missing: dict[tuple[MemoryConfig, str, str, str], list[Job]] = {}
    done = 0

    def report(config: MemoryConfig, opt: str, job: Job) -> None:
        if callback is not None:
            callback(done, total, f"{config.board} {job.kernel}/{job.variant} {job.operation} {job.size} B "
                                  f"-{opt} ({config.label})")

    unbuildable: dict[tuple[str, str, str, str], ToolchainError] = {}  # kernel, variant, opt, core: the error
    for (config, opt), group in by_config.items():
        # One measurer (and its loaded machines) per configuration at a time: machines hold
        # their last call's block trace, so keeping every configuration's would grow without bound.
        measurer = _measurer(config, opt)
        for job in group:
            build = (job.kernel, job.variant, opt, measurer.core)
            try:
                hit = _unbuilt(measurer, job, unbuildable[build]) if build in unbuildable else measurer.cached(job)
            except ToolchainError as exc:  # this variant cannot be built: it fails, the others still run
                unbuildable[build] = exc
                hit = _unbuilt(measurer, job, exc)
            if hit is None:
                missing.setdefault((config, opt, job.kernel, job.variant), []).append(job)
                continue
            measured[(config, opt, job)] = hit
            done += 1
            report(config, opt, job)
        del measurer
    processes = min(workers(), len(missing))
    if processes <= 1:
        for (config, opt, _, _), jobs in missing.items():
            measurer = _measurer(config, opt)
            for job in jobs:
                measured[(config, opt, job)] = measurer.measure(job)
                done += 1
                report(config, opt, job)
            del measurer
        return measured
    with ProcessPoolExecutor(processes, mp_context=get_context("spawn")) as pool:
        futures = {pool.submit(_run_group, config, opt, jobs): (config, opt, jobs)
                   for (config, opt, _, _), jobs in missing.items()}
        for future in as_completed(futures):
            config, opt, jobs = futures[future]
            for job, measurement in zip(jobs, future.result(), strict=True):
                measured[(config, opt, job)] = measurement
                done += 1
                report(config, opt, job)
    return measured


def _hardware(f: Figure, parts: dict[str, Part]) -> Emulation:
    """A hardware figure: no kernel runs; the peripheral rule compares it with the documented
    processing time of the peripheral (:mod:`refbench.sanity.peripherals`) where there is one."""
    part = parts.get(f.part)
    judgement = judge_hardware(f, load_part_profile(part.board) if part else None)
    what = "hardware-accelerated figure: " + (f"against the {judgement.peripheral} processing time"
                                               if judgement.modelled else "peripheral throughput")
    return Emulation(f.id, "hardware", f"{what}: {judgement.explanation}", finding=judgement.finding,
                     hardware=judgement)


def emulate(figures: list[Figure], parts: dict[str, Part]) -> dict[str, Emulation]:
    """Rule e's emulation of every figure, by figure id (cached per process and on disk)."""
    out: dict[str, Emulation] = {}
    pending: list[_Pending] = []
    enabled = _ENABLED.get()
    for f in figures:
        memo_key = (f, f.part)
        if enabled and memo_key in _MEMO:
            out[f.id] = _MEMO[memo_key]
            continue
        if f.is_footprint:
            out[f.id] = Emulation(f.id, "not applicable", "a footprint figure (bytes), not a speed")
            continue
        if f.implementation == "hardware":
            out[f.id] = _hardware(f, parts)
            continue
        if not enabled:
            out[f.id] = Emulation(f.id, "not emulated", "not emulated: rule e switched off for this report")
            continue
        target, why = kernel_target(f)
        candidates = _operations_for(target.reference) if target else []
        if target is None or not candidates:
            reason = why or f"no kernel computes {target.reference}"  # type: ignore[union-attr]
            out[f.id] = Emulation(f.id, "not emulated yet", f"not emulated yet: {reason}")
            continue
        board = load_board_of(f, parts)
        if board is None:
            out[f.id] = Emulation(f.id, "not emulated yet", f"not emulated yet: no board profile for {f.part}")
            continue
        if board.core not in TIMED_CORES:
            out[f.id] = Emulation(f.id, "not emulated yet",
                                  f"not emulated yet: core {board.core} ({board.name}) has no timing model")
            continue
        clock, clock_note = run_clock(board, f.clock_mhz)
        pending.append(_Pending(f, target, board, clock, clock_note, tuple(configurations(board, clock))))
    jobs: list[tuple[MemoryConfig, str, Job]] = []
    for p in pending:
        for kernel, variant, operation in _operations_for(p.target.reference):
            for job in _jobs(kernel, variant, operation, p.target):
                jobs += [(config, p.target.opt, job) for config in p.configs]
    by_config: dict[tuple[MemoryConfig, str], list[Job]] = {}
    for config, opt, job in dict.fromkeys(jobs):
        by_config.setdefault((config, opt), []).append(job)
    total = sum(len(group) for group in by_config.values())
    measured = _measure(by_config, total, _PROGRESS.get())
    for p in pending:
        results = []
        for kernel, variant, operation in _operations_for(p.target.reference):
            for config in p.configs:
                parts_of = [measured[(config, p.target.opt, job)]
                            for job in _jobs(kernel, variant, operation, p.target)]
                problem = "; ".join(m.error or m.mismatch for m in parts_of if not m.verified)
                ok = all(m.verified and m.cycles is not None for m in parts_of)
                cycles = sum(m.cycles for m in parts_of) if ok else None  # type: ignore[misc]
                stalls = sum(m.memory_cycles or 0 for m in parts_of) if ok else None
                results.append(VariantResult(kernel, variant, operation, cycles,
                                             cycles / p.target.size if cycles is not None and p.target.size else None,
                                             ok, problem, config.label, stalls, p.target.per_op))
        emulation = _judge(p.figure, p, results)
        _MEMO[(p.figure, p.figure.part)] = emulation
        out[p.figure.id] = emulation
    return out


def rule_emulated(figures: list[Figure], parts: dict[str, Part]) -> list[tuple[str, Finding]]:
    """Rule e as a sanity rule: one finding per emulated figure."""
    return [(figure_id, e.finding) for figure_id, e in emulate(figures, parts).items() if e.finding is not None]


# ------------------------------------------------------------------------------------------
# Rule d upgraded: which memory configurations reproduce a gap between two boards

GapExplainer = Callable[[Figure, Figure, float], tuple[Verdict, str] | None]
#: Configurations a board is normally benchmarked in (caches and prefetch on, code in flash);
#: a reproduction with these is preferred to one that assumes caches off or code in SRAM.
DEFAULT_KINDS = frozenset({"cache on", "flash"})


def _points(e: Emulation) -> dict[tuple[str, str], list[VariantResult]]:
    by_variant: dict[tuple[str, str], list[VariantResult]] = {}
    for v in e.variants:
        if v.verified and v.cycles_per_byte:
            by_variant.setdefault((v.kernel, v.variant), []).append(v)
    return by_variant


def explain_gap(a: Figure, ea: Emulation, b: Figure, eb: Emulation, ratio: float) -> tuple[Verdict, str]:
    """Whether the emulation reproduces the published ratio ``ratio`` = cost(a) / cost(b) with the
    same kernel variant on both boards in some pair of their memory configurations.

    Reproduced: the published ratio lies within the cross-board tolerance of the emulated ratio
    (verdict explained, naming the variant and both configurations); otherwise the closest pair
    is named (suspicious). Pairs in the default configurations (caches on) are preferred.
    """
    kinds = {c.label: c.kind for c in (*ea.configs, *eb.configs)}
    candidates = []
    pa, pb = _points(ea), _points(eb)
    for key in sorted(pa.keys() & pb.keys()):
        for va in pa[key]:
            for vb in pb[key]:
                emulated = (va.cycles_per_byte or 0.0) / (vb.cycles_per_byte or 1.0)
                error = abs(math.log(ratio / emulated))
                reproduced = error <= math.log(1 + CROSS_BOARD_TOLERANCE)
                unusual = (kinds[va.memory] not in DEFAULT_KINDS) + (kinds[vb.memory] not in DEFAULT_KINDS)
                candidates.append((not reproduced, unusual if reproduced else 0, error, key, va, vb, emulated))
    if not candidates:
        return "suspicious", "no kernel variant verified on both boards"
    not_reproduced, _, _, key, va, vb, emulated = min(candidates, key=lambda c: c[:3])
    pair = (f"{key[0]}/{key[1]} on {a.part} with {va.memory} ({fmt(va.cycles_per_byte or 0.0)} c/B) vs {b.part} "
            f"with {vb.memory} ({fmt(vb.cycles_per_byte or 0.0)} c/B): emulated ratio {emulated:.2f}")
    if not_reproduced:
        return "suspicious", (f"no modelled memory configuration pair reproduces the gap; the closest is {pair} "
                              f"(published {ratio:.2f})")
    return "explained", f"the emulation reproduces the gap: {pair} (published {ratio:.2f}, within 1/{1 + CROSS_BOARD_TOLERANCE:g}..{1 + CROSS_BOARD_TOLERANCE:g})"


def gap_explainer(figures: list[Figure], parts: dict[str, Part]) -> GapExplainer | None:
    """Rule d's hook: for an outlier pair, (verdict, text) from :func:`explain_gap`, or None when
    either figure has no emulation (None altogether while rule e is switched off)."""
    if not _ENABLED.get():
        return None

    scope = _SCOPE.get()

    def explain(a: Figure, b: Figure, ratio: float) -> tuple[Verdict, str] | None:
        if scope is not None and not (a.id in scope and b.id in scope):
            return None  # a partner outside a filtered report: no kernel runs for it
        emulations = emulate([a, b], parts)
        ea, eb = emulations[a.id], emulations[b.id]
        if ea.status != "emulated" or eb.status != "emulated":
            return None
        return explain_gap(a, ea, b, eb, ratio)

    return explain


def summary(emulations: dict[str, Emulation]) -> str:
    """One line counting figures by emulation status and by position against the range."""
    status: dict[str, int] = {}
    for e in emulations.values():
        status[e.status] = status.get(e.status, 0) + 1
    positions = {p: sum(1 for e in emulations.values() if e.position == p) for p in ("inside", "faster", "slower")}
    off = f"; rule e switched off {status['not emulated']}" if status.get("not emulated") else ""
    bounded = sum(1 for e in emulations.values() if e.hardware is not None and e.hardware.modelled)
    return (f"emulator ({MEMORY_NOTE}): {status.get('emulated', 0)} figures emulated "
            f"(inside the range {positions['inside']}, faster than every variant {positions['faster']}, "
            f"slower than every variant {positions['slower']}); "
            f"not emulated yet {status.get('not emulated yet', 0)}; hardware {status.get('hardware', 0)} (against the "
            f"peripheral's documented processing time {bounded}, not modelled {status.get('hardware', 0) - bounded}); "
            f"footprint figures {status.get('not applicable', 0)}{off}")
