"""What every reader returns: :class:`Figure` records whose provenance is the input's own
file and line, and :class:`Problem` records for the lines that were skipped."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from refbench.inputs.assumptions import Assumptions, Placement
from refbench.inputs.build import BUILT_WITH, build_fields, followers_of
from refbench.published.model import Aux, Figure


@dataclass(frozen=True)
class Problem:
    """A line that gave no figure: where (``file:line``), its text, and why."""

    file: str
    line: int
    text: str
    why: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.why}: {self.text!r}"


@dataclass(frozen=True)
class Line:
    """One line of an input: file name, 1-based number, character offset, text (no newline)."""

    file: str
    number: int
    offset: int
    text: str

    def problem(self, why: str) -> Problem:
        return Problem(self.file, self.number, self.text, why)


def split_lines(text: str, name: str) -> list[Line]:
    lines, offset = [], 0
    for number, raw in enumerate(text.splitlines(keepends=True), start=1):
        lines.append(Line(name, number, offset, raw.rstrip("\r\n")))
        offset += len(raw)
    return lines


#: which crypto peripheral (PERIPHERALS) computes an algorithm, by refbench algorithm name prefix
_PERIPHERAL_OF = (
    (("AES-",), "AES"), (("3DES-", "DES-"), "DES"),
    (("MD5", "SHA-1", "SHA-224", "SHA-256", "SHA-384", "SHA-512", "HMAC-"), "HASH"),
    (("RSA-", "DH-", "ECC-", "ECDH-", "ECDSA-", "X25519", "Ed25519"), "PKA"), (("RNG",), "RNG"),
)


def peripheral_of(algorithm: str) -> str | None:
    """The crypto peripheral (PERIPHERALS) that computes ``algorithm``, by its name's prefix."""
    return next((p for prefixes, p in _PERIPHERAL_OF if algorithm.startswith(prefixes)), None)


#: ``--hardware AES-GCM``: every key size of one AES mode
_AES_MODE = re.compile(r"AES-([A-Z0-9]+)")


def covers(entry: str, algorithm: str) -> bool:
    """True when the ``--hardware`` entry (a peripheral, an algorithm name, or ``AES-<MODE>``)
    names ``algorithm``."""
    if entry == algorithm:
        return True
    if (m := _AES_MODE.fullmatch(entry)) and re.fullmatch(rf"AES-\d+-{m[1]}", algorithm):
        return True
    return entry == peripheral_of(algorithm)


def peripherals_for(algorithm: str, hardware: tuple[str, ...], library: str = "") -> tuple[list[str], str | None]:
    """The stated peripherals (``hardware`` entries) that compute ``algorithm``, and the reason
    when it follows a leader (``build_options.toml [[follower]]``: wolfSSL's GMAC is its AES-GCM)."""
    found = {peripheral_of(algorithm) for entry in hardware if covers(entry, algorithm)} - {None}
    for f in followers_of(algorithm, library):
        if any(entry == f.peripheral or any(covers(entry, leader) for leader in f.leaders) for entry in hardware):
            return sorted(found | {f.peripheral}), f"{algorithm} follows {', '.join(f.leaders)} in hardware ({f.source})"
    return sorted(found), None  # type: ignore[arg-type]


def build_figure(*, line: Line, placement: Placement, assumptions: Assumptions, section: str, label: str,
                 library: str, version: str, fields: dict[str, Any], metric: str, value: float, unit: str,
                 text: str, aux: tuple[Aux, ...] = (), block_bytes: int | None = None,
                 message_bytes: int | None = None, notes: str | None = None, compiler: str | None = None,
                 options: str | None = None, implementation: str | None = None, math: str | None = None) -> Figure:
    """A :class:`Figure` for one input line; ``fields`` holds algorithm, mode, operation,
    key_bits and curve (as :func:`refbench.published.transcribe.wolfssl_classify` returns them)."""
    hw, followed = peripherals_for(fields["algorithm"], assumptions.hardware, library)
    build = build_fields(assumptions.build, library)
    note = "; ".join(filter(None, [placement.text, notes, build.note, followed]))
    config = "as logged" + (f"; {BUILT_WITH}{', '.join(build.kernel_options)}" if build.kernel_options else "")
    return Figure(
        id=f"{line.file}:{line.number}", source=line.file, section=section, row=line.text, offset=line.offset,
        label=label, board=placement.board.board if placement.board else None, part=placement.part,
        core=placement.core, clock_mhz=placement.clock_mhz, library=library, version=version,
        compiler=compiler or assumptions.compiler or "not stated",
        options=options or assumptions.options or "not stated", config=config, hw=tuple(hw),
        implementation=implementation or ("hardware" if hw else "software"), math=math or build.math, asm=build.asm,
        cache=assumptions.memory_text(), notes=note, variant=None, algorithm=fields["algorithm"],
        mode=fields.get("mode"), operation=fields["operation"], key_bits=fields.get("key_bits"),
        curve=fields.get("curve"), message_bytes=message_bytes, chunk_bytes=None, block_bytes=block_bytes,
        metric=metric, value=float(value), unit=unit, text=text, aux=tuple(aux), line=line.number,
    )
