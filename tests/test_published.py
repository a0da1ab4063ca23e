"""The transcription of the five published pages: seeds, round trip, schema, normalisation."""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter, defaultdict
from dataclasses import replace
from pathlib import Path

import pytest

from cortexm_emu.datafile import DataFileError
from refbench.published import load_figures, load_parts, load_sources, model, normalise, transcribe
from refbench.published.model import (
    FIGURES_PATH,
    PERIPHERALS,
    SEEDS_DIR,
    SOURCE_FILES,
    SOURCES_PATH,
)
from refbench.published.normalise import unit_bytes

SHARED_SEEDS = Path(__file__).resolve().parents[2] / "shared" / "seeds"
FIGURES = load_figures()
EXPECTED_COUNTS = {"000": 601, "001": 114, "002": 376, "003": 134, "004": 173}


def seed_text(name: str) -> str:
    return (SEEDS_DIR / name).read_text(encoding="utf-8")


def by_source(prefix: str) -> list:
    return sorted((f for f in FIGURES if f.source.startswith(prefix)), key=lambda f: f.offset)


# --- seeds ------------------------------------------------------------------------------


@pytest.mark.parametrize("name", SOURCE_FILES)
def test_seed_copy_matches_recorded_digest(name):
    digest = hashlib.sha256((SEEDS_DIR / name).read_bytes()).hexdigest()
    assert digest == load_sources()[name].sha256


@pytest.mark.parametrize("name", SOURCE_FILES)
def test_seed_copy_equals_shared_seed_when_present(name):
    shared = SHARED_SEEDS / name
    package_bytes = (SEEDS_DIR / name).read_bytes()
    if SHARED_SEEDS.is_dir():
        assert package_bytes == shared.read_bytes()
    else:  # a clone without ../shared: the recorded digest is the only witness
        assert hashlib.sha256(package_bytes).hexdigest() == load_sources()[name].sha256


# --- transcription ----------------------------------------------------------------------


def test_figures_json_is_what_the_transcription_script_gives():
    assert FIGURES_PATH.read_text(encoding="utf-8") == transcribe.render(transcribe.transcribe_all())


def test_counts_per_source():
    counts = Counter(f.source[:3] for f in FIGURES)
    assert dict(counts) == EXPECTED_COUNTS


def test_every_figure_points_at_its_row_in_the_seed():
    for f in FIGURES:
        text = seed_text(f.source)
        assert text[f.offset: f.offset + len(f.row)] == f.row, f.id
        assert f.text in f.row, f.id


_WOLF_ROW = re.compile(
    r"(\d+) (KB|MB|KiB|MiB) took (\d+\.\d+) seconds, +(\d+\.\d+) (KB|MB|KiB|MiB)/s"
    r"|(\d+) ops took (\d+\.\d+) sec, avg (\d+\.\d+) ms, (\d+\.\d+) ops/sec"
)


def test_wolfssl_round_trip_every_number():
    """An independent parse of the raw page: every printed number of every row, in order."""
    raw = [tuple(x for x in m.groups() if x is not None) for m in _WOLF_ROW.finditer(seed_text(SOURCE_FILES[0]))]
    data = []
    for f in by_source("000"):
        if f.metric == "throughput":
            amount, duration = f.aux_value("amount"), f.aux_value("duration")
            data.append((amount.text, amount.unit, duration.text, f.text, f.unit.removesuffix("/s")))
        else:
            ops, duration, rate = f.aux_value("ops"), f.aux_value("duration"), f.aux_value("ops_per_s")
            data.append((ops.text, duration.text, f.text, rate.text))
    assert data == raw
    assert len(raw) == seed_text(SOURCE_FILES[0]).count(" took ")


@pytest.mark.parametrize("prefix", ["001", "003", "004"])
def test_cyclone_round_trip_every_cell(prefix):
    name = next(s for s in SOURCE_FILES if s.startswith(prefix))
    text = seed_text(name)
    assert len(by_source(prefix)) == len(re.findall(r" MB/s| ms", text))
    rows = defaultdict(list)
    for f in by_source(prefix):
        rows[(f.offset, f.row, f.label)].append(f)
    covered = set()
    for (offset, row, label), figures in rows.items():
        assert row.startswith(label)
        cells = re.findall(r"\d+(?:\.\d+)? (?:MB/s|ms)|-", row[len(label):])
        assert "".join(cells) == row[len(label):]
        assert [c for c in cells if c != "-"] == [f"{f.text} {f.unit}" for f in figures]
        covered.add(offset)
    offset = 0
    for line in text.split("\n"):  # no table row with a value is left out
        if re.search(r"\d (MB/s|ms)", line):
            assert offset in covered, line
        offset += len(line) + 1


