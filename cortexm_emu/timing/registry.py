"""``model_for(core)``: the timing model of a core, built once per core and options.

Apart from :mod:`.model` so that the scheduled cores' model (:mod:`.pipeline`, which builds on
:mod:`.model`) is chosen here without an import cycle.
"""

from __future__ import annotations

from functools import cache

from .data import DATA_DIR, CoreData, OtherEnd, parse_core_data
from .fpu import FPU_SETTINGS, FPU_VARIANTS
from .model import (
    CORES,
    DEFAULT_PREDICTION,
    PREDICTION_CORES,
    PREDICTIONS,
    SCHEDULED_CORES,
    TimingModel,
)
from .pipeline import ScheduledModel

#: model option ``fetch``: where the code is fetched from (the flash-fetch rules apply to "flash")
FETCH_SETTINGS = ("ideal", "flash")


@cache
def _core_data(core: str, other_end: tuple[int, ...] = ()) -> CoreData:
    return parse_core_data(DATA_DIR / f"{core}.toml", other_end)


def _items(value: str) -> tuple[int, ...]:
    return tuple(sorted({int(x) for x in value.split(",")}))


@cache
def _model(core: str, options: tuple[tuple[str, str], ...]) -> TimingModel:
    chosen = dict(options)
    data = _core_data(core, _items(chosen["other_end"]) if "other_end" in chosen else ())
    if core in SCHEDULED_CORES:
        return ScheduledModel(data, chosen)
    return TimingModel(data, chosen)


def other_ends(core: str) -> tuple[OtherEnd, ...]:
    """The other documented end of each undocumented two-ended rule of ``core``'s model
    (``[[other_end]]`` of its data file; APPROXIMATIONS.md items), for ``model_for(core,
    other_end=str(item))``."""
    return _core_data(FPU_VARIANTS.get(core, core)).other_ends


def has_flash_fetch_rules(core: str) -> bool:
    """Whether ``core``'s data states flash-fetch rules (the model option ``fetch``)."""
    base = FPU_VARIANTS.get(core, core)
    return base in CORES and "unaligned_wide_group_extra" in _core_data(base).rules


def model_for(core: str, **options: str) -> TimingModel:
    """The timing model of ``core`` ("m0", "m0plus", "m3", "m4", "m7", "m33").

    ``m4f``, ``m7f``, ``m33f``: the same core with its FPU (option ``fpu="on"``: the data's
    ``fpu = true`` classes are priced; without it every FP instruction is refused).
    Options: ``multiplier="fast" | "small"`` on m0 and m0plus (MULS 1 or 32 cycles, an
    implementation option of the silicon; default "fast"); ``prediction="static" | "dynamic"`` on
    m7 (conditional branches predicted from per-branch history kept by the accounting and cleared at
    each call, ``prediction.py``: the default, the BTAC being on out of reset; or from the static
    backward-taken/forward-not-taken rule); ``fetch="ideal" | "flash"`` on cores whose data states
    flash-fetch rules (m4): "flash" charges them, for code that runs from a board's flash (the
    default "ideal" is the zero-wait-state core without them); ``other_end="6"`` (or "6,13") on
    cores whose data states ``[[other_end]]`` items: the other documented bound of those
    undocumented rules (APPROXIMATIONS.md items; :func:`other_ends`) instead of the model's end,
    its values set and its model options (e.g. ``prediction="static"``) chosen.
    """
    if core in FPU_VARIANTS:
        if options.get("fpu", "on") != "on":
            raise ValueError(f"Invalid fpu {options['fpu']!r} for core {core!r}: the core name says the FPU is on")
        core, options = FPU_VARIANTS[core], {**options, "fpu": "on"}
    if core not in CORES:
        raise ValueError(f"Invalid core {core!r}; accepted: {', '.join((*CORES, *FPU_VARIANTS))}")
    data = _core_data(core)
    accepted = (
        (["multiplier"] if data.multiplier else [])
        + (["prediction"] if core in PREDICTION_CORES else [])
        + (["fpu"] if data.fpu_option else [])
        + (["fetch"] if "unaligned_wide_group_extra" in data.rules else [])
        + (["other_end"] if data.other_ends else [])
    )
    for key, value in options.items():
        if key not in accepted:
            raise ValueError(
                f"Invalid option {key!r} for core {core!r}; accepted: {', '.join(accepted) or '(none)'}"
            )
        if key == "multiplier" and (not isinstance(value, str) or value not in data.multiplier):
            raise ValueError(
                f"Invalid multiplier {value!r} for core {core!r}; accepted: {', '.join(data.multiplier)}"
            )
        if key == "fpu" and value not in FPU_SETTINGS:
            raise ValueError(f"Invalid fpu {value!r} for core {core!r}; accepted: {', '.join(FPU_SETTINGS)}")
        if key == "fetch" and value not in FETCH_SETTINGS:
            raise ValueError(f"Invalid fetch {value!r} for core {core!r}; accepted: {', '.join(FETCH_SETTINGS)}")
        if key == "prediction" and value not in PREDICTIONS:
            raise ValueError(f"Invalid prediction {value!r} for core {core!r}; accepted: {', '.join(PREDICTIONS)}")
    if "other_end" in options:
        known = {e.item: e for e in data.other_ends}
        try:
            items = _items(options["other_end"])
        except (ValueError, AttributeError):
            items = ()
        if not items or any(item not in known for item in items):
            raise ValueError(f"Invalid other_end {options['other_end']!r} for core {core!r}; accepted: item numbers "
                             f"of APPROXIMATIONS.md among {', '.join(str(i) for i in known)} (comma-separated)")
        options["other_end"] = ",".join(str(i) for i in items)
        for item in items:
            for key, value in known[item].option.items():
                if options.get(key, value) != value:
                    raise ValueError(f"Invalid {key} {options[key]!r} with other_end {item} for core {core!r}: "
                                     f"that end sets {key}={value!r}")
                options[key] = value
    if core in PREDICTION_CORES:
        options.setdefault("prediction", DEFAULT_PREDICTION)  # one model (and version) per behaviour
    if options.get("fpu") == "off":
        del options["fpu"]  # the default: the same model as without the option
    if options.get("fetch") == "ideal":
        del options["fetch"]  # the default
    return _model(core, tuple(sorted(options.items())))
