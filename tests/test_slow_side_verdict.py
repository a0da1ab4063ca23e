"""A side no rule bounds is untested on that side, never explained (issue 27): on a board whose
caches-off path the emulator times as a lower bound (the board profile's [memory] uncached_path,
APPROXIMATIONS.md 46-48, 51), a build predicted with the caches off has no slow edge, and a
figure above its prediction is untested there (its finding tests only the bound); the fast side
stays tested. Synthetic figures with stated cycle counts; real figures lend only their page context."""

from __future__ import annotations

from sanity_fakes import stated_context, with_cycles_per_byte

from cortexm_emu.boards import load_board
from refbench.published.model import load_figures, load_parts
from refbench.sanity import judge
from refbench.sanity.compiler_band import foreign_family
from refbench.sanity.memory_configs import slow_side_unbounded

FIGURES = {f.id: f for f in load_figures()}
PARTS = load_parts()
#: wolfSSL 4.4.1 SHA-256 (GCC, STM32CubeIDE) on the NUCLEO-H753ZI and the STM32L562E-DK: the page
#: states no cache setting; the build model's start-up default there is caches off (builds.toml).
H753_SHA256, L562_SHA256 = FIGURES["000-0089"], FIGURES["000-0402"]
#: wolfSSL 5.6.4 AES-128-CBC (GCC, STM32CubeIDE) on the NUCLEO-L4A6ZG: a board whose slow side is bounded.
L4_CBC = FIGURES["000-0301"]
#: CycloneCRYPTO 2.6.2 SHA3-256 on the STM32WL33 (Cortex-M0+), built with ARMCC -O3.
WL33_SHA3 = FIGURES["001-0064"]


def emulate(figure, cycles_per_byte: float):
    context, _ = stated_context(lambda m: cycles_per_byte)  # every variant, every configuration
    return judge([figure], PARTS, context).judgements, judge([figure], PARTS, context).emulations[figure.id]


def test_slower_than_every_allowed_build_on_a_bounded_board_is_inconsistent():
    _, e = emulate(with_cycles_per_byte(L4_CBC, "syn-l4-slow", 300.0), 100.0)
    assert e.position == "slower" and e.finding.verdict == "inconsistent" and e.finding.tests == "value"
    assert "slower than every allowed configuration x code path x compiler (bound used:" in e.explanation
    assert e.prediction.band_high is not None and e.prediction.envelope_high is not None


def test_slower_on_a_board_whose_caches_off_path_is_a_lower_bound_is_untested_not_explained():
    judgements, e = emulate(with_cycles_per_byte(H753_SHA256, "syn-h753-slow", 300.0), 100.0)
    p = e.prediction
    assert p.band_high is None and "APPROXIMATIONS.md 46, 47, 48" in p.open_high
    assert e.finding.verdict == "consistent" and e.finding.tests == "bound"
    assert "which no rule bounds" in e.explanation and "explained" not in e.finding.verdict
    (j,) = judgements
    assert not any(f.rule == "emulator" and f.tests == "value" for f in j.findings)
    assert e.as_json()["untested_side"] == ["slow"]
    # The fast side stays tested on the same board: far faster than every build is inconsistent.
    _, fast = emulate(with_cycles_per_byte(H753_SHA256, "syn-h753-fast", 30.0), 100.0)
    assert fast.finding.verdict == "inconsistent" and fast.finding.tests == "value"


def test_the_l562_icache_off_path_is_a_lower_bound_and_says_why():
    reason = slow_side_unbounded(load_board("stm32l562qe"))
    assert reason and "APPROXIMATIONS.md 51" in reason and "once per 32-bit fetch" in reason
    _, e = emulate(with_cycles_per_byte(L562_SHA256, "syn-l562-slow", 250.0), 100.0)
    assert e.finding.tests == "bound" and "stm32l562qe.toml [memory]" in e.prediction.open_high


def test_which_boards_have_an_unbounded_slow_side():
    for name in ("stm32h753zi", "stm32f777xi", "stm32f756zg", "stm32l562qe"):
        assert slow_side_unbounded(load_board(name)), name
    for name in ("stm32l4a6zg", "stm32f407vg", "stm32u585ai", "stm32wl33cc"):
        assert slow_side_unbounded(load_board(name)) is None, name


def test_a_compiler_we_do_not_run_is_bounded_by_the_measured_spread_of_ours():
    assert foreign_family("ARMCC") and foreign_family("IAR EWARM, IAR ANSI C/C++ Compiler V9.40.1.364")
    assert not foreign_family("GCC (STM32CubeIDE)") and not foreign_family("Clang")
    _, e = emulate(with_cycles_per_byte(WL33_SHA3, "syn-wl33-slow", 150.0), 100.0)
    compiler = next(t for t in e.prediction.terms if t.name == "compiler")
    assert "the page: ARMCC" in compiler.source or "not measured with both compilers" in compiler.source
    assert e.prediction.band_high is not None and e.finding.verdict in ("suspicious", "inconsistent")
