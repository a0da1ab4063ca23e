"""Part facts for refbench: each part's crypto peripherals, their documented processing times,
and the clocks published benchmark pages ran it at, as cited data.

One TOML file per board profile sits next to this package (``stm32f437ii.toml`` ...), named
like the :mod:`cortexm_emu.boards` profile it extends (the emulator facts -- core, clocks,
flash, caches -- live there; refbench imports cortexm_emu, never the reverse). Every value
carries a ``source`` and a ``confidence`` (``primary``, ``secondary``, ``unconfirmed``, as in
the board profiles). A malformed file raises :class:`cortexm_emu.datafile.DataFileError` naming
file, line and field, misspelt keys included.

Modules: :mod:`~refbench.parts.model` (the records and the accepted names),
:mod:`~refbench.parts.schema` (loading one file) and this package's lookups.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from refbench.parts.model import (
    AES_KEY_BITS,
    CRYPTO_BLOCKS,
    CRYPTO_FUNCTIONS,
    HASH_ALGORITHMS,
    PKA_VARIANTS,
    TIMING_CLOCKS,
    TIMING_KINDS,
    TIMING_OPERATIONS,
    TIMING_PHASES,
    CryptoBlock,
    CryptoCapability,
    PartProfile,
    PeripheralTiming,
    PublishedClock,
    TimingRow,
)
from refbench.parts.schema import parse_part

__all__ = [
    "AES_KEY_BITS",
    "CRYPTO_BLOCKS",
    "CRYPTO_FUNCTIONS",
    "HASH_ALGORITHMS",
    "PARTS_DIR",
    "PKA_VARIANTS",
    "TIMING_CLOCKS",
    "TIMING_KINDS",
    "TIMING_OPERATIONS",
    "TIMING_PHASES",
    "CryptoBlock",
    "CryptoCapability",
    "PartProfile",
    "PeripheralTiming",
    "PublishedClock",
    "TimingRow",
    "load_part_file",
    "load_part_profile",
    "part_profile_names",
]

PARTS_DIR = Path(__file__).resolve().parent


def part_profile_names() -> list[str]:
    """Names of all part files shipped with the package (= their board profiles), sorted."""
    return sorted(path.stem for path in PARTS_DIR.glob("*.toml"))


def load_part_profile(name: str) -> PartProfile:
    """The part file of board profile ``name`` (e.g. ``"stm32f437ii"``)."""
    names = part_profile_names()
    if name not in names:
        raise ValueError(f"Unknown part file ({name!r}); accepted: {', '.join(names)}")
    return _load_cached(PARTS_DIR / f"{name}.toml")


def load_part_file(path: str | Path) -> PartProfile:
    """Load and schema-check one part TOML file (any location)."""
    return parse_part(Path(path))


@cache
def _load_cached(path: Path) -> PartProfile:
    return parse_part(path)
