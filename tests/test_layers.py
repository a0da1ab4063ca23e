"""The layers of the two packages, read from the source with :mod:`ast` (nothing is imported).

* no import cycle between modules of ``refbench`` and ``cortexm_emu``;
* ``cortexm_emu`` imports nothing of ``refbench`` (the emulator knows nothing about crypto);
* ``refbench.ref`` (the pure-Python references, the bottom layer) reaches only itself and
  ``refbench.errors``: every other import is stdlib or third-party;
* no Python file of the two packages is over :data:`MAX_LINES` lines unless
  :data:`LONG_FILES` lists it with its reason.

Every ``import`` and ``from ... import`` counts, at module level and inside functions, and so
does ``importlib.import_module("constant.name")``. An import under ``if TYPE_CHECKING:`` counts
for the layer rules (it is still a dependency of the design) but not for cycles (it runs only
under a type checker, so it is the usual way to break an import-time cycle for annotations).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES: tuple[str, ...] = ("refbench", "cortexm_emu")
MAX_LINES = 600

#: Files allowed over MAX_LINES, each with its reason (path relative to the repository root).
LONG_FILES: dict[str, str] = {
    "refbench/sanity/pubkey_cost.py": "the cost of every public-key method a library uses (windows, combs, ladders, "
    "exponentiations with and without CRT, table-less small builds, constant-time table scans), one function "
    "each beside its count",
    "refbench/published/transcribe.py": "one page-format parser per published source, each read beside "
    "its page; splitting scatters the five small parsers over five files",
    "refbench/ref/modes.py": "the teaching reference of every block mode (ECB, CBC, CTR, GCM, GMAC, CCM, "
    "CMAC) beside SP 800-38A to 38D, one mode per section, each short",
    "refbench/measure.py": "the measurement record, its cache and the measurer: one self-describing "
    "record type and the code that writes and reads it",
    "cortexm_emu/machine.py": "the Machine: its Unicorn hooks, the run loop in slices and the call that reads "
    "their state back share one object; the parts that stand alone are already their own modules",
}

#: What the reference layer may import of refbench besides itself.
REF_LAYER = "refbench.ref"
REF_MAY_IMPORT: frozenset[str] = frozenset({"refbench.errors"})


@dataclass(frozen=True)
class Import:
    """One import of module ``source`` (file:line) naming ``target`` (a module of ours)."""

    source: str
    target: str
    file: str  # relative to the root
    line: int
    type_only: bool

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.source} -> {self.target}" + (" (type-only)" if self.type_only else "")


def module_name(path: Path, root: Path) -> str:
    """``refbench/sanity/rules.py`` -> ``refbench.sanity.rules``; a package's ``__init__.py`` -> the package."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def find_modules(root: Path, packages: tuple[str, ...]) -> dict[str, Path]:
    """Every module of ``packages`` under ``root``, by dotted name."""
    modules = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            if "__pycache__" not in path.parts:
                modules[module_name(path, root)] = path
    return modules


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _import_nodes(tree: ast.AST) -> Iterator[tuple[ast.AST, bool]]:
    """Every import-like node of ``tree`` at any depth, and whether it sits under ``if TYPE_CHECKING:``."""
    stack: list[tuple[ast.AST, bool]] = [(tree, False)]
    while stack:
        node, type_only = stack.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom, ast.Call)):
            yield node, type_only
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            stack.extend((child, True) for child in node.body)
            stack.extend((child, type_only) for child in node.orelse)
            continue
        stack.extend((child, type_only) for child in ast.iter_child_nodes(node))


def _dynamic_name(call: ast.Call) -> str | None:
    """The constant module name of ``importlib.import_module("x.y")`` / ``import_module("x.y")``."""
    func = call.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None
    if name not in ("import_module", "__import__") or not call.args:
        return None
    first = call.args[0]
    return first.value if isinstance(first, ast.Constant) and isinstance(first.value, str) else None


def _ours(name: str, modules: dict[str, Path]) -> str | None:
    """The module of ours that importing ``name`` names: the longest known prefix of it."""
    parts = name.split(".")
    for end in range(len(parts), 0, -1):
        candidate = ".".join(parts[:end])
        if candidate in modules:
            return candidate
    return None


