"""Part files (refbench.parts): every board profile has one, its crypto peripherals and what
they provide match the datasheets, its documented timing tables load with their citations, the
published clocks agree with the board profile's wait-state table, and a bad file is reported
with file, line and field."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from datafiles import corrupt_copy, line_of

from cortexm_emu.boards import CONFIDENCES, board_names, wait_states
from cortexm_emu.datafile import DataFileError
from refbench.cli import main as refbench_main
from refbench.parts import (
    AES_KEY_BITS,
    CRYPTO_BLOCKS,
    CRYPTO_FUNCTIONS,
    HASH_ALGORITHMS,
    PARTS_DIR,
    PartProfile,
    load_part_file,
    load_part_profile,
    part_profile_names,
)

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
    # RM0456 §3.1: the U5 HASH does MD5 too.
    "stm32u585ai": ({"AES", "HASH", "PKA", "RNG"}, {128, 256}, MD5_SHA2_256),
    # The H5 HASH is the newer IP: SHA-2 up to SHA-512, no MD5.
    "stm32h563zi": (
        {"HASH", "RNG"},
        set(),
        {"SHA-1", "SHA-224", "SHA-256", "SHA-384", "SHA-512", "SHA-512/224", "SHA-512/256"},
    ),
    "stm32g071rb": (set(), set(), set()),
    "rp2040": (set(), set(), set()),
    "mimxrt1062": ({"AES", "HASH", "RNG"}, {128}, {"SHA-1", "SHA-256"}),
    # MMCAU (AES, DES, MD5, SHA-1, SHA-256) and RNGA: the SDK's fsl_mmcau.h and rnga driver.
    "mk64fn1m0vll12": ({"AES", "DES", "HASH", "RNG"}, {128, 192, 256}, {"MD5", "SHA-1", "SHA-256"}),
    # HASHCRYPT (AES-128/192/256, SHA-1, SHA-256), CASPER (public key), RNG: SDK drivers.
    "lpc55s69jbd100": ({"AES", "HASH", "PKA", "RNG"}, {128, 192, 256}, {"SHA-1", "SHA-256"}),
    # the same blocks on the LPC55S16 (LPC55S16_features.h, the SDK's hashcrypt driver)
    "lpc55s16jbd100": ({"AES", "HASH", "PKA", "RNG"}, {128, 192, 256}, {"SHA-1", "SHA-256"}),
    # H7RS HAL CRYP (AES-128/192/256); HASH, PKA, SAES, RNG from the datasheet list (unconfirmed).
    "stm32h7s3l8": ({"AES", "HASH", "PKA", "RNG"}, {128, 192, 256}, {"SHA-1", "SHA-224", "SHA-256"}),
    "stm32f446re": (set(), set(), set()),
    "nrf52840": ({"AES", "HASH", "PKA", "RNG"}, {128}, {"SHA-1", "SHA-224", "SHA-256"}),
    "rp2350": ({"HASH", "RNG"}, set(), {"SHA-256"}),
    "nrf5340": ({"AES", "HASH", "PKA", "RNG"}, {128}, {"SHA-1", "SHA-224", "SHA-256"}),
    "mimxrt1176": ({"AES", "DES", "HASH", "PKA", "RNG"}, {128, 192, 256},
                   {"MD5", "SHA-1", "SHA-224", "SHA-256", "SHA-384", "SHA-512"}),
    "efr32mg21": ({"AES", "HASH", "PKA", "RNG"}, {128, 192, 256}, {"SHA-1", "SHA-224", "SHA-256"}),
    "samd51j19a": ({"AES", "HASH", "PKA", "RNG"}, {128, 192, 256}, {"SHA-1", "SHA-224", "SHA-256"}),
    "stm32l4r5zi": ({"RNG"}, set(), set()),
    "stm32f207zg": ({"RNG"}, set(), set()),
    "same70q21b": ({"AES", "HASH", "RNG"}, {128, 192, 256}, {"SHA-1", "SHA-224", "SHA-256"}),
    # No PKA on the WL33 (CubeWL3 HAL module list, CMSIS IRQ table).
    "stm32wl33cc": ({"AES", "RNG"}, {128, 256}, set()),
    "stm32u385rg": (
        {"AES", "HASH", "PKA", "RNG"},
        {128, 256},
        {"SHA-1", "SHA-224", "SHA-256", "SHA-384", "SHA-512"},
    ),
}

#: Datasheet numbers as settled when the part facts were merged (repositories citing the ST


@pytest.fixture(scope="module")
def parts() -> dict[str, PartProfile]:
    return {name: load_part_profile(name) for name in part_profile_names()}


def test_every_board_profile_has_a_part_file_and_no_other():
    assert part_profile_names() == board_names()


@pytest.mark.parametrize("name", board_names())
def test_part_file_links_its_board_profile(parts, name):
    part = parts[name]
    assert part.board.name == name and part.part == part.board.part
    assert part.published_clocks and all(clock.source.strip() for clock in part.published_clocks)
    json.dumps(part.as_dict())  # JSON-ready for `refbench parts --json`


def _citations(node) -> list[dict]:
    """Every table of a JSON-ready record that carries a confidence."""
    if isinstance(node, dict):
        own = [node] if "confidence" in node else []
        return own + [c for value in node.values() for c in _citations(value)]
    if isinstance(node, list):
        return [c for value in node for c in _citations(value)]
    return []


def test_every_crypto_value_cites_a_source(parts):
    for name, part in parts.items():
        citations = _citations(part.as_dict())
        for citation in citations:
            assert citation["confidence"] in CONFIDENCES and citation["source"].strip(), name
        # every crypto block, what every present block provides, and the two citations
        # (numbers, clock) of every documented timing table
        present = sum(block.present for block in part.crypto_hw)
        timed = sum(block.timing is not None for block in part.crypto_hw)
        assert len(citations) == len(part.crypto_hw) + present + 2 * timed, name


# ------------------------------------------------------------------------------- wait states


@pytest.mark.parametrize("name", sorted(EXPECTED_WAIT_STATES))
def test_wait_states_at_published_clocks(parts, name):
    board = parts[name]
    expected = EXPECTED_WAIT_STATES[name]
    for clock in board.published_clocks_mhz:
        if (name, clock) in KNOWN_FINDINGS:
            continue
        assert wait_states(board.board, clock) == expected[clock], (name, clock)
    in_range = {c for c in board.published_clocks_mhz if (name, c) not in KNOWN_FINDINGS}
    assert set(expected) == in_range


def test_wait_states_reported_by_a_source_agree_with_the_table(parts):
    reported = [
        (board, clock)
        for board in parts.values()
        for clock in board.published_clocks
        if clock.reported_wait_states is not None
    ]
    assert any(clock.seed for _, clock in reported)  # the ST CMOX page states 2 WS at 48 MHz
    for board, clock in reported:
        assert wait_states(board.board, clock.mhz) == clock.reported_wait_states, (board.name, clock.mhz)


# ------------------------------------------------------------------ max clock and findings


def test_max_clock_covers_every_published_clock_except_known_findings(parts):
    violations = {
        (board.name, clock.mhz): board.board.max_clock_mhz
        for board in parts.values()
        for clock in board.published_clocks
        if clock.mhz > board.board.max_clock_mhz
    }
    assert violations == KNOWN_FINDINGS


def test_wl55_published_64_mhz_exceeds_the_part_maximum(parts):
    """Known finding: wolfSSL's WL55 section says 64 MHz; the STM32WL55 stops at 48 MHz."""
    board = parts["stm32wl55jc"]
    assert board.board.max_clock_mhz == 48
    clock = next(c for c in board.published_clocks if c.mhz == 64)
    assert clock.seed == "000_950e0926bdf8c114.txt"
    assert "48 MHz" in clock.finding
    with pytest.raises(ValueError) as info:
        wait_states(board.board, 64)
    assert "64 MHz" in str(info.value) and "48 MHz" in str(info.value)
    # The ST CMOX page (seed 002) used a clock the part supports, with the wait states it states.
    cmox = next(c for c in board.published_clocks if c.seed == "002_5291703a875d4f7f.txt")
    assert (cmox.mhz, cmox.reported_wait_states) == (48, 2)


