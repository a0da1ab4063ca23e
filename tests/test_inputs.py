"""Reading a user's own benchmark output (refbench.inputs).

The logs below are written for these tests in the exact formats the libraries print: each line
is produced with the library's own printf format string (Python's ``%`` operator accepts these
C conversions unchanged), quoted from:

* wolfSSL ``wolfcrypt/benchmark/benchmark.c`` — ``benchmark_init()``: the header
  ``"wolfCrypt Benchmark (block bytes %d, min %.1f sec each)\\n"``;
  ``bench_stats_sym_finish()``: 4.x ``"%-16s%s %5.0f %s %s %5.3f %s, %8.3f %s/s"``, 5.x
  ``"%-24s%s %5.0f %s %s %5.3f %s, %8.3f %s/s"`` (``", %lu cycles,"`` appended with
  ``GENERATE_MACHINE_PARSEABLE_REPORT``), ``SHOW_INTEL_CYCLES`` ``" %s = %6.2f\\n"``
  (``"Cycles per byte"``), ``-csv`` ``"%s,%.3f,"``; ``bench_stats_asym_finish()``: 4.x
  ``"%-6s %5d %-9s %s %6d %s %5.3f %s, %s %5.3f ms, %.3f %s\\n"`` and ``-csv``
  ``"%s %d %s,%.3f,%.3f,\\n"``; 5.x ``bench_stats_asym_finish_ex()``
  ``"%-6s %5d %8s%-2s %s %6d %s %5.3f %s, %s %5.3f ms, %.3f %s\\n"`` and ``-csv``
  ``"%s,%d,%s%s,%.3f,%.3f,\\n"``.
* Mbed TLS ``programs/test/benchmark.c`` — ``HEADER_FORMAT`` ``"  %-24s :  "``;
  ``TIME_AND_TSC`` ``"%9lu KiB/s,  %9lu cycles/byte\\n"``; ``TIME_PUBLIC``
  ``"%6lu " TYPE "/s"`` (+ ``"%6u heap bytes"`` with ``MBEDTLS_MEMORY_DEBUG``).

The numbers in them are synthetic (stated here, not measurements).
"""

from __future__ import annotations

import itertools
import json
import math
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cortexm_emu.datafile import DataFileError
from refbench.inputs import TEMPLATE_PATH, Assumptions, detect_format, read_input
from refbench.published.library_units import input_unit_bytes, load_unit_rules
from refbench.published.model import load_figures
from refbench.published.normalise import normalise, unit_bytes

# --- the libraries' printf formats -------------------------------------------------------
WOLF_HEADER = "wolfCrypt Benchmark (block bytes %d, min %.1f sec each)"
WOLF_VERSION = "------------------------------------------------------------------------------\n" \
               " wolfSSL version %s\n" \
               "------------------------------------------------------------------------------"
WOLF4_SYM = "%-16s%s %5.0f %s %s %5.3f %s, %8.3f %s/s"
WOLF5_SYM = "%-24s%s %5.0f %s %s %5.3f %s, %8.3f %s/s"
WOLF_CYCLES = " %s = %6.2f"
WOLF5_SYM_PARSEABLE = WOLF5_SYM + ", %lu cycles,"
WOLF4_ASYM = "%-6s %5d %-9s %s %6d %s %5.3f %s, %s %5.3f ms, %.3f %s"
WOLF5_ASYM = "%-6s %5d %8s%-2s %s %6d %s %5.3f %s, %s %5.3f ms, %.3f %s"
WOLF4_CSV_ASYM = "%s %d %s,%.3f,%.3f,"
WOLF5_CSV_ASYM = "%s,%d,%s%s,%.3f,%.3f,"
MBED_HEADER = "  %-24s :  "
MBED_SYM = "%9d KiB/s,  %9d cycles/byte"
MBED_PUBLIC = "%6d %s/s"
MBED_HEAP = "%6u heap bytes"


def wolf_sym(fmt: str, name: str, amount: float, unit: str, seconds: float, rate: float, device: str = "") -> str:
    return fmt % (name, device, amount, unit, "took", seconds, "seconds", rate, unit)


def wolf4_asym(algo: str, bits: int, op: str, ops: int, seconds: float) -> str:
    return WOLF4_ASYM % (algo, bits, op, "", ops, "ops took", seconds, "sec", "avg", seconds / ops * 1000,
                         ops / seconds, "ops/sec")


def wolf5_asym(algo: str, bits: int, op: str, ops: int, seconds: float, device: str = "") -> str:
    return WOLF5_ASYM % (algo, bits, op, "", device, ops, "ops took", seconds, "sec", "avg",
                         seconds / ops * 1000, ops / seconds, "ops/sec")


def mbed(title: str, result: str) -> str:
    return MBED_HEADER % title + result


M4_170 = Assumptions(core="m4", clock_mhz=170, wait_states=4, cache="on", prefetch="unknown")


def figure_at(figures, line):
    return next(f for f in figures if f.line == line)


# --- wolfCrypt, older form (4.x: KB/MB are powers of 1024) ------------------------------

WOLF4_LOG = "\n".join([
    "Running wolfCrypt Benchmarks...",
    WOLF_VERSION % "4.4.1",
    WOLF_HEADER % (1024, 1.0),                                               # line 5
    wolf_sym(WOLF4_SYM, "RNG", 875, "KB", 1.019, 858.685),                  # line 6
    wolf_sym(WOLF4_SYM, "AES-128-CBC-enc", 10, "MB", 1.000, 10.400),        # line 7
    wolf_sym(WOLF4_SYM, "SHA-256", 1000, "KB", 1.022, 978.474),             # line 8
    wolf4_asym("RSA", 2048, "public", 82, 1.019),                           # line 9
    wolf4_asym("ECDSA", 256, "sign", 28, 1.054),                            # line 10
    "Benchmark complete",
    "Benchmark Test: Return code 0",
]) + "\n"


