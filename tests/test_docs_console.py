"""The transcript checker behind the docs' console blocks (docs/console.py)."""

import importlib.util
import sys
from pathlib import Path

import pytest

_spec = importlib.util.spec_from_file_location("docs_console_under_test",
                                               Path(__file__).resolve().parent.parent / "docs" / "console.py")
console = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = console
_spec.loader.exec_module(console)


def test_parse_block_pairs_commands_with_their_output():
    commands = console.parse_block("$ echo a\na\n$ echo b c\nb c\n")
    assert [(c.line, c.expected) for c in commands] == [("echo a", ["a"]), ("echo b c", ["b c"])]


def test_output_before_a_command_is_an_error():
    with pytest.raises(ValueError, match="before any"):
        console.parse_block("stray\n$ echo a\n")


@pytest.mark.parametrize("expected, actual, result", [
    (["a", "b"], ["a", "b"], True),
    (["a", "b"], ["a", "c"], False),
    (["a", "..."], ["a", "x", "y"], True),
    (["...", "z"], ["x", "y", "z"], True),
    (["...", "z"], ["x", "y"], False),
    ([], ["x"], False),
])
def test_ellipsis_matches_any_number_of_lines(expected, actual, result):
    assert console.matches(expected, actual) is result


def test_a_wrong_transcript_fails_with_the_real_output():
    with pytest.raises(AssertionError, match="printed"):
        console.check_block("$ echo hello\ngoodbye\n", "test")


def test_update_rewrites_the_output(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("text\n\n```console\n$ echo fresh\nstale\n```\n", encoding="utf-8")
    assert console.update_file(page) == 1
    assert "```console\n$ echo fresh\nfresh\n```" in page.read_text(encoding="utf-8")
    assert console.update_file(page) == 0
