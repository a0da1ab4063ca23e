"""One data-file error: every reader of a data file raises cortexm_emu.datafile.DataFileError, whose
message names the file, the line and the field; a subclass that adds nothing is a second name for it."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def subclasses_of_the_data_file_error() -> set[tuple[str, str]]:
    found = set()
    for package in ("refbench", "cortexm_emu"):
        for path in sorted((ROOT / package).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.ClassDef) and any(
                        getattr(base, "id", getattr(base, "attr", None)) == "DataFileError" for base in node.bases):
                    found.add((path.relative_to(ROOT).as_posix(), node.name))
    return found


def test_no_subclass_of_the_data_file_error() -> None:
    assert not subclasses_of_the_data_file_error()


def test_every_toml_reader_raises_it_naming_the_line(tmp_path) -> None:
    from cortexm_emu.boards import load_board_file
    from cortexm_emu.datafile import DataFileError
    from cortexm_emu.timing.data import parse_core_data
    from cortexm_emu.validate import load_sequences
    from refbench.heldout.runner import load_held_out
    from refbench.inputs.build import load_build_options
    from refbench.published.library_units import load_unit_rules
    from refbench.published.model import load_sources
    from refbench.sanity.builds import load_builds
    from refbench.sanity.libraries import load_libraries
    from refbench.sanity.pubkey_cost import load_costs
    from refbench.sanity.pubkey_whole import recorded
    from refbench.sanity.workloads import load_workloads

    bad = tmp_path / "bad.toml"
    bad.write_text("# a comment\n[[sequence]\n", encoding="utf-8")
    for load in (load_sequences, load_held_out, load_board_file, parse_core_data, load_build_options,
                 load_unit_rules, load_sources, load_builds, load_libraries, load_costs, recorded, load_workloads):
        with pytest.raises(DataFileError, match=r"bad\.toml:2: not valid TOML") as raised:
            load(bad)
        assert type(raised.value) is DataFileError
        assert raised.value.text == "[[sequence]"
