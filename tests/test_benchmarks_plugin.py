"""The benchmark plugin (refbench.pytest_plugin) and the benchmarks/ folder.

Unit tests of the option parsers, the emulated clock and the kernel inputs run in-process;
the pytest-benchmark integration runs pytest in a subprocess on a tiny selection and reads
its ``--benchmark-json``. No test asserts a wall-clock time.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from cortexm_emu import board_memory
from cortexm_emu.boards import board_names, load_board
from cortexm_emu.cores import CORES
from cortexm_emu.errors import EmulatorError
from cortexm_emu.toolchain import gcc_available
from refbench.kernels.catalog import families
from refbench.kernels.harness import KernelHarness
from refbench.pytest_plugin.clock import EmulatedClock
from refbench.pytest_plugin.inputs import chosen_inputs, kernel_inputs
from refbench.pytest_plugin.options import (
    DEFAULT_BOARDS,
    DEFAULT_HOST_SIZES,
    FULL_OPTS,
    FULL_SIZES,
    MEMORY_NOTE,
    emulated_boards,
    parse_board,
    parse_compiler,
    parse_kernel,
    parse_opt,
    parse_rounds,
    parse_size,
)
from refbench.pytest_plugin.selection import BoardCase

ROOT = Path(__file__).resolve().parents[1]
BOARDS_FILE = "benchmarks/test_board_time.py"
HOST_FILE = "benchmarks/test_host_speed.py"


def run_pytest(*args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "PYTHONBREAKPOINT"))}
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:randomly", *args],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600, check=False,
    )


# --------------------------------------------------------------------------- option parsers


def test_parse_board_accepts_every_board_with_an_emulated_core() -> None:
    assert emulated_boards() == [n for n in board_names() if load_board(n).core in CORES]
    assert set(DEFAULT_BOARDS) <= set(emulated_boards())
    assert [parse_board(name) for name in emulated_boards()] == emulated_boards()


def test_unknown_board_is_rejected_naming_the_valid_ones() -> None:
    with pytest.raises(argparse.ArgumentTypeError) as info:
        parse_board("stm32nope")
    assert "Invalid --refbench-board ('stm32nope'); accepted: a board profile (" in str(info.value)
    assert all(name in str(info.value) for name in emulated_boards())


def test_board_whose_core_is_not_emulated_is_rejected(monkeypatch: pytest.MonkeyPatch) -> None:
    import cortexm_emu.cores

    without_m7 = {core: info for core, info in CORES.items() if core != "m7"}
    monkeypatch.setattr(cortexm_emu.cores, "CORES", without_m7)
    assert "stm32f756zg" not in emulated_boards() and "stm32l4a6zg" in emulated_boards()
    with pytest.raises(argparse.ArgumentTypeError,
                       match=r"Invalid --refbench-board \('stm32f756zg'\): its core 'm7' is not emulated by cortexm_emu yet; valid: "):
        parse_board("stm32f756zg")


@pytest.mark.parametrize(("alias", "profile"), [("STM32L4A6ZG", "stm32l4a6zg"), ("NUCLEO-G071RB", "stm32g071rb"),
                                               ("Stm32G071RB", "stm32g071rb")])
def test_board_is_named_as_every_command_names_it(alias: str, profile: str) -> None:
    assert parse_board(alias) == profile


def test_unknown_kernel_family_is_rejected_naming_the_valid_ones() -> None:
    with pytest.raises(argparse.ArgumentTypeError, match=r"Unknown kernel 'rot13'; valid: .*sha256"):
        parse_kernel("rot13")


def test_unknown_kernel_variant_is_rejected_naming_the_valid_ones() -> None:
    valid = ", ".join(families()["sha256"].variants)  # the catalogue's, in manifest order
    with pytest.raises(argparse.ArgumentTypeError, match=rf"Unknown variant 'fast' of kernel 'sha256'; valid: {valid}$"):
        parse_kernel("sha256/fast")
    assert parse_kernel("sha256/rolled") == "sha256/rolled"


@pytest.mark.parametrize("value", ["0", "15", "24", "16400", "-16", "1k"])
def test_size_not_a_whole_number_of_blocks_in_range_is_rejected(value: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError, match=r"accepted: a multiple of 16 from 16 to 16384"):
        parse_size(value)
    assert parse_size("1024") == 1024


def test_unknown_opt_level_is_rejected() -> None:
    with pytest.raises(argparse.ArgumentTypeError, match=r"Invalid optimisation level 'O4'; valid: O0, O1, O2, O3, Os"):
        parse_opt("O4")


def test_unknown_compiler_is_rejected() -> None:
    with pytest.raises(argparse.ArgumentTypeError, match=r"Invalid compiler 'clang'; valid: zig, gcc"):
        parse_compiler("clang")
    assert parse_compiler("zig") == "zig"


def test_gcc_accepted_only_when_installed() -> None:
    if gcc_available():
        assert parse_compiler("gcc") == "gcc"
    else:
        with pytest.raises(argparse.ArgumentTypeError, match="arm-none-eabi-gcc is not installed; valid here: zig"):
            parse_compiler("gcc")


@pytest.mark.parametrize("value", ["0", "101", "three"])
def test_rounds_out_of_range_are_rejected(value: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError, match="accepted: an integer from 1 to 100"):
        parse_rounds(value)


# --------------------------------------------------------------------------- clock and inputs


def test_emulated_clock_reads_board_time_of_each_lap_exactly() -> None:
    clock = EmulatedClock("stm32g071rb", 64_000_000)
    assert clock() == 0.0
    for _ in range(5):  # the pedantic runner's pattern: read, run, read
        start = clock()
        clock.advance(20_151)
        assert clock() - start == 20_151 / 64_000_000
    assert clock.cycles == 5 * 20_151
    assert repr(clock) == "EmulatedClock(stm32g071rb @ 64 MHz)"


def test_emulated_clock_rejects_negative_cycles_and_bad_clock() -> None:
    with pytest.raises(ValueError, match=r"Invalid cycles \(-1\); accepted: a non-negative integer"):
        EmulatedClock("stm32g071rb", 64_000_000).advance(-1)
    with pytest.raises(ValueError, match=r"Invalid clock_hz \(0\) for board 'x'; accepted: a positive integer"):
        EmulatedClock("x", 0)


def test_kernel_inputs_size_the_message_and_let_the_reference_choose_other_lengths() -> None:
    assert len(kernel_inputs("sha256", "sha-256", 64)["msg"]) == 64
    chacha = kernel_inputs("chacha20", "chacha20", 256)
    assert (len(chacha["key"]), len(chacha["nonce"]), len(chacha["in"])) == (32, 12, 256)  # RFC 8439 §2.3


class _KernelReading24KeyBytes:
    """A harness double for a kernel that always reads a 24-byte key (no key_len argument):
    a shorter key makes it read past the key buffer, a longer one gives a wrong output."""

    def __init__(self) -> None:
        self.key_lengths: list[int] = []

    def run(self, inputs: dict, operation: str) -> SimpleNamespace:
        self.key_lengths.append(len(inputs["key"]))
        if len(inputs["key"]) < 24:
            raise EmulatorError("read past the end of buffer 'key'")
        return SimpleNamespace(verified=len(inputs["key"]) == 24)


def test_chosen_inputs_fall_back_to_the_length_the_kernel_reads() -> None:
    """The TDEA reference accepts 16- and 24-byte keys (keying options 2 and 1); candidates run in
    order until the kernel neither faults nor differs from the reference."""
    case = BoardCase("stm32g071rb", "m0plus", 64_000_000, "tdea", "double", "cbc-encrypt", 64, "zig", "O1")
    harness = _KernelReading24KeyBytes()
    chosen = chosen_inputs(harness, case)
    assert len(kernel_inputs("tdea", "cbc-encrypt", 64)["key"]) == 16
    assert len(chosen["key"]) == 24 and harness.key_lengths == [16, 24]


def test_chosen_inputs_keep_the_first_candidate_when_none_verifies() -> None:
    class Wrong:
        def run(self, inputs: dict, operation: str) -> SimpleNamespace:
            return SimpleNamespace(verified=False)

    case = BoardCase("stm32g071rb", "m0plus", 64_000_000, "sha256", "wrong", "sha-256", 64, "zig", "O1")
    assert chosen_inputs(Wrong(), case) == kernel_inputs("sha256", "sha-256", 64)


def test_kernel_inputs_unknown_operation_names_the_valid_ones() -> None:
    with pytest.raises(ValueError, match=r"Invalid operation 'sha-1' of kernel 'sha256'; valid: sha-256"):
        kernel_inputs("sha256", "sha-1", 64)


# --------------------------------------------------------------------------- pytest-benchmark integration


@pytest.fixture(scope="module")
def board_json(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict, str]:
    out = tmp_path_factory.mktemp("bench") / "board.json"
    result = run_pytest(
        BOARDS_FILE, "--benchmark-only", "-q",
        "--refbench-kernel", "sha256/rolled", "--refbench-board", "stm32g071rb",
        "--refbench-board", "stm32l4a6zg", "--refbench-size", "64", "--refbench-rounds", "4",
        f"--benchmark-json={out}",
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return json.loads(out.read_text()), result.stdout


def test_json_time_is_cycles_over_board_clock(board_json: tuple[dict, str]) -> None:
    data, _ = board_json
    benches = {b["params"]["refbench_board"]: b for b in data["benchmarks"]
               if b["params"]["refbench_operation"] == "sha-256"}
    assert set(benches) == {"stm32g071rb", "stm32l4a6zg"}
    harness_cycles = {}
    for board, bench in benches.items():
        info, stats = bench["extra_info"], bench["stats"]
        clock_hz = round(load_board(board).max_clock_mhz * 1_000_000)
        core = load_board(board).core
        memory = board_memory(board, clock_hz / 1e6, "on")  # the default --refbench-memory on
        run = KernelHarness("sha256", "rolled", core, memory=memory).run(kernel_inputs("sha256", "sha-256", 64))
        harness_cycles[board] = run.cycles
        assert info["cycles"] == harness_cycles[board] and info["memory_cycles"] == run.memory_cycles
        assert info["memory"] == memory.name
        assert info["clock_hz"] == clock_hz and info["core"] == core
        assert stats["data"] == [info["cycles"] / clock_hz] * 4
        assert stats["min"] == stats["max"] == stats["mean"] == info["cycles"] / clock_hz
        assert stats["rounds"] == 4 and stats["iterations"] == 1
        assert info["cycles_per_byte"] == info["cycles"] / 64
        assert info["verified"] is True and info["instructions"] > 0 and info["stack_bytes"] > 0
        assert (info["compiler"], info["opt"], info["kernel"]) == ("zig", "Os", "sha256/rolled")
        assert bench["options"]["timer"] == f"EmulatedClock({board} @ {clock_hz / 1e6:g} MHz)"
    # ARMv6-M has no shifted second operand and 8 low registers: the M0+ needs more cycles
    assert harness_cycles["stm32g071rb"] > harness_cycles["stm32l4a6zg"]


def test_json_and_terminal_say_rounds_are_exact_repeats(board_json: tuple[dict, str]) -> None:
    data, stdout = board_json
    for bench in data["benchmarks"]:
        assert bench["stats"]["stddev"] == 0.0
        assert bench["extra_info"]["exact_repeats"] is True
        assert "stddev 0" in bench["group"] and "exact repeats" in bench["extra_info"]["repeatability"]
    assert data["machine_info"]["refbench"]["memory"] == MEMORY_NOTE
    assert data["machine_info"]["refbench"]["memory_option"] == "on"
    assert set(data["machine_info"]["refbench"]["boards"]) == {"stm32g071rb", "stm32l4a6zg"}
    assert "Rounds are exact repeats (stddev 0 by construction" in stdout
    assert f"all {len(data['benchmarks'])} cases gave one cycle count per round" in stdout


def test_bad_board_option_stops_pytest_naming_valid_ones() -> None:
    result = run_pytest(BOARDS_FILE, "--collect-only", "-q", "--refbench-board", "stm32nope")
    assert result.returncode == pytest.ExitCode.USAGE_ERROR, result.stdout + result.stderr
    assert "argument --refbench-board: Invalid --refbench-board ('stm32nope'); accepted: a board profile (efr32mg21, " in result.stderr
    assert "stm32f407vg" in result.stderr


def test_bad_host_algorithm_stops_pytest_naming_valid_ones() -> None:
    result = run_pytest(HOST_FILE, "--collect-only", "-q", "--refbench-algorithm", "AES-999")
    assert result.returncode != 0
    assert "Invalid --refbench-algorithm 'AES-999'; valid: AES-128-CBC" in result.stdout + result.stderr


def _collected(*args: str) -> list[str]:
    result = run_pytest(BOARDS_FILE, "--collect-only", "-q", "--benchmark-only", *args)
    assert result.returncode == 0, result.stdout + result.stderr
    return [line for line in result.stdout.splitlines() if line.startswith(BOARDS_FILE + "::")]


def test_default_selection_is_two_boards_every_kernel_at_a_size_it_takes() -> None:
    """Each variant on the default boards whose core its manifest names, each operation at 1024 B or,
    when its reference takes no 1024-byte input (field arithmetic), at its own operand length."""
    from cortexm_emu.boards import load_board
    from refbench.pytest_plugin.inputs import accepts
    from refbench.pytest_plugin.options import OPERAND_SIZES

    expected = set()
    for board in DEFAULT_BOARDS:
        core = load_board(board).core
        for name, fam in families().items():
            for variant in fam.variants:
                if not fam.variant(variant).supports(core):
                    continue
                for op in fam.operations:
                    size = 1024 if accepts(name, op.name, 1024) else next(
                        s for s in OPERAND_SIZES if accepts(name, op.name, s))
                    expected.add(f"{BOARDS_FILE}::test_board_time[{board}-{name}/{variant}-{op.name}-{size}B-zig-Os]")
    ids = _collected()
    assert set(ids) == expected and len(ids) == len(expected)
    assert any("bignum/umaal-p384-mul-48B" in i for i in ids)  # a field operation at its own length
    assert not any("stm32g071rb-bignum/umaal" in i for i in ids)  # UMAAL is not an M0+ instruction


def test_full_switch_selects_every_board_size_and_build() -> None:
    ids = _collected("--refbench-full", "--refbench-kernel", "sha256/rolled")
    builds = len(FULL_OPTS) * (2 if gcc_available() else 1)
    operations = len(families()["sha256"].operations)
    assert len(ids) == len(emulated_boards()) * len(FULL_SIZES) * builds * operations
    assert {i.split("[")[1].split("-")[0] for i in ids} == set(emulated_boards())


def test_normal_run_calls_each_benchmark_once_untimed() -> None:
    """Without --benchmark-only the root conftest keeps a smoke selection and pytest-benchmark is
    disabled: the first case of each kernel operation and of each host implementation runs once
    (a broken benchmark fails), the others are deselected, and nothing is timed."""
    result = run_pytest(
        BOARDS_FILE, HOST_FILE, "-q", "--refbench-kernel", "sha256/rolled", "--refbench-algorithm", "SHA-256"
    )
    assert result.returncode == 0, result.stdout + result.stderr
    operations = len(families()["sha256"].operations)
    # kept: one board per operation, one host size per implementation (3); the rest deselected
    kept = operations + 3
    cases = len(DEFAULT_BOARDS) * operations + 3 * len(DEFAULT_HOST_SIZES)
    assert f"{kept} passed, {cases - kept} deselected" in result.stdout, result.stdout
    assert "Mean" not in result.stdout  # pytest-benchmark printed no timing table


def test_host_benchmarks_group_reference_and_libraries(tmp_path: Path) -> None:
    out = tmp_path / "host.json"
    result = run_pytest(
        HOST_FILE, "--benchmark-only", "-q", "--refbench-algorithm", "SHA-256", "--refbench-size", "16",
        "--benchmark-max-time=0.001", "--benchmark-min-rounds=1", f"--benchmark-json={out}",
    )
    assert result.returncode == 0, result.stdout + result.stderr
    benches = json.loads(out.read_text())["benchmarks"]
    assert {b["group"] for b in benches} == {"host: SHA-256 16 B"}
    assert {b["extra_info"]["implementation"] for b in benches} == {"refbench", "cryptography", "pycryptodome"}
    assert all(b["options"]["timer"] == "perf_counter" for b in benches)


def test_memory_option_selects_the_board_memory_system(tmp_path: Path) -> None:
    """--refbench-memory ideal runs with zero wait states; off switches the caches and prefetch off."""
    cycles = {}
    for memory in ("ideal", "off"):
        out = tmp_path / f"{memory}.json"
        result = run_pytest(
            BOARDS_FILE, "--benchmark-only", "-q", "--refbench-kernel", "sha256/rolled", "--refbench-board",
            "stm32l4a6zg", "--refbench-size", "64", "--refbench-rounds", "1", "--refbench-memory", memory,
            f"--benchmark-json={out}",
        )
        assert result.returncode == 0, result.stdout + result.stderr
        data = json.loads(out.read_text())
        (bench,) = [b for b in data["benchmarks"] if b["params"]["refbench_operation"] == "sha-256"]
        assert (data["machine_info"]["refbench"]["memory"] == "ideal (zero wait states)") == (memory == "ideal")
        cycles[memory] = bench["extra_info"]["cycles"]
        if memory == "ideal":
            assert bench["extra_info"]["memory"] == "ideal (zero wait states)" and bench["extra_info"]["memory_cycles"] == 0
        else:
            assert "caches off, prefetch off" in bench["extra_info"]["memory"]
    inputs = kernel_inputs("sha256", "sha-256", 64)
    assert cycles["ideal"] == KernelHarness("sha256", "rolled", "m4").run(inputs, "sha-256").cycles
    off = board_memory("stm32l4a6zg", 80, "off")
    assert cycles["off"] == KernelHarness("sha256", "rolled", "m4", memory=off).run(inputs, "sha-256").cycles
    assert cycles["off"] > cycles["ideal"]
