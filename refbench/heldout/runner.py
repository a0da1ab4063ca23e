"""Held-out validation of the timing models: whole programs with published real-board cycle counts
(``refbench held-out``).

The set is ``held_out.toml`` beside this module: registry packages that ship the sources, the programs
built from them and the published rows (see the file's header). For each program and core:

1. the package is fetched with its registry's ordinary client into the cache, its archive checked
   against the recorded ``integrity`` and unpacked, never into the repository
   (:mod:`refbench.heldout.sources`); where the program records the ``source_tree`` of the
   publishers' commit, the git tree id of its unpacked directory must equal it (the registry's
   sources are then byte for byte, file for file, the code that was measured);
2. the program's sources, the common sources it names and this project's ``runtime/``
   (randombytes, allocator, memcpy/memset, and the compat.h the publishers' include path gives;
   written here) are built with the publishers' flags;
3. each operation runs in the emulator and its output is checked (a KEM's two shared secrets agree
   and a changed ciphertext gives another, and where the program names a ``reference`` its keypair
   and encapsulation equal the pure-Python FIPS 203 ones of :mod:`refbench.heldout.fips203` byte
   for byte; a signature opens to its message and a changed one does not open);
4. the cycles outside the hashing functions (those defined in ``common/fips202.c``, and the
   allocator their contexts call) are compared with the published count times the published
   non-hashing share.

Nothing here sets a timing-model parameter: the rows are read after the models are written. The
set did guide where to look for missing rules (see held_out.toml's header: the M4 flash-fetch rules
52 and 53 of cortexm_emu/timing/APPROXIMATIONS.md were looked for where it disagreed, their numbers
taken from the documents they cite), so its error after those rules is in-sample for them, not a
pure out-of-sample error. :func:`held_out_error` gives the per-core mean and max error recorded in
``held_out_error.json`` (written by ``refbench held-out --record``), for code that needs the
models' measured error without running the set. The record is keyed by what produced it
(:func:`key_of_set`: the timing-model version of each core with rows, the compiler, the packages'
integrity, the set's programs and rows and the runtime sources); ``tests/test_held_out.py`` fails
while the stored key differs from the current one. The set lives in refbench, not in cortexm_emu,
because it names the programs and their publications (cortexm_emu knows nothing about them); the
rules it led to are cortexm_emu's (the timing model option ``fetch="flash"``).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from statistics import fmean
from typing import Any

from cortexm_emu.annotate import annotate
from cortexm_emu.call import Buffer, CallResult
from cortexm_emu.datafile import DataFileError, TomlReader
from cortexm_emu.machine import Machine
from cortexm_emu.timing import CORES, model_for
from cortexm_emu.timing.registry import FETCH_SETTINGS
from cortexm_emu.toolchain import build
from refbench.heldout import fips203
from refbench.heldout.sources import (
    HeldOutSourceError,
    HeldOutUnavailable,
    Package,
    fetch_package,
    git_tree_id,
)

HERE = Path(__file__).resolve().parent
HELD_OUT = HERE / "held_out.toml"
ERROR_RECORD = HERE / "held_out_error.json"
RUNTIME = HERE / "runtime"
#: registry -> how its archives' integrity is recorded: npm's own SHA-512 field; PyPI's SHA-256
INTEGRITY = {"npm": "sha512-", "pypi": "sha256:"}
OPERATIONS = {"kem": ("keypair", "enc", "dec"), "sign": ("open",)}
#: functions the published runs count as hashing besides those of common/fips202.c: the
#: allocator of PQClean's incremental SHAKE contexts (the publishers' fips202 has none)
HASHING_EXTRA = ("malloc", "free")
#: reference implementations a KEM program's keypair and encapsulation are compared with, byte for
#: byte: name -> (parameter set, FIPS 203 initial public draft?) (cortexm_emu/fips203.py)
REFERENCES = {
    "fips203-512": (512, False), "fips203-768": (768, False), "fips203-1024": (1024, False),
    "fips203-ipd-512": (512, True), "fips203-ipd-768": (768, True), "fips203-ipd-1024": (1024, True),
}
#: the generator of runtime/runtime.c's randombytes (32-bit xorshift 13/17/5 from this
#: seed, the low byte of each state), restarted at every call
RUNTIME_SEED = 0x6D2B79F5
#: the message signed before ``open`` is timed: 59 bytes, as the publishers' crypto_sign/speed.c
MESSAGE_BYTES = 59
#: ML-DSA-87 signing keeps about 120 KB on the stack (pqm4's memory table: 122,740 bytes)
STACK_BYTES = 256 * 1024


class HeldOutOutputError(RuntimeError):
    """A held-out program gave a wrong output in the emulator (names program, core, operation)."""


@dataclass(frozen=True, slots=True)
class Program:
    name: str
    package: str
    directory: str
    common: tuple[str, ...]
    namespace: str
    kind: str
    flags: tuple[str, ...]
    reference: str = ""  # "" or a key of REFERENCES: the outputs are also compared with it
    source_tree: str = ""  # "" or the git tree id of ``directory`` at the commit the publishers measured


@dataclass(frozen=True, slots=True)
class PublishedRow:
    program: str
    operation: str
    core: str
    published: float
    hash_percent: float
    source: str


@dataclass(frozen=True, slots=True)
class HeldOutSet:
    packages: dict[str, Package]
    programs: dict[str, Program]
    rows: tuple[PublishedRow, ...]


@dataclass(frozen=True, slots=True)
class HeldOutResult:
    """One row: published and emulated cycles outside the hashing functions."""

    program: str
    operation: str
    core: str
    published: float  # published whole-operation average
    hash_percent: float
    emulated_total: int
    emulated_hashing: int
    source: str

    @property
    def published_outside_hashing(self) -> float:
        return self.published * (1.0 - self.hash_percent / 100.0)

    @property
    def emulated_outside_hashing(self) -> int:
        return self.emulated_total - self.emulated_hashing

    @property
    def error_percent(self) -> float:
        p = self.published_outside_hashing
        return (self.emulated_outside_hashing - p) / p * 100.0


@dataclass(frozen=True, slots=True)
class HeldOutSummary:
    core: str
    n: int
    mean_error: float  # signed: negative = the model is fast
    mean_abs_error: float
    max_abs_error: float


def load_held_out(path: Path = HELD_OUT) -> HeldOutSet:
    """Read and check the held-out file; DataFileError names file:line and field."""
    reader = TomlReader.load(path, kind="held-out file")
    packages: dict[str, Package] = {}
    for i in range(_count(reader, "package")):
        reader.check_keys(("package", i), ("name", "version", "registry", "integrity", "root", "note"))
        name = reader.string(("package", i, "name"))
        integrity = reader.string(("package", i, "integrity"))
        registry = reader.choice(("package", i, "registry"), tuple(INTEGRITY))
        if not integrity.startswith(INTEGRITY[registry]):
            raise reader.fail(("package", i, "integrity"),
                              f"expected '{INTEGRITY[registry]}...' for {registry}, got {integrity!r}")
        packages[name] = Package(name, reader.string(("package", i, "version")), registry, integrity,
                                 reader.string(("package", i, "root")))
    programs: dict[str, Program] = {}
    for i in range(_count(reader, "program")):
        field = ("program", i)
        reader.check_keys(field, ("name", "package", "directory", "common", "namespace", "kind", "flags",
                                  "built_as", "reference", "source_tree"))
        name = reader.string((*field, "name"))
        if name in programs:
            raise reader.fail((*field, "name"), f"duplicate program {name!r}")
        package = reader.choice((*field, "package"), tuple(packages))
        programs[name] = Program(
            name, package, reader.string((*field, "directory")), _strings(reader, (*field, "common")),
            reader.string((*field, "namespace")), reader.choice((*field, "kind"), tuple(OPERATIONS)),
            _strings(reader, (*field, "flags")),
            reader.choice((*field, "reference"), tuple(REFERENCES)) if reader.has((*field, "reference")) else "",
            _tree_field(reader, (*field, "source_tree")),
        )
        reader.string((*field, "built_as"))
    rows: list[PublishedRow] = []
    for i in range(_count(reader, "row")):
        field = ("row", i)
        reader.check_keys(field, ("program", "operation", "core", "published", "hash_percent", "source"))
        program = reader.choice((*field, "program"), tuple(programs))
        operation = reader.choice((*field, "operation"), OPERATIONS[programs[program].kind])
        core = reader.choice((*field, "core"), tuple(CORES))
        published = reader.number((*field, "published"))
        share = reader.value((*field, "hash_percent"))
        if isinstance(share, bool) or not isinstance(share, int | float) or not 0 <= share < 100:
            raise reader.fail((*field, "hash_percent"), f"expected a percentage 0 <= x < 100, got {share!r}")
        source = reader.string((*field, "source"))
        if len(source) < 20:
            raise reader.fail((*field, "source"), "every published count must cite where it was published")
        rows.append(PublishedRow(program, operation, core, float(published), float(share), source))
    return HeldOutSet(packages, programs, tuple(rows))


def _tree_field(reader: TomlReader, field: tuple[Any, ...]) -> str:
    if not reader.has(field):
        return ""
    value = reader.string(field)
    if not re.fullmatch(r"[0-9a-f]{40}", value):
        raise reader.fail(field, f"expected a git tree id (40 lowercase hex digits), got {value!r}")
    return value


def _count(reader: TomlReader, key: str) -> int:
    value = reader.value((key,))
    if not isinstance(value, list) or not value or not all(isinstance(v, dict) for v in value):
        raise reader.fail((key,), f"expected a non-empty array of [[{key}]] tables")
    return len(value)


def _strings(reader: TomlReader, field: tuple[Any, ...]) -> tuple[str, ...]:
    value = reader.value(field)
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise reader.fail(field, f"expected a list of strings, got {value!r}")
    return tuple(value)


def check_sources(program: Program, sources_root: Path) -> None:
    """Refuse sources that are not the tree the publishers measured (when the program records it)."""
    if not program.source_tree:
        return
    folder = sources_root / program.directory
    got = git_tree_id(folder) if folder.is_dir() else "(no such directory)"
    if got != program.source_tree:
        raise HeldOutSourceError(
            f"held-out program {program.name}: the sources {folder} have git tree {got}, not the recorded "
            f"source_tree {program.source_tree} of the measured commit (see {HELD_OUT.name})")


# ------------------------------------------------------------------ building and running


@cache
def _program_elf(program: Program, core: str, sources_root: Path) -> Path:
    folder = sources_root / program.directory
    sources = sorted(folder.glob("*.c")) + [sources_root / c for c in program.common] + [RUNTIME / "runtime.c"]
    opt = next((f[1:] for f in program.flags if re.fullmatch(r"-O[0-3s]", f)), "O3")
    extra = [f for f in program.flags if not re.fullmatch(r"-O[0-3s]", f)]
    exports = [program.namespace + f for f in _api(program, sources_root)]
    includes = [RUNTIME / "include", sources_root / "common", folder]
    return build(sources, core, opt=opt, compiler="gcc", extra_flags=extra, include_dirs=includes,
                 exports=exports).elf


def _api(program: Program, sources_root: Path) -> tuple[str, ...]:
    """The functions called, without the namespace: keypair, then enc/dec or sign/open. A signature
    scheme whose api.h defines crypto_sign and crypto_sign_open as macros of their ``_ctx`` forms
    (FIPS 204's context string; PQClean's ML-DSA from 2024-10) is called through those, with an
    empty context, as the macros expand in the publishers' build."""
    if program.kind == "kem":
        return ("crypto_kem_keypair", "crypto_kem_enc", "crypto_kem_dec")
    if _signs_with_context(program, sources_root):
        return ("crypto_sign_keypair", "crypto_sign_ctx", "crypto_sign_open_ctx")
    return ("crypto_sign_keypair", "crypto_sign", "crypto_sign_open")


