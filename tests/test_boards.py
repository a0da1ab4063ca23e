"""Board profiles (cortexm_emu.boards): every published board loads, its flash wait states at
the published clocks follow the reference-manual tables, its crypto hardware is stated, and a
bad data file is reported with file, line and field."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from cortexm_emu.boards import (
    AES_KEY_BITS,
    BOARD_DIR,
    CONFIDENCES,
    CRYPTO_BLOCKS,
    CRYPTO_FUNCTIONS,
    HASH_ALGORITHMS,
    Board,
    BoardDataError,
    board_names,
    find_board,
    load_board,
    load_board_file,
    wait_states,
)
from cortexm_emu.errors import EmulatorError

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
}

#: Wait states at each published clock, read off the reference-manual tables by hand
#: (RM0090 T10/T11, RM0385/RM0410 (HAL copy), RM0433 T17 at AXI = CPU/2, RM0434/RM0453/RM0351/
#: RM0438/RM0444/RM0456/RM0481/RM0487 range tables, CubeWL3 LL for the WL33).
EXPECTED_WAIT_STATES = {
    "stm32h753zi": {480: 4},
    "stm32wb55rg": {64: 3},
    "stm32wl55jc": {48: 2},
    "stm32f437ii": {160: 5},
    "stm32l4a6zg": {80: 4},
    "stm32l562qe": {110: 5},
    "stm32f777xi": {216: 7},
    "stm32u585ai": {160: 4},
    "stm32h563zi": {150: 3},
    "stm32g071rb": {64: 2},
    "stm32wl33cc": {64: 1},
    "stm32f756zg": {216: 7},
    "stm32u385rg": {96: 2},
    "stm32f407vg": {24: 0, 168: 5},
}

#: Published clocks above the part maximum. Each one is a finding, stated in the data file.
KNOWN_FINDINGS = {
    # wolfSSL "STM Benchmarks": "NUCLEO-WL55JC1 ... Cortex-M4 at 64 MHz"; the WL55 maximum is
    # 48 MHz (AN5568, DS13293).
    ("stm32wl55jc", 64): 48,
}

#: Crypto peripherals present (True) or absent (False) per part, as checked in the datasheets /
#: reference manuals cited in each file. Only the facts a sanity rule relies on are listed.
EXPECTED_CRYPTO = {
    "stm32f407vg": {"CRYP": False, "HASH": False, "AES": False, "PKA": False, "RNG": True},
    "stm32f437ii": {"CRYP": True, "HASH": True, "PKA": False},
    "stm32f756zg": {"CRYP": True, "HASH": True, "PKA": False},
    "stm32f777xi": {"CRYP": True, "HASH": True, "PKA": False},
    "stm32h753zi": {"CRYP": True, "HASH": True, "PKA": False, "SAES": False},
    "stm32wb55rg": {"AES": True, "PKA": True, "HASH": False, "CRYP": False},
    "stm32wl55jc": {"AES": True, "PKA": True, "HASH": False, "CRYP": False},
    "stm32l4a6zg": {"AES": True, "HASH": True, "PKA": False},
    "stm32l562qe": {"AES": True, "HASH": True, "PKA": True, "SAES": False},
    "stm32u585ai": {"AES": True, "HASH": True, "PKA": True, "SAES": True, "CCB": False},
    "stm32h563zi": {"AES": False, "SAES": False, "PKA": False},
    "stm32g071rb": {"AES": False, "HASH": False, "PKA": False, "RNG": False},
    "stm32wl33cc": {"AES": True, "HASH": False, "CRYP": False},
    "stm32u385rg": {"AES": True, "SAES": True, "PKA": True, "CCB": True},
}


#: What each part's crypto peripherals provide, as settled against the sources cited in the
#: files (RM0090/RM0351/RM0438/RM0453/RM0456/RM0487 text, CubeH5/CubeH7/CubeL4/CubeWL3 code):
#: (functions, AES key sizes, HASH algorithms). These are the facts refbench's board rules use.
MD5_SHA2_256 = {"MD5", "SHA-1", "SHA-224", "SHA-256"}
EXPECTED_PROVIDES = {
    "stm32f407vg": ({"RNG"}, set(), set()),
    "stm32f437ii": ({"AES", "DES", "HASH", "RNG"}, {128, 192, 256}, MD5_SHA2_256),
    "stm32f756zg": ({"AES", "DES", "HASH", "RNG"}, {128, 192, 256}, MD5_SHA2_256),
    "stm32f777xi": ({"AES", "DES", "HASH", "RNG"}, {128, 192, 256}, MD5_SHA2_256),
    "stm32h753zi": ({"AES", "DES", "HASH", "RNG"}, {128, 192, 256}, MD5_SHA2_256),
    "stm32wb55rg": ({"AES", "PKA", "RNG"}, {128, 256}, set()),
    "stm32wl55jc": ({"AES", "PKA", "RNG"}, {128, 256}, set()),
    "stm32l4a6zg": ({"AES", "HASH", "RNG"}, {128, 256}, MD5_SHA2_256),
    "stm32l562qe": ({"AES", "HASH", "PKA", "RNG"}, {128, 256}, MD5_SHA2_256),
    # RM0456 §3.1: the U5 HASH does MD5 too (the former refbench parts.toml left it out).
    "stm32u585ai": ({"AES", "HASH", "PKA", "RNG"}, {128, 256}, MD5_SHA2_256),
    # The H5 HASH is the newer IP: SHA-2 up to SHA-512, no MD5.
    "stm32h563zi": (
        {"HASH", "RNG"},
        set(),
        {"SHA-1", "SHA-224", "SHA-256", "SHA-384", "SHA-512", "SHA-512/224", "SHA-512/256"},
    ),
    "stm32g071rb": (set(), set(), set()),
    # No PKA on the WL33 (CubeWL3 HAL module list, CMSIS IRQ table); the former parts.toml had one.
    "stm32wl33cc": ({"AES", "RNG"}, {128, 256}, set()),
    "stm32u385rg": (
        {"AES", "HASH", "PKA", "RNG"},
        {128, 256},
        {"SHA-1", "SHA-224", "SHA-256", "SHA-384", "SHA-512"},
    ),
}

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


def test_board_set_is_every_seed_board_plus_f407():
    assert set(board_names()) == set(EXPECTED_CORES)


@pytest.mark.parametrize("name", sorted(EXPECTED_CORES))
def test_every_board_loads(name):
    board = load_board(name)
    assert board.name == name
    assert board.core == EXPECTED_CORES[name]
    assert board.part.upper().startswith(name[:9].upper())
    assert board.sram and board.published_clocks and board.flash.latency


def test_unknown_board_lists_valid_names():
    with pytest.raises(ValueError) as info:
        load_board("stm32f999")
    message = str(info.value)
    assert "'stm32f999'" in message
    for name in EXPECTED_CORES:
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
        # max clock + flash + prefetch + every cache, SRAM region and crypto block, and what
        # every present crypto block provides, and the two citations (numbers, clock) of every
        # documented timing table
        present = sum(block.present for block in board.crypto_hw)
        timed = sum(block.timing is not None for block in board.crypto_hw)
        expected = (
            3 + len(board.accelerators) + len(board.sram) + len(board.crypto_hw) + present + 2 * timed
        )
        assert cited - before == expected, name
        for clock in board.published_clocks:
            assert clock.source.strip(), name


# ------------------------------------------------------------------------------- wait states


@pytest.mark.parametrize("name", sorted(EXPECTED_WAIT_STATES))
def test_wait_states_at_published_clocks(boards, name):
    board = boards[name]
    expected = EXPECTED_WAIT_STATES[name]
    for clock in board.published_clocks_mhz:
        if (name, clock) in KNOWN_FINDINGS:
            continue
        assert wait_states(board, clock) == expected[clock], (name, clock)
    in_range = {c for c in board.published_clocks_mhz if (name, c) not in KNOWN_FINDINGS}
    assert set(expected) == in_range


def test_wait_states_reported_by_a_source_agree_with_the_table(boards):
    reported = [
        (board, clock)
        for board in boards.values()
        for clock in board.published_clocks
        if clock.reported_wait_states is not None
    ]
    assert any(clock.seed for _, clock in reported)  # the ST CMOX page states 2 WS at 48 MHz
    for board, clock in reported:
        assert wait_states(board, clock.mhz) == clock.reported_wait_states, (board.name, clock.mhz)


def test_f407_reference_configurations(boards):
    board = boards["stm32f407vg"]
    assert wait_states(board, 24) == 0
    assert wait_states(board, 168) == 5
    assert wait_states(board, 30) == 0 and wait_states(board, 30.5) == 1


def test_h753_flash_latency_counts_axi_cycles(boards):
    board = boards["stm32h753zi"]
    assert board.flash.hclk_divider == 2
    assert wait_states(board, 480) == 4  # AXI 240 MHz
    assert wait_states(board, 400) == 2  # AXI 200 MHz: 185 < 200 <= 210
    assert wait_states(board, 140) == 0  # AXI 70 MHz


@pytest.mark.parametrize("name", sorted(EXPECTED_CORES))
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


# ------------------------------------------------------------------ max clock and findings


def test_max_clock_covers_every_published_clock_except_known_findings(boards):
    violations = {
        (board.name, clock.mhz): board.max_clock_mhz
        for board in boards.values()
        for clock in board.published_clocks
        if clock.mhz > board.max_clock_mhz
    }
    assert violations == KNOWN_FINDINGS


def test_wl55_published_64_mhz_exceeds_the_part_maximum(boards):
    """Known finding: wolfSSL's WL55 section says 64 MHz; the STM32WL55 stops at 48 MHz."""
    board = boards["stm32wl55jc"]
    assert board.max_clock_mhz == 48
    clock = next(c for c in board.published_clocks if c.mhz == 64)
    assert clock.seed == "000_950e0926bdf8c114.txt"
    assert "48 MHz" in clock.finding
    with pytest.raises(ValueError) as info:
        wait_states(board, 64)
    assert "64 MHz" in str(info.value) and "48 MHz" in str(info.value)
    # The ST CMOX page (seed 002) used a clock the part supports, with the wait states it states.
    cmox = next(c for c in board.published_clocks if c.seed == "002_5291703a875d4f7f.txt")
    assert (cmox.mhz, cmox.reported_wait_states) == (48, 2)


