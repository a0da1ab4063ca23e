"""Figures from a user's own input: a wolfCrypt or Mbed TLS benchmark log, or a table.

:func:`read_input` detects the format (or takes it), reads every line it can into
:class:`~refbench.published.model.Figure` records (the same records, units and normalisation
as the built-in pages; provenance: the input's name and line) and returns the lines it could
not read as :class:`Problem` records (``file:line``, text, why). Nothing is guessed: a line
whose meaning is not certain (an unknown algorithm, a unit whose size depends on a version
nobody stated) is reported, not read.

The part is not in a log: :class:`Assumptions` says it (a board profile, or a core and clock
with what is known of the memory system), and its description is in every figure's notes.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Literal

from refbench.inputs import mbedtls, table, wolfcrypt
from refbench.inputs.assumptions import Assumptions, Placement, core_key
from refbench.inputs.decode import MAX_INPUT_BYTES, UNDECODED_WHY, decode, too_large
from refbench.inputs.records import Line, Problem, split_lines
from refbench.published.model import Figure

Format = Literal["wolfcrypt", "mbedtls", "csv", "json"]
FORMATS: tuple[str, ...] = ("wolfcrypt", "mbedtls", "csv", "json")
TEMPLATE_PATH = Path(__file__).resolve().parent / "template.csv"

__all__ = ["FORMATS", "TEMPLATE_PATH", "Assumptions", "Placement", "Problem", "core_key", "detect_format",
           "read_input"]


def detect_format(text: str, name: str = "<input>") -> str:
    """``wolfcrypt``, ``mbedtls``, ``csv`` or ``json`` for ``text``; ``ValueError`` if none fits."""
    stripped = text.lstrip()
    if name.lower().endswith(".json"):
        return "json"
    # a benchmark log first: a pasted log may begin with harness lines such as '{{timeout;150}}'
    if wolfcrypt.looks_like(text):
        return "wolfcrypt"
    if mbedtls.looks_like(text):
        return "mbedtls"
    if stripped.startswith(("[", "{")):
        return "json"
    first = next((t for t in text.splitlines() if t.strip() and not t.lstrip().startswith("#")), "")
    if name.lower().endswith(".csv") or first.replace(" ", "").startswith("algorithm,"):
        return "csv"
    raise ValueError(
        f"Invalid input ({name}): not a wolfCrypt benchmark log (no 'wolfCrypt Benchmark (block bytes' header "
        "or row), not an Mbed TLS benchmark log, not a CSV with an 'algorithm,...' header, not JSON; "
        f"give the format explicitly, one of {', '.join(FORMATS)}"
    )


def read_input(source: Path | bytes | str, *, assumptions: Assumptions, name: str | None = None,
               format: str | None = None) -> tuple[list[Figure], list[Problem]]:
    """Figures and problems of one input.

    ``source`` is a :class:`~pathlib.Path` (``name`` defaults to the path as given), the bytes
    of an input, both decoded by :func:`refbench.inputs.decode.decode` (UTF-8 with or without a
    byte order mark, UTF-16; a line with bytes that are not UTF-8 is reported, not the whole
    input), or the text itself (``name`` defaults to ``"<stdin>"``). ``format`` is one of
    :data:`FORMATS` or None to detect it. Raises ``ValueError`` for a directory, a missing,
    unreadable, binary or too large file, an undetectable format, a bad format name, or
    assumptions that place no part (no board and no core and clock, an unknown board);
    :class:`~refbench.errors.DataFileError` for a table whose header is wrong.
    """
    undecoded: frozenset[int] = frozenset()
    if isinstance(source, Path):
        name = name or str(source)
        decoded = decode(read_file(source, name), name)
        text, undecoded = decoded.text, decoded.undecoded
    elif isinstance(source, bytes):
        name = name or "<stdin>"
        decoded = decode(source, name)
        text, undecoded = decoded.text, decoded.undecoded
    else:
        text = source
        name = name or "<stdin>"
        problem = too_large(len(text), name)
        if problem:
            raise ValueError(problem)
    if format is None:
        format = detect_format(text, name)
    elif format not in FORMATS:
        raise ValueError(f"Invalid format ({format!r}); accepted: {', '.join(FORMATS)}")
    lines = split_lines(text, name)
    if format == "csv":
        figures, problems = table.read_csv(lines, assumptions=assumptions)
    elif format == "json":
        figures, problems = table.read_json(lines, text, assumptions=assumptions, name=name)
    else:
        placement = assumptions.resolve()
        reader = wolfcrypt.read_wolfcrypt if format == "wolfcrypt" else mbedtls.read_mbedtls
        figures, problems = reader(lines, assumptions=assumptions, placement=placement)
    return figures, _undecoded_problems(lines, undecoded, figures, problems)


def read_file(path: Path, name: str) -> bytes:
    """The bytes of the input file ``path`` (called ``name``); ``ValueError`` naming it for a
    directory, a missing or unreadable file, or one above the size limit (checked before reading)."""
    if path.is_dir():
        raise ValueError(f"Invalid input ({name}): a directory; give the log or table file in it")
    try:
        size = path.stat().st_size
    except OSError:
        raise ValueError(f"Invalid input ({name}): no such file") from None
    problem = too_large(size, name)
    if problem:
        raise ValueError(problem)
    try:
        with path.open("rb") as handle:  # a FIFO or device has no size: read at most one byte over the limit
            return handle.read(MAX_INPUT_BYTES + 1)
    except OSError as exc:
        raise ValueError(f"Invalid input ({name}): cannot be read ({exc.strerror or exc})") from None


def _undecoded_problems(lines: list[Line], undecoded: frozenset[int], figures: list[Figure],
                        problems: list[Problem]) -> list[Problem]:
    """``problems`` with each line that had bytes that are not UTF-8 and gave no figure said so."""
    if not undecoded:
        return problems
    read = {f.line for f in figures}
    out = [dataclasses.replace(p, why=f"{UNDECODED_WHY}; {p.why}") if p.line in undecoded else p for p in problems]
    reported = {p.line for p in problems}
    out += [lines[n - 1].problem(UNDECODED_WHY) for n in sorted(undecoded - read - reported)]
    return sorted(out, key=lambda p: p.line)
