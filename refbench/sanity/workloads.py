"""Figure -> the library's benchmark workload -> the kernel calls that do the same work.

What one published figure measured depends on the library's benchmark, not only on the
algorithm: wolfCrypt's benchmark hashes 25 updates of 1024 bytes per Final and passes 13 bytes
of AAD to GCM/CCM; ST CMOX times a message in chunks, or one final tag; CycloneCRYPTO states no
size (the steady state is measured). Those facts are data, with their sources, in
``workloads.toml``; this module reads them (:func:`load_workloads`) and maps a figure to a
:class:`KernelTarget` (:func:`kernel_target`): the catalogue reference, key and AAD sizes, the
message and chunk sizes, the optimisation level, and the notes every emulator rule (``emulator``)
message carries. :func:`operations_for` and :func:`calls_for` turn a target into catalogue
operations and the calls whose cycles add up to the figure's work.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cortexm_emu.datafile import error_at, read_toml
from refbench.kernels.catalog import families
from refbench.measure import Job
from refbench.published.model import Figure
from refbench.published.normalise import normalise
from refbench.ref import hashes

WORKLOADS_PATH = Path(__file__).with_name("workloads.toml")


@dataclass(frozen=True)
class Workloads:
    """The tables of ``workloads.toml`` (each checked for the fields this module reads)."""

    build: dict[str, Any]
    steady_state: dict[str, Any]
    ciphers: dict[str, Any]
    algorithms: dict[str, str]
    same_work_decrypt: dict[str, str]
    wolfssl: dict[str, Any]
    gmac: dict[str, Any]
    cmox: dict[str, Any]


#: The fields each table must have, with their type.
SCHEMA: dict[str, dict[str, type]] = {
    "build": {"compiler": str, "default_opt": str, "opt_of_options": dict, "note": str},
    "steady_state": {"bytes": int, "note": str},
    "ciphers": {"family": dict, "key_bytes": dict, "mode_operation": dict},
    "algorithms": {},
    "same_work_decrypt": {},
    "wolfssl": {"library": str, "num_blocks": int, "streamed_operations": list, "streamed_note": str,
                "aad_bytes": int, "aad_modes": list, "no_aad_mode": str, "aad_note": str, "rng_reference": str,
                "rng_note": str},
    "gmac": {"reference": str, "key_bytes": int, "note": str},
    "cmox": {"library_prefix": str, "final_message_bytes": int, "final_note": str},
}


def load_workloads(path: Path = WORKLOADS_PATH) -> Workloads:
    """The workload tables of ``path``; a missing table or field, or one of the wrong type, raises
    DataFileError naming the file, line and field."""
    _, data = read_toml(path, kind="workloads file")
    for table, fields in SCHEMA.items():
        if not isinstance(data.get(table), dict):
            raise error_at(path, (table,), "missing table")
        for name, kind in fields.items():
            value = data[table].get(name)
            if not isinstance(value, kind) or isinstance(value, bool):
                raise error_at(path, (table, name), f"expected {kind.__name__}, got {value!r}")
    unknown = set(data) - set(SCHEMA)
    if unknown:
        raise error_at(path, (min(unknown),), f"unknown table(s) {', '.join(sorted(unknown))}; accepted: {', '.join(SCHEMA)}")
    return Workloads(**{table: data[table] for table in SCHEMA})


WORKLOADS = load_workloads()
#: The compiler and default optimisation level of every kernel build (see workloads.toml [build]).
KERNEL_COMPILER: str = WORKLOADS.build["compiler"]
KERNEL_OPT: str = WORKLOADS.build["default_opt"]
STEADY_STATE_BYTES: int = WORKLOADS.steady_state["bytes"]

_BLOCK_MODE = re.compile(r"^(AES)-(128|192|256)-(CBC|CTR|ECB|GCM|CCM)$|^(SM4|3DES)-(CBC|CTR|ECB|GCM|CCM)$")


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


def kernel_build(f: Figure) -> tuple[str, str]:
    """The optimisation level the kernels are built at for figure ``f`` (workloads.toml
    ``[build] opt_of_options``), and the words every message uses for the build."""
    levels = WORKLOADS.build["opt_of_options"]
    opt = levels.get(f.options, KERNEL_OPT)
    stated = f"{f.compiler} {f.options}" if f.options in levels else f"{f.compiler}, level not stated"
    return opt, WORKLOADS.build["note"].format(compiler=KERNEL_COMPILER, opt=opt, stated=stated)


def _final_target(f: Figure) -> tuple[KernelTarget | None, str]:
    """A hash's final tag generation (ST CMOX ``cmox_hash_generateTag``), as one call: the digest
    of the bytes the data flow mode left buffered (workloads.toml ``[cmox]``)."""
    name = f.algorithm.lower()
    cmox = WORKLOADS.cmox
    if not f.library.startswith(cmox["library_prefix"]) or name not in hashes.NAMES:
        return None, f"no kernel operation corresponds to {f.algorithm} {f.operation}"
    block = hashes.block_size(name)  # type: ignore[arg-type]
    message = cmox["final_message_bytes"]
    left = message % block
    note = cmox["final_note"].format(message=message, left=left, block=block)
    return KernelTarget(name, None, 0, left, None, (note,), kernel_build(f)[0], per_op=True), ""


def _reference(f: Figure, notes: list[str]) -> tuple[str | None, int | None, int]:
    """(catalogue reference, key bytes, AAD bytes) of figure ``f``'s operation; the reference is
    None when no kernel operation corresponds to it."""
    wolfssl, ciphers = WORKLOADS.wolfssl, WORKLOADS.ciphers
    match = _BLOCK_MODE.match(f.algorithm)
    if match:
        cipher = match.group(1) or match.group(4)
        mode = match.group(3) or match.group(5)
        key_bytes = int(match.group(2)) // 8 if match.group(2) else ciphers["key_bytes"][cipher]
        operation = f"{mode.lower()}-{f.operation}" if mode in ("CBC", "ECB") else ciphers["mode_operation"][mode]
        aad = 0
        if mode in wolfssl["aad_modes"] and f.library == wolfssl["library"] \
                and wolfssl["no_aad_mode"] not in (f.mode or ""):
            aad = wolfssl["aad_bytes"]
            notes.append(wolfssl["aad_note"].format(aad=aad))
        return f"{ciphers['family'][cipher]}-{operation}", key_bytes, aad
    if f.algorithm in WORKLOADS.algorithms:
        return WORKLOADS.algorithms[f.algorithm], None, 0
    if f.algorithm == "GMAC":
        notes.append(WORKLOADS.gmac["note"])
        return WORKLOADS.gmac["reference"], WORKLOADS.gmac["key_bytes"], 0
    if f.algorithm == "RNG" and f.library == wolfssl["library"]:
        notes.append(wolfssl["rng_note"])
        return wolfssl["rng_reference"], None, 0
    if f.operation in ("hash", "mac"):
        return f.algorithm.lower(), None, 0
    return None, None, 0


def _message(f: Figure, notes: list[str]) -> tuple[int, int | None]:
    """(message bytes, chunk bytes or None) of one timed unit of the figure's benchmark."""
    wolfssl = WORKLOADS.wolfssl
    if f.block_bytes and f.library == wolfssl["library"] and f.operation in wolfssl["streamed_operations"] \
            and f.algorithm != "GMAC":
        size = wolfssl["num_blocks"] * f.block_bytes
        notes.append(wolfssl["streamed_note"].format(blocks=wolfssl["num_blocks"], block=f.block_bytes, size=size))
        return size, None
    if f.block_bytes:
        return f.block_bytes, None
    if f.message_bytes:
        return f.message_bytes, f.chunk_bytes
    notes.append(WORKLOADS.steady_state["note"].format(bytes=STEADY_STATE_BYTES))
    return STEADY_STATE_BYTES, None


