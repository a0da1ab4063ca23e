"""Whole public-key operations emulated end to end, against their composition; the composition bound.

The emulator rule for public key composes an operation's cost (:mod:`refbench.sanity.pubkey_cost`): counted
field/bignum operations x the emulated cycles of one kernel call each, the ladder's swap by its
own operation (25519-cswap), and the caller's side of every call (argument set-up and branch,
bignum ``call``, emulated). What composition leaves out is what else happens between the calls of
a real operation: loop control, copies, table look-ups, and the placement of temporaries (the stack
of the whole operation against the harness's buffers). It is measured here, on whole operations that exist as kernels
(``refbench/kernels/bignum``), each written step for step as its reference counts it:

* ``x25519``: the RFC 7748 §5 ladder and Fermat inversion (x25519.h) against the reference's
  counts of an X25519 agreement;
* ``rsa1024-crt``: two 512-bit 4-bit-window exponentiations (exp.h) and the recombination
  product, against :func:`~refbench.sanity.pubkey_cost.exp_work`;
* ``p256-base-mult``: a P-256 base-point multiplication with a 4-bit fixed window (p256.h)
  against the reference's counts of the same scalar multiplication;
* ``ed25519-base-mult`` and ``ed25519-double-mult``: Ed25519's base-point multiplication with its
  encoding, and verification's [S]B - [h]A, as wolfSSL's CURVED25519_SMALL build does them
  (ed25519.h), against the exact count of their calls (:func:`ed25519_work`: the steps of the
  pubkey_costs.toml ``[[scalar_mult.small_builds]]`` recipe, the reference's formulas, with each
  select priced as the rule states, one bignum ``select``);
* ``p256-ecdsa-sign`` and ``p256-ecdsa-verify``: ECDSA P-256 (p256_ecdsa.h) against the exact count of
  their calls (:func:`ecdsa_work`): signing's order arithmetic around one call of the constant-time
  base-point multiplication (a kernel operation of its own, priced by its measurement: why, in
  :func:`ecdsa_work`), and verification's interleaved double scalar multiplication, inversion mod n and
  order arithmetic.

Only operations that ARE a sequence of calls are checked: a variant's manifest ``whole`` lists the
operations it computes whole in code of its own (bignum/umaal_asm_ladder's X25519: one assembly
ladder with non-canonical elements between steps, inline additions and swaps, internal products
that are not its exported AAPCS calls), and those are left out (:func:`composed_operations`). Such an
operation is not a composition of its exported calls (composing them prices umaal_asm's assembly
ladder 24-29 % above its whole cycles, measured 2026-12-03), so checking it here would measure the
gap between two different codes, not what composition misses; the pricing takes its measured whole
cycles instead (:mod:`refbench.sanity.pubkey_plan`), with no composition term. The same sources
without the whole operation (bignum/umaal_asm: x25519.h's C ladder over the assembly field
operations) stay checked.

``error = (composed - full) / full``. The recorded errors (``pubkey_composition.toml``, written by
``python -m refbench.sanity.pubkey_whole --record`` and re-measured by
tests/test_pubkey_composition.py, which fails when a kernel change moves one) give
:data:`COMPOSITION_BOUND` = max |error| + (max error - min error): the worst measured error, plus
the spread of the errors, as the margin for an operation that is not emulated whole (its mix of
additive work and products differs from the measured ones by less than theirs differ from each
other: the three span the extremes, a ladder with one addition per product, an exponentiation
with none, Jacobian formulas between). Nothing here looks at a published figure.

The checks run with ideal memory. With a board's memory system the same checks stay inside the
ideal-memory range (measured for this module, portable C, 2026-12-02): STM32F407 ART on +2.08%
(X25519), -0.27% (RSA-1024 CRT), +0.99% (P-256); ART off +1.65%, -0.42%, +1.12%; STM32F756 caches on
+0.93%, -0.57%, +0.12%; STM32G071 +0.46%, -0.23%, +0.25%; STM32L562 +1.60%, -0.38%, +0.89%: memory
placement (the whole operation's larger code and stack against one kernel call's) moves the error by
less than the spread the bound already adds.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from cortexm_emu.datafile import error_at, read_toml
from refbench.derived import DERIVED, key_of
from refbench.kernels.catalog import family
from refbench.kernels.references import prepare
from refbench.measure import Job, Measurer, make_inputs
from refbench.ref import curves, edwards, opcount, weierstrass
from refbench.sanity.pubkey_cost import (
    CALL,
    SELECT,
    Counts,
    Work,
    compose,
    edwards_small_counts,
    exp_work,
    field_work,
    load_costs,
    merge,
    reference_counts,
    with_calls,
)

RECORD_PATH = DERIVED / "pubkey_composition.toml"
#: The cores the composition is checked on (the issue's M0+, M4, M7, M33), ideal memory.
CORES = ("m0plus", "m4", "m7", "m33")
OPERATIONS = ("x25519", "rsa1024-crt", "p256-base-mult", "ed25519-base-mult", "ed25519-double-mult",
              "p256-ecdsa-sign", "p256-ecdsa-verify")
_RECOMBINATION = {("mont-mul", 64): 2}


@dataclass(frozen=True)
class Check:
    """One whole operation on one variant and core: its emulated cycles and its composition."""

    operation: str
    variant: str
    core: str
    full: int
    composed: int

    @property
    def error(self) -> float:
        return (self.composed - self.full) / self.full


def _cycles(m: Measurer, variant: str, work: Work) -> dict[tuple[str, int], int]:
    out = {}
    for op, size in work:
        result = m.measure(Job("bignum", variant, op, size))
        if not result.verified or result.cycles is None:
            raise ValueError(f"bignum/{variant} {op} {size} B on {m.core}: not verified "
                             f"({result.mismatch or result.error})")
        out[(op, size)] = result.cycles
    return out


def _p256_counts(m: Measurer) -> Counts:
    """The reference's counts of the scalar multiplication the kernel measures (same scalar)."""
    op = next(o for o in family("bignum").operations if o.name == "p256-base-mult")
    k = int.from_bytes(prepare("p256-base-mult")(make_inputs(op, 32, seed=m.seed))["a"], "little")
    with opcount.counting() as c:
        weierstrass.scalar_mult(curves.P256, k, curves.P256.G)
    return Counts(c.mul, c.sqr, c.mul_const, c.inv, c.add, c.sub, c.cswap)


