"""A floor no code can beat: the fewest instructions an algorithm needs on a Cortex-M core, over
the core's issue width. Emulated C variants bound an open C library from below; a closed,
hand-optimised library (ST CMOX) may be faster than any of them, and is flagged only below
this floor.

Each count below is a deliberate undercount of the ALU operations the algorithm's definition
requires per block, assuming the best ARMv7-M tricks (a rotation or shift folded into the
flexible second operand, rotations deferred, disjoint terms added instead of combined), and
ignoring every load, store and branch. A real implementation needs more, so a figure below the
floor cannot be a measurement of the stated work on the stated clock.

Issue width, the documented upper bound: the Cortex-M7 is an
in-order dual-issue pipeline with two ALUs (Cortex-M7 TRM DDI 0489; LLVM ARMScheduleM7.td), the
Cortex-M33 dual-issues some pairs of 16-bit instructions (cortexm_emu/timing/pipeline.py, jnk0le's
measurements), so both are taken at two; the Cortex-M0+, M3 and M4 issue one (LLVM's M4 model:
"IssueWidth = 1 // Only IT can be dual-issued").
"""

from __future__ import annotations

import math
from dataclasses import dataclass

#: Instructions a cycle at best, by core (short name as the board profiles write it).
ISSUE_WIDTH = {"m7": 2, "m33": 2}


def issue_width(core: str) -> int:
    """The issue width of ``core``, named "m7" or "Cortex-M7" (1 for a core not listed)."""
    return ISSUE_WIDTH.get(core.lower().removeprefix("cortex-").replace("+", "plus"), 1)


@dataclass(frozen=True)
class Floor:
    """``instructions`` per ``block`` bytes, with the derivation every message quotes;
    ``pad``: bytes the final block appends (1 + length field) for a digest of a short message."""

    block: int
    instructions: int
    derivation: str
    pad: int = 0


_SHA256 = Floor(64, 64 * 16 + 48 * 6,
                "SHA-256: 64 rounds x at least 16 ALU operations (Sigma0 and Sigma1 two each with the last rotation "
                "folded, Ch two, Maj three, six additions) + 48 schedule words x 6 (sigma0, sigma1 two each, two "
                "additions) = 1,312 per 64-byte block (FIPS 180-4 §6.2.2)", pad=9)
_SHA512 = Floor(128, 80 * 32 + 64 * 12,
                "SHA-512: the SHA-256 count on 64-bit words, each 64-bit operation at least two 32-bit "
                "instructions: 80 rounds x 32 + 64 schedule words x 12 = 3,328 per 128-byte block (FIPS 180-4 "
                "§6.4.2)", pad=17)
_SHA1 = Floor(64, 80 * 6 + 64 * 3,
              "SHA-1: 80 rounds x at least 6 ALU operations (f two, four additions with ROTL5 folded) + 64 schedule "
              "words x 3 XORs = 672 per 64-byte block (FIPS 180-4 §6.1.2)", pad=9)
_CHACHA20 = Floor(64, 20 * 4 * 8 + 16,
                  "ChaCha20: 20 rounds x 4 quarter-rounds x 8 (four additions, four XORs with the rotation folded "
                  "into the next operand) + 16 final additions = 656 per 64-byte block (RFC 8439 §2.1-2.3)")


def _aes(rounds: int) -> Floor:
    return Floor(16, rounds * 16,
                 f"AES ({rounds} rounds): at least one instruction per state byte per round for SubBytes (a table "
                 f"load, or 113/32 = 3.5 gates per byte in the Boyar-Peralta bitsliced S-box) = {rounds * 16} per "
                 "16-byte block (FIPS 197 §5.1)")


FLOORS: dict[str, Floor] = {"sha-224": _SHA256, "sha-256": _SHA256, "sha-384": _SHA512, "sha-512": _SHA512,
                            "sha-1": _SHA1, "chacha20": _CHACHA20}
AES_ROUNDS = {16: 10, 24: 12, 32: 14}


def floor_for(reference: str, key_bytes: int | None) -> Floor | None:
    """The floor of the catalogue operation ``reference`` (AES modes by key size), or None when no
    floor is derived for it."""
    if reference.startswith("aes-") and key_bytes in AES_ROUNDS:
        return _aes(AES_ROUNDS[key_bytes])  # type: ignore[index]
    return FLOORS.get(reference)


def any_code_floor(reference: str, key_bytes: int | None, core: str, size: int, per_op: bool) -> tuple[float, str] | None:
    """(cycles per byte, or per call when ``per_op``, that no code can beat on ``core``; the
    derivation), or None when no floor is derived for ``reference``."""
    floor = floor_for(reference, key_bytes)
    if floor is None:
        return None
    width = issue_width(core)
    if per_op:
        blocks = max(1, math.ceil((size + floor.pad) / floor.block))
        cycles = blocks * floor.instructions / width
        return cycles, (f"{floor.derivation}; {blocks} block(s) for a {size}-byte digest, issue width {width} "
                        f"({core}): at least {cycles:,.0f} cycles")
    rate = floor.instructions / floor.block / width
    return rate, f"{floor.derivation}; issue width {width} ({core}): at least {rate:.2f} c/B"
