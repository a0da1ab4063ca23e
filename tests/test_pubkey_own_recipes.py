"""A library's own curve recipes (pubkey_costs.toml [[scalar_mult.own_edwards]], [[scalar_mult.library_methods]] for SM2,
[fields] library_kinds): for its figures they replace every generic candidate; other libraries keep theirs.
Figures here are synthetic copies of stored ones with the library changed (no verdict is asserted)."""

from __future__ import annotations

import dataclasses

import pytest

from refbench.published.model import load_figures
from refbench.sanity.pubkey_cost import (
    COSTS_PATH,
    Counts,
    co_z_ladder_counts,
    double_scalar_split,
    field_work,
    kind_name,
    kinds_for,
    load_costs,
    own_edwards,
    own_edwards_counts,
    recipes,
    reference_counts,
)

FIGURES = {f.id: f for f in load_figures()}


def _figure(algorithm: str, operation: str, library: str):
    family = algorithm.split("-")[0]
    base = next(f for f in FIGURES.values() if f.algorithm.startswith(family) and not f.is_footprint)
    return dataclasses.replace(base, algorithm=algorithm, operation=operation, library=library, math=None, asm=None,
                               notes=None, config="section", curve="SM2" if algorithm.endswith("SM2") else None)


def _works(f):
    found, why = recipes(f)
    assert found, why
    return {r.name: r.as_work() for r in found}


def _rule(table: str, library: str, curve: str) -> dict:
    return next(r for r in load_costs()["scalar_mult"][table]
                if r["library"] == library and curve in r.get("curves", [r.get("curve")]))


@pytest.mark.parametrize("algorithm, curve", [("Ed25519", "Edwards25519"), ("Ed448", "Edwards448")])
def test_an_own_edwards_library_gets_its_methods_only(algorithm, curve):
    rule = _rule("own_edwards", "CycloneCRYPTO", curve)
    size = load_costs()["fields"][curve]["bytes"]
    for operation in ("keygen", "sign", "verify"):
        own = _works(_figure(algorithm, operation, "CycloneCRYPTO"))
        generic = _works(_figure(algorithm, operation, "SomeLib"))
        assert own_edwards(_figure(algorithm, operation, "CycloneCRYPTO"), curve) == rule
        assert own_edwards(_figure(algorithm, operation, "SomeLib"), curve) is None
        assert not any("comb" in n or "wNAF" in n for n in own) and any("wNAF" in n or "comb" in n for n in generic)
        expected = own_edwards_counts(curve, operation, rule["bits"], tuple(rule["decode"]), tuple(rule["encode"]),
                                      rule["negations"])
        assert [n.split(", ", 1)[1] for n in own] == [name for name, _, _ in expected]
        for (name, work), (_, counts, mults) in zip(own.items(), expected, strict=True):
            selects = mults * rule["bits"] * rule["selects_per_bit"]
            assert work.get(("select", size), 0) == selects, name
            priced = field_work(curve, "special", counts, "CycloneCRYPTO")
            assert work[("call", size)] == priced[("call", size)] + selects, name
            assert {k: v for k, v in work.items() if k[0] not in ("select", "call")} == \
                {k: v for k, v in priced.items() if k[0] != "call"}, name


def test_own_edwards_base_multiplication_is_bits_doublings_and_additions_and_one_encoding():
    rule = _rule("own_edwards", "CycloneCRYPTO", "Edwards25519")
    (_, keygen, mults), = own_edwards_counts("Edwards25519", "keygen", rule["bits"], tuple(rule["decode"]),
                                             tuple(rule["encode"]), rule["negations"])
    # the reference's extended formulas: 4M + 4S per doubling, 9M per addition (2d as a product)
    assert mults == 1 and keygen.inv == 1
    assert (keygen.mul, keygen.sqr) == (rule["bits"] * (4 + 9) + rule["encode"][0], rule["bits"] * 4 + rule["encode"][1])
    given, computed = own_edwards_counts("Edwards25519", "sign", rule["bits"], tuple(rule["decode"]),
                                         tuple(rule["encode"]), rule["negations"])
    assert computed[1] == given[1].times(2) and (given[2], computed[2]) == (1, 2)


def test_own_edwards_verify_is_one_decode_the_twin_multiplication_and_one_encoding():
    rule = _rule("own_edwards", "CycloneCRYPTO", "Edwards25519")
    (_, verify, _), = own_edwards_counts("Edwards25519", "verify", rule["bits"], tuple(rule["decode"]),
                                         tuple(rule["encode"]), rule["negations"])
    rest, ref_bits = double_scalar_split("Edwards25519")
    twin = reference_counts("Edwards25519", "verify") - rest
    decode = Counts(mul=rule["decode"][0], sqr=rule["decode"][1], mul_const=0, inv=0, add=rule["decode"][2],
                    sub=rule["decode"][3] + rule["negations"])
    dbl = Counts(4, 4, 0, 0, add=4, sub=2)
    assert verify == decode + twin + dbl.times(rule["bits"] - ref_bits) + Counts(rule["encode"][0], 0, 0, 1)
    # the reference decodes A and R (two square roots, each with an inversion); the library one, without one
    assert verify.sqr < reference_counts("Edwards25519", "verify").sqr
    with pytest.raises(ValueError, match="accepted: keygen, sign, verify"):
        own_edwards_counts("Edwards25519", "agree", 255, (0, 0, 0, 0), (0, 0), 0)


