"""ELF loading with pyelftools: PT_LOAD segments and the symbol table.

Only what the emulator needs is kept: the bytes of each loadable segment at the
address it is linked at (its VMA: ``.data`` is simply the segment at its RAM
address, so no startup copy loop has to run), the load address (LMA) when it
differs, the address ranges of the allocated sections (a board memory system can
place read-only data such as ``.rodata`` apart from the code), and the function and
object symbols for ``symbol+offset`` lookups.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from pathlib import Path

from elftools.common.exceptions import ELFError as _PyElfError
from elftools.elf.elffile import ELFFile

from cortexm_emu.errors import ElfError
from cortexm_emu.memory import ARCHITECTURAL_REGIONS

#: the return stub every call returns to (the ELF's, or the Machine's trampoline without it)
HALT_SYMBOL = "cortexm_emu_halt"


@dataclass(frozen=True)
class Segment:
    """One PT_LOAD segment: ``data`` (file bytes) then ``memsz - len(data)`` zero bytes."""

    vaddr: int
    paddr: int
    data: bytes
    memsz: int
    writable: bool
    executable: bool

    @property
    def end(self) -> int:
        return self.vaddr + self.memsz


@dataclass(frozen=True)
class Section:
    """One allocated section (SHF_ALLOC): where it lies in memory and what it may hold."""

    name: str
    address: int
    size: int
    writable: bool  # SHF_WRITE
    executable: bool  # SHF_EXECINSTR

    @property
    def end(self) -> int:
        return self.address + self.size

    @property
    def read_only_data(self) -> bool:
        """Constants outside the code (``.rodata``-type): neither writable nor executable.
        Literal pools inside ``.text`` are not this: they are in an executable section."""
        return not self.writable and not self.executable


@dataclass(frozen=True)
class Symbol:
    name: str
    address: int  # Thumb bit cleared
    size: int
    kind: str  # "func" or "object"
    #: Thumb code (functions): False for ARM-state (A32) code, see :func:`_thumb_state`
    thumb: bool = True
    thumb_evidence: str = ""


@dataclass
class ElfImage:
    path: Path
    entry: int
    segments: list[Segment]
    functions: dict[str, Symbol]
    objects: dict[str, Symbol]
    sections: list[Section] = field(default_factory=list)
    #: Tag_ABI_VFP_args of the build attributes (.ARM.attributes; Addenda to, and Errata in, the
    #: ABI for the Arm Architecture, IHI 0045, "Tag_ABI_VFP_args"): 0 base AAPCS (soft float, also
    #: when the tag or the section is absent), 1 VFP registers (hard float), 2 toolchain-specific,
    #: 3 compatible with both (no FP arguments)
    vfp_args: int = 0
    _sorted: list[Symbol] = field(default_factory=list, repr=False)
    _starts: list[int] = field(default_factory=list, repr=False)

    def __post_init__(self) -> None:
        # Functions first so that at equal addresses a function wins over a label.
        ordered = sorted(
            [*self.functions.values(), *self.objects.values()],
            key=lambda s: (s.address, s.kind != "func", s.name),
        )
        self._sorted = ordered
        self._starts = [s.address for s in ordered]

    def symbol_at(self, address: int) -> Symbol | None:
        """The symbol whose ``[address, address+size)`` contains ``address``."""
        index = bisect.bisect_right(self._starts, address) - 1
        while index >= 0:
            sym = self._sorted[index]
            if sym.address <= address < sym.address + max(sym.size, 1):
                return sym
            if address - sym.address > 0x100000:
                break
            index -= 1
        return None

    def describe(self, address: int) -> str:
        """``name+0xoff`` for an address inside a symbol, else the bare hex address."""
        sym = self.symbol_at(address)
        if sym is None:
            return f"0x{address:08x}"
        offset = address - sym.address
        return f"{sym.name}+0x{offset:x}" if offset else sym.name

    def function_containing(self, address: int) -> Symbol | None:
        sym = self.symbol_at(address)
        if sym is not None and sym.kind == "func":
            return sym
        for candidate in self.functions.values():
            if candidate.address <= address < candidate.address + candidate.size:
                return candidate
        return None


#: The regions of the ARMv7-M / ARMv6-M / ARMv8-M memory map (ARMv7-M ARM DDI 0403E B3.1
#: Table B3-1); a segment must lie inside one, and not in the Private Peripheral Bus (the
#: emulator's DWT/SCS registers are there).
_REGIONS = ARCHITECTURAL_REGIONS


def _region_problem(address: int, size: int) -> str:
    for start, end, region in _REGIONS:
        if start <= address < end:
            if region == "Private Peripheral Bus":
                return "it is in the Private Peripheral Bus (0xE0000000-0xE00FFFFF, system registers)"
            if address + size > end:
                return (
                    f"it crosses the end of the {region} region at 0x{end:08x} "
                    "(ARMv7-M ARM DDI 0403E B3.1 Table B3-1)"
                )
            return ""
    return "outside the 32-bit address space"


def _segment_ranges(segments: list[Segment]) -> list[tuple[int, int, str]]:
    """Every byte range the segments occupy: each one at its VMA (``memsz`` bytes) and its load
    image at the LMA (``filesz`` bytes) when that differs."""
    ranges = []
    for index, seg in enumerate(segments):
        kind = "writable" if seg.writable else ("executable" if seg.executable else "read-only")
        label = f"PT_LOAD #{index} ({kind}, 0x{seg.vaddr:08x}-0x{seg.end - 1:08x})"
        ranges.append((seg.vaddr, seg.end, label))
        if seg.paddr != seg.vaddr and seg.data:
            lma_end = seg.paddr + len(seg.data)
            ranges.append((seg.paddr, lma_end, f"the load image (LMA 0x{seg.paddr:08x}-0x{lma_end - 1:08x}) of {label}"))
    return ranges


def _check_no_overlap(name: str, segments: list[Segment]) -> None:
    """Refuse segments whose bytes overlap: a loader that writes them in turn would let the later
    one silently replace the earlier (a writable segment over code zeroes or rewrites it). ELF
    gABI (System V ABI, "Program Header": PT_LOAD entries are sorted by p_vaddr and each maps its
    own bytes) has no meaning for two segments claiming the same address."""
    ranges = sorted(r for r in _segment_ranges(segments) if r[1] > r[0])
    for (_start_a, end_a, label_a), (start_b, end_b, label_b) in zip(ranges, ranges[1:]):
        if start_b < end_a:
            raise ElfError(
                name,
                f"overlapping segments: {label_a} and {label_b} share 0x{start_b:08x}-"
                f"0x{min(end_a, end_b) - 1:08x}; a loader cannot place both (a linker script "
                "that puts two output sections at the same address)",
            )


def _thumb_state(value: int, mapping: list[tuple[int, str]]) -> tuple[bool, str]:
    """Whether a function symbol is Thumb code. ELF for the Arm Architecture (IHI 0044) §5.5.3:
    bit 0 of an STT_FUNC value is set for a Thumb function; §5.5.5: mapping symbols $a / $t mark
    where A32 / T32 code starts. A function is A32 when its value is even and the mapping symbol
    in force at it is $a (or, with no mapping symbol at all, when its value is even and the
    ELF has no Thumb function either; judged by the caller)."""
    if value & 1:
        return True, "symbol value with bit 0 set"
    index = bisect.bisect_right(mapping, (value, "z")) - 1
    if index >= 0 and mapping[index][1] == "a":
        return False, f"symbol value 0x{value:08x} with bit 0 clear and a $a mapping symbol"
    if index >= 0 and mapping[index][1] == "t":
        return True, "a $t mapping symbol"
    return True, "no mapping symbol; taken as Thumb"


def load_elf_image(path: str | Path) -> ElfImage:
    """Read ``path``; raise :class:`ElfError` naming the file and what is wrong."""
    path = Path(path)
    name = str(path)
    try:
        if path.exists() and not path.is_file():  # a folder, a device (/dev/zero would never end)
            raise ElfError(name, "not a regular file (a folder, device or pipe)")
        raw = path.read_bytes()
    except OSError as exc:
        raise ElfError(name, f"cannot read the file ({exc.strerror or exc})") from exc
    if raw[:4] != b"\x7fELF":
        raise ElfError(name, "not an ELF file (missing the \\x7fELF magic)")
    if len(raw) < 52:
        raise ElfError(name, f"truncated ELF ({len(raw)} bytes, shorter than a 32-bit ELF header)")
    if raw[4] == 2:
        raise ElfError(name, "64-bit ELF (ELFCLASS64); Cortex-M code is 32-bit ELF (ELFCLASS32)")
    if raw[4] != 1:
        raise ElfError(name, f"unknown ELF class {raw[4]} (expected 1, ELFCLASS32)")
    if raw[5] == 2:
        raise ElfError(name, "big-endian ELF (ELFDATA2MSB); Cortex-M code is little-endian")
    if raw[5] != 1:
        raise ElfError(name, f"unknown ELF data encoding {raw[5]} (expected 1, little-endian)")
    try:
        return _parse(path, raw)
    except ElfError:
        raise
    except (_PyElfError, ValueError, KeyError, IndexError, EOFError, TypeError) as exc:
        raise ElfError(name, f"malformed or truncated ELF ({type(exc).__name__}: {exc})") from exc
    except Exception as exc:  # pyelftools raises struct/construct errors on truncated input
        if type(exc).__module__.startswith(("construct", "struct", "elftools")):
            raise ElfError(
                name, f"malformed or truncated ELF ({type(exc).__name__}: {exc})"
            ) from exc
        raise


def _parse(path: Path, raw: bytes) -> ElfImage:
    import io

    name = str(path)
    elf = ELFFile(io.BytesIO(raw))
    machine = elf.header["e_machine"]
    if machine != "EM_ARM":
        raise ElfError(name, f"wrong machine {machine} (expected EM_ARM, a 32-bit Arm ELF)")
    segments: list[Segment] = []
    for seg in elf.iter_segments():
        if seg["p_type"] != "PT_LOAD" or seg["p_memsz"] == 0:
            continue
        filesz, memsz = seg["p_filesz"], seg["p_memsz"]
        if filesz > memsz:
            raise ElfError(
                name, f"PT_LOAD at 0x{seg['p_vaddr']:08x} has p_filesz {filesz} > p_memsz {memsz}"
            )
        data = seg.data()
        if len(data) != filesz:
            raise ElfError(
                name,
                f"truncated ELF: segment at 0x{seg['p_vaddr']:08x} needs {filesz} bytes, file has {len(data)}",
            )
        if seg["p_vaddr"] + memsz > 1 << 32:
            raise ElfError(
                name, f"PT_LOAD at 0x{seg['p_vaddr']:08x} of {memsz} bytes runs past 4 GiB"
            )
        for address, size in ((seg["p_vaddr"], memsz), (seg["p_paddr"], filesz)):
            problem = _region_problem(address, size)
            if problem:
                raise ElfError(name, f"PT_LOAD at 0x{seg['p_vaddr']:08x} of {memsz} bytes: {problem}")
        flags = seg["p_flags"]
        segments.append(
            Segment(
                vaddr=seg["p_vaddr"],
                paddr=seg["p_paddr"],
                data=bytes(data),
                memsz=memsz,
                writable=bool(flags & 2),
                executable=bool(flags & 1),
            )
        )
    if not segments:
        raise ElfError(name, "no loadable (PT_LOAD) segment")
    _check_no_overlap(name, segments)
    sections = [
        Section(
            name=sec.name,
            address=sec["sh_addr"],
            size=sec["sh_size"],
            writable=bool(sec["sh_flags"] & 0x1),  # SHF_WRITE
            executable=bool(sec["sh_flags"] & 0x4),  # SHF_EXECINSTR
        )
        for sec in elf.iter_sections()
        if sec["sh_flags"] & 0x2 and sec["sh_size"] > 0  # SHF_ALLOC
    ]
    symtab = elf.get_section_by_name(".symtab")
    if symtab is None:
        raise ElfError(name, "no symbol table (.symtab); the ELF was stripped")
    functions: dict[str, Symbol] = {}
    objects: dict[str, Symbol] = {}
    mapping: list[tuple[int, str]] = []  # (address, "a"/"t"/"d") of the $a/$t/$d mapping symbols
    raw_functions = []
    for sym in symtab.iter_symbols():
        kind = sym["st_info"]["type"]
        if not sym.name or sym["st_shndx"] == "SHN_UNDEF":
            continue
        if sym.name[:2] in ("$a", "$t", "$d") and sym.name[2:3] in ("", "."):
            mapping.append((sym["st_value"], sym.name[1]))
        elif kind == "STT_FUNC":
            raw_functions.append((sym.name, sym["st_value"], sym["st_size"]))
        elif kind == "STT_OBJECT":
            objects[sym.name] = Symbol(sym.name, sym["st_value"], sym["st_size"], "object")
    mapping.sort()
    for fname, value, size in raw_functions:
        thumb, evidence = _thumb_state(value, mapping)
        functions[fname] = Symbol(fname, value & ~1, size, "func", thumb, evidence)
    if not functions:
        raise ElfError(name, "no function symbols (STT_FUNC) in .symtab")
    callable_ = [f for f in functions.values() if f.name != HALT_SYMBOL]
    # Names starting with "__" are the implementation's (C11 7.1.3), e.g. compiler-rt's
    # __aeabi_unwind_cpp_pr0 that a link keeps whatever it drops.
    if HALT_SYMBOL in functions and not any(not f.name.startswith("__") for f in callable_):
        halt = functions[HALT_SYMBOL]
        helpers = "".join(f", {f.name}" for f in callable_[:3])
        raise ElfError(
            name,
            f"only the return stub {HALT_SYMBOL} ({halt.size} bytes){helpers} is linked: no "
            "function to call (a --gc-sections link dropped the rest; keep them with -Wl,-u,NAME, "
            "toolchain.build(exports=[...]) or -Wl,--no-gc-sections)",
        )
    if all(not f.thumb for f in callable_):
        arm = ", ".join(sorted(f.name for f in callable_)[:5])
        raise ElfError(
            name,
            f"ARM-state (A32) ELF: its functions ({arm}) are A32 code ({callable_[0].thumb_evidence}); "
            "Cortex-M cores execute Thumb only (ARMv7-M ARM DDI 0403E A4.1; ARMv6-M ARM DDI 0419E A4.1): "
            "build with -mthumb",
        )
    return ElfImage(
        path=path,
        entry=elf.header["e_entry"],
        segments=segments,
        functions=functions,
        objects=objects,
        sections=sections,
        vfp_args=_vfp_args(name, elf),
    )


#: Tag_ABI_VFP_args values (IHI 0045 "Tag_ABI_VFP_args, (=28), uleb128")
VFP_ARGS = {0: "base AAPCS (soft float)", 1: "VFP registers (hard float)", 2: "toolchain-specific (custom)",
            3: "compatible with both (no floating-point arguments)"}


def _vfp_args(name: str, elf: ELFFile) -> int:
    """Tag_ABI_VFP_args of the file's public ("aeabi") build attributes; 0 when absent."""
    section = elf.get_section_by_name(".ARM.attributes")
    if section is None or not hasattr(section, "iter_subsections"):
        return 0
    value = 0
    for subsection in section.iter_subsections():
        if subsection.header["vendor_name"] != "aeabi":
            continue
        for sub in subsection.iter_subsubsections():
            for attribute in sub.iter_attributes():
                if attribute.tag == "TAG_ABI_VFP_ARGS":
                    value = attribute.value
    if value not in VFP_ARGS:
        raise ElfError(name, f"Tag_ABI_VFP_args = {value!r} in .ARM.attributes; known values: "
                             + ", ".join(f"{k} {v}" for k, v in VFP_ARGS.items()))
    return value