def test_findings_are_recorded_only_where_the_clock_is_out_of_range(boards):
    for board in boards.values():
        for clock in board.published_clocks:
            key = (board.name, clock.mhz)
            assert bool(clock.finding) == (key in KNOWN_FINDINGS), key


# -------------------------------------------------------------------------------- crypto HW


@pytest.mark.parametrize("name", sorted(EXPECTED_CORES))
def test_crypto_hw_fields_present_for_all(boards, name):
    board = boards[name]
    names = [block.name for block in board.crypto_hw]
    assert names[: len(CRYPTO_BLOCKS)] == list(CRYPTO_BLOCKS)
    for block in board.crypto_hw:
        assert block.citation.source.strip()
        assert block.citation.confidence in CONFIDENCES


@pytest.mark.parametrize("name", sorted(EXPECTED_CRYPTO))
def test_crypto_hw_matches_the_datasheets(boards, name):
    board = boards[name]
    for peripheral, present in EXPECTED_CRYPTO[name].items():
        assert board.has_crypto(peripheral) is present, (name, peripheral)


@pytest.mark.parametrize("name", sorted(EXPECTED_CORES))
def test_present_blocks_state_what_they_provide_and_absent_ones_do_not(boards, name):
    for block in boards[name].crypto_hw:
        if not block.present:
            assert block.provides is None, (name, block.name)
            continue
        provides = block.provides
        assert provides is not None, (name, block.name)
        assert set(provides.functions) <= set(CRYPTO_FUNCTIONS)
        assert provides.citation.source.strip() and provides.citation.confidence in CONFIDENCES
        assert bool(provides.aes_key_bits) == ("AES" in provides.functions), (name, block.name)
        assert bool(provides.hash_algorithms) == ("HASH" in provides.functions), (name, block.name)
        assert set(provides.aes_key_bits) <= set(AES_KEY_BITS)
        assert set(provides.hash_algorithms) <= set(HASH_ALGORITHMS)


