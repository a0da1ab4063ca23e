"""Page-specific notes as data (refbench/published/notes.toml): each quoted from its seed and
scoped to the sections under the heading that says it; and the GMAC rows of sections that claim
AES-GCM acceleration read as hardware. Verdicts on synthetic figures with stated numbers."""

from __future__ import annotations

import pytest
from sanity_fakes import synthetic

from cortexm_emu.datafile import DataFileError
from refbench.published import load_figures, load_parts
from refbench.published.notes import load_notes, notes_for
from refbench.published.transcribe import SEEDS_DIR
from refbench.sanity import invariants

FIGURES = load_figures()
PARTS = load_parts()


def test_every_note_is_quoted_from_its_seed_and_covers_only_where_the_page_says_it():
    notes = load_notes()
    assert notes
    for note in notes:
        text = (SEEDS_DIR / note.source).read_text(encoding="utf-8")
        for start, end in note.ranges:
            assert note.quote in text[start:end]
    sp = next(n for n in notes if n.id == "wolfssl-sp-math-beats-pka")
    covered = {f.part for f in FIGURES if sp.covers(f)}
    # the two board headings that print "Note: SP math beats PKA HW."; not the L562E, whose heading does not
    assert covered == {"STM32WB55", "STM32WL55"}


def _pka_pair(part: str, hardware_ms: float, software_ms: float):
    """A PKA ECDSA sign figure and the same work in SP math on ``part`` (wolfSSL), with stated times."""
    template = next(f for f in FIGURES if f.part == part and f.library == "wolfSSL" and f.algorithm == "ECDSA-P256"
                    and f.operation == "sign")
    math = "SP math, Cortex-M assembly"
    hw = synthetic(template, f"syn-{part}-hw", value=hardware_ms, hw=("PKA",), implementation="hardware", math=math)
    sw = synthetic(template, f"syn-{part}-sw", value=software_ms, hw=(), implementation="software", math=math)
    return hw, sw


def test_the_sp_math_note_explains_a_slow_pka_figure_and_is_cited_from_other_headings():
    """PKA 100.000 ms against SP math 20.000 ms: explained on the STM32WB55 (its heading says
    'SP math beats PKA HW') and on the STM32L562E (its heading does not, the same page does: cited
    as evidence, saying where it comes from)."""
    for part, elsewhere in (("STM32WB55", False), ("STM32L562E", True)):
        findings = [f for _, f in invariants.rule_hw_vs_sw(list(_pka_pair(part, 100.0, 20.0)), PARTS)]
        assert {f.verdict for f in findings} == {"explained"}, part
        assert "Note: SP math beats PKA HW." in findings[0].message
        assert ("said under another heading of the page" in findings[0].message) == elsewhere
    # a PKA figure faster than software needs no note
    faster = [f for _, f in invariants.rule_hw_vs_sw(list(_pka_pair("STM32WB55", 10.0, 20.0)), PARTS)]
    assert {f.verdict for f in faster} == {"consistent"}


def test_notes_for_a_figure_name_the_rule_they_explain():
    wb55 = next(f for f in FIGURES if f.part == "STM32WB55" and f.library == "wolfSSL")
    assert [n.id for n in notes_for(wb55, "hardware-vs-software")] == ["wolfssl-sp-math-beats-pka"]
    assert notes_for(wb55, "aes-key-size") == []


@pytest.mark.parametrize("change,field,problem", [
    (('quote = "Note: SP math beats PKA HW."', 'quote = "Note: PKA beats everything."'), "note[0].quote",
     "not found verbatim"),
    (('scope = "heading"', 'scope = "table"'), "note[0].scope", "unknown scope"),
    (('meaning = ', 'colour = "red"\nmeaning = '), "note[0].colour", "unknown field"),
])
def test_a_bad_note_names_file_line_and_field(tmp_path, change, field, problem):
    from refbench.published.notes import NOTES_PATH

    path = tmp_path / "notes.toml"
    path.write_text(NOTES_PATH.read_text(encoding="utf-8").replace(*change), encoding="utf-8")
    with pytest.raises(DataFileError) as error:
        load_notes(path)
    message = str(error.value)
    assert f"{path}:" in message and field in message and problem in message


def test_gmac_rows_of_sections_that_claim_aes_gcm_read_as_hardware():
    gmac = {f.id: f for f in FIGURES if f.algorithm == "GMAC"}
    hardware = {i for i, f in gmac.items() if f.hw == ("AES",) and f.implementation == "hardware"}
    # U585 'STM Symmetric AES/SHA acceleration' (both) and L4A6Z 'STM Crypto/Hash Acceleration': the
    # board headings say AES GCM acceleration; the no-hardware sections and the H753/H563 builds do not
    assert {gmac[i].section.split(" / ")[0] for i in hardware} == {"STM32U585", "STM32L4A6Z"}
    assert {gmac[i].label for i in hardware} == {"GMAC Small", "GMAC Table 4-bit"}
    for f in gmac.values():
        if f.id not in hardware:
            assert f.implementation == "software" and "No" in f.config or "ARM ASM" in f.config, f.id
