"""cortexm_emu.call.marshal on its own: AAPCS (IHI 0042) §6.5 placement without running code.

The end-to-end proofs (the compiled callee reads what was placed) are in tests/test_machine.py;
these check the placement rules word by word, with a fake allocator.
"""

from __future__ import annotations

import re

import pytest

from cortexm_emu.call import U64, Allocation, Buffer, marshal


class FakeArena:
    """Hands out addresses 0x1000, 0x2000, ... and remembers what it placed."""

    def __init__(self) -> None:
        self.placed: list[Buffer] = []

    def allocate(self, buffer: Buffer) -> Allocation:
        self.placed.append(buffer)
        address = 0x1000 * len(self.placed)
        return Allocation(len(self.placed) - 1, buffer.name, address, len(buffer.data), address, address)


def place(*args, **named):
    arena = FakeArena()
    registers, stack = marshal(args, named, arena.allocate)
    return registers, stack, arena.placed


def test_words_fill_r0_to_r3_then_the_stack_in_order():
    registers, stack, _ = place(1, 2, 3, 4, 5, 6)
    assert registers == [1, 2, 3, 4] and stack == [5, 6]


def test_negative_ints_are_passed_as_their_32_bit_pattern():
    registers, _, _ = place(-1, -(1 << 31))
    assert registers == [0xFFFF_FFFF, 0x8000_0000]


def test_a_64_bit_value_after_one_word_skips_r1_for_the_even_pair_r2_r3():
    registers, stack, _ = place(7, U64(0x1122_3344_5566_7788))
    assert registers == [7, 0, 0x5566_7788, 0x1122_3344] and stack == []


def test_a_64_bit_value_that_does_not_fit_goes_to_the_stack_and_closes_the_registers():
    # r0-r2 taken: the pair cannot start at r3 (NCRN rounded up to 4), so it goes to the stack,
    # r3 stays unused, and the int after it goes to the stack too (NCRN = 4).
    registers, stack, _ = place(1, 2, 3, U64(0x1122_3344_5566_7788), 5)
    assert registers == [1, 2, 3]
    assert stack == [0x5566_7788, 0x1122_3344, 5]


def test_a_64_bit_stack_value_is_8_byte_aligned_after_an_odd_number_of_stack_words():
    registers, stack, _ = place(1, 2, 3, 4, 9, U64(-1))
    assert registers == [1, 2, 3, 4]
    assert stack == [9, 0, 0xFFFF_FFFF, 0xFFFF_FFFF]


def test_named_buffers_are_placed_once_and_unreferenced_ones_after_the_arguments():
    registers, _, placed = place("dst", "dst", Buffer(b"x"), dst=Buffer(b"ab"), spare=Buffer(b"c"))
    assert registers == [0x1000, 0x1000, 0x2000]
    assert [(b.name, b.data) for b in placed] == [("dst", b"ab"), ("", b"x"), ("spare", b"c")]


@pytest.mark.parametrize(
    ("args", "named", "message"),
    [
        ((1 << 32,), {}, "Invalid argument 0 (4294967296); accepted: a 32-bit integer"),
        ((True,), {}, "Invalid argument 0 of type bool"),
        (("nope",), {"dst": Buffer()}, "Invalid argument 0 ('nope'): no such buffer; accepted: 'dst'"),
        ((), {"dst": b"raw"}, "Invalid buffers['dst'] of type bytes; accepted: Buffer"),
    ],
    ids=["int_too_large", "bool", "unknown_buffer_name", "named_not_a_buffer"],
)
def test_bad_arguments_name_the_argument_and_the_accepted_forms(args, named, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        place(*args, **named)
