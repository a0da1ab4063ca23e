"""DWT->CYCCNT and SysTick register behaviour, driven by a cycle clock set by the test."""

from __future__ import annotations

import pytest

from cortexm_emu.cores import CORES
from cortexm_emu.ppb import (
    DEMCR,
    DWT_CTRL,
    DWT_CYCCNT,
    SCB_CPUID,
    SYST_CALIB,
    SYST_CSR,
    SYST_CVR,
    SYST_RVR,
    SystemPeripherals,
)


class Clock:
    def __init__(self) -> None:
        self.now = 0

    def __call__(self, _address: int) -> int:
        return self.now


@pytest.fixture
def clocked():
    clock = Clock()
    return clock, SystemPeripherals(CORES["m4"], clock)


def test_cyccnt_counts_only_while_trcena_and_cyccntena(clocked):
    clock, ppb = clocked
    clock.now = 10
    ppb.write(DWT_CTRL, 4, 1)
    clock.now = 40
    assert ppb.read(DWT_CYCCNT, 4) == 0  # TRCENA still clear
    ppb.write(DEMCR, 4, 1 << 24)
    clock.now = 70
    assert ppb.read(DWT_CYCCNT, 4) == 30
    ppb.write(DWT_CTRL, 4, 0)
    clock.now = 500
    assert ppb.read(DWT_CYCCNT, 4) == 30  # frozen while disabled
    ppb.write(DWT_CYCCNT, 4, 0xFFFF_FFF0)
    ppb.write(DWT_CTRL, 4, 1)
    clock.now = 532
    assert ppb.read(DWT_CYCCNT, 4) == 0x10  # wraps at 2**32
    assert ppb.read(DWT_CYCCNT + 2, 2) == 0


def test_systick_reloads_on_the_cycle_after_zero(clocked):
    clock, ppb = clocked
    ppb.write(SYST_RVR, 4, 9)
    ppb.write(SYST_CVR, 4, 1234)  # any write clears the counter
    assert ppb.read(SYST_CVR, 4) == 0
    clock.now = 100
    ppb.write(SYST_CSR, 4, 0b101)  # ENABLE, processor clock
    expected = {100: 0, 101: 9, 105: 5, 110: 0, 111: 9, 120: 0, 121: 9}
    for t, value in expected.items():
        clock.now = t
        assert ppb.read(SYST_CVR, 4) == value, t


def test_systick_countflag_is_set_by_reaching_zero_and_cleared_by_reading(clocked):
    clock, ppb = clocked
    ppb.write(SYST_RVR, 4, 9)
    clock.now = 100
    ppb.write(SYST_CSR, 4, 0b101)
    clock.now = 109
    assert ppb.read(SYST_CSR, 4) == 0b101
    clock.now = 110
    assert ppb.read(SYST_CSR, 4) == 0b101 | 1 << 16
    assert ppb.read(SYST_CSR, 4) == 0b101
    clock.now = 125
    assert ppb.read(SYST_CSR, 4) >> 16 == 1
    clock.now = 200
    ppb.write(SYST_CSR, 4, 0)  # disabled: frozen, no more wraps
    clock.now = 400
    assert ppb.read(SYST_CVR, 4) == ppb.read(SYST_CVR, 4)
    assert ppb.read(SYST_CSR, 4) >> 16 == 1  # the wrap at 200 happened before disabling
    assert ppb.read(SYST_CSR, 4) >> 16 == 0


def test_system_registers_read_back_and_identify_the_core(clocked):
    _clock, ppb = clocked
    assert ppb.read(SCB_CPUID, 4) == 0x410FC241
    assert ppb.read(SYST_CALIB, 4) == 0xC000_0000
    ppb.write(0xE000_ED08, 4, 0x2000_0000)  # VTOR: plain storage
    assert ppb.read(0xE000_ED08, 4) == 0x2000_0000
    ppb.write(SCB_CPUID, 4, 0)
    assert ppb.read(SCB_CPUID, 4) == 0x410FC241


def test_armv6m_cores_map_no_dwt_page():
    for core, has_dwt in (("m0", False), ("m0plus", False), ("m3", True), ("m4", True)):
        pages = SystemPeripherals(CORES[core], Clock()).mapped_pages()
        assert any(base == 0xE000_1000 for base, _size in pages) is has_dwt
