"""The HTML sanity report and the sanity command's emulator fields (on a few figures, one fresh
cache shared by the module's tests)."""

from __future__ import annotations

import base64
import html
import json
import re

import pytest

from refbench.cli import main
from refbench.commands import sanity as sanity_command
from refbench.published.model import load_figures, load_parts
from refbench.report.html import render_html
from refbench.sanity import emulated, judge
from refbench.sanity.emulated import MEMORY_NOTE

FIGURES = {f.id: f for f in load_figures()}
PARTS = load_parts()
#: AES-128-CBC encrypt: ST CMOX on the STM32WL55 (32 and 64 bytes), wolfSSL software on the STM32WB55
#: and the STM32H753ZI (Cortex-M7: the same work on two boards for plot 2), and a wolfSSL hardware figure.
CHOSEN = ["002-0001", "002-0003", "000-0148", "000-0261", "000-0074"]
WL55_LABELS = ["ART+prefetch on, 2 WS @ 48 MHz", "ART+prefetch off, 2 WS @ 48 MHz", "ART on, prefetch off, 2 WS @ 48 MHz",
               "ART off, prefetch on, 2 WS @ 48 MHz", "tables in SRAM, ART+prefetch on, 2 WS @ 48 MHz",
               "code in SRAM, 0 WS @ 48 MHz"]


@pytest.fixture(scope="module")
def shared_cache(tmp_path_factory):
    return tmp_path_factory.mktemp("measurements")


@pytest.fixture(autouse=True)
def isolated(shared_cache, monkeypatch):
    """The module's cache and a fresh memo; the Cortex-M7 figure is treated as on a core without a
    timing model (so the "not emulated yet" path is shown and the test runs only Cortex-M4 kernels)."""
    monkeypatch.setenv("REFBENCH_CACHE", str(shared_cache))
    monkeypatch.setattr(emulated, "_MEMO", {})
    monkeypatch.setattr(emulated, "TIMED_CORES", ("m0", "m0plus", "m3", "m4"))


@pytest.fixture
def subset(monkeypatch):
    """The sanity command judges only the chosen figures (so the test runs few kernels)."""
    figures = [FIGURES[i] for i in CHOSEN]
    monkeypatch.setattr(sanity_command, "load_figures", lambda: figures)
    return figures


def test_html_is_one_self_contained_file_with_plots_and_every_figure(subset):
    judgements = judge(subset, PARTS)
    emulations = emulated.emulate(subset, PARTS)
    page = render_html(judgements, emulations)
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    images = re.findall(r'src="data:image/png;base64,([A-Za-z0-9+/=]+)"', page)
    assert len(images) == 2
    assert all(base64.b64decode(data).startswith(b"\x89PNG") for data in images)
    assert not re.search(r'(src|href)="(http|/|\./)', page)  # nothing outside the file
    rows = re.findall(r"<tr><td>(\S+) ", page)
    assert rows == CHOSEN
    assert html.escape(MEMORY_NOTE) in page
    # the emulated range of each memory configuration, in the table (WL55 at 48 MHz, WB55 at 64 MHz)
    for label in (*WL55_LABELS, "ART+prefetch on, 3 WS @ 64 MHz", "code in SRAM, 0 WS @ 64 MHz"):
        assert f"{label}: " in page
    assert "not emulated yet" in page  # the Cortex-M7 figure, counted in the summary


def test_sanity_format_html(subset, capsys):
    assert main(["sanity", "--format", "html"]) == 0
    page = capsys.readouterr().out
    assert page.count("data:image/png;base64,") == 2 and "002-0001" in page


def test_sanity_json_has_emulator_fields(subset, capsys):
    assert main(["sanity", "--format", "json"]) == 0
    rows = {r["id"]: r for r in json.loads(capsys.readouterr().out)}
    cbc = rows["002-0001"]
    assert cbc["emulation"] == "emulated" and cbc["emulated_min"] < cbc["emulated_max"]
    assert isinstance(cbc["residual"], float) and cbc["explanation"]
    assert any(r.startswith("[emulator]") for r in cbc["reasons"])
    assert rows["000-0261"]["emulation"] == "hardware" and rows["000-0261"]["emulated_min"] is None
    assert rows["000-0074"]["emulation"] == "not emulated yet"
    assert [m["label"] for m in cbc["emulated_memory"]] == WL55_LABELS
    assert cbc["explanation_memory"] in cbc["explanation"] and (cbc["emulated_board"], cbc["emulated_clock_mhz"]) == (
        "stm32wl55jc", 48.0)


def test_sanity_table_counts_emulation(subset, capsys):
    assert main(["sanity"]) == 0
    out = capsys.readouterr().out
    assert "3 figures emulated" in out and "not emulated yet 1" in out and "hardware 1 (against the" in out


def test_sanity_bad_format_lists_html(subset, capsys):
    assert main(["sanity", "--format", "pdf"]) == 2
    assert "accepted: table, markdown, json, html" in capsys.readouterr().err


def test_a_filtered_report_runs_kernels_only_for_the_selected_figures(subset, capsys):
    """--board WB55 (000-0148): rule e emulates that figure alone; the rules still see all figures."""
    assert main(["sanity", "--board", "WB55", "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["id"] for r in rows] == ["000-0148"] and rows[0]["emulation"] == "emulated"
    assert {figure.id for figure, _ in emulated._MEMO} == {"000-0148"}


def test_no_emulator_runs_no_kernel(subset, capsys):
    assert main(["sanity", "--no-emulator", "--format", "json"]) == 0
    rows = {r["id"]: r for r in json.loads(capsys.readouterr().out)}
    assert rows["002-0001"]["emulation"] == "not emulated" and rows["000-0261"]["emulation"] == "hardware"
    assert not emulated._MEMO


def test_bad_workers_setting_is_an_option_error(subset, capsys, monkeypatch):
    monkeypatch.setenv("REFBENCH_WORKERS", "abc")
    assert main(["sanity", "--format", "json"]) == 2
    assert "Invalid REFBENCH_WORKERS ('abc')" in capsys.readouterr().err
