"""CycloneCRYPTO's RSA, DH and DSA in the library's own shape: the exponentiation of
refbench/ref/mpi_cyclone.py (mpiExpMod: per-call C^2 mod p by mpiMod, a sliding window of
Montgomery products) against Python's pow, its call counts, and the recipes
(refbench/sanity/pubkey_cost.py library_modexp_recipes, pubkey_costs.toml
[[exponentiation.libraries]]) that price them on bignum cy-mont-mul and cy-mod. Synthetic figures."""

from __future__ import annotations

import dataclasses
import hashlib

import pytest

from refbench.kernels.catalog import family
from refbench.published.model import load_figures
from refbench.ref import mpi_cyclone
from refbench.sanity.pubkey_cost import (
    CALL,
    exp_library_rule,
    library_exp_counts,
    library_exponent,
    load_costs,
    recipes,
)

TEMPLATE = next(f for f in load_figures() if f.id == "000-0296")


def synthetic(algorithm: str, bits: int, operation: str, library: str = "CycloneCRYPTO", **kw) -> object:
    return dataclasses.replace(TEMPLATE, algorithm=algorithm, key_bits=bits, curve=None, operation=operation,
                               library=library, math=None, asm=None, **kw)


def number(label: str, bits: int) -> int:
    return int.from_bytes(hashlib.shake_256(label.encode()).digest(bits // 8), "little") | (1 << (bits - 1))


@pytest.mark.parametrize("bits", [64, 256, 1024])
@pytest.mark.parametrize("e_bits", [2, 17, 32, 33, 160, 1024])
def test_exp_mod_equals_pow(bits, e_bits):
    p = number(f"p{bits}", bits) | 1
    e = number(f"e{e_bits}", e_bits) if e_bits > 17 else (65537 if e_bits == 17 else 3)
    for a in (0, 1, 2, p - 1, number(f"a{bits}", bits) % p, p + 5):
        value, _ = mpi_cyclone.exp_mod(a, e, p)
        assert value == pow(a, e, p)


def test_exp_mod_counts_follow_the_librarys_loop():
    p = number("p2048", 2048) | 1
    # e = 65537 (17 bits, a one-bit window): A C, A^2, 17 squarings, 2 multiplications; 2 reductions
    assert mpi_cyclone.exp_mod(5, 65537, p)[1] == mpi_cyclone.ExpCounts(products=21, reductions=2, mods=1)
    # a 4-bit window above 32 bits: one squaring per bit, 7 more table entries, about bits/5 multiplications
    c = mpi_cyclone.exp_mod(5, number("e", 1024), p)[1]
    assert c.reductions == 2 and c.mods == 1
    assert 1024 + 2 + 7 + 150 < c.products < 1024 + 2 + 7 + 260
    # a base not below p is reduced by mpiMod first
    assert mpi_cyclone.exp_mod(p + 5, 65537, p)[1].mods == 2


def test_exp_mod_rejects_an_even_modulus_and_a_zero_exponent():
    with pytest.raises(ValueError, match="odd modulus"):
        mpi_cyclone.exp_mod(3, 5, 1 << 64)
    with pytest.raises(ValueError, match="positive exponent"):
        mpi_cyclone.exp_mod(3, 0, 101)


def test_library_exponent_has_exactly_its_bits_and_is_fixed():
    for bits in (160, 224, 1024, 2048):
        assert library_exponent(bits, "x").bit_length() == bits
        assert library_exponent(bits, "x") == library_exponent(bits, "x") != library_exponent(bits, "y")


def test_every_library_rule_names_operations_of_the_catalogue():
    operations = {op.name for op in family("bignum").operations}
    for rule in load_costs()["exponentiation"]["libraries"]:
        assert rule["mul"] in operations and rule["mod"] in operations


def work_of(f) -> dict[tuple[str, int], int]:
    found, why = recipes(f)
    assert len(found) == 1, why
    return found[0].as_work()


def test_rsa_verify_is_one_exponentiation_by_65537_with_one_bit_serial_reduction():
    rule = exp_library_rule(synthetic("RSA-2048", 2048, "verify"))
    work = work_of(synthetic("RSA-2048", 2048, "verify"))
    assert work[(rule["mod"], 256)] == 1
    assert work[(rule["mul"], 256)] == 21 + 2
    assert work[(CALL, 256)] == 24


def test_rsa_crt_sign_reduces_five_times_at_half_size():
    rule = exp_library_rule(synthetic("RSA-2048", 2048, "sign"))
    work = work_of(synthetic("RSA-2048", 2048, "sign"))
    # c mod p, c mod q, C^2 mod p, C^2 mod q, and mpiMulMod's reduction
    assert work[(rule["mod"], 128)] == 5
    products = sum(library_exp_counts(1024, library_exponent(1024, e)).products for e in ("dp", "dq"))
    assert work[(rule["mul"], 128)] == products + 4 + 2
    assert not any(size == 256 for _, size in work)


def test_no_crt_dh_and_dsa_exponent_lengths():
    rule = exp_library_rule(synthetic("DH-2048", 2048, "agree"))
    no_crt = work_of(synthetic("RSA-2048", 2048, "sign", config="RSA without CRT"))
    dh = work_of(synthetic("DH-2048", 2048, "agree"))
    # DH's private value has p's length (dh.c mpiRand over bits(p)): as many products as a full-length d
    assert abs(dh[(rule["mul"], 256)] - no_crt[(rule["mul"], 256)]) < 100
    sign = work_of(synthetic("DSA-2048", 2048, "sign"))
    verify = work_of(synthetic("DSA-2048", 2048, "verify"))
    assert 224 < sign[(rule["mul"], 256)] < 224 + 80
    assert verify[(rule["mod"], 256)] == 3 and verify[(rule["mul"], 256)] > 2 * 224


def test_other_libraries_keep_the_generic_recipes():
    f = synthetic("RSA-2048", 2048, "verify", library="wolfSSL")
    assert exp_library_rule(f) is None
    assert all(op not in ("cy-mont-mul", "cy-mod") for r in recipes(f)[0] for op, _, _ in r.work)