@pytest.mark.parametrize("name", sorted(EXPECTED_PROVIDES))
def test_part_crypto_functions_key_sizes_and_hash_algorithms(boards, name):
    board = boards[name]
    functions, key_bits, hashes = EXPECTED_PROVIDES[name]
    assert board.crypto_functions() == functions
    assert board.aes_key_bits() == key_bits
    assert board.hash_algorithms() == hashes


def test_every_board_has_an_expected_provides_entry():
    assert set(EXPECTED_PROVIDES) == set(EXPECTED_CORES)


def test_a_part_with_two_aes_engines_unions_their_key_sizes(boards):
    u585 = boards["stm32u585ai"]
    engines = {block.name for block in u585.blocks_providing("AES")}
    assert engines == {"AES", "SAES"}
    assert u585.aes_key_bits() == {128, 256}


def test_blocks_providing_rejects_an_unknown_function(boards):
    with pytest.raises(ValueError) as info:
        boards["stm32f437ii"].blocks_providing("SHA-256")
    assert "'SHA-256'" in str(info.value) and "HASH" in str(info.value)


@pytest.mark.parametrize("name", sorted(EXPECTED_DATASHEETS))
def test_datasheet_numbers(boards, name):
    assert boards[name].datasheet.split()[0] == EXPECTED_DATASHEETS[name]


