"""The three questions asked of the runs: timing, memory addresses, control flow.

Every comparison is between runs that differ only in the secret (the secret set), execution by
execution: the k-th execution of an instruction in one run is compared with its k-th execution
in the others, for every k that all runs reach. An instruction reached a different number of
times is the consequence of a branch, which is reported itself; its executions that all runs
share are still compared.

* **timing**: the exact cycle spread over the secret set, per call; the fixed-vs-random pairs
  (same public input, fixed or random secret) compared one by one; and Welch's t over the two
  classes, as dudect computes it (|t| > 4.5 is dudect's threshold; with exact cycles the pairs
  already say it, t is given for comparison with measurements on silicon).
* **memory**: loads and stores whose data address differs between secrets at some execution;
  the same at the granularity of the board's data-cache line (when the board has one on: a
  line difference is what the cache can turn into time).
* **operand-dependent instructions**: instructions whose cycles depend on their operand values
  in the core's timing model (divides; the Cortex-M3's early-terminating long multiplies),
  whose extra cycles differ between secrets or between a fixed-vs-random pair: where a timing
  leak with constant addresses and branches comes from.
* **control flow**: blocks whose successor differs between secrets at some execution; the
  instruction reported is the block's last, the branch.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from refbench.leakage.runner import Run
from refbench.leakage.source import Location

#: dudect's threshold on |t| (Reparaz et al., DATE 2017, §3: "a t value larger than 4.5").
WELCH_THRESHOLD = 4.5
#: The successor of a call's last block (the call returned): not an address any block starts at.
RETURNED = -1


@dataclass(frozen=True)
class Timing:
    function: str
    cycles_min: int
    cycles_max: int
    distinct: int  # distinct cycle counts over the secret set

    @property
    def spread(self) -> int:
        return self.cycles_max - self.cycles_min


@dataclass(frozen=True)
class FixedVsRandom:
    function: str
    pairs: int
    pairs_differing: int  # same public input, fixed vs random secret, different cycles
    fixed_mean: float
    random_mean: float
    welch_t: float


@dataclass(frozen=True)
class Finding:
    """One instruction whose behaviour depends on the secret."""

    kind: str  # "memory", "control" or "operand"
    function: str  # the call it happened in
    location: Location
    executions: int  # executions of the instruction per run (the fewest over the runs)
    varying: int  # executions whose value differs between secrets
    #: memory: most distinct addresses at one execution; control: distinct successor sequences over the secrets
    distinct: int
    #: memory findings: the same at data-cache-line granularity (None: no data cache)
    line_varying: int | None = None
    line_distinct: int | None = None
    #: memory findings on a board with flash stalls: executions whose stall cycles (a data-cache hit
    #: or miss of a flash read) differ between secrets -- where the address becomes time
    stall_varying: int | None = None


def welch_t(first: Sequence[int], second: Sequence[int]) -> float:
    """Welch's t statistic; 0 for two identical constants, +-inf for two different constants."""
    n1, n2 = len(first), len(second)
    if n1 < 2 or n2 < 2:
        raise ValueError("Welch's t needs at least two samples per class")
    m1, m2 = sum(first) / n1, sum(second) / n2
    v1 = sum((x - m1) ** 2 for x in first) / (n1 - 1)
    v2 = sum((x - m2) ** 2 for x in second) / (n2 - 1)
    denominator = math.sqrt(v1 / n1 + v2 / n2)
    if denominator == 0:
        return 0.0 if m1 == m2 else math.copysign(math.inf, m1 - m2)
    return (m1 - m2) / denominator


def timing(runs: Sequence[Run]) -> list[Timing]:
    out = []
    for index, call in enumerate(runs[0].calls):
        cycles = [run.calls[index].cycles for run in runs]
        out.append(Timing(call.function, min(cycles), max(cycles), len(set(cycles))))
    return out


def fixed_vs_random(fixed: Sequence[Run], random: Sequence[Run]) -> list[FixedVsRandom]:
    out = []
    for index, call in enumerate(fixed[0].calls):
        a = [run.calls[index].cycles for run in fixed]
        b = [run.calls[index].cycles for run in random]
        out.append(FixedVsRandom(call.function, len(a), sum(x != y for x, y in zip(a, b, strict=True)),
                                 sum(a) / len(a), sum(b) / len(b), welch_t(a, b)))
    return out


