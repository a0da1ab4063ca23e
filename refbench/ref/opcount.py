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
``mul_const``
    a product of a field element and a constant that fits one 32-bit word, such
    as X25519's a24 = 121665, X448's a24 = 39081 and Ed448's d = −39081 (RFC 7748
    §5, RFC 8032 §5.2.4). A microcontroller does it as one row of word products
    (n instead of n² of a full ``mul``), so it is counted apart, not as a ``mul``
``inv``
    a modular inversion (its internal multiplications are *not* counted again)
``red``
    a reduction modulo the field prime or modulus (one per ``mul``/``sqr``/``mul_const``
    in the schoolbook "multiply then reduce" form; one per REDC in Montgomery form)

``add``
    a modular addition a + b (one pass of word additions and a conditional
    subtraction of the modulus); a multiplication by 2, 3, 4 or 8 (the EFD
    formulas' small constants) counts as the additions it takes: 1, 2, 2, 3
``sub``
    a modular subtraction a − b or negation −a (one pass of word subtractions and
    a conditional addition of the modulus)
``cswap``
    a constant-time conditional swap of two field elements (the Montgomery ladder's
    cswap of RFC 7748 §5 swaps two pairs: two events)

The additive events cost a few percent of a multiplication each on a 32-bit core,
but an X25519 ladder step does eight of them against ten products, so the cost
composition prices them too (refbench/sanity/pubkey_cost.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

__all__ = [
    "OpCount",
    "add",
    "cswap",
    "counting",
    "inv",
    "mul",
    "mul_const",
    "mul_unreduced",
    "red",
    "sqr",
    "sqr_unreduced",
    "sub",
    "suspended",
]


@dataclass
class OpCount:
    """Counts collected inside one :func:`counting` block."""

    mul: int = 0
    sqr: int = 0
    mul_const: int = 0
    inv: int = 0
    red: int = 0
    add: int = 0
    sub: int = 0
    cswap: int = 0

    def as_dict(self) -> dict[str, int]:
        return {
            "mul": self.mul,
            "sqr": self.sqr,
            "mul_const": self.mul_const,
            "inv": self.inv,
            "red": self.red,
            "add": self.add,
            "sub": self.sub,
            "cswap": self.cswap,
        }

    def __str__(self) -> str:
        return (
            f"{self.mul} M, {self.sqr} S, {self.mul_const} M_const, {self.inv} I, "
            f"{self.red} reductions"
        )


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


def _record(n: int, event: str, reduced: bool) -> None:
    """Add ``n`` to counter ``event`` (and to ``red`` when each one ends in a reduction)."""
    if _open and not _suspend_depth:
        for c in _open:
            setattr(c, event, getattr(c, event) + n)
            if reduced:
                c.red += n


def mul(n: int = 1) -> None:
    """Record ``n`` multiplications, each followed by a reduction."""
    _record(n, "mul", reduced=True)


def sqr(n: int = 1) -> None:
    """Record ``n`` squarings, each followed by a reduction."""
    _record(n, "sqr", reduced=True)


def mul_const(n: int = 1) -> None:
    """Record ``n`` multiplications by a one-word constant, each followed by a reduction."""
    _record(n, "mul_const", reduced=True)


def inv(n: int = 1) -> None:
    """Record ``n`` inversions."""
    _record(n, "inv", reduced=False)


def add(n: int = 1) -> None:
    """Record ``n`` modular additions (or the additions of a small-constant multiple)."""
    _record(n, "add", reduced=False)


def sub(n: int = 1) -> None:
    """Record ``n`` modular subtractions or negations."""
    _record(n, "sub", reduced=False)


def cswap(n: int = 1) -> None:
    """Record ``n`` constant-time conditional swaps of two field elements."""
    _record(n, "cswap", reduced=False)


def red(n: int = 1) -> None:
    """Record ``n`` stand-alone reductions (e.g. Montgomery REDC, reducing an input)."""
    _record(n, "red", reduced=False)


def mul_unreduced(n: int = 1) -> None:
    """Record ``n`` multiplications whose reduction is counted separately (Montgomery form)."""
    _record(n, "mul", reduced=False)


def sqr_unreduced(n: int = 1) -> None:
    """Record ``n`` squarings whose reduction is counted separately (Montgomery form)."""
    _record(n, "sqr", reduced=False)