def test_crypto_lookup_rejects_an_unknown_peripheral(boards):
    with pytest.raises(ValueError) as info:
        boards["stm32f407vg"].crypto("DES")
    assert "'DES'" in str(info.value) and "HASH" in str(info.value)


# ------------------------------------------------------------------------ memory consistency


@pytest.mark.parametrize("name", sorted(EXPECTED_CORES))
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
        assert any(region.name.startswith("DTCM") for region in board.sram)


# ------------------------------------------------------------------------------ schema errors


def _corrupt(tmp_path: Path, name: str, old: str, new: str) -> Path:
    text = (BOARD_DIR / f"{name}.toml").read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path = tmp_path / f"{name}.toml"
    path.write_text(text.replace(old, new), encoding="utf-8")
    return path


def _line_of(path: Path, fragment: str) -> int:
    lines = path.read_text(encoding="utf-8").splitlines()
    matches = [index + 1 for index, line in enumerate(lines) if fragment in line]
    assert len(matches) == 1, fragment
    return matches[0]


def test_an_untouched_copy_loads(tmp_path):
    path = _corrupt(tmp_path, "stm32f407vg", 'part = "STM32F407VG"', 'part = "STM32F407VG"')
    assert load_board_file(path).part == "STM32F407VG"


def test_missing_field_names_file_line_and_field(tmp_path):
    path = _corrupt(
        tmp_path, "stm32f407vg", "size_kib = 1024\nline_bits = 128\n", "size_kib = 1024\n"
    )
    with pytest.raises(BoardDataError) as info:
        load_board_file(path)
    error = info.value
    assert isinstance(error, EmulatorError) and isinstance(error, ValueError)
    assert error.path == str(path)
    assert error.field == "flash.line_bits"
    assert error.line == _line_of(path, "[flash]")
    assert "missing field" in str(error) and f"{path}:{error.line}" in str(error)


def test_wrong_type_points_at_the_value_line(tmp_path):
    path = _corrupt(tmp_path, "stm32l4a6zg", "size_kib = 1024", 'size_kib = "1 MB"')
    with pytest.raises(BoardDataError) as info:
        load_board_file(path)
    assert info.value.field == "flash.size_kib"
    assert info.value.line == _line_of(path, 'size_kib = "1 MB"')
    assert "expected an integer" in info.value.problem
    assert "1 MB" in info.value.text


def test_bad_core_lists_accepted_values(tmp_path):
    path = _corrupt(tmp_path, "stm32g071rb", 'core = "m0plus"', 'core = "m0+"')
    with pytest.raises(BoardDataError) as info:
        load_board_file(path)
    assert info.value.field == "core"
    assert info.value.line == _line_of(path, 'core = "m0+"')
    assert "m0plus" in info.value.problem and "m33" in info.value.problem


def test_bad_latency_row_points_at_that_row(tmp_path):
    path = _corrupt(
        tmp_path,
        "stm32l562qe",
        "{ max_mhz = 80, wait_states = 3 }",
        '{ max_mhz = "80", wait_states = 3 }',
    )
    with pytest.raises(BoardDataError) as info:
        load_board_file(path)
    assert info.value.field == "flash.wait_states[3].max_mhz"
    assert info.value.line == _line_of(path, 'max_mhz = "80"')


