"""The P-256 kernels in Montgomery form (family ``bignum``, p256_mont.h; umaal_asm/p256.S):
the field multiplication and squaring r = a b 2^-256 mod p against plain Python integers, on
the edge cases of the shift-and-add REDC and the final masked subtraction and on seeded random
operands, for every variant on the Cortex-M4 and the M0+ (the cores of its manifest)."""

from __future__ import annotations

import hashlib
from functools import cache

import pytest

from refbench.kernels import catalog
from refbench.kernels.harness import KernelHarness
from refbench.kernels.references import FIELDS, prepare, reference

P = FIELDS["p256"][0]
R_INV = pow(2**256, -1, P)
CORES = ("m0plus", "m4")


@cache
def harness(variant: str, core: str) -> KernelHarness:
    return KernelHarness("bignum", variant, core)


def variants_on(core: str) -> list[str]:
    return [v.name for v in catalog.family("bignum").variants.values() if v.supports(core)]


def le(x: int) -> bytes:
    return x.to_bytes(32, "little")


def operands() -> list[tuple[str, int, int]]:
    """(label, a, b): zero, one, p - 1 (the largest product), values whose REDC quotient words
    are all ones or zero, products just below and above p R, then seeded random ones."""
    out = [("zero", 0, P - 1), ("one", 1, 1), ("p-1", P - 1, P - 1), ("p-1,1", P - 1, 1),
           ("2^255", 2**255, 2**255 - 1), ("R mod p", 2**256 - P, P - 2),
           ("all-ones low", 2**128 - 1, 2**128 - 1), ("2^224", 2**224, 2**32)]
    for i in range(6):
        a, b = (int.from_bytes(hashlib.shake_256(f"p256-mont/{r}/{i}".encode()).digest(32), "little") % P
                for r in ("a", "b"))
        out.append((f"random{i}", a, b))
    return out


@pytest.mark.parametrize("core", CORES)
@pytest.mark.parametrize("operation", ["p256-mont-mul", "p256-mont-sqr"])
def test_montgomery_product_equals_integers(core, operation, subtests):
    square = operation.endswith("sqr")
    for variant in variants_on(core):
        h = harness(variant, core)
        for label, a, b in operands():
            with subtests.test(msg=f"{variant}:{operation}:{core}:{label}"):
                raw = {"a": le(a), "b": le(b)}
                want = le(a * (a if square else b) * R_INV % P)
                assert reference(f"fe-{operation}")(prepare(f"fe-{operation}")(raw))["r"] == want
                run = h.run(raw, operation)
                assert run.verified, run.mismatch
