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


def le(x: int, size: int = 32) -> bytes:
    return x.to_bytes(size, "little")


def call(h: KernelHarness, function: str, *operands: int, size: int = 32) -> int:
    """``function(r, a, b, ...)`` with ``size``-byte operands (32: 2^255 - 19, 56: 2^448 - 2^224 - 1):
    the integer it writes to ``r``."""
    result = h.machine.call(function, Buffer(bytes(size), "r"), *(Buffer(le(x, size)) for x in operands))
    return int.from_bytes(result.buffer("r"), "little")
