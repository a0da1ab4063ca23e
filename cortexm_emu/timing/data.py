"""Loading and schema-checking the per-core timing tables (``data/<core>.toml``).

Each file is the single place where a core's cycle numbers live; every number carries a
``source`` (document id, table or section) next to it. A malformed file raises
:class:`cortexm_emu.datafile.DataFileError` naming the file, the line, the field and the problem.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any, TypeVar

from cortexm_emu.datafile import DataFileError, line_matching, read_toml

_T = TypeVar("_T")

DATA_DIR = Path(__file__).resolve().parent / "data"

#: Pipeline roles a class can play; the pairing rules of the model are written in these terms.
ROLES = (
    "data",
    "multiply",
    "divide",
    "load",
    "store",
    "load_double",
    "store_double",
    "load_multiple",
    "store_multiple",
    "branch",
    "it",
    "other",
)

#: Operand patterns a class may require (checked on the capstone decoding).
PATTERNS = ("writes_pc", "reglist_pc", "reg_offset", "two_core_registers", "double")

#: Kinds of operand-dependent extra cost a class may carry.
DYNAMIC = ("divide", "mull_m3", "mlal_m3")

#: The rules every file must state, each with a ``<rule>_source`` string.
RULES: dict[str, type] = {
    "branch_refill": int,
    "unaligned_wide_target_extra": int,
    "load_pipelining": bool,
    "writeback_load_pipelines": bool,
    "writeback_store_after_load_extra": int,
    "address_interlock": int,
    "writeback_store_interlock": int,
    "store_then_load": int,
    "store_after_load_stalls_load": bool,
    "unaligned_wide_pipelines": bool,
    "it_folding": bool,
    "skipped_conditional": int,
    "eats_following_nop": bool,
}

#: Rules a file may state (each with a ``<rule>_source``): the flash-fetch rules that the model
#: option ``fetch="flash"`` turns on (code fetched from flash, as on a board; not with ideal memory).
OPTIONAL_RULES: dict[str, type] = {
    "unaligned_wide_group_min": int,
    "unaligned_wide_store_group_min": int,
    "unaligned_wide_group_extra": int,
    "literal_load_extra": int,
}


def pickled_by_fields(cls: type[_T]) -> type[_T]:
    """Give a frozen slots dataclass a ``__reduce__`` that pickles its field values as one tuple.

    The price cache (``cortexm_emu.price_cache``) pickles every priced block; the default state
    of a slots dataclass calls ``dataclasses.fields()`` for every object pickled, which was about
    a seventh of a first call's time on the M7. The field names are looked up once here."""
    names = tuple(f.name for f in fields(cls))  # type: ignore[arg-type]

    def __reduce__(self: Any) -> tuple[Any, tuple[Any, ...]]:
        return cls, tuple(getattr(self, name) for name in names)

    cls.__reduce__ = __reduce__  # type: ignore[assignment,method-assign]
    return cls


@dataclass(frozen=True, slots=True)
class OtherEnd:
    """The other documented bound of one undocumented two-ended rule (``[[other_end]]`` of a timing
    file): where the model chose one end of a documented range (APPROXIMATIONS.md ``item``), the
    values (``set``: "rules.<rule>" or "pipeline.<key>" -> value) or model options (``option``)
    that give the other end. The model option ``other_end="<item>"`` applies it."""

    item: int
    sets: dict[str, int | bool]
    option: dict[str, str]
    source: str


