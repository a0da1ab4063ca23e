"""Every kernel variant on one target, each with its verdict (``refbench leakage --all``)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from cortexm_emu.errors import EmulatorError
from refbench.kernels.catalog import families
from refbench.leakage.check import DEFAULT_SECRETS, LeakageReport, analyze
from refbench.leakage.runner import Target


@dataclass(frozen=True)
class Selection:
    """One (kernel, variant, operation) to analyse."""

    kernel: str
    variant: str
    operation: str


def selections(target: Target, kernel: str | None = None, variant: str | None = None,
               operation: str | None = None, *, every_operation: bool = False) -> list[Selection]:
    """Every variant (of ``kernel``, or of every family) that can run on the target's core, with
    ``operation`` in the families that have it; else with every operation of its family
    (``every_operation``, ``--all``) or with the family's first (:func:`what_was_checked` says which)."""
    chosen = []
    catalogue = families()
    if kernel is not None and kernel not in catalogue:
        raise ValueError(f"Unknown kernel {kernel!r}; valid: {', '.join(catalogue)}")
    for fam in catalogue.values():
        if kernel is not None and fam.name != kernel:
            continue
        names = [op.name for op in fam.operations]
        if operation is not None and operation not in names:
            if kernel is not None:
                raise ValueError(f"Unknown operation {operation!r} of kernel {kernel!r}; valid: {', '.join(names)}")
            continue
        if variant is not None:
            fam.variant(variant)
        ops = [operation] if operation is not None else names if every_operation else names[:1]
        for name, var in fam.variants.items():
            if (variant is None or name == variant) and var.supports(target.core):
                chosen.extend(Selection(fam.name, name, op) for op in ops)
    return chosen


def what_was_checked(chosen: Sequence[Selection], target: Target, operation: str | None,
                     every_operation: bool) -> str:
    """One line saying exactly what ``chosen`` covers: its counts of families, variants and
    operations, and which operations of each family were taken."""
    if len(chosen) == 1 and not every_operation:
        only = chosen[0]
        why = "" if operation is not None else (" (the family's first operation; --operation OP for another, --all "
                                                "for every operation of every variant)")
        return f"checked: {only.kernel}/{only.variant} {only.operation} on {target.core}{why}"
    families_seen = {s.kernel for s in chosen}
    variants = {(s.kernel, s.variant) for s in chosen}
    if operation is not None:
        which = f"operation {operation} only"
    elif every_operation:
        which = "every operation of each"
    else:
        which = "each family's first operation only (--all for every operation, --operation OP for one)"
    return (f"checked: {len(chosen)} operation run(s) of {len(variants)} variant(s) in {len(families_seen)} "
            f"famil{'y' if len(families_seen) == 1 else 'ies'} that run on {target.core}: {which}")


@dataclass(frozen=True)
class Failed:
    """A selection that could not be analysed, and why."""

    selection: Selection
    error: str


def run_matrix(target: Target, chosen: list[Selection], *, secrets: int = DEFAULT_SECRETS,
               size: int | None = None, progress: Callable[[Selection], None] | None = None) -> Iterator[LeakageReport | Failed]:
    for item in chosen:
        if progress is not None:
            progress(item)
        try:
            yield analyze(item.kernel, item.variant, item.operation, target, secrets=secrets, size=size)
        except (ValueError, RuntimeError, EmulatorError) as exc:  # a fault, ToolchainError, a rejected input
            yield Failed(item, f"{type(exc).__name__}: {exc}")
