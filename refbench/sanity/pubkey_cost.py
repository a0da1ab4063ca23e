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
#: The kernel operation of wolfSSL SP's constant-time read of a 16-entry point table (bignum sp-table-read,
#: table.h: entries 1..15 scanned, an entry's bytes the measured size) and how many entries one call scans.
SP_TABLE_READ = "sp-table-read"
SP_TABLE_READ_ENTRIES = 15
#: The kernel operation of wolfSSL's WOLFSSL_ARMASM Ed25519 row read (bignum ref10-cmov-table, table.h, in the
#: shape of fe_cmov_table: 8 entries of 96 bytes, the negation inside), one call per ref10 row read.
REF10_ROW_READ = "ref10-cmov-table"
#: The operations that read tables (no arithmetic: the emulator rule's main operation is never one of them).
TABLE_READ_OPS = (SELECT, SP_TABLE_READ, REF10_ROW_READ)
#: The name of the verify method that multiplies u1 G and u2 Q separately ([scalar_mult] separate_verify).
SEPARATE_VERIFY = "separate multiplications"
#: The kernel operation that prices the caller's side of every kernel call ([pricing] call).
CALL = "call"

#: The group operations of ref10's Ed25519 whose field operations pubkey_costs.toml
#: [[scalar_mult.ref10]] group_ops gives.
REF10_GROUP_OPS = ("p2_dbl", "add", "madd", "p1p1_to_p2", "p1p1_to_p3", "p3_to_cached")

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
        predict = rule.get("predict", [])
        if not (isinstance(predict, list) and all(v in rule["variants"] for v in predict)):
            raise error_at(path, ("libraries", i, "predict"), f"expected a list of the rule's variants "
                           f"({', '.join(rule['variants'])}), got {predict!r}")
        if predict and not (isinstance(rule.get("predict_why"), str) and rule["predict_why"]):
            raise error_at(path, ("libraries", i, "predict_why"), "expected why the predicted variants are the "
                           f"library's own shape, got {rule.get('predict_why')!r}")
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
    for library, rule in data["pricing"].get("library_order_inversions", {}).items():
        where = ("pricing", "library_order_inversions", library)
        ops, own = (rule.get("ops"), rule.get("chains", {})) if isinstance(rule, dict) else (None, None)
        if not (isinstance(ops, list) and len(ops) == 2 and all(isinstance(o, str) for o in ops)):
            raise error_at(path, (*where, "ops"), f"expected [mul, sqr operations], got {ops!r}")
        if not isinstance(own, dict) or any(curve not in data["fields"] for curve in own):
            raise error_at(path, (*where, "chains"), f"expected {{curve of [fields] = chain}}, got {own!r}")
    chains = [(("pricing", "inv_chains", prime), chain) for prime, chain in data["pricing"].get("inv_chains", {}).items()]
    for library, rule in data["pricing"].get("library_order_inversions", {}).items():
        chains += [(("pricing", "library_order_inversions", library, "chains", curve), chain)
                   for curve, chain in rule["chains"].items()]
    for library, own in data["pricing"].get("library_inv_chains", {}).items():
        if not isinstance(own, dict):
            raise error_at(path, ("pricing", "library_inv_chains", library), f"expected {{prime = chain}}, got {own!r}")
        chains += [(("pricing", "library_inv_chains", library, prime), chain) for prime, chain in own.items()]
    for where, chain in chains:
        if not (isinstance(chain, list) and len(chain) == 2 and all(isinstance(n, int) and n > 0 for n in chain)):
            raise error_at(path, where, f"expected [squarings, multiplications], got {chain!r}")
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
            if shape[1] % SP_TABLE_READ_ENTRIES:
                raise error_at(path, ("scalar_mult", "table_scans", i, "reads", method),
                               f"expected a number of entries that is a multiple of {SP_TABLE_READ_ENTRIES} (the "
                               f"entries one {SP_TABLE_READ} call scans), got {shape[1]}")
    for i, rule in enumerate(data["scalar_mult"].get("ref10", [])):
        where = ("scalar_mult", "ref10", i)
        for key, kind in (("library", str), ("curve", str), ("small_option", str), ("asm_option", str),
                          ("digit_bound", int), ("group_ops", dict), ("decode", list), ("encode", list),
                          ("select", list), ("why", str)):
            if not isinstance(rule.get(key), kind):
                raise error_at(path, (*where, key), f"expected {kind.__name__}, got {rule.get(key)!r}")
        missing = sorted(set(REF10_GROUP_OPS) - set(rule["group_ops"]))
        if missing:
            raise error_at(path, (*where, "group_ops"), f"missing {', '.join(missing)}")
        for name, ops in (*((f"group_ops.{k}", v) for k, v in rule["group_ops"].items()),
                          ("decode", rule["decode"]), ("encode", rule["encode"])):
            if not (isinstance(ops, list) and len(ops) == 4 and all(isinstance(n, int) and n >= 0 for n in ops)):
                raise error_at(path, (*where, *name.split(".")), f"expected [mul, sqr, add, sub], got {ops!r}")
        if not (len(rule["select"]) == 2 and all(isinstance(n, int) and n > 0 for n in rule["select"])):
            raise error_at(path, (*where, "select"), f"expected [entries, bytes of an entry], got {rule['select']!r}")
    for i, rule in enumerate(data["scalar_mult"].get("sp_window", [])):
        where = ("scalar_mult", "sp_window", i)
        for key, kind in (("library", str), ("match", str), ("since", str), ("curve", str), ("operations", list),
                          ("window", int), ("dbl", list), ("add", list), ("add_swaps", int), ("map", list),
                          ("why", str)):
            if not isinstance(rule.get(key), kind):
                raise error_at(path, (*where, key), f"expected {kind.__name__}, got {rule.get(key)!r}")
        for key in ("dbl", "add", "map"):
            ops = rule[key]
            if not (len(ops) == 4 and all(isinstance(n, int) and n >= 0 for n in ops)):
                raise error_at(path, (*where, key), f"expected [mul, sqr, add, sub], got {ops!r}")
    for name, field in data["fields"].items():
        for kind, since in field.get("since_kinds", {}).items():
            if kind not in field["kinds"] or not isinstance(since, str) or release(since) is None:
                raise error_at(path, ("fields", name, "since_kinds", kind),
                               f"expected one of this field's kinds ({', '.join(field['kinds'])}) and a release such "
                               f"as \"5.6.4\", got {kind!r} = {since!r}")
        for kind, text in field.get("math_kinds", {}).items():
            if kind not in field["kinds"] or not isinstance(text, str) or not text:
                raise error_at(path, ("fields", name, "math_kinds", kind),
                               f"expected one of this field's kinds ({', '.join(field['kinds'])}) and a non-empty "
                               f"math option text, got {kind!r} = {text!r}")
        for library, kinds in field.get("library_kinds", {}).items():
            if not (isinstance(kinds, list) and kinds and all(k in field["kinds"] for k in kinds)):
                raise error_at(path, ("fields", name, "library_kinds", library),
                               f"expected a list of this field's kinds ({', '.join(field['kinds'])}), got {kinds!r}")
    for i, rule in enumerate(data["scalar_mult"].get("own_edwards", [])):
        for key, kind in (("library", str), ("curve", str), ("bits", int), ("selects_per_bit", int), ("decode", list),
                          ("encode", list), ("negations", int), ("why", str)):
            if not isinstance(rule.get(key), kind):
                raise error_at(path, ("scalar_mult", "own_edwards", i, key),
                               f"expected {kind.__name__}, got {rule.get(key)!r}")
        for key, length in (("decode", 4), ("encode", 2)):
            if len(rule[key]) != length or not all(isinstance(n, int) and n >= 0 for n in rule[key]):
                raise error_at(path, ("scalar_mult", "own_edwards", i, key),
                               f"expected {length} counts (products, squarings{', additions, subtractions' if length == 4 else ''}), "
                               f"got {rule[key]!r}")
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


