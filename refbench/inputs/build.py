"""What a user says of the library build (``--option NAME[=VALUE]``, repeatable), in the
library's own option names (``build_options.toml``), put in the words the sanity rules read:
the figure's ``math`` and ``asm``, the kernel option the emulator rule compares (carried in the figure's
``config`` as ``built with NAME, ...``, read by :func:`stated_kernel_options`), or only its
notes. And which algorithms follow a stated crypto peripheral because the library's driver
calls it for them (``[[follower]]``: wolfSSL's GMAC is its AES-GCM).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from cortexm_emu.datafile import error_at, read_toml

OPTIONS_PATH = Path(__file__).resolve().parent / "build_options.toml"
#: the text a figure's ``config`` carries the stated kernel options in
BUILT_WITH = "built with "
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_EFFECTS = ("math", "asm", "kernel", "notes")


@dataclass(frozen=True)
class BuildOption:
    library: str
    name: str
    source: str
    math: str | None = None
    math_small: str | None = None
    rank: int = 0
    asm: str | None = None
    kernel: str | None = None
    notes: str | None = None


@dataclass(frozen=True)
class Follower:
    library: str
    peripheral: str
    algorithm: str
    leaders: tuple[str, ...]
    source: str


@cache
def load_build_options(path: Path = OPTIONS_PATH) -> tuple[dict[str, BuildOption], tuple[Follower, ...]]:
    """The options by name and the peripherals' followers; :class:`DataFileError` naming the
    file, line and field for a malformed file."""
    _, data = read_toml(path, kind="build options file")
    options: dict[str, BuildOption] = {}
    for k, entry in enumerate(data.get("option", [])):
        where = f"option[{k}]"
        for key in ("library", "name", "source"):
            if not isinstance(entry.get(key), str) or not entry[key]:
                raise error_at(path, f"{where}.{key}", "missing field")
        effects = [e for e in _EFFECTS if e in entry]
        if len(effects) != 1:
            raise error_at(path, where, f"exactly one of {', '.join(_EFFECTS)} (has {effects})")
        unknown = set(entry) - {"library", "name", "source", "math_small", "rank", *_EFFECTS}
        if unknown:
            raise error_at(path, f"{where}.{sorted(unknown)[0]}", "unknown field")
        if entry["name"] in options or not _NAME.fullmatch(entry["name"]):
            raise error_at(path, f"{where}.name", "not a C macro name, or given twice", entry["name"])
        options[entry["name"]] = BuildOption(**entry)
    followers = []
    for k, entry in enumerate(data.get("follower", [])):
        for key in ("library", "peripheral", "algorithm", "source"):
            if not isinstance(entry.get(key), str) or not entry[key]:
                raise error_at(path, f"follower[{k}].{key}", "missing field")
        leaders = entry.get("leaders")
        if not isinstance(leaders, list) or not leaders or not all(isinstance(a, str) for a in leaders):
            raise error_at(path, f"follower[{k}].leaders", "expected a list of algorithm names")
        followers.append(Follower(entry["library"], entry["peripheral"], entry["algorithm"], tuple(leaders),
                                  entry["source"]))
    return options, tuple(followers)


def parse_option(text: str) -> tuple[str, str | None]:
    """``"GCM_SMALL"`` -> ``("GCM_SMALL", None)``; ``"WOLFSSL_SP_SMALL=1"`` -> ``(name, "1")``.
    ``ValueError`` for a name the build model does not know, listing those it knows."""
    name, eq, value = text.strip().partition("=")
    options, _ = load_build_options()
    if name not in options:
        known = ", ".join(sorted(options))
        raise ValueError(f"Invalid --option ({text!r}): not a library build option refbench knows; accepted "
                         f"(the library's own names, NAME or NAME=VALUE): {known}")
    return name, (value.strip() if eq else None)


def _applies(option: BuildOption, library: str) -> bool:
    return library.lower().startswith(option.library.lower())


@dataclass(frozen=True)
class BuildFields:
    """What the stated options set on one figure, and the sentence its notes get."""

    math: str | None
    asm: str | None
    kernel_options: tuple[str, ...]
    note: str | None


def build_fields(stated: tuple[str, ...], library: str) -> BuildFields:
    """The math, assembly and kernel options ``stated`` (``--option`` texts, already checked)
    set on a figure of ``library``; options of another library are said, not applied."""
    options, _ = load_build_options()
    parsed = [parse_option(text) for text in stated]
    mine = [(options[name], value) for name, value in parsed if _applies(options[name], library)]
    other = [name for name, _ in parsed if not _applies(options[name], library)]
    maths = sorted((o for o, _ in mine if o.math), key=lambda o: -o.rank)
    small = any(o.name == "WOLFSSL_SP_SMALL" for o, _ in mine)
    math = ((maths[0].math_small if small and maths[0].math_small else maths[0].math) if maths else None)
    asm = next((o.asm for o, _ in mine if o.asm), None)
    kernels = tuple(o.name for o, _ in mine if o.kernel)
    said = []
    for o, value in mine:
        written = o.name + (f"={value}" if value is not None else "")
        effect = (f"math '{math}'" if o.math and math and o.math in math else f"math: {o.math} outranked"
                  if o.math else f"assembly '{o.asm}'" if o.asm else
                  f"{o.kernel} kernel option (the emulator rule compares that variant)" if o.kernel else o.notes)
        said.append(f"{written} ({effect})")
    if other:
        said.append(f"not applied (options of another library): {', '.join(other)}")
    note = f"stated with --option: {'; '.join(said)}" if said else None
    return BuildFields(math, asm, kernels, note)


def followers_of(algorithm: str, library: str) -> tuple[Follower, ...]:
    """The follower entries that make ``algorithm`` of ``library`` follow its leaders."""
    _, table = load_build_options()
    return tuple(f for f in table if f.algorithm == algorithm and library.lower().startswith(f.library.lower()))


def stated_kernel_options(config: str) -> tuple[str, ...]:
    """The kernel options a figure's ``config`` says the build used (``as logged; built with
    GCM_SMALL, USE_SLOW_SHA256``); none for a built-in page's figure."""
    _, _, tail = config.partition(BUILT_WITH)
    return tuple(n.strip() for n in tail.split(",") if n.strip()) if tail else ()
