"""The FPU option of the M4, M7 and M33 models: which FP instructions are priced or refused, and why.

A core whose data says the FPU is an implementation option (``[isa] fpu = true``) has FP classes
(``fpu = true`` in ``data/<core>.toml``) used only by a model built with ``fpu="on"``: the core
names ``m4f``, ``m7f``, ``m33f``, or a board profile whose ``[fpu]`` says the part has one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from capstone import arm as cs_arm

#: Core names with the FPU on: the same timing data plus its ``fpu = true`` classes.
FPU_VARIANTS: dict[str, str] = {"m4f": "m4", "m7f": "m7", "m33f": "m33"}
FPU_SETTINGS: tuple[str, ...] = ("off", "on")

#: extension groups no Cortex-M FPU has (Advanced SIMD and the other A-profile extensions)
_NEVER = frozenset({cs_arm.ARM_GRP_NEON, cs_arm.ARM_GRP_CRYPTO, cs_arm.ARM_GRP_CRC})
#: register moves, loads and stores: in every FPU, also for D registers
_TRANSFERS = frozenset({"vmov", "vldr", "vstr", "vldmia", "vldmdb", "vstmia", "vstmdb", "vpush", "vpop", "vmrs", "vmsr"})
#: cores whose FPU is single precision only, and the citation
_SINGLE_PRECISION = {
    "m4": "the Cortex-M4 FPU is single precision (FPv4-SP: DDI 0439D §7.1, 'single-precision data-processing instructions')",
    "m33": "the Cortex-M33 FPU is single precision (FPv5-SP: Cortex-M33 TRM 100230 §1.2)",
}


def transfer_words(registers: Sequence[str]) -> int:
    """Words a register list moves: a double-precision D register is two, any other one."""
    return sum(2 if r.startswith("d") and r[1:].isdigit() else 1 for r in registers)


def fp_refusal(model: Any, insn: Any, name: str, text: str, groups: set[int]) -> str | None:
    """Why ``model`` cannot execute the FP instruction ``insn`` (named ``name``), or None."""
    title = model.data.title
    if not model.fpu:
        if model.data.fpu_option:
            return (
                f"{text}: floating-point instruction; {title} is modelled without its FPU "
                f"(use core {model.core}f, or a board whose profile has fpu = true)"
            )
        return f"{text}: floating-point/SIMD-extension instruction; {title} has no FPU"
    if groups & _NEVER:
        return f"{text}: Advanced SIMD or A-profile extension instruction, not in the {title} FPU"
    if cs_arm.ARM_GRP_DPVFP in groups and model.core in _SINGLE_PRECISION and name not in _TRANSFERS:
        return f"{text}: double-precision arithmetic; {_SINGLE_PRECISION[model.core]}"
    if cs_arm.ARM_GRP_DPVFP in groups and name not in _TRANSFERS:
        # double-precision arithmetic is priced only by a class that says so (pattern "double"):
        # a single-precision count is never taken for it
        doubles = sorted({m for e in model.data.classes if e.fpu and e.pattern == "double" for m in e.mnemonics}
                         - _TRANSFERS)
        if name not in doubles:
            return (
                f"{text}: double-precision {name!r} has no cycle count in {model.data.path.name} "
                f"(double precision priced: {', '.join(doubles) or 'none'}); not modelled on {model.core}f"
            )
    if model._class_of(insn, name) is None:
        priced = ", ".join(sorted({m for e in model.data.classes if e.fpu for m in e.mnemonics}))
        return (
            f"{text}: FP instruction {name!r} has no cycle count in {model.data.path.name} "
            f"(priced: {priced}); not modelled on {model.core}f"
        )
    return None
