"""One leakage analysis: a kernel operation on a core or board, with a verdict.

Verdicts (:data:`VERDICTS`; ``README.md`` of this package explains them):

* ``timing-leaking``: the cycle count depends on the secret on this target (a spread over the
  secret set, or a fixed-vs-random pair with the same public input and different cycles);
* ``address-leaking``: the cycles are the same for every secret here, but some data address
  or branch direction depends on the secret (the leak is there for a cache, a bus monitor, a
  power or EM probe, or another board with a cache in the path);
* ``constant-time``: neither: no secret-dependent cycle, address or branch was seen.

What was seen is exact for the inputs run (the emulator is deterministic); "seen" is the
limit: ``n`` secrets cannot prove that no other secret behaves differently.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from cortexm_emu import Machine
from refbench.kernels.catalog import family
from refbench.leakage import analysis
from refbench.leakage.analysis import Finding, FixedVsRandom, Timing
from refbench.leakage.runner import OperationRunner, Run, Target
from refbench.leakage.secrets import input_sets
from refbench.leakage.source import Locator

VERDICTS: dict[str, str] = {
    "constant-time": "no secret-dependent cycles, data addresses or branches seen",
    "address-leaking": "secret-dependent data addresses or branches, but the same cycles for every secret on "
                       "this target",
    "timing-leaking": "the cycle count depends on the secret on this target",
}
DEFAULT_SECRETS = 16


@dataclass(frozen=True)
class LeakageReport:
    kernel: str
    variant: str
    operation: str
    target: str
    core: str
    secret_roles: tuple[str, ...]
    size: int
    secrets: int
    line_bytes: int | None
    timing: tuple[Timing, ...]
    fixed_vs_random: tuple[FixedVsRandom, ...]
    findings: tuple[Finding, ...]
    elf_sha256: str
    seconds: float
    notes: tuple[str, ...] = field(default_factory=tuple)

    @property
    def path(self) -> str:
        """``kernel/variant``; for a function of the user's own ELF (no variant), the ELF's path."""
        return f"{self.kernel}/{self.variant}" if self.variant else self.kernel

    @property
    def timing_leaks(self) -> bool:
        return any(t.spread for t in self.timing) or any(f.pairs_differing for f in self.fixed_vs_random)

    @property
    def memory_findings(self) -> tuple[Finding, ...]:
        return tuple(f for f in self.findings if f.kind == "memory")

    @property
    def line_findings(self) -> tuple[Finding, ...]:
        return tuple(f for f in self.memory_findings if f.line_varying)

    @property
    def control_findings(self) -> tuple[Finding, ...]:
        return tuple(f for f in self.findings if f.kind == "control")

    @property
    def operand_findings(self) -> tuple[Finding, ...]:
        return tuple(f for f in self.findings if f.kind == "operand")

    @property
    def verdict(self) -> str:
        if self.timing_leaks:
            return "timing-leaking"
        if self.findings:
            return "address-leaking"
        return "constant-time"

    def as_json(self) -> dict[str, Any]:
        def finding(f: Finding) -> dict[str, Any]:
            out = {"kind": f.kind, "function": f.function, "address": f"0x{f.location.address:08x}",
                   "symbol": f.location.symbol, "disassembly": f.location.disassembly,
                   "source": f.location.source, "executions": f.executions, "executions_varying": f.varying,
                   "distinct_values": f.distinct}
            if f.kind == "memory":
                out["line_executions_varying"] = f.line_varying
                out["line_distinct_values"] = f.line_distinct
                out["stall_executions_varying"] = f.stall_varying
            return out

        return {
            "kernel": self.kernel, "variant": self.variant, "operation": self.operation,
            "target": self.target, "core": self.core, "secret_roles": list(self.secret_roles),
            "size_bytes": self.size, "secrets": self.secrets, "cache_line_bytes": self.line_bytes,
            "verdict": self.verdict, "verdict_meaning": VERDICTS[self.verdict],
            "timing": [{"function": t.function, "cycles_min": t.cycles_min, "cycles_max": t.cycles_max,
                        "spread": t.spread, "distinct_cycle_counts": t.distinct} for t in self.timing],
            "fixed_vs_random": [{"function": f.function, "pairs": f.pairs, "pairs_differing": f.pairs_differing,
                                 "fixed_mean": f.fixed_mean, "random_mean": f.random_mean,
                                 "welch_t": welch_t_json(f.welch_t), "welch_threshold": analysis.WELCH_THRESHOLD}
                                for f in self.fixed_vs_random],
            "memory": [finding(f) for f in self.memory_findings],
            "control_flow": [finding(f) for f in self.control_findings],
            "operand_timing": [finding(f) for f in self.operand_findings],
            "elf_sha256": self.elf_sha256, "seconds": round(self.seconds, 3), "notes": list(self.notes),
        }


def welch_t_json(value: float) -> float | None:
    """Welch's t as JSON: the number, or null when it is infinite: each class has a single cycle
    count and the two counts differ (no variance to divide by: the classes are fully separated, a
    certain timing difference; ``fixed_mean`` and ``random_mean`` give its direction)."""
    return value if math.isfinite(value) else None


def find(traced: list[Run], machine: Machine, line_bytes: int | None, fixed: Sequence[Run] = (),
         random: Sequence[Run] = ()) -> list[Finding]:
    """Control-flow, memory and operand-timing findings of traced runs that differ only in the secret
    (and of the fixed-vs-random pairs, for operand timing), named with the machine's ELF
    (symbol+offset, disassembly, source line)."""
    locator = Locator(machine.image, machine.cs, machine.uc.mem_read)  # type: ignore[arg-type]
    cache: dict[int, Any] = {}

    def locate(address: int) -> Any:
        if address not in cache:
            cache[address] = locator.locate(address)
        return cache[address]

    branches: dict[int, int] = {}

    def branch_of(block: int) -> int:
        if block not in branches:
            known = machine.pricing.blocks.get(block)
            branches[block] = known.insns[-1].address if known is not None and known.insns else block
        return branches[block]

    return (analysis.control_findings(traced, branch_of, locate)
            + analysis.memory_findings(traced, line_bytes, locate)
            + analysis.operand_findings(traced, fixed, random, locate))


def analyze(kernel: str, variant: str, operation: str | None, target: Target, *,
            secrets: int = DEFAULT_SECRETS, size: int | None = None, opt: str = "Os",
            compiler: str = "zig") -> LeakageReport:
    """Run the secret set (traced) and the fixed-vs-random classes, and judge them."""
    started = time.perf_counter()
    fam = family(kernel)
    fam.variant(variant).check_core(target.core)
    ops = {op.name: op for op in fam.operations}
    if operation is None:
        op = fam.operations[0]
    elif operation not in ops:
        raise ValueError(f"Unknown operation {operation!r} of kernel {kernel!r}; valid: {', '.join(ops)}")
    else:
        op = ops[operation]
    sets = input_sets(op, secrets, size)
    runner = OperationRunner(kernel, variant, op, target, opt=opt, compiler=compiler)
    traced = [runner.run(inputs, traced=True) for inputs in sets.secret_set]
    fixed = [runner.run(inputs, traced=False) for inputs in sets.fixed_class]
    random = [runner.run(inputs, traced=False) for inputs in sets.random_class]
    line = target.line_bytes
    findings = find(traced, runner.machine, line, fixed, random)
    notes = []
    if target.memory is not None and not target.memory.needs_trace:
        notes.append(f"{target.memory.name}: no flash stalls at this clock and placement, so no data address "
                     "can change the cycle count through the memory system")
    return LeakageReport(
        kernel=kernel, variant=variant, operation=op.name, target=target.label, core=target.core,
        secret_roles=sets.secret_roles, size=sets.size, secrets=secrets, line_bytes=line,
        timing=tuple(analysis.timing(traced)), fixed_vs_random=tuple(analysis.fixed_vs_random(fixed, random)),
        findings=tuple(findings), elf_sha256=runner.elf_sha256, seconds=time.perf_counter() - started,
        notes=tuple(notes),
    )
