"""The installed console scripts, run in a subprocess the way a user runs them.

Each test runs ``refbench`` or ``cortexm-emu`` (the console scripts beside the interpreter,
else on ``PATH``) with empty measurement and build caches (``REFBENCH_CACHE`` and
``CORTEXM_EMU_CACHE`` in a temporary directory), reads the JSON it prints and checks what it
says, not only the exit status. The in-process CLI tests (``test_cli_emu.py``,
``test_cycles_cli.py``, ``test_memory_cli.py``) cover the options one by one; these check
that the installed entry points, the argument parsing, the caches and the JSON all fit
together. No test pins the verdict of a real published figure.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cortexm_emu.toolchain import build
from refbench.published.normalise import unit_bytes
from refbench.sanity import VERDICTS

#: A selection of ``refbench sanity`` with one software figure that the emulator rule emulates: MD5 on the
#: STM32WL33 (Cortex-M0+ at 64 MHz, the cheapest board to emulate; two MD5 variants).
SANITY_BOARD = "WL33"
SANITY_ALGORITHM = "MD5"

XORSHIFT_C = """\
#include <stdint.h>

/* Marsaglia's xorshift32 (shifts 13, 17, 5), applied `rounds` times to `x`. */
uint32_t xorshift32(uint32_t x, uint32_t rounds) {
    for (uint32_t i = 0; i < rounds; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
    }
    return x;
}
"""


def console_script(name: str) -> Path:
    """The installed console script ``name``: beside ``sys.executable``, else on ``PATH``."""
    beside = Path(sys.executable).parent / name
    if beside.is_file():
        return beside
    found = shutil.which(name)
    if found is None:
        pytest.fail(
            f"console script {name!r} is not installed: not at {beside} nor on PATH; "
            "install the project (pip install -e '.[test]') into this interpreter's environment"
        )
    return Path(found)


@pytest.fixture
def user_env(tmp_path: Path) -> dict[str, str]:
    """The caller's environment with empty refbench and cortexm_emu caches."""
    env = dict(os.environ)
    env["REFBENCH_CACHE"] = str(tmp_path / "refbench-cache")
    env["CORTEXM_EMU_CACHE"] = str(tmp_path / "cortexm-emu-cache")
    return env


def run_script(env: dict[str, str], name: str, *argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(console_script(name)), *argv], env=env, capture_output=True, text=True, timeout=600, check=False
    )


def run_json(env: dict[str, str], name: str, *argv: str) -> list | dict:
    result = run_script(env, name, *argv)
    assert result.returncode == 0, f"{name} {' '.join(argv)} exited {result.returncode}:\n{result.stderr}"
    return json.loads(result.stdout)


def assert_usage_error(result: subprocess.CompletedProcess[str], value: str) -> None:
    """A bad option value: exit status 2, the value named on stderr, no traceback, no output."""
    assert result.returncode == 2, (result.returncode, result.stdout, result.stderr)
    assert value in result.stderr, result.stderr
    assert "Traceback" not in result.stderr and result.stdout == ""


# --------------------------------------------------------------------------- refbench sanity


def test_sanity_json_carries_the_emulated_figure(user_env: dict[str, str]) -> None:
    report = run_json(user_env, "refbench", "sanity", "--board", SANITY_BOARD, "--algorithm", SANITY_ALGORITHM,
                      "--format", "json")
    assert report["schema"] == "refbench-sanity/2"
    rows = report["figures"]
    assert rows, "the selection is empty"
    for row in rows:
        assert SANITY_BOARD in row["part"] and SANITY_ALGORITHM in row["algorithm"], row["id"]
        assert row["verdict"] in VERDICTS and isinstance(row["tested"], bool) and "judged" not in row
        assert row["reasons"] and all(isinstance(r, str) and r for r in row["reasons"])
    emulated = [row for row in rows if row["emulation"] == "emulated"]
    assert 1 <= len(emulated) <= 3, [row["id"] for row in rows]
    for row in emulated:
        # Normalised value, recomputed: the clock's cycles per second over the bytes per second.
        # What one printed unit stands for on that source is data (published/sources.toml).
        assert row["metric"] == "throughput" and row["unit"].endswith("/s"), row["unit"]
        per_unit, _ = unit_bytes(row["source"], row["version"], row["unit"])
        expected = row["clock_mhz"] * 1e6 / (row["published"] * per_unit)
        assert row["cycles_per_byte"] == pytest.approx(expected, rel=1e-12)
        # The emulated range, and how it is made of the runs of each variant and memory configuration.
        assert 0 < row["emulated_min"] <= row["emulated_max"]
        assert row["emulated_unit"] == "c/B" and row["emulated_size"] > 0
        variants = row["emulated_variants"]
        assert variants and all(v["verified"] and not v["problem"] for v in variants)
        for v in variants:
            assert v["cycles_per_byte"] == pytest.approx(v["cycles"] / row["emulated_size"])
            assert 0 <= v["memory_cycles"] <= v["cycles"]
        per_byte = [v["cycles_per_byte"] for v in variants]
        assert (row["emulated_min"], row["emulated_max"]) == (min(per_byte), max(per_byte))
        assert {c["label"] for c in row["emulated_memory"]} == {v["memory"] for v in variants}
        assert row["explanation"] and row["explanation_memory"] in {v["memory"] for v in variants}
        assert any(reason.startswith("[emulator]") for reason in row["reasons"])


