"""``cortexm-emu validate``: published microbenchmarks (cortexm_emu/validation/sequences.toml)
against the emulated cores. The default run checks a small subset, the output and JSON fields,
the error arithmetic and the data-file errors; the whole suite runs under ``-m validate`` (.ci/validate).
Only the harness is asserted here, never a model's agreement with a published number (that is
what the report shows)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cortexm_emu.cli import main
from cortexm_emu.datafile import DataFileError
from cortexm_emu.validate import (
    SEQUENCES,
    ValidationRow,
    ValidationSequence,
    as_json,
    load_sequences,
    render_source,
    run_validation,
    summarize,
)

SMALL = ["ldm_four", "trm_ldr_ldr", "v6m_loop_taken"]


def test_every_core_has_sequences_and_every_row_cites_a_source():
    sequences = load_sequences()
    cores = {core for seq in sequences for core in seq.published}
    assert cores == {"m0", "m0plus", "m3", "m4", "m7", "m33"}
    assert all(len(seq.source) >= 20 for seq in sequences)


def test_error_is_emulated_minus_published_over_published():
    row = ValidationRow("m4", "x", "nop", published=4.0, emulated=5.0, source="s")
    assert row.error_percent == pytest.approx(25.0)
    low = ValidationRow("m4", "y", "nop", published=2.0, emulated=1.0, source="s")
    summary = summarize([row, low])
    assert (summary[0].n, summary[0].mean_abs_error, summary[0].max_abs_error) == (2, pytest.approx(37.5), 50.0)


def test_small_subset_runs_on_every_core_it_names():
    rows = run_validation(names=SMALL)
    assert {(r.name, r.core) for r in rows} >= {("ldm_four", c) for c in ("m0", "m0plus", "m3", "m4", "m7", "m33")}
    for r in rows:
        assert r.emulated > 0 and r.published > 0
        assert r.error_percent == pytest.approx((r.emulated - r.published) / r.published * 100)


def test_modes_difference_out_the_return_and_setup():
    # a sequence of N NOPs on the M0 (NOP 1 cycle, DDI 0432C Table 3.1, no pairing on that core)
    for mode in ("isolated", "steady"):
        seq = ValidationSequence("nops", mode, (), ("nop",) * 3, {"m0": 3.0}, "a stated test source", 1)
        (row,) = run_validation(["m0"], sequences=[seq])
        assert row.emulated == 3.0, mode


def test_loop_mode_needs_a_count_in_the_setup(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text(
        '[[sequence]]\nname = "x"\nmode = "loop"\nbody = ["1:", "subs r2, #1", "bne 1b"]\n'
        'published = { m0 = 4 }\nsource = "a source long enough to count"\n'
    )
    with pytest.raises(DataFileError, match=r"bad\.toml:1: field 'sequence\[0\]\.setup'"):
        load_sequences(path)


@pytest.mark.parametrize(
    "line, field",
    [
        ('mode = "fast"', "mode"),
        ('published = { m9 = 3 }', "published"),
        ('body = ["add sp, #4"]', "body"),
        ('source = "short"', "source"),
    ],
)
def test_bad_sequence_names_file_line_and_field(tmp_path, line, field):
    good = {
        "mode": 'mode = "steady"',
        "published": "published = { m0 = 1 }",
        "body": 'body = ["nop"]',
        "source": 'source = "a source long enough to count"',
    }
    good[field] = line
    path = tmp_path / "seq.toml"
    path.write_text("# header\n\n[[sequence]]\nname = \"x\"\n" + "\n".join(good.values()) + "\n")
    with pytest.raises(DataFileError, match=rf"seq\.toml:3: field 'sequence\[0\]\.{field}'"):
        load_sequences(path)


def test_sequence_options_select_the_timing_model(tmp_path):
    # MULS with the small multiplier: 32 cycles (DDI 0484C Table 3.1); the option reaches model_for
    seq = ValidationSequence("muls", "steady", (), ("muls r4, r1, r4",), {"m0plus": 32.0}, "a stated test source", 1,
                             (("multiplier", "small"),))
    (row,) = run_validation(["m0plus"], sequences=[seq])
    assert row.emulated == 32.0
    path = tmp_path / "opt.toml"
    path.write_text(
        '[[sequence]]\nname = "x"\nmode = "steady"\nbody = ["nop"]\npublished = { m4 = 1 }\n'
        'options = { multiplier = "small" }\nsource = "a source long enough to count"\n'
    )
    with pytest.raises(DataFileError, match=r"opt\.toml:1: field 'sequence\[0\]\.options': Invalid option 'multiplier'"):
        load_sequences(path)


def test_unknown_core_and_name_are_rejected():
    with pytest.raises(ValueError, match=r"Invalid core 'm5'"):
        run_validation(["m5"])
    with pytest.raises(ValueError, match=r"Invalid sequence name\(s\) nosuch"):
        run_validation(names=["nosuch"])


def test_rendered_source_has_two_functions_per_sequence():
    seqs = [s for s in load_sequences() if s.name in SMALL]
    text = render_source(seqs)
    for seq in seqs:
        assert text.count(f"v_{seq.name}_") == 2 * 5  # .global, .type, label and .size (twice) per variant


def test_cli_json_fields(capsys):
    assert main(["validate", "--core", "m0plus", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert set(doc) == {"rows", "summary"}
    assert set(doc["rows"][0]) == {"core", "name", "sequence", "published", "emulated", "error_percent", "source"}
    assert doc["summary"] == [
        {"core": "m0plus", "n": len(doc["rows"]), "mean_abs_error_percent": doc["summary"][0]["mean_abs_error_percent"],
         "max_abs_error_percent": max(abs(r["error_percent"]) for r in doc["rows"])}
    ]


def test_cli_table_prints_a_summary_line_per_core(capsys):
    assert main(["validate", "--core", "m0", "--core", "m3"]) == 0
    out = capsys.readouterr().out
    assert "m0: n=" in out and "m3: n=" in out and "mean |error|" in out


@pytest.mark.slow
@pytest.mark.validate
def test_full_validation_suite_runs_on_every_core():
    rows = run_validation()
    assert {r.core for r in rows} == {"m0", "m0plus", "m3", "m4", "m7", "m33"}
    assert len(rows) == sum(len(s.published) for s in load_sequences())
    doc = as_json(rows)
    assert len(doc["summary"]) == 6
    assert Path(SEQUENCES).is_file()