def test_latency_table_must_not_go_down(tmp_path):
    path = _corrupt(
        tmp_path,
        "stm32f437ii",
        "{ max_mhz = 150, wait_states = 4 }",
        "{ max_mhz = 150, wait_states = 1 }",
    )
    with pytest.raises(BoardDataError) as info:
        load_board_file(path)
    assert info.value.field == "flash.wait_states[4].wait_states"
    assert info.value.line == _line_of(path, "{ max_mhz = 150, wait_states = 1 }")


def test_latency_table_must_reach_the_part_maximum(tmp_path):
    path = _corrupt(tmp_path, "stm32u585ai", "    { max_mhz = 160, wait_states = 4 },\n", "")
    with pytest.raises(BoardDataError) as info:
        load_board_file(path)
    assert "below the part maximum" in info.value.problem


def test_missing_crypto_peripheral_is_reported(tmp_path):
    text = (BOARD_DIR / "stm32wb55rg.toml").read_text(encoding="utf-8")
    start = text.index("[crypto_hw.SAES]")
    end = text.index("[crypto_hw.CCB]")
    path = tmp_path / "stm32wb55rg.toml"
    path.write_text(text[:start] + text[end:], encoding="utf-8")
    with pytest.raises(BoardDataError) as info:
        load_board_file(path)
    assert info.value.field == "crypto_hw.SAES"
    assert info.value.line == _line_of(path, "[crypto_hw.AES]")


def test_bad_confidence_is_reported(tmp_path):
    path = _corrupt(
        tmp_path,
        "stm32h753zi",
        'source = "RM0433 (no PKA chapter)"\nconfidence = "unconfirmed"',
        'source = "RM0433 (no PKA chapter)"\nconfidence = "probably"',
    )
    with pytest.raises(BoardDataError) as info:
        load_board_file(path)
    assert info.value.field == "crypto_hw.PKA.confidence"
    assert info.value.line == _line_of(path, 'confidence = "probably"')


def test_present_block_without_provides_is_reported(tmp_path):
    text = (BOARD_DIR / "stm32wl55jc.toml").read_text(encoding="utf-8")
    start = text.index("[crypto_hw.PKA.provides]")
    end = text.index("[crypto_hw.RNG]")
    path = tmp_path / "stm32wl55jc.toml"
    path.write_text(text[:start] + text[end:], encoding="utf-8")
    with pytest.raises(BoardDataError) as info:
        load_board_file(path)
    assert info.value.field == "crypto_hw.PKA.provides"
    assert info.value.line == _line_of(path, "[crypto_hw.PKA]")
    assert "missing field" in info.value.problem


def test_absent_block_with_provides_is_reported(tmp_path):
    path = _corrupt(
        tmp_path,
        "stm32g071rb",
        "[crypto_hw.RNG]",
        '[crypto_hw.PKA.provides]\nfunctions = ["PKA"]\nsource = "x"\nconfidence = "primary"\n\n'
        "[crypto_hw.RNG]",
    )
    with pytest.raises(BoardDataError) as info:
        load_board_file(path)
    assert info.value.field == "crypto_hw.PKA.provides"
    assert info.value.line == _line_of(path, "[crypto_hw.PKA.provides]")
    assert "absent peripheral" in info.value.problem


def test_unknown_crypto_function_lists_accepted_values(tmp_path):
    path = _corrupt(tmp_path, "stm32wb55rg", 'functions = ["PKA"]', 'functions = ["ECC"]')
    with pytest.raises(BoardDataError) as info:
        load_board_file(path)
    assert info.value.field == "crypto_hw.PKA.provides.functions"
    assert info.value.line == _line_of(path, 'functions = ["ECC"]')
    assert "'ECC'" in info.value.problem and "AES, DES, HASH, PKA, RNG" in info.value.problem


def test_aes_engine_must_state_its_key_sizes(tmp_path):
    path = _corrupt(tmp_path, "stm32wl55jc", "aes_key_bits = [128, 256]\n", "")
    with pytest.raises(BoardDataError) as info:
        load_board_file(path)
    assert info.value.field == "crypto_hw.AES.provides.aes_key_bits"
    assert info.value.line == _line_of(path, "[crypto_hw.AES.provides]")


