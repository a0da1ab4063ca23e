"""The leakage analysis finds what test-only kernels contain, at the right C line, and nothing else.

``tests/leak_kernels/leaks.c`` holds a secret-indexed table read, a secret-dependent branch and
a constant-time function; the line each leak must be reported at is marked ``LEAK: <name>``.
Built with the project's toolchain (the hermetic zig clang), run in the emulator on eight
secrets that differ in every byte and in the low bit of the first (the branch's condition).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cortexm_emu import Buffer, Machine
from cortexm_emu.toolchain import build
from cortexm_emu.trace import trace_call
from refbench.leakage.check import find
from refbench.leakage.runner import CallRun, Run

SOURCE = Path(__file__).parent / "leak_kernels" / "leaks.c"
FUNCTIONS = ["leak_index", "leak_branch", "no_leak"]
SECRETS = [bytes((i * 37 + j * 11) & 0xFF for j in range(16)) for i in range(8)]


def marked_lines(name: str) -> set[str]:
    """The ``file:line`` of the code lines marked ``LEAK: name`` (a branch: its condition and its body)."""
    lines = {f"{SOURCE.name}:{number}" for number, text in enumerate(SOURCE.read_text().splitlines(), start=1)
             if f"LEAK: {name}" in text and not text.lstrip().startswith(("/*", "*"))}
    assert lines, f"no code line marked 'LEAK: {name}' in {SOURCE}"
    return lines


@pytest.fixture(scope="module", params=["m4", "m0plus"])
def machine(request: pytest.FixtureRequest) -> Machine:
    elf = build([SOURCE], request.param, opt="Os", exports=FUNCTIONS).elf
    m = Machine(request.param)
    m.load_elf(elf)
    return m


def runs(machine: Machine, function: str, args) -> list[Run]:  # type: ignore[no-untyped-def]
    out = []
    for secret in SECRETS:
        traced = trace_call(machine, function, *args(secret))
        out.append(Run((CallRun(function, traced.result.cycles, traced.trace),)))
    return out


def test_the_secrets_take_both_directions_of_the_branch() -> None:
    assert {s[0] & 1 for s in SECRETS} == {0, 1}


def test_secret_indexed_load_is_found_at_its_line(machine: Machine) -> None:
    traced = runs(machine, "leak_index", lambda s: (Buffer(s), Buffer(bytes(range(16))), Buffer.zeros(16), 16))
    findings = find(traced, machine, None)
    assert [f.kind for f in findings] == ["memory"], [str(f.location) for f in findings]
    leak = findings[0]
    assert {leak.location.source} == marked_lines("index")
    assert leak.location.disassembly.startswith("ldrb")
    assert leak.executions == 16 and leak.varying == 16 and leak.distinct == len(SECRETS)
    assert len({run.calls[0].cycles for run in traced}) == 1  # ideal memory: the address costs nothing


def test_secret_dependent_branch_is_found_at_its_line(machine: Machine) -> None:
    traced = runs(machine, "leak_branch", lambda s: (Buffer(s), 0x1234))
    findings = find(traced, machine, None)
    assert [f.kind for f in findings] == ["control"], [str(f.location) for f in findings]
    branch = findings[0]
    # the branch instruction: B<cond> after the test on ARMv6-M (the if line), BLNE in an IT block
    # on ARMv7-M (the line of the call it makes conditional)
    assert branch.location.source in marked_lines("branch")
    assert branch.distinct == 2  # taken for odd secrets, not taken for even ones
    assert len({run.calls[0].cycles for run in traced}) == 2  # and the extra work shows in time


def test_constant_time_function_has_no_finding(machine: Machine) -> None:
    traced = runs(machine, "no_leak", lambda s: (Buffer(s), 0xAAAA5555, 0x0F0F0F0F))
    assert find(traced, machine, None) == []
    assert len({run.calls[0].cycles for run in traced}) == 1
