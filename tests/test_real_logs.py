"""Real benchmark logs from public sources (tests/fixtures/logs/, each cited in SOURCES.md) are read
without loss: every line that carries a measured number is read or reported, with the counts
checked here by reading each log by hand. No verdict of a real figure is pinned here; the clock
check is tested on the logs' own printed numbers (arithmetic of the log, not a verdict)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from refbench.cli import main
from refbench.inputs import Assumptions, detect_format, read_input
from refbench.inputs.assumptions import core_key
from refbench.inputs.mbedtls import clock_check
from refbench.inputs.records import Problem
from refbench.inputs.summary import InputCounts, grouped_problems, input_counts, yielded_nothing

LOGS = Path(__file__).resolve().parent / "fixtures" / "logs"
M4_120 = Assumptions(core="m4", clock_mhz=120)
#: the lines with digits that carry no measurement: harness, version, clock and implementation banners
BANNER = re.compile(r"\{\{timeout;\d+\}\}|version \d|^fsys=\d+$|^wolfCrypt Benchmark \(block bytes|"
                    r"Asymmetric cryptography: CASPER|^Benchmark Test: Return code 0$")

# file -> (format, lines read, {line: why fragment} of the lines skipped); counted by hand:
# K64F: 5 harness lines, 18 TIME_AND_TSC rows (lines 8-25), 14 'ms/<op>' rows (26-39), 2 harness lines.
# LPC55S16: an 8-line banner, 22 rows 'KB/s, cycles/byte' (10-31), 19 '%.2f <type>/s' rows (32-50).
# Mbed OS: 15 'KB/s' rows without cycles/byte, 14 'ms/<op>' rows, 'DONE'.
# i.MX RT1060: 36 rows, each followed by an empty line; PBKDF2 (line 63) is no refbench algorithm.
# STM32H7S3: 33 rows (lines 5-37). nRF52: 7 rows (lines 6-12), the header without its ')'.
EXPECTED = {
    "mbedtls-frdm-k64f.txt": ("mbedtls", 32, {}),
    "mbedtls-lpcxpresso55s16.txt": ("mbedtls", 41, {}),
    "mbedtls-mbed-os.txt": ("mbedtls", 29, {}),
    "wolfcrypt-imxrt1060.txt": ("wolfcrypt", 35, {63: "unknown algorithm"}),
    "wolfcrypt-stm32h7s3.txt": ("wolfcrypt", 33, {}),
    "wolfcrypt-nrf52.txt": ("wolfcrypt", 7, {}),
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_every_line_with_a_result_is_read_or_reported(name):
    fmt, read, skipped = EXPECTED[name]
    path = LOGS / name
    text = path.read_text(encoding="utf-8")
    assert detect_format(text, name) == fmt
    figures, problems = read_input(path, assumptions=M4_120)
    assert len(figures) == read
    assert {p.line: p.why for p in problems}.keys() == skipped.keys()
    for p in problems:
        assert skipped[p.line] in p.why
    # every line with a digit is a figure, a problem, or one of the log's banner/harness lines
    lines = {f.line for f in figures} | {p.line for p in problems}
    assert len(lines) == read + len(skipped)
    with_digits = {n for n, t in enumerate(text.splitlines(), start=1) if re.search(r"\d", t)}
    for n in sorted(with_digits - lines):
        assert BANNER.search(text.splitlines()[n - 1]), f"{name}:{n} neither read nor reported"


def test_sources_cite_every_fixture():
    sources = (LOGS / "SOURCES.md").read_text(encoding="utf-8")
    for name in EXPECTED:
        row = next(line for line in sources.splitlines() if f"`{name}`" in line)
        assert " @ " in row and " : `" in row  # repository @ commit : path


def test_indented_mbed_log_with_harness_lines_is_not_json():
    text = (LOGS / "mbedtls-frdm-k64f.txt").read_text(encoding="utf-8")
    assert text.lstrip().startswith("{{timeout;150}}")
    assert detect_format(text, "k64f.log") == "mbedtls"
    assert detect_format('[{"algorithm": "SHA-256"}]', "t") == "json"


def test_mbedtls_rows_of_every_printed_form():
    figures, _ = read_input(LOGS / "mbedtls-frdm-k64f.txt", assumptions=M4_120)
    by_line = {f.line: f for f in figures}
    rsa = by_line[26]
    assert (rsa.algorithm, rsa.operation, rsa.metric, rsa.value, rsa.unit) == ("RSA-2048", "public", "time_per_op",
                                                                                41.0, "ms")
    assert (by_line[39].algorithm, by_line[39].operation) == ("X25519", "agree")
    assert (by_line[8].algorithm, by_line[8].unit, by_line[8].value) == ("SHA-1", "KiB/s", 3644.0)
    nxp, _ = read_input(LOGS / "mbedtls-lpcxpresso55s16.txt", assumptions=Assumptions(core="m33", clock_mhz=150))
    md5, rsa_public, full = nxp[0], nxp[22], nxp[-1]
    assert (md5.algorithm, md5.value, md5.text, md5.unit) == ("MD5", 13871.43, "13871.43", "KiB/s")
    assert "'KB/s' read as 1024 bytes" in md5.notes
    assert (rsa_public.algorithm, rsa_public.operation, rsa_public.value) == ("RSA-1024", "public", 1636.33)
    assert full.operation == "full handshake (both sides)" and full.value == 11.33
    # the banner: the version printed, fsys, and the implementations it names
    assert md5.version == "2.26.0" and "Mbed TLS version 2.26.0 printed by the log" in md5.notes
    assert "fsys=250105263 (250.105 MHz), not the stated 150 MHz" in md5.notes
    assert "SHA: HASHCRYPT HW accelerated" in md5.notes
    given, _ = read_input(LOGS / "mbedtls-lpcxpresso55s16.txt",
                          assumptions=Assumptions(core="m33", clock_mhz=150, version="2.28.0"))
    assert given[0].version == "2.28.0" and "(the log prints 2.26.0)" in given[0].notes


def test_the_logs_cycles_per_byte_check_the_stated_clock():
    k64f, _ = read_input(LOGS / "mbedtls-frdm-k64f.txt", assumptions=M4_120)
    assert "it agrees with the stated 120 MHz on every row" in k64f[0].notes
    slow, _ = read_input(LOGS / "mbedtls-frdm-k64f.txt", assumptions=Assumptions(core="m4", clock_mhz=100))
    assert "it contradicts the stated 100 MHz on every row" in slow[0].notes
    nxp, _ = read_input(LOGS / "mbedtls-lpcxpresso55s16.txt", assumptions=Assumptions(core="m33", clock_mhz=150))
    assert "contradicts the stated 150 MHz on every row" in nxp[0].notes
    # every figure of the log carries the sentence, the public-key ones too
    assert all("implies a counter clock of" in f.notes for f in nxp)
    # no cycles/byte printed: no check, said per row
    mbed_os, _ = read_input(LOGS / "mbedtls-mbed-os.txt", assumptions=M4_120)
    assert "no cycles/byte printed" in mbed_os[0].notes and "counter clock" not in mbed_os[0].notes


def test_clock_check_uses_the_printed_resolution():
    # '%lu' truncates: 3644 KiB/s x 32 cycles/byte is 119.4-123.2 MHz (before the 1 % alarm allowance)
    check = clock_check([("3644", "32")], 120.0)
    assert check.agree == 1 and check.low_mhz == pytest.approx(3644 * 32 * 1024 / 1e6 * 0.99)
    assert check.high_mhz == pytest.approx(3645 * 33 * 1024 / 1e6 * 1.01)
    # '%.2f' rounds: half a unit of the last digit
    narrow = clock_check([("871.28", "280.37")], 250.105263)
    assert narrow.low_mhz == pytest.approx(871.275 * 280.365 * 1024 / 1e6 * 0.99)
    assert clock_check([("871.28", "280.37")], 200.0).agree == 0
    assert clock_check([], 100.0) is None


def test_wolfcrypt_banner_version_and_math_line_are_stated():
    log = "\n".join([
        " wolfSSL version 5.6.6 with AESNI with SP-MATH",
        "Math:   Single Precision: ecc 256 384 521 rsa/dh 2048 3072 4096 asm sp_cortexm.c",
        "wolfCrypt Benchmark (block bytes 1024, min 1.0 sec each)",
        "SHA-256                      4 MiB took 1.000 seconds,    4.000 MiB/s",
        "ECDSA [      SECP256R1]   256     sign      1100 ops took 1.028 sec, avg 0.934 ms, 1070.103 ops/sec",
    ]) + "\n"
    figures, problems = read_input(log, assumptions=M4_120)
    assert not problems and [f.version for f in figures] == ["5.6.6", "5.6.6"]
    assert all(f.math == "SP math, Cortex-M assembly" for f in figures)
    assert "the banner says 'wolfSSL version 5.6.6 with AESNI with SP-MATH'" in figures[1].notes
    assert "the log's Math line: 'Single Precision" in figures[1].notes
    unmapped, _ = read_input(log.replace("sp_cortexm.c", "something.c"), assumptions=M4_120)
    assert unmapped[0].math is None and "no SP source file named: math not set" in unmapped[0].notes
    old, _ = read_input(LOGS / "wolfcrypt-nrf52.txt", assumptions=M4_120)
    assert old[0].math is None and "no Math line printed" in old[0].notes


def test_wolfcrypt_sha3_rows_are_read():
    figures, _ = read_input(LOGS / "wolfcrypt-imxrt1060.txt", assumptions=Assumptions(core="m7", clock_mhz=600))
    sha3 = [f for f in figures if f.algorithm.startswith("SHA3-")]
    assert [(f.algorithm, f.operation, f.line) for f in sha3] == [
        ("SHA3-224", "hash", 47), ("SHA3-256", "hash", 49), ("SHA3-384", "hash", 51), ("SHA3-512", "hash", 53)]


def test_problems_of_one_kind_are_reported_once():
    problems = [Problem("a.log", n, f"row {n}", "the same long reason") for n in (3, 5, 9)]
    problems.append(Problem("a.log", 11, "row 11", "another reason"))
    assert grouped_problems(problems) == [
        "a.log:3, 5, 9 (3 lines): the same long reason; first: 'row 3'",
        "a.log:11: another reason; 'row 11'"]
    many = [Problem("b.log", n, "x", "why") for n in range(1, 20)]
    assert grouped_problems(many)[0].startswith("b.log:1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, ... (+7) (19 lines)")


def test_input_counts_and_which_inputs_gave_nothing():
    figures, problems = read_input(LOGS / "wolfcrypt-imxrt1060.txt", name="rt.log",
                                   assumptions=Assumptions(core="m7", clock_mhz=600))
    counts = input_counts(["rt.log", "-"], figures, problems, {figures[0].id})
    assert counts == [InputCounts("rt.log", 35, 1, 1), InputCounts("<stdin>", 0, 0, 0)]
    assert counts[0].line() == "rt.log: 36 lines with results: 35 read, 1 skipped; 1 of 35 figures judged"
    assert yielded_nothing(counts) == ["<stdin>"]


def test_an_input_that_judges_nothing_exits_1(tmp_path, capsys):
    log = tmp_path / "nothing.log"
    log.write_text("  AES-CBC-128              :  Feature not supported. Skipping.\n"
                   "  SHA-256                  :       1957 KiB/s,         59 cycles/byte\n", encoding="utf-8")
    log.write_text(log.read_text().replace("SHA-256 ", "WHIRL-1 "), encoding="utf-8")
    status = main(["sanity", "--input", str(log), "--core", "m4", "--clock", "120", "--format", "json",
                   "--no-emulator"])
    err = capsys.readouterr().err
    assert status == 1
    assert f"{log}: 2 lines with results: 0 read, 2 skipped; 0 of 0 figures judged" in err
    assert f"no figure judged from {log} (exit status 1)" in err


@pytest.mark.parametrize("core, key", [("m4f", "m4"), ("m7f", "m7"), ("M33F", "m33"), ("Cortex-M4F", "m4")])
def test_fpu_core_names_are_accepted(core, key):
    assert core_key(core) == key
    figures, _ = read_input(LOGS / "wolfcrypt-nrf52.txt", assumptions=Assumptions(core=core, clock_mhz=64))
    assert figures[0].core == {"m4": "Cortex-M4", "m7": "Cortex-M7", "m33": "Cortex-M33"}[key]


def test_missing_assumptions_are_said_in_the_users_words():
    with pytest.raises(ValueError) as info:
        read_input(LOGS / "wolfcrypt-nrf52.txt", assumptions=Assumptions(core="m4f"))
    assert "clock_mhz" not in str(info.value)
    assert "a core (m4f) but no clock" in str(info.value) and "--core m4 --clock 168" in str(info.value)


def test_a_stated_clock_the_logs_cycles_per_byte_contradict_is_stated_by_every_finding():
    from refbench.inputs.assumptions import described_assumptions

    path = LOGS / "mbedtls-frdm-k64f.txt"
    right = read_input(path, assumptions=M4_120)[0]
    wrong = read_input(path, assumptions=Assumptions(core="m4", clock_mhz=100))[0]
    assert all("implies" not in described_assumptions(f.notes) for f in right)
    assert all("agrees with the stated 120 MHz on every row" in f.notes for f in right)
    for f in wrong:
        said = described_assumptions(f.notes)
        assert said.startswith("assumed: no board profile; Cortex-M4 at 100 MHz")
        assert said.endswith("it contradicts the stated 100 MHz on every row: the stated clock is not the one the "
                             "log ran at (or the port's hardclock counts another clock)")