def test_aes_key_size_must_be_one_of_fips_197(tmp_path):
    path = _corrupt(
        tmp_path, "stm32wl55jc", "aes_key_bits = [128, 256]", "aes_key_bits = [128, 512]"
    )
    with pytest.raises(BoardDataError) as info:
        load_board_file(path)
    assert info.value.field == "crypto_hw.AES.provides.aes_key_bits"
    assert "512" in info.value.problem and "128, 192, 256" in info.value.problem


def test_key_sizes_only_for_a_block_providing_aes(tmp_path):
    path = _corrupt(
        tmp_path,
        "stm32wl55jc",
        'functions = ["PKA"]\n',
        'functions = ["PKA"]\naes_key_bits = [128]\n',
    )
    with pytest.raises(BoardDataError) as info:
        load_board_file(path)
    assert info.value.field == "crypto_hw.PKA.provides.aes_key_bits"
    assert "only for a block whose functions include AES" in info.value.problem


def test_hash_algorithms_must_not_repeat(tmp_path):
    path = _corrupt(
        tmp_path,
        "stm32f437ii",
        'hash_algorithms = ["MD5", "SHA-1", "SHA-224", "SHA-256"]',
        'hash_algorithms = ["MD5", "SHA-1", "SHA-1"]',
    )
    with pytest.raises(BoardDataError) as info:
        load_board_file(path)
    assert info.value.field == "crypto_hw.HASH.provides.hash_algorithms"
    assert "must not repeat" in info.value.problem


def test_published_clock_above_maximum_needs_a_finding(tmp_path):
    path = _corrupt(
        tmp_path, "stm32wb55rg", 'mhz = 64\nsource = "wolfSSL', 'mhz = 72\nsource = "wolfSSL'
    )
    with pytest.raises(BoardDataError) as info:
        load_board_file(path)
    assert info.value.field == "published_clocks[0].mhz"
    assert info.value.line == _line_of(path, "mhz = 72")
    assert "finding" in info.value.problem


def test_overlapping_sram_regions_are_reported(tmp_path):
    path = _corrupt(tmp_path, "stm32f407vg", "base = 0x2001_C000", "base = 0x2001_0000")
    with pytest.raises(BoardDataError) as info:
        load_board_file(path)
    assert info.value.field == "sram[2].base"
    assert "overlaps SRAM1" in info.value.problem


def test_cache_size_must_match_its_geometry(tmp_path):
    path = _corrupt(tmp_path, "stm32f407vg", "size_bytes = 1024", "size_bytes = 2048")
    with pytest.raises(BoardDataError) as info:
        load_board_file(path)
    assert info.value.field == "accelerators[0].size_bytes"
    assert info.value.line == _line_of(path, "size_bytes = 2048")


def test_name_must_match_the_file(tmp_path):
    text = (BOARD_DIR / "stm32f407vg.toml").read_text(encoding="utf-8")
    path = tmp_path / "stm32f407zg.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(BoardDataError) as info:
        load_board_file(path)
    assert info.value.field == "name" and info.value.line == _line_of(path, 'name = "stm32f407vg"')


def test_invalid_toml_names_the_line(tmp_path):
    path = _corrupt(tmp_path, "stm32f756zg", 'part = "STM32F756ZG"', 'part = "STM32F756ZG')
    with pytest.raises(BoardDataError) as info:
        load_board_file(path)
    assert info.value.line == _line_of(path, 'part = "STM32F756ZG')
    assert "not valid TOML" in info.value.problem


def test_unreadable_file_is_a_board_data_error(tmp_path):
    with pytest.raises(BoardDataError) as info:
        load_board_file(tmp_path / "stm32nothing.toml")
    assert "cannot read" in info.value.problem


# ----------------------------------------------------------------- timing tables (schema)


def test_timing_tables_load_with_their_rows(boards):
    cryp = boards["stm32f437ii"].crypto("CRYP").timing
    assert cryp is not None and cryp.clock == "hclk" and cryp.citation.confidence == "primary"
    row = next(r for r in cryp.rows if (r.operation, r.key_bits, r.phase) == ("CBC", 128, "block"))
    assert (row.cycles, row.bytes, row.kind) == (14, 16, "time")
    assert boards["stm32f407vg"].crypto("RNG").timing is None  # no document read for it: no table
    assert boards["stm32h753zi"].crypto("HASH").timing.max_clock_mhz(480) == 240
    assert boards["stm32f437ii"].crypto("RNG").timing.max_clock_mhz(16) == 48  # RNG_CLK is not the core's


