"""System registers on the Private Peripheral Bus that benchmark harnesses read.

* DWT->CTRL (0xE0001000) and DWT->CYCCNT (0xE0001004): the cycle counter runs
  while DEMCR.TRCENA (0xE000EDFC bit 24) and DWT_CTRL.CYCCNTENA (bit 0) are both
  set; writes set its value (ARMv7-M ARM DDI 0403E C1.8.6, C1.6.5). ARMv6-M
  cores (M0, M0+) have no CYCCNT: the DWT page is not mapped for them, so a
  read faults with UnmappedAccess instead of returning a meaningless number.
* SysTick (0xE000E010 CSR, 0xE000E014 RVR, 0xE000E018 CVR, 0xE000E01C CALIB),
  clocked by the core clock: CVR counts down by one per cycle while
  CSR.ENABLE is set, reloads RVR on the cycle after reaching 0 and then sets
  CSR.COUNTFLAG (cleared by reading CSR or writing CVR); a write to CVR clears
  it to 0 (DDI 0403E B3.3; ARMv6-M DDI 0419E B3.3). The SysTick exception
  (TICKINT) is not delivered: the emulator runs no interrupts.
  CALIB reads 0xC0000000 (NOREF=1, SKEW=1, TENMS=0: "calibration value not known").
* SCB->CPUID (0xE000ED00) reads the core's reset value; every other register
  of the mapped pages reads back what was last written (0 at reset).

The cycle count the code sees comes from ``now()``, which the machine computes
from the per-block counters and the position of the accessing instruction in
its block (see :meth:`cortexm_emu.pricing.Pricing.cycles_at_access`).
"""

from __future__ import annotations

from collections.abc import Callable

from cortexm_emu.cores import CoreInfo

DWT_BASE = 0xE000_1000
DWT_CTRL = 0xE000_1000
DWT_CYCCNT = 0xE000_1004
SCS_BASE = 0xE000_E000
SYST_CSR = 0xE000_E010
SYST_RVR = 0xE000_E014
SYST_CVR = 0xE000_E018
SYST_CALIB = 0xE000_E01C
SCB_CPUID = 0xE000_ED00
DEMCR = 0xE000_EDFC

DWT_PAGE = (DWT_BASE, 0x400)
SCS_PAGES = (SCS_BASE, 0x1000)

_MASK32 = 0xFFFF_FFFF
_MASK24 = 0x00FF_FFFF


