"""Property-based fuzzing of ``cortexm-emu run`` arguments and of ELF inputs (issue 19).

Whatever the arguments or the file, the command line ends with a clean error: exit status 0
(it ran), 1 with one of cortexm_emu's error classes named (an emulator fault or a bad ELF), or 2
for a bad argument (argparse or a ValueError naming the value); never an uncaught exception, a
traceback or an OverflowError/UcError/MemoryError. The library raises only EmulatorError
subclasses or ValueError. Example counts are bounded so the module stays in the default run.
"""

from __future__ import annotations

import struct
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cortexm_emu
from cortexm_emu import EmulatorError, Machine
from cortexm_emu.call import MAX_BUFFER_SIZE
from cortexm_emu.cli import main
from cortexm_emu.toolchain import build

ASM = Path(__file__).parent / "asm" / "machine"
ERROR_CLASSES = tuple(
    name for name in cortexm_emu.__all__ if name.endswith(("Error", "Fault", "Access", "Overflow", "Overrun", "Exceeded", "Instruction", "Clobbered"))
)
FUNCTIONS = ["negate", "weighted", "mix64", "xor_into", "fill", "calls_leaf", "divide", "no_such"]
SETTINGS = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    derandomize=True,
)


@pytest.fixture(scope="module")
def calls_elf() -> str:
    return str(build([ASM / "calls.c"], "m4").elf)


def _run_cli(argv: list[str], capsys) -> tuple[int, str]:
    try:
        code = main(argv)
    except SystemExit as exit_:  # argparse: --help (0) or a usage error (2)
        code = exit_.code if isinstance(exit_.code, int) else 2
    err = capsys.readouterr().err
    return code, err


def _assert_clean(code: int, err: str) -> None:
    assert "Traceback" not in err
    assert code in (0, 1, 2), (code, err)
    if code == 1:
        assert any(f"cortexm-emu: {name}: " in err for name in ERROR_CLASSES), err
    if code == 2:
        assert "error" in err, err


# -- arguments ------------------------------------------------------------------------------------