def test_timing_row_typo_names_the_row_and_the_field(tmp_path):
    old = '{ function = "AES", operation = "ECB", key_bits = 128, phase = "block", bytes = 16, cycles = 14,'
    path = _corrupt(tmp_path, "stm32f437ii", old, old.replace("cycles = 14", "cylces = 14"))
    with pytest.raises(BoardDataError) as info:
        load_board_file(path)
    assert info.value.field == "crypto_hw.CRYP.timing.rows[0].cylces"
    assert info.value.line == _line_of(path, "cylces = 14")
    assert "unknown field" in info.value.problem and "cycles" in info.value.problem


def test_timing_table_without_source_is_reported(tmp_path):
    old = 'source = "RM0090 Rev 21 §25.3.1'
    path = _corrupt(tmp_path, "stm32f437ii", old, 'origin = "RM0090 Rev 21 §25.3.1')
    with pytest.raises(BoardDataError) as info:
        load_board_file(path)
    assert info.value.field == "crypto_hw.HASH.timing.origin"
    assert "unknown field" in info.value.problem
    path = _corrupt(tmp_path, "stm32f437ii", old, '# source = "RM0090 Rev 21 §25.3.1')
    with pytest.raises(BoardDataError) as info:
        load_board_file(path)
    assert info.value.field == "crypto_hw.HASH.timing.source" and "missing field" in info.value.problem
    assert info.value.line == _line_of(path, "[crypto_hw.HASH.timing]")


def test_timing_row_for_a_function_the_block_does_not_provide(tmp_path):
    old = '{ function = "HASH", operation = "MD5"'
    path = _corrupt(tmp_path, "stm32f437ii", old, '{ function = "AES", operation = "MD5"')
    with pytest.raises(BoardDataError) as info:
        load_board_file(path)
    assert info.value.field == "crypto_hw.HASH.timing.rows[3].function"
    assert "accepted: HASH" in info.value.problem


def test_timing_row_key_size_must_be_one_the_engine_takes(tmp_path):
    text = (BOARD_DIR / "stm32wl55jc.toml").read_text(encoding="utf-8")
    old = 'operation = "CTR", key_bits = 256'
    assert text.count(old) == 1
    path = _corrupt(tmp_path, "stm32wl55jc", old, 'operation = "CTR", key_bits = 192')
    with pytest.raises(BoardDataError) as info:
        load_board_file(path)
    assert info.value.field == "crypto_hw.AES.timing.rows[5].key_bits"
    assert "192" in info.value.problem and "128, 256" in info.value.problem


def test_timing_clock_must_be_a_known_clock(tmp_path):
    path = _corrupt(tmp_path, "stm32f437ii", 'clock = "rng_clk"', 'clock = "pll48clk"')
    with pytest.raises(BoardDataError) as info:
        load_board_file(path)
    assert info.value.field == "crypto_hw.RNG.timing.clock"
    assert info.value.line == _line_of(path, 'clock = "pll48clk"')
    assert "'pll48clk'" in info.value.problem and "hclk, rng_clk, shsi" in info.value.problem


def test_timing_clock_maximum_must_be_positive(tmp_path):
    path = _corrupt(tmp_path, "stm32u585ai", "clock_max_mhz = 55.2", "clock_max_mhz = -55.2")
    with pytest.raises(BoardDataError) as info:
        load_board_file(path)
    assert info.value.field == "crypto_hw.SAES.timing.clock_max_mhz" and "must be > 0" in info.value.problem


def test_timing_on_an_absent_block_is_reported(tmp_path):
    path = _corrupt(
        tmp_path,
        "stm32f437ii",
        "[crypto_hw.SAES]\n",
        "[crypto_hw.SAES.timing]\nclock = \"hclk\"\n\n[crypto_hw.SAES]\n",
    )
    with pytest.raises(BoardDataError) as info:
        load_board_file(path)
    assert info.value.field == "crypto_hw.SAES.timing"
    assert "absent peripheral has no processing times" in info.value.problem


