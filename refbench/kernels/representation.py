"""Field elements in a variant's own limb representation.

A bignum variant written in a library's shape keeps its field elements in that library's limbs
between operations (CycloneCRYPTO: 2^255 - 19 in 9 signed 32-bit limbs of 29 bits, 2^448 - 2^224 - 1
in 16 of 28 bits), so its field operations take and return limbs, not canonical words; converting
on every call would measure work the library does once per whole operation. A variant's manifest
``limbs`` table (field name of :data:`refbench.kernels.references.FIELDS` -> bits per limb) says so,
and the harness converts here, outside the measured call: canonical operands to limbs before the
call, the limbs the call writes back to the canonical residue after it (results are only partly
reduced, possibly with negative limbs, as the library leaves them).
"""

from __future__ import annotations

from typing import Any

from refbench.kernels.catalog import Operation, Variant
from refbench.kernels.references import FIELDS

#: Roles holding field elements (inputs a and b, results r; a swap's a and b are both).
ELEMENT_ROLES = ("a", "b", "r")


def field_of(op: Operation) -> str | None:
    """The field of a field operation (reference ``fe-<field>-...``), None for any other."""
    parts = op.reference.split("-")
    return parts[1] if len(parts) > 2 and parts[0] == "fe" and parts[1] in FIELDS else None


def limb_shape(variant: Variant, op: Operation) -> tuple[int, int] | None:
    """(bits per limb, limbs per element) when ``variant`` keeps ``op``'s field in its own limbs."""
    field = field_of(op)
    bits = dict(variant.limbs).get(field) if field else None
    if field is None or bits is None:
        return None
    return bits, -(-FIELDS[field][0].bit_length() // bits)


def to_limbs(data: bytes, bits: int, count: int) -> bytes:
    """A little-endian element -> ``count`` little-endian 32-bit limbs of ``bits`` bits."""
    x = int.from_bytes(data, "little")
    if x >> (bits * count):
        raise ValueError(f"Invalid element: {len(data)} bytes do not fit {count} limbs of {bits} bits")
    mask = (1 << bits) - 1
    return b"".join(((x >> (bits * i)) & mask).to_bytes(4, "little") for i in range(count))


def from_limbs(data: bytes, bits: int, field: str) -> bytes:
    """Signed 32-bit limbs of ``bits`` bits (any value, partly reduced) -> the canonical residue."""
    p, size, _ = FIELDS[field]
    value = sum(int.from_bytes(data[i:i + 4], "little", signed=True) << (bits * (i // 4))
                for i in range(0, len(data), 4))
    return (value % p).to_bytes(size, "little")


def encode(variant: Variant, op: Operation, inputs: dict[str, Any]) -> dict[str, Any]:
    """``inputs`` as the variant's call takes them: field elements in its limbs (else unchanged)."""
    shape = limb_shape(variant, op)
    if shape is None:
        return inputs
    return {**inputs, **{role: to_limbs(inputs[role], *shape) for role in ELEMENT_ROLES if role in inputs}}


def decode(variant: Variant, op: Operation, role: str, data: bytes) -> bytes:
    """An output buffer of the call as the reference states it (limbs back to the canonical residue)."""
    shape = limb_shape(variant, op)
    field = field_of(op)
    if shape is None or field is None or role not in ELEMENT_ROLES:
        return data
    return from_limbs(data, shape[0], field)


__all__ = ["decode", "encode", "field_of", "from_limbs", "limb_shape", "to_limbs"]