_integers = st.one_of(
    st.integers(-(1 << 70), 1 << 70),
    st.integers(-(1 << 33), 1 << 33),
    st.sampled_from([0, 1, -1, (1 << 31) - 1, -(1 << 31), (1 << 32) - 1, 1 << 32, (1 << 63), (1 << 64), -(1 << 63) - 1]),
).map(str)
_text = st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=12)
_int_text = st.one_of(_integers, _integers.map(lambda s: hex(int(s))), _text)
_sizes = st.one_of(
    st.integers(0, 4096),
    st.integers(MAX_BUFFER_SIZE + 1, 1 << 80),  # refused before anything is allocated
)
_buffers = st.one_of(
    _sizes.map(lambda n: f"size:{n}"),
    _sizes.map(str),
    st.binary(max_size=64).map(lambda b: "hex:" + b.hex()),
    st.binary(min_size=1, max_size=16).map(lambda b: "0" + b.hex()),
    _text,
)
_pointers = st.tuples(st.integers(0, 4), st.integers(0, 5000)).map(lambda t: f"buf{t[0]}+{t[1]}")
_stacks = st.one_of(
    st.integers(32, 16384).map(lambda n: n * 8),
    st.integers(-(1 << 64), 1 << 64),
    st.integers(MAX_BUFFER_SIZE // 8, 1 << 40).map(lambda n: n * 8),
).map(str)
_option = st.one_of(
    st.tuples(st.just("--arg"), st.one_of(_int_text, _pointers)),
    st.tuples(st.just("--arg64"), _int_text),
    st.tuples(st.just("--buf"), _buffers),
    st.tuples(st.just("--data"), _buffers),
    st.tuples(st.just("--reg"), st.one_of(st.builds(lambda r, v: f"r{r}={v}", st.integers(-1, 15), _integers), _text)),
    st.tuples(st.just("--stack"), st.one_of(_stacks, _text)),
    st.tuples(st.just("--budget"), st.one_of(st.integers(-5, 200_000).map(str), _int_text)),
    st.tuples(st.just("--core"), st.sampled_from(["m0", "m0plus", "m3", "m4", "m7", "m33", "m5", ""])),
    st.tuples(st.just("--board"), st.sampled_from(["stm32f407vg", "STM32G071", "stm32h753zi", "nope", ""])),
    st.tuples(st.just("--clock"), st.one_of(st.floats(allow_nan=True, allow_infinity=True).map(str), _text)),
    st.tuples(st.just("--cache"), st.sampled_from(["on", "off", "maybe"])),
    st.tuples(st.just("--start"), st.sampled_from(["warm", "cold", "hot"])),
)


@SETTINGS
@given(
    command=st.sampled_from(["run", "annotate"]),
    function=st.sampled_from(FUNCTIONS),
    options=st.lists(_option, max_size=7),
    top=st.one_of(st.none(), _int_text),
)
def test_run_arguments_give_clean_errors_only(calls_elf, capsys, command, function, options, top):
    argv = [command, calls_elf, function, "--budget", "200000"]
    for flag, value in options:
        argv += [flag, value] if not value.startswith("-") else [f"{flag}={value}"]
    if command == "annotate" and top is not None:
        argv += [f"--top={top}"]
    if command == "annotate":  # board options are "run" only: argparse refuses them (exit 2)
        pass
    code, err = _run_cli(argv, capsys)
    _assert_clean(code, err)


# -- ELF inputs -----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def small_elf() -> bytes:
    return build([ASM / "halt_first.S"], "m4").elf.read_bytes()


def _mutations(elf: bytes):
    n = len(elf)
    truncated = st.integers(0, n - 1).map(lambda k: elf[:k])
    flipped = st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, 7)), min_size=1, max_size=8).map(
        lambda flips: _flip(elf, flips)
    )
    header_flips = st.lists(st.tuples(st.integers(0, 0x33), st.integers(0, 7)), min_size=1, max_size=3).map(
        lambda flips: _flip(elf, flips)
    )
    random_bytes = st.binary(max_size=512)
    with_magic = st.binary(max_size=512).map(lambda b: b"\x7fELF" + b)
    machine = st.integers(0, 0xFFFF).filter(lambda m: m != 40).map(lambda m: elf[:18] + struct.pack("<H", m) + elf[20:])
    elf64 = st.just(elf[:4] + b"\x02" + elf[5:])
    words = st.lists(st.tuples(st.integers(0, max(0, n // 4 - 1)), st.integers(0, 0xFFFF_FFFF)), min_size=1, max_size=4).map(
        lambda edits: _words(elf, edits)
    )
    return st.one_of(truncated, flipped, header_flips, random_bytes, with_magic, machine, elf64, words)


def _flip(elf: bytes, flips) -> bytes:
    data = bytearray(elf)
    for index, bit in flips:
        data[index] ^= 1 << bit
    return bytes(data)


def _words(elf: bytes, edits) -> bytes:
    data = bytearray(elf)
    for index, value in edits:
        data[4 * index : 4 * index + 4] = struct.pack("<I", value)
    return bytes(data)


@SETTINGS
@given(data=st.data())
def test_damaged_elfs_give_clean_errors_only(small_elf, tmp_path_factory, capsys, data):
    blob = data.draw(_mutations(small_elf))
    path = tmp_path_factory.mktemp("fuzz") / "damaged.elf"
    path.write_bytes(blob)
    machine = Machine("m4")
    try:
        image = machine.load_elf(path)
    except (EmulatorError, ValueError) as exc:
        assert str(exc)
    else:
        big = sum(seg.memsz for seg in image.segments) > 16 * 1024 * 1024
        if not big and "add_two" in image.functions:
            try:
                machine.call("add_two", 1, budget=10_000)
            except (EmulatorError, ValueError) as exc:
                assert str(exc)
    if len(blob) < 1 << 20:
        code, err = _run_cli(["run", str(path), "add_two", "--arg", "1", "--budget", "10000"], capsys)
        _assert_clean(code, err)


def test_the_fuzz_mutations_include_the_named_cases(small_elf, tmp_path):
    """The named damage kinds each give their own message (and the fuzzing covers them)."""
    cases = {
        "truncated": (small_elf[:40], "not an ELF file|truncated ELF"),
        "elf64": (small_elf[:4] + b"\x02" + small_elf[5:], "64-bit ELF"),
        "machine": (small_elf[:18] + struct.pack("<H", 3) + small_elf[20:], "wrong machine EM_386"),
        "random": (bytes(range(200)), "not an ELF file"),
    }
    for name, (blob, message) in cases.items():
        path = tmp_path / f"{name}.elf"
        path.write_bytes(blob)
        with pytest.raises(cortexm_emu.ElfError, match=message):
            Machine("m4").load_elf(path)
