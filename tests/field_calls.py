"""Calls of one bignum variant's GF(2^255 - 19) functions on Python integers, for the tests of the
variants written in a library's limb shape or in assembly (test_kernels_c29.py,
test_kernels_m0_asm.py): operands and result as 32-byte little-endian buffers."""

from __future__ import annotations

from functools import cache

from cortexm_emu import Buffer
from refbench.kernels.harness import KernelHarness


@cache
def field_harness(variant: str, core: str) -> KernelHarness:
    return KernelHarness("bignum", variant, core)


def le(x: int) -> bytes:
    return x.to_bytes(32, "little")


def call(h: KernelHarness, function: str, *operands: int) -> int:
    """``function(r, a, b, ...)`` with 32-byte operands: the integer it writes to ``r``."""
    result = h.machine.call(function, Buffer(bytes(32), "r"), *(Buffer(le(x)) for x in operands))
    return int.from_bytes(result.buffer("r"), "little")