def test_cmox_round_trip_every_cell():
    text = seed_text(SOURCE_FILES[2])
    rows = defaultdict(list)
    for f in by_source("002"):
        rows[(f.offset, f.row)].append(f)
    for (_, row), figures in rows.items():
        cells = []
        for f in figures:
            if f.metric == "cycles":
                extra = f.aux[0]
                cells += [f.text, f"{extra.text} {extra.unit}"]
            else:
                cells.append(f.text if f.notes else f"{f.text} {f.unit}")
        assert row.endswith(" " + " ".join(cells)), row
    table_rows = [line for line in text.split("\n")
                  if re.match(r"(AES CBC|SHA(256|384)|Encryption|Decryption|SECP\d+R1|Ed25519|v2\.2) ", line)]
    assert len(table_rows) == len(rows)
    assert sum(f.metric == "cycles" for f in FIGURES if f.source == SOURCE_FILES[2]) == \
        len(re.findall(r"(µs|ms|Kbytes/s)\n", text))


def test_cmox_unitless_code_cell_is_read_as_code_1358_constant_280():
    f = [x for x in by_source("002") if x.row == "SHA256 1358 280 bytes 0 bytes 532 bytes"]
    assert [(x.metric, x.value) for x in f] == [
        ("code_bytes", 1358), ("constant_bytes", 280), ("global_bytes", 0), ("stack_bytes", 532)]


def test_cmox_thousands_separator_is_a_space():
    f = next(x for x in by_source("002") if x.row.startswith("v2.2 No CRT SHA-256 3K Signature Small Low")
             and x.metric == "cycles")
    assert f.value == 713462520 and f.aux[0].text == "14 863" and f.aux[0].value == 14863


def test_cyclone_names_ending_in_digits_are_split_from_values():
    sha224 = next(f for f in by_source("001") if f.label == "SHA-224")
    assert sha224.value == 0.318 and sha224.row == "SHA-2240.318 MB/s"
    md5 = next(f for f in by_source("003") if f.label == "MD5" and f.implementation == "hardware")
    assert md5.value == 147.058


@pytest.mark.parametrize(("title", "algorithm", "pka"), [
    ("STM32X (STM PKA PKA w/Fast Math)", "ECC-P256", True),
    ("STM32X (STM PKA PKA w/Fast Math)", "ECDH-P256", True),
    ("STM32X (STM PKA PKA w/Fast Math)", "ECDSA-P256", True),
    ("STM32X (STM PKA PKA w/Fast Math)", "RSA-2048", False),  # stm32.c drives no modular exponentiation
    ("STM32X (STM Symmetric AES/SHA acceleration, SP Math ASM Cortex M)", "ECDH-P256", False),
    ("STM32X (No HW Crypto, -Os, FastMath)", "ECDSA-P256", False),
])
def test_a_pka_section_claims_the_pka_for_every_ecc_operation(title, algorithm, pka):
    claims = transcribe.wolfssl_hw(title, "Supports RNG, AES CBC/GCM and SHA-1,SHA-2 acceleration.")
    assert ("PKA" in transcribe.wolfssl_figure_hw(claims, algorithm, None)) == pka


def test_wolfssl_contexts():
    g071_big = [f for f in by_source("000") if "Without" in f.config]
    assert [f.label for f in g071_big] == ["RSA 2048 public", "RSA 2048 private"]
    assert {f.version for f in g071_big} == {"5.6.0"}
    u585 = next(f for f in by_source("000") if f.part == "STM32U585" and "PKA PKA" in f.config
                and f.algorithm == "ECC-P256")
    # WOLFSSL_STM32_PKA computes every ECC point multiplication on the PKA (transcribe.wolfssl_hw cites the
    # source), whatever the section's "Only the ECC sign and verify are currently being accelerated by PKA"
    assert (u585.hw, u585.implementation) == (("PKA",), "hardware")
    assert {f.clock_mhz for f in by_source("000") if f.part == "STM32WL55"} == {64.0}


