"""Rule f (``section-clock``) on synthetic figures with stated emulated ranges: the factor
arithmetic and when the rule speaks. The figures state their rates, the ranges are written in
the tests; no kernel runs. Through the pipeline, the section-clock rule reads the same emulations as the emulator rule."""

from __future__ import annotations

from sanity_fakes import by_variant_and_kind, stated_context, with_cycles_per_byte

from refbench.published.model import load_figures, load_parts
from refbench.published.normalise import normalise
from refbench.sanity import clock, judge
from refbench.sanity.emulation import Emulation

PARTS = load_parts()
#: Page context: wolfSSL 5.6.0 on the STM32H563ZI, stated at 150 MHz (the part's maximum is 250 MHz).
TEMPLATE = next(f for f in load_figures() if f.part == "STM32H563ZI" and f.implementation == "software"
                and f.algorithm == "AES-128-CBC" and f.operation == "encrypt")
#: Six synthetic figures of that section, stating 10, 20, .. 60 cycles per byte at 150 MHz.
SECTION = [with_cycles_per_byte(TEMPLATE, f"syn-h563-{k}", 10.0 * k, algorithm=f"ALG-{k}") for k in range(1, 7)]


def test_best_factor_is_the_smallest_shared_by_the_most_intervals():
    # At 1.0 only the third interval holds; from 1.5 the first two as well; 2.5 is beyond the maximum.
    intervals = [(1.5, 3.0), (1.4, 2.0), (0.5, 1.6), (2.5, 4.0)]
    assert clock.best_factor(intervals, most=2.0) == (1.5, 3)
    assert clock.best_factor(intervals, most=1.2) == (1.0, 1)  # no factor above 1 helps within 1.2


def _emulations(factors: list[tuple[float, float]], position: str) -> dict[str, Emulation]:
    """Emulations whose range is published x (lo, hi) for each figure of the section."""
    out = {}
    for f, (lo, hi) in zip(SECTION, factors):
        published = normalise(f).cycles_per_byte
        out[f.id] = Emulation(f.id, "emulated", "", published * lo, published * hi, published=published,
                              position=position if lo > 1 else "inside")
    return out


def test_a_section_faster_than_every_variant_is_given_the_clock_that_fits():
    assert TEMPLATE.clock_mhz == 150.0
    emulations = _emulations([(1.5, 3.0), (1.4, 2.0), (1.45, 5.0), (1.3, 1.6), (2.1, 4.0), (0.8, 1.2)], "faster")
    findings = clock.rule_section_clock(SECTION, PARTS, emulations)
    # Five are faster at 150 MHz; at 1.5 x 150 = 225 MHz four of the six are inside (not the
    # one needing 2.1x nor the one whose range ends at 1.2x); at 150 MHz only the last one.
    assert [figure_id for figure_id, _ in findings] == [f.id for f in SECTION[:5]]
    message = findings[0][1].message
    assert findings[0][1].rule == "section-clock" and findings[0][1].verdict == "suspicious"
    assert "at the stated 150 MHz: 1 inside their emulated ranges, 5 faster than every variant" in message
    assert "at 225 MHz (1.50x, within the STM32H563ZIT6 maximum 250 MHz) 4 would be inside" in message
    assert "(not: ALG-5 encrypt, ALG-6 encrypt)" in message
    # one finding for the whole section; with it, what 225 MHz makes of each figure: inside (the clock's
    # gap, no kernel gap) for the first four; the fifth needs 2.1x, beyond the named clock
    assert len({finding for _, finding in findings}) == 1
    clauses = [clause for _, _, clause in clock.section_clock(SECTION, PARTS, emulations)]
    for clause in clauses[:4]:
        assert clause.startswith("faster than every variant at the stated 150 MHz only: at 225 MHz inside")
        assert clause.endswith("so its gap is the section's clock, not a kernel gap")
    assert clauses[4] == ("still faster than every variant at 225 MHz (its emulated range needs 2.10x the stated "
                          "clock): a gap the section's clock does not close")


def test_no_finding_when_the_stated_clock_fits_or_no_clock_helps():
    assert clock.rule_section_clock(SECTION, PARTS, _emulations([(0.5, 2.0)] * 6, "inside")) == []
    # Faster than every variant, but each would need more than the part maximum (250/150 = 1.67x).
    assert clock.rule_section_clock(SECTION, PARTS, _emulations([(1.8, 3.0)] * 6, "faster")) == []


def test_a_small_section_is_not_examined():
    assert clock.rule_section_clock(SECTION[:4], PARTS, _emulations([(1.5, 3.0)] * 4, "faster")) == []


