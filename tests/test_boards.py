"""Board profiles (cortexm_emu.boards): every board loads, its flash wait states at its default
and maximum clocks follow the reference-manual tables, its memory map is consistent, a bad or
misspelt value is reported with file, line and field, and nothing in cortexm_emu names a
cryptographic algorithm, library, benchmark page or verdict (those facts live in refbench)."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pytest
from datafiles import corrupt_copy, line_of

from cortexm_emu.boards import (
    BOARD_DIR,
    CONFIDENCES,
    CORES,
    Board,
    board_names,
    find_board,
    load_board,
    load_board_file,
    wait_states,
)
from cortexm_emu.datafile import DataFileError, TomlReader, locate

#: Every board in shared/seeds/ plus the STM32F407 reference, with the core of its part.
EXPECTED_CORES = {
    "stm32h753zi": "m7",
    "stm32wb55rg": "m4",
    "stm32wl55jc": "m4",
    "stm32f437ii": "m4",
    "stm32l4a6zg": "m4",
    "stm32l562qe": "m33",
    "stm32f777xi": "m7",
    "stm32u585ai": "m33",
    "stm32h563zi": "m33",
    "stm32g071rb": "m0plus",
    "stm32wl33cc": "m0plus",
    "stm32f756zg": "m7",
    "stm32u385rg": "m33",
    "stm32f407vg": "m4",
    "rp2040": "m0plus",
    "mimxrt1062": "m7",
    "mk64fn1m0vll12": "m4",
    "lpc55s69jbd100": "m33",
    "lpc55s16jbd100": "m33",
    "stm32h7s3l8": "m7",
    "stm32f446re": "m4",
    "nrf52840": "m4",
    "rp2350": "m33",
    "nrf5340": "m33",
    "mimxrt1176": "m7",
    "efr32mg21": "m33",
    "samd51j19a": "m4",
    "stm32l4r5zi": "m4",
    # a Cortex-M3 part, modelled with the m4 integer pipeline and no FPU (its profile notes)
    "stm32f207zg": "m3",
    "same70q21b": "m7",
}

#: Wait states at the default clock (and the F407's maximum), read off the reference-manual
#: tables by hand (RM0090 T10/T11, RM0385/RM0410 (HAL copy), RM0433 T17 at AXI = CPU/2,
#: RM0434/RM0453/RM0351/RM0438/RM0444/RM0456/RM0481/RM0487 range tables, CubeWL3 LL for the WL33).
EXPECTED_WAIT_STATES = {
    "stm32h753zi": {480: 4},
    "stm32wb55rg": {64: 3},
    "stm32wl55jc": {48: 2},
    "stm32f437ii": {160: 5, 180: 5},
    "stm32l4a6zg": {80: 4},
    "stm32l562qe": {110: 5},
    "stm32f777xi": {216: 7},
    "stm32u585ai": {160: 4},
    "stm32h563zi": {150: 3, 250: 5},
    "stm32g071rb": {64: 2},
    "stm32wl33cc": {64: 1},
    "stm32f756zg": {216: 7},
    "stm32u385rg": {96: 2},
    "stm32f407vg": {24: 0, 168: 5},
    # execute in place (cortexm_emu.xip): 28 SSI clocks at clk_sys/2 per 8-byte line = 56 cycles
    "rp2040": {125: 55, 133: 55},
    # FlexSPI 1-4-4 at 133 MHz: 8 + 6 + 2 + 4 + 64 = 84 clocks per 32-byte line = 379 cycles at 600 MHz
    "mimxrt1062": {600: 378},
    # FMC: one flash clock (<= 25 MHz) per read = ceil(core/25) core clocks (Kinetis RM FMC chapter)
    "mk64fn1m0vll12": {120: 4},
    # SDK CLOCK_SetFLASHAccessCyclesForFreq: [130 MHz - 150 MHz] -> 11
    "lpc55s69jbd100": {150: 11},
    # the LPC55S16's own table (its fsl_clock.c): [144 MHz - 150 MHz] -> 11
    "lpc55s16jbd100": {150: 11},
    # XSPI2 8-8-8 DTR at 200 MHz: 1 + 2 + 20 + 16 = 39 clocks per 32-byte line = 117 cycles at 600 MHz
    "stm32h7s3l8": {600: 116},
    "stm32f446re": {180: 5},
    "nrf52840": {64: 0},
    # QMI 1-4-4 continuous read at clk_sys/2: 8 + 4 + 16 = 28 clocks per 8-byte line = 56 cycles
    "rp2350": {150: 55},
    "nrf5340": {64: 0, 128: 0},
    # FlexSPI 1-4-4 at 133 MHz: 8 + 6 + 6 + 64 = 84 clocks per 32-byte line = 630 cycles at 996 MHz
    "mimxrt1176": {996: 629, 1000: 631},
    "efr32mg21": {80: 1},
    # SAM D5x/E5x Data Sheet §54.12 (VDD > 2.7 V): 5 WS up to 120 MHz
    "samd51j19a": {120: 5},
    "stm32l4r5zi": {120: 5},
    "stm32f207zg": {120: 3},
    # FWS at MCK = core / 2: 150 MHz -> 6
    "same70q21b": {300: 6},
}

#: The clock a memory system is built at when none is given: the part maximum unless the file's
#: [default_clock] names another (with its reason).
EXPECTED_DEFAULT_CLOCKS = {"stm32f407vg": 24, "stm32f437ii": 160, "stm32h563zi": 150, "rp2040": 125,
                           "nrf5340": 64, "mimxrt1176": 996}


#: Datasheet numbers as settled when the part facts were merged (repositories citing the ST
#: documents by number and URL; see each file's ``datasheet`` string).
EXPECTED_DATASHEETS = {
    "stm32f407vg": "DS8626",
    "stm32f437ii": "DS9484",
    "stm32f756zg": "DS10915",
    "stm32f777xi": "DS11243",
    "stm32h753zi": "DS12117",
    "stm32wb55rg": "DS11929",
    "stm32wl55jc": "DS13293",
    "stm32l4a6zg": "DS11584",
    "stm32u585ai": "DS13086",
    "stm32h563zi": "DS14258",
    "stm32g071rb": "DS12232",
    "stm32wl33cc": "DS14221",
}


@pytest.fixture(scope="module")
def boards() -> dict[str, Board]:
    return {name: load_board(name) for name in board_names()}


# ----------------------------------------------------------------------------------- loading


def test_board_set():
    # other branches add boards: the listed ones must all ship, the rest are read from the data
    assert set(EXPECTED_CORES) <= set(board_names())


@pytest.mark.parametrize("name", board_names())
def test_every_board_loads(name):
    board = load_board(name)
    assert board.name == name
    assert board.core in CORES
    assert board.core == EXPECTED_CORES.get(name, board.core)
    assert board.part.upper().startswith(name[:9].upper())
    assert board.sram and board.flash.latency and board.notes


def test_unknown_board_lists_valid_names():
    with pytest.raises(ValueError) as info:
        load_board("stm32f999")
    message = str(info.value)
    assert "'stm32f999'" in message
    for name in board_names():
        assert name in message


#: Part strings as the published pages write them (refbench/published figures) -> board file.
PUBLISHED_PARTS = {
    "STM32H753ZI": "stm32h753zi",
    "STM32WB55": "stm32wb55rg",
    "STM32WL55": "stm32wl55jc",
    "STM32WL55JC": "stm32wl55jc",
    "STM32F437": "stm32f437ii",
    "STM32L4A6Z": "stm32l4a6zg",
    "STM32L562E": "stm32l562qe",
    "STM32F777": "stm32f777xi",
    "STM32U585": "stm32u585ai",
    "STM32H563ZI": "stm32h563zi",
    "STM32G071RB": "stm32g071rb",
    "STM32WL33CC": "stm32wl33cc",
    "STM32F756ZG": "stm32f756zg",
    "STM32U385RGT6Q": "stm32u385rg",
}


@pytest.mark.parametrize("part", sorted(PUBLISHED_PARTS))
def test_find_board_by_published_part(part):
    assert find_board(part).name == PUBLISHED_PARTS[part]
    assert find_board(part.lower()).name == PUBLISHED_PARTS[part]


@pytest.mark.parametrize("text", ["STM32", "STM32F7", "STM32F999", ""])
def test_find_board_rejects_ambiguous_or_unknown_parts(text):
    with pytest.raises(ValueError) as info:
        find_board(text)
    assert repr(text) in str(info.value) and "stm32f407vg" in str(info.value)


def test_board_is_frozen(boards):
    with pytest.raises(dataclasses.FrozenInstanceError):
        boards["stm32f407vg"].max_clock_mhz = 1  # type: ignore[misc]


def test_every_value_cites_a_source(boards):
    cited = 0

    def walk(node, where):
        nonlocal cited
        if isinstance(node, dict):
            if "confidence" in node:
                assert node["confidence"] in CONFIDENCES, where
                assert node["source"].strip(), where
                cited += 1
            for key, value in node.items():
                walk(value, f"{where}.{key}")
        elif isinstance(node, list):
            for index, value in enumerate(node):
                walk(value, f"{where}[{index}]")

    for name, board in boards.items():
        data = board.as_dict()
        json.dumps(data)  # JSON-ready for `cortexm-emu boards --json`
        before = cited
        walk(data, name)
        # max clock + flash + prefetch + FPU + every cache and SRAM region (+ [memory] where given)
        assert cited - before == 4 + len(board.accelerators) + len(board.sram) + (board.memory.citation is not None), name


@pytest.mark.parametrize("name", board_names())
def test_default_clock(boards, name):
    board = boards[name]
    assert board.default_clock_mhz == EXPECTED_DEFAULT_CLOCKS.get(name, board.max_clock_mhz)
    assert bool(board.default_clock_reason) == (name in EXPECTED_DEFAULT_CLOCKS)


# ------------------------------------------------------------------------------- wait states


@pytest.mark.parametrize("name", sorted(EXPECTED_WAIT_STATES))
def test_wait_states_at_default_and_maximum_clocks(boards, name):
    board = boards[name]
    expected = EXPECTED_WAIT_STATES[name]
    assert set(expected) == {board.default_clock_mhz, board.max_clock_mhz}
    for clock, waits in expected.items():
        assert wait_states(board, clock) == waits, (name, clock)


def test_f407_reference_configurations(boards):
    board = boards["stm32f407vg"]
    assert wait_states(board, 24) == 0
    assert wait_states(board, 168) == 5
    assert wait_states(board, 30) == 0 and wait_states(board, 30.5) == 1


def test_efr32mg21_steps_at_the_gecko_sdk_series2_config1_limit(boards):
    # em_cmu.c (Gecko SDK v4.4.1) CMU_MAX_FREQ_0WS_1V1 = 40 MHz: WS0 at or below, WS1 above
    board = boards["efr32mg21"]
    assert wait_states(board, 40) == 0 and wait_states(board, 40.5) == 1
    assert board.sram[0].wait_states == 1  # RAMWSEN above 50 MHz, the profile's 80 MHz default


def test_lpc55s16_has_its_own_table_not_the_lpc55s69_one(boards):
    s16, s69 = boards["lpc55s16jbd100"], boards["lpc55s69jbd100"]
    assert [wait_states(s16, f) for f in (66, 67, 84, 85, 144, 145)] == [5, 6, 6, 7, 10, 11]
    assert wait_states(s69, 84) == 7


def test_h753_flash_latency_counts_axi_cycles(boards):
    board = boards["stm32h753zi"]
    assert board.flash.hclk_divider == 2
    assert wait_states(board, 480) == 4  # AXI 240 MHz
    assert wait_states(board, 400) == 2  # AXI 200 MHz: 185 < 200 <= 210
    assert wait_states(board, 140) == 0  # AXI 70 MHz


@pytest.mark.parametrize("name", board_names())
def test_wait_states_never_decrease_with_clock(boards, name):
    board = boards[name]
    previous = 0
    steps = 200
    for step in range(1, steps + 1):
        current = wait_states(board, board.max_clock_mhz * step / steps)
        assert current >= previous
        previous = current
    assert wait_states(board, board.max_clock_mhz) == board.flash.latency[-1].wait_states or (
        board.max_clock_mhz / board.flash.hclk_divider < board.flash.latency[-1].max_mhz
    )


def test_wait_states_accepts_a_board_name():
    assert wait_states("stm32l4a6zg", 80) == 4


@pytest.mark.parametrize("clock", [0, -16, float("nan"), True, "80"])
def test_wait_states_rejects_a_clock_that_is_not_a_positive_number(boards, clock):
    with pytest.raises(ValueError) as info:
        wait_states(boards["stm32l4a6zg"], clock)
    assert "stm32l4a6zg" in str(info.value)


def test_wait_states_rejects_a_clock_above_the_part_maximum(boards):
    with pytest.raises(ValueError) as info:
        wait_states(boards["stm32l4a6zg"], 81)
    message = str(info.value)
    assert "81 MHz" in message and "80 MHz" in message




@pytest.mark.parametrize("name", sorted(EXPECTED_DATASHEETS))
def test_datasheet_numbers(boards, name):
    assert boards[name].datasheet.split()[0] == EXPECTED_DATASHEETS[name]


# ------------------------------------------------------------------------ memory consistency


@pytest.mark.parametrize("name", board_names())
def test_memory_map_is_consistent(boards, name):
    board = boards[name]
    flash_end = board.flash.base + board.flash.size_kib * 1024
    for region in board.sram:
        assert region.end <= board.flash.base or region.base >= flash_end, (name, region.name)
    for cache in board.accelerators:
        if cache.size_bytes and cache.lines:
            assert cache.size_bytes * 8 == cache.lines * cache.line_bits
    if board.core == "m7":
        kinds = {cache.kind for cache in board.accelerators}
        assert {"l1_icache", "l1_dcache"} <= kinds
        # the SAM E70's TCMs take their share of the SRAM only when GPNVM bits say so (0 KB at reset)
        assert any(region.name.startswith("DTCM") for region in board.sram) == (name not in {"same70q21b"})


# ------------------------------------------------------------------------------ schema errors


def _corrupt(tmp_path: Path, name: str, old: str, new: str) -> Path:
    return corrupt_copy(BOARD_DIR / f"{name}.toml", tmp_path, old, new)


def test_an_untouched_copy_loads(tmp_path):
    path = _corrupt(tmp_path, "stm32f407vg", 'part = "STM32F407VG"', 'part = "STM32F407VG"')
    assert load_board_file(path).part == "STM32F407VG"


def test_missing_field_names_file_line_and_field(tmp_path):
    path = _corrupt(
        tmp_path, "stm32f407vg", "size_kib = 1024\nline_bits = 128\n", "size_kib = 1024\n"
    )
    with pytest.raises(DataFileError) as info:
        load_board_file(path)
    error = info.value
    assert type(error) is DataFileError and isinstance(error, ValueError)
    assert error.path == str(path)
    assert error.field == "flash.line_bits"
    assert error.line == line_of(path, "[flash]")
    assert "missing field" in str(error) and f"{path}:{error.line}" in str(error)


def test_wrong_type_points_at_the_value_line(tmp_path):
    path = _corrupt(tmp_path, "stm32l4a6zg", "size_kib = 1024", 'size_kib = "1 MB"')
    with pytest.raises(DataFileError) as info:
        load_board_file(path)
    assert info.value.field == "flash.size_kib"
    assert info.value.line == line_of(path, 'size_kib = "1 MB"')
    assert "expected an integer" in info.value.problem
    assert "1 MB" in info.value.text


def test_bad_core_lists_accepted_values(tmp_path):
    path = _corrupt(tmp_path, "stm32g071rb", 'core = "m0plus"', 'core = "m0+"')
    with pytest.raises(DataFileError) as info:
        load_board_file(path)
    assert info.value.field == "core"
    assert info.value.line == line_of(path, 'core = "m0+"')
    assert "m0plus" in info.value.problem and "m33" in info.value.problem


def test_bad_latency_row_points_at_that_row(tmp_path):
    path = _corrupt(
        tmp_path,
        "stm32l562qe",
        "{ max_mhz = 80, wait_states = 3 }",
        '{ max_mhz = "80", wait_states = 3 }',
    )
    with pytest.raises(DataFileError) as info:
        load_board_file(path)
    assert info.value.field == "flash.wait_states[3].max_mhz"
    assert info.value.line == line_of(path, 'max_mhz = "80"')


def test_latency_table_must_not_go_down(tmp_path):
    path = _corrupt(
        tmp_path,
        "stm32f437ii",
        "{ max_mhz = 150, wait_states = 4 }",
        "{ max_mhz = 150, wait_states = 1 }",
    )
    with pytest.raises(DataFileError) as info:
        load_board_file(path)
    assert info.value.field == "flash.wait_states[4].wait_states"
    assert info.value.line == line_of(path, "{ max_mhz = 150, wait_states = 1 }")


def test_latency_table_must_reach_the_part_maximum(tmp_path):
    path = _corrupt(tmp_path, "stm32u585ai", "    { max_mhz = 160, wait_states = 4 },\n", "")
    with pytest.raises(DataFileError) as info:
        load_board_file(path)
    assert "below the part maximum" in info.value.problem


def test_overlapping_sram_regions_are_reported(tmp_path):
    path = _corrupt(tmp_path, "stm32f407vg", "base = 0x2001_C000", "base = 0x2001_0000")
    with pytest.raises(DataFileError) as info:
        load_board_file(path)
    assert info.value.field == "sram[2].base"
    assert "overlaps SRAM1" in info.value.problem


def test_cache_size_must_match_its_geometry(tmp_path):
    path = _corrupt(tmp_path, "stm32f407vg", "size_bytes = 1024", "size_bytes = 2048")
    with pytest.raises(DataFileError) as info:
        load_board_file(path)
    assert info.value.field == "accelerators[0].size_bytes"
    assert info.value.line == line_of(path, "size_bytes = 2048")


def test_name_must_match_the_file(tmp_path):
    text = (BOARD_DIR / "stm32f407vg.toml").read_text(encoding="utf-8")
    path = tmp_path / "stm32f407zg.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DataFileError) as info:
        load_board_file(path)
    assert info.value.field == "name" and info.value.line == line_of(path, 'name = "stm32f407vg"')


def test_invalid_toml_names_the_line(tmp_path):
    path = _corrupt(tmp_path, "stm32f756zg", 'part = "STM32F756ZG"', 'part = "STM32F756ZG')
    with pytest.raises(DataFileError) as info:
        load_board_file(path)
    assert info.value.line == line_of(path, 'part = "STM32F756ZG')
    assert "not valid TOML" in info.value.problem


def test_unreadable_file_is_a_board_data_error(tmp_path):
    with pytest.raises(DataFileError) as info:
        load_board_file(tmp_path / "stm32nothing.toml")
    assert "cannot read" in info.value.problem




@pytest.mark.parametrize(
    ("name", "old", "new", "field", "fragment"),
    [
        ("stm32f407vg", 'reference_manual = "RM0090"', 'reference_manaul = "RM0090"', "reference_manaul",
         "reference_manaul = "),
        ("stm32l4a6zg", "hclk_divider = 1", "hclk_divder = 1", "flash.hclk_divder", "hclk_divder = "),
        ("stm32f407vg", 'name = "SRAM2"', 'nmae = "SRAM2"', "sram[2].nmae", "nmae = "),
        ("stm32wl55jc", "{ max_mhz = 36, wait_states = 1 }", "{ max_mhz = 36, wait_state = 1 }",
         "flash.wait_states[1].wait_state", "wait_state = 1 }"),
        ("stm32f407vg", "[default_clock]\nmhz = 24\nreason = ", "[default_clock]\nmhz = 24\nreasn = ",
         "default_clock.reasn", "reasn = "),
        ("stm32g071rb", "[flash]\n", "[crypto_hw.AES]\npresent = false\n\n[flash]\n", "crypto_hw",
         "[crypto_hw.AES]"),
    ],
)
def test_misspelt_or_foreign_key_is_reported_at_its_line(tmp_path, name, old, new, field, fragment):
    path = _corrupt(tmp_path, name, old, new)
    with pytest.raises(DataFileError) as info:
        load_board_file(path)
    assert info.value.field == field and "unknown field" in info.value.problem
    assert info.value.line == line_of(path, fragment)


def test_default_clock_above_the_maximum_is_reported(tmp_path):
    path = _corrupt(tmp_path, "stm32h563zi", "[default_clock]\nmhz = 150", "[default_clock]\nmhz = 300")
    with pytest.raises(DataFileError) as info:
        load_board_file(path)
    assert info.value.field == "default_clock.mhz" and info.value.line == line_of(path, "mhz = 300")
    assert "300 MHz is above the part maximum 250 MHz" in info.value.problem


def test_a_bad_board_file_raises_the_one_data_file_error(tmp_path):
    path = _corrupt(tmp_path, "stm32h563zi", "[default_clock]\nmhz = 150", "[default_clock]\nmhz = 300")
    with pytest.raises(DataFileError) as info:
        load_board_file(path)
    assert type(info.value) is DataFileError


# --------------------------------------------------------------------------- the line locator

LOCATOR_TEXT = """\
# a comment
name = "x"
list = [
    { a = 1, b = 2 },
    { a = 3, b = 4 },
]