def test_wolfcrypt_4x_symmetric_and_public_key_lines():
    figures, problems = read_input(WOLF4_LOG, name="h7.log", assumptions=Assumptions(board="STM32H753ZI"))
    assert problems == []
    assert [(f.line, f.algorithm, f.operation) for f in figures] == [
        (6, "RNG", "generate"), (7, "AES-128-CBC", "encrypt"), (8, "SHA-256", "hash"),
        (9, "RSA-2048", "public"), (10, "ECDSA-P256", "sign")]
    aes = figure_at(figures, 7)
    assert (aes.metric, aes.value, aes.unit, aes.text, aes.version, aes.block_bytes) == \
        ("throughput", 10.4, "MB/s", "10.400", "4.4.1", 1024)
    assert aes.source == "h7.log" and aes.id == "h7.log:7" and aes.row == WOLF4_LOG.splitlines()[6]
    assert WOLF4_LOG[aes.offset:].startswith("AES-128-CBC-enc")
    assert aes.board == "NUCLEO-H753ZI" and aes.core == "Cortex-M7" and aes.clock_mhz == 480
    # 4.4.1 prints MB = 1024*1024 bytes (library_units.toml); 480 MHz / (10.4 * 2^20 B/s)
    assert normalise(aes).cycles_per_byte == pytest.approx(480e6 / (10.4 * 1048576))
    rsa = figure_at(figures, 9)
    assert (rsa.metric, rsa.unit, rsa.text) == ("time_per_op", "ms", "12.427")
    assert rsa.aux_value("ops").value == 82 and rsa.aux_value("ops_per_s").text == "80.471"
    assert normalise(rsa).cycles_per_op == pytest.approx(12.427e-3 * 480e6)
    assert "no clock given: the part's maximum" in rsa.notes


# --- wolfCrypt, newer form (5.6+: KiB/MiB, Cycles per byte, device column, curve names) -----

WOLF5_LOG = "\n".join([
    WOLF_VERSION % "5.6.6",
    WOLF_HEADER % (1024, 1.0),                                                                   # line 4
    wolf_sym(WOLF5_SYM, "AES-128-CBC-enc", 17, "MiB", 1.000, 17.261) + WOLF_CYCLES % ("Cycles per byte", 5.52),
    wolf_sym(WOLF5_SYM, "AES-128-GCM-dec-no_AAD", 8, "MiB", 1.000, 8.472, device="HW"),          # line 6
    wolf_sym(WOLF5_SYM, "GMAC Table 4-bit", 900, "KiB", 1.000, 899.805),                         # line 7
    wolf5_asym("ECC   [      SECP256R1]", 256, "key gen", 982, 1.000),                          # line 8
    wolf5_asym("ED", 25519, "sign", 1716, 1.000),                                               # line 9
    WOLF5_SYM_PARSEABLE % ("SHA-256", "", 18, "MiB", "took", 1.0, "seconds", 18.042, "MiB", 96000000),  # line 10
    "Benchmark complete",
]) + "\n"


def test_wolfcrypt_5x_newer_units_cycles_device_and_curves():
    figures, problems = read_input(WOLF5_LOG, name="u3.log", assumptions=Assumptions(
        core="Cortex-M33", clock_mhz=96, wait_states=3, cache="on", prefetch="off", hardware=("AES",)))
    assert problems == []
    assert [(f.algorithm, f.operation, f.mode) for f in figures] == [
        ("AES-128-CBC", "encrypt", "CBC"), ("AES-128-GCM", "decrypt", "GCM (no AAD)"), ("GMAC", "mac", "Table 4-bit"),
        ("ECC-P256", "keygen", None), ("Ed25519", "sign", None), ("SHA-256", "hash", None)]
    assert "96000000 total cycles printed" in figures[5].notes
    cbc = figures[0]
    assert cbc.aux_value("cycles_per_byte").value == 5.52 and cbc.unit == "MiB/s"
    assert normalise(cbc).cycles_per_byte == pytest.approx(96e6 / (17.261 * 1048576))
    assert cbc.implementation == "hardware" and cbc.hw == ("AES",)  # AES stated as used
    assert figures[1].implementation == "hardware"                  # 'HW' device column
    assert figures[2].implementation == "hardware" and figures[2].unit == "KiB/s"  # GMAC follows AES-GCM
    assert cbc.board is None and cbc.core == "Cortex-M33" and cbc.clock_mhz == 96
    assert "no board profile; Cortex-M33 at 96 MHz; 3 flash wait states; cache on; prefetch off" in cbc.notes
    assert cbc.cache.startswith("cache on, prefetch off, 3 wait states")


@pytest.mark.parametrize("version, unit, size", [("5.6.0", "KB", 1000), ("5.3.1", "KB", 1024),
                                                 ("4.4.1", "kB", 1000), ("5.7.2", "KiB", 1024)])
def test_wolfcrypt_units_follow_the_version(version, unit, size):
    log = WOLF_VERSION % version + "\n" + WOLF_HEADER % (1024, 1.0) + "\n" + \
        wolf_sym(WOLF5_SYM, "SHA-256", 358, unit, 1.008, 355.556) + "\n"
    figures, problems = read_input(log, assumptions=M4_170)
    assert problems == [] and normalise(figures[0]).unit_bytes == size


def test_wolfcrypt_kb_without_a_version_is_reported_not_guessed():
    log = WOLF_HEADER % (1024, 1.0) + "\n" + wolf_sym(WOLF5_SYM, "SHA-256", 358, "KB", 1.008, 355.556) + "\n"
    figures, problems = read_input(log, name="nover.log", assumptions=M4_170)
    assert figures == []
    assert len(problems) == 1 and str(problems[0]).startswith("nover.log:2: ")
    assert "without a version" in problems[0].why
    figures, problems = read_input(log, assumptions=Assumptions(core="m4", clock_mhz=170, version="5.6.0"))
    assert problems == [] and normalise(figures[0]).unit_bytes == 1000 and figures[0].version == "5.6.0"