def _signs_with_context(program: Program, sources_root: Path) -> bool:
    text = (sources_root / program.directory / "api.h").read_text()
    ns = re.escape(program.namespace)
    return all(re.search(rf"#define\s+{ns}{name}\(.*\)\s+{ns}{name}_ctx\(", text)
               for name in ("crypto_sign", "crypto_sign_open"))


def _sizes(program: Program, sources_root: Path) -> dict[str, int]:
    text = (sources_root / program.directory / "api.h").read_text()
    found = dict(re.findall(rf"#define\s+{re.escape(program.namespace)}CRYPTO_(\w+)\s+(\d+)", text))
    return {k: int(v) for k, v in found.items()}


def _hashing_functions(sources_root: Path, program: Program) -> frozenset[str]:
    names: set[str] = set(HASHING_EXTRA)
    for common in program.common:
        text = (sources_root / common).read_text()
        names.update(re.findall(r"^(?:static\s+)?(?:inline\s+)?[A-Za-z_][\w \*]*?\b(\w+)\(", text, re.M))
    return frozenset(names)


def _hashing_cycles(machine: Machine, result: CallResult, hashing: frozenset[str]) -> int:
    image = machine.image
    assert image is not None
    total = 0
    for block in annotate(machine, result):
        for row in block.rows:
            function = image.function_containing(row.address)
            if function is not None and function.name in hashing:
                total += row.total
    return total