# --- schema -----------------------------------------------------------------------------


def _corrupt(tmp_path: Path, figure_id: str, old: str, new: str) -> tuple[Path, int]:
    lines = FIGURES_PATH.read_text(encoding="utf-8").splitlines(keepends=True)
    number = next(i for i, line in enumerate(lines, start=1) if f'"id": "{figure_id}"' in line)
    assert old in lines[number - 1]
    lines[number - 1] = lines[number - 1].replace(old, new, 1)
    path = tmp_path / "figures.json"
    path.write_text("".join(lines), encoding="utf-8")
    return path, number


@pytest.mark.parametrize("old,new,field", [
    ('"unit": "MB/s"', '"unit": "MB/h"', "unit"),
    ('"value": 10.4,', '"value": 10.5,', "value"),
    ('"metric": "throughput"', '"metric": "speed"', "metric"),
    ('"clock_mhz": 480.0', '"clock_mhz": "480"', "clock_mhz"),
    ('"hw": ["AES"]', '"hw": ["CRYPTO"]', "hw"),
    ('"source": "000_950e0926bdf8c114.txt", ', '', "source"),
])
def test_bad_field_names_file_line_and_field(tmp_path, old, new, field):
    path, number = _corrupt(tmp_path, "000-0002", old, new)
    with pytest.raises(DataFileError) as info:
        load_figures(path)
    assert info.value.path == str(path) and info.value.line == number and info.value.field == field
    assert f"{path}:{number}" in str(info.value)


def test_bad_aux_field_is_named(tmp_path):
    path, number = _corrupt(tmp_path, "000-0002", '"text": "1.000"', '"text": "1.001"')
    with pytest.raises(DataFileError) as info:
        load_figures(path)
    assert (info.value.line, info.value.field) == (number, "aux[1].value")


def test_invalid_json_names_line(tmp_path):
    path, number = _corrupt(tmp_path, "001-0001", '"id": "001-0001",', '"id": "001-0001"')
    with pytest.raises(DataFileError) as info:
        load_figures(path)
    assert info.value.line == number


def test_duplicate_id_is_rejected(tmp_path):
    path, number = _corrupt(tmp_path, "000-0003", '"id": "000-0003"', '"id": "000-0002"')
    with pytest.raises(DataFileError) as info:
        load_figures(path)
    assert (info.value.line, info.value.field) == (number, "id")


def test_a_figure_part_without_a_board_profile_names_its_line(monkeypatch):
    first = FIGURES[0]
    renamed = [replace(f, part="STM32F999") if f.part == first.part else f for f in FIGURES]
    monkeypatch.setattr(model, "load_figures", lambda: tuple(renamed))
    with pytest.raises(DataFileError) as info:
        load_parts()
    assert (info.value.path, info.value.line, info.value.field) == (str(FIGURES_PATH), first.line, "part")
    assert "STM32F999" in str(info.value) and "matches no board" in str(info.value)


def test_an_ambiguous_part_name_is_rejected():
    with pytest.raises(ValueError) as info:
        load_parts(["STM32F7"])
    assert "'STM32F7'" in str(info.value) and "stm32f756zg" in str(info.value)


def test_sources_bad_status_is_named(tmp_path):
    path = tmp_path / "sources.toml"
    path.write_text(SOURCES_PATH.read_text(encoding="utf-8").replace('status = "assumed"', 'status = "guessed"', 1),
                    encoding="utf-8")
    with pytest.raises(DataFileError) as info:
        load_sources(path)
    assert info.value.field.endswith(".status") and "guessed" in str(info.value)


