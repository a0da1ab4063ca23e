"""Library recipes of the public-key composition: RSA without CRT, the TFM_TIMING_RESISTANT ladder,
CURVED25519_SMALL's table-less Ed25519, wolfSSL's ref10 Ed25519 (refbench/sanity/pubkey_cost.py,
pubkey_costs.toml)."""

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
    ref10_counts,
    ref10_rule,
    reference_counts,
    sliding_digits,
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
    assert not any("comb" in n for n in _works(small)) and not any("ref10" in n for n in _works(small))
    assert all("ref10" in n for n in _works(full))  # wolfSSL with its tables: ref10's table, no comb
    other = dataclasses.replace(full, library="SomeLib")
    assert any("comb" in n for n in _works(other)) and not any("ref10" in n for n in _works(other))


def test_curved25519_small_sign_and_verify():
    sign = _works(_ed("sign", "CURVED25519_SMALL"))
    assert len(sign) == 2 and all("CURVED25519_SMALL" in n for n in sign)
    given = next(w for n, w in sign.items() if n.endswith("public key given"))
    both = next(w for n, w in sign.items() if not n.endswith("public key given"))
    assert both[("25519-cswap", 32)] == 2 * given[("25519-cswap", 32)] == 2 * 512
    (name, verify), = _works(_ed("verify", "CURVED25519_SMALL")).items()
    assert "two table-less" in name and verify[("25519-cswap", 32)] == 2 * 512
    (full_name, full), = _works(_ed("verify", None)).items()
    assert "ref10" in full_name and verify[("25519-mul", 32)] > full[("25519-mul", 32)]


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


def test_sliding_digits_are_odd_bounded_and_sum_back_to_the_scalar():
    for scalar in (1, 0xFFFF, 2**252 + 27742317777372353535851937790883648493 - 1, 0x1F3 << 200, 0x0123456789ABCDEF * 7**40):
        digits = sliding_digits(scalar, 15)
        assert sum(d << i for i, d in enumerate(digits)) == scalar
        assert all(d == 0 or (d % 2 == 1 and -15 <= d <= 15) for d in digits)
    assert sliding_digits(0xFFFF, 15)[:5] == [-1, 0, 0, 0, 0]  # 15 ones: a subtraction and a carry
    assert sliding_digits(0b1011, 15)[:4] == [11, 0, 0, 0]
    assert sliding_digits(0, 15) == [0] * 256
    import pytest

    with pytest.raises(ValueError, match="Invalid scalar for a 256-bit sliding-window recoding"):
        sliding_digits(1 << 256, 15)


def test_ref10_keygen_is_63_mixed_additions_64_row_reads_and_one_encoding():
    f = _ed("keygen", None)
    rule = ref10_rule(f, "Edwards25519")
    assert rule is not None and ref10_rule(_ed("keygen", "CURVED25519_SMALL"), "Edwards25519") is None
    madd, to_p3, encode = rule["group_ops"]["madd"], rule["group_ops"]["p1p1_to_p3"], rule["encode"]
    counts, reads = ref10_counts(rule, "keygen", asm_base=True)
    assert counts.mul == 63 * (madd[0] + to_p3[0]) + encode[0] and counts.sqr == 0 and counts.inv == 1
    entries, entry_bytes = rule["select"]
    # the assembly read (fe_cmov_table) is one call per row, its negation inside: no subtraction per read
    assert reads == {("ref10-cmov-table", entry_bytes): 64, ("call", 32): 64}
    c_path, c_reads = ref10_counts(rule, "keygen", asm_base=False)  # the C path doubles 4 times between its passes
    assert c_path.sqr == 4 * rule["group_ops"]["p2_dbl"][1] and c_path.mul > counts.mul
    assert c_reads == {("select", entry_bytes): 64 * entries, ("call", 32): 64 * entries}  # a select per entry
    assert c_path.sub - counts.sub == 64 + 4 * rule["group_ops"]["p2_dbl"][3]  # and a negation per read
    assert ref10_counts(rule, "sign", asm_base=True) == (counts, reads)  # sign: R only, the public key read
    (name, work), = _works(dataclasses.replace(f, asm="WOLFSSL_ARMASM (Thumb-2)")).items()
    assert "WOLFSSL_ARMASM" in name and work[("ref10-cmov-table", entry_bytes)] == 64 and ("select", entry_bytes) not in work
    (name, _), = _works(dataclasses.replace(f, asm=None)).items()
    assert "WOLFSSL_ARMASM" not in name


