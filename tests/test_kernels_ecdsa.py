"""ECDSA over P-256 as whole kernels (bignum ``p256-ecdsa-sign``, ``p256-ecdsa-verify``,
refbench/kernels/bignum/p256_ecdsa.h, p256_order.h) against `cryptography` and the Python reference.

* Signing with a given nonce k must give a signature that `cryptography` accepts for the public key
  [d]G and the hash, and the reference's (r, s) (FIPS 186-4 §6.4 with that k).
* Verification must accept `cryptography`'s signatures (random nonces) and reject altered ones: a
  changed hash, s, r, key, and r or s out of [1, n - 1] (FIPS 186-4 §6.4.2 step 1).
Variants: the assembly (umaal_asm) and portable C (c32) on the Cortex-M4, and the ARMv6-M variant
(m0_asm) on the Cortex-M0+; the harness's run verifies each against the reference too.
"""

from __future__ import annotations

import hashlib
from functools import cache

import pytest
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec, utils

from cortexm_emu import Buffer
from refbench.kernels.harness import KernelHarness
from refbench.kernels.references import prepare, reference
from refbench.ref import curves

N = curves.P256.n
CASES = [("umaal_asm", "m4"), ("c32", "m4"), ("m0_asm", "m0plus")]
PREHASHED = ec.ECDSA(utils.Prehashed(hashes.SHA256()))


@cache
def harness(variant: str, core: str) -> KernelHarness:
    return KernelHarness("bignum", variant, core)


def le(x: int) -> bytes:
    return x.to_bytes(32, "little")


def seeded(label: str) -> int:
    return int.from_bytes(hashlib.shake_256(label.encode()).digest(32), "little")


def key(d: int) -> ec.EllipticCurvePrivateKey:
    return ec.derive_private_key(d, ec.SECP256R1())


def public_xy(d: int) -> bytes:
    numbers = key(d).public_key().public_numbers()
    return le(numbers.x) + le(numbers.y)


def digest(message: bytes) -> tuple[bytes, int]:
    """SHA-256 of ``message`` and its integer e (FIPS 186-4 §6.4: all 256 bits, big-endian)."""
    h = hashlib.sha256(message).digest()
    return h, int.from_bytes(h, "big")


def sign_kernel(variant: str, core: str, e: int, d: int, k: int) -> tuple[int, int]:
    got = harness(variant, core).machine.call("p256_ecdsa_sign", Buffer(bytes(64), "r"),
                                              Buffer(le(e) + le(d), "a"), Buffer(le(k), "b"))
    rs = got.buffer("r")
    return int.from_bytes(rs[:32], "little"), int.from_bytes(rs[32:], "little")


def verify_kernel(variant: str, core: str, e: int, r: int, s: int, xy: bytes) -> int:
    got = harness(variant, core).machine.call("p256_ecdsa_verify", Buffer(bytes(64), "r"),
                                              Buffer(le(r % 2**256) + le(s % 2**256), "a"), Buffer(le(e) + xy, "b"))
    out = got.buffer("r")
    assert out[4:] == bytes(60)
    return int.from_bytes(out[:4], "little")


#: (label, d, k): edge keys and nonces (1, n - 1, n - 2 whose base multiplication's last addition
#: meets a doubling, 2, an even k) and seeded ones
SIGN_CASES = [("k=1", seeded("d0") % N, 1), ("d=1 k=n-1", 1, N - 1), ("d=n-1 k=2", N - 1, 2),
              ("k=n-2", seeded("d1") % N, N - 2), ("random", seeded("d2") % N, seeded("k2") % N),
              ("even k", seeded("d3") % N, seeded("k3") % N & ~1)]


