"""Library-faithful workloads: which kernel variants a library ships, from its documented build
options (``libraries.toml``, cited per entry), and which option a section's build used.

:func:`load_libraries` reads the table; :func:`library_of` finds a figure's library;
:func:`stated_options` reads what a page says of its build (wolfCrypt's benchmark prints the
GHASH option in its GMAC row: "GMAC Small" is GCM_SMALL for every GCM row of that section);
:func:`candidates` keeps, of the catalogue variants that compute a figure's operation, those
the library can be built with (only the stated one when the section names it) and labels each
with the library option ("wolfSSL GCM_SMALL"). A kernel family the library has no entry for
keeps every variant, unlabelled.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cortexm_emu.datafile import error_at, read_toml
from refbench.inputs.build import stated_kernel_options
from refbench.published.model import Figure

LIBRARIES_PATH = Path(__file__).with_name("libraries.toml")


@dataclass(frozen=True)
class KernelOptions:
    """A library's build options for one kernel family: option name -> kernel variant."""

    kernel: str
    options: dict[str, str]
    default: str
    source: str
    labels: dict[str, str]  # what the library's benchmark prints -> option
    #: option -> the first library version that has it (an option not listed: every version)
    since: dict[str, str] = field(default_factory=dict)

    def shipped(self, version: str) -> dict[str, str]:
        """The options a build of ``version`` can have: those introduced at or before it (every
        option when the version cannot be read as dotted numbers)."""
        have = _version(version)
        if have is None:
            return dict(self.options)
        return {name: v for name, v in self.options.items()
                if name not in self.since or have >= (_version(self.since[name]) or ())}


@dataclass(frozen=True)
class Library:
    """One library: its name (a figure's library starts with it), closed or not, its options."""

    key: str
    name: str
    closed: bool
    kernels: dict[str, KernelOptions]


def _version(text: str) -> tuple[int, ...] | None:
    """"5.6.4" -> (5, 6, 4); the first dotted number of ``text``, or None when there is none."""
    match = re.search(r"\d+(?:\.\d+)+", text)
    return tuple(int(p) for p in match.group(0).split(".")) if match else None


def _require(path: Path, where: str, table: dict[str, Any], field: str, kind: type) -> Any:
    value = table.get(field)
    if not isinstance(value, kind) or (kind is not bool and isinstance(value, bool)):
        raise error_at(path, f"{where}.{field}", f"expected {kind.__name__}, got {value!r}")
    return value


def load_libraries(path: Path = LIBRARIES_PATH) -> dict[str, Library]:
    """The libraries of ``path`` by table key; a missing or mistyped field raises DataFileError naming
    the file, line and field."""
    _, data = read_toml(path, kind="libraries file")
    out: dict[str, Library] = {}
    for key, table in data.items():
        if not isinstance(table, dict):
            raise error_at(path, (key,), "expected a table")
        kernels: dict[str, KernelOptions] = {}
        for kernel, spec in table.get("kernels", {}).items():
            where = f"{key}.kernels.{kernel}"
            options = _require(path, where, spec, "options", dict)
            default = _require(path, where, spec, "default", str)
            if default not in options:
                raise error_at(path, f"{where}.default", f"{default!r} is not one of the options {sorted(options)}")
            labels = spec.get("labels", {})
            unknown = [label for label, option in labels.items() if option not in options]
            if unknown:
                raise error_at(path, f"{where}.labels", f"{', '.join(unknown)} name no option")
            since = spec.get("since", {})
            bad = [name for name, v in since.items() if name not in options or not isinstance(v, str) or _version(v) is None]
            if bad:
                raise error_at(path, f"{where}.since", f"{', '.join(bad)}: expected an option -> a version "
                               "such as \"4.6.0\"")
            kernels[kernel] = KernelOptions(kernel, dict(options), default, _require(path, where, spec, "source", str),
                                            dict(labels), dict(since))
        out[key] = Library(key, _require(path, key, table, "library", str), _require(path, key, table, "closed", bool),
                           kernels)
    return out


LIBRARIES = load_libraries()


def library_of(f: Figure, libraries: dict[str, Library] = LIBRARIES) -> Library | None:
    """The library of figure ``f`` (its library name starts with the table's ``library``)."""
    return next((lib for lib in libraries.values() if f.library.startswith(lib.name)), None)


def closed_library(f: Figure | str, libraries: dict[str, Library] = LIBRARIES) -> bool:
    """True when the library of figure ``f`` (or the library name ``f``, e.g. "ST CMOX
    (X-CUBE-CRYPTOLIB)") is closed (``closed = true`` in libraries.toml): its code is not public
    and may be hand-written assembly, so our C or composed costs bound it from neither side."""
    name = f if isinstance(f, str) else f.library
    lib = next((lib for lib in libraries.values() if name.startswith(lib.name)), None)
    return lib is not None and lib.closed


#: (source, section) -> {kernel family: option} stated by the page for that section's build
StatedOptions = dict[tuple[str, str], dict[str, str]]


def stated_options(figures: Iterable[Figure], libraries: dict[str, Library] = LIBRARIES) -> StatedOptions:
    """The options each section's page text names: a GMAC row's label ("GMAC Small": the figure's
    mode "Small") names the GHASH option of the whole section's build; a figure of a user's input
    carries the options stated with ``--option`` in its config."""
    out: StatedOptions = {}
    for f in figures:
        lib = library_of(f, libraries)
        gcm = lib.kernels.get("gcm") if lib else None
        if gcm is not None and f.algorithm == "GMAC" and f.mode in gcm.labels:
            out.setdefault((f.source, f.section), {})["gcm"] = gcm.labels[f.mode]
        # a user's input: the options stated with --option (refbench.inputs.build), in its config;
        # a GMAC row of the log itself names what the build used and wins
        for name in stated_kernel_options(f.config) if lib else ():
            kernel = next((k for k, spec in lib.kernels.items() if name in spec.options), None)
            if kernel is not None:
                out.setdefault((f.source, f.section), {}).setdefault(kernel, name)
    return out


def candidates(f: Figure, operations: Iterable[tuple[str, str, str]], stated: StatedOptions | None = None,
               libraries: dict[str, Library] = LIBRARIES) -> tuple[tuple[tuple[str, str, str], ...], dict[tuple[str, str], str]]:
    """Of ``operations`` (kernel, variant, operation), those figure ``f``'s library can be built
    with, and the label of each kept variant ("wolfSSL GCM_SMALL"; "(stated by the page)" when
    the section names the option)."""
    lib = library_of(f, libraries)
    ops = tuple(operations)
    if lib is None:
        return ops, {}
    said = (stated or {}).get((f.source, f.section), {})
    kept: list[tuple[str, str, str]] = []
    labels: dict[tuple[str, str], str] = {}
    for kernel, variant, operation in ops:
        spec = lib.kernels.get(kernel)
        if spec is None:
            kept.append((kernel, variant, operation))
            continue
        names = [name for name, v in spec.shipped(f.version).items() if v == variant]
        if not names:
            continue  # a variant the library (this version of it) does not ship
        if kernel in said and said[kernel] not in names:
            continue  # the page names another option for this build
        name = said[kernel] if kernel in said else names[0]
        note = " (stated by the page)" if kernel in said else ""
        kept.append((kernel, variant, operation))
        labels[(kernel, variant)] = f"{lib.name} {name}{note}"
    return tuple(kept), labels
