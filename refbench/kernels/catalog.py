"""The kernel catalogue: every ``refbench/kernels/<family>/kernel.toml``.

A manifest names the family's standard, the sources shared by its variants,
its *operations* (C function, its arguments by role, and the reference it
must equal) and its *variants* (sub-folders named for what they trade, as in
pqm4). The generic harness (:mod:`refbench.kernels.harness`) calls any
operation from these facts alone: there is no per-kernel Python glue.

Manifest fields
---------------
``family`` (str), ``standard`` (str), ``sources`` (list of paths, optional), ``defines`` (optional,
as a variant's below, for every variant: e.g. ``CIPHER_HEADER="aes_cipher.h"``, the block cipher
the shared modes include),
``[[operations]]`` with ``name``, ``function``, ``args`` (roles from
:data:`ROLES`, in the C parameter order), ``reference`` (a name of
:mod:`refbench.kernels.references`), optional ``output_bytes``,
``context_bytes``, ``setup`` and ``setup_args``; and ``[variants.<name>]`` with ``sources``,
``trades``, optional ``cores`` (the cores whose instruction set the variant needs, e.g. UMAAL
only on ARMv7E-M and ARMv8-M Mainline with DSP; default every core) and optional ``defines`` (``NAME`` or ``NAME=VALUE`` preprocessor definitions for
every source of the variant, e.g. what the shared block modes need to know of a cipher that
takes several blocks per call), optional ``whole`` (names of the family's operations the variant
computes whole in code of its own, not as a sequence of its other operations' calls: the public-key
pricing takes their measured cycles and the composition check leaves them out,
:mod:`refbench.sanity.pubkey_whole`) and optional ``limbs`` (a table of field name -> bits per limb: the
variant's field operations take and return elements in signed 32-bit limbs of that many bits,
converted by the harness outside the call, :mod:`refbench.kernels.representation`). Paths are relative to the family folder; ``common/runtime.c``
is always linked.

The include path (:attr:`Variant.include_dirs`) is ``common/``, then the family folder, then
the family folder of every other source the variant links, in manifest order: a kernel that
reuses another family's source (hmac linking ``../sha256/sha256_digest.c``) finds that
family's headers by name, with no forwarding header. Every header has a name of its own (no
two folders hold the same name, tests/test_kernels_catalog.py), so no build depends on the
order of the folders; the shared modes (``aes/block_modes.c``, ``gcm/gcm.c``, ``ccm/ccm.c``,
``cmac/cmac.c``) include the cipher header their family names in ``CIPHER_HEADER``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from cortexm_emu.datafile import DataFileError, Field, TomlReader, dotted, locate
from cortexm_emu.toolchain import CPU_FLAGS, Build, build

KERNELS = Path(__file__).resolve().parent
COMMON = KERNELS / "common"

#: Argument roles a kernel function may take, in any order the manifest gives.
#: Buffers are placed in SRAM by the harness; ``*_len`` roles are the byte
#: length of the buffer of the same stem (``len`` is the length of ``in``/``msg``).
ROLES: dict[str, str] = {
    "ctx": "context buffer of `context_bytes`, filled by the setup function (key schedule)",
    "key": "key bytes (input)",
    "key_len": "length of key in bytes",
    "iv": "IV / chaining value, 16 or 8 bytes (input, updated in place for streaming)",
    "counter": "counter block (input, updated in place)",
    "nonce": "nonce bytes (input)",
    "nonce_len": "length of nonce",
    "counter32": "initial 32-bit block counter (integer)",
    "aad": "additional authenticated data (input)",
    "aad_len": "length of aad",
    "msg": "message (input)",
    "in": "input text",
    "len": "length of msg/in (and of out)",
    "out": "output text of the same length as in",
    "digest": "digest output of `output_bytes`",
    "tag": "tag output of `output_bytes`",
    "entropy": "entropy input of a DRBG (input)",
    "entropy_len": "length of entropy",
    "personalization": "personalization string of a DRBG (input)",
    "personalization_len": "length of personalization",
    "out_len": "requested output length in bytes (integer input); `out` then has this length",
    "a": "first multi-precision operand: little-endian bytes, 32-bit limbs least significant first (input; its length is the size)",
    "b": "second operand, the length of `a` (input)",
    "modulus": "modulus, the length of `a` (input; the reference's preparation makes it odd with a non-zero top limb)",
    "limbs": "number of 32-bit limbs of `a` (integer)",
    "r": "result, the length of `a` (output)",
    "exponent": "exponent, the length of `a`, little-endian (input)",
}
#: Roles whose buffers have the length of the measured operand ``a``.
OPERAND_ROLES = ("a", "b", "modulus", "exponent")
@dataclass(frozen=True)
class Operation:
    """One C function: its arguments by role, and the reference it must equal.

    ``setup`` (optional) is a function called once before, e.g. the key
    schedule filling ``ctx``; only ``function`` is timed.
    """

    name: str
    function: str
    args: tuple[str, ...]
    reference: str
    output_bytes: int | None = None
    context_bytes: int | None = None
    setup: str | None = None
    setup_args: tuple[str, ...] = ()


@dataclass(frozen=True)
class Variant:
    family: str
    name: str
    trades: str
    sources: tuple[Path, ...]
    defines: tuple[str, ...] = ()
    #: cores the variant can be built for (None: every core)
    cores: tuple[str, ...] | None = None
    #: operations the variant computes whole in its own code rather than as a sequence of its other
    #: operations' calls (e.g. the X25519 ladder in assembly): priced by their own measurement
    whole: tuple[str, ...] = ()
    #: fields whose elements the variant's operations take and return in its own limbs: (field,
    #: bits per limb) pairs (refbench.kernels.representation)
    limbs: tuple[tuple[str, int], ...] = ()

    def supports(self, core: str) -> bool:
        return self.cores is None or core in self.cores

    def check_core(self, core: str) -> None:
        """ValueError naming the variant, the core and the cores it supports, if it cannot run there."""
        if not self.supports(core):
            raise ValueError(f"Invalid core ({core!r}) for kernel variant {self.path}; "
                             f"accepted: {', '.join(self.cores or ())} (its manifest's cores)")

    @property
    def path(self) -> str:
        """The variant's identity, ``family/variant`` (its folder)."""
        return f"{self.family}/{self.name}"

    @property
    def include_dirs(self) -> tuple[Path, ...]:
        """``common/``, the family folder, then the family folders of the other sources, in order."""
        folders = [COMMON, KERNELS / self.family]
        for source in self.sources:
            folder = family_folder(source)
            if folder not in folders:
                folders.append(folder)
        return tuple(folders)