def _check(ok: bool, program: Program, core: str, what: str) -> None:
    if not ok:
        raise HeldOutOutputError(f"held-out program {program.name} on {core}: {what}")


def held_out_model(core: str, fetch: str = "flash") -> Any:
    """The timing model the rows run on: the core's, with its flash-fetch rules when it has them and
    ``fetch`` is "flash" (every published run of the set executed from the board's flash)."""
    try:
        return model_for(core, fetch=fetch)
    except ValueError:
        if fetch not in FETCH_SETTINGS:
            raise
        return model_for(core)  # a core without flash-fetch rules: the same model either way


def runtime_random_bytes(n: int) -> bytes:
    """The bytes ``randombytes`` of runtime/runtime.c gives a call asking for ``n``."""
    x, out = RUNTIME_SEED, bytearray()
    for _ in range(n):
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        out.append(x & 0xFF)
    return bytes(out)


def _check_reference(program: Program, core: str, keys: CallResult, enc: CallResult) -> None:
    """The keypair (from 64 random bytes d || z) and the encapsulation (from 32, m) agree with
    the pure-Python FIPS 203 reference byte for byte."""
    level, draft = REFERENCES[program.reference]
    coins = runtime_random_bytes(64)
    ek, dk = fips203.keygen(level, coins[:32], coins[32:], draft=draft)
    _check(keys.buffer("pk") == ek and keys.buffer("sk") == dk, program, core,
           f"the keypair differs from the {program.reference} reference")
    secret, ciphertext = fips203.encaps(level, ek, runtime_random_bytes(32))
    _check(enc.buffer("ct") == ciphertext and enc.buffer("ss") == secret, program, core,
           f"the encapsulation differs from the {program.reference} reference")


