"""Library recipes of the public-key composition: RSA without CRT, the TFM_TIMING_RESISTANT ladder,
CURVED25519_SMALL's table-less Ed25519 (refbench/sanity/pubkey_cost.py, pubkey_costs.toml)."""

from __future__ import annotations

import dataclasses

from refbench.published.model import load_figures
from refbench.sanity.pubkey_cost import (
    base_scalar_counts,
    edwards_small_counts,
    exp_work,
    field_work,
    is_no_crt,
    ladder_rule,
    ladder_work,
    recipes,
    reference_counts,
    small_build,
)

FIGURES = {f.id: f for f in load_figures()}


def _rsa(**changes):
    base = next(f for f in FIGURES.values() if f.algorithm.startswith("RSA") and f.operation in ("private", "sign"))
    defaults = dict(algorithm="RSA-2048", key_bits=2048, operation="private", library="SomeLib", math=None,
                    config="", variant=None, label="RSA 2048 private", notes=None)
    return dataclasses.replace(base, **{**defaults, **changes})


def _works(f):
    found, why = recipes(f)
    assert found, why
    return {r.name: r.as_work() for r in found}


def test_rsa_without_crt_is_one_full_size_exponentiation():
    plain, no_crt = _rsa(), _rsa(config="No CRT / Fast math / Low mod. exp.")
    assert not is_no_crt(plain) and is_no_crt(no_crt) and is_no_crt(_rsa(notes="RSA signature without CRT"))
    assert not is_no_crt(_rsa(config="CRT / Fast math"))
    crt = _works(plain)
    full = _works(no_crt)
    assert all(name.startswith("CRT") for name in crt) and all(name.startswith("no CRT") for name in full)
    assert full["no CRT, one 2048-bit Montgomery exponentiation, 4-bit fixed window"] == exp_work(2048, 2048, 4)
    # every operand is 256 bytes, none 128 (the half size of CRT)
    assert {size for w in full.values() for _, size in w} == {256}
    assert {size for w in crt.values() for _, size in w} == {128}


def test_ladder_counts_one_mul_and_one_sqr_per_bit_of_whole_digits():
    # and the caller's side of each kernel call ([pricing] call)
    assert ladder_work(2048, 224, 32) == {("mont-mul", 256): 226, ("mont-sqr", 256): 224, ("call", 256): 450}
    assert ladder_work(1024, 1000, 32, times=2) == {("mont-mul", 128): 2 * 1026, ("mont-sqr", 128): 2 * 1024,
                                                    ("call", 128): 2 * 1026 + 2 * 1024}


def test_fastmath_private_operations_use_the_timing_resistant_ladder_only():
    f = _rsa(library="wolfSSL", math="fastmath (tfm.c)")
    assert ladder_rule(f)["option"] == "TFM_TIMING_RESISTANT" and ladder_rule(_rsa()) is None
    works = _works(f)
    assert list(works) == ["CRT, two 1024-bit Montgomery ladders (TFM_TIMING_RESISTANT)"]
    w = works["CRT, two 1024-bit Montgomery ladders (TFM_TIMING_RESISTANT)"]
    assert w == {("mont-mul", 128): 2 * 1026 + 2, ("mont-sqr", 128): 2 * 1024,
                 ("call", 128): 2 * 1026 + 2 + 2 * 1024}  # the caller's side of each call ([pricing] call)
    no_crt = _works(dataclasses.replace(f, config="no CRT"))
    assert list(no_crt) == ["no CRT, one 2048-bit Montgomery ladder (TFM_TIMING_RESISTANT)"]
    # the public operation (e = 65537) is not a private exponentiation: unchanged
    public = _works(dataclasses.replace(f, operation="public"))
    assert list(public) == ["e = 65537, binary exponentiation"]
    # other math options of the same library keep the windows
    sp = _works(dataclasses.replace(f, math="SP math, C 32-bit"))
    assert all("window" in name for name in sp)