def test_wolfcrypt_malformed_and_unknown_lines_are_reported_with_file_and_line():
    log = "\n".join([
        WOLF_VERSION % "4.4.1",
        WOLF_HEADER % (1024, 1.0),                                               # 4
        wolf_sym(WOLF4_SYM, "AES-128-CBC-enc", 10, "MB", 1.000, 10.400),        # 5
        wolf_sym(WOLF4_SYM, "AES-128-CBC-dec", 10, "MB", 1.000, 10.3)[:-8],     # 6 truncated
        wolf_sym(WOLF4_SYM, "CAMELLIA", 3, "MB", 1.000, 2.900),                 # 7 unknown name
        "Benchmark AES-128-CBC-dec failed: -173",                                # 8
        wolf_sym(WOLF4_SYM, "SHA-256", 1000, "KB", 1.022, 978.474).replace("KB/s", "MB/s"),  # 9 unit mismatch
        "Benchmark complete",
        "AES      test passed!",                                                 # outside a run: chatter
    ]) + "\n"
    figures, problems = read_input(log, name="bad.log", assumptions=M4_170)
    assert [f.line for f in figures] == [5]
    assert [p.line for p in problems] == [6, 7, 8, 9]
    assert all(str(p).startswith(f"bad.log:{p.line}: ") for p in problems)
    assert "unknown algorithm" in problems[1].why and "CAMELLIA" in problems[1].text
    assert "differs from rate unit" in problems[3].why


def test_wolfcrypt_csv_mode_reads_public_key_rows_and_reports_symmetric_ones():
    log4 = "\n".join([WOLF_VERSION % "4.4.1", WOLF_HEADER % (1024, 1.0),
                      "This format allows you to easily copy the output to a csv file.", "", "Symmetric Ciphers:", "",
                      "Algorithm,MB/s,Cycles per byte,", "AES-128-CBC-enc,10.400,",           # 10
                      "", "Asymmetric Ciphers:", "", "Algorithm,avg ms,ops/sec,",
                      WOLF4_CSV_ASYM % ("RSA", 2048, "public", 12.427, 80.471)]) + "\n"        # 15
    figures, problems = read_input(log4, name="csv4.log", assumptions=M4_170)
    assert [p.line for p in problems] == [10] and "does not print that unit" in problems[0].why
    assert [(f.line, f.algorithm, f.operation, f.value, f.unit) for f in figures] == \
        [(15, "RSA-2048", "public", 12.427, "ms")]
    log5 = "\n".join([WOLF_VERSION % "5.6.6", WOLF_HEADER % (1024, 1.0), "Asymmetric Ciphers:", "",
                      "Algorithm,key size,operation,avg ms,ops/sec,",
                      WOLF5_CSV_ASYM % ("ECDSA", 256, "verify", "", 3.486, 286.853)]) + "\n"
    figures, problems = read_input(log5, assumptions=M4_170, format="wolfcrypt")
    assert problems == [] and [(f.algorithm, f.operation, f.value) for f in figures] == [("ECDSA-P256", "verify", 3.486)]


# --- Mbed TLS --------------------------------------------------------------------------

MBED_LOG = "\n".join([
    "",
    mbed("SHA-256", MBED_SYM % (1203, 139)),                      # 2
    mbed("AES-CBC-128", MBED_SYM % (1546, 108)),                  # 3
    mbed("AES-GCM-256", MBED_SYM % (587, 285)),                   # 4
    mbed("CAMELLIA-CBC-128", MBED_SYM % (700, 240)),              # 5 unknown to refbench
    mbed("AES-CCM-128", "Feature not supported. Skipping."),      # 6
    mbed("RSA-2048", MBED_PUBLIC % (243, " public")),             # 7
    mbed("RSA-2048", MBED_PUBLIC % (6, "private") + MBED_HEAP % 4532),  # 8
    mbed("RSA-4096", MBED_PUBLIC % (0, "private")),               # 9 too coarse
    mbed("ECDSA-secp256r1", MBED_PUBLIC % (41, "sign")),          # 10
    mbed("ECDHE-secp256r1", MBED_PUBLIC % (19, "handshake")),     # 11
    mbed("ECDH-x25519", MBED_PUBLIC % (52, "handshake")),         # 12
    mbed("DHE-2048", "FAILED: -0x4080"),                          # 13
    "",
]) + "\n"


def test_mbedtls_log():
    assert detect_format(MBED_LOG) == "mbedtls"
    figures, problems = read_input(MBED_LOG, name="mbed.log",
                                   assumptions=Assumptions(board="stm32l562qe", clock_mhz=110, version="3.6.0"))
    assert [(f.line, f.algorithm, f.operation) for f in figures] == [
        (2, "SHA-256", "hash"), (3, "AES-128-CBC", "encrypt"), (4, "AES-256-GCM", "encrypt"),
        (7, "RSA-2048", "public"), (8, "RSA-2048", "private"), (10, "ECDSA-P256", "sign"),
        (11, "ECDH-P256", "keygen+agree"), (12, "X25519", "agree")]
    assert [p.line for p in problems] == [5, 6, 9, 13]
    assert "unknown algorithm" in problems[0].why and "CAMELLIA-CBC-128" in problems[0].why
    aes = figure_at(figures, 3)
    assert (aes.metric, aes.value, aes.unit, aes.library, aes.version, aes.block_bytes) == \
        ("throughput", 1546, "KiB/s", "Mbed TLS", "3.6.0", 1024)
    assert normalise(aes).cycles_per_byte == pytest.approx(110e6 / (1546 * 1024))
    assert "108 cycles/byte" in aes.notes
    rsa = figure_at(figures, 8)
    assert (rsa.metric, rsa.value, rsa.unit) == ("ops_per_s", 6, "ops/s") and "4532 heap bytes" in rsa.notes
    assert normalise(rsa).cycles_per_op == pytest.approx(110e6 / 6)


# --- tables: CSV and JSON ----------------------------------------------------------------

CSV_TEXT = """# my figures
algorithm,operation,size_bytes,value,unit,board,core,clock_mhz,library,version,implementation
AES-128-CBC,encrypt,,1100,KiB/s,,m4,170,wolfSSL,5.6.6,
SHA-256,hash,1024,0.61,ms,stm32h753zi,,480,Mbed TLS,3.6.0,hardware
RSA 2048 private,,,72.857,ms,,,,wolfSSL,5.6.6,
ECDSA-P256,sign,,41,ops/s,,m33,96,,,
AES-128-CBC,encrypt,,1.1,MB/s,,m4,170,wolfSSL,,
BLAKE2b,hash,,3.0,MiB/s,,m4,170,,,
SHA-256,hash,,3.0,furlongs,,m4,170,,,
AES-128-CBC,encrypt,,1100,KiB/s,,,,,,
SHA-256,hash,,0,KiB/s,,m4,170,,,
SHA-256,hash,,3,KiB/s,m4,170
"""


