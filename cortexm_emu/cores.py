"""What differs between cores, as data: the Unicorn CPU model and system registers.

Adding a core is a new row here plus its timing model (M7 and M33: timing/pipeline.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from unicorn import arm_const


@dataclass(frozen=True)
class CoreInfo:
    name: str
    title: str
    unicorn_model: int
    #: DWT->CYCCNT exists (ARMv7-M; the ARMv6-M DWT has no cycle counter:
    #: Cortex-M0+ TRM DDI 0484C §4.3 lists no CYCCNT; ARMv6-M ARM DDI 0419E C1.8).
    has_cyccnt: bool
    #: SCB->CPUID reset value (Cortex-M0 TRM DDI 0432C §4.3.1; M0+ DDI 0484C §4.3;
    #: M3 r2p1 100165 §4.3; M4 r0p1 DDI 0439D §4.3).
    cpuid: int
    #: the FPU is present and enabled (the m4f/m7f/m33f names; Unicorn's M4/M7/M33 models
    #: execute FP instructions out of reset, checked with unicorn 2.1.4, so nothing needs enabling)
    fpu: bool = False


CORES: dict[str, CoreInfo] = {
    # Unicorn has one ARMv6-M model (Cortex-M0); M0 and M0+ share the instruction set,
    # they differ in timing only, which the timing model supplies.
    "m0": CoreInfo("m0", "Cortex-M0", arm_const.UC_CPU_ARM_CORTEX_M0, False, 0x410CC200),
    "m0plus": CoreInfo("m0plus", "Cortex-M0+", arm_const.UC_CPU_ARM_CORTEX_M0, False, 0x410CC601),
    "m3": CoreInfo("m3", "Cortex-M3", arm_const.UC_CPU_ARM_CORTEX_M3, True, 0x412FC231),
    "m4": CoreInfo("m4", "Cortex-M4", arm_const.UC_CPU_ARM_CORTEX_M4, True, 0x410FC241),
    # CPUID: Cortex-M7 r1p2 TRM (DDI 0489F) §3.2 "CPUID 0x411FC272" (implementer 0x41, variant 1,
    # PARTNO 0xC27, revision 2); Cortex-M33 r0p4 TRM (100230_0004) §3.2 "CPUID 0x410FD214"
    # (PARTNO 0xD21). Both have DWT CYCCNT (ARMv7-M ARM DDI 0403E C1.8; ARMv8-M ARM DDI 0553 B11).
    "m7": CoreInfo("m7", "Cortex-M7", arm_const.UC_CPU_ARM_CORTEX_M7, True, 0x411FC272),
    "m33": CoreInfo("m33", "Cortex-M33", arm_const.UC_CPU_ARM_CORTEX_M33, True, 0x410FD214),
    # The same cores with their FPU (an implementation option: M4 TRM DDI 0439D §7.1, M7 TRM DDI
    # 0489F §1.2, M33 TRM 100230 §1.2); same CPUID (the FPU is identified by MVFR0/1, not CPUID).
    "m4f": CoreInfo("m4f", "Cortex-M4F", arm_const.UC_CPU_ARM_CORTEX_M4, True, 0x410FC241, True),
    "m7f": CoreInfo("m7f", "Cortex-M7 with FPU", arm_const.UC_CPU_ARM_CORTEX_M7, True, 0x411FC272, True),
    "m33f": CoreInfo("m33f", "Cortex-M33 with FPU", arm_const.UC_CPU_ARM_CORTEX_M33, True, 0x410FD214, True),
}


def core_info(core: str) -> CoreInfo:
    if core not in CORES:
        raise ValueError(f"Invalid core {core!r}; accepted: {', '.join(CORES)}")
    return CORES[core]
