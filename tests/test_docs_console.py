"""The transcript checker behind the docs' console blocks (docs/console.py)."""

import importlib.util
import re
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


def test_update_refuses_to_empty_a_transcript_whose_command_failed(tmp_path):
    page = tmp_path / "page.md"
    text = "```console\n$ no-such-command-here --version\nrefbench 1.0\n```\n"
    page.write_text(text, encoding="utf-8")
    with pytest.raises(RuntimeError, match=r"exited 127 and printed nothing"):
        console.update_file(page)
    assert page.read_text(encoding="utf-8") == text  # the page is left as it was


def test_update_names_the_prose_a_new_output_leaves_behind(tmp_path, capsys):
    page = tmp_path / "page.md"
    page.write_text("It prints 1.5 here.\n\n```console\n$ echo 1.5\n1.5\n```\n", encoding="utf-8")
    assert console.main(["--update", str(page)]) == 0
    page.write_text(page.read_text(encoding="utf-8").replace("echo 1.5", "echo 2.5"), encoding="utf-8")
    assert console.main(["--update", str(page)]) == 1
    assert "the prose says 1.5, which no block prints now" in capsys.readouterr().out


PAGES = sorted((Path(__file__).resolve().parent.parent / "docs").rglob("*.md"))
def test_a_prose_number_that_no_block_prints_is_found():
    page = "The kernel needs 176.0 c/B.\n\n```console\n$ refbench cycles\n176.04 c/B\n```\n"
    assert console.unsupported_numbers(page) == []
    assert console.unsupported_numbers(page.replace("176.0 c/B.", "171.5 c/B.")) == ["171.5"]
    assert console.unsupported_numbers("a 2.3% gap\n\n```python\n>>> 2.4\n```\n") == ["2.3"]
    assert console.unsupported_numbers("82,659 cycles\n\n```console\n$ x\n82659\n```\n") == []


def test_section_numbers_versions_and_quoted_rows_are_not_figures():
    page = "TRM §3.3.2, Table 3.1, wolfSSL 5.6.0, the row `took 1.004 seconds`.\n"
    assert console.unsupported_numbers(page) == []


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_number_in_the_prose_is_printed_by_a_block_of_its_page(page):
    missing = console.unsupported_numbers(page.read_text(encoding="utf-8"))
    assert not missing, f"{page.name}: numbers in the prose that no block of the page prints: {', '.join(missing)}"


FIGURE_ID = re.compile(r"\b\d{3}-\d{4}\b")  # a published figure's id, e.g. 000-0586


def pinned_verdicts(markdown: str) -> list[str]:
    """Transcript lines that state a published figure's verdict or its emulator finding (which
    depend on the timing models): no tutorial pins them."""
    out = []
    for match in console.FENCE.finditer(markdown):
        for command in console.parse_block(match.group("body")):
            text = "\n".join(command.expected)
            if FIGURE_ID.search(command.line + "\n" + text):
                out += [line for line in command.expected if line.startswith("verdict: ") or "[emulator]" in line]
    return out


def test_a_pinned_figure_verdict_is_found():
    page = "```console\n$ refbench sanity | show 000-0586\n000-0586: row\nverdict: explained\n- [emulator] consistent\n```\n"
    assert pinned_verdicts(page) == ["verdict: explained", "- [emulator] consistent"]
    assert pinned_verdicts(page.replace("000-0586", "F1")) == []


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_no_tutorial_pins_a_published_figures_verdict(page):
    assert not pinned_verdicts(page.read_text(encoding="utf-8")), page.name
