"""One data-file error: every reader of a data file raises cortexm_emu.datafile.DataFileError, whose
message names the file, the line and the field; a subclass that adds nothing is a second name for it."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: Subclasses of DataFileError still defined, each with its reason. A new one fails the test below.
SUBCLASSES = {
    ("cortexm_emu/timing/data.py", "TimingDataError"): "raised across cortexm_emu/timing, which another change "
    "edits in this wave: DataFileError once it is merged",
    ("cortexm_emu/errors.py", "BoardDataError"): "also an EmulatorError (cortexm-emu's base, caught by its CLI); "
    "raised across cortexm_emu/boards, which another change edits in this wave",
}


def subclasses_of_the_data_file_error() -> set[tuple[str, str]]:
    found = set()
    for package in ("refbench", "cortexm_emu"):
        for path in sorted((ROOT / package).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.ClassDef) and any(
                        isinstance(base, ast.Name) and base.id == "DataFileError" for base in node.bases):
                    found.add((path.relative_to(ROOT).as_posix(), node.name))
    return found


def test_data_files_raise_the_one_data_file_error() -> None:
    found = subclasses_of_the_data_file_error()
    assert found == set(SUBCLASSES), sorted(found ^ set(SUBCLASSES))


def test_the_sequence_and_held_out_readers_raise_it(tmp_path) -> None:
    from cortexm_emu.datafile import DataFileError
    from cortexm_emu.validate import load_sequences
    from refbench.heldout.runner import load_held_out

    bad = tmp_path / "bad.toml"
    bad.write_text("[[sequence]\n", encoding="utf-8")
    for load in (load_sequences, load_held_out):
        with pytest.raises(DataFileError, match=r"bad\.toml:1") as raised:
            load(bad)
        assert type(raised.value) is DataFileError