def test_findings_are_recorded_only_where_the_clock_is_out_of_range(parts):
    for board in parts.values():
        for clock in board.published_clocks:
            key = (board.name, clock.mhz)
            assert bool(clock.finding) == (key in KNOWN_FINDINGS), key


# -------------------------------------------------------------------------------- crypto HW


@pytest.mark.parametrize("name", board_names())
def test_crypto_hw_fields_present_for_all(parts, name):
    board = parts[name]
    names = [block.name for block in board.crypto_hw]
    assert names[: len(CRYPTO_BLOCKS)] == list(CRYPTO_BLOCKS)
    for block in board.crypto_hw:
        assert block.citation.source.strip()
        assert block.citation.confidence in CONFIDENCES


@pytest.mark.parametrize("name", sorted(EXPECTED_CRYPTO))
def test_crypto_hw_matches_the_datasheets(parts, name):
    board = parts[name]
    for peripheral, present in EXPECTED_CRYPTO[name].items():
        assert board.has_crypto(peripheral) is present, (name, peripheral)


@pytest.mark.parametrize("name", board_names())
def test_present_blocks_state_what_they_provide_and_absent_ones_do_not(parts, name):
    for block in parts[name].crypto_hw:
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
def test_part_crypto_functions_key_sizes_and_hash_algorithms(parts, name):
    board = parts[name]
    functions, key_bits, hashes = EXPECTED_PROVIDES[name]
    assert board.crypto_functions() == functions
    assert board.aes_key_bits() == key_bits
    assert board.hash_algorithms() == hashes


