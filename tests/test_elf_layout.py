"""The loader refuses segment layouts no loader can honour (issue 32): overlapping PT_LOAD
segments, and a segment's load image (LMA) over another segment."""

from __future__ import annotations

import struct
from pathlib import Path

import pytest

from cortexm_emu import ElfError, Machine
from cortexm_emu.toolchain import build

ASM = Path(__file__).parent / "asm" / "machine"


def _phdrs(blob: bytes) -> list[tuple[int, tuple[int, ...]]]:
    """(file offset, fields) of each 32-bit little-endian program header."""
    phoff, = struct.unpack_from("<I", blob, 0x1C)
    phentsize, phnum = struct.unpack_from("<HH", blob, 0x2A)
    return [(phoff + i * phentsize, struct.unpack_from("<8I", blob, phoff + i * phentsize)) for i in range(phnum)]


def _patched(blob: bytes, index: int, **fields: int) -> bytes:
    names = ("p_type", "p_offset", "p_vaddr", "p_paddr", "p_filesz", "p_memsz", "p_flags", "p_align")
    loads = [(off, hdr) for off, hdr in _phdrs(blob) if hdr[0] == 1]
    off, hdr = loads[index]
    values = list(hdr)
    for key, value in fields.items():
        values[names.index(key)] = value
    out = bytearray(blob)
    struct.pack_into("<8I", out, off, *values)
    return bytes(out)


@pytest.fixture(scope="module")
def calls_elf() -> bytes:
    return build([ASM / "calls.c"], "m4").elf.read_bytes()


def _load(tmp_path: Path, blob: bytes) -> None:
    path = tmp_path / "layout.elf"
    path.write_bytes(blob)
    Machine("m4").load_elf(path)


def test_the_unpatched_elf_loads(calls_elf, tmp_path):
    _load(tmp_path, calls_elf)


def test_a_writable_segment_over_the_code_is_refused(calls_elf, tmp_path):
    # the .data segment (third PT_LOAD, writable) moved onto the code at 0x100
    blob = _patched(calls_elf, 2, p_vaddr=0x100)
    with pytest.raises(ElfError, match=r"overlapping segments: PT_LOAD #0 \(executable.*PT_LOAD #2 \(writable"):
        _load(tmp_path, blob)


def test_two_segments_at_the_same_address_are_refused(calls_elf, tmp_path):
    blob = _patched(calls_elf, 1, p_vaddr=0, p_paddr=0)
    with pytest.raises(ElfError, match="overlapping segments.*share 0x00000000-"):
        _load(tmp_path, blob)


def test_a_load_image_over_another_segment_is_refused(calls_elf, tmp_path):
    # .data's LMA copy placed over the read-only data segment
    loads = [hdr for _off, hdr in _phdrs(calls_elf) if hdr[0] == 1]
    blob = _patched(calls_elf, 2, p_paddr=loads[1][2])
    with pytest.raises(ElfError, match=r"overlapping segments:.*load image \(LMA"):
        _load(tmp_path, blob)
