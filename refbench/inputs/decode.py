"""The bytes of an input as text, line by line: what a serial terminal, an editor or a spreadsheet
saved, whatever its encoding, without letting one bad line reject the others.

* A UTF-8 byte order mark (Excel's "CSV UTF-8" export starts with one) is dropped.
* UTF-16 (a byte order mark ``FF FE``/``FE FF``, or without one, NUL bytes in every other
  position: Windows PowerShell's ``>`` redirection writes UTF-16 LE) is decoded as such.
* Otherwise UTF-8, line by line: a line with bytes that are not UTF-8 (a serial line's noise, a
  Latin-1 ``µ``) has them shown as U+FFFD, and the line is reported if it then yields no figure
  (:data:`UNDECODED_WHY`); every other line is read as usual.
* Any other NUL byte means the file is not text: refused, naming the file and the offset.

An input larger than :data:`MAX_INPUT_BYTES` is refused before it is read.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass

#: A whole wolfCrypt or Mbed TLS benchmark run prints a few hundred lines (the six public logs in
#: tests/fixtures/logs are 0.8 to 2.7 kB); 8 MiB holds thousands of runs. Larger inputs (a
#: captured serial stream, a core dump given by mistake) are refused before they are read.
MAX_INPUT_BYTES = 8 * 1024 * 1024
#: how much of the start is looked at to tell UTF-16 without a byte order mark
_SNIFF = 4096
#: the lone surrogates surrogateescape decodes the bytes 0x80-0xFF of invalid UTF-8 to
_ESCAPED = re.compile("[\udc80-\udcff]")
UNDECODED_WHY = "the line has bytes that are not UTF-8 (shown as U+FFFD)"


@dataclass(frozen=True)
class Decoded:
    """An input's text, the encoding it was read as, and the 1-based numbers of the lines that
    had bytes that are not UTF-8."""

    text: str
    encoding: str
    undecoded: frozenset[int]


def too_large(size: int, name: str) -> str | None:
    """The message for an input of ``size`` bytes above :data:`MAX_INPUT_BYTES`, else None."""
    if size <= MAX_INPUT_BYTES:
        return None
    return (f"Invalid input ({name}): {size:,} bytes, more than the {MAX_INPUT_BYTES // (1024 * 1024)} MiB an input "
            "may have (a benchmark run prints a few kB); give the log of the runs to judge")


def decode(data: bytes, name: str) -> Decoded:
    """:class:`Decoded` text of ``data`` (see the module docstring). Raises ``ValueError`` naming
    ``name`` for an input above :data:`MAX_INPUT_BYTES`, UTF-16 that does not decode, or a
    binary file."""
    problem = too_large(len(data), name)
    if problem:
        raise ValueError(problem)
    for bom, encoding in ((codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be")):
        if data.startswith(bom):
            return _utf16(data[len(bom):], encoding, name, len(bom))
    head = data[:_SNIFF]
    if b"\x00" in head and len(head) >= 2:
        even, odd = head[0::2], head[1::2]
        if odd.count(0) >= 0.9 * len(odd) and even.count(0) == 0:
            return _utf16(data, "utf-16-le", name, 0)
        if even.count(0) >= 0.9 * len(even) and odd.count(0) == 0:
            return _utf16(data, "utf-16-be", name, 0)
    if data.startswith(codecs.BOM_UTF8):
        data, encoding = data[len(codecs.BOM_UTF8):], "utf-8 (byte order mark dropped)"
    else:
        encoding = "utf-8"
    nul = data.find(b"\x00")
    if nul >= 0:
        raise ValueError(f"Invalid input ({name}): a NUL byte at offset {nul}: not a text log (a binary file, or "
                         "text in an encoding other than UTF-8 or UTF-16)")
    try:
        return Decoded(data.decode("utf-8"), encoding, frozenset())
    except UnicodeDecodeError:
        pass
    # the lines as records.split_lines numbers them (str.splitlines), each bad byte kept as a lone
    # surrogate (surrogateescape) until its line is known, then shown as U+FFFD
    lines, undecoded = [], set()
    for number, line in enumerate(data.decode("utf-8", errors="surrogateescape").splitlines(keepends=True), 1):
        if _ESCAPED.search(line):
            undecoded.add(number)
            line = _ESCAPED.sub("\ufffd", line)
        lines.append(line)
    return Decoded("".join(lines), encoding, frozenset(undecoded))


def _utf16(data: bytes, encoding: str, name: str, skipped: int) -> Decoded:
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as exc:
        raise ValueError(f"Invalid input ({name}): read as {encoding.upper()} (its byte order or NUL bytes say so), "
                         f"but the bytes at offset {exc.start + skipped} are not {encoding.upper()}") from None
    if "\x00" in text:
        raise ValueError(f"Invalid input ({name}): a NUL character in {encoding.upper()} text: not a text log")
    return Decoded(text, encoding, frozenset())
