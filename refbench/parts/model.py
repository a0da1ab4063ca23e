"""The records of a part file: crypto peripherals, their documented timings, published clocks."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cortexm_emu.boards import Board, Citation
from cortexm_emu.boards.model import lists

__all__ = [
    "AES_KEY_BITS",
    "CRYPTO_BLOCKS",
    "CRYPTO_FUNCTIONS",
    "HASH_ALGORITHMS",
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
]

#: Crypto peripherals every part file must state (present or not). ``CRYP`` is ST's
#: AES/DES/TDES processor of F2/F4/F7/H7; ``AES`` the AES-only coprocessor of L4/L5/U5/WB/WL/G0;
#: ``SAES`` the side-channel-protected AES of U5/U3/H573; ``CCB`` the coupling and chaining
#: bridge of U3; ``PKA`` the public-key accelerator.
CRYPTO_BLOCKS: tuple[str, ...] = ("AES", "CRYP", "HASH", "PKA", "RNG", "SAES", "CCB")
#: What a crypto peripheral can be asked to do, named as published benchmark pages name the
#: hardware they used: ``AES`` (any AES engine: CRYP's AES part, AES, SAES), ``DES`` (CRYP's
#: DES/TDES part), ``HASH``, ``PKA``, ``RNG``.
CRYPTO_FUNCTIONS: tuple[str, ...] = ("AES", "DES", "HASH", "PKA", "RNG")
#: Key sizes an AES engine may accept (FIPS 197: 128, 192, 256 bits).
AES_KEY_BITS: tuple[int, ...] = (128, 192, 256)
#: Digests a HASH peripheral may compute, with the names of FIPS 180-4 / RFC 1321.
HASH_ALGORITHMS: tuple[str, ...] = (
    "MD5",
    "SHA-1",
    "SHA-224",
    "SHA-256",
    "SHA-384",
    "SHA-512",
    "SHA-512/224",
    "SHA-512/256",
)
#: Clocks a documented processing time can count: ``hclk`` (the AHB clock the peripheral sits
#: on), ``rng_clk`` (the RNG kernel clock), ``shsi`` (the secure HSI that clocks SAES).
TIMING_CLOCKS: tuple[str, ...] = ("hclk", "rng_clk", "shsi")
#: What a timing row counts: ``block`` (per data block of ``bytes`` bytes), ``init``/``header``/
#: ``tag`` (GCM/CCM phases: once per message, per AAD block, once per message), ``op`` (one
#: public-key operation).
TIMING_PHASES: tuple[str, ...] = ("block", "init", "header", "tag", "op")
#: ``time``: the manual states the processing time (a lower bound on any use of the block);
#: ``average``: the manual states an average (depends on operand values), not a bound.
TIMING_KINDS: tuple[str, ...] = ("time", "average")
#: Operations a timing row may name, per function (AES modes as SP 800-38A/C/D name them,
#: digests as FIPS 180-4 / RFC 1321 name them, PKA operations as the reference manuals' tables).
TIMING_OPERATIONS: dict[str, tuple[str, ...]] = {
    "AES": ("ECB", "CBC", "CTR", "GCM", "CCM"),
    "DES": ("DES", "TDES"),
    "HASH": HASH_ALGORITHMS,
    "RNG": ("random",),
    "PKA": ("ecdsa-sign", "ecdsa-verify", "ecc-scalar-mul", "modexp-public", "modexp-private"),
}
#: Modes of the PKA modular exponentiation tables (RM0456 Table 521 names them).
PKA_VARIANTS: tuple[str, ...] = ("normal", "fast", "protected", "crt")


@dataclass(frozen=True)
class PublishedClock:
    """A core clock a published source ran the board at."""

    mhz: float
    source: str
    seed: str  # seed file name in shared/seeds/, "" when the clock is not from a seed page
    reported_wait_states: int | None  # flash wait states the source itself states, if any
    finding: str  # non-empty when the clock contradicts the part's data (e.g. above the max)


@dataclass(frozen=True)
class CryptoCapability:
    """What a present crypto peripheral provides, with the citation for exactly these facts.

    ``aes_key_bits`` is empty unless ``"AES"`` is in ``functions``; ``hash_algorithms`` is
    empty unless ``"HASH"`` is. ``functions`` may be empty for blocks that are no engine of
    their own (the U3 coupling and chaining bridge, OTFDEC).
    """

    functions: tuple[str, ...]
    aes_key_bits: tuple[int, ...]
    hash_algorithms: tuple[str, ...]
    citation: Citation


@dataclass(frozen=True)
class TimingRow:
    """One documented processing time: ``cycles`` of the timing table's clock for ``phase``.

    ``key_bits`` is the AES key size or the PKA modulus size (0 where neither applies);
    ``bytes`` the data block of a ``block`` row (0 otherwise); ``variant`` the PKA
    exponentiation mode (normal, fast, protected, crt; "" otherwise); ``ref`` the table or
    section of the cited document the number is read from.
    """

    function: str
    operation: str
    key_bits: int
    phase: str
    bytes: int
    cycles: float
    kind: str
    variant: str
    ref: str


@dataclass(frozen=True)
class PeripheralTiming:
    """The documented processing times of one crypto peripheral and the clock they count.

    ``clock_max_mhz`` is the highest frequency the documents allow for that clock; when
    ``clock_at_most_core`` the clock is divided down from the CPU clock, so it also never
    exceeds the core clock. ``citation`` covers the rows, ``clock_citation`` the clock facts.
    """

    clock: str
    clock_max_mhz: float
    clock_at_most_core: bool
    clock_citation: Citation
    rows: tuple[TimingRow, ...]
    citation: Citation
    note: str

    def max_clock_mhz(self, core_mhz: float) -> float:
        """The fastest this clock can run while the core runs at ``core_mhz``."""
        return min(self.clock_max_mhz, core_mhz) if self.clock_at_most_core else self.clock_max_mhz


@dataclass(frozen=True)
class CryptoBlock:
    """One crypto peripheral: present or not, what it provides, and its documented timing."""

    name: str
    present: bool
    detail: str
    citation: Citation
    provides: CryptoCapability | None
    timing: PeripheralTiming | None = None


@dataclass(frozen=True)
class PartProfile:
    """A part's crypto peripherals and published clocks, linked to its board profile by name.

    ``name`` is the board profile's name (``cortexm_emu/boards/<name>.toml``, also this file's
    stem), ``part`` the ST part number from it; ``board`` is that profile (emulator facts:
    core, clocks, flash, caches). ``board_as_published`` says how published pages name the
    board ("" when they use the profile's own name).
    """

    name: str
    part: str
    board: Board
    board_as_published: str
    published_clocks: tuple[PublishedClock, ...]
    crypto_hw: tuple[CryptoBlock, ...]
    notes: tuple[str, ...]
    path: Path

    @property
    def published_clocks_mhz(self) -> tuple[float, ...]:
        return tuple(clock.mhz for clock in self.published_clocks)

    def crypto(self, name: str) -> CryptoBlock:
        """The entry for crypto peripheral ``name`` (one of :data:`CRYPTO_BLOCKS` or an extra)."""
        for block in self.crypto_hw:
            if block.name == name:
                return block
        accepted = ", ".join(block.name for block in self.crypto_hw)
        raise ValueError(
            f"Invalid crypto peripheral ({name!r}) for part {self.name}; accepted: {accepted}"
        )

    def has_crypto(self, name: str) -> bool:
        return self.crypto(name).present

    def blocks_providing(self, function: str) -> tuple[CryptoBlock, ...]:
        """The present peripherals that provide ``function`` (one of :data:`CRYPTO_FUNCTIONS`)."""
        if function not in CRYPTO_FUNCTIONS:
            raise ValueError(
                f"Invalid crypto function ({function!r}); accepted: {', '.join(CRYPTO_FUNCTIONS)}"
            )
        return tuple(
            block
            for block in self.crypto_hw
            if block.provides is not None and function in block.provides.functions
        )

    def crypto_functions(self) -> frozenset[str]:
        """Every function some present crypto peripheral of the part provides."""
        return frozenset(
            function
            for block in self.crypto_hw
            if block.provides is not None
            for function in block.provides.functions
        )

    def aes_key_bits(self) -> frozenset[int]:
        """Key sizes accepted by at least one AES engine of the part (empty: no AES engine)."""
        return frozenset(
            bits
            for block in self.blocks_providing("AES")
            for bits in block.provides.aes_key_bits  # type: ignore[union-attr]
        )

    def hash_algorithms(self) -> frozenset[str]:
        """Digests computed by the part's HASH peripheral (empty: no HASH peripheral)."""
        return frozenset(
            algorithm
            for block in self.blocks_providing("HASH")
            for algorithm in block.provides.hash_algorithms  # type: ignore[union-attr]
        )

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready dictionary (``refbench parts --json``); the board appears by name."""
        data = {field.name: _plain(getattr(self, field.name)) for field in dataclasses.fields(self)}
        data["board"] = self.board.name
        data["published_clocks_mhz"] = list(self.published_clocks_mhz)
        return data


def _plain(value: Any) -> Any:
    """Records, tuples and paths as JSON-ready dicts, lists and strings."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return lists(dataclasses.asdict(value))
    if isinstance(value, tuple):
        return [_plain(item) for item in value]
    return str(value) if isinstance(value, Path) else value
