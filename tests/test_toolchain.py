"""The cross-compiler driver: reproducible bytes, cache keyed on inputs, clear errors."""

import pytest

from cortexm_emu.toolchain import ToolchainError, build, flags_for, gcc_available

SOURCE = "unsigned mix(unsigned a, unsigned b) { return (a ^ (b << 3)) * 2654435761u; }\nvoid cortexm_emu_halt(void) { for (;;) ; }\n"


def _write(directory, text=SOURCE):
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / "mix.c"
    path.write_text(text)
    return path


@pytest.mark.parametrize("compiler", ["zig", pytest.param("gcc", marks=pytest.mark.skipif(not gcc_available(), reason="arm-none-eabi-gcc not installed"))])
def test_same_inputs_same_bytes_from_different_folders(tmp_path, monkeypatch, compiler):
    monkeypatch.setenv("CORTEXM_EMU_CACHE", str(tmp_path / "cache1"))
    first = build([_write(tmp_path / "a")], "m4", opt="O2", compiler=compiler)
    monkeypatch.setenv("CORTEXM_EMU_CACHE", str(tmp_path / "cache2"))
    second = build([_write(tmp_path / "b")], "m4", opt="O2", compiler=compiler)
    assert not first.cached and not second.cached
    assert first.elf.read_bytes() == second.elf.read_bytes()
    assert first.elf.read_bytes()[:4] == b"\x7fELF"


def test_cache_hit_and_miss(tmp_path, monkeypatch):
    monkeypatch.setenv("CORTEXM_EMU_CACHE", str(tmp_path / "cache"))
    src = _write(tmp_path / "a")
    assert not build([src], "m0plus").cached
    assert build([src], "m0plus").cached
    assert not build([src], "m0plus", opt="O3").cached  # the flags are part of the key
    src.write_text(SOURCE.replace("3)", "5)"))
    assert not build([src], "m0plus").cached  # so is the source


def test_quoted_includes_beside_or_above_the_source_are_part_of_the_key(tmp_path, monkeypatch):
    # not in an include folder: found the way the preprocessor finds them, from the source's folder
    monkeypatch.setenv("CORTEXM_EMU_CACHE", str(tmp_path / "cache"))
    (tmp_path / "shift.h").write_text("#define SHIFT 3\n")
    src = _write(tmp_path / "a", '#include "../shift.h"\n#include "mul.h"\n'
                 + SOURCE.replace("3)", "SHIFT)").replace("2654435761u", "MUL"))
    (tmp_path / "a" / "mul.h").write_text("#define MUL 2654435761u\n")
    first = build([src], "m4")
    assert build([src], "m4").cached
    (tmp_path / "shift.h").write_text("#define SHIFT 5\n")
    second = build([src], "m4")
    assert not second.cached and second.elf.read_bytes() != first.elf.read_bytes()
    (tmp_path / "a" / "mul.h").write_text("#define MUL 40503u\n")
    assert not build([src], "m4").cached


def test_bad_core_and_opt_are_named():
    with pytest.raises(ValueError, match=r"Invalid core 'm5'; accepted: m0, m0plus, m3, m4, m7, m33"):
        flags_for("m5", "zig", "Os")
    with pytest.raises(ValueError, match=r"Invalid optimisation level 'O9'"):
        flags_for("m4", "zig", "O9")


def test_compile_error_carries_compiler_message(tmp_path, monkeypatch):
    monkeypatch.setenv("CORTEXM_EMU_CACHE", str(tmp_path / "cache"))
    bad = _write(tmp_path / "bad", "int f(void) { return undeclared_name; }\n")
    with pytest.raises(ToolchainError, match="undeclared_name"):
        build([bad], "m4")


def test_exports_keep_roots_and_drop_the_rest(tmp_path, monkeypatch):
    from elftools.elf.elffile import ELFFile

    monkeypatch.setenv("CORTEXM_EMU_CACHE", str(tmp_path / "cache"))
    src = _write(tmp_path / "a", SOURCE + "unsigned unused_helper(unsigned x) { return x / 7u; }\n")

    def functions(elf_path):
        with open(elf_path, "rb") as f:
            symtab = ELFFile(f).get_section_by_name(".symtab")
            return {s.name for s in symtab.iter_symbols() if s["st_info"]["type"] == "STT_FUNC"}

    kept = functions(build([src], "m4", exports=["mix"]).elf)
    assert {"mix", "cortexm_emu_halt"} <= kept and "unused_helper" not in kept
    assert "unused_helper" in functions(build([src], "m4").elf)
