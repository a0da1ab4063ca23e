"""The resolution of the timer a benchmark log was measured with, inferred from the log.

wolfCrypt prints each row's elapsed time to the millisecond (``took %5.3f seconds``) whatever
its timer counts: ``current_time()`` of a port may count whole seconds (``time()``), or RTOS
ticks. The printed durations of one run then share a step: every one a whole second (``1.000``,
``2.000``), the same duration again and again, or multiples of a tick (``1.010``, ``1.020``).

:func:`timer_step_ms` is the greatest common divisor of a run's printed durations in
milliseconds, over at least :data:`MIN_ROWS` rows; above the printed 1 ms it is the timer's
resolution as far as the log shows (a finer timer would make such a common step a coincidence).
Each figure of the run then gets the step as its ``timer_resolution`` (the elapsed time of one
row is known to one step: its start and end each lie within a tick), which widens the band
every rule allows it (:func:`refbench.sanity.numbers.relative_resolution`: step / duration),
and a sentence in its notes that every finding on it states.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence

from refbench.published.model import Aux, Figure

#: rows a run needs before its durations' common step is read as the timer's: with four rows
#: of a millisecond timer, a common step of 2 ms has a chance of 1/16, of 10 ms 1/10,000
MIN_ROWS = 4


def timer_step_ms(durations: Sequence[str]) -> int | None:
    """The common step (ms) of printed durations (``"1.019"``), or None when there are fewer than
    :data:`MIN_ROWS` or no step above the printed millisecond."""
    if len(durations) < MIN_ROWS:
        return None
    ms = [round(float(d) * 1000) for d in durations]
    step = math.gcd(*ms)
    return step if step > 1 else None


def sentence(step_ms: int, rows: int) -> str:
    """What every finding on a figure of the run says of its timer."""
    whole = step_ms % 1000 == 0
    how = ("every duration a whole number of seconds" if whole and step_ms == 1000 else
           f"every duration a multiple of {step_ms / 1000:g} s")
    return (f"the log's timer resolution is {step_ms / 1000:g} s ({how} over {rows} rows): each figure is known "
            f"only to one timer step over its duration, and is judged with that band")


def apply_timer_resolution(figures: list[Figure], placement_text: str) -> list[Figure]:
    """``figures`` of one run, each with the run's timer resolution when the log shows one (its
    ``timer_resolution`` aux and the sentence right after the assumptions in its notes)."""
    timed = [f for f in figures if f.aux_value("duration") is not None]
    step = timer_step_ms([f.aux_value("duration").text for f in timed])
    if step is None:
        return figures
    said = sentence(step, len(timed))
    out = []
    for f in figures:
        if f.aux_value("duration") is None:
            out.append(f)
            continue
        notes = f.notes or ""
        rest = notes[len(placement_text):] if notes.startswith(placement_text) else f"; {notes}"
        out.append(dataclasses.replace(
            f, aux=(*f.aux, Aux("timer_resolution", step / 1000, "s", f"{step / 1000:g}")),
            notes=f"{placement_text}; {said}{rest}"))
    return out