def _counted(fn: Callable[..., object], *args: object) -> Counts:
    with opcount.counting() as c:
        fn(*args)
    return Counts(c.mul, c.sqr, c.mul_const, c.inv, c.add, c.sub, c.cswap)


def ed25519_work(operation: str) -> Work:
    """The kernel calls of ed25519.h's ``operation``, counted exactly: per scalar multiplication the
    ``bits`` steps of the CURVED25519_SMALL recipe (:func:`~refbench.sanity.pubkey_cost.edwards_small_counts`:
    the reference's doubling and addition) less one addition per point addition (the reference
    doubles d in each, F.small(2, d); the kernel stores k = 2d, as ge_low_mem.c does), with the
    ``selects_per_bit`` selects each priced as one bignum ``select`` and its call (the rule's words:
    ed25519.h's fe25519_select is bn_select's loop with the bit as an argument); then the reference's
    conversion to affine coordinates (1 I + 2 M); the double scalar multiplication also one
    addition, and -A = (-x, y, 1, -x y) from A's affine coordinates (the subtraction 0 - x and 1 M)."""
    (rule,) = [r for r in load_costs()["scalar_mult"]["small_builds"] if r["curve"] == "Edwards25519"]
    bits, selects = rule["bits"], rule["selects_per_bit"]
    step = edwards_small_counts("Edwards25519", 1, 0)
    e = edwards.ED25519
    P = edwards.scalar_mult(e, 3, e.B)
    add = _counted(edwards.add, e, P, e.B)
    affine = _counted(edwards.to_affine, e, P)
    stored_2d = Counts(0, 0, 0, 0, add=1)
    smult = (step - stored_2d).times(bits)
    counts = smult + affine
    times = 1
    if operation == "ed25519-double-mult":
        counts = smult.times(2) + add - stored_2d + affine + Counts(1, 0, 0, 0, sub=1)
        times = 2
    n = selects * bits * times
    return merge(field_work("Edwards25519", "special", counts), {(SELECT, 32): n, (CALL, 32): n})