def sliding_digits(scalar: int, bound: int, bits: int = 256) -> list[int]:
    """``scalar`` recoded into signed odd digits of size at most ``bound`` (little-endian, one per bit
    position, mostly zero): each set bit absorbs the set bits of the next six positions while the digit
    stays within the bound, adding or subtracting them (a subtraction carries into the higher bits).
    This is the recoding of ref10's slide(), which wolfSSL's ge_double_scalarmult_vartime uses
    (pubkey_costs.toml [[scalar_mult.ref10]]); its digits sum back to the scalar."""
    if not 0 <= scalar < 1 << bits:
        raise ValueError(f"Invalid scalar for a {bits}-bit sliding-window recoding: {scalar:#x}")
    r = [(scalar >> i) & 1 for i in range(bits)]
    for i in range(bits):
        if not r[i]:
            continue
        for b in range(1, 7):
            if i + b >= bits:
                break
            if not r[i + b]:
                continue
            step = r[i + b] << b
            if r[i] + step <= bound:
                r[i] += step
                r[i + b] = 0
            elif r[i] - step >= -bound:
                r[i] -= step
                for k in range(i + b, bits):  # the carry of the subtraction
                    if not r[k]:
                        r[k] = 1
                        break
                    r[k] = 0
            else:
                break
    return r