def family_folder(source: Path) -> Path:
    """The family folder (``refbench/kernels/<family>``) that holds a kernel source."""
    parts = source.resolve().parts
    if parts[: len(KERNELS.parts)] != KERNELS.parts or len(parts) < len(KERNELS.parts) + 2:
        raise ValueError(f"Kernel source {source} is not inside a family folder of {KERNELS}")
    return KERNELS / parts[len(KERNELS.parts)]


#: A preprocessor definition as a manifest may give it: NAME or NAME=VALUE (no spaces).
DEFINE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(=\S+)?")


@dataclass(frozen=True)
class Family:
    name: str
    standard: str
    folder: Path
    operations: tuple[Operation, ...]
    variants: dict[str, Variant]

    def variant(self, name: str) -> Variant:
        try:
            return self.variants[name]
        except KeyError:
            raise ValueError(
                f"Unknown variant {name!r} of kernel {self.name!r}; valid: {', '.join(self.variants)}"
            ) from None


def load_family(manifest: Path) -> Family:
    """Read and check one ``kernel.toml``; errors name file, line and field (the line of the field
    itself: :func:`cortexm_emu.datafile.locate`)."""
    reader = TomlReader.load(manifest, kind="kernel manifest")
    data, folder = reader.data, manifest.parent

    def fail(field: Field, problem: str, text: Any = "") -> DataFileError:
        return DataFileError(str(manifest), locate(reader.lines, field), dotted(field), problem, text)

    def need(table: dict, key: str, kind: type, where: Field = ()):
        if key not in table:
            raise DataFileError(str(manifest), locate(reader.lines, where), dotted((*where, key)), "missing")
        if not isinstance(table[key], kind):
            raise fail((*where, key), f"must be a {kind.__name__}", repr(table[key]))
        return table[key]

    def paths(items: list, where: Field) -> tuple[Path, ...]:
        out = []
        for item in items:
            path = folder / item
            if not path.is_file():
                raise fail(where, "names a file that does not exist", item)
            out.append(path)
        return tuple(out)

    name = need(data, "family", str)
    if name != folder.name:
        raise fail(("family",), f"must equal the folder name {folder.name!r}", name)
    shared = paths(data.get("sources", []), ("sources",))

    def roles(op: dict, key: str, where: Field) -> tuple[str, ...]:
        listed = tuple(need(op, key, list, where))
        for role in listed:
            if role not in ROLES:
                raise fail((*where, key), f"unknown role; valid: {', '.join(ROLES)}", role)
        return listed

    operations = []
    for i, op in enumerate(need(data, "operations", list)):
        where: Field = ("operations", i)
        setup = op.get("setup")
        operations.append(
            Operation(
                name=need(op, "name", str, where),
                function=need(op, "function", str, where),
                args=roles(op, "args", where),
                reference=need(op, "reference", str, where),
                output_bytes=op.get("output_bytes"),
                context_bytes=op.get("context_bytes"),
                setup=setup,
                setup_args=roles(op, "setup_args", where) if setup else (),
            )
        )

    def defines(v: dict, where: Field) -> tuple[str, ...]:
        listed = tuple(need(v, "defines", list, where)) if "defines" in v else ()
        for item in listed:
            if not isinstance(item, str) or not DEFINE.fullmatch(item):
                raise fail((*where, "defines"), "must be NAME or NAME=VALUE (a C identifier, no spaces)", repr(item))
        return listed

    def limbs(v: dict, where: Field) -> tuple[tuple[str, int], ...]:
        from refbench.kernels.references import FIELDS

        table = need(v, "limbs", dict, where) if "limbs" in v else {}
        for field, bits in table.items():
            if field not in FIELDS:
                raise fail((*where, "limbs", field), f"unknown field; valid: {', '.join(FIELDS)}", field)
            if not isinstance(bits, int) or isinstance(bits, bool) or not 1 <= bits <= 31:
                raise fail((*where, "limbs", field), "must be the bits per limb, an integer from 1 to 31", repr(bits))
        return tuple(table.items())

    shared_defines = defines(data, ())
    variants = {}
    for vname, v in need(data, "variants", dict).items():
        where = ("variants", vname)
        sources = shared + paths(need(v, "sources", list, where), (*where, "sources"))
        cores = None
        if "cores" in v:
            cores = tuple(need(v, "cores", list, where))
            for core in cores:
                if core not in CPU_FLAGS:
                    raise fail((*where, "cores"), f"unknown core; valid: {', '.join(CPU_FLAGS)}", core)
        whole = tuple(need(v, "whole", list, where)) if "whole" in v else ()
        for op_name in whole:
            if not isinstance(op_name, str) or op_name not in {op.name for op in operations}:
                raise fail((*where, "whole"), f"names no operation of the family; valid: "
                           f"{', '.join(op.name for op in operations)}", repr(op_name))
        variants[vname] = Variant(name, vname, need(v, "trades", str, where), sources,
                                  shared_defines + defines(v, where), cores, whole, limbs(v, where))
    return Family(name, need(data, "standard", str), folder, tuple(operations), variants)