def test_every_part_of_the_figures_has_part_facts_from_its_board_profile():
    parts = load_parts()
    assert set(parts) == {f.part for f in FIGURES}
    repo = Path(__file__).resolve().parents[1]
    for f in FIGURES:
        part = parts[f.part]
        assert part.core == f.core, (f.id, part.board)
        assert part.board.upper().startswith(f.part[:9].upper())
    for part in parts.values():
        assert (repo / part.profile).is_file()
        assert part.max_clock_mhz > 0 and part.datasheet
        assert part.crypto <= PERIPHERALS
        assert bool(part.aes_key_bits) == ("AES" in part.crypto)
        assert bool(part.hash_algorithms) == ("HASH" in part.crypto)
    # the wolfSSL page names the WL55 line, CMOX the order code: one board, the same facts
    assert parts["STM32WL55"].board == parts["STM32WL55JC"].board == "stm32wl55jc"
    assert replace(parts["STM32WL55"], name="STM32WL55JC") == parts["STM32WL55JC"]


def test_part_facts_settled_at_the_merge():
    parts = load_parts(["STM32WL33CC", "STM32U585", "STM32H563ZI", "STM32L4A6Z"])
    assert "PKA" not in parts["STM32WL33CC"].crypto  # CubeWL3 and the CMSIS header: no PKA
    assert "MD5" in parts["STM32U585"].hash_algorithms  # RM0456 §3.1
    assert "MD5" not in parts["STM32H563ZI"].hash_algorithms
    assert parts["STM32L4A6Z"].datasheet == "DS11584"


def test_part_citation_names_the_profile_and_rejects_other_tables():
    part = load_parts(["STM32WL55"])["STM32WL55"]
    assert part.cite("max_clock") == "DS13293; cortexm_emu/boards/stm32wl55jc.toml [max_clock], primary"
    assert part.cite("crypto_hw") == "DS13293; refbench/parts/stm32wl55jc.toml [crypto_hw]"
    with pytest.raises(ValueError) as info:
        part.cite("flash")
    assert "'flash'" in str(info.value) and "max_clock, crypto_hw" in str(info.value)


def test_parts_toml_is_gone():
    assert not (SEEDS_DIR.parent / "parts.toml").exists()


# --- normalisation and unit semantics ---------------------------------------------------


def figure(figure_id: str):
    return next(f for f in FIGURES if f.id == figure_id)


def test_wolfssl_4x_megabyte_is_binary():
    f = figure("000-0002")  # H753 AES-128-CBC-enc 10.400 MB/s at 480 MHz, wolfSSL 4.4.1
    assert (f.version, f.unit, f.value, f.clock_mhz) == ("4.4.1", "MB/s", 10.4, 480.0)
    assert normalise(f).cycles_per_byte == pytest.approx(480e6 / (10.4 * 1048576))


def test_wolfssl_560_kilobyte_is_decimal():
    f = next(x for x in FIGURES if x.part == "STM32G071RB" and x.label == "AES-128-CBC-enc")
    assert (f.version, f.unit) == ("5.6.0", "KB/s")
    assert normalise(f).cycles_per_byte == pytest.approx(64e6 / (355.556 * 1000))


def test_wolfssl_56x_kibibyte_is_binary():
    f = next(x for x in FIGURES if x.part == "STM32WL55" and x.label == "RNG")
    assert f.unit == "KiB/s"
    assert normalise(f).cycles_per_byte == pytest.approx(64e6 / (f.value * 1024))


def _block_fraction_ok(f, size: int) -> bool:
    """Whether rate x seconds x size is a whole number of 1024-byte blocks (printing resolution)."""
    d = f.aux_value("duration")
    low = (f.value - 0.0005) * (d.value - 0.0005) * size / 1024
    high = (f.value + 0.0005) * (d.value + 0.0005) * size / 1024
    return high - low >= 1 or int(high) >= low


@pytest.mark.parametrize("version,declared,alternative", [
    ("4.4.1", 1024, 1000), ("5.3.1", 1024, 1000), ("5.6.0", 1000, 1024), ("5.6.4", 1024, 1000)])
def test_wolfssl_unit_reading_is_the_one_that_gives_whole_blocks(version, declared, alternative):
    rows = [f for f in FIGURES if f.library == "wolfSSL" and f.version == version and f.metric == "throughput"
            and f.unit.startswith("K")]
    assert rows
    assert unit_bytes(rows[0].source, version, rows[0].unit)[0] == declared
    assert all(_block_fraction_ok(f, declared) for f in rows)
    assert not all(_block_fraction_ok(f, alternative) for f in rows)


