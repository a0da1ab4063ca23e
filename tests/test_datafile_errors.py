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


def loader_cases():
    """(loader, shipped file, the first match of a pattern to corrupt, its corruption, the field's last key)."""
    from refbench.inputs.build import OPTIONS_PATH, load_build_options
    from refbench.published.library_units import UNITS_PATH, load_unit_rules
    from refbench.published.model import SOURCES_PATH, load_sources
    from refbench.sanity.builds import BUILDS_PATH, load_builds
    from refbench.sanity.libraries import LIBRARIES_PATH, load_libraries
    from refbench.sanity.pubkey_cost import COSTS_PATH, load_costs
    from refbench.sanity.pubkey_whole import RECORD_PATH, recorded
    from refbench.sanity.workloads import WORKLOADS_PATH, load_workloads

    return [
        pytest.param(load_builds, BUILDS_PATH, r"^sections = .*$", 'sections = "one"', "sections", id="builds"),
        pytest.param(load_libraries, LIBRARIES_PATH, r"^closed = false$", 'closed = "no"', "closed", id="libraries"),
        pytest.param(load_workloads, WORKLOADS_PATH, r"^num_blocks = \d+$", 'num_blocks = "many"', "num_blocks",
                     id="workloads"),
        pytest.param(load_costs, COSTS_PATH, r"^bytes = \d+$", 'bytes = "32"', "bytes", id="pubkey_costs"),
        pytest.param(recorded, RECORD_PATH, r"^full = \d+$", "full = 0", "full", id="pubkey_composition"),
        pytest.param(load_sources, SOURCES_PATH, r'^status = "\w+"$', 'status = "guessed"', "status", id="sources"),
        pytest.param(load_unit_rules, UNITS_PATH, r'^since = "[^"]*"$', 'since = "new"', "since", id="library_units"),
        pytest.param(load_build_options, OPTIONS_PATH, r'^name = "\w+"$', 'name = "not a macro"', "name",
                     id="build_options"),
    ]


@pytest.mark.parametrize(("load", "source", "pattern", "corruption", "key"), loader_cases())
def test_a_bad_field_is_named_by_file_line_and_field(tmp_path, load, source, pattern, corruption, key) -> None:
    import re

    from cortexm_emu.datafile import DataFileError

    text = source.read_text(encoding="utf-8")
    match = re.search(pattern, text, re.MULTILINE)
    assert match, pattern
    line = text.count("\n", 0, match.start()) + 1
    bad = tmp_path / source.name
    bad.write_text(text[: match.start()] + corruption + text[match.end():], encoding="utf-8")
    with pytest.raises(DataFileError) as raised:
        load(bad)
    error = raised.value
    assert type(error) is DataFileError
    assert (error.path, error.line) == (str(bad), line)
    assert error.field is not None and error.field.split(".")[-1] == key
    assert str(error).startswith(f"{bad}:{line}: field {error.field!r}: ")


def test_undotted_inverts_dotted() -> None:
    from cortexm_emu.datafile import dotted, undotted

    for field in (("flash", "wait_states", 2, "max_mhz"), ("pubkey", 0), ("fields", "P-256", "kinds", "a"), ("x",)):
        assert undotted(dotted(field)) == field