def test_ref10_verify_decodes_a_once_and_adds_per_nonzero_digit():
    rule = ref10_rule(_ed("verify", None), "Edwards25519")
    counts, reads = ref10_counts(rule, "verify", asm_base=True)
    assert reads == {} and counts.inv == 1  # R' encoded once, R never decoded
    ops = rule["group_ops"]
    # one doubling per digit position from the top non-zero digit of h or S (both below 2^253)
    doublings = (counts.sqr - rule["decode"][1] - ops["p2_dbl"][1]) // ops["p2_dbl"][1]
    assert 240 <= doublings <= 253
    # the additions: between bits / 7 and bits / 5 non-zero digits per scalar (slide's density 1/6)
    adds = (counts.mul - rule["decode"][0] - rule["encode"][0] - 8 * ops["p3_to_cached"][0] - ops["p1p1_to_p3"][0]
            - 7 * (ops["add"][0] + ops["p1p1_to_p3"][0]) - doublings * ops["p1p1_to_p2"][0])
    assert 2 * 253 // 7 * 7 <= adds <= 2 * 253 // 5 * 8
    reference = reference_counts("Edwards25519", "verify")
    assert counts.mul + counts.sqr < (reference.mul + reference.sqr) / 2


def test_a_malformed_ref10_rule_is_named(tmp_path):
    import pytest

    from refbench.sanity.pubkey_cost import COSTS_PATH, load_costs

    bad = tmp_path / "costs.toml"
    bad.write_text(COSTS_PATH.read_text(encoding="utf-8").replace("madd = [3, 0, 4, 3], ", ""), encoding="utf-8")
    with pytest.raises(ValueError, match=r"costs.toml:\d+: field 'scalar_mult.ref10\[0\].group_ops': missing madd"):
        load_costs(bad)
    bad.write_text(COSTS_PATH.read_text(encoding="utf-8").replace("decode = [19, 255, 1, 2]", "decode = [19, 255]"),
                   encoding="utf-8")
    with pytest.raises(ValueError, match=r"field 'scalar_mult.ref10\[0\].decode': expected \[mul, sqr, add, sub\]"):
        load_costs(bad)


def test_wolfssl_sp_ecdh_is_its_fixed_window_with_its_own_point_formulas():
    from refbench.sanity.pubkey_cost import sp_window_counts, sp_window_rule

    base = next(f for f in FIGURES.values() if f.algorithm.startswith("ECDH-P256"))
    f = dataclasses.replace(base, library="wolfSSL", math="SP math, Cortex-M assembly", version="5.6.6",
                            algorithm="ECDH-P256", curve="P-256", operation="agree")
    rule = sp_window_rule(f, "P-256", "agree")
    assert rule is not None and sp_window_rule(dataclasses.replace(f, version="4.4.1"), "P-256", "agree") is None
    assert sp_window_rule(dataclasses.replace(f, math="SP math, C 32-bit"), "P-256", "agree") is None
    assert sp_window_rule(f, "P-256", "sign") is None
    counts = sp_window_counts(rule, 256)
    # 7 + 63 x 4 doublings, 7 + 63 additions, one inversion
    dbl, add = rule["dbl"], rule["add"]
    assert counts.mul == 259 * dbl[0] + 70 * add[0] + rule["map"][0] and counts.inv == 1
    assert counts.sqr == 259 * dbl[1] + 70 * add[1] + rule["map"][1] and counts.cswap == 70 * rule["add_swaps"]
    reference = reference_counts("P-256", "agree")
    assert abs((counts.mul + counts.sqr) - (reference.mul + reference.sqr)) < 0.05 * (reference.mul + reference.sqr)
    assert counts.add + counts.sub < reference.add + reference.sub  # small multiples as one operation each
    names = [n for n in _works(f) if n.startswith("Montgomery with")]
    method = "4-bit fixed window, wolfSSL's point formulas, constant-time table reads (64 x 15 entries of 96 bytes)"
    assert names == [f"Montgomery with a reduction by word additions (mp = 1), {method}",
                     f"Montgomery with the product and a fused reduction by word additions (mp = 1), {method}"]


def test_a_malformed_sp_window_rule_is_named(tmp_path):
    import pytest

    from refbench.sanity.pubkey_cost import COSTS_PATH, load_costs

    bad = tmp_path / "costs.toml"
    bad.write_text(COSTS_PATH.read_text(encoding="utf-8").replace("dbl = [4, 4, 6, 5]", "dbl = [4, 4]"), encoding="utf-8")
    with pytest.raises(ValueError, match=r"costs.toml:\d+: field 'scalar_mult.sp_window\[0\].dbl': expected \[mul, sqr, add, sub\]"):
        load_costs(bad)
