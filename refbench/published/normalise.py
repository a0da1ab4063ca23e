"""Normalise published figures to cycles per byte (throughput) and cycles per operation
(latency) at the clock the page states.

Byte units come from ``sources.toml`` (per source and library version, each with its
reason); time units are SI. Nothing here is hand arithmetic: every number a report shows
is computed by these functions from the printed value.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from refbench.published.model import Figure, Source, load_sources

TIME_UNITS_S = {"s": 1.0, "ms": 1e-3, "µs": 1e-6}


@dataclass(frozen=True)
class Normalised:
    """A figure expressed in cycles at its stated clock."""

    cycles_per_byte: float | None
    cycles_per_op: float | None
    bytes_per_second: float | None
    seconds_per_op: float | None
    unit_bytes: int | None
    unit_status: str | None


@lru_cache(maxsize=1)
def _sources() -> dict[str, Source]:
    return load_sources()


def unit_bytes(source: str, version: str, unit: str, library: str | None = None) -> tuple[int, str]:
    """Bytes one printed ``unit`` (``KB``, ``MiB``, ``Kbytes``; a trailing ``/s`` is ignored)
    stands for on ``source`` for library ``version``, and whether that is verified or assumed.

    A source that is not a built-in page is a user's input (``refbench.inputs``): its units
    follow the per-library rules of ``refbench/published/library_units.toml``, which need ``library``."""
    if source not in _sources():
        from refbench.published.library_units import input_unit_bytes

        return input_unit_bytes(library, version, unit)
    base = unit.removesuffix("/s")
    version_number = version.split(" ")[0]
    for rule in _sources()[source].units:
        if rule.versions and version_number not in rule.versions:
            continue
        if base in rule.bytes:
            return rule.bytes[base], rule.status
    raise ValueError(
        f"Invalid unit ({unit!r}) for source {source} version {version}; no unit rule in sources.toml covers it"
    )


def unit_reason(source: str, version: str, unit: str, library: str | None = None) -> str:
    if source not in _sources():
        from refbench.published.library_units import input_unit_reason

        return input_unit_reason(library, version, unit)
    base = unit.removesuffix("/s")
    version_number = version.split(" ")[0]
    for rule in _sources()[source].units:
        if (not rule.versions or version_number in rule.versions) and base in rule.bytes:
            return rule.reason
    raise ValueError(f"Invalid unit ({unit!r}) for source {source} version {version}")


def seconds(value: float, unit: str) -> float:
    try:
        return value * TIME_UNITS_S[unit]
    except KeyError:
        raise ValueError(f"Invalid time unit ({unit!r}); accepted: {', '.join(TIME_UNITS_S)}") from None


def normalise(figure: Figure) -> Normalised:
    """Cycles per byte and/or per operation of ``figure`` at ``figure.clock_mhz``."""
    clock_hz = figure.clock_mhz * 1e6
    if figure.metric == "throughput":
        size, status = unit_bytes(figure.source, figure.version, figure.unit, figure.library)
        rate = figure.value * size
        if rate <= 0:
            return Normalised(None, None, rate, None, size, status)
        return Normalised(clock_hz / rate, None, rate, None, size, status)
    if figure.metric == "time_per_op":
        t = seconds(figure.value, figure.unit)
        per_op = t * clock_hz
        per_byte = per_op / figure.message_bytes if figure.message_bytes else None
        return Normalised(per_byte, per_op, figure.message_bytes / t if figure.message_bytes and t else None,
                          t, None, None)
    if figure.metric == "ops_per_s":
        if figure.value <= 0:
            return Normalised(None, None, None, None, None, None)
        per_op = clock_hz / figure.value
        return Normalised(per_op / figure.message_bytes if figure.message_bytes else None, per_op, None,
                          1.0 / figure.value, None, None)
    if figure.metric == "cycles":
        per_byte = figure.value / figure.message_bytes if figure.message_bytes else None
        return Normalised(per_byte, figure.value, None, figure.value / clock_hz, None, None)
    return Normalised(None, None, None, None, None, None)
