"""The registry behind ``refbench trace``: intermediate states, as the standards print them.

A module of :mod:`refbench.traces` exposes ``TRACES``, a dict from an algorithm
name (``"aes-128"``) to a :class:`TraceSpec`. The spec's ``inputs`` name the
parameters and default to the standard's own worked example, so ``refbench
trace aes-128`` with no options reproduces FIPS 197 Appendix C.1.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class TraceRow:
    """One printed line: ``step`` (e.g. ``round[ 1]`` or ``t=0``), what it is, and its value."""

    step: str
    name: str
    value: str


@dataclass(frozen=True)
class TraceSpec:
    """How to trace one algorithm.

    ``source`` names the document and appendix whose layout the rows follow;
    ``inputs`` maps each parameter (bytes, given in hex) to the example value of
    that document; ``run(**inputs)`` returns the rows.
    """

    source: str
    inputs: dict[str, str]
    run: Callable[..., list[TraceRow]]


def all_traces() -> dict[str, TraceSpec]:
    import refbench.traces as package

    traces: dict[str, TraceSpec] = {}
    for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{package.__name__}.{info.name}")
        traces.update(getattr(module, "TRACES", {}))
    return traces