#: Field calls of p256_ct.h's and p256_ecdsa.h's formulas: (mont-mul, mont-sqr, add, sub, halve) per mixed
#: addition (madd-2004-hmv), doubling (dbl-2004-hmv), addition (add-1998-cmo-2), and ECDSA
#: verification's test of x(R) mod n = r without inversion (p256_ecdsa.h p256m_x_mod_n_is: Z^2, then per
#: candidate x0 in {r, r + n when below p} x0 R, x0 Z^2 and X - x0 Z^2).
_P256_MADD, _P256_DBL, _P256_ADD = (8, 3, 1, 6, 0), (4, 4, 5, 4, 1), (12, 4, 1, 6, 0)
_P256_X_TEST, _P256_X_CANDIDATE = (0, 1, 0, 0, 0), (2, 0, 0, 1, 0)
_P256_SUB = (0, 0, 0, 1, 0)


def order_inversion_counts() -> tuple[int, int]:
    """(products, squarings) of p256_order.h's inversion mod n, a^(n-2): a^2 and the odd powers a^3 ..
    a^15 (1 S, 7 M); x8, x16, x32 from x4 = a^15 (4 + 8 + 16 S, 3 M); the top half of n - 2 from
    x32 (64 + 32 S, 2 M); the low half by a sliding window of up to 4 bits (one squaring per bit,
    one product per window)."""
    low = (curves.P256.n - 2) & (2**128 - 1)
    windows, i = 0, 127
    while i >= 0:
        if low >> i & 1:
            j = max(i - 3, 0)
            while not low >> j & 1:
                j += 1
            windows, i = windows + 1, j - 1
        else:
            i -= 1
    return 7 + 3 + 2 + windows, 1 + 4 + 8 + 16 + 64 + 32 + 128


def p256_wnaf(k: int, w: int) -> list[int]:
    """The width-``w`` non-adjacent form p256_ecdsa.h gives k (0 <= k < 2^256) for verification's double
    multiplication (HAC Algorithm 14.33): odd digits in [-(2^(w-1) - 1), 2^(w-1) - 1] or 0, at most
    one non-zero in any w consecutive, sum d_i 2^i = k; least significant first, up to the top
    non-zero digit (empty for k = 0)."""
    digits: list[int] = []
    while k:
        if k & 1:
            d = k % 2**w
            d = d - 2**w if d >= 2 ** (w - 1) else d
            k -= d
        else:
            d = 0
        digits.append(d)
        k >>= 1
    return digits


