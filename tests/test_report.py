"""The HTML sanity report and the sanity command's emulator fields.

The HTML rendering is tested on stated emulations (no kernel runs); the command runs the real
pipeline on a few figures (one fresh cache shared by the module's tests). No verdict is asserted.
"""

from __future__ import annotations

import base64
import html
import json
import re

import pytest
from sanity_fakes import by_variant_and_kind, stated_context

from refbench.cli import main
from refbench.commands import sanity as sanity_command
from refbench.kernels import harness as harness_module
from refbench.published.model import load_figures, load_parts
from refbench.report.html import render_html
from refbench.sanity import judge
from refbench.sanity.memory_configs import MEMORY_NOTE

FIGURES = {f.id: f for f in load_figures()}
PARTS = load_parts()
#: AES-128-CBC encrypt: ST CMOX on the STM32WL55 (32 and 64 bytes), wolfSSL software on the STM32WB55,
#: a wolfSSL hardware figure, and a wolfSSL RSA figure (composed from the bignum kernels' calls).
CHOSEN = ["002-0001", "002-0003", "000-0148", "000-0261", "000-0113"]
#: For the HTML plots: also wolfSSL software AES-128-CBC on the STM32H753ZI (the same work on two boards).
PLOTTED = [*CHOSEN, "000-0074"]
WL55_LABELS = ["ART+prefetch on, 2 WS @ 48 MHz", "ART+prefetch off, 2 WS @ 48 MHz", "ART on, prefetch off, 2 WS @ 48 MHz",
               "ART off, prefetch on, 2 WS @ 48 MHz", "tables in SRAM, ART+prefetch on, 2 WS @ 48 MHz",
               "code in SRAM, 0 WS @ 48 MHz"]
KINDS = {"cache on": 1.0, "cache off": 1.4, "cache on, prefetch off": 1.1, "prefetch only": 1.2, "tables in SRAM": 0.95,
         "code in SRAM": 0.9, "flash": 1.0}
STATED = by_variant_and_kind({"bytewise": 120.0, "ttable4": 40.0, "ttable1": 50.0, "bitsliced": 90.0,
                              "umaal": 30.0, "umlal": 35.0, "c32": 40.0, "m0": 80.0,
                              "umaal_asm": 10.0, "umaal_asm_ladder": 10.0, "umull_asm": 20.0, "umull_asm_bytecopy": 22.0, "umull_umaal_asm": 18.0,
                              "m0_asm": 30.0,
                              "c29": 40.0, "thumb2_asm": 35.0}, KINDS)


@pytest.fixture(scope="module")
def shared_cache(tmp_path_factory):
    return tmp_path_factory.mktemp("measurements")


@pytest.fixture(autouse=True)
def isolated(shared_cache, monkeypatch):
    monkeypatch.setenv("REFBENCH_CACHE", str(shared_cache))


@pytest.fixture
def subset(monkeypatch):
    """The sanity command judges only the chosen figures (so the test runs few kernels)."""
    figures = [FIGURES[i] for i in CHOSEN]
    monkeypatch.setattr(sanity_command, "load_figures", lambda: figures)
    return figures


def test_html_is_one_self_contained_file_with_plots_and_every_figure():
    figures = [FIGURES[i] for i in PLOTTED]
    context, _ = stated_context(STATED)
    report = judge(figures, PARTS, context)
    page = render_html(report.judgements, report.emulations)
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    images = re.findall(r'src="data:image/png;base64,([A-Za-z0-9+/=]+)"', page)
    assert len(images) == 2
    assert all(base64.b64decode(data).startswith(b"\x89PNG") for data in images)
    assert not re.search(r'(src|href)="(http|/|\./)', page)  # nothing outside the file
    assert re.findall(r"<tr [^>]*><td>(\S+) ", page) == PLOTTED
    assert html.escape(MEMORY_NOTE) in page
    # the emulated range of each memory configuration, in the table (WL55 at 48 MHz, WB55 at 64 MHz)
    for label in (*WL55_LABELS, "ART+prefetch on, 3 WS @ 64 MHz", "code in SRAM, 0 WS @ 64 MHz"):
        assert f"{label}: " in page
    assert "ART+prefetch off, 3 WS @ 64 MHz: 56 .. 168" in page  # stated: 40 .. 120 c/B x 1.4
    assert "composed" in page  # the RSA figure: counted operations x the bignum kernels' cycles per call