@cache
def families() -> dict[str, Family]:
    """Every family of the catalogue, by name."""
    return {f.name: f for f in (load_family(m) for m in sorted(KERNELS.glob("*/kernel.toml")))}


def family(name: str) -> Family:
    try:
        return families()[name]
    except KeyError:
        raise ValueError(f"Unknown kernel {name!r}; valid: {', '.join(families())}") from None


def build_variant(variant: Variant, core: str, *, opt: str = "Os", compiler: str = "zig",
                  linker_script: Path | None = None) -> Build:
    """Compile one variant for one core; only its operations' functions are kept.

    A core outside the variant's manifest ``cores`` is a ValueError (e.g. UMAAL on a Cortex-M3).
    The process remembers each build (see :func:`forget_builds`).
    """
    variant.check_core(core)
    key = (variant.family, variant.name, variant.defines, core, opt, compiler, linker_script, _source_state(variant))
    if key not in _BUILDS or not _BUILDS[key].elf.exists():  # a build cache cleared meanwhile
        _BUILDS[key] = _build_variant(variant, core, opt, compiler, linker_script)
    return _BUILDS[key]


#: Builds of this process by variant, target and the state of the files they read: a report asks
#: for the same variant once per memory configuration, and each ask would otherwise check the build
#: cache and hash the sources again.
_BUILDS: dict[tuple[Any, ...], Build] = {}


