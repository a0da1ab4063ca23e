"""The kernel catalogue: every ``refbench/kernels/<family>/kernel.toml``.

A manifest names the family's standard, the sources shared by its variants,
its *operations* (C function, operation kind, and the reference it must
equal) and its *variants* (sub-folders named for what they trade, as in
pqm4). The generic harness (:mod:`refbench.kernels.harness`) calls any
operation from these facts alone: there is no per-kernel Python glue.

Manifest fields
---------------
``family`` (str), ``standard`` (str), ``sources`` (list of paths, optional),
``[[operations]]`` with ``name``, ``kind`` (one of :data:`KINDS`),
``function``, ``reference``, and ``[variants.<name>]`` with ``sources`` and
``trades``. Paths are relative to the family folder; ``common/`` is always
on the include path and ``common/runtime.c`` always linked.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from cortexm_emu.toolchain import Build, build

from refbench.errors import DataFileError

KERNELS = Path(__file__).resolve().parent
COMMON = KERNELS / "common"

#: Operation kinds the harness knows, with their C signatures.
KINDS: dict[str, str] = {
    "hash": "void f(const uint8_t *msg, uint32_t len, uint8_t *digest)",
    "stream": "void f(const uint8_t key[32], const uint8_t nonce[12], uint32_t counter, const uint8_t *in, uint8_t *out, uint32_t len)",
}


@dataclass(frozen=True)
class Operation:
    name: str
    kind: str
    function: str
    reference: str


@dataclass(frozen=True)
class Variant:
    family: str
    name: str
    trades: str
    sources: tuple[Path, ...]

    @property
    def path(self) -> str:
        """The variant's identity, ``family/variant`` (its folder)."""
        return f"{self.family}/{self.name}"


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


def _line_of(text: str, key: str) -> int | None:
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip().startswith(f"{key} ") or line.strip().startswith(f"{key}=") or line.strip() == f"[variants.{key}]":
            return number
    return None


def load_family(manifest: Path) -> Family:
    """Read and check one ``kernel.toml``; errors name file, line and field."""
    text = manifest.read_text(encoding="utf-8")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DataFileError(str(manifest), getattr(exc, "lineno", None), None, f"invalid TOML: {exc}") from None
    folder = manifest.parent

    def need(table: dict, key: str, kind: type, where: str = ""):
        if key not in table:
            raise DataFileError(str(manifest), None, f"{where}{key}", "missing")
        if not isinstance(table[key], kind):
            raise DataFileError(str(manifest), _line_of(text, key), f"{where}{key}", f"must be a {kind.__name__}", repr(table[key]))
        return table[key]

    def paths(items: list, where: str) -> tuple[Path, ...]:
        out = []
        for item in items:
            path = folder / item
            if not path.is_file():
                raise DataFileError(str(manifest), _line_of(text, "sources"), where, "names a file that does not exist", item)
            out.append(path)
        return tuple(out)

    name = need(data, "family", str)
    if name != folder.name:
        raise DataFileError(str(manifest), _line_of(text, "family"), "family", f"must equal the folder name {folder.name!r}", name)
    shared = paths(data.get("sources", []), "sources")
    operations = []
    for i, op in enumerate(need(data, "operations", list)):
        where = f"operations[{i}]."
        kind = need(op, "kind", str, where)
        if kind not in KINDS:
            raise DataFileError(str(manifest), _line_of(text, "kind"), f"{where}kind", f"unknown kind; valid: {', '.join(KINDS)}", kind)
        operations.append(Operation(need(op, "name", str, where), kind, need(op, "function", str, where), need(op, "reference", str, where)))
    variants = {}
    for vname, v in need(data, "variants", dict).items():
        where = f"variants.{vname}."
        variants[vname] = Variant(name, vname, need(v, "trades", str, where), shared + paths(need(v, "sources", list, where), f"{where}sources"))
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
    """Compile one variant for one core; only its operations' functions are kept."""
    fam = family(variant.family)
    return build(
        [*variant.sources, COMMON / "runtime.c"],
        core,
        opt=opt,  # type: ignore[arg-type]
        compiler=compiler,  # type: ignore[arg-type]
        linker_script=linker_script,
        include_dirs=[COMMON, fam.folder],
        exports=[op.function for op in fam.operations],
    )