class SystemPeripherals:
    """DWT cycle counter, SysTick and plain SCS registers, driven by the cycle model."""

    def __init__(self, core: CoreInfo, now: Callable[[int], int]) -> None:
        self.core = core
        self._now = now
        self.reset()

    def reset(self) -> None:
        self._registers: dict[int, int] = {}
        self._cyc_value = 0
        self._cyc_since: int | None = None  # cycle time the counter started running
        self._syst_csr = 0  # ENABLE, TICKINT, CLKSOURCE as written
        self._syst_rvr = 0
        self._syst_value = 0  # CVR at _syst_since (or frozen value when disabled)
        self._syst_since = 0
        self._syst_flag_cleared_at = 0
        self._syst_flag = False

    def mapped_pages(self) -> list[tuple[int, int]]:
        pages = [SCS_PAGES]
        if self.core.has_cyccnt:
            pages.insert(0, DWT_PAGE)
        return pages

    # -- DWT ---------------------------------------------------------------
    def _cyccnt_running(self) -> bool:
        return bool(self._registers.get(DEMCR, 0) & (1 << 24)) and bool(
            self._registers.get(DWT_CTRL, 0) & 1
        )

    def _cyccnt(self, now: int) -> int:
        if self._cyc_since is None:
            return self._cyc_value & _MASK32
        return (self._cyc_value + now - self._cyc_since) & _MASK32

    def _cyccnt_update(self, now: int, write_value: int | None = None) -> None:
        """Freeze the counter at ``now`` (optionally to a written value), then restart if enabled."""
        self._cyc_value = self._cyccnt(now) if write_value is None else write_value
        self._cyc_since = now if self._cyccnt_running() else None

    # -- SysTick -------------------------------------------------------------
    def _syst_period(self) -> int:
        return self._syst_rvr + 1

    def _syst_first_zero(self) -> int | None:
        """Cycle time at which the running counter first reaches 0 after _syst_since."""
        if self._syst_value > 0:
            return self._syst_since + self._syst_value
        if self._syst_rvr == 0:
            return None  # RVR = 0: the counter stays at 0, no wrap
        return self._syst_since + self._syst_period()

    def _syst_cvr(self, now: int) -> int:
        if not self._syst_csr & 1:
            return self._syst_value
        elapsed = now - self._syst_since
        if elapsed <= self._syst_value:
            return self._syst_value - elapsed
        if self._syst_rvr == 0:
            return 0
        return self._syst_rvr - ((elapsed - self._syst_value - 1) % self._syst_period())

    def _syst_wrapped_since_clear(self, now: int) -> bool:
        if self._syst_flag:
            return True
        if not self._syst_csr & 1:
            return False
        first = self._syst_first_zero()
        if first is None or first > now:
            return False
        last = first + ((now - first) // self._syst_period()) * self._syst_period()
        return last > self._syst_flag_cleared_at

    def _syst_freeze(self, now: int) -> None:
        self._syst_flag = self._syst_wrapped_since_clear(now)
        self._syst_flag_cleared_at = now
        self._syst_value = self._syst_cvr(now)
        self._syst_since = now

    # -- bus interface ---------------------------------------------------------
    def read(self, address: int, size: int) -> int:
        word_address = address & ~3
        value = self._read_word(word_address)
        shift = (address - word_address) * 8
        return (value >> shift) & ((1 << (8 * size)) - 1)

    def _read_word(self, address: int) -> int:
        if address == DWT_CYCCNT:
            return self._cyccnt(self._now(address))
        if address == SYST_CVR:
            return self._syst_cvr(self._now(address)) & _MASK24
        if address == SYST_CSR:
            now = self._now(address)
            flag = self._syst_wrapped_since_clear(now)
            self._syst_flag = False
            self._syst_flag_cleared_at = now
            return (self._syst_csr & 0x7) | (int(flag) << 16)
        if address == SYST_RVR:
            return self._syst_rvr
        if address == SYST_CALIB:
            return 0xC000_0000
        if address == SCB_CPUID:
            return self.core.cpuid
        return self._registers.get(address, 0)

    def write(self, address: int, size: int, value: int) -> None:
        word_address = address & ~3
        if size != 4:
            shift = (address - word_address) * 8
            mask = ((1 << (8 * size)) - 1) << shift
            old = (
                self._read_word(word_address) if word_address not in (SYST_CSR,) else self._syst_csr
            )
            value = (old & ~mask) | ((value << shift) & mask)
        value &= _MASK32
        if word_address == DWT_CYCCNT:
            self._cyccnt_update(self._now(address), value)
        elif word_address in (DEMCR, DWT_CTRL):
            now = self._now(address)
            current = self._cyccnt(now)
            self._registers[word_address] = value
            self._cyccnt_update(now, current)
        elif word_address == SYST_CSR:
            now = self._now(address)
            self._syst_freeze(now)
            self._syst_csr = value & 0x7
        elif word_address == SYST_RVR:
            now = self._now(address)
            self._syst_freeze(now)
            self._syst_rvr = value & _MASK24
        elif word_address == SYST_CVR:
            now = self._now(address)
            self._syst_freeze(now)
            self._syst_value = 0
            self._syst_flag = False
        elif word_address in (SCB_CPUID, SYST_CALIB):
            return  # read-only
        else:
            self._registers[word_address] = value
