"""Tests state what they need through parameters, fixtures and public functions, not by replacing
a module's private globals (which bind a test to how a module keeps its state)."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent

#: Private names tests still replace, each with its reason. A new one fails the test below.
REMAINING = {
    ("test_cache_faults.py", "refbench.kernels.catalog._BUILDS"): "the builds of earlier tests in this process "
    "(refbench/kernels is edited by other changes in this wave)",
}


def private_patches(source: str) -> set[str]:
    """``target.name`` of every ``monkeypatch.setattr`` in ``source`` whose attribute is private."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "setattr"
                and isinstance(node.func.value, ast.Name) and node.func.value.id == "monkeypatch" and node.args):
            continue
        first = node.args[0]
        if isinstance(first, ast.Constant) and isinstance(first.value, str):
            dotted = first.value
        elif len(node.args) > 1 and isinstance(node.args[1], ast.Constant) and isinstance(node.args[1].value, str):
            dotted = f"{ast.unparse(first)}.{node.args[1].value}"
        else:
            continue
        if dotted.rsplit(".", 1)[-1].startswith("_") and not dotted.rsplit(".", 1)[-1].startswith("__"):
            found.add(dotted)
    return found


def test_a_private_patch_is_found() -> None:
    assert private_patches('monkeypatch.setattr(band, "_BANDS", {})\nmonkeypatch.setattr("a.b._c", 1)\n'
                           'monkeypatch.setattr(band, "bands", dict)\n') == {"band._BANDS", "a.b._c"}


def test_no_test_replaces_a_private_global_without_a_reason() -> None:
    found = {(path.name, dotted) for path in sorted(TESTS.glob("*.py"))
             for dotted in private_patches(path.read_text(encoding="utf-8"))}
    assert found == set(REMAINING), sorted(found ^ set(REMAINING))