@pytest.mark.parametrize("variant, core", CASES)
def test_sign_with_a_given_nonce_is_accepted_by_cryptography(variant, core, subtests):
    for i, (label, d, k) in enumerate(SIGN_CASES):
        h, e = digest(f"refbench signs {i}".encode())
        with subtests.test(msg=f"{variant} {core} {label}"):
            r, s = sign_kernel(variant, core, e, d, k)
            key(d).public_key().verify(utils.encode_dss_signature(r, s), h, PREHASHED)  # raises if invalid
            assert reference("p256-ecdsa-sign")({"a": le(e) + le(d), "b": le(k)})["r"] == le(r) + le(s)
    run = harness(variant, core).run({"a": hashlib.shake_256(b"e d").digest(64), "b": le(seeded("k"))},
                                     "p256-ecdsa-sign")
    assert run.verified, run.mismatch


def test_sign_of_a_hash_above_n_reduces_it():
    """e >= n (the hash's integer is any 256-bit value): the kernel takes e mod n."""
    d, k = seeded("d-high") % N, seeded("k-high") % N
    e = 2**256 - 1
    r, s = sign_kernel("umaal_asm", "m4", e, d, k)
    key(d).public_key().verify(utils.encode_dss_signature(r, s), e.to_bytes(32, "big"), PREHASHED)


def signature(d: int, h: bytes) -> tuple[int, int]:
    return utils.decode_dss_signature(key(d).sign(h, PREHASHED))


@pytest.mark.parametrize("variant, core", CASES)
def test_verify_accepts_cryptographys_signatures_and_rejects_altered_ones(variant, core, subtests):
    d = seeded("verify key") % N
    xy = public_xy(d)
    other = public_xy(seeded("other key") % N)
    h, e = digest(b"refbench verifies")
    r, s = signature(d, h)
    cases = [("valid", e, r, s, xy, 1), ("other hash", e ^ 1, r, s, xy, 0), ("other s", e, r, s ^ 4, xy, 0),
             ("other r", e, (r + 1) % N, s, xy, 0), ("other key", e, r, s, other, 0), ("r = 0", e, 0, s, xy, 0),
             ("s = n", e, r, N, xy, 0), ("s = 0", e, r, 0, xy, 0),
             ("n - s, valid too (ECDSA's malleability)", e, r, N - s, xy, 1)]
    h2, e2 = digest(b"a second message")
    r2, s2 = signature(d, h2)
    cases.append(("second valid", e2, r2, s2, xy, 1))
    for label, e_, r_, s_, xy_, want in cases:
        with subtests.test(msg=f"{variant} {core} {label}"):
            assert verify_kernel(variant, core, e_, r_, s_, xy_) == want
            ref = reference("p256-ecdsa-verify")({"a": le(r_) + le(s_), "b": le(e_) + xy_})["r"]
            assert int.from_bytes(ref[:4], "little") == want
    run = harness(variant, core).run({"a": le(r) + le(s), "b": le(e) + xy}, "p256-ecdsa-verify")
    assert run.verified, run.mismatch


def test_verify_of_a_hash_that_is_0_mod_n():
    """e = n: u1 = 0, so R = [u2]Q, and the [u1]G sum ends at the point at infinity (p256_ecdsa.h's
    exceptional cases); the signature made by `cryptography` of that hash verifies."""
    d = seeded("zero hash key") % N
    h = N.to_bytes(32, "big")
    r, s = signature(d, h)
    assert verify_kernel("umaal_asm", "m4", N, r, s, public_xy(d)) == 1
    assert verify_kernel("umaal_asm", "m4", N, r, (s + 1) % N, public_xy(d)) == 0


def crafted(d: int, k: int, e: int) -> tuple[int, int]:
    """(r, s) signed by the integers of FIPS 186-4 §6.4 with key d, nonce k and hash integer e."""
    r = key(k).public_key().public_numbers().x % N
    return r, pow(k, -1, N) * (e + r * d) % N


