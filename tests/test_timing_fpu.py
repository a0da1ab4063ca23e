"""FPU register moves, loads and stores (tests/asm/timing_fpu/fpu.S) on the cores with an FPU
(m4f, m7f, m33f), and the refusal of FP instructions on the cores or models without one.

Every M4F count is a sum of Cortex-M4 TRM DDI 0439D Table 7-1 entries (FP) and Table 3-1
entries (integer: MOVW 1, MOVS 1, BX LR 1 + P with P = 1, m4.toml), written by hand, never
copied from a run. Each function also returns a value that went through the FPU registers, so
Unicorn really executed them.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from cortexm_emu.errors import IllegalInstruction
from cortexm_emu.machine import Buffer, Machine
from cortexm_emu.timing import model_for
from cortexm_emu.toolchain import build

FPU_SOURCE = Path(__file__).resolve().parent / "asm" / "timing_fpu" / "fpu.S"
BX = 2  # BX LR: 1 + P (DDI 0439D Table 3-1, P = 1: m4.toml branch_refill)

# name -> (returned value, M4F cycles from DDI 0439D Table 7-1)
M4F = {
    # MOVW, MOVW | VMOV two core -> two floats 2 | VMOV two floats -> two core 2 | BX
    "park_pair": (0x5678, 1 + 1 + 2 + 2 + BX),
    # MOVW | VMOV one float <- core 1 | VMOV core <- one float 1 | BX
    "park_single": (0x4321, 1 + 1 + 1 + BX),
    # MOVW | VMOV 1 | VSTR.32 2 | VLDR.32 2 | VMOV 1 | BX
    "load_store_single": (0x2468, 1 + 1 + 2 + 2 + 1 + BX),
    # MOVW, MOVW | VMOV d <- two core 2 | VSTR.64 3 | VLDR.64 3 | VMOV two core <- d 2 | BX
    "load_store_double": (0x9BDF, 1 + 1 + 2 + 3 + 3 + 2 + BX),
    # MOVW | 4 x VMOV 1 | VSTM.32 of 4: 1 + 4 | VLDM.32 of 4: 1 + 4 | VMOV 1 | BX
    "multiple": (0x0ABC, 1 + 4 + 5 + 5 + 1 + BX),
    # MOVW | VMOV 1 | VPUSH.64 of 2 doubles: 1 + 2*2 | VMOV 1 | VPOP.64: 1 + 2*2 | VMOV 1 | BX
    "push_pop": (0x0DEF, 1 + 1 + 5 + 1 + 5 + 1 + BX),
    # VMRS 1 | VMSR 1 | MOVS 1 | BX
    "status": (7, 1 + 1 + 1 + BX),
    # VMOV 1 | VADD.F32 1 | VMOV 1 | BX
    "fp_add": (None, 1 + 1 + 1 + BX),
}


@cache
def elf() -> Path:
    return build([FPU_SOURCE], "m4", opt="Os", extra_flags=["-Wl,--entry=cortexm_emu_halt"]).elf


@cache
def machine(core: str) -> Machine:
    m = Machine(core)
    m.load_elf(elf())
    return m


@pytest.mark.parametrize("name", sorted(M4F))
def test_m4f_prices_fp_moves_loads_and_stores_from_table_7_1(name):
    value, cycles = M4F[name]
    result = machine("m4f").call(name, Buffer.zeros(64))
    assert result.cycles == cycles
    if value is not None:
        assert result.return_value == value


def test_m4f_fp_add_computes():
    # 1.0f + 1.0f = 2.0f through s0/s1
    assert machine("m4f").call("fp_add", 0x3F80_0000).return_value == 0x4000_0000


@pytest.mark.parametrize("core", ["m7f", "m33f"])
@pytest.mark.parametrize("name", ["park_pair", "park_single", "load_store_single", "load_store_double", "multiple", "push_pop"])
def test_m7f_m33f_run_code_that_parks_values_in_fpu_registers(core, name):
    value, _ = M4F[name]
    result = machine(core).call(name, Buffer.zeros(64))
    assert result.return_value == value
    assert result.cycles > 0
    assert machine(core).call(name, Buffer.zeros(64)).cycles == result.cycles  # deterministic


def _price(core: str, name: str):
    m = machine(core)
    m.call(name, Buffer.zeros(64))
    return m


def test_m7f_fp_multiple_transfers_take_ceil_words_over_two_single_issue():
    """jnk0le cortex_m7.md: 'vldm behaves as regular ldm' (ceil(N/2), single issue); a double is
    two words, so VPUSH {d8, d9} (4 words) takes 2 cycles; VSTM of 4 floats 2."""
    model = model_for("m7f")
    m = _price("m7f", "push_pop")
    start = m.image.functions["push_pop"].address
    insns = [i for b in m.pricing.blocks.values() for i in b.insns if start <= i.address < start + 0x20]
    vpush = next(i for i in insns if i.mnemonic == "vpush")
    op = model.op_of(vpush)
    assert (op.occupancy, op.issue) == (2, "single")
    m = _price("m7f", "multiple")
    start = m.image.functions["multiple"].address
    vstm = next(i for b in m.pricing.blocks.values() for i in b.insns if i.mnemonic == "vstmia")
    assert model.op_of(vstm).occupancy == 2


def test_m33f_fp_multiple_transfers_take_one_cycle_per_word():
    """[meas-j] cortex_m33.md: 'load/store multiple of x registers execute in exactly x cycles'."""
    model = model_for("m33f")
    m = _price("m33f", "push_pop")
    vpush = next(i for b in m.pricing.blocks.values() for i in b.insns if i.mnemonic == "vpush")
    assert model.op_of(vpush).occupancy == 4


@pytest.mark.parametrize("core", ["m0", "m0plus", "m3"])
def test_cores_without_an_fpu_refuse_fp_instructions(core):
    with pytest.raises(IllegalInstruction, match=r"vmrs r1, fpscr: floating-point/SIMD-extension instruction; .* has no FPU"):
        machine(core).call("status", Buffer.zeros(64))
    if core == "m3":
        with pytest.raises(IllegalInstruction, match=r"vmov s0, s1, r2, r3: floating-point/SIMD-extension instruction; .* has no FPU"):
            machine(core).call("park_pair", Buffer.zeros(64))


@pytest.mark.parametrize("core", ["m4", "m7", "m33"])
def test_models_without_the_fpu_refuse_and_name_the_variant(core):
    with pytest.raises(IllegalInstruction, match=rf"modelled without its FPU \(use core {core}f, or a board whose profile has fpu = true\)"):
        machine(core).call("park_pair", Buffer.zeros(64))


def test_m4f_refuses_double_precision_arithmetic_citing_the_trm():
    with pytest.raises(IllegalInstruction, match=r"vadd.f64 .*double-precision arithmetic; the Cortex-M4 FPU is single precision \(FPv4-SP: DDI 0439D"):
        machine("m4f").call("fp_add_double", 1)


@pytest.mark.parametrize("core", ["m7f", "m33f"])
def test_m7f_m33f_price_fp_arithmetic(core):
    """Issue 32: the M7 and M33 FPUs' arithmetic is priced (tests/test_fpu_cores.py has the counts)."""
    m = machine(core)
    result = m.call("fp_add", 0x3F80_0000)  # 1.0f + 1.0f
    assert result.return_value == 0x4000_0000 and result.classes.get("fp_alu") == 1


def test_fpu_option_and_variant_names():
    assert model_for("m4f").fpu and model_for("m4", fpu="on").fpu and not model_for("m4").fpu
    assert model_for("m4f").version == model_for("m4", fpu="on").version != model_for("m4").version
    assert model_for("m4", fpu="off").version == model_for("m4").version
    with pytest.raises(ValueError, match=r"Invalid option 'fpu' for core 'm3'; accepted: other_end$"):
        model_for("m3", fpu="on")
    with pytest.raises(ValueError, match=r"Invalid fpu 'yes' for core 'm4'; accepted: off, on"):
        model_for("m4", fpu="yes")
    with pytest.raises(ValueError, match=r"Invalid fpu 'off' for core 'm7f'"):
        model_for("m7f", fpu="off")