def test_sanity_format_html(subset, capsys):
    assert main(["sanity", "--format", "html"]) == 0
    page = capsys.readouterr().out
    assert page.startswith("<!DOCTYPE html>") and "data:image/png;base64," in page and "002-0001" in page


def test_sanity_json_has_emulator_fields(subset, capsys):
    assert main(["sanity", "--format", "json"]) == 0
    rows = {r["id"]: r for r in json.loads(capsys.readouterr().out)["figures"]}
    cbc = rows["002-0001"]
    assert cbc["emulation"] == "emulated" and cbc["emulated_min"] < cbc["emulated_max"]
    assert isinstance(cbc["residual"], float) and cbc["explanation"]
    assert any(r.startswith("[emulator]") for r in cbc["reasons"])
    assert rows["000-0261"]["emulation"] == "hardware" and rows["000-0261"]["emulated_min"] is None
    assert rows["000-0113"]["emulation"] == "emulated" and rows["000-0113"]["emulated_unit"] == "cycles"
    assert [m["label"] for m in cbc["emulated_memory"]] == WL55_LABELS
    assert cbc["explanation_memory"] in WL55_LABELS and (cbc["emulated_board"], cbc["emulated_clock_mhz"]) == (
        "stm32wl55jc", 48.0)
    assert {"predicted", "band_low", "band_high", "ratio", "hypotheses"} <= set(cbc)


def test_sanity_table_counts_emulation(subset, capsys):
    assert main(["sanity"]) == 0
    out = capsys.readouterr().out
    assert "4 figures emulated" in out and "not emulated yet 0" in out and "hardware 1 (against the" in out


def test_sanity_bad_format_lists_html(subset, capsys):
    assert main(["sanity", "--format", "pdf"]) == 2
    assert "accepted: table, markdown, json, html" in capsys.readouterr().err


def test_a_filtered_report_runs_kernels_only_for_the_selected_figures(subset, capsys, tmp_path, monkeypatch):
    """--board WB55 --algorithm AES (000-0148): from an empty cache, every kernel run is on the
    STM32WB55; the rules still see all figures."""
    monkeypatch.setenv("REFBENCH_CACHE", str(tmp_path))
    boards: list[str] = []
    original = harness_module.KernelHarness.run

    def counting(self, inputs, operation=None, **kwargs):
        boards.append(self.machine.memory.name.split(" @ ")[0])
        return original(self, inputs, operation, **kwargs)

    monkeypatch.setattr(harness_module.KernelHarness, "run", counting)
    assert main(["sanity", "--board", "WB55", "--algorithm", "AES", "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)["figures"]
    assert [r["id"] for r in rows] == ["000-0148"] and rows[0]["emulation"] == "emulated"
    assert len(boards) == len(rows[0]["emulated_variants"]) and set(boards) == {"stm32wb55rg"}


def test_no_emulator_runs_no_kernel(subset, capsys, monkeypatch):
    def no_run(self, *args, **kwargs):
        raise AssertionError("a kernel ran with --no-emulator")

    monkeypatch.setattr(harness_module.KernelHarness, "run", no_run)
    assert main(["sanity", "--no-emulator", "--format", "json"]) == 0
    rows = {r["id"]: r for r in json.loads(capsys.readouterr().out)["figures"]}
    assert rows["002-0001"]["emulation"] == "not emulated" and rows["000-0261"]["emulation"] == "hardware"


def test_bad_workers_setting_is_an_option_error(subset, capsys, monkeypatch):
    monkeypatch.setenv("REFBENCH_WORKERS", "abc")
    assert main(["sanity", "--format", "json"]) == 2
    assert "Invalid REFBENCH_WORKERS ('abc')" in capsys.readouterr().err