def _ref10_scalars() -> tuple[int, int]:
    """(h, S) of the reference's Ed25519 verify with its fixed key and message (:func:`reference_counts`):
    the two scalars of wolfSSL's [h](-A) + [S]B."""
    import hashlib

    secret = _SCALAR_SEED.to_bytes(32, "little")
    msg = b"refbench public-key cost"
    public = eddsa.public_key(secret, "Ed25519")
    sig = eddsa.sign(secret, msg, "Ed25519")
    h = int.from_bytes(hashlib.sha512(sig[:32] + public + msg).digest(), "little") % edwards.ED25519.L
    return h, int.from_bytes(sig[32:], "little")


def _ops(rule: dict[str, Any], name: str, times: int = 1) -> Counts:
    """``times`` x the field operations [mul, sqr, add, sub] of ``rule``'s group operation ``name``
    (or of its ``decode`` / ``encode``)."""
    mul, sqr, add, sub = rule["group_ops"][name] if name in rule["group_ops"] else rule[name]
    return Counts(mul, sqr, 0, 0, add, sub).times(times)


@cache
def _ref10_counts_cached(rule_key: str, operation: str, asm_base: bool) -> tuple[Counts, int]:
    rule = next(r for r in load_costs()["scalar_mult"]["ref10"] if r["library"] + "/" + r["curve"] == rule_key)
    one_inversion = Counts(0, 0, 0, 1)
    if operation == "verify":
        h, s = _ref10_scalars()
        a, b = sliding_digits(h, rule["digit_bound"]), sliding_digits(s, rule["digit_bound"])
        top = max(i for i in range(len(a)) if a[i] or b[i])
        table = (_ops(rule, "p3_to_cached", 8) + _ops(rule, "p2_dbl") + _ops(rule, "p1p1_to_p3")
                 + (_ops(rule, "add") + _ops(rule, "p1p1_to_p3")).times(7))
        steps = (_ops(rule, "p2_dbl") + _ops(rule, "p1p1_to_p2")).times(top + 1)
        adds = (_ops(rule, "p1p1_to_p3") + _ops(rule, "add")).times(sum(1 for d in a if d))
        madds = (_ops(rule, "p1p1_to_p3") + _ops(rule, "madd")).times(sum(1 for d in b if d))
        return _ops(rule, "decode") + table + steps + adds + madds + _ops(rule, "encode") + one_inversion, 0
    if operation not in ("keygen", "sign"):
        raise ValueError(f"Invalid ref10 operation {operation!r}; accepted: keygen, sign, verify")
    base = (_ops(rule, "madd") + _ops(rule, "p1p1_to_p3")).times(63) + Counts(0, 0, 0, 0, add=1, sub=1)
    if not asm_base:  # the C path: the first point's T, 4 doublings between the odd and even digits
        base = (base + Counts(1, 0, 0, 0) + _ops(rule, "p2_dbl", 4) + _ops(rule, "p1p1_to_p2", 3)
                + _ops(rule, "p1p1_to_p3"))
    reads = 64
    # the C path negates by one subtraction per read; the assembly read (asm_read) negates inside it
    return base + Counts(0, 0, 0, 0, sub=0 if asm_base else reads) + _ops(rule, "encode") + one_inversion, reads


