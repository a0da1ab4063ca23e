"""Tutorial 8: your own kernel, verified against a Python reference and timed on an emulated board
with pytest-benchmark (``pytest docs/examples/xtea --benchmark-only``)."""

import struct
from pathlib import Path

import pytest

from cortexm_emu import Buffer, Machine
from cortexm_emu.toolchain import build
from refbench.pytest_plugin.clock import EmulatedClock

BOARD, CLOCK_MHZ = "stm32l4a6zg", 80
KEY = struct.pack("<4I", 0x00010203, 0x04050607, 0x08090A0B, 0x0C0D0E0F)
BLOCK = struct.pack("<2I", 0x41424344, 0x45464748)


def xtea_reference(block: bytes, key: bytes, cycles: int = 32) -> bytes:
    """XTEA encryption as published by Needham and Wheeler (1997), in Python."""
    v0, v1 = struct.unpack("<2I", block)
    k = struct.unpack("<4I", key)
    total, delta, mask = 0, 0x9E3779B9, 0xFFFFFFFF
    for _ in range(cycles):
        v0 = (v0 + ((((v1 << 4) ^ (v1 >> 5)) + v1) ^ (total + k[total & 3]))) & mask
        total = (total + delta) & mask
        v1 = (v1 + ((((v0 << 4) ^ (v0 >> 5)) + v0) ^ (total + k[(total >> 11) & 3]))) & mask
    return struct.pack("<2I", v0, v1)


@pytest.fixture(scope="module")
def board() -> Machine:
    machine = Machine.for_board(BOARD, clock_mhz=CLOCK_MHZ, cache="on")
    machine.load_elf(build([Path(__file__).with_name("xtea.c")], machine.core, exports=["xtea_encrypt"]).elf)
    return machine


CLOCK = EmulatedClock(BOARD, CLOCK_MHZ * 1_000_000)


@pytest.mark.benchmark(timer=CLOCK, group=f"xtea on {BOARD} @ {CLOCK_MHZ} MHz (emulated board time)")
def test_xtea_encrypt(benchmark, board: Machine) -> None:
    def one_block() -> bytes:
        result = board.call("xtea_encrypt", Buffer(BLOCK), Buffer(KEY), 32)
        CLOCK.advance(result.cycles)
        benchmark.extra_info["cycles"] = result.cycles
        return result.buffers[0]

    out = benchmark.pedantic(one_block, rounds=3, iterations=1)
    assert out == xtea_reference(BLOCK, KEY)
