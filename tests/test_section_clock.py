"""Rule f (the section's clock) on hand-made emulated ranges: the factor arithmetic and when
the rule speaks. The ranges are written in the tests; no kernel runs."""

from __future__ import annotations

import pytest

from refbench.published.model import load_figures, load_parts
from refbench.published.normalise import normalise
from refbench.sanity import clock
from refbench.sanity.emulated import Emulation

FIGURES = load_figures()
PARTS = load_parts()
#: wolfSSL 5.6.0 on the STM32H563ZI, stated at 150 MHz (the part's maximum is 250 MHz).
H563 = [f for f in FIGURES if f.part == "STM32H563ZI" and f.implementation == "software"
        and normalise(f).cycles_per_byte is not None][:6]


def test_best_factor_is_the_smallest_shared_by_the_most_intervals():
    # At 1.0 only the third interval holds; from 1.5 the first two as well; 2.5 is beyond the maximum.
    intervals = [(1.5, 3.0), (1.4, 2.0), (0.5, 1.6), (2.5, 4.0)]
    assert clock.best_factor(intervals, most=2.0) == (1.5, 3)
    assert clock.best_factor(intervals, most=1.2) == (1.0, 1)  # no factor above 1 helps within 1.2


def _emulations(factors: list[tuple[float, float]], position: str) -> dict[str, Emulation]:
    """Emulations whose range is published x (lo, hi) for each H563 figure."""
    out = {}
    for f, (lo, hi) in zip(H563, factors):
        published = normalise(f).cycles_per_byte
        out[f.id] = Emulation(f.id, "emulated", "", published * lo, published * hi, published=published,
                              position=position if lo > 1 else "inside")
    return out


@pytest.fixture
def fake_emulate(monkeypatch):
    def install(emulations):
        monkeypatch.setattr(clock, "emulate", lambda figures, parts: emulations)
    return install


def test_a_section_faster_than_every_variant_is_given_the_clock_that_fits(fake_emulate):
    assert len(H563) == 6 and {f.clock_mhz for f in H563} == {150.0}
    fake_emulate(_emulations([(1.5, 3.0), (1.4, 2.0), (1.45, 5.0), (1.3, 1.6), (2.1, 4.0), (0.8, 1.2)], "faster"))
    findings = clock.rule_section_clock(H563, PARTS)
    # Five are faster at 150 MHz; at 1.5 x 150 = 225 MHz four of the six are inside (not the
    # one needing 2.1x nor the one whose range ends at 1.2x); at 150 MHz only the last one.
    assert [figure_id for figure_id, _ in findings] == [f.id for f in H563[:5]]
    message = findings[0][1].message
    assert findings[0][1].rule == "section-clock" and findings[0][1].verdict == "suspicious"
    assert "at the stated 150 MHz: 1 inside their emulated ranges, 5 faster than every variant" in message
    assert "at 225 MHz (1.50x, within the STM32H563ZIT6 maximum 250 MHz) 4 would be inside" in message
    assert f"(not: {H563[4].algorithm} {H563[4].operation}, {H563[5].algorithm} {H563[5].operation})" in message


def test_no_finding_when_the_stated_clock_fits_or_no_clock_helps(fake_emulate):
    fake_emulate(_emulations([(0.5, 2.0)] * 6, "inside"))
    assert clock.rule_section_clock(H563, PARTS) == []
    # Faster than every variant, but each would need more than the part maximum (250/150 = 1.67x).
    fake_emulate(_emulations([(1.8, 3.0)] * 6, "faster"))
    assert clock.rule_section_clock(H563, PARTS) == []


def test_a_small_section_is_not_examined(fake_emulate):
    fake_emulate(_emulations([(1.5, 3.0)] * 4, "faster"))
    assert clock.rule_section_clock(H563[:4], PARTS) == []