def run_program(program: Program, core: str, sources_root: Path, fetch: str = "flash") -> dict[str, tuple[int, int]]:
    """operation -> (emulated cycles, of which in hashing functions), outputs checked; the sources
    are first checked against the program's ``source_tree`` (:func:`check_sources`)."""
    check_sources(program, sources_root)
    elf = _program_elf(program, core, sources_root)
    machine = Machine(core, timing=held_out_model(core, fetch), stack_size=STACK_BYTES)
    machine.load_elf(elf)
    sizes = _sizes(program, sources_root)
    hashing = _hashing_functions(sources_root, program)
    ns = program.namespace
    pk, sk = Buffer.zeros(sizes["PUBLICKEYBYTES"]), Buffer.zeros(sizes["SECRETKEYBYTES"])
    api = _api(program, sources_root)
    keys = machine.call(ns + api[0], "pk", "sk", buffers={"pk": pk, "sk": sk}, budget=None)
    _check(keys.return_value == 0, program, core, "keypair returned non-zero")
    out = {}
    if program.kind == "kem":
        out["keypair"] = (keys.cycles, _hashing_cycles(machine, keys, hashing))
        ct, ss = sizes["CIPHERTEXTBYTES"], sizes["BYTES"]
        enc = machine.call(ns + "crypto_kem_enc", "ct", "ss", Buffer(keys.buffer("pk")),
                           buffers={"ct": Buffer.zeros(ct), "ss": Buffer.zeros(ss)}, budget=None)
        out["enc"] = (enc.cycles, _hashing_cycles(machine, enc, hashing))
        dec = machine.call(ns + "crypto_kem_dec", "ss", Buffer(enc.buffer("ct")), Buffer(keys.buffer("sk")),
                           buffers={"ss": Buffer.zeros(ss)}, budget=None)
        out["dec"] = (dec.cycles, _hashing_cycles(machine, dec, hashing))
        _check(dec.buffer("ss") == enc.buffer("ss"), program, core, "decapsulated secret differs")
        changed = bytearray(enc.buffer("ct"))
        changed[0] ^= 1
        bad = machine.call(ns + "crypto_kem_dec", "ss", Buffer(bytes(changed)), Buffer(keys.buffer("sk")),
                           buffers={"ss": Buffer.zeros(ss)}, budget=None)
        _check(bad.buffer("ss") != enc.buffer("ss"), program, core, "a changed ciphertext gave the same secret")
        if program.reference:
            _check_reference(program, core, keys, enc)
        return out
    message = bytes(range(MESSAGE_BYTES))
    smlen = MESSAGE_BYTES + sizes["BYTES"]
    context = (0, 0) if api[1].endswith("_ctx") else ()  # an empty context: (NULL, 0)
    signed = machine.call(ns + api[1], "sm", "smlen", Buffer(message), MESSAGE_BYTES, *context,
                          Buffer(keys.buffer("sk")),
                          buffers={"sm": Buffer.zeros(smlen), "smlen": Buffer.zeros(4)}, budget=None)
    length = int.from_bytes(signed.buffer("smlen"), "little")
    _check(signed.return_value == 0 and length == smlen, program, core, "signing failed")
    opened = machine.call(ns + api[2], "m", "mlen", Buffer(signed.buffer("sm")), smlen, *context,
                          Buffer(keys.buffer("pk")),
                          buffers={"m": Buffer.zeros(smlen), "mlen": Buffer.zeros(4)}, budget=None)
    _check(opened.return_value == 0 and opened.buffer("m")[:MESSAGE_BYTES] == message, program, core,
           "the signature did not open to its message")
    forged = bytearray(signed.buffer("sm"))
    forged[0] ^= 1
    bad = machine.call(ns + api[2], "m", "mlen", Buffer(bytes(forged)), smlen, *context,
                       Buffer(keys.buffer("pk")),
                       buffers={"m": Buffer.zeros(smlen), "mlen": Buffer.zeros(4)}, budget=None)
    _check(bad.return_value != 0, program, core, "a changed signature opened")
    out["open"] = (opened.cycles, _hashing_cycles(machine, opened, hashing))
    return out


