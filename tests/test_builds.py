"""The build model (refbench/sanity/builds.py, builds.toml): schema, every variant and option it
names exists, its model-error table agrees with `cortexm-emu validate`, bad data names the file
and field, and the answers it gives for synthetic sections (what the page states wins over the
vendor template, which wins over the library default)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from cortexm_emu.boards import board_names
from refbench.kernels.catalog import family
from refbench.published.model import load_figures
from refbench.sanity.builds import BUILDS_PATH, build_of, builds_data, load_builds, pubkey_path
from refbench.sanity.libraries import LIBRARIES, stated_options
from refbench.sanity.memory_configs import ConfigKind
from refbench.sanity.prediction import run_to_run
from refbench.sanity.pubkey_cost import kind_name

FIGURES = {f.id: f for f in load_figures()}
KINDS = set(ConfigKind.__args__)  # type: ignore[attr-defined]


def test_every_variant_and_option_named_exists():
    data = builds_data()
    for entry in data.libraries.values():
        for kernel, (variant, source) in entry.paths.items():
            assert variant in family(kernel).variants, f"{entry.key}.paths.{kernel}: {variant}"
            assert source
        if entry.template is not None:
            lib = next(lib for lib in LIBRARIES.values() if lib.name == entry.library)
            for kernel, option in entry.template.options.items():
                assert option in lib.kernels[kernel].options, f"{entry.key}.template.options.{kernel}"
        for kernels in entry.asm.values():
            for kernel in kernels:
                family(kernel)
        for kernel, (variant, source) in entry.asm_kernels.items():
            assert variant in family(kernel).variants and source, f"{entry.key}.asm_kernels.{kernel}: {variant}"
            assert any(kernel in kernels for kernels in entry.asm.values()), f"{entry.key}.asm_kernels.{kernel}"
    for board, (kind, source) in data.memory.items():
        assert board in board_names() and kind in KINDS and source, board


def test_the_core_model_term_is_computed_from_validate_on_every_core_it_has(monkeypatch):
    from cortexm_emu.timing import CORES
    from cortexm_emu.validate import load_sequences
    from refbench.heldout import runner
    from refbench.sanity.prediction import model_error_term

    monkeypatch.setattr(runner, "held_out_error", lambda: {})  # no held-out rows: validate's error
    counts = {core: sum(core in s.published for s in load_sequences()) for core in CORES}
    assert counts["m0"] > 0  # the core the hand-written table left out
    term = model_error_term("m0")
    assert f"over {counts['m0']} sequences on m0" in term.source
    assert "transcription check, not held out" in term.source and "computed at run time" in term.source
    assert term.low <= 1.0 <= term.high


def test_model_error_numbers_are_not_written_in_builds_toml(tmp_path: Path):
    text = BUILDS_PATH.read_text(encoding="utf-8").replace("[model_error]\n", "[model_error]\nm4 = 0.0\n", 1)
    bad = tmp_path / "builds.toml"
    bad.write_text(text, encoding="utf-8")
    with pytest.raises(ValueError, match=r"builds.toml:\d+: field 'model_error.m4': unknown field .*computed from cortexm_emu"):
        load_builds(bad)


def test_bad_data_names_the_file_and_field(tmp_path: Path):
    text = BUILDS_PATH.read_text(encoding="utf-8").replace('variant = "limb26"', 'variant = 26', 1)
    bad = tmp_path / "builds.toml"
    bad.write_text(text, encoding="utf-8")
    with pytest.raises(ValueError, match=r"builds.toml:\d+: field 'wolfssl.paths.poly1305.variant'"):
        load_builds(bad)


def test_the_page_then_the_template_then_the_library_default():
    l4 = FIGURES["000-0301"]  # wolfSSL 5.6.4 built with STM32CubeIDE, no GMAC label in its section
    assert build_of(l4).path("gcm").option == "wolfSSL GCM_SMALL" and build_of(l4).path("gcm").how == "vendor template"
    stated = {(l4.source, l4.section): {"gcm": "GCM_TABLE"}}
    assert build_of(l4, stated).path("gcm").variant == "ghash_8bit"
    other_tool = dataclasses.replace(l4, compiler="GCC (make)")
    path = build_of(other_tool).path("gcm")
    assert (path.option, path.how) == ("wolfSSL GCM_TABLE_4BIT", "library default")
    old = dataclasses.replace(other_tool, version="4.4.1")  # no 4-bit table before 4.6.0 and no default left
    assert build_of(old).path("gcm").variant is None


def test_stated_options_reach_the_build():
    figures = list(FIGURES.values())
    stated = stated_options(figures)
    some = next(f for f in figures if (f.source, f.section) in stated and f.algorithm.startswith("AES-128-GCM")
                and not f.asm)
    assert build_of(some, stated).path("gcm").how == "stated by the page"


def test_assembly_claims_and_closed_libraries_have_no_faithful_kernel():
    l4 = FIGURES["000-0301"]
    claimed = dataclasses.replace(l4, asm="WOLFSSL_ARMASM (Thumb-2 assembly for AES/SHA)")
    shaped = builds_data().libraries["wolfssl"].asm_kernels
    covered = [k for k in ("aes", "gcm", "ccm", "sha256", "sha512", "hmac", "drbg") if build_of(claimed).assembly_covers(k)]
    assert covered and any(k not in shaped for k in covered)
    for kernel in covered:  # a kernel in the assembly's shape is the path; without one, the C path stands, not faithful
        path = build_of(claimed).path(kernel)
        assert (path.how, path.faithful) == (("assembly kernel", True) if kernel in shaped else ("assembly", False))
    assert build_of(claimed).path("chacha20").faithful  # the claim does not name ChaCha
    assert build_of(dataclasses.replace(l4, asm="none (WOLFSSL_NO_ASM)")).assembly is None
    cmox = FIGURES["002-0139"]
    assert build_of(cmox).path("sha256").how == "closed library"


def test_memory_the_page_states_wins():
    cmox = FIGURES["002-0139"]  # "Instruction cache (ART/ICU) on, ... Prefetch cache (ART) on"
    choice = build_of(cmox).memory("stm32wl55jc")
    assert (choice.kind, choice.stated) == ("cache on", True)
    l4 = FIGURES["000-0301"]
    choice = build_of(l4).memory("stm32l4a6zg")
    assert (choice.kind, choice.stated) == ("cache on, prefetch off", False) and "PREFETCH_ENABLE 0U" in choice.source
    off = dataclasses.replace(l4, cache="caches disabled")
    assert build_of(off).memory("stm32l4a6zg").kind == "cache off"


def test_run_to_run_comes_from_the_repeated_build():
    spread, words = run_to_run()
    assert 0 < spread < 0.05 and "STM32WB55" in words


RECIPES = ("Montgomery, 4-bit fixed window", "Montgomery, 6-bit comb base point",
           "special-form reduction, 4-bit fixed window", "special-form reduction, 6-bit comb base point")


def test_pubkey_rules_pick_the_arithmetic_and_base_point_method():
    f = FIGURES["000-0598"]  # a wolfSSL page's figure lends library and version; the math option is synthetic
    sp = pubkey_path(build_of(dataclasses.replace(f, math="SP math, C 32-bit")), RECIPES, ("c32",), "")
    assert sp.recipes == ("Montgomery, 6-bit comb base point",) and "builds.toml [[pubkey]]" in sp.source
    tfm = pubkey_path(build_of(dataclasses.replace(f, math="fastmath (tfm.c)")), RECIPES, ("c32",), "")
    assert tfm.recipes == ("Montgomery, 4-bit fixed window",) and tfm.open_slow
    closed = pubkey_path(build_of(f), RECIPES, ("c32",), "a closed library")
    assert closed.recipes == RECIPES and "a closed library" in closed.open_slow
    other = pubkey_path(build_of(dataclasses.replace(f, library="Other")), RECIPES, ("c32",), "")
    assert other.recipes == RECIPES and "no [[pubkey]] rule" in other.source


def test_a_bad_pubkey_rule_names_the_field(tmp_path: Path):
    text = BUILDS_PATH.read_text(encoding="utf-8").replace('base = "comb"', 'base = "ladder"', 1)
    bad = tmp_path / "builds.toml"
    bad.write_text(text, encoding="utf-8")
    with pytest.raises(ValueError, match=r"builds.toml:\d+: field 'pubkey\[0\].base'"):
        load_builds(bad)


def test_a_pubkey_rule_narrows_the_variants_to_the_code_the_library_compiles_to():
    f = dataclasses.replace(FIGURES["000-0598"], library="CycloneCRYPTO", math=None)
    own = f"{kind_name('cyclone')}, 4-bit fixed window"  # the library's Comba product (builds.toml kind cyclone)
    cyclone = pubkey_path(build_of(f), (*RECIPES, own), ("c32", "m0"), "")
    assert cyclone.variants == ("c32",) and "mpiMulAccCore" in cyclone.source
    assert cyclone.recipes == (own,)


def test_a_short_exponent_rule_keeps_the_short_dh_recipes():
    f = dataclasses.replace(FIGURES["000-0598"], algorithm="DH-2048", operation="keygen", key_bits=2048,
                            math="SP math, C 32-bit")
    dh = ("1 x 224-bit exponent, 4-bit fixed window", "1 x 2048-bit exponent, 4-bit fixed window")
    assert pubkey_path(build_of(f), dh, ("c32",), "").recipes == dh[:1]


def test_generic_bignum_code_leaves_the_slow_side_open_and_a_closed_library_both():
    f = FIGURES["000-0598"]
    tfm = pubkey_path(build_of(dataclasses.replace(f, math="fastmath (tfm.c)")), RECIPES, ("c32",), "")
    assert "generic multi-precision" in tfm.open_slow and not tfm.open_fast
    c32 = pubkey_path(build_of(dataclasses.replace(f, math="SP math, C 32-bit")), RECIPES, ("c32",), "")
    assert "narrower than a 32-bit word" in c32.open_slow and c32.recipes == ("Montgomery, 6-bit comb base point",)
    asm = pubkey_path(build_of(dataclasses.replace(f, math="SP math, Cortex-M assembly")), RECIPES, ("umaal",), "")
    assert not asm.open_slow and not asm.open_fast
    closed = pubkey_path(build_of(f), RECIPES, ("c32",), "a closed library")
    assert closed.open_fast == "a closed library" and "a closed library" in closed.open_slow


def test_an_assembly_kernel_is_the_path_only_where_the_page_claims_that_assembly():
    from refbench.sanity.builds import assembly_kernel_variants, runs_variant

    l4 = FIGURES["000-0301"]
    claimed = build_of(dataclasses.replace(l4, asm="WOLFSSL_ARMASM (Thumb-2 assembly for AES/SHA)"))
    for (kernel, variant) in assembly_kernel_variants():
        path = claimed.path(kernel)
        assert (path.variant, path.how, path.faithful) == (variant, "assembly kernel", True)
        assert runs_variant(claimed, kernel, variant)
        assert not runs_variant(build_of(l4), kernel, variant)  # no claim: the C path, never the assembly
        assert runs_variant(build_of(l4), kernel, build_of(l4).path(kernel).variant)
    assert claimed.path("ccm").how == "assembly"  # the claim covers it, no kernel of its assembly


def test_the_plan_runs_an_assembly_kernel_only_for_its_claim_and_its_cores():
    from refbench.published.model import load_parts
    from refbench.sanity.plan import plan_figure

    parts = load_parts()
    h7 = next(f for f in FIGURES.values() if f.board == "NUCLEO-H753ZI" and f.algorithm == "SHA-256"
               and f.implementation == "software")
    claimed = dataclasses.replace(h7, id="syn-asm", asm="WOLFSSL_ARMASM (Thumb-2 assembly for AES/SHA)")
    plain = dataclasses.replace(h7, id="syn-c", asm="")
    variants = {name: {v for _, v, _ in plan_figure(f, parts).operations} for name, f in
                (("claimed", claimed), ("plain", plain))}
    assert "thumb2_asm" in variants["claimed"] and "thumb2_asm" not in variants["plain"]
    # a section that states its C GHASH ("GMAC Table 4-bit") and claims the assembly runs the assembly kernel
    gcm = next(f for f in FIGURES.values() if f.board == "NUCLEO-H753ZI" and f.algorithm == "AES-128-GCM"
               and f.implementation == "software" and f.asm)
    synthetic = dataclasses.replace(gcm, id="syn-gcm")
    assert ("gcm", "thumb2_asm") in {(k, v) for k, v, _ in plan_figure(synthetic, parts).operations}
    assert "thumb2_asm" not in {v for _, v, _ in plan_figure(dataclasses.replace(synthetic, asm=""), parts).operations}
    g0 = next(f for f in FIGURES.values() if f.part == "STM32G071RB" and f.algorithm == "SHA-256"
              and f.implementation == "software")
    m0 = plan_figure(dataclasses.replace(g0, id="syn-m0", asm="WOLFSSL_ARMASM (Thumb-2 assembly for AES/SHA)"), parts)
    assert m0.operations and all(v != "thumb2_asm" for _, v, _ in m0.operations)  # no Thumb-2 on the M0+


def test_the_sp_assembly_rule_prices_p256_by_its_reduction_and_verifies_with_separate_multiplications():
    f = dataclasses.replace(FIGURES["000-0598"], math="SP math, Cortex-M assembly", algorithm="ECDSA-P256",
                            curve="P-256", operation="verify")
    mp1 = "Montgomery with a reduction by word additions (mp = 1)"
    verify = (f"{mp1}, Shamir double-scalar", f"{mp1}, separate multiplications (8-bit comb u1 G, 4-bit fixed window u2 Q)",
              "Montgomery, separate multiplications (8-bit comb u1 G, 4-bit fixed window u2 Q)",
              "special-form reduction, Shamir double-scalar")
    path = pubkey_path(build_of(f), verify, ("umaal_asm",), "")
    assert path.recipes == verify[1:2] and "mp = 1" in path.source and "separate multiplications" in path.source
    p384 = dataclasses.replace(f, algorithm="ECDSA-P384", curve="P-384")
    assert pubkey_path(build_of(p384), verify, ("umaal_asm",), "").recipes == verify[2:3]
    sign = dataclasses.replace(f, operation="sign")
    combs = (f"{mp1}, 8-bit comb base point", "Montgomery, 8-bit comb base point", f"{mp1}, 4-bit fixed window")
    assert pubkey_path(build_of(sign), combs, ("umaal_asm",), "").recipes == combs[:1]


def test_a_bad_verify_method_or_curve_kinds_names_the_field(tmp_path: Path):
    for old, new, field in (('verify = "separate"', 'verify = "shamir"', "verify"),
                            ('curve_kinds = { "P-256" = "montgomery_mp1_fused" }', 'curve_kinds = { "P-256" = 1 }', "curve_kinds")):
        bad = tmp_path / "builds.toml"
        bad.write_text(BUILDS_PATH.read_text(encoding="utf-8").replace(old, new, 1), encoding="utf-8")
        with pytest.raises(ValueError, match=rf"builds.toml:\d+: field 'pubkey\[1\].{field}'"):
            load_builds(bad)


def test_sp_assembly_runs_rsa_on_the_umull_assembly():
    f = dataclasses.replace(FIGURES["000-0598"], math="SP math, Cortex-M assembly", algorithm="RSA-2048",
                            operation="private", key_bits=2048, curve=None)
    crt = ("CRT, two 1024-bit Montgomery exponentiations, 4-bit fixed window",
           "CRT, two 1024-bit Montgomery exponentiations, 5-bit fixed window")
    variants = ("umaal", "umlal", "umaal_asm", "umull_asm", "umull_asm_bytecopy")
    path = pubkey_path(build_of(f), crt, variants, "")
    assert path.variants == ("umull_asm_bytecopy",) and path.lower_variants == () and "not UMAAL" in path.source
    assert "XMEMCPY" in path.source and "STM32CubeIDE" in path.source  # the product's copy, newlib's byte loop
    assert path.recipes == crt[:1] and "WOLFSSL_SP_SMALL" in path.source  # the small build's 4-bit window
    ecc = dataclasses.replace(f, algorithm="ECC-P256", operation="keygen", key_bits=None, curve="P-256")
    assert pubkey_path(build_of(ecc), crt, variants, "").variants == variants  # the P-256 code is not narrowed


@pytest.mark.parametrize("small", [True, False])
def test_sp_thumb_runs_rsa_on_the_m0_assembly_of_its_build(small):
    """wolfSSL SP Thumb (sp_armthumb.c): with WOLFSSL_SP_SMALL, RSA on bignum/m0_asm (its loops' shape) and
    a 4-bit window; without it, Karatsuba over an 8-word base (bignum/m0_kara, straight-line, and m0_kara_loop,
    a loop: with and without WOLFSSL_SP_LARGE_CODE) and a 5-bit window. P-256 runs on bignum/m0_asm's
    Montgomery-form kernels (kind montgomery_mp1_loops) and the 4-bit stripe with WOLFSSL_SP_SMALL only; without
    it elliptic curves keep m0, and [[libraries]] offers m0_kara for RSA/DH/DSA only."""
    from refbench.sanity.pubkey_cost import library_variants

    math = "SP math, Thumb assembly (" + ("WOLFSSL_SP_SMALL)" if small else "without WOLFSSL_SP_SMALL)")
    f = dataclasses.replace(FIGURES["000-0598"], math=math, algorithm="RSA-2048", operation="private",
                            key_bits=2048, curve=None)
    crt = ("CRT, two 1024-bit Montgomery exponentiations, 4-bit fixed window",
           "CRT, two 1024-bit Montgomery exponentiations, 5-bit fixed window")
    variants, _ = library_variants(f)
    assert {"m0", "m0_asm", "m0_kara", "m0_kara_loop"} <= set(variants)
    path = pubkey_path(build_of(f), crt, variants, "")
    assert path.variants == (("m0_asm",) if small else ("m0_kara", "m0_kara_loop"))
    assert path.recipes == (crt[:1] if small else crt[1:])
    ecc = dataclasses.replace(f, algorithm="ECC-P256", operation="keygen", key_bits=None, curve="P-256")
    variants, _ = library_variants(ecc)
    assert variants == (("m0", "m0_asm") if small else ("m0",))
    loops, mp1 = kind_name("montgomery_mp1_loops"), kind_name("montgomery_mp1")
    combs = tuple(f"{k}, {w}-bit comb base point" for k in (loops, mp1) for w in (4, 8))
    path = pubkey_path(build_of(ecc), combs, variants, "")
    assert path.variants == (("m0_asm",) if small else ("m0",))
    if small:  # the build's kind and its 4-bit stripe
        assert path.recipes == combs[:1]


def test_a_small_sp_build_keeps_the_4_bit_comb():
    f = dataclasses.replace(FIGURES["000-0598"], math="SP math, Cortex-M assembly (small)", algorithm="ECC-P256",
                            operation="keygen", curve="P-256", version="5.6.4")
    mp1 = "Montgomery with a reduction by word additions (mp = 1)"
    combs = tuple(f"{mp1}, {w}-bit comb base point" for w in (4, 6, 8))
    assert pubkey_path(build_of(f), combs, ("umaal_asm",), "").recipes == combs[:1]


def test_a_bad_lower_variant_list_is_named(tmp_path: Path):
    bad = tmp_path / "builds.toml"
    bad.write_text(BUILDS_PATH.read_text(encoding="utf-8").replace('mont_variants = ["umull_asm_bytecopy"]',
                                                                   'mont_variants = ["umull_asm_bytecopy"]\n'
                                                                   'mont_lower_variants = "umaal_asm"', 1),
                   encoding="utf-8")
    with pytest.raises(ValueError, match=r"builds.toml:\d+: field 'pubkey\[\d+\].mont_lower_variants': expected a list"):
        load_builds(bad)


def test_a_pubkey_rule_with_since_describes_that_release_and_later_only():
    base = dataclasses.replace(FIGURES["000-0598"], algorithm="RSA-2048", operation="private", key_bits=2048,
                               math="SP math, Cortex-M assembly")
    rsa = ("CRT, two 1024-bit Montgomery exponentiations, 4-bit fixed window",)
    newer = [r for r in builds_data().pubkey if r.since and r.library == "wolfSSL"]
    assert newer, "builds.toml has a wolfSSL [[pubkey]] rule limited by release"
    variants = tuple(dict.fromkeys(("umaal", "umlal", "umaal_asm", "umull_asm", "umull_asm_bytecopy",
                                    *newer[0].mont_variants)))
    since = newer[0].since
    before = pubkey_path(build_of(dataclasses.replace(base, version="5.6.0")), rsa, variants, "")
    after = pubkey_path(build_of(dataclasses.replace(base, version=since)), rsa, variants, "")
    later = pubkey_path(build_of(dataclasses.replace(base, version="9.0.0")), rsa, variants, "")
    assert before.variants == ("umull_asm_bytecopy",) and newer[0].mont_variants_source not in before.source
    assert set(after.variants) == set(newer[0].mont_variants) == set(later.variants)
    assert newer[0].mont_variants_source in after.source
    unknown = pubkey_path(build_of(dataclasses.replace(base, version=None)), rsa, variants, "")
    assert unknown.variants == ("umull_asm_bytecopy",)  # no release stated: the rule without `since`


def test_a_bad_since_is_named(tmp_path: Path):
    bad = tmp_path / "builds.toml"
    bad.write_text(BUILDS_PATH.read_text(encoding="utf-8").replace('since = "5.6.4"', 'since = "recent"', 1),
                   encoding="utf-8")
    with pytest.raises(ValueError, match=r"builds.toml:\d+: field 'pubkey\[\d+\].since': expected a release number"):
        load_builds(bad)