def ref10_rule(f: Figure, curve: str) -> dict[str, Any] | None:
    """The ``[[scalar_mult.ref10]]`` rule for figure ``f``'s library on ``curve`` (None when the page names
    the rule's small option: those builds have no tables)."""
    for rule in load_costs()["scalar_mult"].get("ref10", ()):
        if (rule["curve"] == curve and rule["library"].lower() in f.library.lower()
                and not re.search(rf"\b{re.escape(rule['small_option'])}\b", _page_text(f))):
            return rule
    return None


def ref10_counts(rule: dict[str, Any], operation: str, asm_base: bool) -> tuple[Counts, Work]:
    """The field operations of ``operation`` (keygen, sign, verify) by ``rule``'s ref10 schedules
    (pubkey_costs.toml [[scalar_mult.ref10]]), and the work of its constant-time table reads: on the C
    path one bignum select of an entry's bytes per entry, and its call; with ``asm_base`` (the assembly
    build's base-point path) one call of :data:`REF10_ROW_READ` per read, the library's row read in its
    shape, negation included. Verify's digit counts are those of the reference's own
    signature scalars (:func:`sliding_digits`)."""
    counts, reads = _ref10_counts_cached(rule["library"] + "/" + rule["curve"], operation, asm_base)
    if not reads:
        return counts, {}
    entries, entry_bytes = rule["select"]
    size = load_costs()["fields"][rule["curve"]]["bytes"]
    if asm_base:
        return counts, {(REF10_ROW_READ, entry_bytes): reads, (CALL, size): reads}
    return counts, {(SELECT, entry_bytes): reads * entries, (CALL, size): reads * entries}


# ------------------------------------------------------------------------------------------
# Pricing


def fermat_counts(p: int) -> tuple[int, int]:
    """(squarings, multiplications) of a^(p-2) by left-to-right binary exponentiation (HAC 14.79)."""
    e = p - 2
    return e.bit_length() - 1, bin(e).count("1") - 1


def inversion_counts(curve: str, library: str = "") -> tuple[int, int]:
    """(squarings, multiplications) of one inversion in ``curve``'s field ([pricing] inv): the chain
    ``library_inv_chains`` names for ``library`` (a figure's library) and the field's prime, else the
    field's addition chain when ``inv_chains`` names its prime, else :func:`fermat_counts`."""
    pricing = load_costs()["pricing"]
    prime = load_costs()["fields"][curve]["prime"]
    own = [chains[prime] for name, chains in pricing.get("library_inv_chains", {}).items()
           if library and name.lower() in library.lower() and prime in chains]
    chain = own[0] if own else pricing.get("inv_chains", {}).get(prime)
    return (chain[0], chain[1]) if chain else fermat_counts(_PRIMES[curve])


def order_inversion(curve: str, library: str) -> tuple[str, str, int, int] | None:
    """(mul operation, sqr operation, squarings, multiplications) of one inversion modulo ``curve``'s group
    order n in ``library``'s own scalar arithmetic ([pricing] library_order_inversions: its chain for the
    curve where it names one, else the binary exponentiation to n - 2), or None when the library has none."""
    for name, rule in load_costs()["pricing"].get("library_order_inversions", {}).items():
        if library and name.lower() in library.lower() and curve in _WEIERSTRASS:
            s, m = rule["chains"].get(curve) or fermat_counts(_WEIERSTRASS[curve].n)
            return rule["ops"][0], rule["ops"][1], s, m
    return None


