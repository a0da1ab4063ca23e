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
    are all ones or zero, products just below and above p R, words with their top bit set (the
    squaring doubles the high half of its cross products by shifts: each word's top bit moves
    into the next), then seeded random ones."""
    top = sum(0x80000000 << (32 * i) for i in range(8)) % P
    top_low = sum(0xC0000001 << (32 * i) for i in range(8)) % P
    out = [("zero", 0, P - 1), ("one", 1, 1), ("p-1", P - 1, P - 1), ("p-1,1", P - 1, 1),
           ("2^255", 2**255, 2**255 - 1), ("R mod p", 2**256 - P, P - 2),
           ("all-ones low", 2**128 - 1, 2**128 - 1), ("2^224", 2**224, 2**32),
           ("top bits", top, top), ("top and low bits", top_low, top)]
    for i in range(12):
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


# ------------------------------------------------------------------ whole scalar multiplications

N = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551  # FIPS 186-4 D.1.2.3


def scalars() -> list[tuple[str, int]]:
    """Edge scalars of the odd-digit recoding (odd and even, all digits +-15, the top window, n - 1,
    which is negated to 1; 2 and n - 2, whose last addition meets a doubling) and seeded random
    ones."""
    out = [("1", 1), ("2", 2), ("3", 3), ("16", 16), ("n-1", N - 1), ("n-2", N - 2), ("n-3", N - 3),
           ("2^255", 2**255), ("2^128-1", 2**128 - 1)]
    out += [(f"random{i}", int.from_bytes(hashlib.shake_256(f"p256-k/{i}".encode()).digest(32), "little") % N)
            for i in range(4)]
    return out


def cryptography_x(k: int, d: int | None) -> bytes:
    """x([k]G) (the public key's x) or x([k][d]G) (the ECDH shared secret) from `cryptography`,
    little-endian."""
    from cryptography.hazmat.primitives.asymmetric import ec

    key = ec.derive_private_key(k, ec.SECP256R1())
    if d is None:
        return key.public_key().public_numbers().x.to_bytes(32, "little")
    peer = ec.derive_private_key(d, ec.SECP256R1()).public_key()
    return key.exchange(ec.ECDH(), peer)[::-1]


@pytest.mark.parametrize("variant", ["umaal_asm", "c32"])
def test_base_mult_ct_equals_cryptography(variant, subtests):
    h = harness(variant, "m4")
    for label, k in scalars():
        with subtests.test(msg=f"{variant}:{label}"):
            run = h.run({"a": le(k)}, "p256-base-mult-ct")
            assert run.verified, run.mismatch
            assert h.last_call.buffer("r") == cryptography_x(k, None)


@pytest.mark.parametrize("variant", ["umaal_asm", "c32"])
def test_scalar_mult_equals_cryptography_ecdh(variant, subtests):
    h = harness(variant, "m4")
    for i, (label, k) in enumerate(scalars()):
        d = int.from_bytes(hashlib.shake_256(f"p256-peer/{i}".encode()).digest(32), "little") % N
        with subtests.test(msg=f"{variant}:{label}"):
            run = h.run({"a": le(k), "b": le(d)}, "p256-scalar-mult")
            assert run.verified, run.mismatch
            assert h.last_call.buffer("r") == cryptography_x(k, d)


def test_base_mult_of_zero_is_zero():
    """k = 0 (the preparation's reduction of n): x = 0, the reference's point at infinity."""
    run = harness("umaal_asm", "m4").run({"a": le(N)}, "p256-base-mult-ct")
    assert run.verified, run.mismatch


def test_point_preparation_checks_the_point():
    from refbench.kernels.references import prepare_p256_point

    good = prepare_p256_point({"a": le(5), "b": le(7)})
    assert prepare_p256_point(good) == good  # idempotent: a prepared point stays
    with pytest.raises(ValueError, match="Invalid b for a P-256 point"):
        prepare_p256_point({"a": le(5), "b": good["b"][:32] + bytes(32)})


def test_base_table_header_equals_its_generator():
    from refbench.kernels.bignum import p256_table

    assert p256_table.HEADER.read_text() == p256_table.header()
