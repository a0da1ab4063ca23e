"""Fakes for the sanity pipeline's tests: an executor that returns stated cycle counts (how a test
states the emulated range it judges against, with no kernel run) and synthetic figures whose
numbers the test states (a real figure lends only its page context: source, library, board)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence

from refbench.measure import Measurement
from refbench.published.model import Aux, Figure
from refbench.published.normalise import normalise
from refbench.sanity import SanityContext
from refbench.sanity.executor import MeasureJob

#: What a stated executor returns for a job: cycles per byte of the job's size (None: the call failed).
Rate = Callable[[MeasureJob], float | None]


def stated_measurement(m: MeasureJob, cycles: int | None, memory_cycles: int = 0) -> Measurement:
    """A measurement of ``m`` with the stated ``cycles`` (None: a failed call), verified when it has cycles."""
    job = m.job
    return Measurement(job.kernel, job.variant, job.operation, "stated", m.config.board, m.config.clock_mhz,
                       job.size, cycles, None, None, None, cycles is not None, "",
                       "" if cycles is not None else "stated failure", "", "", "", {}, "stated", m.config.label,
                       "zig", m.opt, False, job.key_bytes, job.aad_bytes, memory_cycles)


class StatedExecutor:
    """An executor that measures nothing: each job gets ``rate(job) x size`` cycles (a per-call
    ``rate`` when the size is 0). It records every job it was given and how often it was called."""

    workers = 1

    def __init__(self, rate: Rate) -> None:
        self.rate = rate
        self.ran: list[MeasureJob] = []
        self.calls = 0

    def run(self, jobs: Sequence[MeasureJob], done: Callable[[MeasureJob, Measurement], None]
            ) -> dict[MeasureJob, Measurement]:
        self.calls += 1
        out = {}
        for m in jobs:
            self.ran.append(m)
            rate = self.rate(m)
            cycles = None if rate is None else round(rate * max(m.job.size, 1))
            out[m] = stated_measurement(m, cycles)
            done(m, out[m])
        return out


def by_variant_and_kind(variants: dict[str, float], kinds: dict[str, float],
                        boards: dict[str, float] | None = None) -> Rate:
    """Cycles per byte = variants[variant] x kinds[configuration kind] (x boards[board] if given)."""
    def rate(m: MeasureJob) -> float | None:
        board = boards[m.config.board] if boards else 1.0
        return variants[m.job.variant] * kinds[m.config.kind] * board
    return rate


def stated_context(rate: Rate, **settings) -> tuple[SanityContext, StatedExecutor]:
    """A context (no result cache) whose executor states ``rate``; and that executor."""
    executor = StatedExecutor(rate)
    return SanityContext(executor=executor, cache=None, **settings), executor


def synthetic(template: Figure, figure_id: str, *, value: float | None = None, text: str | None = None,
              aux: tuple[Aux, ...] | None = None, **changes) -> Figure:
    """A synthetic figure: ``template``'s page context, id ``figure_id``, and the stated numbers
    (``text``: the printed value, by default whole cycles or bytes, else three decimals)."""
    value = template.value if value is None else value
    whole = template.metric == "cycles" or template.metric.endswith("_bytes")
    text = text if text is not None else (f"{value:.0f}" if whole else f"{value:.3f}")
    row = changes.pop("row", f"synthetic {figure_id} {text}")
    return dataclasses.replace(template, id=figure_id, value=value, text=text, row=row,
                               aux=template.aux if aux is None else aux, **changes)


def with_cycles_per_byte(template: Figure, figure_id: str, cycles_per_byte: float, **changes) -> Figure:
    """A synthetic throughput figure whose printed rate normalises to ``cycles_per_byte`` (to the
    printed resolution of three decimals)."""
    unit_bytes = normalise(template).unit_bytes
    value = round(template.clock_mhz * 1e6 / cycles_per_byte / unit_bytes, 3)
    return synthetic(template, figure_id, value=value, text=f"{value:.3f}", **changes)
