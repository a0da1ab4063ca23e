"""Property-based fuzzing of every command's options (issue 32): whatever the options, each command
of ``refbench`` and ``cortexm-emu`` ends with exit status 0, 1 or 2, never a traceback, and a usage
error (2) names an option given (or the positional argument, or the file whose content it is about).

The property is about the checks made before any work, so each command's work is replaced by a
sentinel (:class:`Reached`, counted as success): the measurements of ``cycles``, the kernel run of
``annotate``, the analyses of ``leakage``, the judging of ``sanity``, the table of ``published``,
the vector suites of ``verify`` and the sequences of ``cortexm-emu validate``; the published pages
are read once. ``cortexm-emu run``/``annotate``, ``parts`` and ``trace`` run for real
(milliseconds). The default run tries :data:`SMALL` examples per command; the slow job
(``-m slow``) :data:`LARGE`.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cortexm_emu.cli import main as emu_main
from cortexm_emu.toolchain import build
from refbench.cli import build_parser
from refbench.cli import main as refbench_main

SMALL = 25
LARGE = 1500
ASM = Path(__file__).parent / "asm" / "machine"
TEMPLATE = Path(__file__).resolve().parents[1] / "refbench" / "inputs" / "template.csv"


class Reached(Exception):
    """The command got past its checks to its work."""


def _reached(*args: object, **kwargs: object) -> object:
    raise Reached


@pytest.fixture(scope="module")
def no_work() -> Iterator[None]:
    """Each command's work replaced by :func:`_reached` (module scope: hypothesis reuses it)."""
    import cortexm_emu.validate
    import refbench.commands.annotate
    import refbench.commands.leakage
    import refbench.commands.published
    import refbench.commands.sanity
    import refbench.commands.verify
    import refbench.heldout.runner
    import refbench.measure

    patch = pytest.MonkeyPatch()
    patch.setattr(refbench.measure.Measurer, "measure_all", _reached)
    patch.setattr(refbench.commands.annotate, "KernelHarness", _reached)
    patch.setattr(refbench.commands.leakage, "analyze", _reached)
    patch.setattr(refbench.commands.leakage, "run_matrix", _reached)
    patch.setattr(refbench.commands.sanity, "judge", _reached)
    # the pages are read once (the data the checks look at, not work of their own)
    figures, parts = refbench.commands.sanity.load_figures(), refbench.commands.sanity.load_parts()
    patch.setattr(refbench.commands.sanity, "load_figures", lambda: figures)
    real_parts = refbench.commands.sanity.load_parts
    patch.setattr(refbench.commands.sanity, "load_parts", lambda names=None: parts if names is None else
                  real_parts(names))
    patch.setattr(refbench.commands.published, "load_figures", lambda: figures)
    patch.setattr(refbench.commands.published, "normalise", _reached)  # its table of every figure
    patch.setattr(refbench.commands.verify, "run_suite", _reached)
    patch.setattr(cortexm_emu.validate, "run_validation", _reached)
    patch.setattr(refbench.heldout.runner, "run_held_out", _reached)
    patch.delenv("REFBENCH_SCHEDULER", raising=False)
    yield
    patch.undo()


@pytest.fixture(scope="module")
def calls_elf() -> str:
    return str(build([ASM / "calls.c"], "m4").elf)


# -- values ----------------------------------------------------------------------------------------

_text = st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=10)
_numbers = st.one_of(
    st.integers(-(1 << 40), 1 << 40).map(str),
    st.integers(-3, 300).map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(str),
    st.sampled_from(["0", "-0", "1e9", "0x10", "1_000", " 16", "١٦", "inf", "nan", "-1", ""]),
)
_value = st.one_of(_numbers, _text)
_cores = st.sampled_from(["m0", "m0plus", "m3", "m4", "m7", "m33", "m4f", "M4", "m9", "", "m4,m7", ","])
_boards = st.sampled_from(["stm32f407vg", "STM32F407VG", "NUCLEO-H753ZI", "STM32F437I-EVAL", "stm32", "nope", "",
                           "stm32g071rb,stm32l4a6zg", "NUCLEO-WL55JC RevC"])
_machine = {"--core": _cores, "--board": _boards, "--clock": _value, "--cache": st.sampled_from(["on", "off", "x"]),
            "--start": st.sampled_from(["warm", "cold", "hot"])}