def field_work(curve: str, kind: str, counts: Counts, library: str = "") -> Work:
    """Kernel calls of ``counts`` in ``curve``'s field with arithmetic ``kind`` (pubkey_costs.toml
    ``[fields]``: [mul, sqr, add, sub(, mul_const)] operations): mul on the mul operation, mul_const
    on the field's constant multiplication or else on mul ([pricing] mul_const), sqr on the sqr operation, every inversion as a Fermat exponentiation
    (:func:`inversion_counts`, [pricing] inv, with ``library``'s own chain where it has one),
    additions and subtractions on the field's add/sub operations ([pricing] add_sub), each
    conditional swap on the field's swap operation or as two selects ([pricing] cswap), and the
    caller's side of every call but a swap operation's ([pricing] call). Additive operations that do not occur are
    left out (no kernel call to measure)."""
    costs = load_costs()
    field = costs["fields"][curve]
    mul_op, sqr_op, add_op, sub_op, *const_op = field["kinds"][kind]
    size = field["bytes"]
    inv_s, inv_m = inversion_counts(curve, library)
    # the inversions modulo n apart (mul op, sqr op, squarings, multiplications): the library's own scalar
    # arithmetic, else the kind's order arithmetic by Fermat; None: priced like field inversions
    order = order_inversion(curve, library) if counts.inv_order else None
    order_kind = costs["pricing"].get("order_kinds", {}).get(kind)
    if order is None and order_kind and counts.inv_order:
        order = (*field["kinds"][order_kind][:2], *fermat_counts(_WEIERSTRASS[curve].n))
    field_inv = counts.inv - counts.inv_order if order else counts.inv
    mul = counts.mul + (0 if const_op else counts.mul_const) + field_inv * inv_m
    sqr = counts.sqr + field_inv * inv_s
    work = {(mul_op, size): mul, (sqr_op, size): sqr}
    if order:
        o_mul, o_sqr, o_s, o_m = order
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
               "montgomery_mp1_fused": "Montgomery with the product and a fused reduction by word additions (mp = 1)",
               "montgomery_mp1_loops": "Montgomery with product loops and a reduction by word additions (mp = 1)",
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


def sp_window_rule(f: Figure, curve: str, operation: str) -> dict[str, Any] | None:
    """The ``[[scalar_mult.sp_window]]`` rule for figure ``f``'s library, math option and release on
    ``curve`` and ``operation``, or None."""
    version = release(f.version)
    for rule in load_costs()["scalar_mult"].get("sp_window", ()):
        if (rule["curve"] == curve and operation in rule["operations"]
                and rule["library"].lower() in f.library.lower() and rule["match"].lower() in (f.math or "").lower()
                and version is not None and version >= (release(rule["since"]) or ())):
            return rule
    return None


