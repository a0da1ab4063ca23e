"""Every code block of the docs is a test: ``python`` blocks run as doctests or code (Sybil),
``console`` blocks run their ``$`` commands and compare the printed output (``docs/console.py``).

One test per page: a page's examples share one namespace and run in order, so they stay
together even when pytest-xdist spreads the tests over workers.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest
from sybil import Sybil
from sybil.parsers.markdown import CodeBlockParser, PythonCodeBlockParser, SkipParser

_spec = importlib.util.spec_from_file_location("refbench_docs_console", Path(__file__).with_name("console.py"))
console = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = console
_spec.loader.exec_module(console)


class ConsoleParser(CodeBlockParser):
    language = "console"

    def evaluate(self, example) -> None:
        console.check_block(example.parsed, f"{Path(example.path).name}:{example.line}")


SYBIL = Sybil(parsers=[PythonCodeBlockParser(), ConsoleParser(), SkipParser()], patterns=["*.md"])


class PageExamples(pytest.Item):
    """Every example of one Markdown page, evaluated in order in the page's namespace."""

    def runtest(self) -> None:
        document = SYBIL.parse(self.path)
        for example in document:
            example.evaluate()

    def repr_failure(self, excinfo, style=None):  # the failing example's own message, not a traceback
        return str(excinfo.value)

    def reportinfo(self):
        return self.path, 0, f"{self.path.name}: every example"


class Page(pytest.File):
    def collect(self):
        yield PageExamples.from_parent(self, name="examples")


def pytest_collect_file(parent, file_path: Path):
    if file_path.suffix == ".md" and file_path.is_relative_to(Path(__file__).parent):
        return Page.from_parent(parent, path=file_path)
    return None