@pytest.mark.parametrize("variant, core", CASES)
def test_verify_when_the_partial_sums_meet_the_points_added(variant, core, subtests):
    """Q = +-G (keys 1 and n - 1): the interleaved sum of u1's multiples of G and u2's of Q meets the
    point it adds at every digit where the two NAFs agree (p256_ecdsa.h's exceptional cases): with
    Q = G and e = r (u1 = u2) the same point (a doubling), with Q = -G and k = 5 (u1 - u2 = 5) its
    negative (the point at infinity, then loaded again); with Q = -G and e = r, R itself is at
    infinity (any s): rejected."""
    e = seeded("crafted hash") % N
    r1, s1 = crafted(1, seeded("crafted k") % N, 0)
    r1, s1 = crafted(1, seeded("crafted k") % N, r1)                         # e = r
    r2, s2 = crafted(N - 1, 5, e)
    cases = [("Q = G, u1 = u2", r1, r1, s1, public_xy(1), 1),
             ("Q = -G, u1 - u2 = 5", e, r2, s2, public_xy(N - 1), 1),
             ("Q = -G, u1 = u2: R at infinity", e, e, seeded("any s") % N, public_xy(N - 1), 0)]
    for label, e_, r_, s_, xy_, want in cases:
        with subtests.test(msg=f"{variant} {core} {label}"):
            assert verify_kernel(variant, core, e_, r_, s_, xy_) == want
            ref = reference("p256-ecdsa-verify")({"a": le(r_) + le(s_), "b": le(e_) + xy_})["r"]
            assert int.from_bytes(ref[:4], "little") == want


