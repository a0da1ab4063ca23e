"""Library-faithful workloads (libraries.toml): a library's figures are compared only with the
kernel variants its documented build options ship, the explanation names the option, a page's
stated option narrows the candidates, and a closed library is bounded only by the floor no code
can beat. Verdicts are checked on synthetic figures with stated cycle counts."""

from __future__ import annotations

import pytest
from sanity_fakes import stated_context, synthetic, with_cycles_per_byte

from refbench.kernels.catalog import families
from refbench.published.model import load_figures, load_parts
from refbench.sanity import judge
from refbench.sanity.code_bounds import any_code_floor
from refbench.sanity.libraries import (
    LIBRARIES,
    candidates,
    closed_library,
    load_libraries,
    stated_options,
)
from refbench.sanity.plan import FigurePlan, make_plan, plan_figure

FIGURES = {f.id: f for f in load_figures()}
PARTS = load_parts()
#: wolfSSL 5.x on the STM32U585 (Cortex-M33, 160 MHz), "No STM HW Crypto" section: AES-128-GCM
#: encryption, and the section's GMAC row, printed "GMAC Small" by wolfCrypt's benchmark.
U585_GCM, U585_GMAC_SMALL = FIGURES["000-0527"], FIGURES["000-0533"]
#: ST CMOX on the STM32WL55 (Cortex-M4, 48 MHz): SHA-256 of 8000 bytes in 2048-byte chunks (cycles).
CMOX_SHA256 = FIGURES["002-0134"]
GHASH = {"ghash_small": 2000.0, "ghash_bitwise": 300.0, "ghash_4bit_byte": 150.0, "ghash_8bit": 100.0}


def test_every_variant_named_by_a_library_is_in_the_catalogue():
    fams = families()
    for lib in LIBRARIES.values():
        for kernel, spec in lib.kernels.items():
            assert kernel in fams, f"{lib.key}.kernels.{kernel}"
            for option, variant in spec.options.items():
                assert variant in fams[kernel].variants, f"{lib.key}.kernels.{kernel}: {option} -> {variant}"


def test_a_bad_libraries_file_names_the_table_and_field(tmp_path):
    bad = tmp_path / "libraries.toml"
    bad.write_text('[x]\nlibrary = "X"\nclosed = "no"\n', encoding="utf-8")
    with pytest.raises(ValueError, match=r"libraries.toml:3: field 'x.closed': expected bool, got 'no'"):
        load_libraries(bad)
    bad.write_text('[x]\nlibrary = "X"\nclosed = false\n[x.kernels.gcm]\nsource = "s"\ndefault = "A"\n'
                   'options = { B = "ghash_4bit" }\n', encoding="utf-8")
    with pytest.raises(ValueError, match=r"field 'x.kernels.gcm.default': 'A' is not one of the options \['B'\]"):
        load_libraries(bad)


def test_wolfssl_gcm_candidates_are_its_four_ghash_options_named_by_option():
    p = plan_figure(U585_GCM, PARTS)
    assert isinstance(p, FigurePlan)
    assert {v for _, v, _ in p.operations} == set(GHASH)
    assert dict(p.options) == {("gcm", "ghash_small"): "wolfSSL GCM_SMALL", ("gcm", "ghash_bitwise"): "wolfSSL GCM_WORD32",
                               ("gcm", "ghash_8bit"): "wolfSSL GCM_TABLE",
                               ("gcm", "ghash_4bit_byte"): "wolfSSL GCM_TABLE_4BIT"}


def test_the_sections_gmac_row_states_the_ghash_option_for_its_gcm_rows():
    assert stated_options([U585_GMAC_SMALL]) == {(U585_GMAC_SMALL.source, U585_GMAC_SMALL.section): {"gcm": "GCM_SMALL"}}
    plan = make_plan([U585_GCM, U585_GMAC_SMALL], PARTS)
    gcm = plan.figures[0]
    assert isinstance(gcm, FigurePlan) and {v for _, v, _ in gcm.operations} == {"ghash_small"}
    assert gcm.option("gcm", "ghash_small") == "wolfSSL GCM_SMALL (stated by the page)"
    # Another section of the same page states nothing: all four options stay candidates.
    other = synthetic(U585_GCM, "syn-other-section", section="another section")
    assert len(candidates(other, plan.figures[0].operations + (("gcm", "ghash_4bit_byte", "gcm-encrypt"),),
                          stated_options([U585_GMAC_SMALL]))[0]) == 2


def test_gcm_table_4bit_is_the_byte_step_kernel_and_only_from_wolfssl_4_6_0():
    ops = [("gcm", v, "gcm-encrypt") for v in ("ghash_small", "ghash_bitwise", "ghash_4bit", "ghash_4bit_byte",
                                                "ghash_8bit")]
    new = synthetic(U585_GCM, "syn-5x", version="5.6.4")
    old = synthetic(U585_GCM, "syn-441", version="4.4.1")
    kept_new, labels = candidates(new, ops)
    assert [v for _, v, _ in kept_new] == ["ghash_small", "ghash_bitwise", "ghash_4bit_byte", "ghash_8bit"]
    assert labels[("gcm", "ghash_4bit_byte")] == "wolfSSL GCM_TABLE_4BIT"  # never Shoup's ghash_4bit
    kept_old, _ = candidates(old, ops)  # GCM_TABLE_4BIT came with 4.6.0 (wolfSSL PR #3388)
    assert [v for _, v, _ in kept_old] == ["ghash_small", "ghash_bitwise", "ghash_8bit"]


