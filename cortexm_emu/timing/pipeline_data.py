"""The scheduler's data of a Cortex-M7/M33 timing file: the ``[pipeline]`` table and the per-class
scheduler fields, checked; a malformed file raises DataFileError naming file, line and field.

Class fields (besides the common ones of ``data.py``), each optional unless stated:

* ``latency`` (required): cycles from issue until a late (normal) consumer may issue;
* ``early_latency``: the same for an early consumer (address generation, an inline-shifted
  operand, an early-read source); default ``latency + [pipeline] early_read_extra``;
* ``units`` (required), ``issue`` (required): pipeline resources used in the issue cycle and the slot
  rule (any, slot0, single, younger16, younger_any);
* ``operand2``: the class takes an ARM operand2 (inline-shifted register or shifted constant), so
  the ``[pipeline] shifted_*`` rules apply to its shifted forms (default false);
* ``early_read``: which source registers are read a cycle early: ``none`` (default), ``sources``
  (every non-address source) or ``last`` (the last register operand, e.g. the extracted Rm);
* ``early_forward``: when the result reaches an early consumer after ``early_latency``:
  ``always`` (default), ``older`` (only when issued as the older op of a pair), ``unshared``
  (unless the other op of its pair uses the ``shift`` unit); otherwise ``latency + 1``;
* ``same_cycle_forward``: issued as the older op (not shifted), its result reaches a late
  consumer issued as the younger op of the same cycle (default false);
* ``accumulator``: ``rn`` when the first source is an accumulator read late
  (``[pipeline] accumulator_advance``), except a load's result (default none).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from typing import Any

from .data import CoreData, _Checker, apply_other_ends

_ISSUE = ("any", "slot0", "single", "younger16", "younger_any")
_EARLY_READ = ("none", "sources", "last")
_EARLY_FORWARD = ("always", "older", "unshared")
_ACCUMULATOR = ("none", "rn")

#: The [pipeline] keys every scheduled core states, each with a ``<key>_source``.
PIPELINE_KEYS: dict[str, type] = {
    "issue_width": int,
    "pairing": str,
    "units": dict,
    "load_bank_conflicts": bool,
    "load_pairs_unknown_bank": bool,
    "branch_target_pairs": bool,
    "early_read_extra": int,
    "address_read": str,
    "shifted_read": str,
    "accumulator_advance": int,
    "store_data_advance": int,
    "load_to_multiply_extra": int,
    "movt_pairs_with_movw": bool,
    "registers_per_cycle": int,
    "shifted_register_latency": int,
    "shifted_lsl_latency": int,
    "shifted_constant_latency": int,
    "shifted_units": list,
    "flag_setting_shifted_constant_cycles": int,
    "muls_16bit_cycles": int,
    "prediction": str,
    "predicted_taken_extra": int,
    "mispredict": int,
    "mispredict_early_flags": int,
    "early_flags_distance": int,
    "taken_refill_paired_no_flags": int,
}
_CHOICES = {
    "pairing": ("m7", "m33"),
    "address_read": ("early", "normal"),
    "shifted_read": ("early", "normal"),
    "prediction": ("btfn", "none"),
}


@dataclass(frozen=True, slots=True)
class ClassTiming:
    """The scheduler's fields of one instruction class."""

    latency: int
    early_latency: int
    units: tuple[str, ...]
    issue: str
    operand2: bool = False
    early_read: str = "none"
    early_forward: str = "always"
    same_cycle_forward: bool = False
    accumulator: str = "none"


@dataclass(frozen=True, slots=True)
class PipelineData:
    """The checked ``[pipeline]`` table and per-class scheduler fields of one core."""

    values: dict[str, Any]
    sources: dict[str, str]
    classes: dict[str, ClassTiming]
    accepts_v8m: frozenset[str]
    accepts_v8m_source: str