def test_through_the_pipeline_rule_f_reads_rule_e_s_emulations():
    """Stated: every AES variant needs 15..24 c/B in every configuration; the section states 10 c/B
    for each figure (all faster at 150 MHz) -> at 1.5 x 150 = 225 MHz all six are inside."""
    section = [with_cycles_per_byte(TEMPLATE, f"syn-h563-same-{k}", 10.0) for k in range(6)]
    rate = by_variant_and_kind({"bytewise": 24.0, "ttable4": 15.0, "ttable1": 18.0, "bitsliced": 20.0},
                               {"cache on": 1.0, "cache off": 1.0, "tables in SRAM": 1.0, "code in SRAM": 1.0,
                                "cache on, prefetch off": 1.0, "prefetch only": 1.0, "flash": 1.0})
    context, executor = stated_context(rate)
    report = judge(section, PARTS, context)
    assert executor.calls == 1
    for j in report.judgements:
        rules = [f.rule for f in j.findings]
        assert rules[-2:] == ["emulator", "section-clock"]
        assert "at 225 MHz (1.50x" in j.findings[-1].message and "6 would be inside" in j.findings[-1].message
        # the emulator finding keeps its verdict and says its comparison holds at the stated clock
        emulator = j.findings[-2]
        assert emulator.message.endswith("so its gap is the section's clock, not a kernel gap")
        assert "; at the stated clock only -- the section's clock finding ([section-clock]) of this figure: " \
            in emulator.message


#: The rival's context: wolfSSL on the STM32L562E (Cortex-M33 like the H563), another board.
L562 = next(f for f in load_figures() if f.part == "STM32L562E" and f.implementation == "software"
            and f.algorithm == "AES-128-CBC" and f.operation == "encrypt")


def _section_of(template, prefix: str, factors: list[tuple[float, float]]) -> tuple[list, dict[str, Emulation]]:
    figures = [with_cycles_per_byte(template, f"{prefix}-{k}", 10.0 * (k + 1), algorithm=f"ALG-{k + 1}")
               for k in range(len(factors))]
    out = {}
    for f, (lo, hi) in zip(figures, factors):
        published = normalise(f).cycles_per_byte
        out[f.id] = Emulation(f.id, "emulated", "", published * lo, published * hi, published=published,
                              position="faster" if lo > 1 else "inside")
    return figures, out


def test_the_rival_a_model_too_slow_on_the_core_is_named_when_other_boards_need_the_same_factor():
    h563, eh = _section_of(TEMPLATE, "syn-h563-rival", [(1.5, 3.0)] * 6)
    same, es = _section_of(L562, "syn-l562-same", [(1.55, 3.0)] * 6)  # needs 1.55x: within x/1.25 of 1.5
    findings = dict(clock.rule_section_clock(h563 + same, PARTS, {**eh, **es}))
    message = findings[h563[0].id].message
    assert "figures of the same core (Cortex-M33) on other boards need the same factor" in message
    assert "STM32L562E @ 110 MHz needs 1.55x" in message
    assert "a cycle model uniformly too slow on Cortex-M33 is the likelier cause" in message
    clause = dict((i, c) for i, _, c in clock.section_clock(h563 + same, PARTS, {**eh, **es}))[h563[0].id]
    assert clause.endswith("so its gap is the Cortex-M33 cycle model (the likelier cause it names), not a kernel gap")
    # The other board fits at its stated clock: the rival is not supported, the clock is named.
    fits, ef = _section_of(L562, "syn-l562-fits", [(0.8, 1.2)] * 6)
    findings = dict(clock.rule_section_clock(h563 + fits, PARTS, {**eh, **ef}))
    message = findings[h563[0].id].message
    assert "the page's clock may not be the one the figures ran at" in message
    assert "no other board's figures of this core need the same factor" in message
    # Another board of the same core needing a different factor (2.5x) is no rival either.
    other, eo = _section_of(L562, "syn-l562-other", [(2.5, 3.0)] * 6)
    findings = dict(clock.rule_section_clock(h563 + other, PARTS, {**eh, **eo}))
    assert "no other board's figures of this core need the same factor" in findings[h563[0].id].message


def test_the_section_finding_uses_its_public_key_figures_and_the_library_elsewhere():
    """Four symmetric figures and two public-key ones (per operation) of one section, all faster
    than every variant at the stated clock and inside at 1.5x: the public-key figures count, and
    their per-cycle ratio to the same library's figures of the same claim on another part of the
    core is printed: 0.50 at the stated clock, 0.75 at 1.5x, nearer 1."""
    from sanity_fakes import synthetic

    keygen = next(f for f in load_figures() if f.part == "STM32H563ZI" and f.algorithm == "ECC-P256"
                  and f.operation == "keygen")
    pubkey = [synthetic(keygen, f"syn-pk-{k}", value=1.0, text="1.000", algorithm=a, operation=o)
              for k, (a, o) in enumerate((("ECC-P256", "keygen"), ("ECDH-P256", "agree")))]
    partners = [synthetic(p, f"{p.id}-elsewhere", value=2.0, text="2.000", part="STM32U585", section="elsewhere")
                for p in pubkey]
    emulations = _emulations([(1.5, 3.0)] * 4, "faster")
    for f in pubkey:
        cycles = normalise(f).cycles_per_op
        emulations[f.id] = Emulation(f.id, "emulated", "", cycles * 1.4, cycles * 2.0, published=cycles,
                                     position="faster", unit="cycles")
    findings = dict(clock.rule_section_clock(SECTION[:4] + pubkey + partners, PARTS, emulations))
    assert set(findings) == {f.id for f in SECTION[:4]} | {f.id for f in pubkey}
    message = findings[pubkey[0].id].message
    assert "6 emulated figures (2 of them public-key, per operation)" in message
    assert "ECC-P256 keygen 0.50 -> 0.75" in message and "2 of 2 come nearer 1 at the named clock" in message