def test_every_board_has_an_expected_provides_entry():
    assert set(EXPECTED_PROVIDES) == set(board_names())


def test_a_part_with_two_aes_engines_unions_their_key_sizes(parts):
    u585 = parts["stm32u585ai"]
    engines = {block.name for block in u585.blocks_providing("AES")}
    assert engines == {"AES", "SAES"}
    assert u585.aes_key_bits() == {128, 256}


def test_blocks_providing_rejects_an_unknown_function(parts):
    with pytest.raises(ValueError) as info:
        parts["stm32f437ii"].blocks_providing("SHA-256")
    assert "'SHA-256'" in str(info.value) and "HASH" in str(info.value)


def test_crypto_lookup_rejects_an_unknown_peripheral(parts):
    with pytest.raises(ValueError) as info:
        parts["stm32f407vg"].crypto("DES")
    assert "'DES'" in str(info.value) and "HASH" in str(info.value)


# ------------------------------------------------------------------------------ schema errors


def _corrupt(tmp_path: Path, name: str, old: str, new: str) -> Path:
    return corrupt_copy(PARTS_DIR / f"{name}.toml", tmp_path, old, new)


def test_an_untouched_copy_loads(tmp_path):
    path = _corrupt(tmp_path, "stm32f437ii", 'board = "stm32f437ii"', 'board = "stm32f437ii"')
    assert load_part_file(path).crypto_functions() == {"AES", "DES", "HASH", "RNG"}


def test_part_file_error_is_the_project_s_data_file_error(tmp_path):
    path = _corrupt(tmp_path, "stm32f437ii", "[crypto_hw.PKA]\npresent = false", "[crypto_hw.PKA]\npresent = 0")
    with pytest.raises(DataFileError) as info:
        load_part_file(path)
    error = info.value
    assert type(error) is DataFileError and isinstance(error, ValueError)
    assert error.field == "crypto_hw.PKA.present" and error.line == line_of(path, "present = 0")
    assert f"{path}:{error.line}: field 'crypto_hw.PKA.present'" in str(error)


def test_board_must_name_an_existing_profile(tmp_path):
    text = (PARTS_DIR / "stm32f437ii.toml").read_text(encoding="utf-8")
    path = tmp_path / "stm32f999xx.toml"
    path.write_text(text.replace('board = "stm32f437ii"', 'board = "stm32f999xx"'), encoding="utf-8")
    with pytest.raises(DataFileError) as info:
        load_part_file(path)
    assert info.value.field == "board" and info.value.line == line_of(path, 'board = "stm32f999xx"')
    assert "no board profile" in info.value.problem and "stm32f437ii" in info.value.problem


def test_board_must_match_the_file_name(tmp_path):
    text = (PARTS_DIR / "stm32f437ii.toml").read_text(encoding="utf-8")
    path = tmp_path / "stm32f407vg.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DataFileError) as info:
        load_part_file(path)
    assert info.value.field == "board" and "file name stem" in info.value.problem


