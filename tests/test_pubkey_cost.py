"""The cost composition tables and counts (refbench/sanity/pubkey_cost.py, pubkey_costs.toml)."""

from __future__ import annotations

import dataclasses

import pytest

from refbench.published.model import load_figures
from refbench.ref import curves
from refbench.sanity.pubkey_cost import (
    COSTS_PATH,
    WHOLE_LADDERS,
    Recipe,
    compose,
    exp_work,
    family_of,
    fermat_counts,
    field_work,
    inversion_counts,
    library_variants,
    load_costs,
    order_inversion,
    predicted_variants,
    recipes,
    reference_counts,
)

FIGURES = {f.id: f for f in load_figures()}


def test_every_field_names_kernel_operations_of_the_catalogue():
    from refbench.kernels.catalog import family

    operations = {op.name for op in family("bignum").operations}
    for name, field in load_costs()["fields"].items():
        for kind, ops in field["kinds"].items():
            assert set(ops) <= operations, (name, kind)


def test_a_bad_table_names_file_table_and_field(tmp_path):
    text = COSTS_PATH.read_text(encoding="utf-8").replace("bytes = 32\nprime = \"2^256", "bytes = \"32\"\nprime = \"2^256", 1)
    bad = tmp_path / "pubkey_costs.toml"
    bad.write_text(text, encoding="utf-8")
    with pytest.raises(ValueError, match=r"pubkey_costs.toml:\d+: field 'fields.P-256.bytes': expected int, got '32'"):
        load_costs(bad)
    bad.write_text("[fields]\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"field 'pricing': missing table"):
        load_costs(bad)


def test_a_predicted_variant_must_be_one_of_the_rules_candidates(tmp_path):
    text = COSTS_PATH.read_text(encoding="utf-8")
    bad = tmp_path / "pubkey_costs.toml"
    bad.write_text(text.replace('predict = ["c29"]', 'predict = ["umaal"]', 1), encoding="utf-8")
    with pytest.raises(ValueError, match=r"field 'libraries\[\d+\].predict': expected a list of the rule's variants "
                       r"\(c29, c32\), got \['umaal'\]"):
        load_costs(bad)
    start = text.index('predict_why = ')
    bad.write_text(text[:start] + text[text.index("\n", start) + 1:], encoding="utf-8")
    with pytest.raises(ValueError, match=r"field 'libraries\[\d+\].predict_why': expected why"):
        load_costs(bad)


def test_cyclone_sm2_is_predicted_from_its_own_shape_with_the_fixed_length_form_a_candidate():
    # ECDH-SM2 and SM2-DSA, the pages' names; another curve's rule names no predicted variant
    base = next(f for f in load_figures() if f.library.startswith("CycloneCRYPTO") and f.algorithm == "SM2-DSA")
    for algorithm in ("SM2-DSA", "ECDH-SM2"):
        f = dataclasses.replace(base, algorithm=algorithm)
        assert set(predicted_variants(f)[0]) < set(library_variants(f)[0])
        assert "sm2FieldMod" in predicted_variants(f)[1]
    assert predicted_variants(dataclasses.replace(base, algorithm="ECDSA-P256", curve="P-256")) == ((), "")


def test_fermat_inversion_counts():
    assert fermat_counts(2**255 - 19) == (254, 252)  # p - 2 = 2^255 - 21: 250 ones, then 01011
    assert fermat_counts(13) == (3, 2)  # 13 - 2 = 0b1011: (bits - 1) S, (weight - 1) M


def test_an_inversion_chain_prices_its_field_and_binary_the_others():
    assert inversion_counts("Curve25519") == inversion_counts("Edwards25519") == (254, 11)  # ref10 fe_invert
    assert inversion_counts("P-256") == fermat_counts(curves.P256.p)


def test_a_malformed_inversion_chain_is_named(tmp_path):
    text = COSTS_PATH.read_text(encoding="utf-8").replace('"2^255 - 19" = [254, 11]', '"2^255 - 19" = [254]', 1)
    bad = tmp_path / "pubkey_costs.toml"
    bad.write_text(text, encoding="utf-8")
    with pytest.raises(ValueError, match=r"field 'pricing.inv_chains.2\^255 - 19': expected \[squarings, multiplications\]"):
        load_costs(bad)


def test_field_work_prices_every_counted_operation():
    counts = reference_counts("Curve25519", "agree")
    assert (counts.mul, counts.sqr, counts.mul_const, counts.inv) == (1276, 1020, 255, 1)  # RFC 7748 §5 ladder
    assert (counts.add, counts.sub, counts.cswap) == (4 * 255, 4 * 255, 2 * 256)  # per step 4 A, 4 B, 2 cswap; 2 at the end
    calls = (1276 + 11) + (1020 + 254) + 255 + 1020 + 1020  # every priced call but the swaps
    assert field_work("Curve25519", "special", counts) == {("25519-mul", 32): 1276 + 11, ("25519-sqr", 32): 1020 + 254,
                                                          ("25519-mul-a24", 32): 255, ("25519-add", 32): 1020,
                                                          ("25519-sub", 32): 1020, ("25519-cswap", 32): 512,
                                                          ("call", 32): calls}


def test_a_swap_without_its_own_operation_is_two_selects_and_their_calls():
    counts = reference_counts("Curve448", "agree")
    work = field_work("Curve448", "special", counts)
    assert work[("select", 56)] == 2 * counts.cswap
    assert work[("call", 56)] == sum(n for (op, _), n in work.items() if op != "call")


def test_field_work_prices_a_constant_without_its_own_kernel_as_a_product():
    counts = reference_counts("Edwards448", "verify")
    work = field_work("Edwards448", "special", counts)
    assert counts.mul_const > 0 and not any(op.endswith("-const") for op, _ in work)
    assert work[("448-mul", 56)] == counts.mul + counts.mul_const + counts.inv * fermat_counts(2**448 - 2**224 - 1)[1]


def test_field_work_prices_x448s_a24_with_its_own_kernel():
    counts = reference_counts("Curve448", "agree")
    work = field_work("Curve448", "special", counts)
    assert counts.mul_const == 448 and work[("448-mul-const", 56)] == 448
    assert work[("448-mul", 56)] == counts.mul + fermat_counts(2**448 - 2**224 - 1)[1]


def test_a_librarys_own_inversion_chain_replaces_the_default_for_its_figures_only():
    chains = load_costs()["pricing"]["library_inv_chains"]
    for library, own in chains.items():
        for prime, chain in own.items():
            curve = next(name for name, field in load_costs()["fields"].items() if field["prime"] == prime)
            assert inversion_counts(curve, f"{library} 2.5.0") == tuple(chain)
            assert inversion_counts(curve, "another library") == inversion_counts(curve)
    counts = reference_counts("Curve448", "agree")
    squarings, products = chains["CycloneCRYPTO"]["2^448 - 2^224 - 1"]
    work = field_work("Curve448", "special", counts, "CycloneCRYPTO")
    assert work[("448-mul", 56)] == counts.mul + products and work[("448-sqr", 56)] == counts.sqr + squarings


def test_a_malformed_library_inversion_chain_is_named(tmp_path):
    text = COSTS_PATH.read_text(encoding="utf-8").replace('"2^448 - 2^224 - 1" = [447, 15]', '"2^448 - 2^224 - 1" = [447]', 1)
    bad = tmp_path / "pubkey_costs.toml"
    bad.write_text(text, encoding="utf-8")
    with pytest.raises(ValueError, match=r"library_inv_chains.CycloneCRYPTO.2\^448 - 2\^224 - 1': expected \[squarings"):
        load_costs(bad)


def test_small_constant_multiples_count_as_their_additions():
    from refbench.ref import curves, opcount
    F = curves.P256.field
    for k, adds in ((2, 1), (3, 2), (4, 2), (8, 3)):
        with opcount.counting() as c:
            F.small(k, 12345)
        assert (c.add, c.sub, c.mul) == (adds, 0, 0), k


def test_compose_multiplies_and_names_what_is_missing():
    assert compose({("mont-mul", 32): 3, ("mont-sqr", 32): 2}, {("mont-mul", 32): 10, ("mont-sqr", 32): 7}) == 44
    with pytest.raises(ValueError, match="no measured cycles for mont-sqr 32 B"):
        compose({("mont-sqr", 32): 1}, {})


def test_exponentiation_work():
    assert exp_work(1024, 160, 4) == {("mont-mul", 128): 40 + 14 + 2, ("mont-sqr", 128): 160, ("call", 128): 56 + 160}


@pytest.mark.parametrize("math, asm, library, variants", [
    ("SP math, Cortex-M assembly", None, "wolfSSL", ("umaal", "umlal", "umaal_asm", "umaal_asm_ladder", "umull_asm",
                                                "umull_umaal_asm")),
    ("SP math, C 32-bit", None, "wolfSSL", ("c32",)),
    ("SP math, Thumb assembly (WOLFSSL_SP_SMALL)", None, "wolfSSL", ("m0",)),
    ("sp_int.c (SP math all)", "none (WOLFSSL_NO_ASM)", "wolfSSL", ("c32",)),
    ("fastmath (tfm.c)", None, "wolfSSL", ("c32", "umlal")),
    (None, None, "CycloneCRYPTO", ("c29",)),  # 000-0296 is an X25519 figure: CycloneCRYPTO's own 29-bit limbs
])
def test_library_variants_follow_the_section_options(math, asm, library, variants):
    f = dataclasses.replace(FIGURES["000-0296"], math=math, asm=asm, library=library)
    assert library_variants(f)[0] == variants


@pytest.mark.parametrize("operation", ["keygen", "agree"])
def test_an_x25519_ladder_recipe_is_one_whole_scalar_multiplication(operation):
    """keygen (X25519(k, 9)) and agree are each one RFC 7748 ladder: the recipe names the whole
    kernel operation once, and a variant computing it whole is priced by it alone."""
    f = dataclasses.replace(FIGURES["000-0296"], operation=operation, library="wolfSSL")
    found, _ = recipes(f)
    ladders = [r for r in found if r.name.endswith("constant-time ladder")]
    assert ladders and all(r.whole == ((*WHOLE_LADDERS["Curve25519"], 1),) for r in ladders)
    r = ladders[0]
    assert r.work_for(()) == r.as_work() and ("25519-mul", 32) in r.as_work()
    assert r.work_for(("x25519",)) == {("x25519", 32): 1}
    assert r.work_for(("p256-base-mult",)) is None  # whole elsewhere: no candidate for this recipe
    composed = Recipe("Montgomery mul/sqr, 4-bit fixed window", (("mont-mul", 32, 3),))
    assert composed.work_for(("x25519",)) is None and composed.work_for(()) == {("mont-mul", 32): 3}


def test_non_public_key_and_unknown_operations_say_why():
    aes = next(f for f in FIGURES.values() if f.algorithm.startswith("AES"))
    assert family_of(aes) is None and recipes(aes)[1].endswith("is not a public-key algorithm")
    odd = dataclasses.replace(FIGURES["000-0296"], operation="decrypt")
    found, why = recipes(odd)
    assert found == () and "Invalid public-key operation ('Curve25519', 'decrypt')" in why


def test_windowed_verify_counts_doublings_and_naf_additions_with_the_references_formulas():
    from refbench.sanity.pubkey_cost import double_scalar_split, windowed_double_scalar_counts

    rest, bits = double_scalar_split("P-256")
    assert bits == 256 and (rest.inv, rest.mul, rest.sqr) == (1, 3, 2)  # the affine result: 1 I + 3 M + 1 S (+ 1 S)
    # 257 doublings (3 M + 5 S), 2 x ceil(256 / 6) = 2 x 43 additions: 43 mixed (7 M + 4 S), 43 + 7 full (11 M + 5 S)
    w5 = windowed_double_scalar_counts("P-256", 5)
    assert (w5.mul, w5.sqr) == (rest.mul + 257 * 3 + 43 * 7 + 50 * 11, rest.sqr + 257 * 5 + 43 * 4 + 50 * 5)
    shamir = reference_counts("P-256", "verify")
    assert w5.mul < shamir.mul and windowed_double_scalar_counts("P-256", 4).mul > w5.mul
    ed_rest, ed_bits = double_scalar_split("Edwards25519")
    assert ed_bits == 252 and windowed_double_scalar_counts("Edwards25519", 5).mul < reference_counts("Edwards25519", "verify").mul


def test_inversions_modulo_the_group_order_are_counted_apart():
    assert [reference_counts("P-256", op).inv_order for op in ("keygen", "sign", "verify", "agree")] == [0, 1, 1, 0]
    assert reference_counts("P-256", "sign").inv == 2  # the affine result and k^-1 mod n


def test_an_order_kind_prices_the_order_inversions_with_its_own_arithmetic():
    counts = reference_counts("P-256", "sign")
    special = field_work("P-256", "special", counts)
    mp1 = field_work("P-256", "montgomery_mp1", counts)
    field_s, field_m = inversion_counts("P-256")
    order_s, order_m = fermat_counts(curves.P256.n)
    assert special[("p256-mul", 32)] == counts.mul + 2 * field_m
    assert mp1[("p256-mul", 32)] == counts.mul + field_m and mp1[("p256-sqr", 32)] == counts.sqr + field_s
    assert mp1[("mont-mul", 32)] == order_m and mp1[("mont-sqr", 32)] == order_s
    assert field_work("P-256", "montgomery_mp1", reference_counts("P-256", "keygen")).get(("mont-mul", 32)) is None
    fused = field_work("P-256", "montgomery_mp1_fused", counts)  # from 5.6.4: the fused Montgomery routines
    assert fused[("p256-mont-mul", 32)] == counts.mul + field_m and fused[("p256-mont-sqr", 32)] == counts.sqr + field_s
    assert fused[("mont-mul", 32)] == order_m and ("p256-mul", 32) not in fused


def test_separate_verify_adds_a_comb_and_a_fixed_window_and_compares_projectively():
    from refbench.ref import weierstrass
    from refbench.sanity.pubkey_cost import (
        _counted,
        base_scalar_counts,
        comb_counts,
        double_scalar_split,
        separate_verify_counts,
    )

    c = curves.P256
    P = weierstrass.to_jacobian(weierstrass.scalar_mult(c, 3, c.G))
    affine = _counted(weierstrass.to_affine, c, P)
    add = _counted(weierstrass.jacobian_add, c, P, weierstrass.to_jacobian(weierstrass.scalar_mult(c, 5, c.G)))
    rest, _ = double_scalar_split("P-256")
    got = separate_verify_counts("P-256", 8)
    want = rest + comb_counts("P-256", 8) + base_scalar_counts("P-256") - affine.times(2) + add
    assert (got.mul, got.sqr, got.inv, got.inv_order) == (want.mul + 1, want.sqr + 1, 1, 1)  # only s^-1 mod n
    names = [r.name for r in recipes(dataclasses.replace(FIGURES["000-0025"], operation="verify"))[0]]
    assert "Montgomery with a reduction by word additions (mp = 1), separate multiplications (8-bit comb u1 G, " \
           "4-bit fixed window u2 Q)" in names


def test_an_order_kind_the_field_lacks_is_named(tmp_path):
    text = COSTS_PATH.read_text(encoding="utf-8").replace('order_kinds = { montgomery_mp1 = "montgomery"',
                                                          'order_kinds = { montgomery_mp1 = "lattice"')
    bad = tmp_path / "pubkey_costs.toml"
    bad.write_text(text, encoding="utf-8")
    with pytest.raises(ValueError, match=r"field 'pricing.order_kinds.montgomery_mp1': \[fields.P-256\] has no kind 'lattice'"):
        load_costs(bad)


def test_cache_resistant_table_reads_are_sp_table_reads_from_the_release_that_has_them():
    base = dataclasses.replace(FIGURES["000-0025"], math="SP math, Cortex-M assembly", operation="keygen",
                               algorithm="ECC-P256", curve="P-256")

    def reads(version: str, operation: str = "keygen", bytes_: int = 64) -> dict[str, int]:
        f = dataclasses.replace(base, version=version, operation=operation,
                                algorithm="ECC-P256" if operation == "keygen" else "ECDSA-P256")
        return {r.name.split(", ")[1]: dict(((o, s), n) for o, s, n in r.work).get(("sp-table-read", bytes_), 0)
                for r in recipes(f)[0] if r.name.startswith("Montgomery with")}

    new = reads("5.6.4")  # x and y of an affine entry: 64 bytes; one call per 15 entries scanned
    assert new["4-bit comb base point"] == 64 and new["8-bit comb base point"] == 32 * 255 // 15
    assert new["6-bit comb base point"] == 0 and new["4-bit fixed window"] == 0
    assert reads("5.6.4", bytes_=96)["4-bit fixed window"] == 64  # x, y and z of a projective point
    assert set(reads("4.4.1").values()) == {0}  # 4.4.1 indexes its tables
    assert set(reads("5.6.4", "verify").values()) == {0}  # verify reads with ct = 0
    assert all(("select", 32) not in dict(((o, s), n) for o, s, n in r.work)
               for r in recipes(dataclasses.replace(base, version="5.6.4"))[0] if "comb" in r.name)
    p384 = dataclasses.replace(base, algorithm="ECC-P384", curve="P-384", version="5.6.4")
    assert {dict(((o, s), n) for o, s, n in r.work).get(("sp-table-read", 96)) for r in recipes(p384)[0]
            if "4-bit comb" in r.name} == {96}
    other = dataclasses.replace(base, library="CycloneCRYPTO", math=None, version="2.6.2")
    assert all(o != "sp-table-read" for r in recipes(other)[0] for o, _, _ in r.work)


def test_a_malformed_table_scan_is_named(tmp_path):
    text = COSTS_PATH.read_text(encoding="utf-8").replace("window = [64, 15, 3]", "window = [64, 15]")
    bad = tmp_path / "pubkey_costs.toml"
    bad.write_text(text, encoding="utf-8")
    with pytest.raises(ValueError, match=r"field 'scalar_mult.table_scans\[0\].reads.window': expected \[reads, entries, coordinates\]"):
        load_costs(bad)
    bad.write_text(COSTS_PATH.read_text(encoding="utf-8").replace("window = [64, 15, 3]", "window = [64, 16, 3]"),
                   encoding="utf-8")
    with pytest.raises(ValueError, match=r"field 'scalar_mult.table_scans\[0\].reads.window': expected a number of "
                                         r"entries that is a multiple of 15"):
        load_costs(bad)


def test_a_librarys_own_order_arithmetic_prices_its_order_inversions_only():
    """[pricing] library_order_inversions: a CycloneCRYPTO signature's inversion modulo n is priced by the library's
    scalar operations with its chain (or the binary exponentiation to n - 2 where it names none), whatever kind
    prices the field, and leaves the field inversions (and every other library's figures) as they were."""
    rule = load_costs()["pricing"]["library_order_inversions"]["CycloneCRYPTO"]
    o_mul, o_sqr = rule["ops"]
    for curve in ("P-256", "P-521", "SM2", "brainpoolP384r1"):
        counts = reference_counts(curve, "sign")
        size = load_costs()["fields"][curve]["bytes"]
        chain = rule["chains"].get(curve)
        n = {"P-256": curves.P256, "P-521": curves.P521, "SM2": curves.SM2P256V1,
             "brainpoolP384r1": curves.BRAINPOOLP384R1}[curve].n
        order_s, order_m = chain or fermat_counts(n)
        assert order_inversion(curve, "CycloneCRYPTO 2.5.0") == (o_mul, o_sqr, order_s, order_m)
        assert order_inversion(curve, "wolfSSL 5.7.0") is None
        field_s, field_m = inversion_counts(curve, "CycloneCRYPTO")
        for kind in load_costs()["fields"][curve]["kinds"]:
            mul_op, sqr_op = load_costs()["fields"][curve]["kinds"][kind][:2]
            own = field_work(curve, kind, counts, "CycloneCRYPTO 2.5.0")
            field_inv = counts.inv - counts.inv_order
            field_mul, field_sqr = counts.mul + field_inv * field_m, counts.sqr + field_inv * field_s
            shared = mul_op == o_mul  # brainpool's own field products are the same Barrett operations
            assert own[(o_mul, size)] == counts.inv_order * order_m + (field_mul if shared else 0)
            assert own[(o_sqr, size)] == counts.inv_order * order_s + (field_sqr if shared else 0)
            if not shared:
                assert own[(mul_op, size)] == field_mul and own[(sqr_op, size)] == field_sqr
        assert (o_mul, size) not in field_work(curve, "montgomery", counts, "wolfSSL")
    keygen = reference_counts("P-256", "keygen")
    assert keygen.inv_order == 0
    assert (o_mul, 32) not in field_work("P-256", "cyclone", keygen, "CycloneCRYPTO")


def test_a_malformed_library_order_inversion_is_named(tmp_path):
    text = COSTS_PATH.read_text(encoding="utf-8")
    for old, new, where in (('ops = ["cy-bp-mul", "cy-bp-sqr"]', 'ops = ["cy-bp-mul"]', r"CycloneCRYPTO.ops': expected \[mul, sqr"),
                            ("P-521 = [520, 143]", "P-521 = [520]", r"CycloneCRYPTO.chains.P-521': expected \[squarings"),
                            ("P-521 = [520, 143]", "P-999 = [520, 143]", r"CycloneCRYPTO.chains': expected \{curve")):
        bad = tmp_path / "pubkey_costs.toml"
        bad.write_text(text.replace(old, new, 1), encoding="utf-8")
        with pytest.raises(ValueError, match=where):
            load_costs(bad)


def test_a_math_kind_the_field_lacks_is_named(tmp_path):
    text = COSTS_PATH.read_text(encoding="utf-8").replace('math_kinds = { montgomery_mp1_loops =',
                                                          'math_kinds = { montgomery_mp2 =')
    bad = tmp_path / "pubkey_costs.toml"
    bad.write_text(text, encoding="utf-8")
    with pytest.raises(ValueError, match=r"fields.P-256.math_kinds.montgomery_mp2"):
        load_costs(bad)


def test_the_fused_montgomery_kind_is_a_candidate_from_its_release_on():
    """[fields.P-256] since_kinds: wolfSSL's fused sp_256_mont_mul_8 (from 5.6.4) prices the Cortex-M assembly builds
    of 5.6.4 and later only; an older figure keeps the kinds its release has."""
    from refbench.sanity.pubkey_cost import kinds_for

    math = "SP math, Cortex-M assembly (small)"
    assert "montgomery_mp1_fused" in kinds_for("P-256", "wolfSSL", math, "5.6.6")
    assert "montgomery_mp1_fused" in kinds_for("P-256", "wolfSSL", math, "5.6.4")
    assert "montgomery_mp1_fused" not in kinds_for("P-256", "wolfSSL", math, "5.6.0")
    assert "montgomery_mp1" in kinds_for("P-256", "wolfSSL", math, "5.6.0")
    assert "montgomery_mp1_fused" not in kinds_for("P-256", "wolfSSL", "SP math, C 32-bit", "5.6.6")


def test_a_bad_since_kind_is_named(tmp_path):
    for old, new in (('since_kinds = { montgomery_mp1_fused = "5.6.4" }', 'since_kinds = { montgomery_mp9 = "5.6.4" }'),
                     ('since_kinds = { montgomery_mp1_fused = "5.6.4" }', 'since_kinds = { montgomery_mp1_fused = "soon" }')):
        bad = tmp_path / "pubkey_costs.toml"
        bad.write_text(COSTS_PATH.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")
        with pytest.raises(ValueError, match=r"field 'fields.P-256.since_kinds.montgomery_mp"):
            load_costs(bad)
