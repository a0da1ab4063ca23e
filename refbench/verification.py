"""The registry behind ``refbench verify``: vector suites and their outcomes.

A *suite* is one algorithm against one vector source (a file or a set of
files). Running it yields one :class:`Outcome` per vector. Suites live in the
modules of :mod:`refbench.suites`, each of which exposes a list ``SUITES``;
:func:`all_suites` collects them, so adding a family means adding a module.
The same suites run in ``tests/test_vectors.py``, so ``refbench verify`` and
the test suite can never disagree.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass


@dataclass(frozen=True)
class Outcome:
    """The result of one vector: ``label`` names file and line (or tcId)."""

    label: str
    passed: bool
    detail: str = ""


@dataclass(frozen=True)
class Suite:
    """One algorithm against one vector source.

    ``run`` yields an :class:`Outcome` per vector. ``slow`` suites (Monte
    Carlo tests, million-iteration loops) run only when asked for.
    """

    algorithm: str
    source: str
    run: Callable[[], Iterable[Outcome]]
    slow: bool = False

    @property
    def name(self) -> str:
        return f"{self.algorithm} [{self.source}]"


def expect_equal(label: str, expected: object, actual: object) -> Outcome:
    """Pass when ``actual == expected``; the detail shows both (hex for bytes)."""
    if actual == expected:
        return Outcome(label, True)
    return Outcome(label, False, f"expected {_show(expected)}, got {_show(actual)}")


def expect_raises(label: str, error: type[BaseException] | tuple[type[BaseException], ...], fn: Callable[[], object]) -> Outcome:
    """Pass when ``fn()`` raises ``error``; fail if it returns (an invalid vector accepted)."""
    try:
        result = fn()
    except error:
        return Outcome(label, True)
    except Exception as exc:  # a different error is a failure, reported with its type
        return Outcome(label, False, f"expected {_names(error)}, raised {type(exc).__name__}: {exc}")
    return Outcome(label, False, f"expected {_names(error)}, returned {_show(result)}")


def guarded(label: str, fn: Callable[[], Outcome]) -> Outcome:
    """Run one vector; an unexpected exception becomes a failed outcome naming it."""
    try:
        return fn()
    except Exception as exc:
        return Outcome(label, False, f"raised {type(exc).__name__}: {exc}")


def _names(error: type[BaseException] | tuple[type[BaseException], ...]) -> str:
    if isinstance(error, tuple):
        return " or ".join(e.__name__ for e in error)
    return error.__name__


def _show(value: object) -> str:
    if isinstance(value, (bytes, bytearray)):
        return bytes(value).hex() or "(empty)"
    return repr(value)


def all_suites() -> list[Suite]:
    """Every suite of every module in :mod:`refbench.suites`, in module order."""
    import refbench.suites as package

    suites: list[Suite] = []
    for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{package.__name__}.{info.name}")
        suites.extend(getattr(module, "SUITES", []))
    return suites


@dataclass(frozen=True)
class SuiteReport:
    suite: Suite
    vectors: int
    passed: int
    failures: tuple[Outcome, ...]

    @property
    def failed(self) -> int:
        return len(self.failures)

    def as_json(self) -> dict[str, object]:
        return {
            "algorithm": self.suite.algorithm,
            "source": self.suite.source,
            "vectors": self.vectors,
            "passed": self.passed,
            "failed": self.failed,
            "slow": self.suite.slow,
            "failures": [{"label": o.label, "detail": o.detail} for o in self.failures],
        }


def run_suite(suite: Suite) -> SuiteReport:
    """Run every vector of ``suite``. A suite that yields nothing is a failure."""
    passed = 0
    failures: list[Outcome] = []
    try:
        for outcome in suite.run():
            if outcome.passed:
                passed += 1
            else:
                failures.append(outcome)
    except Exception as exc:  # the suite itself broke (e.g. a malformed file): report, don't lose it
        failures.append(Outcome(suite.source, False, f"suite aborted: {type(exc).__name__}: {exc}"))
    total = passed + len(failures)
    if total == 0:
        failures.append(Outcome(suite.source, False, "suite ran no vector"))
    return SuiteReport(suite, passed + len(failures) if total else 0, passed, tuple(failures))


def select(suites: Iterable[Suite], algorithm: str | None = None, slow: bool = False) -> Iterator[Suite]:
    """Suites whose algorithm contains ``algorithm`` (case-insensitive); slow ones only if asked."""
    for suite in suites:
        if suite.slow and not slow:
            continue
        if algorithm and algorithm.lower() not in suite.algorithm.lower():
            continue
        yield suite
