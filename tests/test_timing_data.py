"""Schema and citation checks of the per-core timing tables (cortexm_emu/timing/data/*.toml)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cortexm_emu.datafile import DataFileError
from cortexm_emu.timing.data import DATA_DIR, OPTIONAL_RULES, RULES, parse_core_data

CORES = ["m0", "m0plus", "m3", "m4"]
DOCUMENT_IDS = {"m0": "DDI 0432C", "m0plus": "DDI 0484C", "m3": "100165_0201", "m4": "DDI 0439D"}


@pytest.mark.parametrize("core", CORES)
def test_every_class_cites_the_core_manual(core):
    data = parse_core_data(DATA_DIR / f"{core}.toml")
    assert data.core == core
    assert DOCUMENT_IDS[core] in data.document
    for entry in data.classes:
        assert DOCUMENT_IDS[core] in entry.source, entry.name


@pytest.mark.parametrize("core", CORES)
def test_every_rule_states_its_source(core):
    data = parse_core_data(DATA_DIR / f"{core}.toml")
    assert set(RULES) <= set(data.rule_sources) <= set(RULES) | set(OPTIONAL_RULES)
    for name, source in data.rule_sources.items():
        assert len(source) > 20, name


@pytest.mark.parametrize("core", CORES)
def test_pattern_classes_come_before_their_general_class(core):
    """The first matching class wins, so an operand-pattern class must precede the plain one,
    and a mnemonic may have only one class without a pattern."""
    data = parse_core_data(DATA_DIR / f"{core}.toml")
    plain_seen: dict[str, str] = {}
    for entry in data.classes:
        for mnemonic in entry.mnemonics:
            if entry.pattern is None:
                assert mnemonic not in plain_seen, (mnemonic, plain_seen.get(mnemonic), entry.name)
                plain_seen[mnemonic] = entry.name
            else:
                assert mnemonic not in plain_seen, f"{entry.name} comes after {plain_seen.get(mnemonic)}"


def test_m3_lacks_exactly_what_m4_adds():
    m3 = parse_core_data(DATA_DIR / "m3.toml")
    m4 = parse_core_data(DATA_DIR / "m4.toml")
    priced_m4 = set().union(*(c.mnemonics for c in m4.classes if not c.fpu))  # FP: refused as FP on the M3
    priced_m3 = set().union(*(c.mnemonics for c in m3.classes))
    assert m3.lacks <= priced_m4
    assert not m3.lacks & priced_m3
    assert priced_m4 - priced_m3 <= m3.lacks


def _broken(tmp_path: Path, old: str, new: str, count: int = 1) -> Path:
    text = (DATA_DIR / "m4.toml").read_text()
    assert old in text
    path = tmp_path / "m4.toml"
    path.write_text(text.replace(old, new, count))
    return path


def _line(path: Path, needle: str) -> int:
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if needle in line)


def test_class_without_source_names_file_line_and_field(tmp_path):
    path = _broken(tmp_path, "source = \"DDI 0439D Table 3-1 'Multiply MUL 1'\"", "")
    with pytest.raises(DataFileError) as info:
        parse_core_data(path)
    assert info.value.field == "class[mul].source"
    assert info.value.line == _line(path, 'name = "mul"')
    assert str(info.value).startswith(f"{path}:{info.value.line}: field 'class[mul].source': missing")


def test_empty_source_is_rejected(tmp_path):
    path = _broken(tmp_path, "source = \"DDI 0439D Table 3-1 'Multiply MUL 1'\"", 'source = "  "')
    with pytest.raises(DataFileError, match=r"class\[mul\]\.source.*every number must cite"):
        parse_core_data(path)


def test_unknown_role_is_rejected(tmp_path):
    path = _broken(tmp_path, 'name = "mul"\nrole = "multiply"', 'name = "mul"\nrole = "multiplier"')
    with pytest.raises(DataFileError, match=r"class\[mul\]\.role.*'multiplier' is not one of"):
        parse_core_data(path)


def test_non_integer_cycles_are_rejected(tmp_path):
    path = _broken(tmp_path, 'mnemonics = ["mul"]\ncycles = 1', 'mnemonics = ["mul"]\ncycles = "one"')
    with pytest.raises(DataFileError) as info:
        parse_core_data(path)
    assert info.value.field == "class[mul].cycles"
    assert "expected an integer" in info.value.problem


def test_missing_rule_is_rejected(tmp_path):
    path = _broken(tmp_path, "address_interlock = 1\n", "")
    with pytest.raises(DataFileError, match=r"field 'rules\.address_interlock': missing"):
        parse_core_data(path)


def test_unknown_rule_is_rejected(tmp_path):
    path = _broken(tmp_path, "[rules]\n", '[rules]\nbranch_predictor = 1\nbranch_predictor_source = "made up"\n')
    with pytest.raises(DataFileError) as info:
        parse_core_data(path)
    assert info.value.field == "rules.branch_predictor"
    assert info.value.line == _line(path, "branch_predictor = 1")


def test_taken_extra_must_be_int_or_p(tmp_path):
    path = _broken(tmp_path, 'mnemonics = ["bx"]\ncycles = 1\ntaken_extra = "P"', 'mnemonics = ["bx"]\ncycles = 1\ntaken_extra = "Q"')
    with pytest.raises(DataFileError, match=r"class\[branch_indirect\]\.taken_extra"):
        parse_core_data(path)


def test_toml_syntax_error_names_the_line(tmp_path):
    path = _broken(tmp_path, "[divide]\n", "[divide\n")
    with pytest.raises(DataFileError) as info:
        parse_core_data(path)
    assert info.value.line == _line(path, "[divide")
    assert re.search(r"m4\.toml:\d+: not valid TOML", str(info.value))
    assert info.value.text == "[divide"