def ecdsa_work(operation: str, inputs: dict) -> Work:
    """The kernel calls of p256_ecdsa.h's ``operation`` on the prepared ``inputs``, counted exactly, but
    for signing's base-point multiplication, one call of p256-base-mult-ct (a kernel operation of its
    own, constant time, priced by its measurement like every call): order products and squarings
    (p256-order-mul/-sqr; the one addition e + r d mod n is limbs.h's mod_add inline, not a call);
    for verification the field products, squarings, additions, subtractions and
    halvings (p256-mont-mul/-sqr, p256-add/-sub, p256-halve) by the formulas' counts; then the
    caller's side of every call. Verification's negations are field subtractions (0 - y): the eight
    entries of Q's table once, and the entry of each negative digit of u1. Its doublings, additions
    and negations follow the NAFs of u1 (width 7) and u2 (width 5) (:func:`p256_wnaf`, data-dependent:
    counted from the public u1, u2): a doubling per digit below the top one, an addition per non-zero
    digit but the first (which is loaded). The exceptional additions of crafted inputs (a partial sum equal to, or the
    negative of, the added point, or at infinity) are not counted: signatures made with unknown
    keys meet them with probability about 2^-250.

    Why signing's base-point multiplication is measured, not composed: its 64 constant-time table
    reads priced as the scan rule prices them (pubkey_costs.toml ``[[scalar_mult.table_scans]]``: one
    bignum select per entry and coordinate, 8 x 2, and one call) compose the portable C variants'
    signing within 0.3 % (c32 on the M4: 2,839,323 composed, 2,831,246 emulated), but umaal_asm's
    scans are p256.S's SEL loop, 36,800 cycles for the 64 reads against 118,080 priced (1,024 selects
    of 115 cycles and their calls): +12.2 % on the whole signature (584,064 composed, 520,378
    emulated; measured 2026-12-03), a gap between two codes for one scan, not what composition
    misses around calls."""
    n = curves.P256.n
    field = [0, 0, 0, 0, 0]

    def add(counts: tuple[int, ...], times: int = 1) -> None:
        for i, c in enumerate(counts):
            field[i] += c * times

    order_mul, order_sqr = order_inversion_counts()
    base_mult = 0
    if operation == "p256-ecdsa-sign":
        base_mult = 1                      # [k]G
        order_mul += 4                     # x mod n, r d R^-1, e R^-1, k^-1 (e + r d)
    elif operation == "p256-ecdsa-verify":
        r, s = int.from_bytes(inputs["a"][:32], "little"), int.from_bytes(inputs["a"][32:], "little")
        e = int.from_bytes(inputs["b"][:32], "little")
        if not (1 <= r < n and 1 <= s < n):
            return {}                      # rejected before any call
        w = pow(s, -1, n)
        naf1, naf2 = p256_wnaf(e % n * w % n, 7), p256_wnaf(r * w % n, 5)
        top = max(len(naf1), len(naf2)) - 1
        first_q = naf2[top] != 0 if top < len(naf2) else False  # the chain starts from u2's digit's point
        order_mul += 1 + 2                 # s R; u1, u2
        add((2, 0, 0, 0, 0))               # Q into Montgomery form
        add(_P256_DBL)
        add(_P256_ADD, 7)                  # Q, 3Q, ..., 15Q
        add(_P256_SUB, 8 + sum(1 for x in naf1 if x < 0))  # their negatives; the negated entries of G
        add(_P256_DBL, top)                # one doubling chain from the top digit
        add(_P256_ADD, sum(1 for x in naf2 if x) - first_q)
        add(_P256_MADD, sum(1 for x in naf1 if x) - (not first_q))
        add(_P256_X_TEST)
        add(_P256_X_CANDIDATE, 1 + (r + n < curves.P256.p))
    else:
        raise ValueError(f"Invalid ECDSA operation {operation!r}; accepted: p256-ecdsa-sign, p256-ecdsa-verify")
    work = {("p256-mont-mul", 32): field[0], ("p256-mont-sqr", 32): field[1], ("p256-add", 32): field[2],
            ("p256-sub", 32): field[3], ("p256-halve", 32): field[4], ("p256-order-mul", 32): order_mul,
            ("p256-order-sqr", 32): order_sqr, ("p256-base-mult-ct", 32): base_mult}
    return with_calls({key: count for key, count in work.items() if count})