def _compare(sequences: Sequence[Sequence[int]]) -> tuple[int, int, int]:
    """(common executions, executions that differ, most distinct values at one execution)."""
    common = min(len(s) for s in sequences)
    varying = distinct = 0
    for k in range(common):
        values = {s[k] for s in sequences}
        if len(values) > 1:
            varying += 1
            distinct = max(distinct, len(values))
    return common, varying, distinct


def memory_findings(runs: Sequence[Run], line_bytes: int | None,
                    locate: Callable[[int], Location]) -> list[Finding]:
    findings = []
    for index, call in enumerate(runs[0].calls):
        traces = [run.calls[index].trace for run in runs]
        per_run = [trace.addresses_by_pc() for trace in traces]  # type: ignore[union-attr]
        stalls = None
        if any(trace.wait_cycles for trace in traces):  # type: ignore[union-attr]
            stalls = []
            for trace in traces:
                by_pc: dict[int, list[int]] = {}
                for outcome in trace.flash_reads:  # type: ignore[union-attr]
                    by_pc.setdefault(outcome.pc, []).append(outcome.stall_cycles)
                stalls.append(by_pc)
        pcs = set().union(*per_run)
        for pc in sorted(pcs):
            sequences = [by_pc.get(pc, []) for by_pc in per_run]
            common, varying, distinct = _compare(sequences)
            if not varying:
                continue
            line_varying = line_distinct = stall_varying = None
            if line_bytes:
                _, line_varying, line_distinct = _compare([[a // line_bytes for a in s] for s in sequences])
            if stalls is not None:
                _, stall_varying, _ = _compare([by_pc.get(pc, []) for by_pc in stalls])
            findings.append(Finding("memory", call.function, locate(pc), common, varying, distinct,
                                    line_varying, line_distinct, stall_varying))
    return findings


def control_findings(runs: Sequence[Run], branch_of: Callable[[int], int],
                     locate: Callable[[int], Location]) -> list[Finding]:
    """Branches whose successor differs between secrets at some execution. Blocks are keyed by their
    last instruction (``branch_of``): two translation blocks that end at the same branch (one entered
    in its middle) are the same branch. The last block of a call is followed by :data:`RETURNED`, so
    a branch that returns for one secret and goes on for another is found too."""
    findings = []
    for index, call in enumerate(runs[0].calls):
        per_run = []
        for run in runs:
            following: dict[int, list[int]] = {}
            blocks = run.calls[index].trace.blocks  # type: ignore[union-attr]
            for here, nxt in zip(blocks, [*blocks[1:], RETURNED], strict=True):
                following.setdefault(branch_of(here), []).append(nxt)
            per_run.append(following)
        for branch in sorted(set().union(*per_run)):
            sequences = [following.get(branch, []) for following in per_run]
            common, varying, _ = _compare(sequences)
            if not varying:
                continue
            patterns = len({tuple(s) for s in sequences})
            findings.append(Finding("control", call.function, locate(branch), common, varying, patterns))
    return findings


def operand_findings(runs: Sequence[Run], fixed: Sequence[Run], random: Sequence[Run],
                     locate: Callable[[int], Location]) -> list[Finding]:
    """Operand-dependent instructions whose extra cycles differ between the secrets of the secret
    set, or within a fixed-vs-random pair. ``executions``: runs and pairs compared; ``varying``: those
    that differ; ``distinct``: distinct extra-cycle totals over all runs."""
    findings = []
    for index, call in enumerate(runs[0].calls):
        def extra(run: Run, address: int, index: int = index) -> int:
            return run.calls[index].dynamic_cycles.get(address, 0)

        addresses = set().union(*(run.calls[index].dynamic_cycles for run in (*runs, *fixed, *random)))
        for address in sorted(addresses):
            secret_values = {extra(run, address) for run in runs}
            pairs = sum(extra(a, address) != extra(b, address) for a, b in zip(fixed, random, strict=True))
            if len(secret_values) > 1 or pairs:
                values = {extra(run, address) for run in (*runs, *fixed, *random)}
                findings.append(Finding("operand", call.function, locate(address), len(runs) + len(fixed),
                                        (len(runs) if len(secret_values) > 1 else 0) + pairs, len(values)))
    return findings
