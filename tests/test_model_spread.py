"""The model's own spread (refbench/derived/model_spreads.json, refbench/sanity/model_spread.py):
the shipped file's schema, errors naming file and field, the measurement (the model's end and
each [[other_end]] item of the core), and the band's "core model" term derived from it on cores
without held-out rows (synthetic tables: no published figure's verdict is pinned)."""

from __future__ import annotations

import json

import pytest

from cortexm_emu.datafile import DataFileError
from cortexm_emu.timing.registry import other_ends
from refbench.heldout import runner
from refbench.heldout.runner import HeldOutSummary
from refbench.sanity import model_spread
from refbench.sanity.model_spread import MODEL_END, SPREADS_PATH, Spread, load_spreads
from refbench.sanity.prediction import model_error_term


def test_shipped_file_schema():
    document = json.loads(SPREADS_PATH.read_text(encoding="utf-8"))
    table = load_spreads()
    assert table, "model_spreads.json holds no measurement"
    assert document["bytes"] == model_spread.SPREAD_BYTES
    assert document["build"] == f"{model_spread.SPREAD_COMPILER} -{model_spread.SPREAD_OPT}"
    cores = {name.split(" ")[0] for name in table}
    assert set(document["items"]) == cores
    for core in cores:
        stated = {str(e.item): e.source for e in other_ends(core)}
        assert document["items"][core] == stated, core  # the items and their sources, from the core's data
    for name, ends in table.items():
        core = name.split(" ")[0]
        assert set(ends) <= {MODEL_END, *document["items"][core]}, name
        assert MODEL_END in ends and all(c > 0 for c in ends.values()), name
    assert set(document["key"]) == {"timing_models", "kernels", "compilers"}


@pytest.mark.parametrize("edit, field", [
    (lambda t: t["cycles"].update({"m7 aes/ttable4 ctr": {"32": 5}}), "cycles.m7 aes/ttable4 ctr.model"),
    (lambda t: t["cycles"].update({"m7 aes/ttable4 ctr": {"model": 5, "32": 1.5}}), "cycles.m7 aes/ttable4 ctr"),
    (lambda t: t["cycles"].update({"m7 aes/ttable4 ctr": {"model": 5, "static": 4}}),
     "cycles.m7 aes/ttable4 ctr.static"),
    (lambda t: t["cycles"].update({"m7 aes-ttable4": {"model": 5}}), "cycles.m7 aes-ttable4"),
    (lambda t: t.pop("cycles"), "cycles"),
])
def test_malformed_file_names_file_and_field(tmp_path, edit, field):
    document = {"cycles": {"m7 aes/ttable4 ecb": {"model": 10, "32": 11}}}
    edit(document)
    path = tmp_path / "model_spreads.json"
    path.write_text(json.dumps(document, indent=1))
    with pytest.raises(DataFileError) as info:
        load_spreads(path)
    assert "model_spreads.json" in str(info.value) and field in str(info.value)


def test_spread_factors_are_each_items_direction():
    s = Spread("m7 x/y op", {MODEL_END: 1000, "32": 1100, "36": 950})
    assert s.ratios == {32: pytest.approx(1.1), 36: pytest.approx(0.95)}
    assert (s.low, s.high) == (pytest.approx(0.95), pytest.approx(1.1))
    both_slow = Spread("m7 x/y op", {MODEL_END: 1000, "32": 1100, "36": 1050})
    assert (both_slow.low, both_slow.high) == (1.0, pytest.approx(1.1 * 1.05))


SYNTHETIC = {
    "m7 aes/ttable4 ctr": {MODEL_END: 1000, "32": 1100, "36": 950},
    "m7 sha256/rolled hash": {MODEL_END: 2000, "32": 2000, "36": 2400},
    "m33 aes/ttable4 ctr": {MODEL_END: 1000, "41": 1030},
    "m3 aes/ttable4 ctr": {MODEL_END: 1000, "6": 1200, "13": 990},
}


@pytest.fixture
def synthetic(monkeypatch):
    monkeypatch.setattr(model_spread, "spreads", lambda: SYNTHETIC)
    monkeypatch.setattr(runner, "held_out_error", lambda: {"m4": HeldOutSummary("m4", 9, -4.0, 5.0, 10.0)})


def test_core_model_term_is_the_variants_spread_where_no_core_rows(synthetic):
    term = model_error_term("m7", (("aes", "ttable4", "ctr"),))
    assert (term.low, term.high) == (pytest.approx(0.95), pytest.approx(1.1))
    assert "not an error measured against hardware" in term.source
    assert "APPROXIMATIONS.md 32, 36" in term.source and "m7 aes/ttable4 ctr" in term.source
    two = model_error_term("m7", (("aes", "ttable4", "ctr"), ("sha256", "rolled", "hash")))
    assert (two.low, two.high) == (pytest.approx(0.95), pytest.approx(1.2))  # the widest of the chosen variants


def test_unmeasured_variant_takes_the_cores_widest_spread_and_says_so(synthetic):
    term = model_error_term("m7", (("chacha20", "ref", "encrypt"),))
    assert (term.low, term.high) == (1.0, pytest.approx(1.2))  # sha256/rolled: the widest on m7
    assert "chacha20/ref encrypt not measured at both ends on m7" in term.source


def test_a_core_with_held_out_rows_keeps_its_measured_error(synthetic):
    term = model_error_term("m4", (("aes", "ttable4", "ctr"),))
    assert (term.low, term.high) == (pytest.approx(1 / 1.10), pytest.approx(1.10))
    assert "over 9 whole-program rows on m4" in term.source


def test_m3_takes_the_wider_of_the_m4_error_and_its_own_spread(synthetic):
    term = model_error_term("m3", (("aes", "ttable4", "ctr"),))
    assert term.low == pytest.approx(1 / 1.10)  # the M4's measured error is wider on the fast side
    assert term.high == pytest.approx(1.2)  # the M3's own spread (P = 3) is wider on the slow side
    assert "the same pipeline and rule set" in term.source and "not an error measured against hardware" in term.source


def test_a_core_without_other_end_items_keeps_validate_and_says_why(synthetic):
    assert not other_ends("m0plus")
    term = model_error_term("m0plus", (("aes", "ttable4", "ctr"),))
    assert "transcription check, not held out" in term.source
    assert "states no undocumented two-ended rule" in term.source


def test_measurement_runs_the_model_and_each_item_and_keeps_current_entries(monkeypatch):
    runs = []

    class FakeMeasurer:
        def __init__(self, core, opt, compiler, cache, timing):
            self.end = timing.get("other_end", MODEL_END)
            assert (compiler, opt) == ("zig", "Os")

        def measure(self, job):
            runs.append((job.kernel, self.end, job.size))
            return type("M", (), {"verified": True, "cycles": 100 + len(runs)})()

    monkeypatch.setattr("refbench.measure.Measurer", FakeMeasurer)
    monkeypatch.setattr("refbench.measure.ResultCache", lambda: None)
    targets = [("m33", "aes", "ttable4", "ctr", 16, 0, 512), ("m33", "sha256", "rolled", "hash", None, 0, 512)]
    known = {"m33 sha256/rolled hash": {MODEL_END: 7, "41": 8}}
    key = model_spread.key_of_spreads(known)
    out = model_spread.measure_spreads(targets, known=known, known_key=key)
    assert runs == [("aes", MODEL_END, 512), ("aes", "41", 512)]  # sha256's entry is current: kept
    assert out["m33 sha256/rolled hash"] == {MODEL_END: 7, "41": 8}
    assert set(out["m33 aes/ttable4 ctr"]) == {MODEL_END, "41"}
