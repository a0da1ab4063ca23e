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
from refbench.sanity.builds import build_of, pubkey_path
from refbench.sanity.pubkey_cost import (
    CALL,
    exp_library_rule,
    library_exp_counts,
    library_exponent,
    library_variants,
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
        assert {rule["mul"], rule["red"], rule["mod"]} <= operations


def work_of(f) -> dict[tuple[str, int], int]:
    found, why = recipes(f)
    assert len(found) == 1, why
    return found[0].as_work()


def test_rsa_verify_is_one_exponentiation_by_65537_with_one_bit_serial_reduction():
    rule = exp_library_rule(synthetic("RSA-2048", 2048, "verify"))
    work = work_of(synthetic("RSA-2048", 2048, "verify"))
    assert work[(rule["mod"], 256)] == 1 and work[(rule["red"], 256)] == 2
    assert work[(rule["mul"], 256)] == 21
    assert work[(CALL, 256)] == 24


def test_rsa_crt_decrypt_reduces_five_times_at_half_size():
    rule = exp_library_rule(synthetic("RSA-2048", 2048, "decrypt"))
    work = work_of(synthetic("RSA-2048", 2048, "decrypt"))
    # c mod p, c mod q, C^2 mod p, C^2 mod q, and mpiMulMod's reduction
    assert work[(rule["mod"], 128)] == 5
    products = sum(library_exp_counts(1024, library_exponent(1024, e)).products for e in ("dp", "dq"))
    assert work[(rule["mul"], 128)] == products + 2 and work[(rule["red"], 128)] == 4
    assert not any(size == 256 for _, size in work)


def test_rsa_crt_sign_is_checked_by_a_verification_with_pkcs1_v15_only():
    f = synthetic("RSA-2048", 2048, "sign")
    rule = exp_library_rule(f)
    found, _ = recipes(f)
    names = [r.name for r in found]
    assert len(found) == 2 and "PKCS #1 v1.5 check" in names[0] and "PSS: no check" in names[1]
    checked, plain = (r.as_work() for r in found)
    decrypt = work_of(synthetic("RSA-2048", 2048, "decrypt"))
    assert plain == decrypt
    assert checked[(rule["mod"], 256)] == 1 and checked[(rule["mul"], 256)] == 21 and checked[(rule["red"], 256)] == 2
    assert checked[(rule["mod"], 128)] == plain[(rule["mod"], 128)]


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


@pytest.mark.parametrize("bits", [1024, 2048])
def test_dh_keygen_and_agree_are_one_full_length_exponentiation_with_no_subgroup_check(bits):
    # dh.c (2.5.0): keygen g^x and agree y^x both by mpiExpModRegular over a private value of p's length;
    # dhCheckPublicKey compares only (1 < y < p - 1): no y^q mod p, so no second exponentiation
    rule = exp_library_rule(synthetic(f"DH-{bits}", bits, "agree"))
    keygen = work_of(synthetic(f"DH-{bits}", bits, "keygen"))
    agree = work_of(synthetic(f"DH-{bits}", bits, "agree"))
    assert keygen == agree
    size = bits // 8
    counts = library_exp_counts(bits, library_exponent(bits, "x"))
    assert agree[(rule["mul"], size)] == counts.products and agree[(rule["mod"], size)] == 1
    assert agree[(rule["red"], size)] == 2
    # one squaring per exponent bit, the 4-bit window's table and about one product per 5 bits
    assert bits + 7 + bits // 6 < counts.products < bits + 9 + bits // 4


@pytest.mark.parametrize("operation", ["sign", "verify"])
def test_dsa_prices_its_work_mod_q_at_q_length(operation):
    exp = load_costs()["exponentiation"]
    for p_bits, q_bits in exp["dsa_n_bits"].items():
        p_bits = int(p_bits)
        f = synthetic(f"DSA-{p_bits}", p_bits, operation)
        rule = exp_library_rule(f)
        work = work_of(f)
        q, half = q_bits // 8, p_bits // 16
        # mpiInvMod and two mpiMod of q-length products, two mpiMul, one mpiMod of a p-length number by q
        assert work[(rule["mod"], q)] == 3 and work[(rule["mul"], q)] == 2 and work[(rule["mod"], half)] == 1
        # that last one's 32 (k_p - k_q) + 1 bit-serial iterations: 16 k_p + 1 at half p, the rest at k_p / 2 - k_q
        rest = half - q
        assert work[(rule["mod"], rest)] == 1
        assert 8 * half + 8 * rest == p_bits - q_bits
        assert (rule["red"], q) not in work
        # the exponentiations stay at p's length, each kernel call paying the caller's side once
        calls = sum(n for (op, _), n in work.items() if op != CALL)
        assert work[(CALL, p_bits // 8)] == calls
        assert "the work mod q" in recipes(f)[0][0].name


def test_dsa_verify_exponentiates_twice_separately():
    rule = exp_library_rule(synthetic("DSA-1024", 1024, "verify"))
    sign = work_of(synthetic("DSA-1024", 1024, "sign"))
    verify = work_of(synthetic("DSA-1024", 1024, "verify"))
    u1, u2 = (library_exp_counts(1024, library_exponent(160, e)) for e in ("u1", "u2"))
    # g^u1 and y^u2 by two mpiExpModFast (each its own C^2 mod p), then one mpiMulMod mod p
    assert verify[(rule["mul"], 128)] == u1.products + u2.products + 1
    assert verify[(rule["mod"], 128)] == u1.mods + u2.mods + 1 and verify[(rule["red"], 128)] == 4
    assert sign[(rule["mod"], 128)] == 1


def test_other_libraries_keep_the_generic_recipes():
    f = synthetic("RSA-2048", 2048, "verify", library="wolfSSL")
    assert exp_library_rule(f) is None
    assert all(op not in ("cy-mont-mul", "cy-mod") for r in recipes(f)[0] for op, _, _ in r.work)


# ------------------------------------------------------------------------------------------
# ECC: ecMulRegular's co-Z Montgomery ladder (refbench/ref/ec_cyclone.py)


@pytest.mark.parametrize("curve", ["P256", "P384", "P521", "BRAINPOOLP256R1", "SM2P256V1"])
def test_co_z_ladder_equals_the_reference_scalar_multiplication(curve):
    from refbench.ref import curves, ec_cyclone, weierstrass

    c = getattr(curves, curve)
    scalars = [1, 2, 3, 7, c.n // 3] + [number(f"d{i}", 512) % c.n for i in range(3)]
    for d in scalars:
        assert ec_cyclone.mul_regular(c, d, c.G) == weierstrass.scalar_mult(c, d, c.G)
    Q = weierstrass.scalar_mult(c, 5, c.G)
    assert ec_cyclone.mul_regular(c, scalars[-1], Q) == weierstrass.scalar_mult(c, scalars[-1], Q)
    with pytest.raises(ValueError, match="0 < d < n"):
        ec_cyclone.mul_regular(c, 0, c.G)


def test_co_z_ladder_costs_the_same_for_every_scalar_and_11_m_5_s_per_bit():
    from refbench.ref import curves, ec_cyclone, opcount

    c = curves.P256
    seen = set()
    for d in (1, c.n // 3, number("x", 256) % c.n):
        with opcount.counting() as n:
            ec_cyclone.mul_regular(c, d, c.G)
        seen.add((n.mul, n.sqr, n.inv, n.cswap))
    assert len(seen) == 1
    mul, sqr, inv, cswap = seen.pop()
    bits = c.n.bit_length() - 1
    # per bit ZADDC (6 M, 3 S) + ZADDU (5 M, 2 S); DBLU 1 M 5 S; ecAffinify 3 M 1 S and one inversion
    assert (mul, sqr, inv) == (11 * bits + 1 + 3, 5 * bits + 5 + 1, 1)
    assert cswap == 9 * bits


def test_cyclone_ecdsa_sign_and_ecdh_use_the_ladder_and_verify_does_not():
    for algorithm, curve, operation in (("ECDSA-P256", "P-256", "sign"), ("ECDH-P384", "P-384", "agree"),
                                        ("ECDH-brainpoolP256r1", "brainpoolP256r1", "keygen")):
        f = dataclasses.replace(TEMPLATE, algorithm=algorithm, curve=curve, operation=operation,
                                library="CycloneCRYPTO", math=None, asm=None, key_bits=None)
        found, why = recipes(f)
        assert found and all("co-Z Montgomery ladder" in r.name for r in found), why
        wolf = dataclasses.replace(f, library="wolfSSL")
        assert not any("co-Z" in r.name for r in recipes(wolf)[0])
    verify = dataclasses.replace(TEMPLATE, algorithm="ECDSA-P256", curve="P-256", operation="verify",
                                 library="CycloneCRYPTO", math=None, asm=None, key_bits=None)
    found = recipes(verify)[0]
    assert found and all(r.name.endswith("twin multiplication (ecTwinMul)") for r in found)
    assert not any("ecTwinMul" in r.name for r in recipes(dataclasses.replace(verify, library="wolfSSL"))[0])


@pytest.mark.parametrize("curve", ["P256", "P384", "BRAINPOOLP256R1"])
def test_twin_multiplication_equals_the_sum_of_two_reference_multiplications(curve):
    from refbench.ref import curves, ec_cyclone, weierstrass

    c = getattr(curves, curve)
    Q = weierstrass.scalar_mult(c, 12345, c.G)
    for i in range(4):
        u1, u2 = number(f"u1/{i}", 512) % c.n, number(f"u2/{i}", 512) % c.n >> (8 * i)  # u2 shorter and shorter
        want = weierstrass.affine_add(c, weierstrass.scalar_mult(c, u1, c.G), weierstrass.scalar_mult(c, u2, Q))
        assert ec_cyclone.twin_mul(c, u1, c.G, u2, Q) == want
    assert ec_cyclone.twin_mul(c, 0, c.G, 5, Q) == weierstrass.scalar_mult(c, 5, Q)


def test_twin_multiplication_doubles_once_per_bit_and_adds_on_a_minority_of_bits():
    from refbench.ref import curves, opcount, weierstrass
    from refbench.sanity.pubkey_cost import twin_verify_counts

    c = curves.P256
    with opcount.counting() as one:
        weierstrass.jacobian_double(c, (c.gx, c.gy, 1))
    counts = twin_verify_counts("P-256")
    doubles = c.n.bit_length()
    assert counts.sqr > doubles * one.sqr  # every bit doubles
    additions = (counts.mul - doubles * one.mul) / 12  # a full Jacobian addition: 12 multiplications
    assert 0.3 * doubles < additions < 0.6 * doubles


def test_the_any_code_floor_of_each_cyclone_operation_is_that_of_the_result_it_computes():
    from refbench.sanity.pubkey_floor import call_floor

    operations = {op.name for op in family("bignum").operations}
    for op, same, size in (("cy-mont-mul", "mont-mul", 256), ("cy-p384-sqr", "p384-sqr", 48),
                           ("cy-bp-mul", "mont-mul", 32), ("cy-ec-add", "mont-add", 68), ("cy-mod", "p256-mul", 128)):
        assert op in operations and call_floor(op, size) == call_floor(same, size)
    for op in sorted(o for o in operations if o.startswith("cy-")):
        products, words = call_floor(op, 64)
        assert words > 0 and products >= 0


@pytest.mark.parametrize("algorithm, bits", [("DH-2048", 2048), ("RSA-4096", 4096), ("DSA-2048", 2048)])
def test_the_assembly_core_is_a_candidate_and_the_c_the_prediction(algorithm, bits):
    # MPI_ASM_SUPPORT is not stated by the pages: bignum/cy_asm is among the RSA/DH/DSA candidates
    # (pubkey_costs.toml [[libraries]]), and the build's prediction keeps the demos' C (builds.toml variants)
    f = synthetic(algorithm, bits, "sign" if algorithm.startswith(("RSA", "DSA")) else "agree")
    variants, why = library_variants(f)
    assert "cy_asm" in variants and "c32" in variants and "MPI_ASM_SUPPORT" in why
    assert family("bignum").variant("cy_asm").supports("m33") and not family("bignum").variant("cy_asm").supports("m0plus")
    path = pubkey_path(build_of(f), tuple(r.name for r in recipes(f)[0]), variants, "")
    assert "cy_asm" not in path.variants and "c32" in path.variants and "MPI_ASM_SUPPORT" in path.source


@pytest.mark.parametrize("algorithm, curve", [("ECDSA-P256", "P-256"), ("X25519", "Curve25519")])
def test_the_assembly_core_is_no_candidate_for_elliptic_curves(algorithm, curve):
    # from 2.5.0 the NIST curves' fields are ecc/ec_misc.c's own code, not mpiMulAccCore (builds.toml [[pubkey]])
    f = dataclasses.replace(synthetic(algorithm, None, "sign"), curve=curve)
    assert "cy_asm" not in library_variants(f)[0]
