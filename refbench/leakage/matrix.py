"""Every kernel variant on one target, each with its verdict (``refbench leakage --all``)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
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
               operation: str | None = None) -> list[Selection]:
    """Every variant (of ``kernel``, or of every family) that can run on the target's core, with its
    first operation, or ``operation`` in the families that have it."""
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
        for name, var in fam.variants.items():
            if (variant is None or name == variant) and var.supports(target.core):
                chosen.append(Selection(fam.name, name, operation or names[0]))
    return chosen


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
