"""The values of refbench's command options, bounded and checked before any work.

The machine options (``--core``, ``--board``, ``--clock``, ``--cache`` ...) are declared once in
:mod:`cortexm_emu.machine_options`; this module adds what only refbench knows: a page's board name
as an alias of a board profile (:func:`board_name`), and the bounds of the crypto options (message
and operand sizes, secrets, key lengths, the plot file). Every parser raises ``ValueError`` whose
message names the option and states what is accepted; :func:`cortexm_emu.machine_options.option` turns
one into an argparse ``type`` (a bad value is then a usage error, exit status 2, before anything runs).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from pathlib import Path

from cortexm_emu.machine_options import resolve_board
from refbench.kernels.catalog import Operation
from refbench.kernels.references import prepare, reference
from refbench.measure import MAX_MESSAGE_BYTES, MAX_MESSAGE_REASON, make_inputs

#: ``refbench leakage``: each traced secret keeps the trace of every instruction it ran, so memory
#: grows with secrets x size (aes/ttable4 ecb-encrypt on m4: about 3 KB per traced byte per secret,
#: 16 secrets of 1,024 bytes 123 MB peak against 77 MB at 64 bytes). The bounds keep the product
#: at most MAX_LEAKAGE_TRACED_BYTES (about 200 MB of traces at that rate).
MAX_SECRETS = 1024
MAX_LEAKAGE_SIZE = 4096
MAX_LEAKAGE_TRACED_BYTES = 65536
#: a guard on --key-bytes, not a limit of any algorithm: 16 times the longest default key length
#: (refbench.measure.LENGTH_CANDIDATES, 32 bytes); an HMAC key longer than the hash's block is
#: hashed first (RFC 2104 §2), work that hashing a message of that --size measures already
MAX_KEY_BYTES = 512
#: a guard on --aad-bytes and --top
MAX_AAD_BYTES = 65536
MAX_TOP = 1_000_000


def bounded_int(name: str, low: int, high: int, why: str = "") -> Callable[[str], int]:
    """A parser of option ``name``: a decimal integer from ``low`` to ``high`` (``why``: the reason
    of the bound, said when it is exceeded)."""

    def parse(text: str) -> int:
        accepted = f"accepted: an integer from {low:,} to {high:,}" + (f" ({why})" if why else "")
        stripped = text.strip()
        digits = stripped.removeprefix("-")
        if not digits.isascii() or not digits.isdigit() or len(digits) > len(str(high)) + 1:
            raise ValueError(f"Invalid {name} ({text!r}); {accepted}")
        value = int(stripped)
        if not low <= value <= high:
            raise ValueError(f"Invalid {name} ({value}); {accepted}")
        return value

    parse.__name__ = name.lstrip("-").replace("-", "_")
    return parse


message_size = bounded_int("--size", 0, MAX_MESSAGE_BYTES, MAX_MESSAGE_REASON)
leakage_secrets = bounded_int("--secrets", 2, MAX_SECRETS, "each secret is traced instruction by instruction")
leakage_size = bounded_int("--size", 1, MAX_LEAKAGE_SIZE, "at least one byte of message or operand; each byte of "
                           "each secret is traced instruction by instruction")
key_bytes = bounded_int("--key-bytes", 1, MAX_KEY_BYTES)
aad_bytes = bounded_int("--aad-bytes", 0, MAX_AAD_BYTES)
top = bounded_int("--top", 1, MAX_TOP)


def operation_inputs(op: Operation, size: int, label: str, *, key_bytes: int | None = None) -> dict[str, object]:
    """The deterministic inputs of ``op`` at ``size`` bytes, after the reference has accepted them:
    a size the operation refuses (CBC and a partial block, a field of another length) is an error
    of ``--size`` naming ``label`` and the reference's reason, before the kernel runs."""
    inputs = make_inputs(op, size, key_bytes=key_bytes)
    try:
        reference(op.reference)(prepare(op.reference)(inputs))
    except ValueError as exc:
        raise ValueError(f"Invalid --size ({size}) for {label}: {exc}") from None
    return inputs


