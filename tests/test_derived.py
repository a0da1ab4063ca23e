"""Derived data is keyed by what produced it (refbench/derived/): a file whose key no longer
matches the timing models, kernel sources or compilers fails here, naming what changed and the
command that measures it again."""

from __future__ import annotations

import json

import pytest

from refbench.derived import NOT_INSTALLED, key_of, stale
from refbench.derived.__main__ import stale_files
from refbench.sanity import compiler_band


@pytest.mark.parametrize("name", sorted(stale_files()))
def test_derived_file_is_current(name):
    parts = stale_files()[name]
    assert not parts, (f"refbench/derived/{name} is stale ({'; '.join(parts)}): run `python -m refbench.derived` "
                       "and review the diff")


def test_a_kernel_edit_makes_its_entries_stale_and_only_those_are_measured_again(tmp_path, monkeypatch):
    current = key_of(["m4"], ["aes/ttable4", "sha256/rolled"], ["zig"])
    edited = json.loads(json.dumps(current))
    edited["kernels"]["aes/ttable4"] = "0" * 64
    assert stale(edited, current) == [f"kernels aes/ttable4: {'0' * 64} -> {current['kernels']['aes/ttable4']}"]
    assert stale(None, current) == ["the file has no key (what produced it is not recorded)"]
    assert stale(current, current) == []

    measured = []

    class FakeMeasurer:
        def __init__(self, core, opt, compiler, cache):
            self.compiler, self.opt = compiler, opt

        def measure(self, job):
            measured.append((job.kernel, job.variant, self.compiler, self.opt))
            return type("M", (), {"verified": True, "cycles": 5})()

    monkeypatch.setattr("refbench.measure.Measurer", FakeMeasurer)
    monkeypatch.setattr("refbench.measure.ResultCache", lambda: None)
    monkeypatch.setattr(compiler_band, "BAND_COMPILERS", ("zig",))
    known = {"m4 aes/ttable4 cbc-encrypt": {"zig -Os": 100}, "m4 sha256/rolled sha-256": {"zig -Os": 200}}
    targets = {("m4", "aes", "ttable4", "cbc-encrypt", None, 0): {"Os"},
               ("m4", "sha256", "rolled", "sha-256", None, 0): {"Os"}}
    out = compiler_band.measure_bands(targets, known=known, known_key=edited)
    assert measured == [("aes", "ttable4", "zig", "Os")]  # the edited kernel only
    assert out == {"m4 aes/ttable4 cbc-encrypt": {"zig -Os": 5}, "m4 sha256/rolled sha-256": {"zig -Os": 200}}


def test_a_compiler_missing_here_is_not_compared():
    current = key_of(["m4"], ["aes/ttable4"], ["zig"])
    current["compilers"]["gcc"] = NOT_INSTALLED
    stored = json.loads(json.dumps(current))
    stored["compilers"]["gcc"] = "arm-none-eabi-gcc (15:12.2.rel1-1) 12.2.1 20221205"
    assert stale(stored, current) == []


def test_a_file_that_lacks_planned_entries_is_incomplete_whatever_its_key():
    # a run stopped after its first cores wrote a file whose key holds for what it holds
    from refbench.derived.__main__ import incomplete

    planned = {compiler_band.entry_name("m4", "aes", "ttable4", "ctr"), compiler_band.entry_name("m7", "aes", "ttable4", "ctr")}
    assert incomplete(planned, {compiler_band.entry_name("m4", "aes", "ttable4", "ctr"): {}}) == [
        "incomplete: 1 of 2 planned entries missing (first: m7 aes/ttable4 ctr)"]
    assert incomplete(planned, dict.fromkeys(planned)) == []
