"""Which inputs of an operation are secret, and the input sets a leakage run uses.

Secret roles (:data:`SECRET_ROLES`), chosen by role (:data:`refbench.kernels.catalog.ROLES`) in
this order of preference, the first group the operation takes being its secret:

1. ``key``, ``exponent``, ``entropy``: keys, private exponents, a DRBG's entropy input;
2. ``a`` and ``b``: the operands of multi-precision arithmetic (Montgomery products and field
   multiplications run on secret scalars, exponents and coordinates inside a ladder or an
   exponentiation);
3. ``msg`` / ``in``: the data of an operation that takes no key (a hash of a secret: a
   password, a key being derived).

Everything else is public: nonces, IVs, counters, associated data, the modulus, lengths; and
the roles :data:`PUBLIC_BY_REFERENCE` names for one operation (X25519's u-coordinate ``b`` is
the peer's public key, RFC 7748 §6.1; only the scalar ``a`` is secret).

The sets (Reparaz, Balasch, Verbauwhede, "Dude, is my code constant time?", DATE 2017, §2):

* **secret set**: ``n`` secrets, every public input fixed (the measurement inputs of
  :func:`refbench.measure.make_inputs`): any difference between the runs is caused by the
  secret; these runs are traced. The first secret is the all-zero one of the fixed class, so
  what makes the fixed class differ (a multiplier that finishes early on zero operands, a
  branch on a zero limb) is seen at its instruction, not only in the cycle count.
* **fixed-vs-random**: ``n`` public inputs; for each, one run with the fixed secret (all
  zero bytes, dudect's usual fixed class) and one with a random secret. Welch's t compares the
  two classes' cycles; since the emulator is exact, each pair (same public input) is also
  compared directly. These runs are not traced.

Secrets and public inputs are SHAKE256 streams of a label and an index: deterministic.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from refbench.kernels.catalog import Operation
from refbench.kernels.references import prepare, reference
from refbench.measure import make_inputs

#: Secret roles by preference group (module docstring).
SECRET_ROLES: tuple[tuple[str, ...], ...] = (("key", "exponent", "entropy"), ("a", "b"), ("msg", "in"))
#: Roles that are public in one operation (by its reference) although their role is in
#: :data:`SECRET_ROLES`: the X25519 u-coordinate is the other party's public key (RFC 7748
#: §6.1: Alice computes X25519(a, K_B), her secret scalar and Bob's transmitted K_B); as a secret,
#: its all-zero fixed class would be u = 0, of small order, whose all-zero result the reference
#: rejects (the §6.1 check "whether K is the all-zero value"). The P-256 point of an ECDH
#: multiplication (p256-scalar-mult ``b``) is the peer's public key likewise (SEC 1 v2 §3.3.1).
PUBLIC_BY_REFERENCE: dict[str, tuple[str, ...]] = {"x25519": ("b",), "p256-scalar-mult": ("b",)}
#: Public roles whose bytes vary in the fixed-vs-random set (the rest stay as measured).
VARIED_PUBLIC = ("in", "msg", "iv", "nonce", "counter", "aad", "a", "b")
#: Message or operand sizes tried, in order, for the leakage runs: the first the reference
#: accepts (two AES blocks, one SHA-256 block; the field sizes 32, 48, 56, 68 bytes).
SIZES: tuple[int, ...] = (32, 48, 56, 68, 16, 64, 8)


@dataclass(frozen=True)
class InputSets:
    """The inputs of one leakage analysis, by role."""

    secret_roles: tuple[str, ...]
    size: int
    secret_set: tuple[dict[str, Any], ...]
    fixed_class: tuple[dict[str, Any], ...]
    random_class: tuple[dict[str, Any], ...]


def secret_roles(op: Operation) -> tuple[str, ...]:
    """The operation's secret roles (module docstring)."""
    roles = (set(op.args) | set(op.setup_args)) - set(PUBLIC_BY_REFERENCE.get(op.reference, ()))
    for group in SECRET_ROLES:
        found = tuple(role for role in group if role in roles)
        if found:
            return found
    raise ValueError(f"operation {op.name!r} takes no role that can hold a secret; "
                     f"accepted roles: {', '.join(r for g in SECRET_ROLES for r in g)}")


def _stream(label: str, index: int, role: str, length: int) -> bytes:
    return hashlib.shake_256(f"refbench-leakage/{label}/{index}/{role}".encode()).digest(length)


def leakage_size(op: Operation) -> int:
    """The first of :data:`SIZES` the operation's reference accepts."""
    problems = []
    for size in SIZES:
        try:
            inputs = make_inputs(op, size)
            reference(op.reference)(prepare(op.reference)(inputs))
        except ValueError as exc:
            problems.append(f"{size}: {exc}")
            continue
        return size
    raise ValueError(f"operation {op.name!r}: no size of {SIZES} accepted ({'; '.join(problems)})")


def input_sets(op: Operation, count: int, size: int | None = None) -> InputSets:
    """``count`` secrets with fixed public inputs, and ``count`` fixed-vs-random pairs; ``size``: the
    message or operand length in bytes (default :func:`leakage_size`)."""
    if not isinstance(count, int) or isinstance(count, bool) or count < 2:
        raise ValueError(f"Invalid --secrets ({count!r}); accepted: an integer >= 2")
    roles = secret_roles(op)
    if size is None:
        size = leakage_size(op)
    else:
        try:
            reference(op.reference)(prepare(op.reference)(make_inputs(op, size)))
        except ValueError as exc:
            raise ValueError(f"Invalid --size ({size}) for operation {op.name!r}: {exc}") from None
    base = make_inputs(op, size)
    ready = prepare(op.reference)

    def with_secret(inputs: dict[str, Any], label: str, index: int | None) -> dict[str, Any]:
        secret = {role: (bytes(len(inputs[role])) if index is None else _stream(label, index, role, len(inputs[role])))
                  for role in roles}
        return ready({**inputs, **secret})

    varied = [role for role in VARIED_PUBLIC if role in base and role not in roles]
    publics = [{**base, **{role: _stream("public", j, role, len(base[role])) for role in varied}}
               for j in range(count)]
    return InputSets(
        secret_roles=roles,
        size=size,
        secret_set=(with_secret(base, "fixed", None),
                    *(with_secret(base, "secret", i) for i in range(1, count))),
        fixed_class=tuple(with_secret(p, "fixed", None) for p in publics),
        random_class=tuple(with_secret(p, "random", j) for j, p in enumerate(publics)),
    )