def run_held_out(
    cores: Sequence[str] | None = None,
    programs: Sequence[str] | None = None,
    held_out: HeldOutSet | None = None,
    fetch: str = "flash",
) -> list[HeldOutResult]:
    """Build, run and check every selected (program, core); rows in file order. ``fetch``: the
    timing model's fetch option (``held_out_model``; "ideal" shows the rows without the
    flash-fetch rules)."""
    data = held_out or load_held_out()
    for core in cores or ():
        if core not in CORES:
            raise ValueError(f"Invalid core {core!r}; accepted: {', '.join(CORES)}")
    if programs is not None:
        unknown = sorted(set(programs) - set(data.programs))
        if unknown:
            raise ValueError(f"Invalid held-out program(s) {', '.join(unknown)}; see {HELD_OUT}")
    selected = [r for r in data.rows if (cores is None or r.core in cores)
                and (programs is None or r.program in programs)]
    runs: dict[tuple[str, str], dict[str, tuple[int, int]]] = {}
    results = []
    for row in selected:
        key = (row.program, row.core)
        if key not in runs:
            program = data.programs[row.program]
            root = fetch_package(data.packages[program.package])
            runs[key] = run_program(program, row.core, root, fetch)
        total, hashing = runs[key][row.operation]
        results.append(HeldOutResult(row.program, row.operation, row.core, row.published,
                                     row.hash_percent, total, hashing, row.source))
    return results


def summarize_held_out(results: Sequence[HeldOutResult]) -> list[HeldOutSummary]:
    """Per core: n, signed mean, mean |error| and max |error| in percent."""
    out = []
    for core in dict.fromkeys(r.core for r in results):
        errors = [r.error_percent for r in results if r.core == core]
        out.append(HeldOutSummary(core, len(errors), fmean(errors), fmean(abs(e) for e in errors),
                                  max(abs(e) for e in errors)))
    return out


def held_out_json(results: Sequence[HeldOutResult]) -> dict[str, Any]:
    return {
        "rows": [
            {"program": r.program, "operation": r.operation, "core": r.core,
             "published": r.published, "hash_percent": r.hash_percent,
             "published_outside_hashing": r.published_outside_hashing,
             "emulated_total": r.emulated_total, "emulated_hashing": r.emulated_hashing,
             "emulated_outside_hashing": r.emulated_outside_hashing,
             "error_percent": r.error_percent, "source": r.source}
            for r in results
        ],
        "summary": [
            {"core": s.core, "n": s.n, "mean_error_percent": s.mean_error,
             "mean_abs_error_percent": s.mean_abs_error, "max_abs_error_percent": s.max_abs_error}
            for s in summarize_held_out(results)
        ],
    }


