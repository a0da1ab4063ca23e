"""cortexm_emu.Machine: ELF loading, AAPCS calls, buffers, accounting, self-measuring code.

Cycle numbers here are checked for consistency (native vs Python accounting, repeat calls,
DWT/SysTick against the model's own block prices), not against the manuals: that is the
timing model's tests' job (tests/test_timing*.py).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cortexm_emu import (
    U64,
    Buffer,
    CalleeSavedClobbered,
    ElfError,
    EmulatorError,
    Machine,
    Pointer,
)
from cortexm_emu.native import load_native
from cortexm_emu.toolchain import build

ASM = Path(__file__).parent / "asm" / "machine"
CORES = ["m0", "m0plus", "m3", "m4"]
MASK32 = 0xFFFF_FFFF


def elf(name: str, core: str, **kwargs) -> Path:
    return build([ASM / name], core, **kwargs).elf


def machine(core: str, name: str = "calls.c", **kwargs) -> Machine:
    m = Machine(core, **kwargs)
    m.load_elf(elf(name, core))
    return m


# -- AAPCS calls ------------------------------------------------------------------------------


@pytest.mark.parametrize("core", CORES)
def test_eight_arguments_four_in_registers_four_on_the_stack(core):
    args = [0x11, 0x2222, 3, 0xFFFF_FFF0, 5, 6, 0x7777_7777, 8]
    result = machine(core).call("weighted", *args)
    assert result.return_value == sum((i + 1) * a for i, a in enumerate(args)) & MASK32


@pytest.mark.parametrize("core", ["m0plus", "m4"])
def test_64_bit_arguments_use_an_even_pair_and_an_aligned_stack_slot(core):
    a, b, c, d = 7, 0x1122_3344_5566_7788, 9, 0x8102_0304_0506_0708
    result = machine(core).call("mix64", a, U64(b), c, U64(d))
    expected = ((b ^ ((d << 1) & (2**64 - 1))) + a + (c << 32)) & (2**64 - 1)
    assert result.return_value64 == expected
    assert result.return_value == expected & MASK32


def test_negative_arguments_and_signed_return():
    m = machine("m4")
    assert m.call("negate", 5).return_value_signed == -5
    assert m.call("negate", -7).return_value == 7


@pytest.mark.parametrize("core", ["m0", "m4"])
def test_buffers_are_passed_by_address_and_read_back(core):
    dst, src = bytes([0x0F, 0x10, 0x20, 0x30, 0x40]), bytes([0xF0, 1, 2, 3, 4])
    result = machine(core).call("xor_into", Buffer(dst, "dst"), Buffer(src, "src"), len(dst))
    assert result.buffer("dst") == bytes(x ^ y for x, y in zip(dst, src))
    assert result.buffers[1] == src
    assert all(address % 8 == 0 for address in result.buffer_addresses)
    assert len(set(result.buffer_addresses)) == 2


def test_named_buffers_are_passed_by_name():
    m = machine("m0plus")
    named = {
        "dst": Buffer(b"\x01\x02\x03"),
        "src": Buffer(b"\x10\x20\x30"),
        "spare": Buffer.zeros(4),
    }
    result = m.call("xor_into", "dst", "src", 3, buffers=named)
    assert result.buffer("dst") == b"\x11\x22\x33"
    assert result.buffer("spare") == bytes(4)
    with pytest.raises(
        ValueError, match=r"Invalid argument 0 \('dts'\): no such buffer; accepted: 'dst', 'src'"
    ):
        m.call("xor_into", "dts", "src", 3, buffers={"dst": Buffer(b"a"), "src": Buffer(b"b")})


def test_zeroed_buffer_of_a_size():
    result = machine("m3").call("fill", Buffer.zeros(16), 16, 100)
    assert result.buffers[0] == bytes(range(100, 116))


def test_globals_are_restored_unless_state_is_kept():
    m = machine("m4")
    first = m.call("bump").return_value
    assert m.call("bump").return_value == first == (5 + 1) + 2
    assert m.call("bump", keep_state=True).return_value == (5 + 2) + 4


# -- what a call measures -------------------------------------------------------------------


def test_count_includes_the_functions_own_return_only():
    m = machine("m4", "system.S")
    result = m.call("ret_only", 3)
    assert result.instructions == 1
    (block_address,) = result.block_counts
    price = m.block(block_address).price
    assert result.cycles == price.cycles + price.taken_extra
    assert result.return_value == 3


@pytest.mark.parametrize("core", CORES)
def test_same_call_twice_gives_the_same_cycles(core):
    m = machine(core)
    first = m.call("stack_user", 200)
    second = m.call("stack_user", 200)
    other = machine(core).call("stack_user", 200)
    assert first.cycles == second.cycles == other.cycles
    assert first.instructions == second.instructions == other.instructions
    assert first.block_counts == second.block_counts


def _counted(result):
    return (
        result.return_value,
        result.cycles,
        result.instructions,
        result.edge_counts,
        result.dynamic_cycles,
        result.classes,
        result.stack_bytes,
    )


@pytest.mark.parametrize("accounting", ["native", "python"])
@pytest.mark.parametrize("core", ["m0plus", "m3", "m7"])
def test_a_warm_call_counts_what_a_new_machine_counts(core, accounting):
    """The edges earlier calls priced are kept while no code changes: a call after other calls,
    with other arguments and other paths, counts what the same call counts on a new machine (the
    M7's branch counters start again from their initial values: its loops mispredict again)."""
    if accounting == "native" and load_native()[0] is None:
        pytest.skip(f"no native accounting: {load_native()[1]}")
    warm = machine(core, accounting=accounting)
    # stack_user(1) leaves its loops' counters at "not taken"; a new call starts them afresh
    for call in (("stack_user", 40), ("divide", 1000, 7), ("calls_leaf", 3), ("weighted", *range(8))):
        warm.call(*call)
    for _ in range(3):
        warm.call("stack_user", 1)
    for call in (("stack_user", 200), ("divide", 7, 1000), ("calls_leaf", 9), ("stack_user", 40)):
        fresh = machine(core, accounting=accounting).call(*call)
        assert _counted(warm.call(*call)) == _counted(fresh)
        if core == "m7" and call[0] == "stack_user":
            assert fresh.dynamic_cycles  # the predictor has something to forget between calls


@pytest.mark.parametrize("accounting", ["native", "python"])
def test_code_rewritten_between_calls_is_priced_again(accounting):
    """ram_add runs from .data. Rewritten between calls (MOVS -> LDR literal, 1 -> 2 cycles on
    the M4, DDI 0439B Table 3-1), the next call prices the new code; the call after that, with
    .data restored from the ELF, runs and prices the original code again."""
    if accounting == "native" and load_native()[0] is None:
        pytest.skip(f"no native accounting: {load_native()[1]}")
    m = machine("m4", "ram_code.S", accounting=accounting)
    entry = m.image.functions["ram_add"].address
    original = m.call("ram_add", 1)
    assert (original.return_value, original.instructions) == (3, 3)
    m.uc.mem_write(entry, bytes([0x00, 0x49]))  # ldr r1, [pc, #0]
    m.uc.ctl_remove_cache(entry, entry + 2)  # a host write: Unicorn translates again only if told
    rewritten = m.call("ram_add", 1, keep_state=True)
    assert m.block(entry).insns[0].mnemonic == "ldr"
    assert rewritten.cycles == original.cycles + 1
    assert rewritten.return_value != 3
    restored = m.call("ram_add", 1)
    assert _counted(restored) == _counted(original)


@pytest.mark.skipif(load_native()[0] is None, reason=f"no native accounting: {load_native()[1]}")
@pytest.mark.parametrize("core", CORES)
@pytest.mark.parametrize(
    "call",
    [
        ("stack_user", 77),
        ("divide", 1000, 7),
        ("calls_leaf", 9),
        ("weighted", 1, 2, 3, 4, 5, 6, 7, 8),
    ],
)
def test_native_and_python_accounting_agree(core, call):
    native = machine(core, accounting="native").call(*call)
    python = machine(core, accounting="python").call(*call)
    assert native.accounting == "native" and python.accounting == "python"
    assert native.return_value == python.return_value
    assert native.cycles == python.cycles
    assert native.instructions == python.instructions
    assert native.block_counts == python.block_counts
    assert native.edge_counts == python.edge_counts
    assert native.classes == python.classes


@pytest.mark.parametrize("accounting", ["native", "python"])
def test_cycles_are_the_sum_over_edges_plus_dynamic_plus_return(accounting):
    if accounting == "native" and load_native()[0] is None:
        pytest.skip(f"no native accounting: {load_native()[1]}")
    m = machine("m3", accounting=accounting)
    result = m.call("divide", 0xFFFF_FFFF, 3)
    assert result.return_value == 0xFFFF_FFFF // 3
    assert result.dynamic_cycles  # the M3 divide is priced from its operands
    edges = sum(m.edge(prev, cur).cost * n for (prev, cur), n in result.edge_counts.items())
    expected = (
        edges + sum(result.dynamic_cycles.values()) + m.block(result.exit_block).price.taken_extra
    )
    assert result.cycles == expected
    assert result.instructions == sum(
        len(m.block(a).insns) * n for a, n in result.block_counts.items()
    )
    assert sum(result.classes.values()) == result.instructions


def test_operand_dependent_divide_costs_more_for_a_bigger_quotient():
    m = machine("m4")
    small = m.call("divide", 7, 7)
    big = m.call("divide", 0xFFFF_FFFF, 3)
    assert small.instructions == big.instructions
    assert big.cycles > small.cycles


@pytest.mark.parametrize("core", ["m0plus", "m4"])
def test_block_counts_count_each_store_of_the_loop(core):
    m = machine(core)
    result = m.call("fill", Buffer.zeros(40), 40, 1)
    stores = sum(
        n * sum(1 for insn in m.block(address).insns if insn.mnemonic.startswith("strb"))
        for address, n in result.block_counts.items()
    )
    assert stores == 40


def test_stack_depth_is_measured():
    m = machine("m4")
    shallow = m.call("stack_user", 0).stack_bytes
    deep = m.call("stack_user", 300).stack_bytes
    assert deep - shallow >= 296
    assert deep < 512 + 64
    assert m.call("negate", 1).stack_bytes == 0


def test_code_bytes_cover_the_functions_executed():
    m = machine("m0plus")
    result = m.call("calls_leaf", 4)
    assert result.return_value == (4 * 3 + 1) + (5 * 3 + 1)
    assert set(result.functions) == {"calls_leaf", "leaf"}
    assert result.code_bytes == sum(m.image.functions[name].size for name in ("calls_leaf", "leaf"))


def test_return_trampoline_when_the_program_has_no_halt_symbol():
    m = machine("m4", "no_halt.S")
    assert "cortexm_emu_halt" not in m.image.functions
    assert m.call("add_one", 41).return_value == 42


# -- self-measuring firmware ------------------------------------------------------------------


def _reads_between(m: Machine, result, first_reg: str, second_reg: str) -> int:
    """Model cycles from the first counter-reading load up to (excluding) the second one."""
    for address in result.block_counts:
        block = m.block(address)
        texts = [f"{i.mnemonic} {i.op_str}" for i in block.insns]
        starts = [k for k, t in enumerate(texts) if t.startswith(f"ldr {first_reg}, [r0,")]
        ends = [k for k, t in enumerate(texts) if t.startswith(f"ldr {second_reg}, [r0,")]
        if starts and ends:
            lo, hi = block.insns[starts[-1]].address, block.insns[ends[-1]].address
            return sum(c for a, c, _rule in block.price.per_insn if lo <= a < hi)
    raise AssertionError("counter reads not found in one block")


@pytest.mark.parametrize("core", ["m3", "m4"])
def test_dwt_cyccnt_counts_the_modelled_cycles(core):
    m = machine(core, "system.S")
    result = m.call("dwt_delta")
    expected = _reads_between(m, result, "r2", "r3")
    assert result.return_value == expected
    assert expected >= 11  # ten NOPs and the first read


@pytest.mark.parametrize("core", CORES)
def test_systick_counts_down_at_the_core_clock(core):
    m = machine(core, "system.S")
    result = m.call("systick_delta")
    assert result.return_value == _reads_between(m, result, "r2", "r3")


@pytest.mark.parametrize(
    "core, cpuid",
    [("m0", 0x410CC200), ("m0plus", 0x410CC601), ("m3", 0x412FC231), ("m4", 0x410FC241)],
)
def test_cpuid_names_the_core(core, cpuid):
    assert machine(core, "system.S").call("read_cpuid").return_value == cpuid


# -- bad parameters and ELF files -----------------------------------------------------------


def test_bad_core_is_named():
    with pytest.raises(ValueError, match=r"Invalid core 'm5'; accepted: m0, m0plus, m3, m4"):
        Machine("m5")


def test_bad_function_and_arguments_are_named():
    m = machine("m4")
    with pytest.raises(ValueError, match=r"Invalid function 'nope'; accepted: a function symbol"):
        m.call("nope")
    with pytest.raises(
        ValueError, match=r"Invalid argument 0 \(4294967296\); accepted: a 32-bit integer"
    ):
        m.call("negate", 2**32)
    with pytest.raises(
        ValueError,
        match=r"Invalid argument 1 of type float; accepted: int, U64, F32, F64, Buffer, buffer name",
    ):
        m.call("weighted", 1, 2.0)
    with pytest.raises(ValueError, match=r"Invalid budget 0"):
        m.call("negate", 1, budget=0)
    with pytest.raises(ValueError, match=r"Invalid function 'cortexm_emu_halt'"):
        m.call("cortexm_emu_halt")


def test_a_dropped_machine_is_freed_without_the_cycle_collector():
    import weakref

    m = machine("m4")
    m.call("negate", 1)
    ref = weakref.ref(m)
    del m
    assert ref() is None  # hooks hold the machine weakly: no Machine <-> Uc cycle


def test_call_before_load_is_an_error():
    with pytest.raises(EmulatorError, match="no ELF loaded"):
        Machine("m4").call("f")


def test_truncated_elf(tmp_path):
    bad = tmp_path / "truncated.elf"
    bad.write_bytes(elf("calls.c", "m4").read_bytes()[:200])
    with pytest.raises(ElfError, match=r"truncated\.elf: .*(truncated|malformed)"):
        Machine("m4").load_elf(bad)


def test_host_executable_is_not_arm():
    with pytest.raises(ElfError, match=r"/bin/true: .*(64-bit|wrong machine)"):
        Machine("m4").load_elf("/bin/true")


def test_32_bit_x86_elf_is_the_wrong_machine(tmp_path):
    data = bytearray(elf("calls.c", "m4").read_bytes())
    data[18:20] = (3).to_bytes(2, "little")  # e_machine = EM_386
    bad = tmp_path / "x86.elf"
    bad.write_bytes(bytes(data))
    with pytest.raises(ElfError, match=r"x86\.elf: wrong machine EM_386 \(expected EM_ARM"):
        Machine("m4").load_elf(bad)


def test_big_endian_elf(tmp_path):
    data = bytearray(elf("calls.c", "m4").read_bytes())
    data[5] = 2
    bad = tmp_path / "be.elf"
    bad.write_bytes(bytes(data))
    with pytest.raises(ElfError, match="big-endian"):
        Machine("m4").load_elf(bad)


def test_random_bytes_are_not_an_elf(tmp_path):
    bad = tmp_path / "noise.bin"
    bad.write_bytes(bytes((i * 37 + 11) % 256 for i in range(4096)))
    with pytest.raises(ElfError, match=r"noise\.bin: not an ELF file"):
        Machine("m4").load_elf(bad)


def test_stripped_elf_has_no_symbols():
    stripped = build([ASM / "calls.c"], "m4", extra_flags=["-Wl,--strip-all"]).elf
    with pytest.raises(ElfError, match=r"no symbol table"):
        Machine("m4").load_elf(stripped)


def test_missing_file(tmp_path):
    with pytest.raises(ElfError, match=r"missing\.elf: cannot read"):
        Machine("m4").load_elf(tmp_path / "missing.elf")


# -- native accounting build ----------------------------------------------------------------


def test_native_counter_is_compiled_once_into_the_cache(tmp_path, monkeypatch):
    from cortexm_emu import native

    if native._compiler() is None:
        pytest.skip("no host C compiler: the Python accounting is used (tested above)")
    monkeypatch.setenv("CORTEXM_EMU_CACHE", str(tmp_path))
    first, reason = native._compile()
    assert reason == "" and first is not None and first.is_relative_to(tmp_path / "native")
    stamp = first.stat().st_mtime_ns
    second, _ = native._compile()
    assert second == first and second.stat().st_mtime_ns == stamp


def test_without_a_c_compiler_the_python_counter_is_used(monkeypatch):
    from cortexm_emu import native

    monkeypatch.setattr(native.shutil, "which", lambda name: None)
    lib_path, reason = native._compile()
    assert lib_path is None and "no host C compiler" in reason
    monkeypatch.setenv("CORTEXM_EMU_NO_NATIVE", "1")
    native.load_native.cache_clear()
    try:
        m = machine("m4")
        assert m.accounting.kind == "python" and "CORTEXM_EMU_NO_NATIVE" in m.accounting_note
        assert m.call("negate", 3).return_value_signed == -3
        with pytest.raises(RuntimeError, match="native accounting unavailable"):
            Machine("m4", accounting="native")
    finally:
        native.load_native.cache_clear()


def test_bad_accounting_mode_is_named():
    with pytest.raises(
        ValueError, match=r"Invalid accounting 'fast'; accepted: 'auto', 'native', 'python'"
    ):
        Machine("m4", accounting="fast")


@pytest.mark.parametrize(
    "core, call",
    [
        ("m3", ("divide", 0xFFFF_FFFF, 3)),
        ("m0", ("calls_leaf", 2)),
        ("m4", ("fill", Buffer.zeros(9), 9, 1)),
    ],
)
def test_annotation_accounts_for_every_cycle(core, call):
    from cortexm_emu.annotate import annotate

    m = machine(core)
    result = m.call(*call)
    blocks = annotate(m, result)
    assert sum(block.total for block in blocks) == result.cycles
    assert sum(row.count for block in blocks for row in block.rows) == result.instructions
    assert [b.total for b in blocks] == sorted((b.total for b in blocks), reverse=True)


# -- issue 19 item 3: a halt stub at address 0 ----------------------------------------------------


@pytest.mark.parametrize("core", ["m0", "m0plus", "m3", "m4", "m7", "m33"])
def test_calls_return_to_a_halt_stub_linked_first_at_address_zero(core):
    m = Machine(core)
    m.load_elf(elf("halt_first.S", "m0"))
    assert m.image.functions["cortexm_emu_halt"].address == 0 == m.halt_address
    result = m.call("add_two", 40)
    assert result.return_value == 42 and result.instructions == 2
    assert m.call("add_two", 1).cycles == result.cycles


# -- issue 19 item 13: registers, pointers into buffers, structs of pointers, AAPCS check ---------


def test_registers_r4_to_r12_can_be_set_for_an_internal_abi_function():
    m = machine("m4", "abi.S")
    result = m.call("internal_sum", registers={"r4": 10, "R5": 3, "r12": 100})
    assert result.return_value == 123  # it changes r4 too: with registers= that is its business


@pytest.mark.parametrize(
    "registers, message",
    [
        ({"r0": 1}, "Invalid register 'r0'; accepted: r4, r5"),
        ({"sp": 1}, "Invalid register 'sp'"),
        ({"r4": 1 << 32}, "Invalid value 4294967296 for register r4; accepted: a 32-bit integer"),
        ({"r5": "7"}, "Invalid value '7' for register r5"),
    ],
)
def test_bad_registers_are_named(registers, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        machine("m4", "abi.S").call("internal_sum", registers=registers)


@pytest.mark.parametrize("function, register", [("clobber_r4", "r4"), ("clobber_r11", "r11"), ("leaves_sp_moved", "SP")])
def test_an_aapcs_call_that_changes_a_callee_saved_register_is_named(function, register):
    m = machine("m4", "abi.S")
    with pytest.raises(CalleeSavedClobbered) as info:
        m.call(function, 5)
    message = str(info.value)
    assert f"{register} changed by {function}" in message and "AAPCS (IHI 0042) §6.1.1" in message
    assert m.call("saves_r4", 1).return_value == 10  # pushes and pops r4: fine


def test_pointer_into_the_middle_of_a_buffer():
    data = b"".join(i.to_bytes(4, "little") for i in range(8))
    m = machine("m4", "abi.S")
    result = m.call("load_word", Pointer("table", 12), buffers={"table": Buffer(data)})
    assert result.return_value == 3
    assert result.buffer("table") == data
    with pytest.raises(ValueError, match=r"Pointer\('table', 33\)\): offset outside the 32-byte buffer; accepted: 0 \.\. 32"):
        m.call("load_word", Pointer("table", 33), buffers={"table": Buffer(data)})
    with pytest.raises(ValueError, match=r"\('nope'\): no such buffer; accepted: 'table'"):
        m.call("load_word", Pointer("nope"), buffers={"table": Buffer(data)})


def test_a_struct_holding_pointers_gets_the_addresses_of_named_buffers():
    m = machine("m0plus", "abi.S")
    pair = Buffer(bytes(8), pointers={0: Pointer("a"), 4: Pointer("b", 4)})
    result = m.call(
        "sum_pair",
        pair,
        buffers={"a": Buffer((40).to_bytes(4, "little")), "b": Buffer(bytes(4) + (2).to_bytes(4, "little"))},
    )
    assert result.return_value == 42
    a, b = (result.buffer_addresses[result.buffer_names.index(n)] for n in ("a", "b"))
    assert result.buffers[0] == a.to_bytes(4, "little") + (b + 4).to_bytes(4, "little")
    with pytest.raises(ValueError, match=r"Invalid pointer offset 6 in buffer \(unnamed\) of 8 bytes; accepted: 0 \.\. 4"):
        Buffer(bytes(8), pointers={6: Pointer("a")})


# -- issue 19 item 7: sizes beyond the memory map ---------------------------------------------------


def test_a_buffer_larger_than_the_sram_region_is_refused_before_any_allocation():
    with pytest.raises(ValueError, match=r"Invalid buffer size 1000000000; accepted: an integer 0 \.\. 536870912"):
        Buffer.zeros(1_000_000_000)
    with pytest.raises(ValueError, match="Invalid buffer size 99999999999999999999"):
        Buffer.zeros(99999999999999999999)


def test_buffers_that_together_overflow_the_sram_region_are_named():
    m = machine("m4")
    big = Buffer.zeros(300 * 1024 * 1024)
    with pytest.raises(ValueError, match=r"Invalid buffer 1 of 314572800 bytes: the call's buffers would end at 0x"):
        m.call("negate", big, big)
    assert m.call("negate", 3).return_value_signed == -3  # the machine is still usable


@pytest.mark.parametrize("stack_size", [600 * 1024 * 1024, 1 << 40])
def test_a_stack_beyond_the_sram_region_is_refused_at_load(stack_size):
    m = Machine("m4", stack_size=stack_size)
    with pytest.raises(ValueError, match=rf"Invalid stack_size {stack_size}: the stack would end at 0x[0-9a-f]+, past the SRAM region"):
        m.load_elf(elf("calls.c", "m4"))


def test_u64_beyond_64_bits_and_huge_budgets_are_refused():
    m = machine("m4")
    with pytest.raises(ValueError, match=r"U64\(18446744073709551616\)\); accepted: a 64-bit integer"):
        m.call("mix64", 1, U64(1 << 64), 2, U64(3))
    with pytest.raises(ValueError, match=r"Invalid budget 9223372036854775808; accepted: a positive integer up to 2\*\*63-1"):
        m.call("negate", 1, budget=1 << 63)


# -- issue 19 items 12 and 13: ARM-state ELFs, halt-only ELFs ----------------------------------------


def test_an_arm_state_a32_elf_is_named_as_such():
    a32 = build([ASM / "calls.c"], "m4", extra_flags=["-target", "arm-freestanding-eabi", "-mcpu=cortex_a7"], exports=["negate", "cortexm_emu_halt"]).elf
    with pytest.raises(ElfError, match=r"ARM-state \(A32\) ELF: its functions \(.*negate.*\) are A32 code \(symbol value 0x[0-9a-f]+ with bit 0 clear and a \$a mapping symbol\); Cortex-M cores execute Thumb only"):
        Machine("m4").load_elf(a32)


def test_a_gc_sections_link_that_kept_only_the_halt_stub_is_refused():
    halt_only = build([ASM / "calls.c"], "m4", exports=[]).elf
    with pytest.raises(ElfError, match=r"only the return stub cortexm_emu_halt \(\d+ bytes\).* is linked: no function to call \(a --gc-sections link"):
        Machine("m4").load_elf(halt_only)


def test_aapcs_false_skips_the_callee_saved_check():
    m = machine("m4", "abi.S")
    assert m.call("clobber_r4", 5, aapcs=False).return_value == 5


@given(
    painted=st.integers(min_value=0, max_value=3 * 4096 + 7),
    tail=st.binary(min_size=0, max_size=64),
)
def test_painted_prefix_is_the_leading_run_of_paint(painted, tail):
    """The chunked scan of the stack paint agrees with a byte-by-byte scan at every chunk edge."""
    from cortexm_emu.memory_map import STACK_PAINT, _painted_prefix

    data = bytearray([STACK_PAINT]) * painted + bytearray(tail)
    expected = len(data) - len(bytes(data).lstrip(bytes([STACK_PAINT])))
    assert _painted_prefix(data) == expected
