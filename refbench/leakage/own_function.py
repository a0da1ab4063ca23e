"""Leakage analysis of a function in the user's own ELF (``refbench leakage ./mine.elf FUNC ...``).

The function is called as AAPCS says (:meth:`cortexm_emu.Machine.call`) with the arguments
described in order on the command line, each one secret, public or output:

* ``--secret-arg buf:N``: N secret bytes in SRAM, passed by address;
* ``--secret-arg u32``: a secret 32-bit value, passed by value;
* ``--public-arg buf:N``: N public bytes in SRAM, passed by address;
* ``--public-arg u32``: a public 32-bit value, passed by value;
* ``--public-arg const:V``: the integer V (decimal or 0x hex, 0 .. 2^32-1) in every run (a length, a
  flag, a round count);
* ``--out-arg buf:N``: N zero bytes in SRAM for the function to write, passed by address.

The input sets are those of the kernels (:mod:`refbench.leakage.secrets`): the secret set (N
secrets, the first all zero, every public argument fixed; traced) and dudect's fixed-vs-random
pairs (N public inputs, each run with the all-zero secret and with a random one). ``const``
arguments are the same in every run; ``buf`` and ``u32`` public arguments vary only between
the pairs. Secret and public bytes are SHAKE256 streams of a label, an index and the argument's
position: deterministic. There is no reference to check the outputs against: the answer is
about the secret's reach, not about what the function computes.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cortexm_emu import Buffer, Machine
from cortexm_emu.call import MAX_BUFFER_SIZE
from cortexm_emu.trace import trace_call
from refbench.leakage import analysis
from refbench.leakage.check import DEFAULT_SECRETS, LeakageReport, find
from refbench.leakage.runner import CallRun, Run, Target

#: Argument classes, the command-line option of each, and the forms each accepts.
ARG_FORMS: dict[str, tuple[str, ...]] = {"secret": ("buf:N", "u32"), "public": ("buf:N", "u32", "const:V"),
                                         "out": ("buf:N",)}
#: Largest buffer an argument may describe: the SRAM region that holds the stack and the buffers.
MAX_ARG_BYTES = MAX_BUFFER_SIZE
#: Instructions one call may run before it is stopped (as the kernels' leakage runs).
CALL_BUDGET = 200_000_000


@dataclass(frozen=True)
class ArgSpec:
    """One argument of the function: its class (secret, public, out), its form (buf, u32, const),
    its size in bytes (buf) and its value (const)."""

    role: str
    form: str
    size: int = 4
    value: int = 0

    @property
    def label(self) -> str:
        shown = {"buf": f"buf:{self.size}", "u32": "u32", "const": f"const:{self.value:#x}"}[self.form]
        return f"{self.role} {shown}"


def parse_arg(role: str, text: str) -> ArgSpec:
    """``--<role>-arg TEXT`` as an :class:`ArgSpec`; a ValueError names the option and its forms."""
    forms = ARG_FORMS[role]
    option = f"--{role}-arg"

    def invalid(why: str) -> ValueError:
        return ValueError(f"Invalid {option} ({text!r}): {why}; accepted: {', '.join(forms)}")

    form, _, rest = text.strip().partition(":")
    if form == "u32" and not rest and "u32" in forms:
        return ArgSpec(role, "u32")
    if form == "buf" and "buf:N" in forms:
        try:
            size = int(rest, 0)
        except ValueError:
            raise invalid("N must be a whole number of bytes") from None
        if not 1 <= size <= MAX_ARG_BYTES:
            raise invalid(f"N must be 1 .. {MAX_ARG_BYTES} bytes")
        return ArgSpec(role, "buf", size=size)
    if form == "const" and "const:V" in forms:
        try:
            value = int(rest, 0)
        except ValueError:
            raise invalid("V must be an integer, e.g. 16 or 0x10") from None
        if not 0 <= value < 1 << 32:
            raise invalid("V must be 0 .. 0xffffffff")
        return ArgSpec(role, "const", value=value)
    raise invalid("unknown form")


def _stream(label: str, index: int, position: int, length: int) -> bytes:
    return hashlib.shake_256(f"refbench-leakage-own/{label}/{index}/{position}".encode()).digest(length)


def _argument(spec: ArgSpec, position: int, secret: tuple[str, int] | None,
              public: tuple[str, int]) -> Buffer | int:
    """One argument's value: ``secret`` (label, index; None: all zero) for a secret argument,
    ``public`` (label, index) for a varying public one."""
    if spec.form == "const":
        return spec.value
    if spec.role == "out":
        return Buffer.zeros(spec.size, f"arg{position}")
    if spec.role == "secret":
        data = bytes(spec.size) if secret is None else _stream(secret[0], secret[1], position, spec.size)
    else:
        data = _stream(public[0], public[1], position, spec.size)
    return int.from_bytes(data, "little") if spec.form == "u32" else Buffer(data, f"arg{position}")


def argument_sets(specs: Sequence[ArgSpec], count: int) -> tuple[list[list[Any]], list[list[Any]], list[list[Any]]]:
    """(secret set, fixed class, random class): ``count`` argument lists each (module docstring)."""
    if not isinstance(count, int) or isinstance(count, bool) or count < 2:
        raise ValueError(f"Invalid --secrets ({count!r}); accepted: an integer >= 2")
    if not any(s.role == "secret" for s in specs):
        raise ValueError("give at least one --secret-arg (buf:N or u32): the argument whose reach is analysed")

    def arguments(secret: tuple[str, int] | None, public: tuple[str, int]) -> list[Any]:
        return [_argument(spec, i, secret, public) for i, spec in enumerate(specs)]

    secret_set = [arguments(None, ("fixed-public", 0)), *(arguments(("secret", i), ("fixed-public", 0))
                                                         for i in range(1, count))]
    fixed = [arguments(None, ("public", j)) for j in range(count)]
    random = [arguments(("random", j), ("public", j)) for j in range(count)]
    return secret_set, fixed, random


def _run(machine: Machine, function: str, args: list[Any], traced: bool) -> Run:
    if traced:
        outcome = trace_call(machine, function, *args, budget=CALL_BUDGET)
        result, trace = outcome.result, outcome.trace
    else:
        result, trace = machine.call(function, *args, budget=CALL_BUDGET), None
    return Run((CallRun(function, result.cycles, trace, dict(result.dynamic_cycles)),))


def analyze_function(elf: Path | str, function: str, specs: Sequence[ArgSpec], target: Target, *,
                     secrets: int = DEFAULT_SECRETS) -> LeakageReport:
    """Run ``function`` of ``elf`` on the secret set (traced) and the fixed-vs-random classes, and
    judge it as a kernel is judged (:func:`refbench.leakage.check.analyze`)."""
    started = time.perf_counter()
    path = Path(elf)
    if not path.is_file():
        raise ValueError(f"Invalid ELF ({str(elf)!r}): {'a directory' if path.is_dir() else 'no such file'}")
    secret_set, fixed_class, random_class = argument_sets(specs, secrets)
    options: dict[str, Any] = {"memory": target.memory} if target.memory is not None else {}
    machine = Machine(target.core, **options)
    machine.load_elf(path)
    traced = [_run(machine, function, args, traced=True) for args in secret_set]
    fixed = [_run(machine, function, args, traced=False) for args in fixed_class]
    random = [_run(machine, function, args, traced=False) for args in random_class]
    line = target.line_bytes
    notes = ["outputs not checked: a function of your own has no reference here"]
    if target.memory is not None and not target.memory.needs_trace:
        notes.append(f"{target.memory.name}: no flash stalls at this clock and placement, so no data address "
                     "can change the cycle count through the memory system")
    return LeakageReport(
        kernel=str(elf), variant="", operation=function, target=target.label, core=target.core,
        secret_roles=tuple(f"arg{i} {s.label.split(' ', 1)[1]}" for i, s in enumerate(specs) if s.role == "secret"),
        size=sum(s.size for s in specs if s.role == "secret"), secrets=secrets, line_bytes=line,
        timing=tuple(analysis.timing(traced)), fixed_vs_random=tuple(analysis.fixed_vs_random(fixed, random)),
        findings=tuple(find(traced, machine, line, fixed, random)),
        elf_sha256=hashlib.sha256(path.read_bytes()).hexdigest(), seconds=time.perf_counter() - started,
        notes=tuple(notes),
    )