def test_modexp_row_must_name_its_mode(tmp_path):
    old = 'cycles = 1775000, kind = "average", variant = "crt",'
    path = _corrupt(tmp_path, "stm32u585ai", old, 'cycles = 1775000, kind = "average",')
    with pytest.raises(BoardDataError) as info:
        load_board_file(path)
    assert info.value.field.startswith("crypto_hw.PKA.timing.rows[") and info.value.field.endswith("].variant")
    assert "normal, fast, protected, crt" in info.value.problem


def test_block_row_must_state_its_bytes(tmp_path):
    old = 'operation = "random", key_bits = 0, phase = "block", bytes = 4,'
    path = _corrupt(tmp_path, "stm32f437ii", old, old.replace("bytes = 4", "bytes = 0"))
    with pytest.raises(BoardDataError) as info:
        load_board_file(path)
    assert info.value.field == "crypto_hw.RNG.timing.rows[0].bytes"
    assert "bytes of its data block" in info.value.problem


# ------------------------------------------------ timing tables that cite another part's table


def _cycles_by_case(board, block):
    timing = board.crypto(block).timing
    assert timing is not None, (board.name, block)
    return {(r.function, r.operation, r.key_bits, r.phase, r.bytes): r.cycles for r in timing.rows}


def test_f7_cryp_tables_equal_the_f437_and_h753_tables_they_cite(boards):
    # stm32f756zg/stm32f777xi cite RM0090 Table 113 (F437 file) and RM0399 Tables 315/316 (H753 file).
    f437 = _cycles_by_case(boards["stm32f437ii"], "CRYP")
    h753 = _cycles_by_case(boards["stm32h753zi"], "CRYP")
    assert f437 == h753
    for name in ("stm32f756zg", "stm32f777xi"):
        assert _cycles_by_case(boards[name], "CRYP") == f437, name
        assert boards[name].crypto("CRYP").timing.citation.confidence == "unconfirmed"


def test_hash_tables_citing_rm0399_and_rm0090_equal_those_files(boards):
    f437 = _cycles_by_case(boards["stm32f437ii"], "HASH")
    assert f437 == _cycles_by_case(boards["stm32h753zi"], "HASH")
    for name in ("stm32f756zg", "stm32f777xi", "stm32l4a6zg", "stm32l562qe", "stm32u585ai"):
        assert _cycles_by_case(boards[name], "HASH") == f437, name


def test_h753_cryp_table_has_every_mode_and_key_size(boards):
    timing = boards["stm32h753zi"].crypto("CRYP").timing
    assert timing.citation.confidence == "unconfirmed" and "RM0399 Rev 4" in timing.citation.source
    cases = {(r.operation, r.key_bits, r.phase) for r in timing.rows}
    for bits in (128, 192, 256):
        for mode in ("ECB", "CBC", "CTR"):
            assert (mode, bits, "block") in cases
        for mode in ("GCM", "CCM"):
            assert {(mode, bits, phase) for phase in ("init", "header", "block", "tag")} <= cases
    assert {("DES", 0, "block"), ("TDES", 0, "block")} <= cases
    assert timing.max_clock_mhz(480) == 240 and timing.max_clock_mhz(200) == 200


def test_wb55_tables_are_rm0434s_and_primary(boards):
    wb55 = boards["stm32wb55rg"]
    aes = wb55.crypto("AES").timing
    assert aes.citation.confidence == "primary" and "RM0434 Rev 16" in aes.citation.source
    # RM0434 Table 137/138 numbers are those of RM0456 Tables 476/477 (U5 file).
    assert _cycles_by_case(wb55, "AES") == _cycles_by_case(boards["stm32u585ai"], "AES")
    pka = wb55.crypto("PKA").timing
    assert pka.citation.confidence == "primary" and all(r.kind == "average" for r in pka.rows)
    assert pka.max_clock_mhz(32) == 64  # an AHB clock of the part, not the CPU1 clock: only the 64 MHz ceiling
    sign = {r.key_bits: r.cycles for r in pka.rows if r.operation == "ecdsa-sign"}
    assert sign[256] == 5_249_000 and sign[521] == 35_540_000  # Table 167
    crt = {r.key_bits: r.cycles for r in pka.rows if r.operation == "modexp-private" and r.variant == "crt"}
    assert crt == {1024: 3_546_000, 2048: 23_468_000, 3072: 73_378_000}  # Table 165
