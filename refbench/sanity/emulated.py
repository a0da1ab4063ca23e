"""Rule e -- the emulator: compare each published software figure with what the kernels need.

For a software figure whose algorithm and operation some kernel of the catalogue computes
(found by the operation's reference name, never by a table of families), every variant of
every such kernel runs on the figure's board core at the published message size (wolfSSL:
its 1024-byte blocks; ST CMOX: its message in its chunks; CycloneCRYPTO states no size, so the
steady state at :data:`STEADY_STATE_BYTES` is used). The published cycles per byte is then
compared with the range (fastest .. slowest variant):

* inside the range -> the nearest variant explains it, with the residual;
* faster than every variant -> it needs hardware acceleration or hand-written assembly; the
  message says whether the page claims either (explained if it does, suspicious if not);
* slower than every variant -> by how much, and whether the board's flash wait states could
  account for it (a bound, since board memory systems are not modelled yet).

Every message states the memory configuration used: "ideal (board memory not modelled
yet)". Figures no kernel computes, hardware figures and figures on cores without a timing
model get no finding; their :class:`Emulation` says why ("not emulated yet") and the
summary counts them. Measurements go through :mod:`refbench.measure` and its disk cache, so
a second run is fast; a progress callback set with :func:`progress_to` sees each kernel run.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from cortexm_emu import IdealMemory
from cortexm_emu.boards import Board, load_board, wait_states
from cortexm_emu.memory import MemorySystem
from cortexm_emu.timing import CORES as TIMED_CORES
from cortexm_emu.toolchain import ToolchainError
from refbench.kernels.catalog import families
from refbench.measure import Job, Measurement, Measurer
from refbench.published.model import Figure, Part
from refbench.published.normalise import normalise
from refbench.sanity.rules import SAME_WORK_TOLERANCE, fmt, relative_resolution
from refbench.sanity.verdicts import Finding

RULE = "emulator"
MEMORY_NOTE = "memory ideal (board memory not modelled yet)"
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
#: The kernels are built with the hermetic compiler at -Os for every figure (the published
#: builds use GCC at various levels; every message names this build).
KERNEL_COMPILER = "zig"
KERNEL_OPT = "Os"
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


def board_memory(board: Board) -> MemorySystem:
    """The memory system used for ``board``'s figures: ideal until board memory systems exist.

    This is the one place a board memory model plugs in; every message quotes its name.
    """
    return IdealMemory()


@dataclass(frozen=True)
class KernelTarget:
    """What to run for a figure: an operation (by reference name) and its inputs."""

    reference: str
    key_bytes: int | None
    aad_bytes: int
    size: int
    chunk: int | None
    notes: tuple[str, ...]


@dataclass(frozen=True)
class VariantResult:
    kernel: str
    variant: str
    operation: str
    cycles: int | None
    cycles_per_byte: float | None
    verified: bool
    problem: str


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
    memory: str = "ideal"
    variants: tuple[VariantResult, ...] = ()
    finding: Finding | None = None
    position: str = ""  # inside, faster, slower (emulated figures only)
    notes: tuple[str, ...] = field(default_factory=tuple)

    def as_json(self) -> dict[str, Any]:
        return {
            "emulation": self.status,
            "emulated_min": self.emulated_min,
            "emulated_max": self.emulated_max,
            "explanation": self.explanation,
            "residual": self.residual,
            "emulated_size": self.size,
            "emulated_memory": self.memory if self.status == "emulated" else None,
            "emulated_variants": [
                {"kernel": v.kernel, "variant": v.variant, "operation": v.operation, "cycles": v.cycles,
                 "cycles_per_byte": v.cycles_per_byte, "verified": v.verified, "problem": v.problem}
                for v in self.variants
            ],
        }


def _operation_name(algorithm: str, operation: str, mode: str) -> str:
    if mode in ("CBC", "ECB"):
        return f"{mode.lower()}-{operation}"
    return {"CTR": "ctr", "GCM": "gcm-encrypt", "CCM": "ccm-encrypt"}[mode]


def kernel_target(f: Figure) -> tuple[KernelTarget | None, str]:
    """The kernel operation and inputs matching figure ``f``, or (None, why not)."""
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
    if f.block_bytes:
        size, chunk = f.block_bytes, None
    elif f.message_bytes:
        size, chunk = f.message_bytes, f.chunk_bytes
    else:
        size, chunk = STEADY_STATE_BYTES, None
        notes.append(f"message size not stated: steady state at {STEADY_STATE_BYTES} bytes")
    return KernelTarget(reference, key_bytes, aad, size, chunk, tuple(notes)), ""


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
    make = lambda size: Job(kernel, variant, operation, size, target.key_bytes, target.aad_bytes)
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


def _published_claims(f: Figure) -> list[str]:
    claims = []
    if f.implementation == "hardware" or f.hw:
        claims.append(f"hardware ({', '.join(f.hw) or 'stated'})")
    if f.asm and not f.asm.lower().startswith("none"):
        claims.append(f"assembly ({f.asm})")
    return claims


def _judge(f: Figure, target: KernelTarget, board: Board, results: list[VariantResult], memory: str) -> Emulation:
    published = normalise(f).cycles_per_byte
    assert published is not None
    good = sorted((r for r in results if r.verified and r.cycles_per_byte is not None),
                  key=lambda r: r.cycles_per_byte or 0.0)
    chunks = f" in {target.chunk}-byte chunks" if target.chunk else ""
    context = f"{board.core} ({KERNEL_COMPILER} -{KERNEL_OPT}) at {target.size} B{chunks}, {MEMORY_NOTE}"
    if target.notes:
        context += "; " + "; ".join(target.notes)
    if not good:
        problems = "; ".join(f"{r.kernel}/{r.variant}: {r.problem}" for r in results)
        return Emulation(f.id, "not emulated yet", f"not emulated yet: no variant verified ({problems})",
                         published=published, size=target.size, core=board.core, memory=memory,
                         variants=tuple(results))
    rate = {r: float(r.cycles_per_byte or 0.0) for r in good}
    lo, hi = rate[good[0]], rate[good[-1]]
    fastest, slowest = good[0], good[-1]
    allowance = SAME_WORK_TOLERANCE + relative_resolution(f)
    nearest = min(good, key=lambda r: abs(published - rate[r]) / rate[r])
    residual = (published - rate[nearest]) / rate[nearest]
    spread = ", ".join(f"{r.kernel}/{r.variant} {fmt(rate[r])}" for r in good)
    head = (f"published {fmt(published)} c/B; emulated {fmt(lo)}..{fmt(hi)} c/B over {len(good)} variant(s) "
            f"({spread}) on {context}")
    claims = _published_claims(f)
    if lo * (1 - allowance) <= published <= hi * (1 + allowance):
        position = "inside"
        explanation = f"{nearest.kernel}/{nearest.variant} ({residual:+.1%})"
        verdict = "consistent"
        message = f"{head}: inside the range; nearest {explanation}"
    elif published < lo:
        position = "faster"
        residual = (published - lo) / lo
        if claims:
            verdict = "explained"
            explanation = (f"faster than every emulated software variant ({residual:+.1%}): the page claims "
                           f"{' and '.join(claims)}")
        else:
            verdict = "suspicious"
            explanation = (f"faster than every emulated software variant ({residual:+.1%} against {fastest.kernel}/"
                           f"{fastest.variant}, the fastest of {len(good)} C variant(s) built with "
                           f"{KERNEL_COMPILER} -{KERNEL_OPT}): requires hardware acceleration or hand-written "
                           "assembly (or C faster than these variants), and the page claims neither")
        message = f"{head}: {explanation}"
    else:
        position = "slower"
        residual = (published - hi) / hi
        ws = wait_states(board, min(f.clock_mhz, board.max_clock_mhz))
        # Upper bound on the memory system's share: every instruction fetch and one data access
        # per instruction waiting `ws` flash states, instructions <= cycles (no cache, no prefetch).
        bound = hi * (1 + 2 * ws)
        if published <= bound:
            verdict = "consistent"
            explanation = (f"slower than every variant ({residual:+.1%} against {slowest.kernel}/{slowest.variant}); "
                           f"within what {ws} flash wait state(s) at {f.clock_mhz:g} MHz could add "
                           f"(at most x{1 + 2 * ws} if every fetch and data access waited)")
        else:
            verdict = "suspicious"
            explanation = (f"slower than every variant ({residual:+.1%} against {slowest.kernel}/{slowest.variant}) "
                           f"and beyond what {ws} flash wait state(s) at {f.clock_mhz:g} MHz could add "
                           f"(x{1 + 2 * ws}): no modelled configuration explains it")
        message = f"{head}: {explanation}"
    return Emulation(f.id, "emulated", explanation, lo, hi, residual, published, target.size, board.core, memory,
                     tuple(results), Finding(RULE, verdict, message), position, target.notes)


def emulate(figures: list[Figure], parts: dict[str, Part]) -> dict[str, Emulation]:
    """Rule e's emulation of every figure, by figure id (cached per process and on disk)."""
    out: dict[str, Emulation] = {}
    pending: list[tuple[Figure, KernelTarget, Board]] = []
    for f in figures:
        memo_key = (f, f.part)
        if memo_key in _MEMO:
            out[f.id] = _MEMO[memo_key]
            continue
        if f.is_footprint:
            out[f.id] = Emulation(f.id, "not applicable", "a footprint figure (bytes), not a speed")
            continue
        if f.implementation == "hardware":
            out[f.id] = Emulation(f.id, "hardware", "hardware-accelerated figure: peripheral throughput not modelled")
            continue
        target, why = kernel_target(f)
        candidates = _operations_for(target.reference) if target else []
        if target is None or not candidates:
            reason = why or f"no kernel computes {target.reference}"  # type: ignore[union-attr]
            out[f.id] = Emulation(f.id, "not emulated yet", f"not emulated yet: {reason}")
            continue
        part = parts.get(f.part)
        board = _board(part.board) if part else None
        if board is None:
            out[f.id] = Emulation(f.id, "not emulated yet", f"not emulated yet: no board profile for {f.part}")
            continue
        if board.core not in TIMED_CORES:
            out[f.id] = Emulation(f.id, "not emulated yet",
                                  f"not emulated yet: core {board.core} ({board.name}) has no timing model")
            continue
        pending.append((f, target, board))
    jobs: list[tuple[str, Job, str]] = []  # (core, job, memory name)
    for f, target, board in pending:
        for kernel, variant, operation in _operations_for(target.reference):
            jobs += [(board.core, job, board_memory(board).name) for job in _jobs(kernel, variant, operation, target)]
    unique = list(dict.fromkeys(jobs))
    measured: dict[tuple[str, Job, str], Measurement] = {}
    measurers: dict[tuple[str, str], Measurer] = {}
    callback = _PROGRESS.get()
    try:
        for done, (core, job, memory_name) in enumerate(unique, start=1):
            board = next(b for _, _, b in pending if b.core == core and board_memory(b).name == memory_name)
            if (core, memory_name) not in measurers:
                measurers[(core, memory_name)] = Measurer(core, memory=board_memory(board), opt=KERNEL_OPT,
                                                          compiler=KERNEL_COMPILER)
            measurer = measurers[(core, memory_name)]
            measured[(core, job, memory_name)] = measurer.measure(job)
            if callback is not None:
                callback(done, len(unique), f"{core} {job.kernel}/{job.variant} {job.operation} {job.size} B")
    except ToolchainError as exc:
        for f, _, _ in pending:
            out[f.id] = Emulation(f.id, "not emulated yet", f"not emulated yet: kernels cannot be built ({exc})")
        return out
    for f, target, board in pending:
        memory_name = board_memory(board).name
        results = []
        for kernel, variant, operation in _operations_for(target.reference):
            parts_of = [measured[(board.core, job, memory_name)] for job in _jobs(kernel, variant, operation, target)]
            problem = "; ".join(m.error or m.mismatch for m in parts_of if not m.verified)
            ok = all(m.verified and m.cycles is not None for m in parts_of)
            cycles = sum(m.cycles for m in parts_of) if ok else None  # type: ignore[misc]
            results.append(VariantResult(kernel, variant, operation, cycles,
                                         cycles / target.size if cycles is not None and target.size else None,
                                         ok, problem))
        emulation = _judge(f, target, board, results, memory_name)
        _MEMO[(f, f.part)] = emulation
        out[f.id] = emulation
    return out


def rule_emulated(figures: list[Figure], parts: dict[str, Part]) -> list[tuple[str, Finding]]:
    """Rule e as a sanity rule: one finding per emulated figure."""
    return [(figure_id, e.finding) for figure_id, e in emulate(figures, parts).items() if e.finding is not None]


def summary(emulations: dict[str, Emulation]) -> str:
    """One line counting figures by emulation status and by position against the range."""
    status: dict[str, int] = {}
    for e in emulations.values():
        status[e.status] = status.get(e.status, 0) + 1
    positions = {p: sum(1 for e in emulations.values() if e.position == p) for p in ("inside", "faster", "slower")}
    return (f"emulator ({MEMORY_NOTE}): {status.get('emulated', 0)} figures emulated "
            f"(inside the range {positions['inside']}, faster than every variant {positions['faster']}, "
            f"slower than every variant {positions['slower']}); "
            f"not emulated yet {status.get('not emulated yet', 0)}; hardware, not modelled {status.get('hardware', 0)}; "
            f"footprint figures {status.get('not applicable', 0)}")