@pytest.mark.parametrize(
    ("name", "old", "new", "field"),
    [
        ("stm32wl55jc", "board_as_published = ", "board_as_publised = ", "board_as_publised"),
        ("stm32g071rb", "[crypto_hw.RNG]\npresent = false", "[crypto_hw.RNG]\npresnt = false",
         "crypto_hw.RNG.presnt"),
        ("stm32wl55jc", "reported_wait_states = 2", "reported_waitstates = 2",
         "published_clocks[1].reported_waitstates"),
        ("stm32wl55jc", "aes_key_bits = [128, 256]", "aes_keybits = [128, 256]", "crypto_hw.AES.provides.aes_keybits"),
        ("stm32f437ii", 'clock = "rng_clk"', 'clok = "rng_clk"', "crypto_hw.RNG.timing.clok"),
    ],
)
def test_misspelt_key_is_reported_at_its_line(tmp_path, name, old, new, field):
    path = _corrupt(tmp_path, name, old, new)
    with pytest.raises(DataFileError) as info:
        load_part_file(path)
    misspelt = field.rsplit(".", 1)[-1]
    assert info.value.field == field and "unknown field" in info.value.problem
    assert info.value.line == line_of(path, f"{misspelt} = ")


def test_missing_crypto_peripheral_is_reported(tmp_path):
    text = (PARTS_DIR / "stm32wb55rg.toml").read_text(encoding="utf-8")
    start = text.index("[crypto_hw.SAES]")
    end = text.index("[crypto_hw.CCB]")
    path = tmp_path / "stm32wb55rg.toml"
    path.write_text(text[:start] + text[end:], encoding="utf-8")
    with pytest.raises(DataFileError) as info:
        load_part_file(path)
    assert info.value.field == "crypto_hw.SAES"
    assert info.value.line == line_of(path, "[crypto_hw.AES]")


def test_bad_confidence_is_reported(tmp_path):
    path = _corrupt(
        tmp_path,
        "stm32h753zi",
        'source = "RM0433 (no PKA chapter)"\nconfidence = "unconfirmed"',
        'source = "RM0433 (no PKA chapter)"\nconfidence = "probably"',
    )
    with pytest.raises(DataFileError) as info:
        load_part_file(path)
    assert info.value.field == "crypto_hw.PKA.confidence"
    assert info.value.line == line_of(path, 'confidence = "probably"')


def test_present_block_without_provides_is_reported(tmp_path):
    text = (PARTS_DIR / "stm32wl55jc.toml").read_text(encoding="utf-8")
    start = text.index("[crypto_hw.PKA.provides]")
    end = text.index("[crypto_hw.RNG]")
    path = tmp_path / "stm32wl55jc.toml"
    path.write_text(text[:start] + text[end:], encoding="utf-8")
    with pytest.raises(DataFileError) as info:
        load_part_file(path)
    assert info.value.field == "crypto_hw.PKA.provides"
    assert info.value.line == line_of(path, "[crypto_hw.PKA]")
    assert "missing field" in info.value.problem


def test_absent_block_with_provides_is_reported(tmp_path):
    path = _corrupt(
        tmp_path,
        "stm32g071rb",
        "[crypto_hw.RNG]",
        '[crypto_hw.PKA.provides]\nfunctions = ["PKA"]\nsource = "x"\nconfidence = "primary"\n\n'
        "[crypto_hw.RNG]",
    )
    with pytest.raises(DataFileError) as info:
        load_part_file(path)
    assert info.value.field == "crypto_hw.PKA.provides"
    assert info.value.line == line_of(path, "[crypto_hw.PKA.provides]")
    assert "absent peripheral" in info.value.problem


def test_unknown_crypto_function_lists_accepted_values(tmp_path):
    path = _corrupt(tmp_path, "stm32wb55rg", 'functions = ["PKA"]', 'functions = ["ECC"]')
    with pytest.raises(DataFileError) as info:
        load_part_file(path)
    assert info.value.field == "crypto_hw.PKA.provides.functions"
    assert info.value.line == line_of(path, 'functions = ["ECC"]')
    assert "'ECC'" in info.value.problem and "AES, DES, HASH, PKA, RNG" in info.value.problem


