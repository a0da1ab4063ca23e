"""The vector loaders: records carry file and line; malformed files name file, line and field."""

import json

import pytest

from cortexm_emu.datafile import DataFileError
from refbench.loaders import (
    cryptography_vector,
    load_nist_rsp,
    load_wycheproof,
    pycryptodome_vector,
)


def test_rsp_sections_records_and_lines(tmp_path):
    path = tmp_path / "x.rsp"
    path.write_text(
        "# CAVS 11.1\n\n[ENCRYPT]\n\nCOUNT = 0\nKEY = 00ff\nPT =\n\n"
        "COUNT = 1\nKEY = 0102\nFAIL\n\n[DECRYPT]\n\nCOUNT = 0\nKEY = aa\n"
    )
    records = load_nist_rsp(path)
    assert [r.section for r in records] == [{"ENCRYPT": ""}, {"ENCRYPT": ""}, {"DECRYPT": ""}]
    assert records[0].line == 5 and records[0].hex("KEY") == b"\x00\xff" and records[0].hex("PT") == b""
    assert "FAIL" in records[1] and "FAIL" not in records[0]
    assert records[1].label == "x.rsp:9 COUNT=1"


def test_consecutive_section_headers_accumulate(tmp_path):
    path = tmp_path / "ccm.rsp"
    path.write_text("[Alen = 0]\n[Plen = 16]\n\nCount = 0\nKey = 00\n")
    (record,) = load_nist_rsp(path)
    assert record.section == {"Alen": "0", "Plen": "16"}


def test_bad_hex_names_file_line_and_field(tmp_path):
    path = tmp_path / "bad.rsp"
    path.write_text("COUNT = 0\nKEY = 00zz\n")
    (record,) = load_nist_rsp(path)
    with pytest.raises(DataFileError, match=r"bad\.rsp:2: field 'KEY': is not hexadecimal: '00zz'"):
        record.hex("KEY")


def test_unparseable_line_names_file_and_line(tmp_path):
    path = tmp_path / "junk.rsp"
    path.write_text("COUNT = 0\nthis is not a field!\n")
    with pytest.raises(DataFileError, match=r"junk\.rsp:2: expected 'Name = value'"):
        load_nist_rsp(path)


def test_missing_field_is_named(tmp_path):
    path = tmp_path / "m.rsp"
    path.write_text("COUNT = 3\n")
    (record,) = load_nist_rsp(path)
    with pytest.raises(DataFileError, match=r"m\.rsp:1: field 'KEY': field missing"):
        record.hex("KEY")


def test_wycheproof_cases_carry_group_and_id(tmp_path):
    path = tmp_path / "w.json"
    path.write_text(json.dumps({"testGroups": [{"keySize": 128, "tests": [{"tcId": 7, "result": "invalid", "key": "00"}]}]}))
    (case,) = load_wycheproof(path)
    assert case.tc_id == 7 and case.group["keySize"] == 128 and case.hex("key") == b"\0"
    assert "tcId=7" in case.label


def test_wycheproof_invalid_json_names_line(tmp_path):
    path = tmp_path / "w.json"
    path.write_text('{"testGroups": [\n  {,}\n]}')
    with pytest.raises(DataFileError, match=r"w\.json:2: invalid JSON"):
        load_wycheproof(path)


def test_official_packages_are_found():
    assert cryptography_vector("ciphers/AES/GCM/gcmDecrypt128.rsp").is_file()
    assert pycryptodome_vector("Cipher/wycheproof/aes_gcm_test.json").is_file()
    with pytest.raises(FileNotFoundError, match="nope.rsp"):
        cryptography_vector("nope.rsp")
