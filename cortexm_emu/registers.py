"""Core registers read and written in one call into Unicorn.

The Python binding's ``reg_read``/``reg_write`` (and its ``*_batch`` forms) pick a value type per
register in Python, about 2 us each; a call sets 16 registers and checks 9 on return, which was
a fifth of a short call's fixed cost. :class:`RegisterBatch` keeps the ctypes arrays for one fixed
list of 32-bit registers and passes them to Unicorn's ``uc_reg_read_batch``/``uc_reg_write_batch``
in one call (the same C functions the binding's batch methods end in).
"""

from __future__ import annotations

import ctypes
from collections.abc import Sequence

from unicorn import Uc, UcError
from unicorn.unicorn_py3.unicorn import uclib


class RegisterBatch:
    """The 32-bit registers ``ids`` (Unicorn identifiers, e.g. ``UC_ARM_REG_R0``) of ``uc``."""

    def __init__(self, uc: Uc, ids: Sequence[int]) -> None:
        count = len(ids)
        self._uc = uc
        self._ids = (ctypes.c_int * count)(*ids)
        self._values = (ctypes.c_uint32 * count)()
        size = ctypes.sizeof(ctypes.c_uint32)
        base = ctypes.addressof(self._values)
        self._pointers = (ctypes.c_void_p * count)(*(base + i * size for i in range(count)))
        self._count = ctypes.c_int(count)

    def read(self) -> tuple[int, ...]:
        status = uclib.uc_reg_read_batch(self._uc._uch, self._ids, self._pointers, self._count)
        if status != 0:
            raise UcError(status)
        return tuple(self._values)

    def write(self, values: Sequence[int]) -> None:
        if len(values) != len(self._ids):
            raise ValueError(f"Invalid register values: {len(values)} given for {len(self._ids)} registers")
        for i, value in enumerate(values):
            self._values[i] = value & 0xFFFF_FFFF
        status = uclib.uc_reg_write_batch(self._uc._uch, self._ids, self._pointers, self._count)
        if status != 0:
            raise UcError(status)