def point_with_x_above_n() -> tuple[int, int]:
    """The P-256 point of least x >= n (x(R) mod n = x - n: verification's second candidate r + n)."""
    p, b = curves.P256.p, curves.P256.b
    x = N
    while True:
        rhs = (x**3 - 3 * x + b) % p
        y = pow(rhs, (p + 1) // 4, p)          # p = 3 mod 4
        if y * y % p == rhs:
            return x, y
        x += 1


@pytest.mark.parametrize("variant, core", CASES)
def test_verify_when_x_of_r_is_above_n(variant, core, subtests):
    """R = Q with x(Q) >= n (e = 0, s = r: u1 = 0, u2 = 1): the signature with r = x(Q) - n holds
    (`cryptography` agrees), found by the second candidate of p256_ecdsa.h's test with no inversion,
    (r + n) Z^2 = X; r + 1 fails."""
    x, y = point_with_x_above_n()
    xy = le(x) + le(y)
    r = x - N
    public = ec.EllipticCurvePublicNumbers(x, y, ec.SECP256R1()).public_key()
    public.verify(utils.encode_dss_signature(r, r), bytes(32), PREHASHED)   # raises when invalid
    for label, r_, want in [("r = x - n", r, 1), ("r = x - n + 1", r + 1, 0)]:
        with subtests.test(msg=f"{variant} {core} {label}"):
            assert verify_kernel(variant, core, 0, r_, r_, xy) == want
            ref = reference("p256-ecdsa-verify")({"a": le(r_) + le(r_), "b": le(0) + xy})["r"]
            assert int.from_bytes(ref[:4], "little") == want


def test_preparations_make_valid_operands_and_name_bad_lengths():
    ready = prepare("p256-ecdsa-sign")({"a": bytes(64), "b": bytes(64)})
    assert ready["a"] == bytes(32) + le(1) and ready["b"] == le(1)  # d and k of 0 become 1
    assert prepare("p256-ecdsa-sign")(ready) == ready
    ready = prepare("p256-ecdsa-verify")({"a": bytes(64), "b": bytes(64)})
    assert ready["b"] == bytes(32) + public_xy(1)  # a scalar of 0 becomes 1: the key G
    assert prepare("p256-ecdsa-verify")(ready) == ready
    with pytest.raises(ValueError, match="Invalid a length .* ECDSA P-256 signing"):
        prepare("p256-ecdsa-sign")({"a": bytes(32), "b": bytes(32)})
    with pytest.raises(ValueError, match="Invalid b length .* ECDSA P-256 signing"):
        prepare("p256-ecdsa-sign")({"a": bytes(64), "b": bytes(16)})
    with pytest.raises(ValueError, match="Invalid a length .* ECDSA P-256 verification"):
        prepare("p256-ecdsa-verify")({"a": bytes(96), "b": bytes(64)})
    with pytest.raises(ValueError, match="Invalid b length .* ECDSA P-256 verification"):
        prepare("p256-ecdsa-verify")({"a": bytes(64), "b": bytes(32)})
    with pytest.raises(ValueError, match="not a point on the curve"):
        prepare("p256-ecdsa-verify")({"a": bytes(64), "b": bytes(32) + public_xy(1)[:32] + bytes(32)})


def order_operands() -> list[tuple[str, int, int]]:
    """(label, a, b): zero, one, n - 1 (the largest product), the products just below and above n R
    (the final masked subtraction either way), words of all ones, then seeded random ones."""
    out = [("zero", 0, N - 1), ("one", 1, 1), ("n-1", N - 1, N - 1), ("n-1,1", N - 1, 1),
           ("R mod n", 2**256 % N, N - 2), ("2^255", 2**255, 2**255 - 1), ("all-ones low", 2**128 - 1, 2**128 - 1)]
    out += [(f"random{i}", seeded(f"order a{i}") % N, seeded(f"order b{i}") % N) for i in range(6)]
    return out


@pytest.mark.parametrize("variant, core", CASES)
@pytest.mark.parametrize("operation", ["p256-order-mul", "p256-order-sqr"])
def test_order_montgomery_product_equals_integers(variant, core, operation, subtests):
    square = operation.endswith("sqr")
    r_inv = pow(2**256, -1, N)
    for label, a, b in order_operands():
        with subtests.test(msg=f"{variant} {core} {operation} {label}"):
            want = le(a * (a if square else b) * r_inv % N)
            assert reference(operation)({"a": le(a), "b": le(b)})["r"] == want
            run = harness(variant, core).run({"a": le(a), "b": le(b)}, operation)
            assert run.verified, run.mismatch


@pytest.mark.parametrize("variant, core", CASES)
def test_halving_equals_integers(variant, core, subtests):
    """p256-halve, the halving of the doubling (priced by the composition): a / 2 mod p for even and
    odd a, 0 and p - 1."""
    p = curves.P256.p
    for label, a in [("zero", 0), ("one", 1), ("two", 2), ("p-1", p - 1), ("2^255+1", 2**255 + 1),
                     ("random", seeded("halve") % p)]:
        with subtests.test(msg=f"{variant} {core} {label}"):
            assert reference("fe-p256-halve")({"a": le(a)})["r"] == le(a * pow(2, -1, p) % p)
            run = harness(variant, core).run({"a": le(a)}, "p256-halve")
            assert run.verified, run.mismatch


#: The kernel functions each priced operation calls (p256_mont.h, fe.h, p256_ct.h, p256_order.h).
FUNCTIONS = {"p256-mont-mul": "p256_mont_mul", "p256-mont-sqr": "p256_mont_sqr", "p256-add": "fe_p256_add",
             "p256-sub": "fe_p256_sub", "p256-halve": "p256_halve", "p256-order-mul": "p256_order_mul",
             "p256-order-sqr": "p256_order_sqr", "p256-base-mult-ct": "p256_scalarmult_base_ct"}


@pytest.mark.parametrize("variant, core", [("umaal_asm", "m4"), ("c32", "m4")])
@pytest.mark.parametrize("operation", ["p256-ecdsa-sign", "p256-ecdsa-verify"])
def test_composed_work_is_the_kernels_own_calls(variant, core, operation):
    """The composition check's work (refbench/sanity/pubkey_whole.py ecdsa_work) counts exactly the
    calls the kernel makes (signing: its own calls, the base-point multiplication one of them): each
    function's entries, counted by the emulator, on a signature made by `cryptography` for verify."""
    from refbench.sanity import pubkey_whole

    h = harness(variant, core)
    if operation not in pubkey_whole.composed_operations(variant):
        # left out of the checks: its point formulas are the variant's own assembly, entered per digit
        d = seeded("formulas key") % N
        hash_, e = digest(b"formulas")
        r, s = signature(d, hash_)
        run = h.run({"a": le(r) + le(s), "b": le(e) + public_xy(d)}, operation)
        formulas = h.machine.image.functions["p256_jac_double"].address
        assert run.verified and h.last_call.block_counts.get(formulas, 0) > 200
        return
    if operation == "p256-ecdsa-sign":
        inputs = {"a": hashlib.shake_256(b"e d").digest(64), "b": le(seeded("k"))}
    else:
        d = seeded("composition key") % N
        hash_, e = digest(b"composition")
        r, s = signature(d, hash_)
        inputs = {"a": le(r) + le(s), "b": le(e) + public_xy(d)}
    run = h.run(inputs, operation)
    assert run.verified, run.mismatch
    if operation == "p256-ecdsa-verify":
        assert h.last_call.buffer("r")[0] == 1
    work = pubkey_whole.ecdsa_work(operation, prepare(operation)(inputs))
    functions = h.machine.image.functions
    counts = h.last_call.block_counts
    if operation == "p256-ecdsa-sign":  # the calls inside the base-point multiplication are not signing's own
        base = harness(variant, core)
        base.run({"a": prepare(operation)(inputs)["b"]}, "p256-base-mult-ct")
        inner = dict(base.last_call.block_counts)
        inner.pop(h.machine.image.functions["p256_scalarmult_base_ct"].address)  # its entry is signing's call
        counts = {address: n - inner.get(address, 0) for address, n in counts.items()}
    entries = {op: counts.get(functions[name].address, 0) for op, name in FUNCTIONS.items()}
    assert entries == {op: work.get((op, 32), 0) for op in FUNCTIONS}
    assert work[("call", 32)] == sum(entries.values())


def test_sign_is_constant_time_in_the_key_and_nonce():
    """Signing (the base-point multiplication by masked table scans, k^-1 over the public exponent
    n - 2, masked reductions): no secret-dependent cycles, addresses or branches (refbench leakage)
    with the assembly field and order operations of the Cortex-M33; secrets a = e || d and b = k."""
    from refbench.leakage.check import analyze
    from refbench.leakage.runner import make_target

    report = analyze("bignum", "umaal_asm", "p256-ecdsa-sign", make_target("m33", None), secrets=2)
    assert report.secret_roles == ("a", "b")
    assert report.verdict == "constant-time"


def test_composition_work_names_a_wrong_operation_and_counts_a_rejected_signature_as_no_call():
    from refbench.sanity import pubkey_whole

    with pytest.raises(ValueError, match="Invalid ECDSA operation 'p256-ecdsa'; accepted: p256-ecdsa-sign"):
        pubkey_whole.ecdsa_work("p256-ecdsa", {})
    assert pubkey_whole.ecdsa_work("p256-ecdsa-verify", {"a": le(0) + le(1), "b": bytes(96)}) == {}


@pytest.mark.parametrize("w", [5, 7])
def test_wnaf_is_the_scalar(w):
    """p256_wnaf (the composition's count of verification's doublings, additions and negations) is
    p256_ecdsa.h's recoding: odd digits in [-(2^(w-1) - 1), 2^(w-1) - 1] or 0, at most one non-zero in
    any w consecutive, whose value is k, the top digit not 0."""
    from refbench.sanity.pubkey_whole import p256_wnaf

    assert p256_wnaf(0, w) == []
    for k in (1, 2, 2**w - 1, 2**256 - 1, N - 1, N - 2, seeded("digits") % N):
        digits = p256_wnaf(k, w)
        assert digits[-1] != 0 and len(digits) <= 257
        assert all(x == 0 or (x % 2 and abs(x) < 2 ** (w - 1)) for x in digits)
        assert all(sum(1 for x in digits[i:i + w] if x) <= 1 for i in range(len(digits)))
        assert sum(x * 2**i for i, x in enumerate(digits)) == k