def test_a_since_that_names_no_option_or_no_version_is_refused(tmp_path):
    bad = tmp_path / "libraries.toml"
    bad.write_text('[x]\nlibrary = "X"\nclosed = false\n[x.kernels.gcm]\nsource = "s"\ndefault = "B"\n'
                   'options = { B = "ghash_4bit" }\nsince = { C = "1.0" }\n', encoding="utf-8")
    with pytest.raises(ValueError, match=r"field 'x.kernels.gcm.since': C: expected an option -> a version"):
        load_libraries(bad)


def test_closed_library_answers_for_a_figure_or_a_library_name():
    assert closed_library(CMOX_SHA256) and closed_library("ST CMOX (X-CUBE-CRYPTOLIB)")
    assert not closed_library(U585_GCM) and not closed_library("CycloneCRYPTO") and not closed_library("unknown lib")


def test_wolfssl_ships_no_bitsliced_aes():
    ops = [("aes", v, "cbc-encrypt") for v in ("bytewise", "ttable4", "ttable1", "bitsliced")]
    kept, labels = candidates(FIGURES["000-0301"], ops)
    assert [v for _, v, _ in kept] == ["bytewise", "ttable4"]
    assert labels[("aes", "ttable4")] == "wolfSSL T-tables"
    assert labels[("aes", "bytewise")] == "wolfSSL WOLFSSL_AES_SMALL_TABLES"


def test_a_gcm_small_figure_is_explained_by_the_option_the_page_states():
    fig = with_cycles_per_byte(U585_GCM, "syn-gcm-small", 2050.0)
    context, _ = stated_context(lambda m: GHASH[m.job.variant])
    e = judge([fig, U585_GMAC_SMALL], PARTS, context).emulations[fig.id]
    assert e.position == "inside" and e.finding.verdict == "consistent"
    assert "gcm/ghash_small = wolfSSL GCM_SMALL (stated by the page" in e.prediction.basis
    # A GCM_SMALL kernel no slower than the bitwise one could not explain it: slower than every variant.
    context, _ = stated_context(lambda m: {**GHASH, "ghash_small": 500.0}[m.job.variant])
    e = judge([fig], PARTS, context).emulations[fig.id]
    assert e.position == "slower" and e.finding.verdict in ("suspicious", "inconsistent")


def _cmox(figure_id: str, cycles_per_byte: float):
    return synthetic(CMOX_SHA256, figure_id, value=cycles_per_byte * 8000, text=f"{cycles_per_byte * 8000:.0f}")


def test_a_closed_library_faster_than_the_c_variants_is_untested_above_the_floor():
    context, _ = stated_context(lambda m: 60.0)  # every SHA-256 C variant: 60 c/B
    fig = _cmox("syn-cmox-fast", 30.0)
    e = judge([fig], PARTS, context).emulations[fig.id]
    # a closed library: no faithful kernel, the fast edge is the floor and the slow side is untested
    assert e.position == "inside" and (e.finding.verdict, e.finding.tests) == ("consistent", "bound")
    assert "closed library" in e.prediction.basis and "closed" in e.prediction.open_high
    assert "the floor no code can beat" in e.prediction.floor_note and "at least 20.50 c/B" in e.prediction.floor_note


def test_a_closed_library_below_the_floor_is_inconsistent():
    context, _ = stated_context(lambda m: 60.0)
    fig = _cmox("syn-cmox-impossible", 15.0)  # below 1,312 instructions / 64 bytes on a single-issue core
    e = judge([fig], PARTS, context).emulations[fig.id]
    assert e.position == "faster" and e.finding.verdict == "inconsistent"
    assert "the floor no code can beat" in e.explanation and "bound used: 20.50 c/B" in e.explanation


def test_the_floor_scales_with_the_issue_width_and_blocks():
    assert any_code_floor("sha-256", None, "Cortex-M4", 8000, False)[0] == pytest.approx(1312 / 64)
    assert any_code_floor("sha-256", None, "Cortex-M7", 8000, False)[0] == pytest.approx(1312 / 128)
    # A 64-byte final digest: 64 + 9 bytes of padding need two compressions.
    assert any_code_floor("sha-256", None, "Cortex-M4", 64, True)[0] == pytest.approx(2 * 1312)
    assert any_code_floor("aes-cbc-encrypt", 32, "Cortex-M4", 1024, False)[0] == pytest.approx(14.0)
    assert any_code_floor("poly1305", None, "Cortex-M4", 1024, False) is None


def test_the_issue_width_reads_either_core_name():
    assert any_code_floor("sha-256", None, "m7", 8000, False)[0] == any_code_floor("sha-256", None, "Cortex-M7", 8000, False)[0]
    assert any_code_floor("sha-256", None, "m0plus", 8000, False)[0] == pytest.approx(1312 / 64)
