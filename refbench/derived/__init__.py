"""Derived data: what a refbench command computes and the product ships, in one place, each file
keyed by what produced it.

* ``compiler_bands.json``: cycles of each kernel variant built by both compilers at each level
  (:mod:`refbench.sanity.compiler_band`), the compiler allowance of the emulated rule;
* ``pubkey_composition.toml``: whole public-key operations against their composition
  (:mod:`refbench.sanity.pubkey_whole`), the composition bound.
* ``model_spreads.json``: cycles of each kernel variant at both documented ends of each
  undocumented two-ended timing rule (:mod:`refbench.sanity.model_spread`), the core-model term
  on cores without held-out rows.

A file's key (:func:`key_of`) names the timing-model version of every core it measured on, the
source digest of every kernel variant it measured (:func:`refbench.kernels.catalog.source_digest`)
and the version of every compiler it built with. :func:`stale` compares a stored key with the
current one; ``tests/test_derived.py`` fails while any part differs, and
``python -m refbench.derived`` measures again what changed and rewrites the files.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from cortexm_emu.datafile import DataFileError, line_matching

DERIVED = Path(__file__).resolve().parent

#: Key part of a compiler that is not installed: its builds cannot be checked here.
NOT_INSTALLED = "not installed"


def key_of(cores: Iterable[str], variants: Iterable[str], compilers: Iterable[str]) -> dict[str, dict[str, str]]:
    """The key of data measured on ``cores`` ("m4" ...), ``variants`` ("aes/ttable4" ...) and
    ``compilers`` ("zig", "gcc")."""
    from cortexm_emu.timing.registry import model_for
    from cortexm_emu.toolchain import ToolchainError, compiler_version
    from refbench.kernels.catalog import family, source_digest

    def version(compiler: str) -> str:
        try:
            return compiler_version(compiler)  # type: ignore[arg-type]
        except (ToolchainError, OSError):
            return NOT_INSTALLED

    return {
        "timing_models": {core: str(model_for(core).version) for core in sorted(set(cores))},
        "kernels": {name: source_digest(family(name.split("/")[0]).variant(name.split("/")[1]))
                    for name in sorted(set(variants))},
        "compilers": {compiler: version(compiler) for compiler in sorted(set(compilers))},
    }


def stale(stored: dict[str, Any] | None, current: dict[str, dict[str, str]]) -> list[str]:
    """What differs between a file's stored key and the current one, one phrase each ("timing model
    m4: 7 -> 8"); empty when the data is current. A compiler not installed here is not compared."""
    if not isinstance(stored, dict):
        return ["the file has no key (what produced it is not recorded)"]
    out = []
    for part, names in current.items():
        kept = stored.get(part) if isinstance(stored.get(part), dict) else {}
        for name, value in names.items():
            if part == "compilers" and value == NOT_INSTALLED:
                continue
            if kept.get(name) != value:
                out.append(f"{part} {name}: {kept.get(name, 'absent')} -> {value}")
    return out


def changed_names(stored: dict[str, Any] | None, current: dict[str, dict[str, str]]) -> set[tuple[str, str]]:
    """(part, name) of every key entry that differs (all of them when there is no stored key)."""
    kept = stored if isinstance(stored, dict) else {}
    return {(part, name) for part, names in current.items() for name, value in names.items()
            if not isinstance(kept.get(part), dict) or kept[part].get(name) != value}


def read_cycles(path: Path) -> tuple[dict[str, Any], list[str]]:
    """The ``cycles`` object of a derived JSON table (compiler bands, model spreads) and the file's
    lines, for its reader to check each entry; ``({}, [])`` when the file is absent. A file that is
    not JSON or has no ``cycles`` object raises DataFileError naming the file, line and field."""
    if not path.exists():
        return {}, []
    text = path.read_text(encoding="utf-8")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise DataFileError(path, exc.lineno, None, f"not valid JSON: {exc.msg}") from exc
    lines = text.splitlines()
    table = data.get("cycles")
    if not isinstance(table, dict):
        raise DataFileError(path, line_matching(lines, r'"cycles"\s*:'), "cycles", "expected an object of measurements")
    return table, lines


def entry_line(lines: list[str], entry: str) -> int | None:
    """The line of ``entry``'s key in a derived JSON table read by :func:`read_cycles`."""
    return line_matching(lines, re.escape(json.dumps(entry)) + r"\s*:")


def stored_key_of(path: Path) -> dict | None:
    """The key a derived JSON table was written with, or None when the file is absent."""
    if not path.exists():
        return None
    return json.loads(path.read_text(encoding="utf-8")).get("key")
