"""Ed25519's group operations as whole kernels (bignum ``ed25519-base-mult``, ``ed25519-double-mult``,
refbench/kernels/bignum/ed25519.h) against `cryptography` and the Python reference.

* The base-point multiplication of the clamped SHA-512 half of a seed (RFC 8032 §5.1.5; the
  hashing and clamping here, in Python, the multiplication and encoding in the kernel) must be
  `cryptography`'s Ed25519 public key of that seed.
* The double scalar multiplication [S]B - [h]A of a `cryptography` signature (R, S) of a message,
  h = SHA-512(R || A || M) mod L, must be the point R (RFC 8032 §5.1.7): the verification equation.
Every bignum variant on the Cortex-M0+ and M4 (the cores of its manifest); the harness's run
verifies each against the reference too.
"""

from __future__ import annotations

import hashlib
from functools import cache

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ed25519

from cortexm_emu import Buffer
from refbench.kernels import catalog
from refbench.kernels.harness import KernelHarness
from refbench.kernels.references import prepare, reference
from refbench.leakage.check import analyze
from refbench.leakage.runner import make_target
from refbench.ref import edwards
from refbench.sanity import pubkey_whole

E = edwards.ED25519
CORES = ("m0plus", "m4")
RAW = serialization.Encoding.Raw, serialization.PublicFormat.Raw


@cache
def harness(variant: str, core: str) -> KernelHarness:
    return KernelHarness("bignum", variant, core)


def cases(cores: tuple[str, ...] = CORES) -> list[tuple[str, str]]:
    fam = catalog.family("bignum")
    return [(v.name, core) for v in fam.variants.values() for core in cores if v.supports(core)]


def le(x: int, size: int = 32) -> bytes:
    return x.to_bytes(size, "little")


def clamped(seed: bytes) -> bytes:
    """The secret scalar s of RFC 8032 §5.1.5 steps 1-3: the first half of SHA-512(seed), clamped."""
    s = bytearray(hashlib.sha512(seed).digest()[:32])
    s[0] &= 248
    s[31] = (s[31] & 127) | 64
    return bytes(s)


SEEDS = (bytes(32), hashlib.sha256(b"refbench ed25519 seed").digest())


@pytest.mark.parametrize("variant, core", cases())
def test_base_mult_of_the_clamped_scalar_is_cryptographys_public_key(variant, core, subtests):
    h = harness(variant, core)
    for seed in SEEDS:
        with subtests.test(msg=f"{variant} {core} seed {seed.hex()[:8]}"):
            want = ed25519.Ed25519PrivateKey.from_private_bytes(seed).public_key().public_bytes(*RAW)
            got = h.machine.call("ed25519_scalarmult_base", Buffer(bytes(32), "r"), Buffer(clamped(seed), "a"))
            assert got.buffer("r") == want
    run = h.run({"a": le(E.L - 1)}, "ed25519-base-mult")  # every bit but the top three of a 256-bit scalar
    assert run.verified, run.mismatch


def test_base_mult_reference_of_edge_scalars():
    """0 and L give the neutral element (0, 1), whose encoding is 1; 1 gives B (RFC 8032 §5.1)."""
    ref = reference("ed25519-base-mult")
    assert ref({"a": le(0)})["r"] == ref({"a": le(E.L)})["r"] == le(1)
    assert ref({"a": le(1)})["r"] == le(E.By | (E.Bx & 1) << 255)
    with pytest.raises(ValueError, match="Ed25519 scalar"):
        ref({"a": bytes(31)})


def signature_case(message: bytes) -> tuple[bytes, bytes, bytes]:
    """(a = S || h, b = A's affine x || y, R's encoding) of a `cryptography` signature of ``message``."""
    key = ed25519.Ed25519PrivateKey.from_private_bytes(SEEDS[1])
    public = key.public_key().public_bytes(*RAW)
    sig = key.sign(message)
    R, S = sig[:32], sig[32:]
    h = int.from_bytes(hashlib.sha512(R + public + message).digest(), "little") % E.L
    x, y = edwards.to_affine(E, edwards.decode(E, public))
    return S + le(h), le(x) + le(y), R


@pytest.mark.parametrize("variant, core", [(v, c) for v, c in cases() if c == "m4" or v.startswith("m0")])
def test_double_mult_of_a_signature_is_its_R_point(variant, core):
    a, b, R = signature_case(b"refbench verifies")
    h = harness(variant, core)
    got = h.machine.call("ed25519_double_scalarmult", Buffer(bytes(64), "r"), Buffer(a, "a"), Buffer(b, "b"))
    r = got.buffer("r")
    x, y = int.from_bytes(r[:32], "little"), int.from_bytes(r[32:], "little")
    assert le(y | (x & 1) << 255) == R
    # the reference agrees, and the harness's run on seeded operands verifies
    assert reference("ed25519-double-mult")({"a": a, "b": b})["r"] == r
    run = h.run({"a": hashlib.shake_256(b"S h").digest(64), "b": hashlib.shake_256(b"A").digest(64)},
                "ed25519-double-mult")
    assert run.verified, run.mismatch


def test_double_mult_preparation_makes_a_point_and_checks_lengths():
    ready = prepare("ed25519-double-mult")({"a": bytes(64), "b": hashlib.shake_256(b"t").digest(64)})
    x, y = int.from_bytes(ready["b"][:32], "little"), int.from_bytes(ready["b"][32:], "little")
    assert (-x * x + y * y - 1 - E.d * x * x * y * y) % E.p == 0
    with pytest.raises(ValueError, match="64 bytes"):
        prepare("ed25519-double-mult")({"a": bytes(32), "b": bytes(32)})


#: The kernel functions each priced operation calls (fe.h, ed25519.h).
FUNCTIONS = {"25519-mul": "fe25519_mul", "25519-sqr": "fe25519_sqr", "25519-add": "fe25519_add",
             "25519-sub": "fe25519_sub", "select": "fe25519_select"}


@pytest.mark.parametrize("variant, core", [("c32", "m4"), ("umaal_asm", "m4"), ("m0_asm", "m0plus")])
@pytest.mark.parametrize("operation, inputs", [
    ("ed25519-base-mult", {"a": hashlib.shake_256(b"k").digest(32)}),
    ("ed25519-double-mult", {"a": hashlib.shake_256(b"S h").digest(64), "b": hashlib.shake_256(b"A").digest(64)}),
])
def test_composed_work_is_the_kernels_own_calls(variant, core, operation, inputs):
    """The composition check's work (refbench/sanity/pubkey_whole.py) counts exactly the field and
    select calls the kernel makes: each function's entries, counted by the emulator."""
    h = harness(variant, core)
    run = h.run(inputs, operation)
    assert run.verified, run.mismatch
    functions = h.machine.image.functions
    entries = {op: h.last_call.block_counts.get(functions[name].address, 0) for op, name in FUNCTIONS.items()}
    work = pubkey_whole.ed25519_work(operation)
    assert entries == {op: work[(op, 32)] for op in FUNCTIONS}
    assert work[("call", 32)] == sum(entries.values())


def test_base_mult_is_constant_time_in_the_secret_scalar():
    """The double-and-always-add with selects (ed25519.h): no secret-dependent cycles, addresses or
    branches (refbench leakage) with the assembly field operations of the Cortex-M33."""
    report = analyze("bignum", "umaal_asm", "ed25519-base-mult", make_target("m33", None), secrets=2)
    assert report.secret_roles == ("a",)
    assert report.verdict == "constant-time"