def test_library_kinds_give_sm2s_special_form_to_its_library_only():
    assert kinds_for("SM2", "CycloneCRYPTO 2.5.0") == tuple(load_costs()["fields"]["SM2"]["library_kinds"]["CycloneCRYPTO"])
    assert "cyclone" not in kinds_for("SM2", "wolfSSL") and "montgomery" in kinds_for("SM2", "wolfSSL")
    only = load_costs()["fields"]["P-256"]["math_kinds"]  # no library_kinds; kinds of one build's shape apart
    assert kinds_for("P-256", "CycloneCRYPTO") == tuple(k for k in load_costs()["fields"]["P-256"]["kinds"] if k not in only)


def test_math_kinds_offer_a_build_shaped_kind_to_that_build_only():
    """[fields.P-256] math_kinds: montgomery_mp1_loops (wolfSSL SP Thumb small's P-256) is a candidate for a
    figure whose math option names that build, and for no other."""
    small = "SP math, Thumb assembly (WOLFSSL_SP_SMALL)"
    assert "montgomery_mp1_loops" in kinds_for("P-256", "wolfSSL", small)
    assert "montgomery_mp1_loops" not in kinds_for("P-256", "wolfSSL", "SP math, Thumb assembly (without WOLFSSL_SP_SMALL)")
    assert "montgomery_mp1_loops" not in kinds_for("P-256", "wolfSSL")
    own = _works(_figure("SM2-DSA", "sign", "CycloneCRYPTO"))
    other = _works(_figure("SM2-DSA", "sign", "wolfSSL"))
    order_ops = tuple(load_costs()["pricing"]["library_order_inversions"]["CycloneCRYPTO"]["ops"])  # (1 + d)^-1 mod n
    assert all(n.startswith(kind_name("cyclone")) for n in own) and all(op.startswith(("sm2-", "select", "call", *order_ops))
                                                                    for w in own.values() for op, _ in w)
    assert not any(n.startswith(kind_name("cyclone")) for n in other)


@pytest.mark.parametrize("operation", ["keygen", "sign", "verify", "agree"])
def test_cyclone_sm2_runs_the_librarys_ladder_and_twin_multiplication(operation):
    # SM2 in CycloneCRYPTO is ec.c's code, as its ECDSA/ECDH are ([[scalar_mult.library_methods]])
    algorithm = "ECDH-SM2" if operation in ("keygen", "agree") else "SM2-DSA"
    own = _works(_figure(algorithm, operation, "CycloneCRYPTO"))
    other = _works(_figure(algorithm, operation, "wolfSSL"))
    method = "twin multiplication (ecTwinMul)" if operation == "verify" else "co-Z Montgomery ladder (ecMulRegular)"
    assert all(method in n for n in own) and not any(method in n for n in other)
    assert not any("comb" in n or "window" in n or "wNAF" in n for n in own)


def test_cyclone_sm2_sign_with_the_public_key_computed_runs_one_more_ladder():
    own = {n.split(", ", 1)[1]: w for n, w in _works(_figure("SM2-DSA", "sign", "CycloneCRYPTO")).items()}
    given = own["co-Z Montgomery ladder (ecMulRegular), public key given"]
    computed = own["co-Z Montgomery ladder (ecMulRegular)"]
    ladder = field_work("SM2", "cyclone", co_z_ladder_counts("SM2"), "CycloneCRYPTO")
    assert {k: computed[k] - given.get(k, 0) for k in computed if computed[k] != given.get(k, 0)} == \
        {k: v for k, v in ladder.items() if v}


@pytest.mark.parametrize("table, key, bad, message", [
    ("own_edwards", "decode", "decode = [24, 257, 1, 2]", r"own_edwards\[0\].decode': expected 4 counts"),
])
def test_malformed_own_rules_are_named(tmp_path, table, key, bad, message):
    text = COSTS_PATH.read_text(encoding="utf-8")
    assert bad in text
    path = tmp_path / "pubkey_costs.toml"
    path.write_text(text.replace(bad, f"{key} = [1, 2]", 1), encoding="utf-8")
    with pytest.raises(ValueError, match=message):
        load_costs(path)


def test_a_library_kind_that_the_field_lacks_is_named(tmp_path):
    text = COSTS_PATH.read_text(encoding="utf-8").replace('library_kinds = { CycloneCRYPTO = ["cyclone"] }',
                                                          'library_kinds = { CycloneCRYPTO = ["solinas"] }', 1)
    path = tmp_path / "pubkey_costs.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ValueError, match=r"fields.SM2.library_kinds.CycloneCRYPTO': expected a list of this field's kinds"):
        load_costs(path)