def imports_of(source: str, path: Path, modules: dict[str, Path], root: Path) -> list[Import]:
    """The imports of module ``source`` (file ``path`` under ``root``) that name modules of ours."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = source if path.name == "__init__.py" else source.rpartition(".")[0]
    found = []
    for node, type_only in _import_nodes(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            # ``from pkg import sub`` names the submodule when there is one, else pkg itself
            names = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base for alias in node.names]
        elif isinstance(node, ast.Call):
            dynamic = _dynamic_name(node)
            names = [dynamic] if dynamic else []
        for name in names:
            target = _ours(name, modules)
            if target is None:
                continue
            # importing a.b.c runs a/__init__.py and a/b/__init__.py first: an edge to each package,
            # except to a package of the importer's own (already running when the importer runs); a
            # name taken from the importer's own package (``from p import name`` in p.a) is an edge
            # to that package: p/__init__.py must have run to define it
            parents = [".".join(target.split(".")[:end]) for end in range(1, target.count(".") + 1)]
            for reached in (*parents, target):
                own_package = source.startswith(reached + ".") and reached != target
                if reached in modules and reached != source and not own_package:
                    found.append(Import(source, reached, path.relative_to(root).as_posix(), node.lineno, type_only))
    return found


def import_graph(root: Path = ROOT, packages: tuple[str, ...] = PACKAGES) -> list[Import]:
    modules = find_modules(root, packages)
    return [imp for name, path in modules.items() for imp in imports_of(name, path, modules, root)]


def cycles(edges: list[Import]) -> list[list[Import]]:
    """One cycle (as its imports, closing on the first module) per strongly connected component
    of more than one module (Tarjan's algorithm), ignoring type-only imports."""
    graph: dict[str, dict[str, Import]] = {}
    for edge in edges:
        if not edge.type_only:
            graph.setdefault(edge.source, {}).setdefault(edge.target, edge)
            graph.setdefault(edge.target, {})
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    components: list[list[str]] = []

    def connect(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                connect(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                components.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            connect(node)
    return [_cycle_through(component, graph) for component in sorted(components)]


def _cycle_through(component: list[str], graph: dict[str, dict[str, Import]]) -> list[Import]:
    """The shortest cycle from the component's first module back to it (breadth-first)."""
    start, members = component[0], set(component)
    previous: dict[str, Import] = {}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for nxt, edge in sorted(graph[node].items()):
                if nxt not in members or nxt in previous:
                    continue
                previous[nxt] = edge
                if nxt == start:
                    path = [edge]
                    while path[0].source != start:
                        path.insert(0, previous[path[0].source])
                    return path
                following.append(nxt)
        frontier = following
    raise AssertionError(f"no cycle through {start} in its component {component}")


def line_count(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def describe(cycle: list[Import]) -> str:
    return " -> ".join([cycle[0].source, *(edge.target for edge in cycle)]) + "\n" + "\n".join(
        f"    {edge}" for edge in cycle
    )


# --------------------------------------------------------------------------- the rules


@pytest.fixture(scope="module")
def graph() -> list[Import]:
    return import_graph()


def test_no_import_cycle(graph: list[Import]) -> None:
    found = cycles(graph)
    assert not found, f"{len(found)} import cycle(s):\n" + "\n".join(describe(c) for c in found)


def test_cortexm_emu_imports_nothing_of_refbench(graph: list[Import]) -> None:
    bad = [edge for edge in graph if edge.source.split(".")[0] == "cortexm_emu" and edge.target.split(".")[0] == "refbench"]
    assert not bad, "cortexm_emu must know nothing about refbench:\n" + "\n".join(map(str, bad))


def test_references_import_only_references_and_errors(graph: list[Import]) -> None:
    """Followed through every module the references reach, so ``refbench.errors`` is held to it too."""

    def in_ref(name: str) -> bool:
        return name == REF_LAYER or name.startswith(REF_LAYER + ".")

    def allowed(name: str) -> bool:
        return in_ref(name) or name in REF_MAY_IMPORT

    reached = {name for name in find_modules(ROOT, PACKAGES) if in_ref(name)}
    frontier = set(reached)
    while frontier:
        frontier = {e.target for e in graph if e.source in frontier and allowed(e.target)} - reached
        reached |= frontier
    bad = [edge for edge in graph if edge.source in reached and not allowed(edge.target)]
    others = ", ".join(sorted(REF_MAY_IMPORT))
    assert not bad, f"{REF_LAYER} may import only itself, {others}, stdlib and third-party:\n" + "\n".join(
        map(str, bad))


def test_no_python_file_over_the_line_limit() -> None:
    modules = find_modules(ROOT, PACKAGES)
    over = {
        path.relative_to(ROOT).as_posix(): line_count(path)
        for path in modules.values()
        if line_count(path) > MAX_LINES and path.relative_to(ROOT).as_posix() not in LONG_FILES
    }
    assert not over, f"Python files over {MAX_LINES} lines (split them, or list them in LONG_FILES with a reason):\n" \
        + "\n".join(f"    {name}: {lines} lines" for name, lines in sorted(over.items(), key=lambda kv: -kv[1]))


def test_long_file_allowances_are_current() -> None:
    """Every LONG_FILES entry names an existing file still over the limit, with a reason."""
    stale = [name for name, reason in LONG_FILES.items()
             if not reason.strip() or not (ROOT / name).is_file() or line_count(ROOT / name) <= MAX_LINES]
    assert not stale, f"LONG_FILES entries without a reason, missing, or now <= {MAX_LINES} lines: {stale}"


# --------------------------------------------------------------------------- the checker itself


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def test_checker_sees_function_level_relative_and_dynamic_imports(tmp_path: Path) -> None:
    _write(tmp_path, {
        "low/__init__.py": "",
        "low/a.py": "import json\n\ndef f():\n    from ..high import b\n",
        "low/c.py": "import importlib\n\ndef g():\n    return importlib.import_module('high.b')\n",
        "low/d.py": "from . import a\nfrom low import c as _\n",
        "high/__init__.py": "from high.b import thing\n",
        "high/b.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from low.d import x\nthing = 1\n",
    })
    edges = {(e.source, e.target, e.line, e.type_only) for e in import_graph(tmp_path, ("low", "high"))}
    assert edges == {
        ("low.a", "high.b", 4, False),  # function-level, relative (two dots from low.a: the root)
        ("low.c", "high.b", 4, False),  # importlib.import_module with a constant name
        ("low.d", "low.a", 1, False),   # from . import a: the submodule
        ("low.d", "low.c", 2, False),
        ("high", "high.b", 1, False),
        ("high.b", "low.d", 3, True),   # under TYPE_CHECKING
        ("low.a", "high", 4, False),    # importing high.b runs high/__init__.py first
        ("low.c", "high", 4, False),
        ("high.b", "low", 3, True),
    }


def test_checker_sees_a_cycle_through_a_package_init(tmp_path: Path) -> None:
    """b.y imports a.z, and importing a.z runs a/__init__.py, which imports a.x, which imports b.y:
    a cycle only when a package's __init__ counts as imported by a submodule's import."""
    _write(tmp_path, {
        "a/__init__.py": "from a.x import f\n",
        "a/z.py": "thing = 1\n",
        "a/x.py": "def f():\n    from b.y import other\n",
        "b/__init__.py": "",
        "b/y.py": "from a.z import thing\nother = 2\n",
    })
    found = cycles(import_graph(tmp_path, ("a", "b")))
    assert [describe(c).splitlines()[0] for c in found] == ["a -> a.x -> b.y -> a"]


def test_checker_sees_a_cycle_between_a_package_init_and_its_own_submodule(tmp_path: Path) -> None:
    """p/__init__.py imports p.a, and p.a takes a name defined in p/__init__.py: a cycle inside
    one package (p.a runs while p is half initialised)."""
    _write(tmp_path, {
        "p/__init__.py": "from p.a import f\nlimit = 3\n",
        "p/a.py": "from p import limit\n\ndef f():\n    return limit\n",
        "p/b.py": "from p import a\n",  # a submodule by name: an edge to p.a, and none to p
    })
    edges = {(e.source, e.target) for e in import_graph(tmp_path, ("p",))}
    assert edges == {("p", "p.a"), ("p.a", "p"), ("p.b", "p.a")}
    found = cycles(import_graph(tmp_path, ("p",)))
    assert [describe(c).splitlines()[0] for c in found] == ["p -> p.a -> p"]


def test_checker_finds_a_cycle_and_ignores_type_only_imports(tmp_path: Path) -> None:
    _write(tmp_path, {
        "p/__init__.py": "",
        "p/rules.py": "from p.emulated import run\n",
        "p/emulated.py": "def run():\n    from p import rules\n",
        "p/typed.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from p.rules import x\n",
        "p/other.py": "from p.typed import y\n",
    })
    _write(tmp_path, {"p/rules.py": "from p.emulated import run\nfrom p.other import z\n"})
    found = cycles(import_graph(tmp_path, ("p",)))
    assert [[(e.source, e.target) for e in c] for c in found] == [
        [("p.emulated", "p.rules"), ("p.rules", "p.emulated")],
    ]
    assert describe(found[0]).splitlines()[0] == "p.emulated -> p.rules -> p.emulated"
