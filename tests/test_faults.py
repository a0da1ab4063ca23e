"""One test per emulator fault: each is an EmulatorError subclass whose message names the core,
the PC as symbol+offset, the address and its region, and the instruction."""

from __future__ import annotations

from pathlib import Path

import pytest
from unicorn.arm_const import UC_ARM_REG_R0

from cortexm_emu import (
    BudgetExceeded,
    Buffer,
    BufferOverrun,
    EmulatorError,
    HardFault,
    IllegalInstruction,
    Machine,
    ProtectedAccess,
    StackOverflow,
    UnalignedAccess,
    UnmappedAccess,
)
from cortexm_emu.toolchain import build

ASM = Path(__file__).parent / "asm" / "machine"


def machine(core: str, name: str = "calls.c", built_for: str | None = None, **kwargs) -> Machine:
    m = Machine(core, **kwargs)
    m.load_elf(build([ASM / name], built_for or core).elf)
    return m


def test_unmapped_read_names_address_region_and_instruction():
    with pytest.raises(UnmappedAccess) as info:
        machine("m4").call("read_unmapped")
    error = info.value
    assert error.address == 0x6000_0000 and isinstance(error, EmulatorError)
    message = str(error)
    assert "read of 4 bytes at unmapped address 0x60000000 (External RAM" in message
    assert "Cortex-M4 at PC=" in message and "(read_unmapped+0x" in message and ": ldr" in message


def test_write_to_code_is_a_protected_access():
    m = machine("m4")
    with pytest.raises(ProtectedAccess) as info:
        m.call("write_to_code")
    assert info.value.address == m.image.functions["leaf"].address & ~3
    assert "code/read-only segment" in str(info.value) and "(write_to_code+0x" in str(info.value)


@pytest.mark.parametrize("core", ["m0", "m0plus"])
@pytest.mark.parametrize("function, mnemonic", [("uses_it", "ite"), ("uses_cbz", "cbz")])
def test_armv7m_instruction_on_armv6m_core_is_illegal_before_it_runs(core, function, mnemonic):
    m = machine(core, "v7m_only.S", built_for="m3")
    with pytest.raises(IllegalInstruction) as info:
        m.call(function, 0, 0)
    message = str(info.value)
    assert f"Cortex-M0{'+' if core == 'm0plus' else ''} at PC=" in message
    assert f"({function}" in message and f": {mnemonic}" in message
    # refused before the block ran: r0 still holds the argument
    assert m.uc.reg_read(UC_ARM_REG_R0) == 0


class _NoCheck:
    """The M3 timing model with the instruction-set check switched off, to see Unicorn's own."""

    def __init__(self) -> None:
        from cortexm_emu.timing import model_for

        self._model = model_for("m3")

    def check(self, insn) -> None:
        return None

    def __getattr__(self, name: str):
        return getattr(self._model, name)


def test_unicorn_runs_the_real_m0_model_not_an_m33():
    m = Machine("m0", timing=_NoCheck())
    m.load_elf(build([ASM / "v7m_only.S"], "m3").elf)
    assert m.call("uses_it", 4, 4).return_value == 1  # Unicorn's M0 model runs IT (hence our check)
    with pytest.raises(IllegalInstruction, match=r"rejected by Unicorn's Cortex-M0 model.*add\.w"):
        m.call("uses_add_w", 1, 2)
    m3 = Machine("m3")
    m3.load_elf(build([ASM / "v7m_only.S"], "m3").elf)
    assert m3.call("uses_add_w", 1, 2).return_value == 3


def test_dsp_instruction_is_illegal_on_m3_and_runs_on_m4():
    with pytest.raises(IllegalInstruction, match=r"Cortex-M3 at PC=.*\(uses_dsp\): uadd8"):
        machine("m3", "dsp.S", built_for="m4").call("uses_dsp", 1, 2)
    result = machine("m4", "dsp.S").call("uses_dsp", 0x01FF_0203, 0x0101_0101)
    assert result.return_value == 0x0200_0304


def test_runaway_recursion_is_a_stack_overflow():
    with pytest.raises(StackOverflow) as info:
        machine("m0plus", stack_size=4096).call("recurse", 0)
    message = str(info.value)
    assert "stack guard region" in message and "below the 4096-byte stack" in message
    assert "(recurse" in message and ": push" in message


@pytest.mark.parametrize("accounting", ["native", "python"])
def test_infinite_loop_exhausts_the_instruction_budget(accounting):
    m = machine("m4", accounting=accounting)
    with pytest.raises(BudgetExceeded) as info:
        m.call("spin", budget=5000)
    assert info.value.instructions <= 5000
    assert "instruction budget exhausted after" in str(info.value) and "(spin" in str(info.value)
    with pytest.raises(BudgetExceeded, match="cycle budget exhausted"):
        m.call("spin", cycle_budget=7000, budget=None)


def test_budget_is_deterministic():
    m = machine("m3")
    counts = set()
    for _ in range(2):
        with pytest.raises(BudgetExceeded) as info:
            m.call("stack_user", 500, budget=1234)
        counts.add((info.value.instructions, info.value.cycles))
    assert len(counts) == 1


def test_write_past_a_buffer_into_its_guard_is_caught_at_the_store():
    with pytest.raises(BufferOverrun) as info:
        machine("m4").call("fill", Buffer.zeros(16), 17, 0)
    message = str(info.value)
    assert "offset 16, past the end of buffer 0 (16 bytes at" in message
    assert "(fill+0x" in message and ": strb" in message


def test_write_into_the_slack_after_a_buffer_is_found_after_the_call():
    with pytest.raises(
        BufferOverrun, match=r"offset 13, past the end of buffer 0 \(13 bytes.*PC unknown"
    ):
        machine("m0").call("fill", Buffer.zeros(13), 14, 0)


