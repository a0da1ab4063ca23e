"""Deterministic inputs for one kernel operation: the message size goes to the sized argument,
other buffer lengths are the first the Python reference accepts and the kernel handles."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from functools import cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from refbench.pytest_plugin.selection import BoardCase

#: Lengths tried for buffers the manifest does not size, most common first; the operation's
#: reference decides which one it accepts (AES-128 key, 96-bit GCM/ChaCha20 nonce, a 256-bit
#: DRBG entropy input ...). Roles not listed here get ``OTHER_LENGTHS``.
CANDIDATE_LENGTHS: dict[str, tuple[int, ...]] = {
    "key": (16, 32, 24),
    "nonce": (12, 16, 13, 8),
    "iv": (16, 8),
    "counter": (16, 8),
    "entropy": (32, 48, 16),
    "aad": (0,),
    "personalization": (0,),
}
OTHER_LENGTHS: tuple[int, ...] = (16, 32, 0)
#: The argument the message size applies to, first present wins (``out_len``: a generator's output).
SIZED_ROLES: tuple[str, ...] = ("in", "msg", "out_len", "aad")


def filler(length: int, label: str) -> bytes:
    """Deterministic, non-trivial bytes: SHA-256 in counter mode over ``label``."""
    out = bytearray()
    counter = 0
    while len(out) < length:
        out += hashlib.sha256(f"refbench:{label}:{counter}".encode()).digest()
        counter += 1
    return bytes(out[:length])


def sized_role(roles: tuple[str, ...]) -> str | None:
    """The argument the message size applies to: ``in``, else ``msg``, else ``out_len``, else ``aad``."""
    return next((role for role in SIZED_ROLES if role in roles), None)


def candidate_inputs(family_name: str, operation: str, size: int) -> Iterator[dict[str, bytes | int]]:
    """Inputs by role for one operation that its reference accepts, most common lengths first.

    The sized role (:data:`SIZED_ROLES`) gets ``size`` bytes; the other buffers the harness fills
    (:data:`refbench.kernels.harness.DATA_ROLES`) get deterministic bytes of each length of
    :data:`CANDIDATE_LENGTHS` in turn, and a combination is yielded when the operation's
    preparation and its reference accept it (as the harness runs them). Raises ``ValueError`` for an unknown operation or when no combination is accepted.
    """
    from itertools import product

    from refbench.kernels.catalog import OPERAND_ROLES, family
    from refbench.kernels.harness import DATA_ROLES
    from refbench.kernels.references import prepare, reference

    fam = family(family_name)
    op = next((o for o in fam.operations if o.name == operation), None)
    if op is None:
        valid = ", ".join(o.name for o in fam.operations)
        raise ValueError(f"Invalid operation {operation!r} of kernel {family_name!r}; valid: {valid}")
    roles = tuple(dict.fromkeys(op.args + op.setup_args))
    fixed: dict[str, bytes | int] = {}
    main = sized_role(roles)
    if main == "out_len":
        fixed["out_len"] = size
    elif main is not None:
        fixed[main] = filler(size, main)
    else:  # multi-precision arithmetic: the size is the operands' length, as in refbench.measure
        fixed.update({role: filler(size, role) for role in roles if role in OPERAND_ROLES})
    if "counter32" in roles:
        fixed["counter32"] = 1
    free = [role for role in roles if role in DATA_ROLES and role not in fixed]
    choices = [CANDIDATE_LENGTHS.get(role, OTHER_LENGTHS) for role in free]
    ref, prepared = reference(op.reference), prepare(op.reference)
    accepted = 0
    for lengths in product(*choices):
        inputs = dict(fixed)
        inputs.update({role: filler(length, role) for role, length in zip(free, lengths)})
        try:
            ref(prepared(inputs))  # what the harness does: the operation's preparation, then its reference
        except ValueError:
            continue
        accepted += 1
        yield inputs
    if not accepted:
        tried = "; ".join(f"{role} {CANDIDATE_LENGTHS.get(role, OTHER_LENGTHS)}" for role in free)
        raise ValueError(
            f"Invalid size ({size} bytes) or parameters for kernel {family_name!r} operation {operation!r}: "
            f"its reference {op.reference!r} accepted none of the lengths tried ({tried or 'none'})"
        )


@cache
def accepts(family_name: str, operation: str, size: int) -> bool:
    """Whether the operation's reference takes a ``size``-byte message (or operand)."""
    try:
        next(candidate_inputs(family_name, operation, size))
    except ValueError:
        return False
    return True


def kernel_inputs(family_name: str, operation: str, size: int) -> dict[str, bytes | int]:
    """The first of :func:`candidate_inputs` (what the reference accepts first)."""
    return next(candidate_inputs(family_name, operation, size))


def input_lengths(inputs: dict[str, bytes | int]) -> dict[str, int]:
    """Byte length of every buffer input and the value of every integer input, by role."""
    return {role: value if isinstance(value, int) else len(value) for role, value in inputs.items()}


_CHOSEN: dict[tuple, dict[str, bytes | int]] = {}


def chosen_inputs(harness: Any, case: BoardCase) -> dict[str, bytes | int]:
    """The first candidate inputs that the built kernel handles and that verify.

    A manifest gives no fixed key or nonce length when the C function takes none (e.g. a TDEA
    kernel always reads 24 key bytes, while the reference also accepts 16), so each candidate is
    run once: the first that neither faults (reading past a buffer) nor differs from the
    reference is used. When none does, the first candidate is used and its failure shows.
    """
    from cortexm_emu.errors import EmulatorError

    key = (case.family, case.variant, case.operation, case.size, case.core, case.compiler, case.opt)
    if key not in _CHOSEN:
        first = None
        for inputs in candidate_inputs(case.family, case.operation, case.size):
            first = inputs if first is None else first
            try:
                if harness.run(inputs, case.operation).verified:
                    _CHOSEN[key] = inputs
                    break
            except EmulatorError:
                continue
        else:
            _CHOSEN[key] = first
    return _CHOSEN[key]