def parse_other_ends(chk: _Checker, doc: dict[str, Any]) -> tuple[OtherEnd, ...]:
    """The ``[[other_end]]`` entries of a timing file, checked: each names its APPROXIMATIONS.md
    item once, a source, and at least one value to set (an existing rules/pipeline key, same type,
    a different value) or model option."""
    out: list[OtherEnd] = []
    for index, entry in enumerate(doc.get("other_end", [])):
        anchor = rf"^item\s*=\s*{entry.get('item', '')}\b"
        where = f"other_end[{index}]"
        item = chk.get(entry, "item", int, where, anchor)
        if any(e.item == item for e in out):
            raise chk.fail(f"{where}.item", f"item {item} appears twice", anchor)
        source = chk.get(entry, "source", str, where, anchor)
        if not source.strip():
            raise chk.fail(f"{where}.source", "empty source: every bound must cite where it comes from", anchor)
        sets = entry.get("set", {})
        option = entry.get("option", {})
        if not isinstance(sets, dict) or not isinstance(option, dict) or not (sets or option):
            raise chk.fail(where, "expected a table 'set' of rules.<rule>/pipeline.<key> values or 'option'", anchor)
        for key, value in sets.items():
            table, _, name = key.partition(".")
            current = doc.get(table, {}).get(name) if table in ("rules", "pipeline") else None
            if current is None:
                raise chk.fail(f"{where}.set", f"{key!r} is not a rules.<rule> or pipeline.<key> of this file", anchor)
            if type(value) is not type(current) or value == current:
                raise chk.fail(f"{where}.set", f"{key} = {value!r}: expected another {type(current).__name__} "
                               f"than the model's end ({current!r})", anchor)
        for key, value in option.items():
            if not isinstance(value, str):
                raise chk.fail(f"{where}.option", f"{key} = {value!r}: expected a string", anchor)
        out.append(OtherEnd(item, dict(sets), dict(option), source))
    return tuple(out)


def apply_other_ends(doc: dict[str, Any], ends: tuple[OtherEnd, ...], items: tuple[int, ...]) -> dict[str, Any]:
    """``doc`` with the values of the ``items`` chosen among ``ends`` set (a copy of the tables
    touched; ``doc`` itself is left as it was)."""
    chosen = [e for e in ends if e.item in items]
    out = dict(doc)
    for end in chosen:
        for key, value in end.sets.items():
            table, _, name = key.partition(".")
            out[table] = {**out[table], name: value}
    return out


@pickled_by_fields
@dataclass(frozen=True, slots=True)
class ClassEntry:
    """One instruction class of a core: which instructions, what they cost, and why."""

    name: str
    role: str
    mnemonics: frozenset[str]
    cycles: int
    per_register: int
    taken_extra: int
    dynamic: str | None
    pattern: str | None
    source: str
    #: an FPU instruction class: used only by a model with the FPU (``model_for(core, fpu="on")``)
    fpu: bool = False


@dataclass(frozen=True, slots=True)
class CoreData:
    """The parsed, checked content of one ``data/<core>.toml``."""

    path: Path
    core: str
    title: str
    architecture: str
    document: str
    rules: dict[str, int | bool]
    rule_sources: dict[str, str]
    classes: tuple[ClassEntry, ...]
    divide: dict[str, int] | None
    divide_source: str
    long_multiply_bits: int | None
    long_multiply_source: str
    only_32bit: frozenset[str] | None
    lacks_16bit: frozenset[str]
    lacks: frozenset[str]
    lacks_reason: str
    multiplier: dict[str, int] | None
    multiplier_default: str | None
    multiplier_source: str
    text: str
    #: the core can have an FPU ([isa] fpu, an implementation option); its classes have ``fpu = true``
    fpu_option: bool = False
    fpu_source: str = ""
    #: the other documented bound of each undocumented two-ended rule (``[[other_end]]``)
    other_ends: tuple[OtherEnd, ...] = ()
    #: the ``other_end`` items this data was parsed with (model option ``other_end``)
    applied: tuple[int, ...] = ()


class _Checker:
    def __init__(self, path: Path, text: str) -> None:
        self.path = path
        self.text = text

    def fail(self, field: str, problem: str, anchor: str | None = None) -> DataFileError:
        pattern = anchor or rf"^\s*{re.escape(field.split('.')[-1])}\s*="
        line = line_matching(self.text.splitlines(), pattern) or 1  # absent: the file as a whole
        return DataFileError(self.path, line, field, problem)

    def get(self, table: dict[str, Any], key: str, kind: type, where: str, anchor: str | None = None) -> Any:
        field = f"{where}.{key}" if where else key
        if key not in table:
            raise self.fail(field, "missing", anchor)
        value = table[key]
        if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
            raise self.fail(field, f"expected an integer, got {value!r}", anchor)
        if kind is not int and not isinstance(value, kind):
            raise self.fail(field, f"expected {kind.__name__}, got {value!r}", anchor)
        if kind is str and not value.strip() and key.endswith("source"):
            raise self.fail(field, "empty source: every number must cite where it comes from", anchor)
        return value


