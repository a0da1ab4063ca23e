"""A figure slower than every emulated variant in every memory configuration: suspicious where the
slow side is bounded, explained -- with what was and was not tested -- where it is not: a board
whose caches-off path the emulator times as a lower bound (the board profile's [memory] uncached_path,
APPROXIMATIONS.md 46-48), or a compiler of a family we do not run (ARMCC, IAR). Synthetic figures
with stated cycle counts; real figures lend only their page context."""

from __future__ import annotations

import dataclasses

from sanity_fakes import stated_context, with_cycles_per_byte

from cortexm_emu.boards import load_board
from refbench.published.model import load_figures, load_parts
from refbench.sanity import judge
from refbench.sanity.compiler_band import BAND_LEVELS, band_levels, foreign_family
from refbench.sanity.memory_configs import slow_side_unbounded

FIGURES = {f.id: f for f in load_figures()}
PARTS = load_parts()
#: wolfSSL 4.4.1 SHA-256 (GCC, STM32CubeIDE) on the NUCLEO-H753ZI and the STM32L562E-DK.
H753_SHA256, L562_SHA256 = FIGURES["000-0089"], FIGURES["000-0402"]
#: wolfSSL 5.6.4 AES-128-CBC (GCC, STM32CubeIDE) on the NUCLEO-L4A6ZG: a board whose slow side is bounded.
L4_CBC = FIGURES["000-0301"]
#: CycloneCRYPTO 2.6.2 SHA3-256 on the STM32WL33 (Cortex-M0+), built with ARMCC -O3.
WL33_SHA3 = FIGURES["001-0064"]


def emulate(figure, cycles_per_byte: float):
    context, _ = stated_context(lambda m: cycles_per_byte)  # every variant, every configuration
    return judge([figure], PARTS, context).emulations[figure.id]


def test_slower_than_every_configuration_on_a_bounded_board_with_our_compiler_family_is_suspicious():
    e = emulate(with_cycles_per_byte(L4_CBC, "syn-l4-slow", 300.0), 100.0)
    assert e.position == "slower" and e.finding.verdict == "suspicious"
    assert "no modelled configuration explains it" in e.explanation


def test_slower_on_a_board_whose_caches_off_path_is_a_lower_bound_is_explained_saying_what_was_tested():
    e = emulate(with_cycles_per_byte(H753_SHA256, "syn-h753-slow", 300.0), 100.0)
    assert e.position == "slower" and e.finding.verdict == "explained"
    assert "+200.0%" in e.explanation and "the slow side is not bounded here" in e.explanation
    assert "APPROXIMATIONS.md 46, 47, 48" in e.explanation and "stm32h753zi.toml [memory]" in e.explanation
    assert "Tested: the fast side" in e.explanation and "not evidence against the page" in e.explanation
    # The fast side stays tested on the same board: faster than every variant is still suspicious.
    assert emulate(with_cycles_per_byte(H753_SHA256, "syn-h753-fast", 30.0), 100.0).finding.verdict == "suspicious"


def test_the_l562_icache_off_path_is_a_lower_bound_and_says_why():
    reason = slow_side_unbounded(load_board("stm32l562qe"))
    assert reason and "APPROXIMATIONS.md 51" in reason and "once per 32-bit fetch" in reason
    e = emulate(with_cycles_per_byte(L562_SHA256, "syn-l562-slow", 250.0), 100.0)
    assert e.finding.verdict == "explained" and "caches-off path is a lower bound (cortexm_emu/boards/stm32l562qe.toml [memory]" in e.explanation


def test_which_boards_have_an_unbounded_slow_side():
    for name in ("stm32h753zi", "stm32f777xi", "stm32f756zg", "stm32l562qe"):
        assert slow_side_unbounded(load_board(name)), name
    for name in ("stm32l4a6zg", "stm32f407vg", "stm32u585ai", "stm32wl33cc"):
        assert slow_side_unbounded(load_board(name)) is None, name


def test_a_compiler_family_we_do_not_run_bounds_only_the_fast_side():
    assert foreign_family("ARMCC") and foreign_family("IAR EWARM, IAR ANSI C/C++ Compiler V9.40.1.364")
    assert not foreign_family("GCC (STM32CubeIDE)") and not foreign_family("Clang")
    assert not foreign_family("not stated") and not foreign_family("")  # no family named: ours still bound it
    e = emulate(with_cycles_per_byte(WL33_SHA3, "syn-wl33-slow", 150.0), 100.0)
    assert e.position == "slower" and e.finding.verdict == "explained"
    assert "the page's compiler (ARMCC, -O3) is of a family we do not run" in e.explanation
    # The same figure stated as built with clang: our compilers bound it, so it is suspicious.
    ours = dataclasses.replace(with_cycles_per_byte(WL33_SHA3, "syn-wl33-clang", 150.0), compiler="Clang")
    assert emulate(ours, 100.0).finding.verdict == "suspicious"


def test_armcc_without_otime_is_compared_with_our_size_and_stated_levels():
    assert band_levels("ARMCC", "-O3") == ("Os", "O3")  # armcc's default is -Ospace (Arm DUI 0375)
    assert band_levels("GCC (STM32CubeIDE)", "-Os") == ("Os",)
    assert band_levels("GCC (STM32CubeIDE)", "-O2") == ("O2",)
    assert band_levels("GCC (STM32CubeIDE)", "not stated") == BAND_LEVELS