def check(operation: str, variant: str, m: Measurer) -> Check:
    """Emulate ``operation`` whole with ``variant`` on measurer ``m``'s core, and compose it."""
    if operation == "x25519":
        full_job = Job("bignum", variant, "x25519", 32)
        work = field_work("Curve25519", "special", reference_counts("Curve25519", "agree"))
        extra = 0
        times = 1
    elif operation == "rsa1024-crt":
        full_job = Job("bignum", variant, "mont-exp", 64)
        work = merge(exp_work(512, 512, 4, times=2), _RECOMBINATION)
        extra = compose(_RECOMBINATION, _cycles(m, variant, _RECOMBINATION))  # measured the same in both
        times = 2
    elif operation == "p256-base-mult":
        full_job = Job("bignum", variant, "p256-base-mult", 32)
        work = field_work("P-256", "special", _p256_counts(m))
        extra = 0
        times = 1
    elif operation in ("p256-ecdsa-sign", "p256-ecdsa-verify"):
        full_job = Job("bignum", variant, operation, 64)
        op = next(o for o in family("bignum").operations if o.name == operation)
        work = ecdsa_work(operation, prepare(operation)(make_inputs(op, 64, seed=m.seed)))
        extra = 0
        times = 1
    elif operation in ("ed25519-base-mult", "ed25519-double-mult"):
        full_job = Job("bignum", variant, operation, 32 if operation == "ed25519-base-mult" else 64)
        work = ed25519_work(operation)
        extra = 0
        times = 1
    else:
        raise ValueError(f"Invalid whole operation {operation!r}; accepted: {', '.join(OPERATIONS)}")
    full = m.measure(full_job)
    if not full.verified or full.cycles is None:
        raise ValueError(f"bignum/{variant} {full_job.operation} on {m.core}: not verified ({full.mismatch or full.error})")
    return Check(operation, variant, m.core or "", times * full.cycles + extra, compose(work, _cycles(m, variant, work)))


#: Whole operations that are not a sequence of a variant's exported calls when it is built with the
#: define: with P256_MONT_ASM (bignum/umaal_asm) p256_ct.h's point doubling and additions are assembly
#: (umaal_asm/p256.S p256_jac_double, p256_jac_add, p256_jac_add_affine: additions inlined, products by
#: internal calls), which ECDSA verification runs for every digit; signing's point multiplication is
#: measured whole inside its check (:func:`ecdsa_work`), so it stays checked.
ASM_FORMULAS = {"P256_MONT_ASM": ("p256-ecdsa-verify",)}


def composed_operations(variant: str, operations: tuple[str, ...] = OPERATIONS) -> tuple[str, ...]:
    """The whole operations checked for ``variant``: ``operations`` less those its manifest computes
    ``whole`` and those its defines put in assembly formulas (:data:`ASM_FORMULAS`): not a sequence of
    its calls (the module docstring)."""
    v = family("bignum").variant(variant)
    formulas = {op for define in v.defines for op in ASM_FORMULAS.get(define, ())}
    return tuple(op for op in operations if _kernel_operation(op) not in v.whole and op not in formulas)


def _kernel_operation(operation: str) -> str:
    """The bignum kernel operation that computes whole ``operation`` (rsa1024-crt: mont-exp)."""
    return "mont-exp" if operation == "rsa1024-crt" else operation


def excluded(cores: tuple[str, ...] = CORES) -> list[tuple[str, str]]:
    """(variant, operation) pairs left out because the variant computes the operation whole."""
    fam = family("bignum")
    return [(v, op) for v in fam.variants for op in OPERATIONS
            if any(fam.variant(v).supports(c) for c in cores) and op not in composed_operations(v)]


def measure_all(cores: tuple[str, ...] = CORES, operations: tuple[str, ...] = OPERATIONS,
                use_cache: bool = True) -> list[Check]:
    """Every operation x variant x core (the variants each core supports), ideal memory, less the
    operations a variant computes whole (:func:`composed_operations`)."""
    fam = family("bignum")
    out = []
    for core in cores:
        m = Measurer(core, use_cache=use_cache)
        for variant in fam.variants:
            if fam.variant(variant).supports(core):
                out.extend(check(op, variant, m) for op in composed_operations(variant, operations))
    return out


@cache
def recorded(path: Path = RECORD_PATH) -> tuple[Check, ...]:
    """The recorded checks of ``pubkey_composition.toml``; a malformed entry raises DataFileError
    naming the file, line and field."""
    _, data = read_toml(path, kind="composition record")
    out = []
    for i, entry in enumerate(data.get("checks", [])):
        for key, kind in (("operation", str), ("variant", str), ("core", str), ("full", int), ("composed", int)):
            if not isinstance(entry.get(key), kind):
                raise error_at(path, ("checks", i, key), f"expected {kind.__name__}, got {entry.get(key)!r}")
        if entry["full"] <= 0:
            raise error_at(path, ("checks", i, "full"), f"expected a positive cycle count, got {entry['full']}")
        out.append(Check(entry["operation"], entry["variant"], entry["core"], entry["full"], entry["composed"]))
    if not out:
        raise error_at(path, ("checks",), "no recorded composition check")
    return tuple(out)


