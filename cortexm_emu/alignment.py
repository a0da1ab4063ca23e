"""Alignment checks the architecture requires and Unicorn 2 does not make.

ARMv7-M and ARMv8-M fault on an unaligned LDRD/STRD/LDM/STM/LDREX/STREX/... whatever
CCR.UNALIGN_TRP says (ARMv7-M ARM DDI 0403E A3.2.1; the list is
:data:`cortexm_emu.faults._ALWAYS_ALIGNED`); Unicorn 2 (QEMU 5) executes them. The Machine marks
those instructions when it decodes a block (:func:`cortexm_emu.faults.alignment_checks`) and hooks
each one with a UC_HOOK_CODE bounded to its address: Unicorn then calls the hook for those
instructions only. The hook is C (``alignment_check.c``: read the base register, test its low
bits) when a host C compiler is there, else Python; either calls the Machine's Python handler
only when the base is unaligned. ARMv6-M needs none of this: Unicorn faults every unaligned
access there itself.
"""

from __future__ import annotations

import ctypes
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import Any

from unicorn import UC_HOOK_CODE, Uc
from unicorn.unicorn_py3.unicorn import uclib

from cortexm_emu import native
from cortexm_emu.faults import AlignmentCheck, alignment_checks

SOURCE = Path(__file__).resolve().parent / "alignment_check.c"
LIBRARY = "libcortexm_emu_alignment.so"

FAULT_FN = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_uint64, ctypes.c_uint32, ctypes.c_void_p)


class _State(ctypes.Structure):
    _fields_ = [("reg_read", ctypes.c_void_p), ("fault", ctypes.c_void_p), ("checks", ctypes.c_uint64)]


class _Check(ctypes.Structure):
    _fields_ = [("state", ctypes.POINTER(_State)), ("reg", ctypes.c_int32), ("mask", ctypes.c_uint32)]


_LIBRARY: tuple[ctypes.CDLL | None, str] | None = None


def _library() -> tuple[ctypes.CDLL | None, str]:
    global _LIBRARY
    if _LIBRARY is None:
        _LIBRARY = native.open_library(SOURCE, LIBRARY)
    return _LIBRARY


class AlignmentHooks:
    """The alignment hooks of one Unicorn engine. ``on_unaligned(uc, address, size, user)`` is
    called (with the engine) when a hooked instruction is about to run with an unaligned base."""

    def __init__(self, uc: Uc, on_unaligned: Callable[[Uc, int, int, Any], None], engine: str = "auto") -> None:
        self._uc = uc
        self._on_unaligned = on_unaligned
        lib, self.note = _library() if engine != "python" else (None, "python requested")
        self._lib = lib
        self.kind = "native" if lib is not None else "python"
        self._checks: list[_Check] = []
        self._handles: list[ctypes.c_size_t] = []
        #: the checks of the known blocks, by instruction address
        self.checks: dict[int, list[AlignmentCheck]] = {}
        self._blocks: dict[int, Any] = {}
        self._hooked: set[tuple[int, int, int]] = set()
        if lib is not None:
            uc_ref = weakref.ref(uc)  # no cycle: this object -> callback -> engine

            def fault(_uch: int, address: int, size: int, _user: int) -> None:
                engine = uc_ref()
                if engine is not None:
                    on_unaligned(engine, address, size, None)

            self._fault_cb = FAULT_FN(fault)
            self._state = _State(
                ctypes.cast(uclib.uc_reg_read, ctypes.c_void_p).value,
                ctypes.cast(self._fault_cb, ctypes.c_void_p).value,
                0,
            )
            self._hook_fn = ctypes.cast(lib.cac_code_hook, ctypes.c_void_p)

    def unhooked(self, block: Any, v6m: bool) -> list[AlignmentCheck]:
        """Checks of the decoded ``block`` (:class:`cortexm_emu.pricing.Block`) not hooked yet;
        they join :attr:`checks` (a block decoded again, because its code changed, has its checks
        replaced). An "sp" check sits after an SP write, inside the block except when the write
        is its last instruction (then it takes effect once its successor's block is translated
        again; compilers do not end a block with such a write)."""
        if self._blocks.get(block.address) is block:
            return []
        self._blocks[block.address] = block
        for address in range(block.address, block.end + 4):
            self.checks.pop(address, None)
        if block.alignment_free:  # known without decoding (pricing, or an earlier run's price cache)
            return []
        new = []
        for check in alignment_checks(block.insns, v6m):
            key = (check.address, check.base, check.mask)
            self.checks.setdefault(check.address, []).append(check)
            if key not in self._hooked:
                self._hooked.add(key)
                new.append(check)
        return new

    @property
    def executed(self) -> int:
        """Hooked instructions executed so far (native hooks only; 0 with Python hooks)."""
        return int(self._state.checks) if self._lib is not None else 0

    def add(self, address: int, register: int, mask: int) -> None:
        """Check before the instruction at ``address`` runs that ``register`` & ``mask`` is 0."""
        if self._lib is None:
            on_unaligned = self._on_unaligned  # not self: Unicorn keeps the hook

            def check(uc: Uc, at: int, size: int, user: Any) -> None:
                if uc.reg_read(register) & mask:
                    on_unaligned(uc, at, size, user)

            self._uc.hook_add(UC_HOOK_CODE, check, None, address, address)
            return
        entry = _Check(ctypes.pointer(self._state), register, mask)
        handle = ctypes.c_size_t()
        status = uclib.uc_hook_add(
            self._uc._uch,
            ctypes.byref(handle),
            UC_HOOK_CODE,
            self._hook_fn,
            ctypes.cast(ctypes.pointer(entry), ctypes.c_void_p),
            ctypes.c_uint64(address),
            ctypes.c_uint64(address),
        )
        if status != 0:
            raise RuntimeError(f"uc_hook_add(UC_HOOK_CODE) for an alignment check failed with status {status}")
        self._checks.append(entry)
        self._handles.append(handle)