def parse_core_data(path: Path, other_end: tuple[int, ...] = ()) -> CoreData:
    """Read and check one timing file; raise :class:`~cortexm_emu.datafile.DataFileError` on any problem.
    ``other_end``: the ``[[other_end]]`` items to apply (the other bound of those rules)."""
    text, doc = read_toml(path, kind="timing file")
    chk = _Checker(path, text)
    other_ends = parse_other_ends(chk, doc)
    unknown = sorted(set(other_end) - {e.item for e in other_ends})
    if unknown:
        raise chk.fail("other_end", f"no item {unknown[0]} in this file; its items: "
                       f"{', '.join(str(e.item) for e in other_ends) or '(none)'}")
    doc = apply_other_ends(doc, other_ends, other_end)
    core = chk.get(doc, "core", dict, "")
    rules = chk.get(doc, "rules", dict, "")
    isa = chk.get(doc, "isa", dict, "")
    rule_values: dict[str, int | bool] = {}
    rule_sources: dict[str, str] = {}
    for name, kind in RULES.items():
        rule_values[name] = chk.get(rules, name, kind, "rules")
        rule_sources[name] = chk.get(rules, f"{name}_source", str, "rules")
        if kind is int and rule_values[name] < 0:
            raise chk.fail(f"rules.{name}", f"must be >= 0, got {rule_values[name]}")
    for name, kind in OPTIONAL_RULES.items():
        if name in rules:
            rule_values[name] = chk.get(rules, name, kind, "rules")
            rule_sources[name] = chk.get(rules, f"{name}_source", str, "rules")
            if rule_values[name] < 0:
                raise chk.fail(f"rules.{name}", f"must be >= 0, got {rule_values[name]}")
    for key in rules:
        if key.removesuffix("_source") not in RULES and key.removesuffix("_source") not in OPTIONAL_RULES:
            raise chk.fail(f"rules.{key}", f"unknown rule; accepted: {', '.join([*RULES, *OPTIONAL_RULES])}")

    multiplier = None
    multiplier_default = None
    multiplier_source = ""
    options = doc.get("options", {})
    if "multiplier" in options:
        table = options["multiplier"]
        multiplier_default = chk.get(table, "default", str, "options.multiplier")
        multiplier = {k: chk.get(table, k, int, "options.multiplier") for k in table if k not in ("default", "source")}
        multiplier_source = chk.get(table, "source", str, "options.multiplier")
        if multiplier_default not in multiplier:
            raise chk.fail("options.multiplier.default", f"{multiplier_default!r} is not one of {sorted(multiplier)}")

    classes: list[ClassEntry] = []
    seen: set[str] = set()
    for index, entry in enumerate(chk.get(doc, "class", list, "")):
        name = entry.get("name", f"#{index}")
        anchor = rf'^name\s*=\s*"{re.escape(str(name))}"'
        where = f"class[{name}]"
        name = chk.get(entry, "name", str, where, anchor)
        if name in seen:
            raise chk.fail(f"{where}.name", "duplicate class name", anchor)
        seen.add(name)
        role = chk.get(entry, "role", str, where, anchor)
        if role not in ROLES:
            raise chk.fail(f"{where}.role", f"{role!r} is not one of {', '.join(ROLES)}", anchor)
        mnemonics = chk.get(entry, "mnemonics", list, where, anchor)
        if not mnemonics or not all(isinstance(m, str) for m in mnemonics):
            raise chk.fail(f"{where}.mnemonics", "expected a non-empty list of strings", anchor)
        raw_cycles = entry.get("cycles")
        if raw_cycles == "multiplier":
            if multiplier is None:
                raise chk.fail(f"{where}.cycles", "'multiplier' needs an [options.multiplier] table", anchor)
            cycles = -1  # resolved per model option
        else:
            cycles = chk.get(entry, "cycles", int, where, anchor)
            if cycles < 0:
                raise chk.fail(f"{where}.cycles", f"must be >= 0, got {cycles}", anchor)
        per_register = entry.get("per_register", 0)
        if not isinstance(per_register, int) or isinstance(per_register, bool):
            raise chk.fail(f"{where}.per_register", f"expected an integer, got {per_register!r}", anchor)
        raw_taken = entry.get("taken_extra", 0)
        if raw_taken == "P":
            taken_extra = int(rule_values["branch_refill"])
        elif isinstance(raw_taken, int) and not isinstance(raw_taken, bool) and raw_taken >= 0:
            taken_extra = raw_taken
        else:
            raise chk.fail(f"{where}.taken_extra", f"expected an integer >= 0 or \"P\", got {raw_taken!r}", anchor)
        dynamic = entry.get("dynamic")
        if dynamic is not None and dynamic not in DYNAMIC:
            raise chk.fail(f"{where}.dynamic", f"{dynamic!r} is not one of {', '.join(DYNAMIC)}", anchor)
        pattern = entry.get("pattern")
        if pattern is not None and pattern not in PATTERNS:
            raise chk.fail(f"{where}.pattern", f"{pattern!r} is not one of {', '.join(PATTERNS)}", anchor)
        source = chk.get(entry, "source", str, where, anchor)
        fpu = entry.get("fpu", False)
        if not isinstance(fpu, bool):
            raise chk.fail(f"{where}.fpu", f"expected true or false, got {fpu!r}", anchor)
        classes.append(
            ClassEntry(name, role, frozenset(mnemonics), cycles, per_register, taken_extra, dynamic, pattern, source, fpu)
        )

    divide = None
    divide_source = ""
    if "divide" in doc:
        table = doc["divide"]
        divide = {k: chk.get(table, k, int, "divide") for k in ("zero_operand", "quotient_zero", "base", "quotient_bits_per_cycle", "maximum")}
        divide_source = chk.get(table, "source", str, "divide")
        if divide["quotient_bits_per_cycle"] <= 0:
            raise chk.fail("divide.quotient_bits_per_cycle", "must be > 0")
    if any(c.dynamic == "divide" for c in classes) and divide is None:
        raise chk.fail("divide", "a class uses dynamic = \"divide\" but the file has no [divide] table")

    long_bits = None
    long_source = ""
    if "long_multiply" in doc:
        long_bits = chk.get(doc["long_multiply"], "operand_bits", int, "long_multiply")
        long_source = chk.get(doc["long_multiply"], "source", str, "long_multiply")
    if any(c.dynamic in ("mull_m3", "mlal_m3") for c in classes) and long_bits is None:
        raise chk.fail("long_multiply", "a class uses an early-terminating multiply but the file has no [long_multiply] table")

    if any(c.fpu for c in classes) and not isa.get("fpu", False):
        raise chk.fail("isa.fpu", "classes with fpu = true need [isa] fpu = true (the core has an FPU option)")
    only_32 = isa.get("only_32bit")
    return CoreData(
        path=path,
        core=chk.get(core, "name", str, "core"),
        title=chk.get(core, "title", str, "core"),
        architecture=chk.get(core, "architecture", str, "core"),
        document=chk.get(core, "document", str, "core"),
        rules=rule_values,
        rule_sources=rule_sources,
        classes=tuple(classes),
        divide=divide,
        divide_source=divide_source,
        long_multiply_bits=long_bits,
        long_multiply_source=long_source,
        only_32bit=frozenset(only_32) if only_32 is not None else None,
        lacks_16bit=frozenset(isa.get("lacks_16bit", [])),
        lacks=frozenset(chk.get(isa, "lacks", list, "isa")),
        lacks_reason=chk.get(isa, "lacks_reason", str, "isa"),
        multiplier=multiplier,
        multiplier_default=multiplier_default,
        multiplier_source=multiplier_source,
        text=text,
        fpu_option=chk.get(isa, "fpu", bool, "isa"),
        fpu_source=chk.get(isa, "fpu_source", str, "isa"),
        other_ends=other_ends,
        applied=tuple(sorted(other_end)),
    )
