"""Issue 19, the CLI and reference items: piped output (10), the trace key length (11), cycles
--board/--core/--clock/--sizes and the GCM minimum tag length (12). Each reproduces the report."""

from __future__ import annotations

import io
import re
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console

from refbench.cli import main
from refbench.commands.cycles import fits, parse_sizes, render_lines, render_table
from refbench.measure import MAX_MESSAGE_BYTES, Job, Measurer, plan
from refbench.ref.aes import AES
from refbench.ref.modes import gcm_decrypt, gcm_encrypt, gmac, gmac_verify

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def caches(tmp_path, monkeypatch):
    monkeypatch.setenv("REFBENCH_CACHE", str(tmp_path / "rb"))


# ------------------------------------------------------------------------------------------
# 10: output when piped


def _board_measurements():
    measurer = Measurer(board="stm32f407vg")
    return [measurer.measure(Job("sha256", "rolled", "sha-256", size)) for size in (16, 8000)]


def _render(measurements, width: int) -> str:
    console = Console(file=io.StringIO(), width=width, force_terminal=False, color_system=None)
    table = render_table(measurements, "t")
    if fits(console, table):
        console.print(table)
    else:
        for line in render_lines(measurements):
            console.print(line, soft_wrap=True, markup=False)
    return console.file.getvalue()


@pytest.mark.parametrize("width", [40, 80, 200])
def test_cycles_output_never_cuts_a_number_and_shows_verified(caches, width):
    measurements = _board_measurements()
    text = _render(measurements, width)
    assert "…" not in text
    for m in measurements:
        for number in (m.cycles, m.memory_cycles, m.stack_bytes, m.code_bytes):
            assert re.search(rf"(?<![\d,]){number:,}(?!\d|,\d)", text), (number, text)
    assert text.count("yes") >= len(measurements) and "verified" in text


def test_cycles_table_is_used_when_it_fits(caches):
    measurements = _board_measurements()
    assert "┃" not in _render(measurements, 200) and "verified " in _render(measurements, 200).splitlines()[1]


def _run(args: list[str], **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "refbench.cli", *args], cwd=ROOT, capture_output=True, **kwargs)


def test_sanity_piped_into_head_exits_0_quietly(tmp_path):
    proc = subprocess.Popen([sys.executable, "-m", "refbench.cli", "sanity", "--no-emulator"], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    first = proc.stdout.readline()
    proc.stdout.close()  # as `| head -1` does
    err = proc.stderr.read()
    assert proc.wait() == 0 and first and err == b"", err.decode()[-2000:]


def test_sanity_when_narrow_prints_reasons_unfolded(tmp_path):
    out = _run(["sanity", "--no-emulator", "--source", "cyclone", "--algorithm", "SHA-256", "--reasons", "all"],
               env={"COLUMNS": "80", "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}).stdout.decode()
    lines = out.splitlines()
    assert lines and not any("│" in line for line in lines)
    reasons = [line for line in lines if line.startswith("    ")]
    assert reasons and max(len(r) for r in reasons) > 80  # a reason is one line, not a 13-character column


# ------------------------------------------------------------------------------------------
# 11: trace names the algorithm the key is for


def test_trace_aes_128_with_a_32_byte_key_is_an_error(capsys):
    assert main(["trace", "aes-128", "--key", bytes(range(32)).hex()]) == 2
    err = capsys.readouterr()
    assert "AES-128" in err.err and "32 bytes" in err.err and "aes-256" in err.err and err.out == ""
    assert main(["trace", "aes-256", "--key", bytes(range(32)).hex()]) == 0


# ------------------------------------------------------------------------------------------
# 12: cycles --board/--core/--clock/--sizes


def test_cycles_board_with_a_contradicting_core_is_an_error(caches, capsys):
    assert main(["cycles", "--kernel", "sha256", "--board", "stm32f407vg", "--core", "m0plus"]) == 2
    assert "Invalid --core (m0plus) with --board stm32f407vg: that part has a m4 core" in capsys.readouterr().err


def test_cycles_board_without_clock_runs_at_the_boards_default_clock_and_says_so(caches, capsys):
    argv = ["cycles", "--kernel", "sha256", "--variant", "rolled", "--operation", "sha-256", "--sizes", "16",
            "--board", "stm32f407vg"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "24 MHz: the board's default clock, --clock to change" in out
    assert main([*argv, "--clock", "168"]) == 0
    assert "default clock" not in capsys.readouterr().out


@pytest.mark.parametrize("text", ["99999999999999999999", str(MAX_MESSAGE_BYTES + 1)])
def test_cycles_huge_sizes_give_a_bounded_error(caches, capsys, text):
    assert main(["cycles", "--kernel", "sha256", "--sizes", text]) == 2
    err = capsys.readouterr().err
    assert f"Invalid --sizes ({text})" in err and f"at most {MAX_MESSAGE_BYTES:,} bytes" in err
    assert "Traceback" not in err
    with pytest.raises(ValueError, match="Invalid size"):
        plan(["sha256"], sizes=[int(text)])


def test_parse_sizes_accepts_the_bound():
    assert parse_sizes(f"16,{MAX_MESSAGE_BYTES}") == [16, MAX_MESSAGE_BYTES]


# ------------------------------------------------------------------------------------------
# 12: GCM requires a full tag unless short tags are asked for


def test_gcm_decrypt_rejects_a_short_prefix_of_a_valid_tag_by_default():
    aes, iv = AES(bytes(16)), bytes(12)
    ciphertext, tag = gcm_encrypt(aes, iv, b"attack at dawn", b"hdr")
    assert gcm_decrypt(aes, iv, ciphertext, tag, b"hdr") == b"attack at dawn"
    with pytest.raises(ValueError, match=r"Invalid tag length \(4 bytes\) for GCM; accepted: at least "
                                         r"min_tag_length=16 bytes \(pass min_tag_length=4"):
        gcm_decrypt(aes, iv, ciphertext, tag[:4], b"hdr")
    short_ct, short_tag = gcm_encrypt(aes, iv, b"attack at dawn", b"hdr", tag_length=4)
    assert gcm_decrypt(aes, iv, short_ct, short_tag, b"hdr", min_tag_length=4) == b"attack at dawn"
    with pytest.raises(ValueError, match="min_tag_length"):
        gcm_decrypt(aes, iv, ciphertext, tag, b"hdr", min_tag_length=2)


def test_gmac_verify_requires_a_full_tag_by_default():
    aes, iv = AES(bytes(16)), bytes(12)
    tag = gmac(aes, iv, b"authenticated")
    gmac_verify(aes, iv, b"authenticated", tag)
    with pytest.raises(ValueError, match="at least min_tag_length=16"):
        gmac_verify(aes, iv, b"authenticated", tag[:8])
    gmac_verify(aes, iv, b"authenticated", gmac(aes, iv, b"authenticated", tag_length=8), min_tag_length=8)