[table]
key = 1
"quoted" = 2

[table.sub]
key = 3

[[items]]
key = 4

[[items]]
key = 5
other = 6
"""


@pytest.mark.parametrize(
    ("field", "line"),
    [
        (("name",), 2),
        (("list",), 3),
        (("list", 1), 5),
        (("list", 1, "b"), 5),
        (("table",), 8),
        (("table", "key"), 9),
        (("table", "missing"), 8),  # a missing key: its table's header
        (("table", "sub", "key"), 13),
        (("items", 0, "key"), 16),
        (("items", 1), 18),
        (("items", 1, "other"), 20),
        (("items", 5, "key"), 15),  # no such item: the first table of the group
        (("absent",), 1),
        ((), 1),
    ],
)
def test_locate_finds_the_line_of_a_field(field, line):
    assert locate(LOCATOR_TEXT.splitlines(), field) == line


def test_reader_errors_name_file_line_field_and_text(tmp_path):
    path = tmp_path / "x.toml"
    path.write_text(LOCATOR_TEXT, encoding="utf-8")
    reader = TomlReader.load(path)
    with pytest.raises(DataFileError) as info:
        reader.integer(("items", 1, "other"), minimum=7)
    assert str(info.value) == f"{path}:20: field 'items[1].other': must be >= 7, got 6: 'other = 6'"
    with pytest.raises(DataFileError) as info:
        reader.check_keys(("table",), ("key",))
    assert (info.value.field, info.value.line) == ("table.quoted", 8)  # quoted keys: the header


# ------------------------------------------------------------ nothing crypto in cortexm_emu

#: Names of cryptographic algorithms, tables and modes (any case; "hash" as a plain word -- hash
#: tables, content hashes -- is not one).
ALGORITHMS = re.compile(
    r"\b(AES|SHA-?\d*|GHASH|HMAC|CMAC|ECDSA|ECDH|RSA|MD5|DRBG|GCM|ChaCha\d*|Poly1305|Ascon"
    r"|S-box(?:es)?|T-tables?|ttable\d*)\b",
    re.IGNORECASE,
)
#: ST crypto peripherals, as ST names them (upper case only: "des", "rng" are no words here).
#: CCM is left out: on the F4 it is the core-coupled memory.
PERIPHERALS = re.compile(r"\b(T?DES|3DES|HASH|PKA|T?RNG|CRYP|SAES|OTFDEC)\b")
#: Libraries and benchmark pages, the seed files, refbench's verdict words, the crypto table.
WORDS = re.compile(
    r"\b(wolfssl|cmox|cyclone\w*|oryx|mbed ?tls|pqm4|seeds?\b|verdicts?|suspicious|inconsistent"
    r"|crypto_hw|crypto\b|cryptographic|encryption|ciphers?)",
    re.IGNORECASE,
)
#: Content hashes of files (cache keys) name SHA-256 as a tool, not as a benchmarked algorithm.
TOOLS = re.compile(r"SHA-256 of|hashlib\.sha256")
PACKAGE = Path(__file__).resolve().parent.parent / "cortexm_emu"


def _crypto_words(text: str) -> dict[str, list[int]]:
    found: dict[str, list[int]] = {}
    for number, line in enumerate(text.splitlines(), 1):
        line = TOOLS.sub("", line)
        for pattern in (ALGORITHMS, PERIPHERALS, WORDS):
            for match in pattern.finditer(line):
                found.setdefault(match.group(0), []).append(number)
    return found


def test_the_word_lists_catch_what_they_are_for():
    text = "AES-128 and sha256/rolled\nwolfSSL page (seed 000)\nverdict: suspicious\n[crypto_hw.PKA]\nHASH block"
    assert set(_crypto_words(text)) == {"AES", "sha256", "wolfSSL", "seed", "verdict", "suspicious", "crypto_hw",
                                        "PKA", "HASH"}
    harmless = "a hash table probe\nkeyed by the SHA-256 of the C source (hashlib.sha256)\n64 KB CCM data RAM, ECC"
    assert _crypto_words(harmless) == {}


def test_nothing_in_cortexm_emu_names_a_crypto_algorithm_library_page_or_verdict():
    files = sorted(p for p in PACKAGE.rglob("*") if p.suffix in (".py", ".toml", ".md"))
    assert any(p.name == "stm32f437ii.toml" for p in files)
    found = {}
    for path in files:
        relative = path.relative_to(PACKAGE.parent).as_posix()
        words = _crypto_words(path.read_text(encoding="utf-8"))
        if words:
            found[relative] = words
    assert found == {}


# the parts' FPUs as their profiles state them ([fpu]; sources in each file)
EXPECTED_FPU = {
    "stm32f407vg": "single", "stm32f437ii": "single", "stm32f756zg": "single", "stm32f777xi": "double",
    "stm32g071rb": "none", "stm32h563zi": "single", "stm32h753zi": "double", "stm32l4a6zg": "single",
    "stm32l562qe": "single", "stm32u385rg": "single", "stm32u585ai": "single", "stm32wb55rg": "single",
    "stm32wl33cc": "none", "stm32wl55jc": "none", "rp2040": "none", "mimxrt1062": "double",
    "mk64fn1m0vll12": "single", "lpc55s69jbd100": "single",
    "stm32h7s3l8": "double", "stm32f446re": "single",
    "nrf52840": "single", "rp2350": "single",
    "nrf5340": "single", "mimxrt1176": "double",
    "efr32mg21": "single", "samd51j19a": "single",
    "stm32l4r5zi": "single", "stm32f207zg": "none",
    "same70q21b": "double", "lpc55s16jbd100": "single",
}


def test_every_board_states_its_fpu(boards):
    # the listed boards as stated; boards other branches add are read from the data
    assert {name: boards[name].fpu.precision for name in EXPECTED_FPU} == EXPECTED_FPU
    for board in boards.values():
        assert board.fpu.present == (board.fpu.precision != "none")
        assert board.fpu.citation.source.strip()


def test_for_board_turns_the_fpu_on_where_the_part_has_one():
    from cortexm_emu.machine import Machine

    with_fpu = Machine.for_board("stm32f407vg")
    assert with_fpu.core == "m4" and with_fpu.timing.fpu
    assert not Machine.for_board("stm32wl55jc").timing.fpu
    assert not Machine.for_board("stm32g071rb").timing.fpu


@pytest.mark.parametrize(
    "old, new, field, problem",
    [
        ('precision = "single"', 'precision = "none"', "fpu.precision", "contradicts present = true"),
        ('precision = "single"', 'precision = "quad"', "fpu.precision", "quad"),
    ],
)
def test_bad_fpu_table_names_file_line_and_field(tmp_path, old, new, field, problem):
    from cortexm_emu.boards.schema import parse_board

    source = Path(__file__).resolve().parents[1] / "cortexm_emu" / "boards" / "stm32f407vg.toml"
    path = tmp_path / "stm32f407vg.toml"
    path.write_text(source.read_text().replace(old, new, 1))
    with pytest.raises(DataFileError, match=rf"stm32f407vg\.toml:\d+.*{re.escape(field)}.*{problem}"):
        parse_board(path)