def bound_of(checks: tuple[Check, ...] | list[Check]) -> float:
    """max |error| + (max error - min error) over ``checks`` (the module's derivation)."""
    errors = [c.error for c in checks]
    return max(abs(e) for e in errors) + (max(errors) - min(errors))


def derivation(checks: tuple[Check, ...] | list[Check]) -> str:
    """The bound in words, with its numbers, for verdict reasons."""
    errors = [c.error for c in checks]
    return (f"max |composed - emulated| {max(abs(e) for e in errors):.1%} + spread {max(errors) - min(errors):.1%} "
            f"over {len(errors)} whole-operation checks ({', '.join(sorted({c.operation for c in checks}))}) on "
            f"{', '.join(sorted({c.core for c in checks}))}")


#: What composition may miss against full emulation, as a fraction of the composed cycles: derived
#: from the recorded whole-operation checks (the module docstring; the bound, its worst check and its
#: spread are printed by ``python -m refbench.sanity.pubkey_whole`` and quoted in every verdict reason).
COMPOSITION_BOUND = bound_of(recorded())
#: The bound's derivation with its numbers, for verdict reasons.
COMPOSITION_DERIVATION = derivation(recorded())


def key_of_checks(checks: tuple[Check, ...] | list[Check]) -> dict[str, dict[str, str]]:
    """The derived-data key of recorded checks: their cores, bignum variants and zig."""
    return key_of({c.core for c in checks}, {f"bignum/{c.variant}" for c in checks}, ("zig",))


def stored_key(path: Path = RECORD_PATH) -> dict | None:
    """The ``[key]`` the record was written with (:mod:`refbench.derived`), or None."""
    return read_toml(path, kind="composition record")[1].get("key")


def render(checks: list[Check]) -> str:
    lines = ["# Whole public-key operations emulated end to end (refbench/kernels/bignum) against their",
             "# composition (counted operations x emulated cycles per kernel call), ideal memory, zig -Os.",
             "# Written by `python -m refbench.derived` (or `python -m refbench.sanity.pubkey_whole --record`);",
             "# [key]: the timing models, kernel sources and compiler measured with (tests/test_derived.py",
             "# fails when one changed). COMPOSITION_BOUND (pubkey_whole.py) is derived from these.",
             "# error = (composed - full) / full; full and composed in cycles.",
             *(line for v, op in excluded() for line in (
                 f"# Not checked: {op} of bignum/{v}, which computes it in code of its own, not as a sequence of its",
                 "# calls (kernel.toml whole: priced by its measured whole cycles; or point formulas in assembly:",
                 "# pubkey_whole.py ASM_FORMULAS).")),
             ""]
    for part, names in key_of_checks(checks).items():
        lines += [f"[key.{part}]", *(f'"{name}" = "{value}"' for name, value in names.items()), ""]
    for c in checks:
        lines += ["[[checks]]", f'operation = "{c.operation}"', f'variant = "{c.variant}"', f'core = "{c.core}"',
                  f"full = {c.full}", f"composed = {c.composed}  # {c.error:+.2%}", ""]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--record", action="store_true", help=f"measure every check and write {RECORD_PATH.name}")
    args = parser.parse_args(argv)
    checks = measure_all() if args.record else list(recorded())
    for c in checks:
        print(f"{c.operation:15} {c.variant:6} {c.core:7} full {c.full:>12,} composed {c.composed:>12,} {c.error:+.2%}")
    print(f"bound {bound_of(checks):.2%}: {derivation(checks)}")
    if args.record:
        RECORD_PATH.write_text(render(checks), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