def test_aes_engine_must_state_its_key_sizes(tmp_path):
    path = _corrupt(tmp_path, "stm32wl55jc", "aes_key_bits = [128, 256]\n", "")
    with pytest.raises(DataFileError) as info:
        load_part_file(path)
    assert info.value.field == "crypto_hw.AES.provides.aes_key_bits"
    assert info.value.line == line_of(path, "[crypto_hw.AES.provides]")


def test_aes_key_size_must_be_one_of_fips_197(tmp_path):
    path = _corrupt(
        tmp_path, "stm32wl55jc", "aes_key_bits = [128, 256]", "aes_key_bits = [128, 512]"
    )
    with pytest.raises(DataFileError) as info:
        load_part_file(path)
    assert info.value.field == "crypto_hw.AES.provides.aes_key_bits"
    assert "512" in info.value.problem and "128, 192, 256" in info.value.problem


def test_key_sizes_only_for_a_block_providing_aes(tmp_path):
    path = _corrupt(
        tmp_path,
        "stm32wl55jc",
        'functions = ["PKA"]\n',
        'functions = ["PKA"]\naes_key_bits = [128]\n',
    )
    with pytest.raises(DataFileError) as info:
        load_part_file(path)
    assert info.value.field == "crypto_hw.PKA.provides.aes_key_bits"
    assert "only for a block whose functions include AES" in info.value.problem


def test_hash_algorithms_must_not_repeat(tmp_path):
    path = _corrupt(
        tmp_path,
        "stm32f437ii",
        'hash_algorithms = ["MD5", "SHA-1", "SHA-224", "SHA-256"]',
        'hash_algorithms = ["MD5", "SHA-1", "SHA-1"]',
    )
    with pytest.raises(DataFileError) as info:
        load_part_file(path)
    assert info.value.field == "crypto_hw.HASH.provides.hash_algorithms"
    assert "must not repeat" in info.value.problem


def test_published_clock_above_maximum_needs_a_finding(tmp_path):
    path = _corrupt(
        tmp_path, "stm32wb55rg", 'mhz = 64\nsource = "wolfSSL', 'mhz = 72\nsource = "wolfSSL'
    )
    with pytest.raises(DataFileError) as info:
        load_part_file(path)
    assert info.value.field == "published_clocks[0].mhz"
    assert info.value.line == line_of(path, "mhz = 72")
    assert "finding" in info.value.problem


# ----------------------------------------------------------------- timing tables (schema)


def test_timing_tables_load_with_their_rows(parts):
    cryp = parts["stm32f437ii"].crypto("CRYP").timing
    assert cryp is not None and cryp.clock == "hclk" and cryp.citation.confidence == "primary"
    row = next(r for r in cryp.rows if (r.operation, r.key_bits, r.phase) == ("CBC", 128, "block"))
    assert (row.cycles, row.bytes, row.kind) == (14, 16, "time")
    assert parts["stm32f407vg"].crypto("RNG").timing is None  # no document read for it: no table
    assert parts["stm32h753zi"].crypto("HASH").timing.max_clock_mhz(480) == 240
    assert parts["stm32f437ii"].crypto("RNG").timing.max_clock_mhz(16) == 48  # RNG_CLK is not the core's


def test_timing_row_typo_names_the_row_and_the_field(tmp_path):
    old = '{ function = "AES", operation = "ECB", key_bits = 128, phase = "block", bytes = 16, cycles = 14,'
    path = _corrupt(tmp_path, "stm32f437ii", old, old.replace("cycles = 14", "cylces = 14"))
    with pytest.raises(DataFileError) as info:
        load_part_file(path)
    assert info.value.field == "crypto_hw.CRYP.timing.rows[0].cylces"
    assert info.value.line == line_of(path, "cylces = 14")
    assert "unknown field" in info.value.problem and "cycles" in info.value.problem


