"""Issue 19 item 1: no verdict rests on a failed build or run without saying so.

Synthetic figures with stated numbers (``sanity_fakes``), no kernel runs: a variant that failed is
named in the reason ("variant K/V failed: <error>"); the envelope of every allowed configuration x
code path x compiler is then incomplete, so no figure is judged inconsistent (beyond it) while one
is missing; it stays suspicious, saying why.
"""

from __future__ import annotations

from sanity_fakes import by_variant_and_kind, stated_context, with_cycles_per_byte

from refbench.published.model import load_figures, load_parts
from refbench.sanity import judge

FIGURES = {f.id: f for f in load_figures()}
PARTS = load_parts()
L4 = FIGURES["000-0301"]  # wolfSSL AES-128-CBC on the NUCLEO-L4A6ZG, software, no assembly claim
VARIANTS = {"bytewise": 100.0, "ttable4": 40.0, "ttable1": 50.0, "bitsliced": 80.0}
KINDS = {"cache on": 1.0, "cache off": 1.5, "cache on, prefetch off": 1.2, "prefetch only": 1.3,
         "tables in SRAM": 0.95, "code in SRAM": 0.9}
STATED = by_variant_and_kind(VARIANTS, KINDS)


def emulate(figure, rate):
    context, _ = stated_context(rate)
    return judge([figure], PARTS, context).emulations[figure.id]


def without(variant):
    return lambda m: None if m.job.variant == variant else STATED(m)


def test_all_variants_present_far_faster_is_inconsistent():  # the baseline the next tests change
    e = emulate(with_cycles_per_byte(L4, "syn-base", 20.0), STATED)
    assert e.finding.verdict == "inconsistent" and "failed" not in e.finding.message


def test_faster_than_the_variants_that_ran_is_not_inconsistent_when_one_failed():
    e = emulate(with_cycles_per_byte(L4, "syn-fail-fast", 20.0), without("ttable4"))
    assert e.position == "faster" and e.finding.verdict == "suspicious"
    assert "variant aes/ttable4 failed: stated failure" in e.finding.message
    assert "variant aes/ttable4 failed: stated failure" in e.explanation
    assert "envelope is incomplete" in e.explanation


def test_slower_than_the_variants_that_ran_is_not_inconsistent_when_one_failed():
    e = emulate(with_cycles_per_byte(L4, "syn-fail-slow", 200.0), without("bytewise"))
    assert e.position == "slower" and e.finding.verdict == "suspicious"
    assert "variant aes/bytewise failed: stated failure" in e.finding.message


def test_inside_the_band_stays_consistent_and_names_the_failure():
    e = emulate(with_cycles_per_byte(L4, "syn-fail-inside", 48.0), without("bytewise"))
    assert e.position == "inside" and e.finding.verdict == "consistent"
    assert "variant aes/bytewise failed: stated failure" in e.finding.message
