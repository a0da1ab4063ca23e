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
import re

import pytest

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
    assert figures[2].implementation == "software" and figures[2].unit == "KiB/s"
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