def test_timing_table_without_source_is_reported(tmp_path):
    old = 'source = "RM0090 Rev 21 §25.3.1'
    path = _corrupt(tmp_path, "stm32f437ii", old, 'origin = "RM0090 Rev 21 §25.3.1')
    with pytest.raises(DataFileError) as info:
        load_part_file(path)
    assert info.value.field == "crypto_hw.HASH.timing.origin"
    assert "unknown field" in info.value.problem
    path = _corrupt(tmp_path, "stm32f437ii", old, '# source = "RM0090 Rev 21 §25.3.1')
    with pytest.raises(DataFileError) as info:
        load_part_file(path)
    assert info.value.field == "crypto_hw.HASH.timing.source" and "missing field" in info.value.problem
    assert info.value.line == line_of(path, "[crypto_hw.HASH.timing]")


def test_timing_row_for_a_function_the_block_does_not_provide(tmp_path):
    old = '{ function = "HASH", operation = "MD5"'
    path = _corrupt(tmp_path, "stm32f437ii", old, '{ function = "AES", operation = "MD5"')
    with pytest.raises(DataFileError) as info:
        load_part_file(path)
    assert info.value.field == "crypto_hw.HASH.timing.rows[3].function"
    assert "accepted: HASH" in info.value.problem


def test_timing_row_key_size_must_be_one_the_engine_takes(tmp_path):
    text = (PARTS_DIR / "stm32wl55jc.toml").read_text(encoding="utf-8")
    old = 'operation = "CTR", key_bits = 256'
    assert text.count(old) == 1
    path = _corrupt(tmp_path, "stm32wl55jc", old, 'operation = "CTR", key_bits = 192')
    with pytest.raises(DataFileError) as info:
        load_part_file(path)
    assert info.value.field == "crypto_hw.AES.timing.rows[5].key_bits"
    assert "192" in info.value.problem and "128, 256" in info.value.problem


def test_timing_clock_must_be_a_known_clock(tmp_path):
    path = _corrupt(tmp_path, "stm32f437ii", 'clock = "rng_clk"', 'clock = "pll48clk"')
    with pytest.raises(DataFileError) as info:
        load_part_file(path)
    assert info.value.field == "crypto_hw.RNG.timing.clock"
    assert info.value.line == line_of(path, 'clock = "pll48clk"')
    assert "'pll48clk'" in info.value.problem and "hclk, rng_clk, shsi" in info.value.problem


def test_timing_clock_maximum_must_be_positive(tmp_path):
    path = _corrupt(tmp_path, "stm32u585ai", "clock_max_mhz = 55.2", "clock_max_mhz = -55.2")
    with pytest.raises(DataFileError) as info:
        load_part_file(path)
    assert info.value.field == "crypto_hw.SAES.timing.clock_max_mhz" and "must be > 0" in info.value.problem


def test_timing_on_an_absent_block_is_reported(tmp_path):
    path = _corrupt(
        tmp_path,
        "stm32f437ii",
        "[crypto_hw.SAES]\n",
        "[crypto_hw.SAES.timing]\nclock = \"hclk\"\n\n[crypto_hw.SAES]\n",
    )
    with pytest.raises(DataFileError) as info:
        load_part_file(path)
    assert info.value.field == "crypto_hw.SAES.timing"
    assert "absent peripheral has no processing times" in info.value.problem


def test_modexp_row_must_name_its_mode(tmp_path):
    old = 'cycles = 1775000, kind = "average", variant = "crt",'
    path = _corrupt(tmp_path, "stm32u585ai", old, 'cycles = 1775000, kind = "average",')
    with pytest.raises(DataFileError) as info:
        load_part_file(path)
    assert info.value.field.startswith("crypto_hw.PKA.timing.rows[") and info.value.field.endswith("].variant")
    assert "normal, fast, protected, crt" in info.value.problem


def test_block_row_must_state_its_bytes(tmp_path):
    old = 'operation = "random", key_bits = 0, phase = "block", bytes = 4,'
    path = _corrupt(tmp_path, "stm32f437ii", old, old.replace("bytes = 4", "bytes = 0"))
    with pytest.raises(DataFileError) as info:
        load_part_file(path)
    assert info.value.field == "crypto_hw.RNG.timing.rows[0].bytes"
    assert "bytes of its data block" in info.value.problem


# ------------------------------------------------ timing tables that cite another part's table


def _cycles_by_case(board, block):
    timing = board.crypto(block).timing
    assert timing is not None, (board.name, block)
    return {(r.function, r.operation, r.key_bits, r.phase, r.bytes): r.cycles for r in timing.rows}


