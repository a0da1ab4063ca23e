"""Floating-point arguments and results: the ELF's ABI (``Tag_ABI_VFP_args``) decides where they go.

:class:`F32` and :class:`F64` are ``float`` and ``double`` arguments. A hard-float ELF
(``Tag_ABI_VFP_args`` = 1, the AAPCS VFP variant, IHI 0042 §6.1.2 and §6.5) gets them in s0-s15 /
d0-d7 (:func:`split_vfp`) and returns a float in s0, a double in d0; a soft-float ELF (the base
AAPCS) gets their bits in core registers like ints and U64s (:func:`cortexm_emu.call.marshal`). An
ELF whose convention the machine cannot honour is refused by name (:func:`check_float_abi`,
:func:`check_vfp_used`).
"""

from __future__ import annotations

import struct
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from unicorn import Uc
from unicorn import arm_const as uc_arm

from cortexm_emu.elf import ElfImage
from cortexm_emu.errors import ElfError

#: S registers of the VFP variant's argument and result area: s0-s15 (= d0-d7), IHI 0042 §6.1.2.1
VFP_ARGUMENT_REGISTERS = 16


def _number(value: Any, what: str) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"Invalid {what}({value!r}); accepted: a number")
    if what == "F32":
        try:
            struct.pack("<f", float(value))
        except OverflowError:
            raise ValueError(f"Invalid F32({value!r}): out of the binary32 range (use F64)") from None


@dataclass(frozen=True)
class F32:
    """A ``float`` argument (IEEE 754 binary32): the next free S register of a hard-float ELF
    (back-filling, IHI 0042 §6.5 C.1.cp), else its 32 bits in a core register."""

    value: float

    def __post_init__(self) -> None:
        _number(self.value, "F32")

    def bits(self) -> int:
        return int.from_bytes(struct.pack("<f", float(self.value)), "little")


@dataclass(frozen=True)
class F64:
    """A ``double`` argument (IEEE 754 binary64): the next free D register of a hard-float ELF,
    else its 64 bits in an even core register pair or an 8-byte-aligned stack slot."""

    value: float

    def __post_init__(self) -> None:
        _number(self.value, "F64")

    def bits(self) -> int:
        return int.from_bytes(struct.pack("<d", float(self.value)), "little")


def split_vfp(args: Sequence[Any]) -> tuple[list[Any], dict[int, int]]:
    """Hard float (IHI 0042 §6.5 stage C, C.1.cp-C.2.cp): the F32/F64 arguments go to s0-s15 /
    d0-d7 in order, a float back-filling an S register a double's alignment left free; the other
    arguments stay, in order, for the core registers. Returns (the other arguments, {S register
    index: 32-bit word}). An FP argument past the VFP registers would go to the stack interleaved
    with the core-register overflow: refused by name rather than placed unlike a compiler."""
    rest: list[Any] = []
    used = [False] * VFP_ARGUMENT_REGISTERS
    words: dict[int, int] = {}
    for position, arg in enumerate(args):
        if isinstance(arg, F32):
            free = next((i for i in range(VFP_ARGUMENT_REGISTERS) if not used[i]), None)
            if free is None:
                raise ValueError(f"Invalid argument {position} (F32): more floating-point arguments than "
                                 "s0-s15 hold; stack-passed FP arguments are not supported")
            used[free] = True
            words[free] = arg.bits()
        elif isinstance(arg, F64):
            pair = next((i for i in range(0, VFP_ARGUMENT_REGISTERS, 2) if not used[i] and not used[i + 1]), None)
            if pair is None:
                raise ValueError(f"Invalid argument {position} (F64): more floating-point arguments than "
                                 "d0-d7 hold; stack-passed FP arguments are not supported")
            used[pair] = used[pair + 1] = True
            bits = arg.bits()
            words[pair], words[pair + 1] = bits & 0xFFFF_FFFF, bits >> 32
        else:
            rest.append(arg)
    return rest, words


def write_vfp(uc: Uc, words: Mapping[int, int]) -> None:
    """Hard float: s0-s31 set (the arguments of :func:`split_vfp`, the others 0), so the same call
    always starts from the same FP state."""
    for index in range(32):
        uc.reg_write(uc_arm.UC_ARM_REG_S0 + index, words.get(index, 0))


def read_vfp_result(uc: Uc) -> tuple[int, int]:
    """(s0, s1): a float result in s0, a double's in d0 = s1:s0."""
    return uc.reg_read(uc_arm.UC_ARM_REG_S0), uc.reg_read(uc_arm.UC_ARM_REG_S1)


def check_float_abi(image: ElfImage, core_title: str, has_fpu: bool) -> None:
    """Refuse an ELF whose calling convention the machine cannot honour (``Tag_ABI_VFP_args``)."""
    if image.vfp_args == 1 and not has_fpu:
        raise ElfError(str(image.path), "built for the hard-float ABI (Tag_ABI_VFP_args = 1: floating-point "
                       "arguments and results in VFP registers, AAPCS IHI 0042 §6.1.2), which needs an FPU; "
                       f"{core_title} is modelled without one: use core m4f, m7f or m33f, or a board whose part "
                       "has an FPU")
    if image.vfp_args == 2:
        raise ElfError(str(image.path), "built for a toolchain-specific floating-point calling convention "
                       "(Tag_ABI_VFP_args = 2); the emulator passes arguments by the AAPCS (base or VFP variant)")


def check_vfp_used(image: ElfImage, function: str, classes: Mapping[str, int], timing: Any) -> None:
    """A hard-float call that passed F32/F64 arguments in s/d registers must have run an FP
    instruction to read them; if it ran none, the ELF's build attributes contradict its code (zig cc
    given -mfloat-abi=hard for a CPU without its FP feature writes Tag_ABI_VFP_args = 1 over
    soft-float code) and the result would be wrong: refused by name."""
    fp_classes = {entry.name for entry in getattr(getattr(timing, "data", None), "classes", ()) if entry.fpu}
    if fp_classes and not any(classes.get(name) for name in fp_classes):
        raise ElfError(str(image.path), f"{function} took floating-point arguments in s/d registers as its "
                       "build attributes say (Tag_ABI_VFP_args = 1, hard float) but executed no floating-point "
                       "instruction, so it never read them: the attributes contradict the code (soft-float code "
                       "tagged hard-float, e.g. zig cc -mfloat-abi=hard without the CPU's FP feature; build with "
                       "-mcpu=cortex_m4+vfp4d16sp or arm-none-eabi-gcc -mfloat-abi=hard -mfpu=fpv4-sp-d16)")
