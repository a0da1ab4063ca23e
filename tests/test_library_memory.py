"""A library's own memory configuration (builds.toml ``<library>.memory.<board>``: what its example
projects for that board leave) is the configuration its figures are predicted in; other libraries'
figures on the same board keep the board's start-up default, and a page's statement wins over both.

The memory table is synthetic (monkeypatched into the build model) and so are the figures (a real
figure lends only its page context: CycloneCRYPTO 2.5.0 on the NUCLEO-F756ZG, AES-128-CBC encrypt,
software); a stated executor gives each configuration kind its own rate, so the prediction's value
names the configuration it was made in. No real figure's verdict is tested."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from sanity_fakes import stated_context, with_cycles_per_byte

from refbench.published.model import load_figures, load_parts
from refbench.sanity import builds, judge
from refbench.sanity.builds import BUILDS_PATH, build_of, load_builds

FIGURES = {f.id: f for f in load_figures()}
PARTS = load_parts()
CYCLONE_F756 = FIGURES["003-0007"]
BOARD = "stm32f756zg"
#: Cycles per byte by configuration kind: the prediction's value says which kind it was made in.
RATES = {"cache on": 10.0, "cache off": 30.0, "tables in SRAM": 9.0, "code in SRAM": 8.0}


@pytest.fixture
def synthetic_memory(monkeypatch):
    """The build model with a board default of caches off and CycloneCRYPTO's example project
    leaving the caches on, both on the F756 (synthetic sources)."""
    real = builds.builds_data()
    libraries = {key: dataclasses.replace(entry, memory={}) for key, entry in real.libraries.items()}
    libraries["cyclone"] = dataclasses.replace(libraries["cyclone"],
                                               memory={BOARD: ("cache on", "synthetic example project")})
    data = dataclasses.replace(real, libraries=libraries, memory={BOARD: ("cache off", "synthetic board default")})
    monkeypatch.setattr(builds, "builds_data", lambda: data)
    return data


def test_the_library_example_project_wins_over_the_board_default_and_the_page_over_both(synthetic_memory):
    own = build_of(CYCLONE_F756).memory(BOARD)
    assert (own.kind, own.stated) == ("cache on", False)
    assert own.describe() == "cache on (CycloneCRYPTO's example project: synthetic example project)"
    other = build_of(dataclasses.replace(CYCLONE_F756, library="a C library without documented options"))
    assert other.memory(BOARD).describe() == "cache off (vendor start-up default: synthetic board default)"
    stated = build_of(dataclasses.replace(CYCLONE_F756, cache="caches disabled")).memory(BOARD)
    assert (stated.kind, stated.stated) == ("cache off", True)
    assert build_of(CYCLONE_F756).memory("stm32u385rg") is None  # neither table names that board here


def test_a_page_is_predicted_in_its_library_configuration_and_others_in_the_board_default(synthetic_memory):
    cyclone = with_cycles_per_byte(CYCLONE_F756, "syn-lib-memory", 12.0)
    other = with_cycles_per_byte(CYCLONE_F756, "syn-board-memory", 12.0,
                                 library="a C library without documented options")
    context, _ = stated_context(lambda m: RATES[m.config.kind])
    emulations = judge([cyclone, other], PARTS, context).emulations
    own, board = emulations[cyclone.id].prediction, emulations[other.id].prediction
    assert own.predicted == pytest.approx(RATES["cache on"]) and own.memory_labels == ("L1 caches on, 7 WS @ 216 MHz",)
    assert "CycloneCRYPTO's example project: synthetic example project" in own.basis
    assert board.predicted == pytest.approx(RATES["cache off"])
    assert board.memory_labels and all("L1 caches off" in label for label in board.memory_labels)
    assert "vendor start-up default: synthetic board default" in board.basis


def test_a_library_memory_kind_must_be_a_configuration_kind(tmp_path: Path):
    text = BUILDS_PATH.read_text(encoding="utf-8").replace("[cyclone]\n", "[cyclone.memory.stm32g071rb]\n"
                                                           'kind = "caches sometimes"\nsource = "x"\n\n[cyclone]\n', 1)
    bad = tmp_path / "builds.toml"
    bad.write_text(text, encoding="utf-8")
    with pytest.raises(ValueError, match=r"builds.toml:\d+: field 'cyclone.memory.stm32g071rb.kind': expected one of"):
        load_builds(bad)


def test_every_library_memory_entry_names_a_profiled_board_and_a_source():
    from cortexm_emu.boards import board_names

    for entry in builds.builds_data().libraries.values():
        for board, (kind, source) in entry.memory.items():
            assert board in board_names() and kind and source, f"{entry.key}.memory.{board}"
