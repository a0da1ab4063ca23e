"""Operation counts: how many field multiplications, squarings, inversions and reductions an operation costs.

The cost of a public-key operation on a microcontroller is, to first order, the
number of multi-precision multiplications, squarings and reductions it performs
(inversions are rarer but far dearer). Every arithmetic primitive of the
public-key references reports to this module, so any operation can be measured::

    >>> from refbench.ref import opcount, ecdsa, curves
    >>> with opcount.counting() as c:
    ...     _ = ecdsa.public_key(curves.P256, 1234567)
    >>> c.mul > 0 and c.sqr > 0
    True

Counted events
--------------
``mul``
    a product of two field elements (or residues) a*b
``sqr``
    a squaring a*a
``inv``
    a modular inversion (its internal multiplications are *not* counted again)
``red``
    a reduction modulo the field prime or modulus (one per ``mul``/``sqr`` in the
    schoolbook "multiply then reduce" form; one per REDC in Montgomery form)

Additions, subtractions and multiplications by small constants are not counted:
they cost a few percent of a multiplication on a 32-bit core.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

__all__ = ["OpCount", "counting", "inv", "mul", "red", "sqr", "suspended"]


@dataclass
class OpCount:
    """Counts collected inside one :func:`counting` block."""

    mul: int = 0
    sqr: int = 0
    inv: int = 0
    red: int = 0

    def as_dict(self) -> dict[str, int]:
        return {"mul": self.mul, "sqr": self.sqr, "inv": self.inv, "red": self.red}

    def __str__(self) -> str:
        return f"{self.mul} M, {self.sqr} S, {self.inv} I, {self.red} reductions"


# Every open counter receives every event (nested blocks each see their own part).
_open: list[OpCount] = []
# While > 0, events are ignored (e.g. the squarings inside an inversion).
_suspend_depth = 0


@contextmanager
def counting() -> Iterator[OpCount]:
    """Count the operations performed inside the ``with`` block."""
    counter = OpCount()
    _open.append(counter)
    try:
        yield counter
    finally:
        _open.remove(counter)


@contextmanager
def suspended() -> Iterator[None]:
    """Ignore events inside the block (used so that an inversion counts as one ``inv``)."""
    global _suspend_depth
    _suspend_depth += 1
    try:
        yield
    finally:
        _suspend_depth -= 1


def mul(n: int = 1) -> None:
    """Record ``n`` multiplications, each followed by a reduction."""
    if _open and not _suspend_depth:
        for c in _open:
            c.mul += n
            c.red += n


def sqr(n: int = 1) -> None:
    """Record ``n`` squarings, each followed by a reduction."""
    if _open and not _suspend_depth:
        for c in _open:
            c.sqr += n
            c.red += n


def inv(n: int = 1) -> None:
    """Record ``n`` inversions."""
    if _open and not _suspend_depth:
        for c in _open:
            c.inv += n


def red(n: int = 1) -> None:
    """Record ``n`` stand-alone reductions (e.g. Montgomery REDC, reducing an input)."""
    if _open and not _suspend_depth:
        for c in _open:
            c.red += n


def mul_unreduced(n: int = 1) -> None:
    """Record ``n`` multiplications whose reduction is counted separately (Montgomery form)."""
    if _open and not _suspend_depth:
        for c in _open:
            c.mul += n


def sqr_unreduced(n: int = 1) -> None:
    """Record ``n`` squarings whose reduction is counted separately (Montgomery form)."""
    if _open and not _suspend_depth:
        for c in _open:
            c.sqr += n
