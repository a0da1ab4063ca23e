"""Tests state what they need through parameters, fixtures and public functions, not by replacing
a module's private globals (which bind a test to how a module keeps its state)."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent

#: The MonkeyPatch methods that replace or remove something: (target or "module.name") and a name,
#: or a mapping and a key.
PATCHING = ("setattr", "delattr", "setitem", "delitem")


def _private(dotted: str) -> bool:
    return any(part.startswith("_") and not part.startswith("__") for part in dotted.split("."))


def private_patches(source: str) -> set[str]:
    """What every ``<monkeypatch>.setattr/delattr/setitem/delitem`` in ``source`` replaces or removes
    when a part of its dotted name is private (``catalog._BUILDS``, ``"a.b._c"``, ``obj._cache``),
    whatever the MonkeyPatch object is called."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in PATCHING
                and isinstance(node.func.value, ast.Name) and node.args):
            continue
        first = node.args[0]
        if isinstance(first, ast.Constant) and isinstance(first.value, str):
            dotted = first.value
        elif (node.func.attr in ("setattr", "delattr") and len(node.args) > 1
              and isinstance(node.args[1], ast.Constant) and isinstance(node.args[1].value, str)):
            dotted = f"{ast.unparse(first)}.{node.args[1].value}"
        else:
            dotted = ast.unparse(first)
        if _private(dotted):
            found.add(dotted)
    return found


def test_a_private_patch_is_found() -> None:
    source = """
monkeypatch.setattr(band, "_BANDS", {})
monkeypatch.setattr("a.b._c", 1)
patch.delattr(machine_module, "_hook")
monkeypatch.setitem(catalog._BUILDS, key, build)
monkeypatch.setattr(harness._state.table, "rows", [])
monkeypatch.setattr(band, "bands", dict)
monkeypatch.setitem(references.REFERENCES, "x", len)
monkeypatch.setattr(Path, "__fspath__", str)
monkeypatch.setenv("_PRIVATE_LOOKING", "1")
"""
    assert private_patches(source) == {"band._BANDS", "a.b._c", "machine_module._hook", "catalog._BUILDS",
                                       "harness._state.table.rows"}


def test_no_test_replaces_a_private_name() -> None:
    """Tests state what they need through public functions, parameters and fixtures."""
    found = sorted(f"{path.relative_to(TESTS)}: {dotted}" for path in sorted(TESTS.rglob("*.py"))
                   for dotted in private_patches(path.read_text(encoding="utf-8")))
    assert not found, "tests replace private names of the product:\n" + "\n".join(found)