def _options(choices: dict[str, st.SearchStrategy[str]], flags: tuple[str, ...] = ()) -> st.SearchStrategy[list[str]]:
    """Up to four options of ``choices`` (``--flag=value``, so a value such as -1 is not read as an
    option) and any of the value-less ``flags``."""
    pairs = st.sampled_from(sorted(choices)).flatmap(
        lambda name: st.one_of(choices[name], _value).map(lambda value: [f"{name}={value}"]))
    return st.tuples(st.lists(pairs, max_size=4), st.lists(st.sampled_from(flags), max_size=2) if flags
                     else st.just([])).map(lambda t: [item for pair in t[0] for item in pair] + t[1])


def _kernel() -> st.SearchStrategy[str]:
    return st.sampled_from(["aes/ttable4", "sha256/rolled", "aes", "bignum/c32", "aes/nope", "nope", ""])


COMMANDS: dict[str, st.SearchStrategy[list[str]]] = {
    "cycles": _options({**_machine, "--kernel": st.sampled_from(["aes", "sha256", "nope", ""]),
                        "--variant": st.sampled_from(["ttable4", "rolled", "nope"]),
                        "--operation": st.sampled_from(["cbc-encrypt", "sha-256", "nope"]),
                        "--sizes": st.sampled_from(["16", "17", "0,64", "99999999999999999999", "a", ""]),
                        "--compiler": st.sampled_from(["zig", "gcc", "clang"]),
                        "--opt": st.sampled_from(["Os", "O2", "O9"]), "--key-bytes": _numbers,
                        "--aad-bytes": _numbers, "--plot": st.sampled_from(["", ".", "x.png", "x.txt", "/proc/x.png"]),
                        "--scheduler": st.sampled_from(["http://nowhere", "nonsense"])},
                       ("--json", "--no-cache")).map(lambda argv: ["cycles", *argv]),
    "annotate": st.tuples(_kernel(), _options({**_machine, "--operation": st.sampled_from(["cbc-encrypt", "x"]),
                                               "--size": _numbers, "--opt": st.sampled_from(["Os", "O9"]),
                                               "--compiler": st.sampled_from(["zig", "cc"]), "--key-bytes": _numbers,
                                               "--top": _numbers}, ("--json",))
                          ).map(lambda t: ["annotate", t[0], *t[1]]),
    "leakage": st.tuples(_kernel(), _options({**_machine, "--operation": st.sampled_from(["ecb-encrypt", "x"]),
                                              "--secrets": _numbers, "--size": _numbers}, ("--json", "--all"))
                         ).map(lambda t: ["leakage", t[0], *t[1]]),
    "sanity": _options({"--board": _boards, "--core": _cores, "--clock": _value, "--wait-states": _numbers,
                        "--cache": st.sampled_from(["on", "off", "unknown", "x"]),
                        "--prefetch": st.sampled_from(["on", "unknown", "x"]),
                        "--input": st.sampled_from([str(TEMPLATE), "/nonexistent.csv", "."]),
                        "--input-format": st.sampled_from(["csv", "json", "nope"]),
                        "--format": st.sampled_from(["table", "json", "nope"]),
                        "--only": st.sampled_from(["consistent", "nope"]),
                        "--source": st.sampled_from(["wolfssl", "000", "nope"]),
                        "--algorithm": st.sampled_from(["AES-128", "nope"]),
                        "--reasons": st.sampled_from(["first", "all", "x"])},
                       ("--no-emulator", "--pages")).map(lambda argv: ["sanity", *argv]),
    "held-out": _options({"--core": _cores, "--program": st.one_of(st.sampled_from(["kyber512"]), _text),
                          "--fetch": st.sampled_from(["flash", "ideal", "x"])}, ("--json", "--record")
                         ).map(lambda argv: ["held-out", *argv]),
    "parts": _options({"--part": st.one_of(_boards, _text)}, ("--json",)).map(lambda argv: ["parts", *argv]),
    "published": _options({"--source": st.one_of(st.sampled_from(["000", "wolfssl", "cmox"]), _text)}, ("--json",)
                          ).map(lambda argv: ["published", *argv]),
    "verify": _options({"--algorithm": st.one_of(st.sampled_from(["AES", "SHA-256"]), _text)}, ("--json", "--slow")
                       ).map(lambda argv: ["verify", *argv]),
    "trace": st.tuples(st.sampled_from(["aes-128", "sha-256", "nope"]),
                       _options({"--key": st.one_of(st.sampled_from(["00" * 16, "00" * 15, "zz"]), _text),
                                 "--message": st.one_of(st.sampled_from(["616263", "6"]), _text)}, ("--json",))
                       ).map(lambda t: ["trace", t[0], *t[1]]),
}

