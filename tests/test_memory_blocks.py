"""The memory-block rule of the STM32F4 boards (cortexm_emu/memory_blocks.py, flash.py R8):
a load/store the Cortex-M4 model prices as pipelined after a load costs the credit back (+1) when
the two accesses lie in different memory blocks (jnk0le cortex_m3m4.md, measured on an F407).

Programs: tests/asm/memory/blocks.S. At 24 MHz the F407 flash has 0 wait states (RM0090 Table 11
via the profile), so the board memory adds nothing but this rule: every expected value below is
the number of pipelined pairs the source has, with the block of each access, never a run.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest
from datafiles import corrupt_copy

from cortexm_emu import Buffer, Machine, Pointer, UnalignedAccess
from cortexm_emu.boards import BOARD_DIR, load_board, load_board_file
from cortexm_emu.datafile import DataFileError
from cortexm_emu.flash import board_memory
from cortexm_emu.memory_blocks import FLASH, OTHER, BlockSwitches, block_ranges
from cortexm_emu.toolchain import build

ASM = Path(__file__).parent / "asm" / "memory"
F407 = "stm32f407vg"
ZERO_WS_MHZ = 24


@cache
def blocks_elf() -> Path:
    return build([ASM / "blocks.S"], "m4", opt="Os", extra_flags=["-Wl,--entry=cortexm_emu_halt"]).elf


def board_machine(accounting: str = "auto", **options: str) -> Machine:
    m = Machine("m4", board_memory(F407, ZERO_WS_MHZ, "on", **options), accounting=accounting)  # type: ignore[arg-type]
    m.load_elf(blocks_elf())
    return m


def ideal_cycles(function: str, *args: object) -> int:
    m = Machine("m4")
    m.load_elf(blocks_elf())
    return m.call(function, *args).cycles  # type: ignore[arg-type]


def buf(size: int = 32) -> Buffer:
    return Buffer(bytes(size))


@pytest.mark.parametrize("accounting", ["auto", "python"])
@pytest.mark.parametrize("n", [1, 7])
def test_flash_table_then_buffer_costs_one_cycle_per_pair(accounting, n):
    # one LDR (flash table) -> LDR (buffer, SRAM) pair per iteration: n pairs across blocks
    result = board_machine(accounting).call("flash_then_buffer", buf(), n)
    assert result.memory_counts["pipelined_pairs_checked"] == n
    assert result.memory_counts["block_switch_cycles"] == n
    assert result.cycles == ideal_cycles("flash_then_buffer", buf(), n) + n


@pytest.mark.parametrize("accounting", ["auto", "python"])
def test_two_loads_from_one_buffer_keep_their_pipelining(accounting):
    result = board_machine(accounting).call("buffer_twice", buf(), 5)
    assert result.memory_counts["pipelined_pairs_checked"] == 5
    assert result.memory_counts["block_switch_cycles"] == 0
    assert result.cycles == ideal_cycles("buffer_twice", buf(), 5)


def test_code_in_ram_puts_its_constants_in_the_data_block():
    # code="ram": the word the loop reads (in .text) is SRAM1 like the buffer: no switch
    result = board_machine(code="ram").call("flash_then_buffer", buf(), 4)
    assert result.memory_counts["pipelined_pairs_checked"] == 4
    assert result.memory_counts["block_switch_cycles"] == 0


def test_register_offset_load_then_store_across_blocks():
    # LDR.W [table, r1 LSL 2] (flash) -> STR.W [buffer, r1 LSL 2] (SRAM): one pair, +1
    result = board_machine().call("table_to_buffer", buf(), 3)
    assert result.memory_counts["block_switch_cycles"] == 1
    assert result.cycles == ideal_cycles("table_to_buffer", buf(), 3) + 1


@pytest.mark.parametrize("accounting", ["auto", "python"])
def test_buffers_in_ccm_split_the_stack_from_the_buffers(accounting):
    # LDR [sp] (stack placed with the buffers, in SRAM1, the profile's data block) -> LDR [buffer]
    same = board_machine(accounting, stack="SRAM1").call("stack_then_buffer", buf())
    ccm = board_machine(accounting, stack="SRAM1", buffers="CCM").call("stack_then_buffer", buf())
    assert same.memory_counts["block_switch_cycles"] == 0
    assert ccm.memory_counts["block_switch_cycles"] == 1
    assert ccm.cycles == same.cycles + 1 == ideal_cycles("stack_then_buffer", buf()) + 1


@pytest.mark.parametrize(("board", "stack"), [(F407, "SRAM2"), ("stm32f437ii", "SRAM3")])
def test_the_stack_is_where_the_default_linker_scripts_put_it(board, stack):
    # the top of the contiguous RAM (CubeIDE/CubeMX _estack, libopencm3 _stack): apart from the
    # buffers (SRAM1, with .data/.bss and the heap), so LDR [sp] -> LDR [buffer] switches blocks
    memory = board_memory(board, ZERO_WS_MHZ, "on")
    assert memory.describe()["stack"] == stack and memory.describe()["buffers"] == "SRAM1"
    m = Machine("m4", memory)
    m.load_elf(blocks_elf())
    result = m.call("stack_then_buffer", buf())
    assert result.memory_counts["block_switch_cycles"] == 1


def test_stack_and_buffers_placed_apart_or_together():
    # LDR [sp] -> LDR [buffer]: +1 exactly when the two placements differ
    cases = {("SRAM2", "SRAM1"): 1, ("CCM", "CCM"): 0, ("SRAM1", None): 0, ("CCM", None): 1, (None, None): 1,
             (None, "SRAM2"): 0}
    for (stack, buffers), switches in cases.items():
        options = ({"stack": stack} if stack else {}) | ({"buffers": buffers} if buffers else {})
        result = board_machine(**options).call("stack_then_buffer", buf())
        assert result.memory_counts["block_switch_cycles"] == switches, (stack, buffers)


def test_buffers_in_ccm_together_keep_pipelining_between_buffers():
    m = board_machine(buffers="CCM")
    a, b = buf(), buf()
    assert m.call("pair_loads", a, b).memory_counts["block_switch_cycles"] == 0


def test_conditional_pairs_are_not_checked():
    result = board_machine().call("conditional_pair", buf(), 1)
    assert result.memory_counts["pipelined_pairs_checked"] == 0
    assert result.cycles == ideal_cycles("conditional_pair", buf(), 1)


@pytest.mark.parametrize("accounting", ["auto", "python"])
def test_a_block_with_a_pair_keeps_its_alignment_check(accounting):
    # the pair's hook and the LDRD's alignment check are installed for the same block
    data = Buffer(bytes(16))
    m = board_machine(accounting)
    assert m.call("pair_then_ldrd", "b", Pointer("b", 8), buffers={"b": data}).memory_counts["block_switch_cycles"] == 1
    m = board_machine(accounting)
    with pytest.raises(UnalignedAccess, match="ldrd"):
        m.call("pair_then_ldrd", "b", Pointer("b", 9), buffers={"b": data})


def test_same_call_same_cycles():
    m = board_machine()
    runs = {m.call("flash_then_buffer", buf(), 9).cycles for _ in range(3)}
    assert len(runs) == 1


def test_block_map_names_flash_stack_buffers_and_ccm():
    memory = board_memory(F407, ZERO_WS_MHZ, "on", buffers="CCM")
    m = Machine("m4", memory)
    image = m.load_elf(blocks_elf())
    ranges, names = block_ranges(memory.board, m.layout, memory.flash_ranges(image.segments, image.sections), "CCM")

    def block(address: int) -> str:
        return next((names[b] for start, end, b in ranges if start <= address < end), OTHER)

    assert block(image.functions["flash_then_buffer"].address) == FLASH
    assert block(0x0800_0000) == FLASH
    assert block(m.stack_top - 4) == "SRAM2"  # the profile's stack_block
    assert block(m.layout.buffers_base) == "CCM"
    assert block(0x1000_0000) == "CCM"
    # the part's SRAM2 addresses lie inside the emulator's stack area here, which counts as SRAM2
    assert m.layout.stack_guard_start <= 0x2001_C000 < m.layout.buffers_base
    assert block(0x2001_C000) == "SRAM2"
    assert block(m.layout.stack_guard_start - 4) == "SRAM1"  # the program's own .data/.bss pages
    assert block(0x4000_0000) == OTHER


def test_rule_only_where_the_profile_has_it():
    m7 = Machine("m7", board_memory("stm32h753zi", 64, "on"))
    l4 = Machine("m4", board_memory("stm32l4a6zg", 16, "on"))
    assert BlockSwitches.for_machine(m7.memory, m7.timing, m7.uc) is None
    assert BlockSwitches.for_machine(l4.memory, l4.timing, l4.uc) is None
    assert Machine("m4")._block_switches is None
    assert board_machine()._block_switches is not None


def test_buffers_placement_is_checked():
    with pytest.raises(ValueError, match="Invalid buffers placement .'SRAM9'.*accepted: CCM, SRAM1, SRAM2"):
        board_memory(F407, ZERO_WS_MHZ, buffers="SRAM9")
    with pytest.raises(ValueError, match="stm32l4a6zg: its profile has no memory-block rule"):
        board_memory("stm32l4a6zg", 16, buffers="SRAM1")
    with pytest.raises(ValueError, match="Invalid stack placement .'DTCM'.*accepted: CCM, SRAM1, SRAM2"):
        board_memory(F407, ZERO_WS_MHZ, stack="DTCM")


def test_placement_is_in_the_name_and_description():
    memory = board_memory(F407, ZERO_WS_MHZ, buffers="CCM", stack="SRAM2")
    assert memory.name.endswith("stack in SRAM2, buffers in CCM")
    described = memory.describe()
    assert described["buffers"] == "CCM" and described["stack"] == "SRAM2"
    assert described["load_pipelining"] == "same-block"
    default = board_memory(F407, ZERO_WS_MHZ).describe()
    assert (default["buffers"], default["stack"]) == ("SRAM1", "SRAM2")


@pytest.mark.parametrize(
    ("board", "path", "rule"),
    [
        ("stm32f407vg", "bounded", ""),
        ("stm32f437ii", "bounded", ""),
        ("stm32h753zi", "lower-bound", "APPROXIMATIONS.md 46, 47, 48"),
        ("stm32f777xi", "lower-bound", "APPROXIMATIONS.md 46, 47, 48"),
        ("stm32f756zg", "lower-bound", "APPROXIMATIONS.md 46, 47, 48"),
        ("stm32l562qe", "lower-bound", "APPROXIMATIONS.md 51"),
        ("stm32g071rb", "bounded", ""),
    ],
)
def test_uncached_path_field(board, path, rule):
    profile = load_board(board)
    assert (profile.memory.uncached_path, profile.memory.uncached_rule) == (path, rule)
    assert board_memory(board, cache="off").describe()["uncached_path"] == path


@pytest.mark.parametrize(
    ("name", "old", "new", "field", "message"),
    [
        ("stm32f407vg", 'data_block = "SRAM1"', 'data_block = "SRAM4"', "memory.data_block", "'SRAM4' is not an [[sram]] region"),
        ("stm32f407vg", 'data_block = "SRAM1"\n', "", "memory.data_block", "required with load_pipelining"),
        ("stm32f407vg", 'stack_block = "SRAM2"', 'stack_block = "SRAM4"', "memory.stack_block", "'SRAM4' is not an [[sram]] region"),
        ("stm32f407vg", 'load_pipelining = "same-block"', 'load_pipelining = "any"', "memory.stack_block", "only with load_pipelining"),
        ("stm32f407vg", 'load_pipelining = "same-block"', 'load_pipelining = "block"', "memory.load_pipelining", "same-block"),
        ("stm32h753zi", 'uncached_rule = "APPROXIMATIONS.md 46, 47, 48"\n', "", "memory.uncached_rule", "required with uncached_path"),
        ("stm32h753zi", "uncached_read_bits = 64", "uncached_read_bits = 256", "memory.uncached_read_bits", "narrower than the flash line"),
        ("stm32h753zi", "uncached_read_bits = 64", "uncached_read_bits = 48", "memory.uncached_read_bits", "accepted: 32, 64 or 128"),
        ("stm32f407vg", 'uncached_path = "bounded"', 'uncached_path = "bounded"\nuncached_read_bits = 64', "memory.uncached_read_bits", "only with uncached_path"),
    ],
)
def test_bad_memory_table_names_the_field(tmp_path, name, old, new, field, message):
    path = corrupt_copy(BOARD_DIR / f"{name}.toml", tmp_path, old, new)
    with pytest.raises(DataFileError) as info:
        load_board_file(path)
    assert info.value.field == field
    assert message in str(info.value) and str(path) in str(info.value)