def test_cmox_kbyte_is_1000_bytes_on_every_data_flow_row():
    rows = [f for f in FIGURES if f.source.startswith("002") and f.aux and f.aux[0].metric == "throughput"]
    assert len(rows) == 56
    for f in rows:
        rate = f.aux[0].value
        assert abs(f.message_bytes * 48e6 / f.value / 1000 - rate) < 1, f.id
    assert sum(abs(f.message_bytes * 48e6 / f.value / 1024 - f.aux[0].value) < 1 for f in rows) < len(rows) / 2


def test_cmox_cycles_per_byte_and_per_op():
    f = next(x for x in FIGURES if x.source.startswith("002") and x.metric == "cycles"
             and x.row.startswith("AES CBC 128 bits 8000 bytes 128 bytes Encryption Small"))
    n = normalise(f)
    assert n.cycles_per_op == 636904 and n.cycles_per_byte == pytest.approx(636904 / 8000)


def test_cyclone_latency_to_cycles_per_op():
    f = next(x for x in FIGURES if x.source.startswith("001") and x.algorithm == "ECDSA-P256" and x.operation == "sign")
    assert normalise(f).cycles_per_op == pytest.approx(0.682 * 64e6)
    assert normalise(f).cycles_per_byte is None


def test_footprint_has_no_cycles():
    f = next(x for x in FIGURES if x.metric == "code_bytes")
    n = normalise(f)
    assert (n.cycles_per_byte, n.cycles_per_op) == (None, None)


def test_unknown_unit_raises_value_error_naming_it():
    with pytest.raises(ValueError, match=r"Invalid unit \('GB/s'\)"):
        unit_bytes(SOURCE_FILES[0], "4.4.1", "GB/s")


def test_every_throughput_has_a_unit_rule_with_a_reason():
    sources = load_sources()
    for f in FIGURES:
        if f.metric == "throughput":
            size, status = unit_bytes(f.source, f.version, f.unit)
            assert size in (1000, 1024, 1000000, 1048576) and status in ("verified", "assumed")
    assert all(u.reason for s in sources.values() for u in s.units)


def test_published_json_is_machine_readable():
    data = json.loads(FIGURES_PATH.read_text(encoding="utf-8"))
    assert len(data["figures"]) == sum(EXPECTED_COUNTS.values())


def test_cyclone_columns_map_to_operation_and_implementation():
    row = [f for f in by_source("003") if f.label == "AES128-CBC"]
    assert [(f.operation, f.implementation, f.text) for f in row] == [
        ("encrypt", "software", "4.351"), ("decrypt", "software", "4.158"),
        ("encrypt", "hardware", "54.054"), ("decrypt", "hardware", "53.475")]
    rsa = [f for f in by_source("004") if f.label == "RSA (2048 bits)"]
    assert [(f.operation, f.implementation, f.text) for f in rsa] == [
        ("sign", "software", "778.7"), ("verify", "software", "81.8"),
        ("sign", "hardware", "126.3"), ("verify", "hardware", "4.8")]
    dh = [f for f in by_source("001") if f.label == "Diffie-Hellman (1024 bits)"]
    assert [(f.operation, f.implementation) for f in dh] == [("keygen", "software"), ("agree", "software")]


def test_wolfssl_board_and_configuration_context():
    f = figure("000-0002")
    assert (f.part, f.board, f.core, f.clock_mhz, f.version, f.options, f.hw) == (
        "STM32H753ZI", "NUCLEO-H753ZI", "Cortex-M7", 480.0, "4.4.1", "-Os", ("AES",))
    cached = next(x for x in FIGURES if x.part == "STM32H753ZI" and x.version == "5.6.6" and x.algorithm == "AES-128-CBC")
    assert "I-cache and D-cache" in cached.cache and cached.options == "-O2" and cached.hw == ()
    l4 = next(x for x in FIGURES if x.part == "STM32L4A6Z" and x.algorithm == "SHA-512" and "Crypto/Hash" in x.config)
    assert l4.hw == ()  # the board heading claims SHA-256 acceleration only
    wb55 = next(x for x in FIGURES if x.part == "STM32WB55" and x.algorithm == "AES-128-GCM" and "AES-CBC" in x.config)
    assert wb55.hw == ()  # AES-CBC acceleration does not cover GCM on this board