def test_csv_table_rows_and_their_problems():
    assert detect_format(CSV_TEXT) == "csv"
    figures, problems = read_input(CSV_TEXT, name="mine.csv", assumptions=Assumptions(hardware=("HASH",)))
    assert [(f.line, f.algorithm, f.operation, f.metric) for f in figures] == [
        (3, "AES-128-CBC", "encrypt", "throughput"), (4, "SHA-256", "hash", "time_per_op"),
        (6, "ECDSA-P256", "sign", "ops_per_s")]
    assert [p.line for p in problems] == [5, 7, 8, 9, 10, 11, 12]
    why = {p.line: p.why for p in problems}
    assert "no board and no core" in why[5]          # the wolfCrypt row name is fine, the placement is missing
    assert "without a version" in why[7]             # wolfSSL MB/s means 2^20 or 10^6 by version
    assert "unknown algorithm 'BLAKE2b'" in why[8]
    assert "Invalid unit ('furlongs')" in why[9]
    assert "no board and no core" in why[10]
    assert "must be > 0" in why[11]
    assert "7 cells for 11 columns" in why[12]
    sha = figure_at(figures, 4)
    assert sha.board == "NUCLEO-H753ZI" and sha.message_bytes == 1024 and sha.implementation == "hardware"
    assert normalise(sha).cycles_per_byte == pytest.approx(0.61e-3 * 480e6 / 1024)
    assert "stated in the row: board, clock_mhz" in sha.notes
    # with a core and clock assumed, the rows without them are read
    figures, problems = read_input(CSV_TEXT, name="mine.csv", assumptions=Assumptions(core="m7", clock_mhz=200))
    assert {f.line for f in figures} == {3, 4, 5, 6, 10}
    rsa = figure_at(figures, 5)
    assert (rsa.algorithm, rsa.operation, rsa.core, rsa.clock_mhz) == ("RSA-2048", "private", "Cortex-M7", 200)
    assert figure_at(figures, 6).core == "Cortex-M33"  # the row's own core wins
    assert normalise(figure_at(figures, 6)).cycles_per_op == pytest.approx(96e6 / 41)


def test_csv_header_with_an_unknown_column_names_file_line_and_column():
    with pytest.raises(DataFileError, match=r"x\.csv:2: field 'colour': unknown column"):
        read_input("# c\nalgorithm,value,unit,colour\nSHA-256,1,KiB/s,red\n", name="x.csv",
                   assumptions=M4_170)
    with pytest.raises(DataFileError, match="field 'unit': missing required column"):
        read_input("algorithm,value\nSHA-256,1\n", name="y.csv", assumptions=M4_170)


def test_json_table_keeps_each_object_line():
    records = [{"algorithm": "AES-256-GCM", "operation": "decrypt", "value": 2.5, "unit": "MiB/s"},
               {"algorithm": "SHA-512", "operation": "hash", "value": 12, "unit": "furlongs"}]
    text = "{\"figures\": [\n" + ",\n".join(json.dumps(r) for r in records) + "\n]}\n"
    figures, problems = read_input(text, name="mine.json", assumptions=M4_170)
    assert [(f.line, f.algorithm, f.text) for f in figures] == [(2, "AES-256-GCM", "2.5")]
    assert [p.line for p in problems] == [3] and str(problems[0]).startswith("mine.json:3: Invalid unit")
    figures, _ = read_input(json.dumps(records[:1], indent=1), name="list.json", assumptions=M4_170)
    assert figures[0].line == 2 and figures[0].key_bits == 256


def test_template_documents_the_schema_it_is_read_with():
    text = TEMPLATE_PATH.read_text(encoding="utf-8")
    assert read_input(text, name="template.csv", assumptions=M4_170) == ([], [])
    examples = re.sub(r"^# (\w.*,example row)$", r"\1", text, flags=re.M)
    figures, problems = read_input(examples, name="template.csv", assumptions=M4_170)
    assert problems == [] and len(figures) == 3
    readme = (TEMPLATE_PATH.parent / "README.md").read_text(encoding="utf-8")
    header = next(t for t in text.splitlines() if t and not t.startswith("#")).split(",")
    assert all(f"`{column}`" in readme for column in header)


# --- input handling ------------------------------------------------------------------------

def test_path_and_stdin_text_inputs(tmp_path):
    path = tmp_path / "bench.txt"
    path.write_text(WOLF4_LOG, encoding="utf-8")
    from_file, _ = read_input(path, assumptions=M4_170)
    from_text, _ = read_input(WOLF4_LOG, assumptions=M4_170)
    assert from_file[0].source == str(path) and from_text[0].source == "<stdin>"
    assert [(f.line, f.value) for f in from_file] == [(f.line, f.value) for f in from_text]


def test_undetectable_input_and_bad_format_name():
    with pytest.raises(ValueError, match=r"Invalid input \(notes.txt\).*give the format"):
        read_input("hello\nworld\n", name="notes.txt", assumptions=M4_170)
    with pytest.raises(ValueError, match=r"Invalid format \('xml'\)"):
        read_input(WOLF4_LOG, assumptions=M4_170, format="xml")


@pytest.mark.parametrize("kwargs, message", [
    ({}, r"not stated \(no board profile; no core and no clock\); give a board profile \(--board NAME\)"),
    ({"core": "m4"}, r"a core \(m4\) but no clock\); give"),
    ({"core": "m5", "clock_mhz": 10}, r"Invalid core \('m5'\)"),
    ({"core": "m4", "clock_mhz": 10, "cache": "maybe"}, r"Invalid cache \('maybe'\)"),
    ({"board": "STM32", "clock_mhz": 10}, "Invalid board or part"),
    ({"board": "stm32g071rb", "clock_mhz": 200}, "above the part's maximum"),
    ({"board": "stm32g071rb", "core": "m4"}, "its core is Cortex-M0+"),
    ({"core": "m4", "clock_mhz": 10, "hardware": ("GPU",)}, r"Invalid hardware \('GPU'\)"),
])
def test_assumptions_that_place_no_part_are_refused(kwargs, message):
    with pytest.raises(ValueError, match=message):
        read_input(WOLF4_LOG, assumptions=Assumptions(**kwargs))