def test_wild_write_into_unowned_sram_is_a_buffer_overrun():
    with pytest.raises(
        BufferOverrun, match=r"write of 4 bytes outside the call's stack, buffers and \.data/\.bss"
    ):
        machine("m3").call("write_past_data")


def test_unaligned_word_store_on_armv6m_is_a_hardfault():
    with pytest.raises(
        UnalignedAccess, match=r"HardFault \(unaligned access\): .* on Cortex-M0\+ at PC=.*\(store_unaligned"
    ):
        machine("m0plus").call("store_unaligned", Buffer.zeros(8), 1)
    result = machine("m4").call("store_unaligned", Buffer.zeros(8), 0x0403_0201)
    assert result.buffers[0] == bytes([0, 1, 2, 3, 4, 0, 0, 0])


def test_dwt_cycle_counter_does_not_exist_on_armv6m():
    with pytest.raises(UnmappedAccess, match=r"DWT: Cortex-M0\+ has no cycle counter"):
        machine("m0plus", "system.S").call("dwt_delta")


def test_machine_keeps_working_after_a_fault():
    m = machine("m4")
    with pytest.raises(UnmappedAccess):
        m.call("read_unmapped")
    assert m.call("negate", 9).return_value_signed == -9


# -- issue 19 item 2: alignment faults ---------------------------------------------------------

V7_AND_V8 = ["m3", "m4", "m7", "m33"]


@pytest.mark.parametrize("core", V7_AND_V8)
@pytest.mark.parametrize(
    "function, mnemonic, verb",
    [
        ("u_ldrd", "ldrd", "reads 8"),
        ("u_strd", "strd", "writes 8"),
        ("u_ldm", "ldm", "reads 8"),
        ("u_stm", "stm", "writes 8"),
        ("u_ldrex", "ldrex", "reads 4"),
        ("u_strex", "strex", "writes 4"),
    ],
)
def test_unaligned_multiword_access_is_a_usagefault_on_armv7m_and_armv8m(core, function, mnemonic, verb):
    m = machine(core, "unaligned.S", built_for="m4")
    with pytest.raises(UnalignedAccess) as info:
        m.call(function, Buffer(bytes(range(16))), 0x55)
    error = info.value
    assert isinstance(error, HardFault)  # a UsageFault escalates to HardFault at reset
    assert error.address == m._arena.allocations[0].address + 1
    message = str(error)
    assert message.startswith(f"UsageFault: unaligned access: {mnemonic} {verb} bytes")
    assert "A3.2.1" in message and "offset 1 of buffer 0 (16 bytes at" in message
    assert f"at PC=0x{error.site.pc:08x} ({function}+0x2): {mnemonic}" in message
    # stopped before the store: the buffer is untouched
    assert bytes(m.uc.mem_read(error.address - 1, 16)) == bytes(range(16))


@pytest.mark.parametrize("core", V7_AND_V8)
def test_unaligned_ldr_runs_and_aligned_multiword_access_runs(core):
    m = machine(core, "unaligned.S", built_for="m4")
    assert m.call("u_ldr", Buffer(bytes(range(8))), 0).return_value == 0x0403_0201
    data = (1).to_bytes(4, "little") + (2).to_bytes(4, "little")
    assert m.call("a_ldrd_ldm", Buffer(data), 0).return_value == 3


@pytest.mark.parametrize("core", ["m4", "m33"])
def test_unaligned_ldrd_whose_it_condition_fails_does_not_fault(core):
    m = machine(core, "unaligned.S", built_for="m4")
    assert m.call("u_ldrd_skipped", Buffer(bytes(8)), 0).return_value == 7
    with pytest.raises(UnalignedAccess, match=r"ldrd reads 8 bytes"):
        m.call("u_ldrd_skipped", Buffer(bytes(8)), 1)


@pytest.mark.parametrize("core", ["m0", "m0plus"])
@pytest.mark.parametrize(
    "function, text, address_offset",
    [("v6_ldr", "ldr reads 4 bytes", 1), ("v6_strh", "strh writes 2 bytes", 3), ("v6_stm", "stm writes 8 bytes", 1)],
)
def test_every_unaligned_access_on_armv6m_is_a_hardfault_named_unaligned(core, function, text, address_offset):
    m = machine(core, "v6m_unaligned.S", built_for="m0")
    with pytest.raises(UnalignedAccess) as info:
        m.call(function, Buffer(bytes(8)), 1, 2)
    message = str(info.value)
    assert message.startswith(f"HardFault (unaligned access): {text}")
    assert "data abort" not in message and "A3.2" in message
    assert info.value.address == m._arena.allocations[0].address + address_offset
    assert f"({function}+0x2)" in message
    assert m.call("v6_ldrb", Buffer(b"\x00\x09"), 0).return_value == 9  # bytes are never unaligned


def test_unaligned_fault_in_the_cli_reads_unaligned_not_data_abort(capsys):
    from cortexm_emu.cli import main

    elf = str(build([ASM / "v6m_unaligned.S"], "m0").elf)
    assert main(["run", elf, "v6_ldr", "--core", "m0plus", "--buf", "size:8"]) == 1
    err = capsys.readouterr().err
    assert "UnalignedAccess: HardFault (unaligned access): ldr reads 4 bytes" in err
    assert "HardFault: HardFault" not in err and "Traceback" not in err


@pytest.mark.parametrize("core", ["m0", "m0plus", "m3", "m4", "m7", "m33"])
def test_sp_written_with_low_bits_set_stays_word_aligned_for_push_and_pop(core):
    m = machine(core, "v6m_unaligned.S", built_for="m0")
    result = m.call("sp_misalign")
    assert result.return_value == m.stack_top & ~7  # bits[1:0] of the written value ignored