def kernel_target(f: Figure) -> tuple[KernelTarget | None, str]:
    """The kernel operation and inputs matching figure ``f``, or (None, why not)."""
    if f.operation == "finalize":
        return _final_target(f)
    if normalise(f).cycles_per_byte is None:
        return None, "no per-byte figure to compare (a per-operation or footprint figure)"
    notes: list[str] = []
    reference, key_bytes, aad = _reference(f, notes)
    if reference is None:
        return None, f"no kernel operation corresponds to {f.algorithm} {f.operation}"
    if f.operation == "decrypt" and not reference.endswith("decrypt"):
        op_name = reference.split("-", 1)[1] if "-" in reference else reference
        same = WORKLOADS.same_work_decrypt.get(op_name) or WORKLOADS.same_work_decrypt.get(reference)
        if same is None:
            return None, f"no decryption kernel for {f.algorithm}"
        notes.append(f"decryption measured with the encryption kernel: {same}")
    size, chunk = _message(f, notes)
    return KernelTarget(reference, key_bytes, aad, size, chunk, tuple(notes), kernel_build(f)[0]), ""


def operations_for(reference: str) -> list[tuple[str, str, str]]:
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


def calls_for(kernel: str, variant: str, operation: str, target: KernelTarget) -> list[Job]:
    """The calls whose cycles add up to the figure's work (one, or one per chunk)."""

    def make(size: int) -> Job:
        return Job(kernel, variant, operation, size, target.key_bytes, target.aad_bytes)

    if target.chunk and target.chunk < target.size and _streamable(kernel, operation):
        full, rest = divmod(target.size, target.chunk)
        return [make(target.chunk)] * full + ([make(rest)] if rest else [])
    return [make(target.size)]