def test_unit_rules_file_is_checked(tmp_path):
    assert load_unit_rules()
    bad = tmp_path / "units.toml"
    bad.write_text('[[unit]]\nlibrary = "x"\nsince = "new"\nbytes = { KB = 1000 }\nreason = "r"\n', encoding="utf-8")
    with pytest.raises(DataFileError, match=r"field 'unit\[0\]\.since': not a release number"):
        load_unit_rules(bad)
    with pytest.raises(ValueError, match=r"Invalid unit \('kB/s'\) for Mbed TLS"):
        input_unit_bytes("Mbed TLS", "3.6.0", "kB/s")
    with pytest.raises(ValueError, match="without its library"):
        input_unit_bytes(None, "4.4.1", "KB/s")
    figures, _ = read_input(WOLF4_LOG, assumptions=M4_170)
    with pytest.raises(ValueError, match="without its library"):
        unit_bytes(figures[0].source, figures[0].version, figures[0].unit)
    assert unit_bytes(figures[0].source, figures[0].version, figures[0].unit, figures[0].library) == (1024, "verified")


# --- the wolfSSL page fed back as logs gives the built-in figures --------------------------

_PAGE = "000_950e0926bdf8c114.txt"


def _page_blocks():
    figures = [f for f in load_figures() if f.source == _PAGE]
    return {key: list(group) for key, group in itertools.groupby(figures, key=lambda f: (f.section, f.version))}


def render_wolfcrypt_log(figures) -> str:
    """The log wolfCrypt prints for ``figures`` (one page block), in its version's formats."""
    version = figures[0].version
    new = not version.startswith("4.")
    lines = [WOLF_VERSION % version, WOLF_HEADER % (figures[0].block_bytes, 1.0)]
    for f in figures:
        if f.metric == "throughput":
            amount = f.aux_value("amount")
            lines.append(wolf_sym(WOLF5_SYM if new else WOLF4_SYM, f.label, amount.value, amount.unit,
                                  f.aux_value("duration").value, f.value, ))
        else:
            algo, bits, op = re.fullmatch(r"(.+?) (\d+) (.+)", f.label).groups()
            args = (f.aux_value("ops").value, f.aux_value("duration").value, f.value, f.aux_value("ops_per_s").value)
            if new:
                lines.append(WOLF5_ASYM % (algo, int(bits), op, "", "", args[0], "ops took", args[1], "sec", "avg",
                                           args[2], args[3], "ops/sec"))
            else:
                lines.append(WOLF4_ASYM % (algo, int(bits), op, "", args[0], "ops took", args[1], "sec", "avg",
                                           args[2], args[3], "ops/sec"))
    return "\n".join(lines + ["Benchmark complete", "Benchmark Test: Return code 0"]) + "\n"


@pytest.mark.parametrize("key", list(_page_blocks()), ids=lambda key: f"{key[0]} [{key[1]}]")
def test_wolfssl_page_section_fed_back_as_a_log_gives_the_built_in_figures(key):
    built_in = _page_blocks()[key]
    log = render_wolfcrypt_log(built_in)
    first = built_in[0]
    figures, problems = read_input(log, name="page-section.log",
                                   assumptions=Assumptions(core=first.core, clock_mhz=first.clock_mhz))
    assert problems == []
    assert len(figures) == len(built_in)
    for mine, page in zip(figures, built_in, strict=True):
        assert (mine.algorithm, mine.mode, mine.operation, mine.key_bits, mine.curve, mine.metric, mine.unit) == \
            (page.algorithm, page.mode, page.operation, page.key_bits, page.curve, page.metric, page.unit), page.id
        assert mine.value == page.value and mine.version == page.version and mine.block_bytes == page.block_bytes
        ours, theirs = normalise(mine), normalise(page)
        assert ours.unit_bytes == theirs.unit_bytes, page.id
        for name in ("cycles_per_byte", "cycles_per_op"):
            if getattr(theirs, name) is None:  # pytest.approx(None) is an error from pytest 9.1 on
                assert getattr(ours, name) is None, (page.id, name)
            else:
                assert getattr(ours, name) == pytest.approx(getattr(theirs, name), rel=1e-12), (page.id, name)


def test_cache_and_prefetch_stated_with_a_board_are_kept():
    figures, _ = read_input(WOLF4_LOG, assumptions=Assumptions(board="stm32h753zi", clock_mhz=400, cache="off"))
    assert figures[0].clock_mhz == 400
    assert figures[0].cache == "cache off, prefetch unknown (assumed); wait states from the board profile"
    assert "at 400 MHz as given; flash wait states, prefetch and caches from the profile (cache off" in figures[0].notes


# --- what editors, terminals and spreadsheets save (issue 32) -------------------------------

def test_one_line_that_is_not_utf8_is_reported_and_the_others_read(tmp_path):
    lines = WOLF4_LOG.encode("utf-8").split(b"\n")
    lines[7] = lines[7].replace(b"SHA-256", b"SHA-256\xb5")  # line 8: a Latin-1 'µ' inside a row
    lines[0] += b" \xff\xfe noise"                            # line 1: noise on a line without a figure
    path = tmp_path / "serial.log"
    path.write_bytes(b"\n".join(lines))
    figures, problems = read_input(path, assumptions=M4_170)
    assert [f.line for f in figures] == [6, 7, 9, 10]
    assert [(p.line, p.why.split(";")[0]) for p in problems] == [
        (1, "the line has bytes that are not UTF-8 (shown as U+FFFD)"),
        (8, "the line has bytes that are not UTF-8 (shown as U+FFFD)")]
    assert "\ufffd" in problems[1].text and "unknown algorithm" in problems[1].why


