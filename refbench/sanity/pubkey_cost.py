"""Cost composition of public-key operations: counted field/bignum operations x emulated cycles.

A full public-key operation is far too long to emulate for every figure (an RSA-4096 private
operation is about a billion cycles on an M0+). Its cost is, to first order, its number of field
or bignum multiplications and squarings times what one costs on that core, board and memory
configuration. This module says, for one published algorithm and operation, which **recipes**
(arithmetic x scalar-multiplication or exponentiation method) a library may use, and for each the
**work**: how many calls of which kernel operation (``refbench/kernels/bignum``) at which operand
size. The counts come from the Python references run under :func:`refbench.ref.opcount.counting`
(elliptic curves) or from the exponentiation's own count (RSA, DH, DSA: the kernel's fixed window,
``exp.h``); the pricing of what no kernel has (inversion, one-word constants) and every library
choice are data, with their sources, in ``pubkey_costs.toml``. :func:`compose` multiplies the
work by measured cycles. The composition is checked against full emulation of whole operations
(:mod:`refbench.sanity.pubkey_whole`, which derives the composition bound from it).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from dataclasses import dataclass, fields
from functools import cache
from pathlib import Path
from typing import Any

from cortexm_emu.datafile import error_at, read_toml
from refbench.published.library_units import release
from refbench.published.model import Figure
from refbench.ref import (
    curves,
    ec_cyclone,
    ecdh,
    ecdsa,
    eddsa,
    edwards,
    modarith,
    montgomery,
    mpi_cyclone,
    opcount,
    sm2,
    weierstrass,
)

COSTS_PATH = Path(__file__).with_name("pubkey_costs.toml")

#: The kernel operation that prices a conditional swap where the field has no swap operation
#: (two per swap: [pricing] cswap).
SELECT = "select"
#: The name of the verify method that multiplies u1 G and u2 Q separately ([scalar_mult] separate_verify).
SEPARATE_VERIFY = "separate multiplications"
#: The kernel operation that prices the caller's side of every kernel call ([pricing] call).
CALL = "call"

#: Work: (kernel operation, operand bytes) -> number of calls.
Work = dict[tuple[str, int], int]

#: The whole kernel operation that computes one RFC 7748 ladder scalar multiplication of a curve,
#: with its operand bytes (refbench/kernels/bignum x25519.h: ladder and inversion, the counts of
#: :func:`reference_counts` "agree"). A library whose ladder is one assembly routine (wolfSSL
#: WOLFSSL_ARMASM, pubkey_costs.toml [[libraries]]) is priced by it, measured whole.
WHOLE_LADDERS = {"Curve25519": ("x25519", 32)}


@dataclass(frozen=True)
class Recipe:
    """One way a library computes an operation: ``name`` for explanations (e.g. "Montgomery
    mul/sqr, 4-bit fixed window"), and its work in kernel calls."""

    name: str
    work: tuple[tuple[str, int, int], ...]  # (operation, bytes, calls)
    #: the same computation as whole kernel operations (operation, bytes, times), for a variant that
    #: computes them whole (kernel.toml ``whole``): the RFC 7748 ladder as ``x25519`` (:data:`WHOLE_LADDERS`)
    whole: tuple[tuple[str, int, int], ...] = ()

    def as_work(self) -> Work:
        return {(op, size): n for op, size, n in self.work}

    def work_for(self, whole_ops: tuple[str, ...]) -> Work | None:
        """The work of a variant computing ``whole_ops`` whole: the recipe's whole operations when the
        variant computes every one of them, None when it computes some operation whole but not this
        recipe (it is a candidate for that operation only), the composed work otherwise."""
        if not whole_ops:
            return self.as_work()
        if self.whole and all(op in whole_ops for op, _, _ in self.whole):
            return {(op, size): n for op, size, n in self.whole}
        return None


def _check(path: Path, data: dict[str, Any]) -> dict[str, Any]:
    for table in ("fields", "pricing", "exponentiation", "scalar_mult", "libraries"):
        if table not in data:
            raise error_at(path, (table,), "missing table")
    for name, field in data["fields"].items():
        for key, kind in (("kinds", dict), ("bytes", int), ("prime", str)):
            if not isinstance(field.get(key), kind):
                raise error_at(path, ("fields", name, key), f"expected {kind.__name__}, got {field.get(key)!r}")
        for kind, ops in field["kinds"].items():
            if not (isinstance(ops, list) and len(ops) in (4, 5) and all(isinstance(o, str) for o in ops)):
                raise error_at(path, ("fields", name, "kinds", kind), "expected [mul, sqr, add, sub operations] "
                               "and optionally the one-word-constant multiplication")
    for i, rule in enumerate(data["libraries"]):
        for key, kind in (("library", str), ("match", str), ("asm", str), ("variants", list), ("why", str)):
            if not isinstance(rule.get(key), kind):
                raise error_at(path, ("libraries", i, key), f"expected {kind.__name__}, got {rule.get(key)!r}")
        algorithms = rule.get("algorithms", [])
        if not (isinstance(algorithms, list) and all(isinstance(a, str) for a in algorithms)):
            raise error_at(path, ("libraries", i, "algorithms"), "expected a list of algorithm names, "
                           f"got {algorithms!r}")
    exp = data["exponentiation"]
    for key in ("windows", "rsa_public_exponent", "subgroup_bits", "dsa_n_bits"):
        if key not in exp:
            raise error_at(path, ("exponentiation", key), "missing")
    for i, rule in enumerate(exp.get("libraries", [])):
        for key in ("library", "mul", "red", "mod", "why"):
            if not isinstance(rule.get(key), str):
                raise error_at(path, ("exponentiation", "libraries", i, key), f"expected str, got {rule.get(key)!r}")
    for prime, op in data["pricing"].get("cswap_ops", {}).items():
        if not isinstance(op, str):
            raise error_at(path, ("pricing", "cswap_ops", prime), f"expected a kernel operation name, got {op!r}")
    for kind, order_kind in data["pricing"].get("order_kinds", {}).items():
        for name, field in data["fields"].items():
            if kind in field["kinds"] and order_kind not in field["kinds"]:
                raise error_at(path, ("pricing", "order_kinds", kind),
                               f"[fields.{name}] has no kind {order_kind!r} to price its order inversions")
    for prime, chain in data["pricing"].get("inv_chains", {}).items():
        if not (isinstance(chain, list) and len(chain) == 2 and all(isinstance(n, int) and n > 0 for n in chain)):
            raise error_at(path, ("pricing", "inv_chains", prime), f"expected [squarings, multiplications], got {chain!r}")
    for i, rule in enumerate(data["scalar_mult"].get("table_scans", [])):
        for key, kind in (("library", str), ("match", str), ("since", str), ("curve", str), ("operations", list),
                          ("reads", dict), ("why", str)):
            if not isinstance(rule.get(key), kind):
                raise error_at(path, ("scalar_mult", "table_scans", i, key),
                               f"expected {kind.__name__}, got {rule.get(key)!r}")
        for method, shape in rule["reads"].items():
            if not (isinstance(shape, list) and len(shape) == 3 and all(isinstance(n, int) and n > 0 for n in shape)):
                raise error_at(path, ("scalar_mult", "table_scans", i, "reads", method),
                               f"expected [reads, entries, coordinates], got {shape!r}")
    for i, rule in enumerate(data["scalar_mult"].get("library_methods", [])):
        for key, kind in (("library", str), ("method", str), ("operations", list), ("algorithms", list), ("why", str)):
            if not isinstance(rule.get(key, []), kind):
                raise error_at(path, ("scalar_mult", "library_methods", i, key),
                               f"expected {kind.__name__}, got {rule.get(key)!r}")
        if rule.get("shape") not in _LIBRARY_SHAPES:
            raise error_at(path, ("scalar_mult", "library_methods", i, "shape"),
                           f"expected one of {', '.join(_LIBRARY_SHAPES)}, got {rule.get('shape')!r}")
    for key in ("comb_bits", "wnaf_bits"):
        if not isinstance(data["scalar_mult"].get(key), list):
            raise error_at(path, ("scalar_mult", key), "expected a list of widths")
    return data


@cache
def load_costs(path: Path = COSTS_PATH) -> dict[str, Any]:
    """The tables of ``pubkey_costs.toml``; a missing table or a field of the wrong type raises
    DataFileError naming the file, line and field."""
    _, data = read_toml(path, kind="public-key cost file")
    return _check(path, data)


# ------------------------------------------------------------------------------------------
# Operation counts from the references

_WEIERSTRASS = {"P-256": curves.P256, "P-384": curves.P384, "P-521": curves.P521,
                "brainpoolP256r1": curves.BRAINPOOLP256R1, "brainpoolP384r1": curves.BRAINPOOLP384R1,
                "brainpoolP512r1": curves.BRAINPOOLP512R1, "SM2": curves.SM2P256V1}
_PRIMES = {**{name: c.p for name, c in _WEIERSTRASS.items()},
           "Curve25519": 2**255 - 19, "Edwards25519": 2**255 - 19,
           "Curve448": 2**448 - 2**224 - 1, "Edwards448": 2**448 - 2**224 - 1}
_EDWARDS = {"Edwards25519": edwards.ED25519, "Edwards448": edwards.ED448}
#: Fixed, arbitrary secrets (the counts of fixed-window and ladder methods do not depend on them
#: beyond the zero windows of the scalar; these are full-length with no zero top window).
_SCALAR_SEED = 0x9E3779B97F4A7C15F39CC0605CEDC8341082276BF3A27251F86C6A11D0C18E95


@dataclass(frozen=True)
class Counts:
    """Counted field operations of one operation (see :mod:`refbench.ref.opcount`)."""

    mul: int
    sqr: int
    mul_const: int
    inv: int
    add: int = 0
    sub: int = 0
    cswap: int = 0
    inv_order: int = 0  # of ``inv``, the inversions modulo the group order (refbench.ref.modarith.inverse)

    def _zip(self, other: Counts, sign: int) -> Counts:
        return Counts(*(getattr(self, f.name) + sign * getattr(other, f.name) for f in fields(Counts)))

    def __add__(self, other: Counts) -> Counts:
        return self._zip(other, 1)

    def __sub__(self, other: Counts) -> Counts:
        return self._zip(other, -1)

    def times(self, n: int) -> Counts:
        return Counts(*(getattr(self, f.name) * n for f in fields(Counts)))


def _counted(fn: Any, *args: Any, **kwargs: Any) -> Counts:
    """The counted field operations of ``fn(*args, **kwargs)``; of its inversions, those modulo the group
    order (the references compute them with modarith.inverse, field inversions with the field's
    Fermat inversion) are also counted apart, as ``inv_order``."""
    original = modarith.inverse
    order = [0]

    def counting_inverse(a: int, m: int) -> int:
        order[0] += 1
        return original(a, m)

    modarith.inverse = counting_inverse
    try:
        with opcount.counting() as c:
            fn(*args, **kwargs)
    finally:
        modarith.inverse = original
    return Counts(c.mul, c.sqr, c.mul_const, c.inv, c.add, c.sub, c.cswap, order[0])


def _scalar(n: int) -> int:
    """A fixed scalar below ``n`` with its top bits set (a full-length secret)."""
    return n - 1 - _SCALAR_SEED % (n >> 4)


@cache
def reference_counts(curve: str, operation: str) -> Counts:
    """The counted field operations of the reference's ``operation`` (keygen, sign, verify, agree)
    on ``curve`` (a figure's curve name). Unknown pairs raise ValueError."""
    msg = b"refbench public-key cost"
    if curve in _WEIERSTRASS:
        c = _WEIERSTRASS[curve]
        d, k = _scalar(c.n), _scalar(c.n) ^ 0x5A5A
        Q = weierstrass.scalar_mult(c, d, c.G)
        if operation == "keygen":
            return _counted(ecdsa.public_key, c, d)
        if curve == "SM2":
            if operation == "sign":
                return _counted(sm2.sign, d, msg, k=k)
            if operation == "verify":
                sig = sm2.sign(d, msg, k=k)
                return _counted(sm2.verify, Q, msg, sig)
            if operation == "agree":  # the ECDH-style shared point; the SM2 exchange's extra steps are not priced
                return _counted(ecdh.shared_secret, c, d, Q)
        elif operation == "sign":
            return _counted(ecdsa.sign_digest, c, d, bytes(32), k=k)
        elif operation == "verify":
            sig = ecdsa.sign_digest(c, d, bytes(32), k=k)
            return _counted(ecdsa.verify_digest, c, Q, bytes(32), sig)
        elif operation == "agree":
            return _counted(ecdh.shared_secret, c, d, Q)
    elif curve in ("Curve25519", "Curve448"):
        x = montgomery.x25519 if curve == "Curve25519" else montgomery.x448
        public = montgomery.x25519_public_key if curve == "Curve25519" else montgomery.x448_public_key
        size = 32 if curve == "Curve25519" else 56
        secret = (_SCALAR_SEED.to_bytes(32, "little") * 2)[:size]
        if operation == "keygen":
            return _counted(public, secret)
        if operation == "agree":
            return _counted(x, secret, public(secret[::-1]))
    elif curve in ("Edwards25519", "Edwards448"):
        variant = "Ed25519" if curve == "Edwards25519" else "Ed448"
        secret = (_SCALAR_SEED.to_bytes(32, "little") * 2)[:32 if variant == "Ed25519" else 57]
        if operation == "keygen":
            return _counted(eddsa.public_key, secret, variant)
        if operation == "sign":
            return _counted(eddsa.sign, secret, msg, variant)
        if operation == "verify":
            sig = eddsa.sign(secret, msg, variant)
            return _counted(eddsa.verify, eddsa.public_key(secret, variant), msg, sig, variant)
    raise ValueError(f"Invalid public-key operation ({curve!r}, {operation!r}); accepted: keygen, sign, verify, "
                     f"agree on {', '.join(sorted(_PRIMES))} (X25519/X448: keygen, agree)")


@cache
def comb_counts(curve: str, width: int) -> Counts:
    """A fixed-base comb with ``width``-bit table entries on a Weierstrass ``curve``:
    ceil(bits / width) doublings and mixed additions, and the conversion to affine coordinates,
    each counted with the reference's own formulas."""
    c = _WEIERSTRASS[curve]
    P = weierstrass.to_jacobian(weierstrass.scalar_mult(c, 3, c.G))
    dbl = _counted(weierstrass.jacobian_double, c, P)
    add = _counted(weierstrass.jacobian_add_mixed, c, P, c.G)
    affine = _counted(weierstrass.to_affine, c, P)
    steps = -(-c.n.bit_length() // width)
    return (dbl + add).times(steps) + affine


@cache
def base_scalar_counts(curve: str) -> Counts:
    """The reference's generic scalar multiplication of the base point (as inside keygen/sign)."""
    if curve in _EDWARDS:
        e = _EDWARDS[curve]
        return _counted(edwards.scalar_mult, e, _scalar(e.L), e.B)
    c = _WEIERSTRASS[curve]
    return _counted(weierstrass.scalar_mult, c, _scalar(c.n), c.G)


@cache
def edwards_comb_counts(curve: str, width: int) -> Counts:
    """A fixed-base comb with ``width``-bit table entries on an Edwards ``curve``: ceil(bits / width)
    doublings and additions with the reference's formulas (refbench/ref/edwards.py; the encoding
    of the result is counted by the operation itself)."""
    e = _EDWARDS[curve]
    P = edwards.scalar_mult(e, 3, e.B)
    steps = -(-e.L.bit_length() // width)
    return (_counted(edwards.double, e, P) + _counted(edwards.add, e, P, e.B)).times(steps)


@cache
def double_scalar_split(curve: str) -> tuple[Counts, int]:
    """(the counts of the reference's verify outside its double-scalar multiplication, the bit
    length of the longer scalar): the verify run once with the reference's own double-scalar
    multiplication wrapped, so its part is measured, not estimated."""
    import refbench.ref.ecdsa as ecdsa_module
    import refbench.ref.sm2 as sm2_module

    module: Any = edwards if curve in _EDWARDS else (sm2_module if curve == "SM2" else ecdsa_module)
    original = module.double_scalar_mult
    inner: list[Counts] = []
    bits: list[int] = []

    def wrapped(c: Any, u1: int, P: Any, u2: int, Q: Any) -> Any:
        bits.append(max(u1.bit_length(), u2.bit_length()))
        with opcount.counting() as n:
            out = original(c, u1, P, u2, Q)
        inner.append(Counts(n.mul, n.sqr, n.mul_const, n.inv, n.add, n.sub, n.cswap))
        return out

    module.double_scalar_mult = wrapped
    try:
        total = reference_counts.__wrapped__(curve, "verify")
    finally:
        module.double_scalar_mult = original
    if len(inner) != 1:
        raise ValueError(f"Invalid reference verify on {curve}: {len(inner)} double-scalar multiplications, expected 1")
    return total - inner[0], bits[0]


@cache
def windowed_double_scalar_counts(curve: str, width: int) -> Counts:
    """A verify whose u1 P + u2 Q interleaves two width-``width`` NAFs (Hankerson, Menezes, Vanstone,
    Guide to ECC, Alg. 3.51; ref10's ge_double_scalarmult_vartime, a sliding window of 5 bits): one
    doubling per bit, and per scalar about bits / (width + 1) additions (the NAF density, ibid.
    Theorem 3.29); the base point's odd multiples are a table in ROM (Weierstrass: affine, mixed
    additions), the public key's 2^(width-2) odd multiples are computed (one doubling, 2^(width-2) - 1
    additions). Priced with the reference's point formulas, plus the rest of the reference's verify."""
    rest, bits = double_scalar_split(curve)
    adds = -(-bits // (width + 1))
    table = (1 << (width - 2)) - 1
    if curve in _EDWARDS:
        e = _EDWARDS[curve]
        P = edwards.scalar_mult(e, 3, e.B)
        dbl, add = _counted(edwards.double, e, P), _counted(edwards.add, e, P, e.B)
        return rest + dbl.times(bits + 1) + add.times(2 * adds + table)
    c = _WEIERSTRASS[curve]
    P = weierstrass.to_jacobian(weierstrass.scalar_mult(c, 3, c.G))
    Q = weierstrass.to_jacobian(weierstrass.scalar_mult(c, 5, c.G))
    dbl = _counted(weierstrass.jacobian_double, c, P)
    add = _counted(weierstrass.jacobian_add, c, P, Q)
    madd = _counted(weierstrass.jacobian_add_mixed, c, P, c.G)
    return rest + dbl.times(bits + 1) + madd.times(adds) + add.times(adds + table)


@cache
def separate_verify_counts(curve: str, width: int) -> Counts:
    """A verify that multiplies separately (pubkey_costs.toml [scalar_mult] separate_verify): u1 G by a
    ``width``-bit comb and u2 Q by the reference's 4-bit fixed window, both left projective, one full
    addition of the two, and the check of x against r in projective form (r Z^2 = X: one squaring,
    one multiplication) instead of an inversion; plus the rest of the reference's verify. Counted
    with the reference's own formulas (refbench/ref/weierstrass.py)."""
    rest, _ = double_scalar_split(curve)
    c = _WEIERSTRASS[curve]
    P = weierstrass.to_jacobian(weierstrass.scalar_mult(c, 3, c.G))
    Q = weierstrass.to_jacobian(weierstrass.scalar_mult(c, 5, c.G))
    affine = _counted(weierstrass.to_affine, c, P)
    add = _counted(weierstrass.jacobian_add, c, P, Q)
    return (rest + (comb_counts(curve, width) - affine) + (base_scalar_counts(curve) - affine) + add
            + Counts(mul=1, sqr=1, mul_const=0, inv=0))


#: Base-point multiplications a library may do per Edwards operation (RFC 8032 §5.1.6: the
#: reference's sign computes A = [s]B and R = [r]B; a library given the public key only R).
_EDWARDS_BASE_MULTS = {"keygen": (1,), "sign": (2, 1)}


# ------------------------------------------------------------------------------------------
# Pricing


def fermat_counts(p: int) -> tuple[int, int]:
    """(squarings, multiplications) of a^(p-2) by left-to-right binary exponentiation (HAC 14.79)."""
    e = p - 2
    return e.bit_length() - 1, bin(e).count("1") - 1


def inversion_counts(curve: str) -> tuple[int, int]:
    """(squarings, multiplications) of one inversion in ``curve``'s field ([pricing] inv): the
    field's addition chain when ``inv_chains`` names its prime, else :func:`fermat_counts`."""
    field = load_costs()["fields"][curve]
    chain = load_costs()["pricing"].get("inv_chains", {}).get(field["prime"])
    return (chain[0], chain[1]) if chain else fermat_counts(_PRIMES[curve])


def field_work(curve: str, kind: str, counts: Counts) -> Work:
    """Kernel calls of ``counts`` in ``curve``'s field with arithmetic ``kind`` (pubkey_costs.toml
    ``[fields]``: [mul, sqr, add, sub(, mul_const)] operations): mul on the mul operation, mul_const
    on the field's constant multiplication or else on mul ([pricing] mul_const), sqr on the sqr operation, every inversion as a Fermat exponentiation
    (:func:`inversion_counts`, [pricing] inv),
    additions and subtractions on the field's add/sub operations ([pricing] add_sub), each
    conditional swap on the field's swap operation or as two selects ([pricing] cswap), and the
    caller's side of every call but a swap operation's ([pricing] call). Additive operations that do not occur are
    left out (no kernel call to measure)."""
    costs = load_costs()
    field = costs["fields"][curve]
    mul_op, sqr_op, add_op, sub_op, *const_op = field["kinds"][kind]
    size = field["bytes"]
    inv_s, inv_m = inversion_counts(curve)
    order_kind = costs["pricing"].get("order_kinds", {}).get(kind)
    field_inv = counts.inv - counts.inv_order if order_kind else counts.inv
    mul = counts.mul + (0 if const_op else counts.mul_const) + field_inv * inv_m
    sqr = counts.sqr + field_inv * inv_s
    work = {(mul_op, size): mul, (sqr_op, size): sqr}
    if order_kind and counts.inv_order:
        o_mul, o_sqr = field["kinds"][order_kind][:2]
        o_s, o_m = fermat_counts(_WEIERSTRASS[curve].n)
        for key, n in (((o_mul, size), counts.inv_order * o_m), ((o_sqr, size), counts.inv_order * o_s)):
            work[key] = work.get(key, 0) + n
    for key, n in (((const_op[0] if const_op else mul_op, size), counts.mul_const if const_op else 0),
                   ((add_op, size), counts.add), ((sub_op, size), counts.sub)):
        if n:
            work[key] = work.get(key, 0) + n
    work = with_calls(work)
    swap_op = costs["pricing"].get("cswap_ops", {}).get(field["prime"])
    swaps = ((swap_op, size), counts.cswap) if swap_op else ((SELECT, size), 2 * counts.cswap)
    if swaps[1]:
        work[swaps[0]] = work.get(swaps[0], 0) + swaps[1]
        if not swap_op:
            work[(CALL, size)] = work.get((CALL, size), 0) + swaps[1]
    return work


def with_calls(work: Work) -> Work:
    """``work`` and the caller's side of each of its kernel calls ([pricing] call): one bignum
    ``call`` per call, at the size of the largest operand."""
    calls = sum(n for (op, _), n in work.items() if op != CALL)
    size = max(s for _, s in work)
    out = dict(work)
    out[(CALL, size)] = out.get((CALL, size), 0) + calls
    return out


def exp_work(modulus_bits: int, exponent_bits: int, window: int, times: int = 1) -> Work:
    """Kernel calls of ``times`` fixed-window exponentiations (exp.h): exponent_bits squarings,
    ceil(exponent_bits / window) window multiplications, 2^window - 2 table multiplications and
    2 domain changes, on Montgomery operands of the modulus' length."""
    size = modulus_bits // 8
    mul = -(-exponent_bits // window) + (1 << window) - 2 + 2
    return with_calls({("mont-mul", size): mul * times, ("mont-sqr", size): exponent_bits * times})


def ladder_work(modulus_bits: int, exponent_bits: int, digit_bits: int, times: int = 1) -> Work:
    """Kernel calls of ``times`` Montgomery-ladder exponentiations (pubkey_costs.toml
    ``[[exponentiation.ladders]]``, wolfSSL tfm.c _fp_exptmod_ct): one multiplication and one
    squaring per bit of the exponent's used digits (``exponent_bits`` rounded up to whole
    ``digit_bits`` digits), plus one multiplication into the Montgomery domain and one reduction
    out of it (priced as a multiplication, like exp_work's domain changes)."""
    size = modulus_bits // 8
    bits = -(-exponent_bits // digit_bits) * digit_bits
    return with_calls({("mont-mul", size): (bits + 2) * times, ("mont-sqr", size): bits * times})


def merge(*works: Work) -> Work:
    out: Work = {}
    for w in works:
        for key, n in w.items():
            out[key] = out.get(key, 0) + n
    return out


def compose(work: Mapping[tuple[str, int], int], cycles: Mapping[tuple[str, int], int]) -> int:
    """Cycles of ``work`` given the measured cycles of one call of each (operation, bytes)."""
    missing = [key for key in work if key not in cycles]
    if missing:
        raise ValueError(f"Invalid composition: no measured cycles for {', '.join(f'{o} {s} B' for o, s in missing)}")
    return sum(n * cycles[key] for key, n in work.items())


# ------------------------------------------------------------------------------------------
# Recipes of a figure

_KIND_NAMES = {"special": "special-form reduction", "montgomery": "Montgomery",
               "montgomery_mp1": "Montgomery with a reduction by word additions (mp = 1)",
               "cyclone": "CycloneCRYPTO's Comba product and curve reduction"}


def kind_name(kind: str) -> str:
    """How recipes name field arithmetic ``kind`` (pubkey_costs.toml [fields] kinds): the part of a
    recipe's name before its first comma."""
    return _KIND_NAMES.get(kind, kind)
_FAMILY = re.compile(r"^(ECDSA|ECDH|ECC|SM2|Ed25519|Ed448|X25519|X448|RSA|DH|DSA)\b")
_MODEXP_OPERATIONS = {"RSA": ("private", "sign", "public", "verify", "decrypt", "encrypt"),
                      "DH": ("keygen", "agree"), "DSA": ("sign", "verify")}


def _page_text(f: Figure) -> str:
    """What the page says of the figure's build: its config, variant, label and notes."""
    return " ".join(t for t in (f.config, f.variant, f.label, f.notes) if t)


def is_no_crt(f: Figure) -> bool:
    """True when figure ``f``'s page says its RSA private operation runs without CRT
    (pubkey_costs.toml ``[exponentiation.no_crt]``)."""
    return re.search(load_costs()["exponentiation"]["no_crt"]["pattern"], _page_text(f), re.IGNORECASE) is not None


def ladder_rule(f: Figure) -> dict[str, Any] | None:
    """The ``[[exponentiation.ladders]]`` rule whose library and math option figure ``f``'s contain."""
    for rule in load_costs()["exponentiation"].get("ladders", ()):
        if rule["library"].lower() in f.library.lower() and rule["match"].lower() in (f.math or "").lower():
            return rule
    return None


def small_build(f: Figure, curve: str) -> dict[str, Any] | None:
    """The ``[[scalar_mult.small_builds]]`` rule for ``curve`` whose option figure ``f``'s page names."""
    for rule in load_costs()["scalar_mult"].get("small_builds", ()):
        if (rule["curve"] == curve and rule["library"].lower() in f.library.lower()
                and re.search(rf"\b{re.escape(rule['option'])}\b", _page_text(f))):
            return rule
    return None


def table_scan_rule(f: Figure, curve: str, operation: str) -> dict[str, Any] | None:
    """The ``[[scalar_mult.table_scans]]`` rule for figure ``f``'s library, math option and release on
    ``curve`` and ``operation``, or None."""
    version = release(f.version)
    for rule in load_costs()["scalar_mult"].get("table_scans", ()):
        if (rule["curve"] == curve and operation in rule["operations"]
                and rule["library"].lower() in f.library.lower() and rule["match"].lower() in (f.math or "").lower()
                and version is not None and version >= (release(rule["since"]) or ())):
            return rule
    return None


def table_scan_work(rule: dict[str, Any], method: str, size: int) -> Work:
    """The selects and calls of ``rule``'s table reads in a multiplication by ``method`` (a recipe's
    method name: "<w>-bit comb base point" or "4-bit fixed window"), at field size ``size``."""
    comb = re.search(r"(\d+)-bit comb base point", method)
    key = comb[1] if comb else ("window" if method.startswith("4-bit fixed window") else None)
    if key is None or key not in rule["reads"]:
        return {}
    reads, entries, coordinates = rule["reads"][key]
    return {(SELECT, size): reads * entries * coordinates, (CALL, size): reads}


@cache
def edwards_small_counts(curve: str, bits: int, selects_per_bit: int) -> Counts:
    """One table-less scalar multiplication of a small build (``[[scalar_mult.small_builds]]``):
    ``bits`` steps of one doubling, one addition (the reference's formulas, refbench/ref/edwards.py)
    and ``selects_per_bit`` selects (two per conditional swap: [pricing] cswap)."""
    e = _EDWARDS[curve]
    P = edwards.scalar_mult(e, 3, e.B)
    step = _counted(edwards.double, e, P) + _counted(edwards.add, e, P, e.B)
    return (step + Counts(0, 0, 0, 0, cswap=selects_per_bit // 2)).times(bits)


#: The shapes of ``[[scalar_mult.library_methods]]``: a library's own single-scalar ladder and its own
#: double-scalar verification (refbench/ref/ec_cyclone.py mul_regular, twin_mul).
_LIBRARY_SHAPES = ("ladder", "twin")


def scalar_method_rule(f: Figure, operation: str) -> dict[str, Any] | None:
    """The ``[[scalar_mult.library_methods]]`` rule whose library begins figure ``f``'s library and
    whose operations hold ``operation``, or None."""
    for rule in load_costs()["scalar_mult"].get("library_methods", ()):
        if (f.library.lower().startswith(rule["library"].lower()) and operation in rule["operations"]
                and f.algorithm.startswith(tuple(rule.get("algorithms", ())) or ("",))):
            return rule
    return None


@cache
def twin_verify_counts(curve: str) -> Counts:
    """A verify whose u1 G + u2 Q is CycloneCRYPTO's ecTwinMul and ecAffinify (refbench/ref/ec_cyclone.py
    twin_mul, with fixed full-length u1, u2), plus the rest of the reference's verify."""
    rest, _ = double_scalar_split(curve)
    c = _WEIERSTRASS[curve]
    Q = weierstrass.scalar_mult(c, _scalar(c.n), c.G)
    return rest + _counted(ec_cyclone.twin_mul, c, _scalar(c.n) ^ 0x5A5A, c.G, _scalar(c.n) ^ 0xA5A5, Q)


@cache
def co_z_ladder_counts(curve: str) -> Counts:
    """One CycloneCRYPTO ecMulRegular and ecAffinify on ``curve`` (refbench/ref/ec_cyclone.py): the
    same work for every scalar of the order's length."""
    c = _WEIERSTRASS[curve]
    return _counted(ec_cyclone.mul_regular, c, _scalar(c.n), c.G)


def exp_library_rule(f: Figure) -> dict[str, Any] | None:
    """The ``[[exponentiation.libraries]]`` rule whose library begins figure ``f``'s library, or None."""
    for rule in load_costs()["exponentiation"].get("libraries", ()):
        if f.library.lower().startswith(rule["library"].lower()):
            return rule
    return None


def library_exponent(bits: int, label: str) -> int:
    """A fixed exponent of exactly ``bits`` bits (top bit set), random-looking: the first bits of
    SHAKE-256 of ``label``, so every run counts the same calls."""
    raw = int.from_bytes(hashlib.shake_256(f"refbench exponent {label} {bits}".encode()).digest(-(-bits // 8)), "big")
    return (raw >> (8 * -(-bits // 8) - bits)) | (1 << (bits - 1))


@cache
def library_exp_counts(modulus_bits: int, exponent: int) -> mpi_cyclone.ExpCounts:
    """The calls of CycloneCRYPTO's mpiExpMod (refbench/ref/mpi_cyclone.py) for ``exponent`` modulo an
    odd number of ``modulus_bits`` bits (the counts depend on the modulus' word length only)."""
    p = (1 << (modulus_bits - 1)) | library_exponent(modulus_bits - 1, "modulus") | 1
    _, counts = mpi_cyclone.exp_mod(3, exponent, p)
    return counts


def library_exp_work(rule: dict[str, Any], modulus_bits: int, exponent: int, times: int = 1) -> Work:
    """Kernel calls of ``times`` exponentiations by ``exponent`` in the shape of ``rule``'s library:
    each Montgomery product on ``rule["mul"]``, each reduction on ``rule["red"]``, each mpiMod on ``rule["mod"]``."""
    c = library_exp_counts(modulus_bits, exponent)
    size = modulus_bits // 8
    return {(rule["mul"], size): c.products * times, (rule["red"], size): c.reductions * times,
            (rule["mod"], size): c.mods * times}


def library_modexp_recipes(f: Figure, family: str, bits: int, rule: dict[str, Any]) -> tuple[tuple[Recipe, ...], str]:
    """The one recipe of an RSA, DH or DSA figure ``f`` whose library exponentiates in its own shape
    (pubkey_costs.toml ``[[exponentiation.libraries]]``: CycloneCRYPTO's rsaep, rsadp, dh.c, dsa.c
    around mpiExpMod)."""
    exp = load_costs()["exponentiation"]
    size, mul, mod = bits // 8, rule["mul"], rule["mod"]
    setup = "C^2 mod p by mpiMod at every exponentiation"
    if family == "RSA" and f.operation in ("public", "verify", "encrypt"):
        e = exp["rsa_public_exponent"]
        work = library_exp_work(rule, bits, e)
        name = f"mpiExpMod, e = {e}, {mpi_cyclone.window_bits(e)}-bit window, {setup}"
    elif family == "RSA" and is_no_crt(f):
        work = library_exp_work(rule, bits, library_exponent(bits, "d"))
        name = f"mpiExpMod, no CRT, one {bits}-bit exponent, {mpi_cyclone.WINDOW_BITS}-bit sliding window, {setup}"
    elif family == "RSA":
        half = bits // 2
        # c mod p, c mod q; the two exponentiations; (m1 - m2) qInv mod p (mpiMul + mpiMod); q h (mpiMul)
        work = merge(library_exp_work(rule, bits // 2, library_exponent(half, "dp")),
                     library_exp_work(rule, bits // 2, library_exponent(half, "dq")),
                     {(mod, half // 8): 3, (mul, half // 8): 2})
        name = (f"mpiExpMod, CRT, two {half}-bit exponents, {mpi_cyclone.WINDOW_BITS}-bit sliding window, {setup}, "
                "c mod p and c mod q by mpiMod")
        if f.operation == "sign":
            # rsassaPkcs1v15Sign checks a CRT signature with rsavp1 (the Bellcore countermeasure);
            # rsassaPssSign does not: the page does not say which padding was measured
            e = exp["rsa_public_exponent"]
            checked = with_calls(merge(work, library_exp_work(rule, bits, e)))
            out = [Recipe(f"{name}, then the PKCS #1 v1.5 check by rsavp1 (e = {e})",
                          tuple((o, s, n) for (o, s), n in checked.items()))]
            return (*out, Recipe(f"{name} (PSS: no check)", tuple((o, s, n) for (o, s), n in with_calls(work).items()))), ""
    elif family == "DH":
        work = library_exp_work(rule, bits, library_exponent(bits, "x"))
        name = f"mpiExpMod, one {bits}-bit exponent (mpiRand over p's length), {setup}"
    else:
        short = exp["dsa_n_bits"].get(str(bits))
        if short is None:
            return (), f"{f.algorithm}: no exponent length for {bits}-bit groups in {COSTS_PATH.name}"
        if f.operation == "verify":
            work = merge(library_exp_work(rule, bits, library_exponent(short, "u1")),
                         library_exp_work(rule, bits, library_exponent(short, "u2")), {(mul, size): 1, (mod, size): 1})
            name = f"mpiExpMod, two {short}-bit exponents and one mpiMulMod mod p, {setup}"
        else:
            work = library_exp_work(rule, bits, library_exponent(short, "k"))
            name = f"mpiExpMod, one {short}-bit exponent, {setup}"
    work = with_calls(work)
    return (Recipe(name, tuple((o, s, n) for (o, s), n in work.items())),), ""


def family_of(f: Figure) -> str | None:
    """The public-key family of figure ``f`` (ECDSA, ECDH, ECC, SM2, Ed25519, Ed448, X25519, X448,
    RSA, DH, DSA), or None for any other figure."""
    m = _FAMILY.match(f.algorithm)
    return m.group(1) if m else None


def _curve_of(f: Figure, family: str) -> str:
    if family in ("X25519",):
        return "Curve25519"
    if family == "X448":
        return "Curve448"
    if family == "Ed25519":
        return "Edwards25519"
    if family == "Ed448":
        return "Edwards448"
    if family == "SM2":
        return "SM2"
    return f.curve or ""


def recipes(f: Figure) -> tuple[tuple[Recipe, ...], str]:
    """The recipes for public-key figure ``f`` and, when there are none, why."""
    family = family_of(f)
    if family is None:
        return (), f"{f.algorithm} is not a public-key algorithm"
    costs = load_costs()
    exp = costs["exponentiation"]
    if family in _MODEXP_OPERATIONS:
        bits = f.key_bits
        if not bits:
            return (), f"{f.algorithm}: no key size"
        if f.operation not in _MODEXP_OPERATIONS[family]:
            return (), f"{f.algorithm} {f.operation}: no cost rule for this operation"
        own = exp_library_rule(f)
        if own is not None:
            return library_modexp_recipes(f, family, bits, own)
        out = []
        ladder = ladder_rule(f)
        private = f.operation in ("private", "sign", "decrypt") if family == "RSA" else family == "DSA" or family == "DH"
        if ladder is not None and private:
            digit = ladder["digit_bits"]
            if family == "RSA" and is_no_crt(f):
                work = ladder_work(bits, bits, digit)
                name = f"no CRT, one {bits}-bit Montgomery ladder ({ladder['option']})"
            elif family == "RSA":
                half = bits // 2
                work = merge(ladder_work(half, half, digit, times=2), with_calls({("mont-mul", half // 8): 2}))
                name = f"CRT, two {half}-bit Montgomery ladders ({ladder['option']})"
            else:
                short = (exp["dsa_n_bits"] if family == "DSA" else exp["subgroup_bits"]).get(str(bits))
                if short is None:
                    return (), f"{f.algorithm}: no exponent length for {bits}-bit groups in {COSTS_PATH.name}"
                times = 2 if family == "DSA" and f.operation == "verify" else 1
                work, name = {}, ""
                for e_bits in (short,) if family == "DSA" else (short, bits):
                    out.append(Recipe(f"{times} x {e_bits}-bit exponent, Montgomery ladder ({ladder['option']})",
                                      tuple((o, s, n) for (o, s), n in ladder_work(bits, e_bits, digit, times).items())))
            if work:
                out.append(Recipe(name, tuple((o, s, n) for (o, s), n in work.items())))
            if family != "DH":  # DH keeps the windows: fp_exptmod's base-2 path is cheaper than the ladder
                return tuple(out), ""
        for w in exp["windows"]:
            if family == "RSA" and f.operation in ("private", "sign", "decrypt") and is_no_crt(f):
                work = exp_work(bits, bits, w)
                out.append(Recipe(f"no CRT, one {bits}-bit Montgomery exponentiation, {w}-bit fixed window",
                                  tuple((o, s, n) for (o, s), n in work.items())))
            elif family == "RSA" and f.operation in ("private", "sign", "decrypt"):
                half = bits // 2
                work = merge(exp_work(half, half, w, times=2), with_calls({("mont-mul", half // 8): 2}))
                out.append(Recipe(f"CRT, two {half}-bit Montgomery exponentiations, {w}-bit fixed window",
                                  tuple((o, s, n) for (o, s), n in work.items())))
            elif family == "RSA":
                e = exp["rsa_public_exponent"]
                work = with_calls({("mont-sqr", bits // 8): e.bit_length() - 1,
                                   ("mont-mul", bits // 8): bin(e).count("1") - 1 + 2})
                out.append(Recipe(f"e = {e}, binary exponentiation", tuple((o, s, n) for (o, s), n in work.items())))
                break  # no window: one recipe
            else:
                table = exp["dsa_n_bits"] if family == "DSA" else exp["subgroup_bits"]
                short = table.get(str(bits))
                if short is None:
                    return (), f"{f.algorithm}: no exponent length for {bits}-bit groups in {COSTS_PATH.name}"
                times = 2 if family == "DSA" and f.operation == "verify" else 1
                lengths = (short,) if family == "DSA" else (short, bits)
                for e_bits in lengths:
                    work = exp_work(bits, e_bits, w, times)
                    out.append(Recipe(f"{times} x {e_bits}-bit exponent, {w}-bit fixed window",
                                      tuple((o, s, n) for (o, s), n in work.items())))
        return tuple(out), ""
    curve = _curve_of(f, family)
    if curve not in costs["fields"]:
        return (), f"{f.algorithm}: no field rule for curve {curve!r} in {COSTS_PATH.name}"
    operation = "keygen" if family == "ECC" else f.operation
    try:
        counted = reference_counts(curve, operation)
    except ValueError as exc:
        return (), str(exc)
    methods: list[tuple[str, Counts]] = []
    own = scalar_method_rule(f, operation) if curve in _WEIERSTRASS else None
    if own is not None and own["shape"] == "twin":
        methods.append((own["method"], twin_verify_counts(curve)))
    elif own is not None:
        methods.append((own["method"], counted - base_scalar_counts(curve) + co_z_ladder_counts(curve)))
    elif curve in _WEIERSTRASS:
        methods.append(("4-bit fixed window" if operation != "verify" else "Shamir double-scalar", counted))
        if operation == "verify":
            for w in costs["scalar_mult"]["wnaf_bits"]:
                methods.append((f"interleaved {w}-bit wNAF double-scalar", windowed_double_scalar_counts(curve, w)))
            for w in costs["scalar_mult"]["comb_bits"]:
                methods.append((f"{SEPARATE_VERIFY} ({w}-bit comb u1 G, 4-bit fixed window u2 Q)",
                                separate_verify_counts(curve, w)))
        if operation in ("keygen", "sign"):
            generic = base_scalar_counts(curve)
            for w in costs["scalar_mult"]["comb_bits"]:
                methods.append((f"{w}-bit comb base point", counted - generic + comb_counts(curve, w)))
    elif curve.startswith("Curve"):
        methods.append(("constant-time ladder", counted))
    elif (small := small_build(f, curve)) is not None:
        smult = edwards_small_counts(curve, small["bits"], small["selects_per_bit"])
        generic = base_scalar_counts(curve)
        if operation == "verify":
            rest, _ = double_scalar_split(curve)
            e = _EDWARDS[curve]
            P = edwards.scalar_mult(e, 3, e.B)
            methods.append((f"two table-less double-and-always-add ({small['option']})",
                            rest + smult.times(2) + _counted(edwards.add, e, P, e.B)))
        elif operation in _EDWARDS_BASE_MULTS:
            for done in _EDWARDS_BASE_MULTS[operation]:
                replaced = counted - generic.times(2 if operation == "sign" else 1) + smult.times(done)
                given = ", public key given" if operation == "sign" and done == 1 else ""
                methods.append((f"table-less double-and-always-add base point ({small['option']}){given}", replaced))
        else:
            methods.append(("double-and-add", counted))
    else:
        methods.append(("double-and-add" if operation != "verify" else "double-scalar double-and-add", counted))
        if operation == "verify":
            for w in costs["scalar_mult"]["wnaf_bits"]:
                methods.append((f"interleaved {w}-bit wNAF double-scalar", windowed_double_scalar_counts(curve, w)))
        if operation in _EDWARDS_BASE_MULTS:
            generic = base_scalar_counts(curve)
            for w in costs["scalar_mult"]["comb_bits"]:
                comb = edwards_comb_counts(curve, w)
                for done in _EDWARDS_BASE_MULTS[operation]:
                    # the reference's sign computes [s]B and [r]B; with the public key given, only
                    # [r]B: one generic multiplication is dropped and one comb replaces the other
                    replaced = counted - generic.times(2 if operation == "sign" else 1) + comb.times(done)
                    given = ", public key given" if operation == "sign" and done == 1 else ""
                    methods.append((f"{w}-bit comb base point{given}", replaced))
    out = []
    scans = table_scan_rule(f, curve, operation) if curve in _WEIERSTRASS else None
    ladder = reference_counts(curve, "agree") if curve in WHOLE_LADDERS else None
    for kind in costs["fields"][curve]["kinds"]:
        for method, counts in methods:
            work = field_work(curve, kind, counts)
            # keygen (X25519(k, 9)) and agree are each one ladder, the whole operation's own counts
            whole = ((*WHOLE_LADDERS[curve], 1),) if ladder is not None and counts == ladder else ()
            scan = table_scan_work(scans, method, costs["fields"][curve]["bytes"]) if scans else {}
            if scan:
                work = merge(work, scan)
                method = (f"{method}, constant-time table reads ({scan[(SELECT, costs['fields'][curve]['bytes'])]} "
                          "selects)")
            out.append(Recipe(f"{kind_name(kind)}, {method}",
                              tuple((o, s, n) for (o, s), n in work.items()), whole))
    return tuple(out), ""


def library_variants(f: Figure) -> tuple[tuple[str, ...], str]:
    """The kernel variants a library of figure ``f``'s kind ships, and why (pubkey_costs.toml
    ``[[libraries]]``, the first rule whose library, math and asm texts the figure's contain and,
    when the rule lists ``algorithms``, one of which begins the figure's algorithm)."""
    for rule in load_costs()["libraries"]:
        if (rule["library"].lower() in f.library.lower() and rule["match"].lower() in (f.math or "").lower()
                and rule["asm"].lower() in (f.asm or "").lower()
                and (not rule.get("algorithms") or f.algorithm.startswith(tuple(rule["algorithms"])))):
            return tuple(rule["variants"]), rule["why"]
    raise ValueError(f"{COSTS_PATH}: [[libraries]]: no rule matches {f.library!r} / {f.math!r} / {f.asm!r} "
                     "(the last rule should match every figure)")


__all__ = ["CALL", "SELECT", "SEPARATE_VERIFY", "Counts", "co_z_ladder_counts", "exp_library_rule", "library_exp_counts", "scalar_method_rule", "twin_verify_counts", "library_exp_work",
           "library_exponent", "library_modexp_recipes", "Recipe", "Work", "compose", "exp_work", "family_of", "fermat_counts",
           "field_work", "inversion_counts", "is_no_crt", "kind_name", "ladder_rule", "ladder_work", "library_variants",
           "load_costs", "recipes", "reference_counts", "separate_verify_counts", "small_build", "with_calls",
           "WHOLE_LADDERS"]