def test_fastmath_dh_keeps_the_windows_beside_the_ladder():
    base = next(f for f in FIGURES.values() if f.algorithm.startswith("DH"))
    f = dataclasses.replace(base, algorithm="DH-2048", key_bits=2048, operation="agree", library="wolfSSL",
                            math="fastmath (tfm.c)")
    names = list(_works(f))
    assert any("ladder" in n for n in names) and any("window" in n for n in names)


def _ed(operation, notes):
    base = next(f for f in FIGURES.values() if f.algorithm.startswith("Ed25519"))
    return dataclasses.replace(base, operation=operation, library="wolfSSL", notes=notes, config="section")


def test_curved25519_small_base_point_has_no_table():
    small, full = _ed("keygen", "#define CURVED25519_SMALL"), _ed("keygen", None)
    assert small_build(small, "Edwards25519")["option"] == "CURVED25519_SMALL"
    assert small_build(full, "Edwards25519") is None
    assert small_build(_ed("keygen", "#define CURVED25519_SMALLER"), "Edwards25519") is None
    smult = edwards_small_counts("Edwards25519", 256, 4)
    assert smult.cswap == 2 * 256 and smult.mul > 256 * 8
    (name, work), = _works(small).items()
    assert "CURVED25519_SMALL" in name
    expected = reference_counts("Edwards25519", "keygen") - base_scalar_counts("Edwards25519") + smult
    assert work == field_work("Edwards25519", "special", expected) and work[("25519-cswap", 32)] == 2 * 256
    assert not any("comb" in n for n in _works(small)) and any("comb" in n for n in _works(full))


def test_curved25519_small_sign_and_verify():
    sign = _works(_ed("sign", "CURVED25519_SMALL"))
    assert len(sign) == 2 and all("CURVED25519_SMALL" in n for n in sign)
    given = next(w for n, w in sign.items() if n.endswith("public key given"))
    both = next(w for n, w in sign.items() if not n.endswith("public key given"))
    assert both[("25519-cswap", 32)] == 2 * given[("25519-cswap", 32)] == 2 * 512
    (name, verify), = _works(_ed("verify", "CURVED25519_SMALL")).items()
    assert "two table-less" in name and verify[("25519-cswap", 32)] == 2 * 512
    assert verify[("25519-mul", 32)] > _works(_ed("verify", None))["special-form reduction, interleaved 5-bit wNAF double-scalar"][("25519-mul", 32)]


def test_cyclone_curve25519_and_curve448_figures_use_the_library_limb_variant_only():
    from refbench.sanity.pubkey_cost import library_variants

    base = next(f for f in FIGURES.values() if f.algorithm.startswith("X25519"))
    for algorithm in ("X25519", "Ed25519", "X448", "Ed448"):
        f = dataclasses.replace(base, library="CycloneCRYPTO", algorithm=algorithm, math=None, asm=None)
        assert library_variants(f)[0] == ("c29",)
    other = dataclasses.replace(base, library="CycloneCRYPTO", algorithm="ECDSA-P256", math=None, asm=None)
    assert library_variants(other)[0] == ("c32", "m0")
    assert library_variants(dataclasses.replace(base, library="wolfSSL", math=None, asm=None))[0] != ("c29",)


def test_a_rule_with_bad_algorithms_names_file_and_rule(tmp_path):
    import pytest

    from refbench.sanity.pubkey_cost import COSTS_PATH, load_costs

    bad = tmp_path / "costs.toml"
    bad.write_text(COSTS_PATH.read_text(encoding="utf-8").replace('algorithms = ["X25519", "Ed25519", "X448", "Ed448"]',
                                                                 'algorithms = "X25519"'), encoding="utf-8")
    with pytest.raises(ValueError, match=r"costs.toml:\d+: field 'libraries\[\d+\]\.algorithms': expected a list"):
        load_costs(bad)