@pytest.mark.parametrize("encoding, prefix", [("utf-8", b"\xef\xbb\xbf"), ("utf-16-le", b"\xff\xfe"),
                                              ("utf-16-be", b"\xfe\xff"), ("utf-16-le", b"")])
def test_byte_order_marks_and_utf16_are_read(tmp_path, encoding, prefix):
    table = "algorithm,operation,value,unit\nSHA-256,hash,978.5,KiB/s\nAES-128-CBC,encrypt,10.4,MiB/s\n"
    path = tmp_path / "excel.csv"
    path.write_bytes(prefix + table.replace("\n", "\r\n").encode(encoding))
    figures, problems = read_input(path, assumptions=M4_170)
    assert problems == [] and [(f.algorithm, f.value, f.line) for f in figures] == [
        ("SHA-256", 978.5, 2), ("AES-128-CBC", 10.4, 3)]
    log = tmp_path / "powershell.log"
    log.write_bytes(prefix + WOLF4_LOG.encode(encoding))
    assert [f.line for f in read_input(log, assumptions=M4_170)[0]] == [6, 7, 8, 9, 10]


def test_binary_directory_and_too_large_inputs_name_the_file(tmp_path):
    from refbench.inputs.decode import MAX_INPUT_BYTES

    binary = tmp_path / "firmware.bin"
    binary.write_bytes(b"\x7fELF\x01\x01\x01\x00" + bytes(range(256)))
    with pytest.raises(ValueError, match=r"Invalid input \(.*firmware.bin\): a NUL byte at offset 7: not a text"):
        read_input(binary, assumptions=M4_170)
    with pytest.raises(ValueError, match=r"Invalid input \(.*\): a directory; give the log or table file in it"):
        read_input(tmp_path, assumptions=M4_170)
    huge = tmp_path / "capture.log"
    with huge.open("wb") as handle:  # sparse: nothing is written or read
        handle.truncate(50 * 1024 * 1024)
    with pytest.raises(ValueError, match=r"capture.log\): 52,428,800 bytes, more than the 8 MiB"):
        read_input(huge, assumptions=M4_170)
    with pytest.raises(ValueError, match=r"<stdin>\): .* bytes, more than the 8 MiB"):
        read_input("x" * (MAX_INPUT_BYTES + 1), assumptions=M4_170)


def test_deeply_nested_json_is_a_data_file_error_not_a_recursion_error():
    with pytest.raises(DataFileError, match="JSON nested too deeply"):
        read_input("[" * 100_000 + "]" * 100_000, name="deep.json", assumptions=M4_170)
    nested = json.dumps([{"algorithm": "SHA-256", "operation": "hash", "value": [[[1]]], "unit": "KiB/s"}])
    figures, problems = read_input(nested, name="nested.json", assumptions=M4_170)
    assert figures == [] and problems[0].why.startswith("Invalid value (a JSON array); a value must be a string")


@pytest.mark.parametrize("row", [
    wolf_sym(WOLF4_SYM, "SHA-256", 0, "KB", 1.022, 0.0),
    WOLF4_ASYM % ("RSA", 2048, "public", "", 99999, "ops took", 0.0, "sec", "avg", 0.0, 0.0, "ops/sec"),
])
def test_a_zero_rate_is_reported_as_below_the_resolution_not_judged(row):
    text = "\n".join([WOLF_VERSION % "4.4.1", WOLF_HEADER % (1024, 1.0), row]) + "\n"
    figures, problems = read_input(text, assumptions=M4_170)
    assert figures == [] and "below the printed resolution" in problems[0].why and problems[0].line == 5
    mbed_text = mbed("SHA-256", MBED_SYM % (0, 0)) + "\n" + mbed("MD5", MBED_SYM % (9000, 13)) + "\n"
    figures, problems = read_input(mbed_text, assumptions=M4_170, format="mbedtls")
    assert [f.algorithm for f in figures] == ["MD5"] and "0 KiB/s printed: below" in problems[0].why


def test_duplicate_rows_and_the_same_file_twice_are_judged_once(tmp_path):
    from refbench.inputs.options import read_inputs

    log = tmp_path / "run.log"
    log.write_text(WOLF4_LOG + WOLF4_LOG, encoding="utf-8")  # a log pasted twice
    read = read_inputs([str(log)], M4_170)
    assert [f.line for f in read.figures] == [6, 7, 8, 9, 10]
    assert [(p.line, p.why) for p in read.problems][:1] == [
        (18, f"the same figure as {log}:6 (a duplicate row): judged once, there")]
    assert [p.line for p in read.problems] == [18, 19, 20, 21, 22]
    copy = tmp_path / "copy.log"
    copy.write_text(WOLF4_LOG, encoding="utf-8")
    both = read_inputs([str(log), str(copy)], M4_170)
    assert len(both.figures) == 5 and {p.file for p in both.problems} == {str(log), str(copy)}
    link = tmp_path / "link.log"
    link.symlink_to(log)
    for again in (str(link), f"{tmp_path}/./run.log"):
        with pytest.raises(ValueError, match=rf"Invalid --input \('{re.escape(again)}'\): given twice \(the same file "
                                             rf"as --input '{re.escape(str(log))}'\)"):
            read_inputs([str(log), again], M4_170)


@pytest.mark.parametrize("clock", [float("inf"), float("nan"), 0.0, -1.0])
def test_a_clock_that_is_not_a_finite_positive_number_is_refused(clock):
    with pytest.raises(ValueError, match=r"Invalid clock_mhz \(.*\); must be a finite number > 0"):
        Assumptions(core="m4", clock_mhz=clock)


# --- fuzz: any bytes end in figures, reported lines or one named error -----------------------

_REAL_LINES = [t for p in sorted((Path(__file__).parent / "fixtures" / "logs").glob("*.txt"))
               for t in p.read_text(encoding="utf-8").splitlines() if t.strip()]
_TABLE_LINES = TEMPLATE_PATH.read_text(encoding="utf-8").splitlines() + [
    "algorithm,operation,value,unit", '[{"algorithm": "SHA-256", "value": 1, "unit": "ms"}]', '{"figures": [',
    "]}", "[", "{", '"x": 1e999', "SHA-256,hash,1e308,KiB/s", "SHA-256,hash,nan,KiB/s"]