def key_of_set(held_out: HeldOutSet | None = None) -> dict[str, dict[str, str]]:
    """What the record's numbers depend on: the timing-model version of every core with rows (with
    its flash-fetch rules, :func:`held_out_model`), the compiler the programs are built with, each
    package's recorded integrity, a digest of the set's programs and rows (their parsed values:
    comments do not count) and of the runtime sources. Computed without the network."""
    from cortexm_emu.toolchain import ToolchainError, compiler_version
    from refbench.derived import NOT_INSTALLED

    data = held_out or load_held_out()
    try:
        gcc = compiler_version("gcc")
    except (ToolchainError, OSError):
        gcc = NOT_INSTALLED
    # source_tree only lets a run refuse other sources; it changes no number, so it is not keyed
    programs = [{k: v for k, v in dataclasses.asdict(p).items() if k != "source_tree"}
                for p in data.programs.values()]
    content = json.dumps({"programs": programs,
                          "rows": [dataclasses.asdict(r) for r in data.rows]}, sort_keys=True)
    runtime = hashlib.sha256()
    for file in sorted(f for f in RUNTIME.rglob("*") if f.is_file()):
        runtime.update(file.relative_to(RUNTIME).as_posix().encode() + b"\0" + file.read_bytes() + b"\0")
    return {
        "timing_models": {core: str(held_out_model(core).version) for core in sorted({r.core for r in data.rows})},
        "compilers": {"gcc": gcc},
        "packages": {f"{p.registry} {p.name} {p.version}": p.integrity for p in data.packages.values()},
        "held_out_set": {"programs and rows": hashlib.sha256(content.encode()).hexdigest(),
                         "runtime": runtime.hexdigest()},
    }


def stored_key(path: Path = ERROR_RECORD) -> dict[str, Any] | None:
    """The key the record was written with (None: the record has none)."""
    key = json.loads(path.read_text()).get("key")
    return key if isinstance(key, dict) else None


def record_error(results: Sequence[HeldOutResult], path: Path = ERROR_RECORD,
                 key: dict[str, dict[str, str]] | None = None) -> None:
    """Write the per-core summary (and rows) that :func:`held_out_error` reads, keyed by
    :func:`key_of_set` (``key``: the key of the set the results are of; default the current one)."""
    document = {"schema": "cortexm_emu.held_out_error/1",
                "memory": "ideal memory; the core's flash-fetch rules on (model option fetch='flash')",
                "key": key if key is not None else key_of_set(),
                "measured": "on the held-out set after the rules it guided were added (APPROXIMATIONS.md "
                            "52-53: the set showed where to look, the cited documents set the numbers): "
                            "in-sample for those rules, not a pure out-of-sample error",
                **held_out_json(results)}
    path.write_text(json.dumps(document, indent=2, sort_keys=True) + "\n")


def held_out_error(path: Path = ERROR_RECORD) -> dict[str, HeldOutSummary]:
    """core -> the recorded held-out error of the current models (``refbench held-out --record``)."""
    try:
        document = json.loads(path.read_text())
        if document.get("schema") != "cortexm_emu.held_out_error/1":
            raise ValueError(f"schema {document.get('schema')!r}")
        if not document["summary"]:
            raise ValueError("the summary is empty (no rows recorded: run refbench held-out --record)")
        return {
            s["core"]: HeldOutSummary(s["core"], int(s["n"]), float(s["mean_error_percent"]),
                                      float(s["mean_abs_error_percent"]), float(s["max_abs_error_percent"]))
            for s in document["summary"]
        }
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise DataFileError(path, 1, "summary", f"cannot read the recorded held-out error: {exc}") from exc


__all__ = [
    "ERROR_RECORD",
    "HELD_OUT",
    "HeldOutOutputError",
    "HeldOutResult",
    "HeldOutSourceError",
    "HeldOutSet",
    "HeldOutSummary",
    "HeldOutUnavailable",
    "check_sources",
    "fetch_package",
    "git_tree_id",
    "held_out_error",
    "held_out_json",
    "key_of_set",
    "load_held_out",
    "record_error",
    "run_held_out",
    "run_program",
    "stored_key",
    "summarize_held_out",
]