def parse_pipeline(data: CoreData) -> PipelineData:
    """Check the scheduler fields of a core file; DataFileError names file, line and field."""
    doc = apply_other_ends(tomllib.loads(data.text), data.other_ends, data.applied)
    chk = _Checker(data.path, data.text)
    table = chk.get(doc, "pipeline", dict, "", anchor=r"^\[pipeline\]")
    values: dict[str, Any] = {}
    sources: dict[str, str] = {}
    for key, kind in PIPELINE_KEYS.items():
        values[key] = chk.get(table, key, kind, "pipeline")
        sources[key] = chk.get(table, f"{key}_source", str, "pipeline")
        if kind is int and values[key] < 0:
            raise chk.fail(f"pipeline.{key}", f"must be >= 0, got {values[key]}")
        if key in _CHOICES and values[key] not in _CHOICES[key]:
            raise chk.fail(f"pipeline.{key}", f"{values[key]!r} is not one of {', '.join(_CHOICES[key])}")
    for key in table:
        if key.removesuffix("_source") not in PIPELINE_KEYS:
            raise chk.fail(f"pipeline.{key}", f"unknown key; accepted: {', '.join(PIPELINE_KEYS)}")
    if values["issue_width"] not in (1, 2):
        raise chk.fail("pipeline.issue_width", f"must be 1 or 2, got {values['issue_width']}")
    if values["registers_per_cycle"] < 1:
        raise chk.fail("pipeline.registers_per_cycle", f"must be >= 1, got {values['registers_per_cycle']}")
    capacity = values["units"]
    for unit, count in capacity.items():
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise chk.fail("pipeline.units", f"unit {unit!r}: expected an integer >= 1, got {count!r}")
    for unit in values["shifted_units"]:
        if unit not in capacity:
            raise chk.fail("pipeline.shifted_units", f"unknown unit {unit!r}; accepted: {', '.join(capacity) or '(none)'}")

    classes: dict[str, ClassTiming] = {}
    early_extra = values["early_read_extra"]
    for index, entry in enumerate(doc.get("class", [])):
        name = entry.get("name", f"#{index}")
        anchor = rf'^name\s*=\s*"{name}"'
        where = f"class[{name}]"
        latency = chk.get(entry, "latency", int, where, anchor)
        if latency < 0:
            raise chk.fail(f"{where}.latency", f"must be >= 0, got {latency}", anchor)
        early = entry.get("early_latency", latency + early_extra)
        if isinstance(early, bool) or not isinstance(early, int) or early < 0:
            raise chk.fail(f"{where}.early_latency", f"expected an integer >= 0, got {early!r}", anchor)
        units = chk.get(entry, "units", list, where, anchor)
        for unit in units:
            if unit not in capacity:
                raise chk.fail(f"{where}.units", f"unknown unit {unit!r}; accepted: {', '.join(capacity) or '(none)'}", anchor)
        issue = chk.get(entry, "issue", str, where, anchor)
        if issue not in _ISSUE:
            raise chk.fail(f"{where}.issue", f"{issue!r} is not one of {', '.join(_ISSUE)}", anchor)
        options: dict[str, Any] = {}
        for key, choices in (("early_read", _EARLY_READ), ("early_forward", _EARLY_FORWARD), ("accumulator", _ACCUMULATOR)):
            value = entry.get(key, choices[0])
            if value not in choices:
                raise chk.fail(f"{where}.{key}", f"{value!r} is not one of {', '.join(choices)}", anchor)
            options[key] = value
        for key in ("operand2", "same_cycle_forward"):
            value = entry.get(key, False)
            if not isinstance(value, bool):
                raise chk.fail(f"{where}.{key}", f"expected true or false, got {value!r}", anchor)
            options[key] = value
        classes[name] = ClassTiming(latency, early, tuple(units), issue, **options)
    isa = doc.get("isa", {})
    accepts = isa.get("accepts_v8m", [])
    accepts_source = ""
    if accepts:
        accepts_source = chk.get(isa, "accepts_v8m_source", str, "isa")
    return PipelineData(values, sources, classes, frozenset(accepts), accepts_source)