def _mutate(line: str, data: st.DataObject) -> str:
    """A real line with a slice cut out, a character replaced or digits changed."""
    how = data.draw(st.sampled_from(["keep", "cut", "replace", "digits"]))
    if how == "keep" or not line:
        return line
    i = data.draw(st.integers(0, len(line) - 1))
    if how == "cut":
        return line[:i] + line[data.draw(st.integers(i, len(line))):]
    if how == "replace":
        return line[:i] + data.draw(st.characters()) + line[i + 1:]
    return re.sub(r"\d+", lambda m: data.draw(st.sampled_from(["0", "0.000", "99999999999", m[0] * 40, ""])), line)


_LINE = st.one_of(st.sampled_from(_REAL_LINES), st.sampled_from(_TABLE_LINES), st.text(max_size=40))


def _fuzz_input(data: st.DataObject) -> bytes:
    lines = [_mutate(t, data) for t in data.draw(st.lists(_LINE, max_size=30))]
    raw = "\n".join(lines).encode(data.draw(st.sampled_from(["utf-8", "utf-8-sig", "utf-16"])), "surrogatepass")
    if data.draw(st.booleans()):  # stray bytes: serial noise, a truncated multi-byte character
        at = data.draw(st.integers(0, len(raw)))
        raw = raw[:at] + data.draw(st.binary(max_size=6)) + raw[at:]
    return raw


def _check_reading(data: st.DataObject) -> None:
    raw = _fuzz_input(data)
    fmt = data.draw(st.sampled_from([None, "wolfcrypt", "mbedtls", "csv", "json"]))
    try:
        figures, problems = read_input(raw, name="fuzz.log", format=fmt, assumptions=M4_170)
    except DataFileError as exc:
        assert "fuzz.log" in str(exc)
        return
    except ValueError as exc:
        assert "fuzz.log" in str(exc) or str(exc).startswith("Invalid ")
        return
    from refbench.inputs.decode import decode

    lines = len(decode(raw, "fuzz.log").text.splitlines())  # str.splitlines: the readers' line numbers
    for f in figures:
        assert math.isfinite(f.value) and f.value > 0, f
        assert 1 <= f.line <= lines and f.source == "fuzz.log"
    for p in problems:
        assert 1 <= p.line <= lines and p.file == "fuzz.log" and p.why


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_fuzz_readers_small_budget(data):
    _check_reading(data)


@pytest.mark.slow
@settings(max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.data())
def test_fuzz_readers_large_budget(data):
    _check_reading(data)


# --- the build: --option NAME[=VALUE] and --hardware with its followers ---------------------

BUILD_LOG = "\n".join([
    WOLF_VERSION % "5.6.6", WOLF_HEADER % (1024, 1.0),                                         # lines 1-4
    wolf_sym(WOLF5_SYM, "AES-128-GCM-enc", 2, "MiB", 1.000, 2.000),                            # 5
    wolf_sym(WOLF5_SYM, "AES-128-CBC-enc", 3, "MiB", 1.000, 3.000),                            # 6
    wolf_sym(WOLF5_SYM, "GMAC Table 4-bit", 4, "MiB", 1.000, 4.000),                           # 7
    wolf_sym(WOLF5_SYM, "SHA-256", 2, "MiB", 1.000, 2.000),                                    # 8
    wolf_sym(WOLF5_SYM, "MD5", 5, "MiB", 1.000, 5.000),                                        # 9
    wolf5_asym("ECDSA", 256, "sign", 20, 1.000),                                               # 10
]) + "\n"


def test_build_options_set_math_assembly_and_the_kernel_option_rule_e_reads():
    from refbench.sanity.libraries import stated_options

    stated = ("WOLFSSL_SP_ARM_CORTEX_M_ASM", "WOLFSSL_SP_SMALL=1", "USE_FAST_MATH", "GCM_SMALL", "WOLFSSL_ARMASM",
              "MBEDTLS_AES_ROM_TABLES")
    figures, problems = read_input(BUILD_LOG, name="build.log",
                                   assumptions=Assumptions(core="m4", clock_mhz=120, build=stated))
    assert problems == []
    ecdsa = figure_at(figures, 10)
    assert ecdsa.math == "SP math, Cortex-M assembly (small)"  # the SP assembly outranks fastmath
    assert ecdsa.asm.startswith("WOLFSSL_ARMASM")
    assert ecdsa.config == "as logged; built with GCM_SMALL"
    assert "WOLFSSL_SP_SMALL=1 (the smaller, slower SP code" in ecdsa.notes
    assert "not applied (options of another library): MBEDTLS_AES_ROM_TABLES" in ecdsa.notes
    assert stated_options(figures)[("build.log", ecdsa.section)] == {"gcm": "GCM_TABLE_4BIT"}  # the log's GMAC row
    without_gmac = [f for f in figures if f.algorithm != "GMAC"]
    assert stated_options(without_gmac)[("build.log", ecdsa.section)] == {"gcm": "GCM_SMALL"}
    plain, _ = read_input(BUILD_LOG, name="build.log", assumptions=Assumptions(core="m4", clock_mhz=120))
    assert figure_at(plain, 10).math is None and figure_at(plain, 10).config == "as logged"
    assert ("build.log", ecdsa.section) not in stated_options([f for f in plain if f.algorithm != "GMAC"])
    with pytest.raises(ValueError, match=r"Invalid --option \('GCM_HUGE'\): not a library build option refbench "
                                         r"knows; accepted \(the library's own names.*GCM_SMALL"):
        Assumptions(core="m4", clock_mhz=120, build=("GCM_HUGE",))