def test_sanity_bad_format_names_the_value(user_env: dict[str, str]) -> None:
    result = run_script(user_env, "refbench", "sanity", "--board", SANITY_BOARD, "--format", "yaml")
    assert_usage_error(result, "'yaml'")
    assert "accepted: table, markdown, json, html" in result.stderr


# --------------------------------------------------------------------------- refbench cycles


def test_cycles_json_is_verified_and_deterministic(user_env: dict[str, str]) -> None:
    argv = ("cycles", "--kernel", "sha256", "--variant", "rolled", "--operation", "sha-256", "--core", "m4",
            "--sizes", "64", "--json")
    (first,) = run_json(user_env, "refbench", *argv)
    (again,) = run_json(user_env, "refbench", *argv, "--no-cache")  # measured again, not read back
    assert first["cached"] is False and again["cached"] is False
    assert (first["kernel"], first["variant"], first["operation"]) == ("sha256", "rolled", "sha-256")
    assert (first["core"], first["size"], first["board"], first["memory"]) == ("m4", 64, None, "ideal")
    assert first["verified"] is True and first["mismatch"] == "" and first["error"] == ""
    assert first["cycles"] > 0 and first["instructions"] > 0 and first["memory_cycles"] == 0
    assert first["cycles_per_byte"] == pytest.approx(first["cycles"] / first["size"])
    for key in ("cycles", "instructions", "stack_bytes", "code_bytes", "elf_sha256", "inputs_sha256"):
        assert first[key] == again[key], key


def test_cycles_bad_core_names_the_value(user_env: dict[str, str]) -> None:
    result = run_script(user_env, "refbench", "cycles", "--kernel", "sha256", "--core", "m9", "--sizes", "64")
    assert_usage_error(result, "m9")


# --------------------------------------------------------------------------- refbench verify


def test_verify_json_counts_vectors_and_no_failures(user_env: dict[str, str]) -> None:
    reports = run_json(user_env, "refbench", "verify", "--algorithm", "SHA-1", "--json")
    assert reports
    for report in reports:
        assert {"algorithm", "source", "vectors", "passed", "failed", "slow", "failures"} <= set(report)
        assert "SHA-1" in report["algorithm"]
        assert report["vectors"] > 0 and report["failed"] == 0 and report["failures"] == []
        assert report["passed"] == report["vectors"] and report["slow"] is False


def test_verify_unknown_algorithm_names_the_value(user_env: dict[str, str]) -> None:
    result = run_script(user_env, "refbench", "verify", "--algorithm", "rot13", "--json")
    assert_usage_error(result, "'rot13'")


# --------------------------------------------------------------------------- cortexm-emu run


def xorshift32(x: int, rounds: int) -> int:
    for _ in range(rounds):
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
    return x


@pytest.fixture
def xorshift_elf(tmp_path: Path, user_env: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> Path:
    source = tmp_path / "xorshift.c"
    source.write_text(XORSHIFT_C)
    monkeypatch.setenv("CORTEXM_EMU_CACHE", user_env["CORTEXM_EMU_CACHE"])
    return build([source], "m4", opt="O2", exports=["xorshift32"]).elf


def test_emu_run_returns_the_right_value_in_deterministic_cycles(user_env: dict[str, str],
                                                                 xorshift_elf: Path) -> None:
    def run(seed: int, rounds: int) -> dict:
        return run_json(user_env, "cortexm-emu", "run", str(xorshift_elf), "xorshift32", "--core", "m4",
                        "--arg", hex(seed), "--arg", str(rounds), "--json")

    first, again, longer = run(0x12345678, 100), run(0x12345678, 100), run(0x12345678, 200)
    assert first["function"] == "xorshift32" and first["core"] == "m4"
    assert first["return_value"] == xorshift32(0x12345678, 100)
    assert longer["return_value"] == xorshift32(0x12345678, 200)
    assert first["cycles"] > 0 and first["instructions"] > 0
    assert (first["cycles"], first["instructions"]) == (again["cycles"], again["instructions"])
    # The loop body runs twice as often; the call's entry and exit are the same.
    assert longer["cycles"] > first["cycles"] and longer["instructions"] > first["instructions"]


def test_emu_run_bad_integer_names_the_value(user_env: dict[str, str], xorshift_elf: Path) -> None:
    result = run_script(user_env, "cortexm-emu", "run", str(xorshift_elf), "xorshift32", "--arg", "twelve")
    assert_usage_error(result, "'twelve'")
