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

from pathlib import Path
from typing import Literal

from refbench.inputs import mbedtls, table, wolfcrypt
from refbench.inputs.assumptions import Assumptions, Placement, core_key
from refbench.inputs.records import Problem, split_lines
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


def read_input(source: Path | str, *, assumptions: Assumptions, name: str | None = None,
               format: str | None = None) -> tuple[list[Figure], list[Problem]]:
    """Figures and problems of one input.

    ``source`` is a :class:`~pathlib.Path` (read as UTF-8; ``name`` defaults to the path as
    given) or the text itself (``name`` defaults to ``"<stdin>"``). ``format`` is one of
    :data:`FORMATS` or None to detect it. Raises ``ValueError`` for an undetectable format, a
    bad format name, or assumptions that place no part (no board and no core and clock, an
    unknown board); :class:`~refbench.errors.DataFileError` for a table whose header is wrong.
    """
    if isinstance(source, Path):
        text = source.read_text(encoding="utf-8")
        name = name or str(source)
    else:
        text = source
        name = name or "<stdin>"
    if format is None:
        format = detect_format(text, name)
    elif format not in FORMATS:
        raise ValueError(f"Invalid format ({format!r}); accepted: {', '.join(FORMATS)}")
    lines = split_lines(text, name)
    if format == "csv":
        return table.read_csv(lines, assumptions=assumptions)
    if format == "json":
        return table.read_json(lines, text, assumptions=assumptions)
    placement = assumptions.resolve()
    reader = wolfcrypt.read_wolfcrypt if format == "wolfcrypt" else mbedtls.read_mbedtls
    return reader(lines, assumptions=assumptions, placement=placement)
