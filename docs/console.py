"""Run the ``console`` blocks of the docs and compare their output (used by the tests and by ``--update``).

A ``console`` block is a transcript: lines starting with ``$ `` are commands, the lines after one
up to the next command are what it prints on standard output. A line ``...`` in the expected
output matches any number of lines (for long tables). Commands run with ``bash`` from the
repository root, with a fixed terminal width (``COLUMNS=100``) so tables are laid out the same
everywhere, and with ``$REFBENCH_CACHE``/``$CORTEXM_EMU_CACHE`` left as the caller set them (the
output shows the cache folder as ``~/.cache/...``).

``python docs/console.py --update [FILE.md ...]`` re-runs every block and writes the real output
back into the Markdown, then names every number of the prose that no block prints any more (exit
status 1): after a model change, run it, rewrite that prose, read the diff, commit.

The prose around the blocks cannot drift from them: :func:`unsupported_numbers` lists each number
of the prose (a decimal, a count with thousands separators, a percentage) that no code block of
the page prints or computes at the prose's precision; the tests require none. Section and table
numbers (``§3.3.2``, ``Table 3.1``), versions (``5.6.0``) and quoted text in backticks are not
figures and are left out.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
WIDTH = "100"
FENCE = re.compile(r"^(?P<indent>[ \t]*)```console[ \t]*\n(?P<body>.*?)^(?P=indent)```[ \t]*$", re.M | re.S)


@dataclass(frozen=True)
class Command:
    line: str
    expected: list[str]


def parse_block(body: str) -> list[Command]:
    """The commands of one console block with the output each is expected to print."""
    commands: list[Command] = []
    for raw in body.splitlines():
        if raw.startswith("$ "):
            commands.append(Command(raw[2:], []))
        elif not commands:
            raise ValueError(f"console block output before any '$ ' command: {raw!r}")
        else:
            commands[-1].expected.append(raw)
    return commands


def environment() -> dict[str, str]:
    """The caller's environment as a user's shell has it: a fixed width, no colour, and none of the
    variables a running pytest (or xdist worker) sets, which would change a nested pytest."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "XDIST_"))}
    env["COLUMNS"] = WIDTH
    env.pop("FORCE_COLOR", None)
    env["NO_COLOR"] = "1"
    return env


def _tidy(text: str) -> list[str]:
    lines = [line.rstrip() for line in text.splitlines()]
    for variable, shown in (("REFBENCH_CACHE", "~/.cache/refbench"), ("CORTEXM_EMU_CACHE", "~/.cache/cortexm_emu")):
        where = os.environ.get(variable)
        if where:
            lines = [line.replace(where, shown) for line in lines]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def run_command(line: str) -> tuple[int, list[str]]:
    """Exit status and tidied standard output of one command line."""
    done = subprocess.run(["bash", "-c", line], cwd=ROOT, env=environment(), capture_output=True, text=True,
                          timeout=600)
    return done.returncode, _tidy(done.stdout)


def matches(expected: list[str], actual: list[str]) -> bool:
    """Line-by-line equality where an expected ``...`` line stands for any number of lines."""
    if not expected:
        return not actual
    head, rest = expected[0].rstrip(), expected[1:]
    if head == "...":
        return any(matches(rest, actual[i:]) for i in range(len(actual) + 1))
    return bool(actual) and actual[0] == head and matches(rest, actual[1:])


def check_block(body: str, where: str) -> None:
    """Run every command of a block; AssertionError with a readable diff on the first difference."""
    for command in parse_block(body):
        status, actual = run_command(command.line)
        expected = [line.rstrip() for line in command.expected]
        if not matches(expected, actual):
            shown = "\n".join(actual)
            raise AssertionError(f"{where}: `$ {command.line}` printed (exit {status}):\n{shown}\n\n"
                                 f"expected:\n" + "\n".join(expected) +
                                 "\n\nIf the change is right, run: python docs/console.py --update")


def _elided(expected: list[str], actual: list[str]) -> list[str]:
    """Keep the author's ``...`` elisions when writing new output: keep the lines before and after."""
    if "..." not in [line.strip() for line in expected] or len(expected) == 1:
        return actual
    cut = [line.strip() for line in expected].index("...")
    before, after = cut, len(expected) - cut - 1
    if before + after >= len(actual):
        return actual
    return actual[:before] + ["..."] + (actual[len(actual) - after:] if after else [])


def update_file(path: Path) -> int:
    """Re-run every console block of ``path`` and write the outputs back; returns the blocks changed."""
    text = path.read_text(encoding="utf-8")
    changed = 0

    def replace(match: re.Match[str]) -> str:
        nonlocal changed
        indent = match.group("indent")
        body = "\n".join(line[len(indent):] for line in match.group("body").splitlines())
        out: list[str] = []
        for command in parse_block(body):
            status, actual = run_command(command.line)
            if status != 0 and not actual and command.expected:
                raise RuntimeError(f"{path}: `$ {command.line}` exited {status} and printed nothing where the page "
                                   "shows output: not writing an empty transcript (run the command by hand to see why)")
            out.append(f"$ {command.line}")
            out.extend(_elided(command.expected, actual))
        new_body = "".join(f"{indent}{line}".rstrip() + "\n" for line in out)
        if new_body != match.group("body"):
            changed += 1
        return f"{indent}```console\n{new_body}{indent}```"

    new_text = FENCE.sub(replace, text)
    if new_text != text:
        path.write_text(new_text, encoding="utf-8")
    return changed


ANY_FENCE = re.compile(r"^[ \t]*```.*?^[ \t]*```[ \t]*$", re.M | re.S)
INLINE_CODE = re.compile(r"`[^`\n]*`")
#: a decimal (not a version), a count with thousands separators, or a whole percentage
PROSE_NUMBER = re.compile(r"(?<![\w.§#,])(?<!Table )(?<!Figure )(?<!DDI )(?:\d[\d,]*\.\d+(?![.\d])|\d{1,3}(?:,\d{3})+(?![\d,])"
                          r"|\d+(?=\s?%))")
CODE_NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")


def _value(text: str) -> float:
    return float(text.replace(",", ""))


def unsupported_numbers(markdown: str) -> list[str]:
    """The numbers of ``markdown``'s prose that none of its code blocks shows at the prose's precision
    (``16.6`` is supported by a printed ``16.64``; ``82,659`` only by ``82,659`` or ``82659``)."""
    shown = [_value(n) for block in ANY_FENCE.findall(markdown) for n in CODE_NUMBER.findall(block)
             if n.replace(",", "").replace(".", "").isdigit()]
    prose = INLINE_CODE.sub(" ", ANY_FENCE.sub(" ", markdown))
    missing = []
    for match in PROSE_NUMBER.finditer(prose):
        text = match.group(0)
        digits = len(text.split(".")[1]) if "." in text else 0
        if not any(round(value, digits) == _value(text) for value in shown):
            missing.append(text)
    return missing


def main(argv: list[str]) -> int:
    if not argv or argv[0] != "--update":
        print(__doc__)
        return 2
    files = [Path(a) for a in argv[1:]] or sorted(DOCS.rglob("*.md"))
    stale = 0
    for path in files:
        n = update_file(path)
        print(f"{path}: {n} block(s) updated")
        missing = unsupported_numbers(path.read_text(encoding="utf-8"))
        if missing:  # the prose around a block that changed: rewrite it by hand
            stale += 1
            print(f"{path}: the prose says {', '.join(missing)}, which no block prints now: rewrite it")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