def sp_window_counts(rule: dict[str, Any], bits: int) -> Counts:
    """The field operations of one fixed-window scalar multiplication of a ``bits``-bit scalar with
    ``rule``'s point formulas (pubkey_costs.toml [[scalar_mult.sp_window]]): the table of 2^w points
    (2^w - 2 of them computed, half by doubling, half by addition), w doublings and one addition per
    window below the top one, the masked copy of each addition as conditional swaps, and the map to
    affine coordinates (one inversion and ``map``'s operations)."""
    w = rule["window"]
    windows = -(-bits // w)
    table = (1 << w) - 2
    doublings = table // 2 + (windows - 1) * w
    additions = table - table // 2 + (windows - 1)

    def ops(key: str, n: int) -> Counts:
        mul, sqr, add, sub = rule[key]
        return Counts(mul, sqr, 0, 0, add, sub).times(n)

    return (ops("dbl", doublings) + ops("add", additions) + Counts(0, 0, 0, 1, cswap=rule["add_swaps"] * additions)
            + ops("map", 1))


def table_scan_work(rule: dict[str, Any], method: str, size: int) -> Work:
    """The calls of ``rule``'s table reads in a multiplication by ``method`` (a recipe's method name:
    "<w>-bit comb base point" or "4-bit fixed window"), at field size ``size``: one bignum
    ``sp-table-read`` of an entry's bytes (its coordinates times ``size``) and its call per
    :data:`SP_TABLE_READ_ENTRIES` entries scanned (a 255-entry table as 17 such scans: from above by
    the clearing of the result each further call repeats)."""
    comb = re.search(r"(\d+)-bit comb base point", method)
    key = comb[1] if comb else ("window" if method.startswith("4-bit fixed window") else None)
    if key is None or key not in rule["reads"]:
        return {}
    reads, entries, coordinates = rule["reads"][key]
    calls = reads * (entries // SP_TABLE_READ_ENTRIES)
    return {(SP_TABLE_READ, coordinates * size): calls, (CALL, size): calls}


@cache
def edwards_small_counts(curve: str, bits: int, selects_per_bit: int) -> Counts:
    """One table-less scalar multiplication of a small build (``[[scalar_mult.small_builds]]``):
    ``bits`` steps of one doubling, one addition (the reference's formulas, refbench/ref/edwards.py)
    and ``selects_per_bit`` selects (two per conditional swap: [pricing] cswap)."""
    e = _EDWARDS[curve]
    P = edwards.scalar_mult(e, 3, e.B)
    step = _counted(edwards.double, e, P) + _counted(edwards.add, e, P, e.B)
    return (step + Counts(0, 0, 0, 0, cswap=selects_per_bit // 2)).times(bits)


def kinds_for(curve: str, library: str, math: str = "", version: str | None = None) -> tuple[str, ...]:
    """The field kinds (pubkey_costs.toml ``[fields]``) that price ``curve`` for a figure of ``library`` whose
    math option is ``math``: the field's ``library_kinds`` for that library where it names one, else every kind
    no library claims, less the ``math_kinds`` whose text ``math`` does not contain (a kind in one build's
    shape: a candidate for that build only) and the ``since_kinds`` whose first release is after ``version``
    (a kind in the shape of a later release; a figure without a version keeps it)."""
    field = load_costs()["fields"][curve]
    own = field.get("library_kinds", {})
    for name, kinds in own.items():
        if name.lower() in library.lower():
            return tuple(kinds)
    claimed = {k for kinds in own.values() for k in kinds}
    only = {k: text.lower() for k, text in field.get("math_kinds", {}).items()}
    got = release(version) if version else None
    later = {k for k, since in field.get("since_kinds", {}).items() if got is not None and got < (release(since) or ())}
    return tuple(k for k in field["kinds"] if k not in claimed and k not in later
                 and (k not in only or only[k] in math.lower()))


def own_edwards(f: Figure, curve: str) -> dict[str, Any] | None:
    """The ``[[scalar_mult.own_edwards]]`` rule for figure ``f``'s library on ``curve``, or None."""
    for rule in load_costs()["scalar_mult"].get("own_edwards", ()):
        if rule["curve"] == curve and rule["library"].lower() in f.library.lower():
            return rule
    return None


#: Base-point multiplications of a reference operation other than one: SM2's sign computes [d]G and [k]G
#: (refbench/ref/sm2.py sign), of which a library given the public key makes only the second.
_REFERENCE_BASE_MULTS = {("SM2", "sign"): 2}

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
def own_edwards_counts(curve: str, operation: str, bits: int, decode: tuple[int, int, int, int],
                       encode: tuple[int, int], negations: int) -> tuple[tuple[str, Counts, int], ...]:
    """A library's own Edwards methods for ``operation`` (``[[scalar_mult.own_edwards]]``): (method name,
    counted field operations, base-point multiplications whose selects the caller adds). A base-point
    multiplication is ``bits`` doublings and additions (the reference's formulas), each encoding
    ``encode`` [products, squarings] and one inversion; a verify is the library's ``decode`` [products,
    squarings, additions, subtractions] of A, ``negations`` subtractions, the reference's Shamir
    double-scalar multiplication with the doublings of its ``bits`` bits, and one encoding."""
    e = _EDWARDS[curve]
    P = edwards.scalar_mult(e, 3, e.B)
    dbl, add = _counted(edwards.double, e, P), _counted(edwards.add, e, P, e.B)
    enc = Counts(mul=encode[0], sqr=encode[1], mul_const=0, inv=1)
    mult = (dbl + add).times(bits) + enc
    if operation == "keygen":
        return (("double-and-always-add base point, no table", mult, 1),)
    if operation == "sign":
        return (("double-and-always-add base point, no table, public key given", mult, 1),
                ("double-and-always-add base point, no table, public key computed", mult.times(2), 2))
    if operation == "verify":
        rest, ref_bits = double_scalar_split(curve)
        twin = reference_counts(curve, "verify") - rest + dbl.times(bits - ref_bits)
        dec = Counts(mul=decode[0], sqr=decode[1], mul_const=0, inv=0, add=decode[2], sub=decode[3])
        return (("twin multiplication (Shamir, P + Q precomputed), one decode, one encode",
                 dec + Counts(0, 0, 0, 0, sub=negations) + twin + enc, 0),)
    raise ValueError(f"Invalid Edwards operation {operation!r}; accepted: keygen, sign, verify")


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


#: How a CycloneCRYPTO DSA recipe names its work modulo q (dsa_q_side_work).
DSA_Q_SIDE = "the work mod q (mpiInvMod, two mpiMulMod, a p-length mpiMod)"


def dsa_q_side_work(rule: dict[str, Any], p_bits: int, q_bits: int) -> Work:
    """The kernel calls of CycloneCRYPTO's DSA work modulo q (pkc/dsa.c, cited in pubkey_costs.toml
    ``[[exponentiation.libraries]]``), the same for sign and verify: one mpiInvMod, two mpiMul + mpiMod
    of two q-length numbers, and one mpiMod of a p-length number by q.

    * each mpiMul of two q-length numbers on ``rule["mul"]`` at q's length, each mpiMod of their
      2k-word product on ``rule["mod"]`` at q's length (the kernel's own shape: 2k words by k);
    * mpiInvMod (Euclid over bit-serial mpiDiv) on ``rule["mod"]`` at q's length: 32k + 1
      shift-compare-subtract iterations, fewer than the Euclid's divisions make (a lower bound);
    * the mpiMod of a p-length number by q (32 (k_p - k_q) + 1 iterations over k_p-word numbers) on
      ``rule["mod"]`` twice: at half p's length (16 k_p + 1 iterations over the same k_p words) and at
      the length k_p / 2 - k_q that makes up the iterations (over fewer words: a lower bound)."""
    q, half = q_bits // 8, p_bits // 16
    work = {(rule["mul"], q): 2, (rule["mod"], q): 3, (rule["mod"], half): 1}
    rest = half - q
    if rest > 0:
        work[(rule["mod"], rest)] = work.get((rule["mod"], rest), 0) + 1
    return work


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
        q_side = dsa_q_side_work(rule, bits, short)
        if f.operation == "verify":
            work = merge(library_exp_work(rule, bits, library_exponent(short, "u1")),
                         library_exp_work(rule, bits, library_exponent(short, "u2")), {(mul, size): 1, (mod, size): 1},
                         q_side)
            name = f"mpiExpMod, two {short}-bit exponents and one mpiMulMod mod p, {setup}, {DSA_Q_SIDE}"
        else:
            work = merge(library_exp_work(rule, bits, library_exponent(short, "k")), q_side)
            name = f"mpiExpMod, one {short}-bit exponent, {setup}, {DSA_Q_SIDE}"
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
    extra: dict[str, Work] = {}  # a method's work beyond its counted field operations (its table reads)
    size = costs["fields"][curve]["bytes"]
    library_method = scalar_method_rule(f, operation) if curve in _WEIERSTRASS else None
    if library_method is not None and library_method["shape"] == "twin":
        methods.append((library_method["method"], twin_verify_counts(curve)))
    elif library_method is not None:
        mults = _REFERENCE_BASE_MULTS.get((curve, operation), 1)
        rest = counted - base_scalar_counts(curve).times(mults)
        for done in range(mults, 0, -1):
            given = ", public key given" if done < mults else ""
            methods.append((f"{library_method['method']}{given}", rest + co_z_ladder_counts(curve).times(done)))
    elif curve in _WEIERSTRASS and (spw := sp_window_rule(f, curve, operation)) is not None:
        # the library's own point formulas and schedule (its counts replace the reference's)
        methods.append((f"{spw['window']}-bit fixed window, {f.library}'s point formulas",
                        sp_window_counts(spw, _WEIERSTRASS[curve].n.bit_length())))
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
    elif (own := own_edwards(f, curve)) is not None:
        for method, counts, mults in own_edwards_counts(curve, operation, own["bits"], tuple(own["decode"]),
                                                        tuple(own["encode"]), own["negations"]):
            methods.append((method, counts))
            selects = mults * own["bits"] * own["selects_per_bit"]
            if selects:  # each select its own call, as table reads are priced
                extra[method] = {(SELECT, size): selects, (CALL, size): selects}
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
    elif (r10 := ref10_rule(f, curve)) is not None and operation in ("keygen", "sign", "verify"):
        asm_base = r10["asm_option"].lower() in (f.asm or "").lower()
        counts, reads = ref10_counts(r10, operation, asm_base)
        base_name = ("ref10 radix-16 base-point table, 64 constant-time row reads"
                     + (f" ({r10['asm_option']})" if asm_base else "") + (", public key given" if operation == "sign" else ""))
        width = (r10["digit_bound"] + 1).bit_length()  # odd digits up to 2^(w-1) - 1: a width-w window
        method = f"ref10 {width}-bit sliding-window double-scalar, A decoded, R' encoded" if operation == "verify" else base_name
        methods.append((method, counts))
        if reads:
            extra[method] = reads
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
    for kind in kinds_for(curve, f.library, f.math or "", f.version):
        for method, counts in methods:
            work = field_work(curve, kind, counts, f.library)
            # keygen (X25519(k, 9)) and agree are each one ladder, the whole operation's own counts
            whole = ((*WHOLE_LADDERS[curve], 1),) if ladder is not None and counts == ladder else ()
            if method in extra:
                work = merge(work, extra[method])
            scan = table_scan_work(scans, method, size) if scans else {}
            if scan:
                work = merge(work, scan)
                (_, entry_bytes), calls = next((k, n) for k, n in scan.items() if k[0] == SP_TABLE_READ)
                method = (f"{method}, constant-time table reads ({calls} x {SP_TABLE_READ_ENTRIES} entries of "
                          f"{entry_bytes} bytes)")
            out.append(Recipe(f"{kind_name(kind)}, {method}",
                              tuple((o, s, n) for (o, s), n in work.items()), whole))
    return tuple(out), ""


def _library_rule(f: Figure) -> dict[str, Any]:
    """pubkey_costs.toml ``[[libraries]]``: the first rule whose library, math and asm texts figure
    ``f``'s contain and, when the rule lists ``algorithms``, one of which begins the figure's algorithm."""
    for rule in load_costs()["libraries"]:
        if (rule["library"].lower() in f.library.lower() and rule["match"].lower() in (f.math or "").lower()
                and rule["asm"].lower() in (f.asm or "").lower()
                and (not rule.get("algorithms") or f.algorithm.startswith(tuple(rule["algorithms"])))):
            return rule
    raise ValueError(f"{COSTS_PATH}: [[libraries]]: no rule matches {f.library!r} / {f.math!r} / {f.asm!r} "
                     "(the last rule should match every figure)")


def library_variants(f: Figure) -> tuple[tuple[str, ...], str]:
    """The kernel variants a library of figure ``f``'s kind ships (the candidates), and why."""
    rule = _library_rule(f)
    return tuple(rule["variants"]), rule["why"]


def predicted_variants(f: Figure) -> tuple[tuple[str, ...], str]:
    """The candidates that are the library's own shape, from which figure ``f``'s prediction is made
    (the rule's ``predict``, and why), or ((), "") when the rule names none."""
    rule = _library_rule(f)
    return tuple(rule.get("predict", ())), rule.get("predict_why", "")


__all__ = ["CALL", "DSA_Q_SIDE", "SELECT", "SEPARATE_VERIFY", "SP_TABLE_READ", "SP_TABLE_READ_ENTRIES", "REF10_ROW_READ",
           "TABLE_READ_OPS", "Counts", "dsa_q_side_work", "co_z_ladder_counts", "exp_library_rule", "library_exp_counts", "scalar_method_rule", "twin_verify_counts", "library_exp_work",
           "library_exponent", "library_modexp_recipes", "Recipe", "Work", "compose", "exp_work", "family_of", "fermat_counts",
           "field_work", "inversion_counts", "is_no_crt", "kind_name", "ladder_rule", "ladder_work", "library_variants",
           "kinds_for", "predicted_variants", "load_costs", "own_edwards", "own_edwards_counts",
           "recipes", "ref10_counts", "ref10_rule", "reference_counts", "separate_verify_counts", "sliding_digits",
           "small_build", "sp_window_counts", "sp_window_rule", "with_calls",
           "WHOLE_LADDERS"]