@pytest.mark.parametrize("hardware, expected", [
    (("AES",), {5: ["AES"], 6: ["AES"], 7: ["AES"]}),
    (("AES-GCM",), {5: ["AES"], 7: ["AES"]}),
    (("AES-128-GCM",), {5: ["AES"], 7: ["AES"]}),
    (("SHA-256",), {8: ["HASH"]}),
    (("HASH",), {8: ["HASH"], 9: ["HASH"]}),
    (("AES-CBC", "PKA"), {6: ["AES"], 10: ["PKA"]}),
])
def test_hardware_per_algorithm_with_its_followers(hardware, expected):
    figures, _ = read_input(BUILD_LOG, assumptions=Assumptions(core="m4", clock_mhz=120, hardware=hardware))
    assert {f.line: list(f.hw) for f in figures if f.hw} == expected
    assert {f.line for f in figures if f.implementation == "hardware"} == set(expected)
    if 7 in expected:
        assert "GMAC follows AES-128-GCM, AES-192-GCM, AES-256-GCM in hardware (wolfSSL/wolfssl" in \
            figure_at(figures, 7).notes


def test_build_options_file_names_what_the_rules_know():
    from refbench.inputs.build import load_build_options
    from refbench.sanity.libraries import LIBRARIES
    from refbench.sanity.pubkey_cost import load_costs

    options, followers = load_build_options()
    kernels = {k: spec.options for k, spec in LIBRARIES["wolfssl"].kernels.items()}
    matches = [rule["match"] for rule in load_costs()["libraries"] if rule["library"] == "wolfSSL" and rule["match"]]
    for option in options.values():
        if option.kernel:
            assert option.name in kernels[option.kernel], option.name
        for math_name in filter(None, (option.math, option.math_small)):
            assert any(m.lower() in math_name.lower() for m in matches), math_name
    assert followers and all(f.leaders for f in followers)


# --- measurement resolution: the log's own timer ---------------------------------------------

def _timed_log(seconds: list[float]) -> str:
    rows = [wolf_sym(WOLF5_SYM, name, 2 * s, "MiB", s, 2.000)
            for name, s in zip(["AES-128-CBC-enc", "AES-128-CBC-dec", "SHA-256", "MD5", "SHA-512"], seconds)]
    return "\n".join([WOLF_VERSION % "5.6.6", WOLF_HEADER % (1024, 1.0), *rows]) + "\n"


@pytest.mark.parametrize("seconds, step", [
    ([1.0, 1.0, 2.0, 1.0, 3.0], 1.0),          # a 1 s timer: whole seconds
    ([1.01, 1.02, 1.01, 1.0, 1.05], 0.01),     # a 10 ms tick
    ([1.024, 1.024, 1.024, 1.024, 1.024], 1.024),  # the same duration every row
    ([1.019, 1.022, 1.054, 1.0, 1.003], None),  # a millisecond timer: no common step
    ([1.0, 2.0, 3.0], None),                   # too few rows to tell
])
def test_the_timer_resolution_a_log_shows_widens_each_figure_and_is_said(seconds, step):
    from refbench.inputs.assumptions import described_assumptions
    from refbench.sanity.numbers import printed_resolution, relative_resolution

    figures, problems = read_input(_timed_log(seconds), assumptions=M4_170)
    assert problems == [] and len(figures) == len(seconds)
    for f in figures:
        printed = printed_resolution(f.text) / f.value
        said = described_assumptions(f.notes)
        if step is None:
            assert f.aux_value("timer_resolution") is None and "timer resolution" not in f.notes
            assert relative_resolution(f) == pytest.approx(printed)
        else:
            assert f.aux_value("timer_resolution").value == pytest.approx(step)
            duration = f.aux_value("duration").value
            assert relative_resolution(f) == pytest.approx(printed + step / duration)
            assert said.endswith(f"the log's timer resolution is {step:g} s (" + (
                "every duration a whole number of seconds" if step == 1.0 else f"every duration a multiple of "
                f"{step:g} s") + f" over {len(seconds)} rows): each figure is known only to one timer step over "
                "its duration, and is judged with that band")


def test_a_board_without_a_clock_runs_at_its_default_clock():
    from cortexm_emu.boards import load_board

    for name in ("rp2040", "stm32h563zi", "stm32g071rb"):
        board = load_board(name)
        figure = read_input(WOLF4_LOG, assumptions=Assumptions(board=name))[0][0]
        assert figure.clock_mhz == board.default_clock_mhz
        said = ("the board's default clock: " + board.default_clock_reason if board.default_clock_reason
                else "the part's maximum from the profile")
        assert f"at {board.default_clock_mhz:g} MHz (no clock given: {said})" in figure.notes


def test_sanity_input_with_a_board_and_no_clock_runs_at_the_boards_default_clock(tmp_path, capsys):
    """`refbench sanity --input LOG --board NAME` without --clock: every figure at the board's default
    clock (not the part maximum), said in the findings, for every board whose default differs."""
    from cortexm_emu.boards import board_names, load_board
    from refbench.cli import main

    log = tmp_path / "wolfcrypt.txt"
    log.write_text(WOLF4_LOG + "\n", encoding="utf-8")
    below_maximum = [n for n in board_names() if load_board(n).default_clock_mhz < load_board(n).max_clock_mhz]
    assert {"nrf5340", "mimxrt1176", "rp2040"} <= set(below_maximum)
    for name in below_maximum:
        board = load_board(name)
        main(["sanity", "--input", str(log), "--board", name, "--no-emulator"])
        out = capsys.readouterr().out
        assert f"at {board.default_clock_mhz:g} MHz (no clock given: the board's default clock: " in out, name
        assert f"at {board.max_clock_mhz:g} MHz (no clock given" not in out, name


def test_more_figures_than_one_run_judges_is_refused_naming_the_input(tmp_path, monkeypatch):
    from refbench.inputs import options

    monkeypatch.setattr(options, "MAX_FIGURES", 4)
    log = tmp_path / "capture.log"
    log.write_text(WOLF4_LOG, encoding="utf-8")  # five distinct figures
    with pytest.raises(ValueError, match=rf"Invalid --input \({re.escape(str(log))}\): 5 figures \(duplicates "
                                         r"removed\), more than the 4 one run judges"):
        options.read_inputs([str(log)], M4_170)
    doubled = tmp_path / "doubled.log"
    doubled.write_text("\n".join(WOLF4_LOG.splitlines()[:9]) * 2 + "\n", encoding="utf-8")  # 4 rows, twice
    assert len(options.read_inputs([str(doubled)], M4_170).figures) == 4  # duplicates do not count