EMU_COMMANDS: dict[str, Callable[[str], st.SearchStrategy[list[str]]]] = {
    "run": lambda elf: _options({**_machine, "--prefetch": st.sampled_from(["on", "x"]),
                                 "--code": st.sampled_from(["flash", "ram", "x"]),
                                 "--tables": st.sampled_from(["ram", "x"]), "--arg": _numbers,
                                 "--budget": _numbers, "--stack": _numbers}, ("--json",)
                                ).map(lambda argv: ["run", elf, "negate", *argv]),
    "annotate": lambda elf: _options({"--core": _cores, "--arg": _numbers, "--top": _numbers, "--budget": _numbers},
                                     ("--json",)).map(lambda argv: ["annotate", elf, "negate", *argv]),
    "validate": lambda elf: _options({"--core": _cores}, ("--json",)).map(lambda argv: ["validate", *argv]),
}

#: the positional arguments' names, which a usage error may name instead of an option
POSITIONALS = ("KERNEL", "ALGORITHM", "COMMAND", "ELF", "FUNCTION", "function")


def _outcome(run: Callable[[list[str]], int], argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    try:
        code = run(argv)
    except Reached:
        code = 0
    except SystemExit as exc:  # argparse in cortexm-emu
        code = exc.code if isinstance(exc.code, int) else 2
    return code, capsys.readouterr().err


def _assert_clean(argv: list[str], code: int, err: str) -> None:
    assert "Traceback" not in err, (argv, err)
    assert code in (0, 1, 2), (argv, code, err)
    if code == 2:
        message = _message(err)
        given = {token.split("=", 1)[0] for token in argv if token.startswith("--")}
        inputs = {token.split("=", 1)[1] for token in argv if token.startswith("--input=")}
        assert (any(flag in message for flag in given) or any(name in message for name in POSITIONALS)
                or any(path in message for path in inputs)), (argv, message)  # an input's content: its file named


def _message(err: str) -> str:
    """The error message: from the last line that starts with the program's name (after argparse's
    usage lines) to the end, so a value with a line break in it stays in it."""
    lines = err.split("\n")  # not splitlines: \x1e and the like are not line ends on a terminal
    starts = [i for i, line in enumerate(lines) if line.startswith(("refbench", "cortexm-emu"))]
    return "\n".join(lines[starts[-1]:] if starts else lines)


def _check(command: str, examples: int, capsys: pytest.CaptureFixture[str]) -> None:
    @settings(max_examples=examples, deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
    @given(COMMANDS[command])
    def property_(argv: list[str]) -> None:
        _assert_clean(argv, *_outcome(refbench_main, argv, capsys))

    property_()


def _check_emu(command: str, elf: str, examples: int, capsys: pytest.CaptureFixture[str]) -> None:
    @settings(max_examples=examples, deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
    @given(EMU_COMMANDS[command](elf))
    def property_(argv: list[str]) -> None:
        _assert_clean(argv, *_outcome(emu_main, argv, capsys))

    property_()


def test_every_refbench_command_is_fuzzed() -> None:
    (action,) = [a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction)]
    assert set(action.choices) == set(COMMANDS)


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_refbench_options_end_cleanly(no_work, capsys, command: str) -> None:
    _check(command, SMALL, capsys)


@pytest.mark.parametrize("command", sorted(EMU_COMMANDS))
def test_emulator_options_end_cleanly(no_work, calls_elf, capsys, command: str) -> None:
    _check_emu(command, calls_elf, SMALL, capsys)


@pytest.mark.slow
@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_refbench_options_end_cleanly_large_budget(no_work, capsys, command: str) -> None:
    _check(command, LARGE, capsys)


@pytest.mark.slow
@pytest.mark.parametrize("command", sorted(EMU_COMMANDS))
def test_emulator_options_end_cleanly_large_budget(no_work, calls_elf, capsys, command: str) -> None:
    _check_emu(command, calls_elf, LARGE, capsys)