def check_leakage_work(secrets: int, size: int | None) -> None:
    """``--secrets`` x ``--size`` at most :data:`MAX_LEAKAGE_TRACED_BYTES` (the default size, at
    most 68 bytes, is within it at every --secrets)."""
    if size is not None and secrets * size > MAX_LEAKAGE_TRACED_BYTES:
        raise ValueError(f"Invalid --secrets ({secrets}) with --size ({size}): {secrets * size:,} traced bytes; "
                         f"accepted: --secrets x --size at most {MAX_LEAKAGE_TRACED_BYTES:,} (every byte of every "
                         f"secret is traced instruction by instruction), e.g. --secrets "
                         f"{max(2, MAX_LEAKAGE_TRACED_BYTES // size)} at --size {size}")


#: the start of a kernel catalogue or input error -> what it is about (:func:`naming_option`)
_CATALOGUE_ERRORS = (("Unknown kernel", "kernel"), ("Unknown variant", "variant"), ("Unknown operation", "operation"),
                     ("Invalid key", "key"), ("Invalid inputs", "key"))


def naming_option(exc: ValueError, options: dict[str, str]) -> ValueError:
    """A catalogue's ``ValueError`` ("Unknown kernel 'x'; valid: ...") with the option it is about
    in front: ``options`` maps kernel, variant, operation and key to how this command spells them
    (``--kernel``, or the positional ``KERNEL/VARIANT``)."""
    text = str(exc)
    for prefix, what in _CATALOGUE_ERRORS:
        if text.startswith(prefix) and what in options:
            return ValueError(f"Invalid {options[what]}: {text}")
    return exc


@cache
def _page_boards() -> dict[str, str]:
    """Each board name the pages write (upper case) -> the board profile of its figures' part."""
    from refbench.published.model import load_figures

    aliases: dict[str, set[str]] = {}
    for f in load_figures():
        if f.board:
            try:
                aliases.setdefault(f.board.strip().upper(), set()).add(resolve_board(f.part).name)
            except ValueError:
                continue
    return {alias: names.pop() for alias, names in aliases.items() if len(names) == 1}


def board_name(text: str, option: str = "--board") -> str:
    """``--board``: a board profile, its part number or board name (:func:`cortexm_emu.machine_options.
    resolve_board`), or a board name as a published page writes it (``STM32F437I-EVAL``)."""
    try:
        return resolve_board(text, option).name
    except ValueError:
        alias = _page_boards().get(text.strip().upper())
        if alias is None:
            raise
        return alias


def part_name(text: str) -> str:
    """``refbench parts --part``: the board profile of a part file, named as ``--board`` names it."""
    return board_name(text, "--part")


def plot_path(text: str) -> Path:
    """``--plot``: a file to write whose extension gives its type (.png, .svg, .pdf), in a folder
    that exists and is writable, and not a folder itself."""
    from refbench.plotting import PLOT_SUFFIXES

    path = Path(text)
    if not text.strip():
        raise ValueError(f"Invalid --plot ({text!r}): empty; accepted: a file name ending in {', '.join(PLOT_SUFFIXES)}")
    if path.is_dir():
        raise ValueError(f"Invalid --plot ({text!r}): a folder; accepted: a file name ending in "
                         f"{', '.join(PLOT_SUFFIXES)}")
    if path.suffix.lower() not in PLOT_SUFFIXES:
        raise ValueError(f"Invalid --plot ({text!r}): the file type comes from the extension; "
                         f"accepted: {', '.join(PLOT_SUFFIXES)}")
    folder = path.parent
    if not folder.is_dir():
        raise ValueError(f"Invalid --plot ({text!r}): the folder {str(folder)!r} does not exist")
    existed = path.exists()
    try:
        with open(path, "ab"):  # append mode: an existing file is not changed
            pass
    except OSError as exc:
        raise ValueError(f"Invalid --plot ({text!r}): cannot be written ({exc.strerror or exc})") from None
    if not existed:
        path.unlink()
    return path