def test_f7_cryp_tables_equal_the_f437_and_h753_tables_they_cite(parts):
    # stm32f756zg/stm32f777xi cite RM0090 Table 113 (F437 file) and RM0399 Tables 315/316 (H753 file).
    f437 = _cycles_by_case(parts["stm32f437ii"], "CRYP")
    h753 = _cycles_by_case(parts["stm32h753zi"], "CRYP")
    assert f437 == h753
    for name in ("stm32f756zg", "stm32f777xi"):
        assert _cycles_by_case(parts[name], "CRYP") == f437, name
        assert parts[name].crypto("CRYP").timing.citation.confidence == "unconfirmed"


def test_hash_tables_citing_rm0399_and_rm0090_equal_those_files(parts):
    f437 = _cycles_by_case(parts["stm32f437ii"], "HASH")
    assert f437 == _cycles_by_case(parts["stm32h753zi"], "HASH")
    for name in ("stm32f756zg", "stm32f777xi", "stm32l4a6zg", "stm32l562qe", "stm32u585ai"):
        assert _cycles_by_case(parts[name], "HASH") == f437, name


def test_h753_cryp_table_has_every_mode_and_key_size(parts):
    timing = parts["stm32h753zi"].crypto("CRYP").timing
    assert timing.citation.confidence == "unconfirmed" and "RM0399 Rev 4" in timing.citation.source
    cases = {(r.operation, r.key_bits, r.phase) for r in timing.rows}
    for bits in (128, 192, 256):
        for mode in ("ECB", "CBC", "CTR"):
            assert (mode, bits, "block") in cases
        for mode in ("GCM", "CCM"):
            assert {(mode, bits, phase) for phase in ("init", "header", "block", "tag")} <= cases
    assert {("DES", 0, "block"), ("TDES", 0, "block")} <= cases
    assert timing.max_clock_mhz(480) == 240 and timing.max_clock_mhz(200) == 200


def test_wb55_tables_are_rm0434s_and_primary(parts):
    wb55 = parts["stm32wb55rg"]
    aes = wb55.crypto("AES").timing
    assert aes.citation.confidence == "primary" and "RM0434 Rev 16" in aes.citation.source
    # RM0434 Table 137/138 numbers are those of RM0456 Tables 476/477 (U5 file).
    assert _cycles_by_case(wb55, "AES") == _cycles_by_case(parts["stm32u585ai"], "AES")
    pka = wb55.crypto("PKA").timing
    assert pka.citation.confidence == "primary" and all(r.kind == "average" for r in pka.rows)
    assert pka.max_clock_mhz(32) == 64  # an AHB clock of the part, not the CPU1 clock: only the 64 MHz ceiling
    sign = {r.key_bits: r.cycles for r in pka.rows if r.operation == "ecdsa-sign"}
    assert sign[256] == 5_249_000 and sign[521] == 35_540_000  # Table 167
    crt = {r.key_bits: r.cycles for r in pka.rows if r.operation == "modexp-private" and r.variant == "crt"}
    assert crt == {1024: 3_546_000, 2048: 23_468_000, 3072: 73_378_000}  # Table 165


# ------------------------------------------------------------------------------ refbench parts


def test_parts_command_json_lists_every_part_with_its_timing_citations(capsys):
    assert refbench_main(["parts", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [entry["board"] for entry in data] == board_names()
    f437 = next(entry for entry in data if entry["name"] == "stm32f437ii")
    cryp = next(block for block in f437["crypto_hw"] if block["name"] == "CRYP")
    assert cryp["timing"]["citation"]["source"].startswith("RM0090 Rev 21")
    assert cryp["timing"]["citation"]["confidence"] == "primary"
    assert f437["published_clocks_mhz"] == [160]


def test_parts_command_table_shows_the_selected_part(capsys):
    assert refbench_main(["parts", "--part", "stm32wb55rg"]) == 0
    out = capsys.readouterr().out
    assert "stm32wb55rg" in out and "PKA" in out and "RM0434" in out and "stm32f437ii" not in out


def test_parts_command_rejects_an_unknown_part(capsys):
    assert refbench_main(["parts", "--part", "stm32f999"]) == 2
    err = capsys.readouterr().err
    assert "'stm32f999'" in err and "stm32f437ii" in err