def forget_builds() -> None:
    """Forget the builds this process remembers: the next :func:`build_variant` of each variant
    asks the build cache (``$CORTEXM_EMU_CACHE``) again, e.g. after that cache was moved or
    cleaned, so its warnings and its writes happen as in a new process."""
    _BUILDS.clear()


def source_digest(variant: Variant) -> str:
    """SHA-256 of what a build of the variant reads, whatever the compiler: its defines, its
    sources, the shared runtime, the headers of its include folders and the files those include by
    name (:func:`_read_paths`; paths relative to the kernels folder). Derived data measured on the
    variant names it (refbench/derived/)."""
    import hashlib

    digest = hashlib.sha256(" ".join(variant.defines).encode() + b"\0")
    for path in _read_paths(variant):
        digest.update(str(path.relative_to(KERNELS)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def _source_state(variant: Variant) -> tuple[tuple[str, int, int], ...]:
    """(path, mtime, size) of every file a build of the variant reads (:func:`_read_paths`): an edited
    kernel is rebuilt even within one process."""
    return tuple((str(p), (s := p.stat()).st_mtime_ns, s.st_size) for p in _read_paths(variant))


_QUOTED_INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.MULTILINE)


def _read_paths(variant: Variant) -> list[Path]:
    """Every file a build of the variant reads: its sources, the shared runtime, the headers of its
    include folders, and what those include by name that is not a header there (e.g. a source that
    includes another variant's ``.c``, or an assembly file another ``.S``), followed transitively."""
    paths = [Path(p).resolve() for p in (*variant.sources, COMMON / "runtime.c",
                                           *(h for d in variant.include_dirs for h in sorted(Path(d).glob("*.h"))))]
    seen = dict.fromkeys(paths)
    queue = list(paths)
    while queue:
        path = queue.pop()
        for name in _QUOTED_INCLUDE.findall(path.read_text(encoding="utf-8", errors="replace")):
            found = next((c.resolve() for d in (path.parent, *variant.include_dirs)
                          if (c := Path(d) / name).is_file()), None)
            if found is not None and found not in seen:
                seen[found] = None
                queue.append(found)
    return list(seen)


def _build_variant(variant: Variant, core: str, opt: str, compiler: str, linker_script: Path | None) -> Build:
    fam = family(variant.family)
    return build(
        [*variant.sources, COMMON / "runtime.c"],
        core,
        opt=opt,  # type: ignore[arg-type]
        compiler=compiler,  # type: ignore[arg-type]
        linker_script=linker_script,
        extra_flags=[f"-D{d}" for d in variant.defines],
        include_dirs=variant.include_dirs,
        exports=sorted({name for op in fam.operations for name in (op.function, op.setup) if name}),
    )
