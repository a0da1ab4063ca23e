"""What the emulator rule (``emulator``) found for each figure: the kernel variants' cycles in each memory
configuration (:class:`VariantResult`), the figure's emulated range, position and explanation
(:class:`Emulation`), their JSON fields, and the one-line summary the report prints."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from refbench.sanity.memory_configs import MEMORY_NOTE, MemoryConfig
from refbench.sanity.peripherals import HardwareJudgement

if TYPE_CHECKING:
    from refbench.sanity.prediction import Prediction
from refbench.sanity.verdicts import Finding


@dataclass(frozen=True)
class VariantResult:
    """One kernel variant in one memory configuration (cycles summed over the figure's calls)."""

    kernel: str
    variant: str
    operation: str
    cycles: int | None
    cycles_per_byte: float | None
    verified: bool
    problem: str
    memory: str = "ideal"  # the configuration's label
    memory_cycles: int | None = None  # stall cycles of the memory system, included in cycles
    per_op: bool = False  # compared per call (cycles) rather than per byte
    option: str = ""  # the library build option this variant stands for ("wolfSSL GCM_SMALL")

    @property
    def rate(self) -> float | None:
        """What is compared with the published figure: cycles per byte, or cycles per call."""
        if not self.verified or self.cycles is None:
            return None
        return float(self.cycles) if self.per_op else self.cycles_per_byte

    @property
    def name(self) -> str:
        """``kernel/variant, configuration`` as every message writes it, led by the library option
        the variant stands for when there is one ("wolfSSL GCM_SMALL (gcm/ghash_small), caches off")."""
        if self.option:
            return f"{self.option} ({self.kernel}/{self.variant}), {self.memory}"
        return f"{self.kernel}/{self.variant}, {self.memory}"


@dataclass
class Emulation:
    """The emulator rule's view of one figure; ``status`` is emulated, not emulated yet, or hardware."""

    figure_id: str
    status: str
    explanation: str
    emulated_min: float | None = None
    emulated_max: float | None = None
    residual: float | None = None
    published: float | None = None
    size: int | None = None
    core: str | None = None
    memory: str = ""  # the configuration of the explanation (nearest, fastest or slowest)
    variants: tuple[VariantResult, ...] = ()
    finding: Finding | None = None
    position: str = ""  # inside, faster, slower (emulated figures only)
    notes: tuple[str, ...] = field(default_factory=tuple)
    board: str | None = None
    clock_mhz: float | None = None
    configs: tuple[MemoryConfig, ...] = ()
    unit: str = "c/B"  # of published, emulated_min/max and the per-configuration ranges: c/B or cycles
    build: str = ""  # compiler and optimisation level of the kernels
    hardware: HardwareJudgement | None = None  # a hardware figure's peripheral rule
    prediction: Prediction | None = None  # the build's prediction, band and hypotheses (emulated figures)

    def by_config(self) -> dict[str, tuple[float, float]]:
        """(min, max) of the compared rate (``unit``) over the verified variants, per configuration label."""
        ranges: dict[str, tuple[float, float]] = {}
        for v in self.variants:
            rate = v.rate
            if rate is not None:
                lo, hi = ranges.get(v.memory, (math.inf, 0.0))
                ranges[v.memory] = (min(lo, rate), max(hi, rate))
        return ranges

    def as_json(self) -> dict[str, Any]:
        emulated = self.status == "emulated"
        peripheral = self.hardware
        predicted = self.prediction.as_json() if self.prediction is not None else {
            "predicted": None, "band_low": None, "band_high": None, "ratio": None, "band_width": None,
            "hypotheses": []}
        return {
            **predicted,
            "emulation": self.status,
            "peripheral": peripheral.peripheral if peripheral else None,
            "peripheral_bound": peripheral.bound if peripheral else None,
            "peripheral_unit": peripheral.unit if peripheral else None,
            "peripheral_ratio": peripheral.ratio if peripheral else None,
            "peripheral_source": peripheral.source if peripheral else None,
            "emulated_min": self.emulated_min,
            "emulated_max": self.emulated_max,
            "explanation": self.explanation,
            "explanation_memory": self.memory if emulated else None,
            "residual": self.residual,
            "emulated_size": self.size,
            "emulated_unit": self.unit if emulated else None,
            "emulated_build": self.build if emulated else None,
            "emulated_board": self.board if emulated else None,
            "emulated_clock_mhz": self.clock_mhz if emulated else None,
            "emulated_memory": [c.as_json() for c in self.configs] if emulated else None,
            "emulated_range_by_memory": {k: list(v) for k, v in self.by_config().items()} if emulated else None,
            "emulated_variants": [
                {"kernel": v.kernel, "variant": v.variant, "library_option": v.option or None,
                 "operation": v.operation, "memory": v.memory,
                 "cycles": v.cycles, "memory_cycles": v.memory_cycles, "cycles_per_byte": v.cycles_per_byte,
                 "verified": v.verified, "problem": v.problem}
                for v in self.variants
            ],
        }



def summary(emulations: dict[str, Emulation]) -> str:
    """One line counting figures by emulation status and by position against the range."""
    status: dict[str, int] = {}
    for e in emulations.values():
        status[e.status] = status.get(e.status, 0) + 1
    positions = {p: sum(1 for e in emulations.values() if e.position == p) for p in ("inside", "faster", "slower")}
    off = f"; the emulator rule switched off {status['not emulated']}" if status.get("not emulated") else ""
    bounded = sum(1 for e in emulations.values() if e.hardware is not None and e.hardware.modelled)
    return (f"emulator ({MEMORY_NOTE}): {status.get('emulated', 0)} figures emulated "
            f"(inside the band of the build's prediction {positions['inside']}, faster than the band "
            f"{positions['faster']}, slower than the band {positions['slower']}); "
            f"not emulated yet {status.get('not emulated yet', 0)}; hardware {status.get('hardware', 0)} (against the "
            f"peripheral's documented processing time {bounded}, not modelled {status.get('hardware', 0) - bounded}); "
            f"footprint figures {status.get('not applicable', 0)}{off}")
