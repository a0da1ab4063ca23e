"""The compiler allowance of the emulator rule: a figure built with a compiler we cannot run is allowed each
variant's measured spread between our two compilers (stated here, not measured: the tests set the
band table), instead of the fixed SAME_WORK_TOLERANCE; the reason says so."""

from __future__ import annotations

import json

import pytest
from sanity_fakes import stated_context, with_cycles_per_byte

from cortexm_emu.datafile import DataFileError
from refbench.published.model import load_figures, load_parts
from refbench.sanity import compiler_band, judge

FIGURES = {f.id: f for f in load_figures()}
PARTS = load_parts()
#: wolfSSL 5.6.4 on the STM32L4A6 (Cortex-M4, 80 MHz), AES-128-CBC encrypt, "GCC (STM32CubeIDE)" -Os.
L4 = FIGURES["000-0301"]
#: Stated builds of aes/ttable4 cbc-encrypt on the M4: gcc -Os 12 % slower than zig -Os.
BANDS = {"m4 aes/ttable4 cbc-encrypt": {"zig -Os": 1000, "gcc -Os": 1120, "zig -O2": 900, "gcc -O2": 950,
                                        "zig -O3": 880, "gcc -O3": 990},
         "m4 aes/bytewise cbc-encrypt": {"zig -Os": 2000, "gcc -Os": 2040}}


@pytest.fixture
def stated_bands(monkeypatch):
    monkeypatch.setattr(compiler_band, "bands", lambda: BANDS)


def test_which_compilers_are_foreign():
    assert compiler_band.foreign_compiler("GCC (STM32CubeIDE)") and compiler_band.foreign_compiler("ARMCC")
    assert compiler_band.foreign_compiler("IAR EWARM, IAR ANSI C/C++ Compiler V9.40.1.364")
    assert not compiler_band.foreign_compiler("Clang")


def test_the_band_is_the_spread_at_the_stated_level_or_over_all_levels(stated_bands):
    at_os = compiler_band.band("m4", "aes", "ttable4", "cbc-encrypt", "Os")
    assert at_os.spread == pytest.approx(0.12) and "zig -Os 1,000 .. gcc -Os 1,120 cycles" in at_os.describe()
    assert compiler_band.band("m4", "aes", "ttable4", "cbc-encrypt", None).spread == pytest.approx(1120 / 880 - 1)
    assert compiler_band.band("m7", "aes", "ttable4", "cbc-encrypt", "Os") is None  # not measured


def test_the_compiler_term_is_the_measured_spread_relative_to_our_build(stated_bands):
    rate = {"ttable4": 40.0, "bytewise": 100.0}
    context, _ = stated_context(lambda m: rate[m.job.variant])  # the same in every configuration
    # ours (zig -Os) is the fastest build at -Os: gcc -Os is 12 % slower, nothing faster was measured.
    slower, faster = with_cycles_per_byte(L4, "syn-band", 40.0 * 1.10), with_cycles_per_byte(L4, "syn-fast", 40.0 * 0.8)
    report = judge([slower, faster], PARTS, context)
    e = report.emulations[slower.id]
    assert e.position == "inside" and e.finding.verdict == "consistent"
    compiler = e.prediction.terms[0]
    assert compiler.name == "compiler" and (compiler.low, compiler.high) == (pytest.approx(1.0), pytest.approx(1.12))
    assert "zig -Os 1,000 .. gcc -Os 1,120 cycles" in compiler.source and "the page: GCC (STM32CubeIDE)" in compiler.source
    assert report.emulations[faster.id].position == "faster"


def test_a_bad_band_file_names_the_entry(tmp_path):
    bad = tmp_path / "compiler_bands.json"
    bands = {"m4 aes/ttable4 cbc-encrypt": {"zig -Os": 1000}, "m4 aes/ttable4 cbc-decrypt": {"zig -Os": "many"}}
    bad.write_text(json.dumps({"key": {}, "cycles": bands}, indent=1), encoding="utf-8")
    with pytest.raises(DataFileError, match=r"compiler_bands.json:7: field 'cycles.m4 aes/ttable4 cbc-decrypt': "
                                            r"expected build -> whole cycles"):
        compiler_band.load_bands(bad)
    bad.write_text('{"cycles": {\n', encoding="utf-8")
    with pytest.raises(DataFileError, match=r"compiler_bands.json:2: not valid JSON"):
        compiler_band.load_bands(bad)
    assert compiler_band.load_bands(tmp_path / "absent.json") == {}


def test_the_shipped_band_table_names_known_builds_and_variants():
    """compiler_bands.json (measured by `python -m refbench.sanity.compiler_band`): every entry is
    "core kernel/variant operation" of a catalogue variant, with "compiler -level" builds."""
    from refbench.kernels.catalog import families

    fams = families()
    for key, builds in compiler_band.load_bands().items():
        core, name, operation = key.split(" ")
        kernel, variant = name.split("/")
        assert variant in fams[kernel].variants and operation in {op.name for op in fams[kernel].operations}, key
        for build, cycles in builds.items():
            compiler, level = build.split(" -")
            assert compiler in compiler_band.BAND_COMPILERS and level in compiler_band.BAND_LEVELS, (key, build)
            assert cycles > 0


def test_a_spread_above_100_percent_still_bounds_both_sides(monkeypatch):
    """A 150 % spread allows a build 2.5 times slower than ours, not any speed."""
    wide = {"m4 aes/ttable4 cbc-encrypt": {"zig -Os": 1000, "gcc -Os": 2500},
            "m4 aes/bytewise cbc-encrypt": {"zig -Os": 1000, "gcc -Os": 2500}}
    monkeypatch.setattr(compiler_band, "bands", lambda: wide)
    context, _ = stated_context(lambda m: {"ttable4": 40.0, "bytewise": 100.0}[m.job.variant])
    inside = with_cycles_per_byte(L4, "syn-wide-in", 40.0 * 2.4)
    slower = with_cycles_per_byte(L4, "syn-wide-out", 100.0 * 2.7)
    faster = with_cycles_per_byte(L4, "syn-wide-fast", 40.0 * 0.8)
    report = judge([inside, slower, faster], PARTS, context)
    assert report.emulations[inside.id].position == "inside"
    assert report.emulations[slower.id].position == "slower"
    assert report.emulations[faster.id].position == "faster"


def test_the_band_over_several_levels_spans_them_all(stated_bands):
    both = compiler_band.band("m4", "aes", "ttable4", "cbc-encrypt", ("Os", "O3"))
    assert both.spread == pytest.approx(1120 / 880 - 1) and set(both.builds) == {"zig -Os", "gcc -Os", "zig -O3", "gcc -O3"}
