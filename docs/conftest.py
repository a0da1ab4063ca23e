"""Every code block of the docs is a test (Sybil): ``python`` blocks run as doctests/code, ``console``
blocks run their ``$`` commands and compare the printed output (``docs/console.py``)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

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


pytest_collect_file = Sybil(
    parsers=[PythonCodeBlockParser(), ConsoleParser(), SkipParser()],
    patterns=["*.md"],
).pytest()
