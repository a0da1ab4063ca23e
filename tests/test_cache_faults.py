"""Fault injection over every cache (issue 32): the build cache and the price cache of cortexm_emu
and refbench's result cache, each under a full disk, a read-only folder, corrupt files, files that
are not files (/dev/zero) and well-formed records that say something else than was measured. Each
fault gives a warning naming the file or folder, once, and the answer of a clean run: no cache state
changes a number silently.

The faults are injected at the operating-system boundary: ``open`` for writing fails with ENOSPC
(disk full) or EROFS (read-only file system), and the compiler that cannot write its output exits
with status 1 and prints nothing (the reported symptom of a full disk)."""

from __future__ import annotations

import builtins
import dataclasses
import errno
import hashlib
import io
import json
import pickle
import subprocess
import warnings
from pathlib import Path
from types import ModuleType

import pytest

from cortexm_emu import ElfError, Machine, toolchain
from cortexm_emu.machine import Buffer
from cortexm_emu.price_cache import PriceCacheWarning
from cortexm_emu.toolchain import BuildCacheWarning, ToolchainError, build
from refbench.kernels.catalog import forget_builds
from refbench.measure import Job, Measurer, ResultCache, ResultCacheWarning

SOURCE = "unsigned mix(unsigned a, unsigned b) { return (a ^ (b << 3)) * 2654435761u; }\n" \
         "void cortexm_emu_halt(void) { for (;;) ; }\n"
OTHER = SOURCE.replace("2654435761u", "40503u")
M7_SOURCE = Path(__file__).resolve().parent / "asm" / "timing_m7" / "m7.S"
JOB = Job("sha256", "rolled", "sha-256", 16)
FAULTS = {"disk-full": errno.ENOSPC, "read-only": errno.EROFS}


def _source(directory: Path, text: str = SOURCE) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / "mix.c"
    path.write_text(text)
    return path


def _said(caught, category) -> list[str]:
    return [str(w.message) for w in caught if issubclass(w.category, category)]


class _FailingWrites:
    """``open`` for writing under ``root`` fails with ``code`` (os-level: every writer goes through it)."""

    def __init__(self, monkeypatch, root: Path, code: int) -> None:
        self.root, self.code = str(root), code
        self.real = io.open
        monkeypatch.setattr(builtins, "open", self)
        monkeypatch.setattr(io, "open", self)

    def __call__(self, file, mode="r", *args, **kwargs):  # noqa: ANN001, ANN002, ANN003
        if any(flag in mode for flag in "wax+") and str(file).startswith(self.root):
            raise OSError(self.code, f"[injected] {errno.errorcode[self.code]}", str(file))
        return self.real(file, mode, *args, **kwargs)


def _compiler_cannot_write_under(monkeypatch, root: Path, module: ModuleType = toolchain) -> None:
    """The compiler ``module`` runs exits 1 printing nothing when its output (-o) is under ``root``."""
    real = subprocess.run

    def run(cmd, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003
        if "-o" in cmd and str(cmd[cmd.index("-o") + 1]).startswith(str(root)):
            return subprocess.CompletedProcess(cmd, 1, "", "")
        return real(cmd, *args, **kwargs)

    monkeypatch.setattr(module.subprocess, "run", run)


@pytest.fixture
def emu_cache(tmp_path, monkeypatch):
    """A fresh cache folder for each test: what cortexm_emu says or redirects once per process is
    keyed by the folder (the price and native cache warnings, the build cache's fallback), so each
    test starts unsaid."""
    cache = tmp_path / "emu-cache"
    monkeypatch.setenv("CORTEXM_EMU_CACHE", str(cache))
    return cache


# -- build cache ---------------------------------------------------------------------------------


def test_build_cache_full_disk_compiler_fails_silently_builds_elsewhere_with_one_warning(tmp_path, emu_cache,
                                                                                          monkeypatch):
    src = _source(tmp_path / "src")
    clean = build([src], "m4", opt="O1").elf.read_bytes()  # in another cache key: same bytes expected
    monkeypatch.setenv("CORTEXM_EMU_CACHE", str(tmp_path / "full"))
    _compiler_cannot_write_under(monkeypatch, tmp_path / "full")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        first = build([src], "m4", opt="O1")
        second = build([src], "m4", opt="O2")
    said = _said(caught, BuildCacheWarning)
    assert len(said) == 1 and str(tmp_path / "full") in said[0] and "failed writing there" in said[0]
    assert first.elf.read_bytes() == clean and second.elf.is_file()
    assert not str(first.elf).startswith(str(tmp_path / "full"))


@pytest.mark.parametrize("fault", FAULTS)
def test_build_cache_write_failures_build_elsewhere_with_one_warning(tmp_path, emu_cache, monkeypatch, fault):
    src = _source(tmp_path / "src")
    other = _source(tmp_path / "other", OTHER)
    _FailingWrites(monkeypatch, emu_cache, FAULTS[fault])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        first, second = build([src], "m4"), build([other], "m4")
    said = _said(caught, BuildCacheWarning)
    assert len(said) == 1 and str(emu_cache / "builds") in said[0], said
    assert first.elf.read_bytes()[:4] == b"\x7fELF" and second.elf.read_bytes()[:4] == b"\x7fELF"
    assert Machine("m4").load_elf(first.elf).functions["mix"]


def test_build_cache_another_valid_elf_in_place_of_the_cached_one_is_rebuilt(tmp_path, emu_cache):
    src, other = _source(tmp_path / "src"), _source(tmp_path / "other", OTHER)
    first, wrong = build([src], "m4"), build([other], "m4")
    good = first.elf.read_bytes()
    first.elf.write_bytes(wrong.elf.read_bytes())  # well-formed, loads, computes something else
    with pytest.warns(BuildCacheWarning, match=rf"{first.elf} does not match its build record"):
        again = build([src], "m4")
    assert again.elf.read_bytes() == good


@pytest.mark.parametrize("which", ["out.elf", "build.json"])
def test_build_cache_a_symlink_to_dev_zero_is_named_and_rebuilt(tmp_path, emu_cache, which):
    src = _source(tmp_path / "src")
    first = build([src], "m4")
    good = first.elf.read_bytes()
    target = first.elf.with_name(which)
    target.unlink()
    target.symlink_to("/dev/zero")
    with pytest.warns(BuildCacheWarning, match="not a regular file"):
        again = build([src], "m4")
    assert again.elf.read_bytes() == good and not again.elf.is_symlink()


def test_loading_dev_zero_as_an_elf_is_a_named_error(tmp_path):
    link = tmp_path / "zero.elf"
    link.symlink_to("/dev/zero")
    with pytest.raises(ElfError, match=rf"{link}.*not a regular file"):
        Machine("m4").load_elf(link)


def test_a_compiler_that_fails_printing_nothing_gives_a_message(tmp_path, emu_cache, monkeypatch):
    src = _source(tmp_path / "src")
    _compiler_cannot_write_under(monkeypatch, Path("/"))  # everywhere: a real failure
    with pytest.raises(ToolchainError, match="exited with status 1 and printed nothing"):
        build([src], "m4")


# -- price cache ---------------------------------------------------------------------------------


def _m7_cycles() -> int:
    """The cycles of one call on a machine of a new process (a new timing model, the price file read again)."""
    from cortexm_emu.price_cache import forget_price_caches
    from cortexm_emu.timing import registry

    forget_price_caches()
    m = Machine("m7", timing=registry._model.__wrapped__("m7", (("prediction", "dynamic"),)))
    m.load_elf(build([M7_SOURCE], "m7", opt="Os", extra_flags=["-Wl,--entry=cortexm_emu_halt"]).elf)
    return m.call("alu_pairs", Buffer.zeros(64)).cycles


@pytest.fixture
def priced(emu_cache) -> tuple[int, Path]:
    """The cycles of a clean run (prices stored) and the price file."""
    cycles = _m7_cycles()
    (path,) = (emu_cache / "prices").glob("*.pickle")
    return cycles, path


@pytest.mark.parametrize("fault", FAULTS)
def test_price_cache_write_failures_warn_once_and_count_the_same(emu_cache, monkeypatch, fault):
    clean = _m7_cycles()
    for path in (emu_cache / "prices").glob("*.pickle"):
        path.unlink()
    _FailingWrites(monkeypatch, emu_cache / "prices", FAULTS[fault])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        counts = [_m7_cycles() for _ in range(2)]
    said = _said(caught, PriceCacheWarning)
    assert counts == [clean, clean]
    assert len(said) == 1 and "cannot be written" in said[0] and str(emu_cache / "prices") in said[0]


def _edit_prices(path: Path, how: str) -> None:
    fmt, entries = pickle.loads(path.read_bytes())
    for key, stored in entries.items():
        digest, body = stored[:16], stored[16:]
        entry = pickle.loads(body)
        price = entry[0]
        cycles = {"x1e30": 10**30, "halved": price.cycles // 2}[how]
        entry = (dataclasses.replace(price, cycles=cycles), *entry[1:])
        entries[key] = digest + pickle.dumps(entry)  # the old checksum kept
    path.write_bytes(pickle.dumps((fmt, entries)))


@pytest.mark.parametrize("how", ["x1e30", "halved"])
def test_price_cache_edited_prices_fail_their_checksum_and_are_priced_again(priced, monkeypatch, how):
    clean, path = priced
    _edit_prices(path, how)
    with pytest.warns(PriceCacheWarning, match=rf"{path} holds a price that fails its checksum"):
        assert _m7_cycles() == clean


@pytest.mark.parametrize("how", ["garbage", "truncated", "dev-zero"])
def test_price_cache_corrupt_files_are_named_and_ignored(priced, monkeypatch, how):
    clean, path = priced
    data = path.read_bytes()
    path.unlink()
    if how == "dev-zero":
        path.symlink_to("/dev/zero")
    else:
        path.write_bytes(b"\x80not a pickle" if how == "garbage" else data[: len(data) // 2])
    with pytest.warns(PriceCacheWarning, match=rf"{path} (cannot be read|is not a regular file)"):
        assert _m7_cycles() == clean


# -- refbench result cache -------------------------------------------------------------------------


@pytest.fixture
def measured(tmp_path, emu_cache):
    cache = ResultCache(tmp_path / "rb")
    first = Measurer("m0plus", cache=cache).measure(JOB)
    assert first.verified and not first.cached
    (record,) = list(cache.root.rglob("*.json"))
    return cache, first, record


@pytest.mark.parametrize("how", ["x1e30", "halved", "instructions", "verified"])
def test_result_cache_well_formed_but_wrong_records_are_discarded(measured, how):
    cache, first, record = measured
    data = json.loads(record.read_text())
    result = data["result"]
    if how == "x1e30":
        result["cycles"] = 10**30
    elif how == "halved":
        result["cycles"] //= 2
    elif how == "instructions":
        result["instructions"] += 1
    else:
        result["verified"] = not result["verified"]
    record.write_text(json.dumps(data))
    measurer = Measurer("m0plus", cache=cache)
    with pytest.warns(ResultCacheWarning, match=rf"{record} does not match its checksum.*measuring again"):
        again = measurer.measure(JOB)
    assert (again.cycles, again.instructions, again.verified) == (first.cycles, first.instructions, first.verified)
    assert measurer.harness_runs == 1
    assert Measurer("m0plus", cache=cache).measure(JOB).cached  # stored again, clean


def test_result_cache_a_record_without_a_checksum_is_measured_again(measured):
    cache, first, record = measured
    data = json.loads(record.read_text())
    del data["checksum"]
    data["result"]["cycles"] = 1
    record.write_text(json.dumps(data))
    measurer = Measurer("m0plus", cache=cache)
    again = measurer.measure(JOB)
    assert again.cycles == first.cycles and measurer.harness_runs == 1


def test_result_cache_records_carry_the_checksum_of_their_content(measured):
    _cache, _first, record = measured
    data = json.loads(record.read_text())
    body = {k: v for k, v in data.items() if k != "checksum"}
    assert data["checksum"] == hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()


@pytest.mark.parametrize("fault", FAULTS)
def test_result_cache_write_failures_warn_once_and_measure_right(tmp_path, emu_cache, monkeypatch, fault):
    reference = Measurer("m0plus", cache=ResultCache(tmp_path / "clean")).measure(JOB)
    cache = ResultCache(tmp_path / "rb")
    _FailingWrites(monkeypatch, tmp_path / "rb", FAULTS[fault])
    measurer = Measurer("m0plus", cache=cache)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        results = [measurer.measure(JOB) for _ in range(3)]
    said = _said(caught, ResultCacheWarning)
    assert len(said) == 1 and str(cache.root) in said[0] and "cannot be written" in said[0]
    assert all(m.cycles == reference.cycles and m.verified and not m.cached for m in results)
    assert not list((tmp_path / "rb").rglob("*.tmp"))


def test_result_cache_a_record_that_is_dev_zero_is_named(measured):
    cache, first, record = measured
    record.unlink()
    record.symlink_to("/dev/zero")
    with pytest.warns(ResultCacheWarning, match=rf"{record}.*measuring again"):
        again = Measurer("m0plus", cache=cache).measure(JOB)
    assert again.cycles == first.cycles


# -- a command end to end: `refbench cycles` with the build cache on a full disk -------------------


def test_refbench_cycles_with_a_full_build_cache_disk_warns_and_measures(tmp_path, monkeypatch, capsys):
    from refbench.cli import main

    monkeypatch.setenv("CORTEXM_EMU_CACHE", str(tmp_path / "full"))
    monkeypatch.setenv("REFBENCH_CACHE", str(tmp_path / "rb"))
    forget_builds()  # builds of earlier tests in this process come from another build cache
    _compiler_cannot_write_under(monkeypatch, tmp_path / "full")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        code = main(["cycles", "--kernel", "sha256", "--variant", "rolled", "--core", "m0plus", "--sizes", "64",
                     "--json"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    rows = json.loads(captured.out)
    assert rows and all(row["cycles"] and row["verified"] for row in rows)
    # refbench's main shows cache warnings as one stderr line (its own warnings.showwarning)
    said = _said(caught, BuildCacheWarning) + [line for line in captured.err.splitlines() if "build cache" in line]
    assert len(said) == 1 and str(tmp_path / "full") in said[0] and "failed writing there" in said[0], said


# -- the native library cache (cortexm_emu/native.py) ---------------------------------------------

from cortexm_emu import native  # noqa: E402


@pytest.fixture
def native_cache(emu_cache):
    path, reason = native.compile_library(native.SOURCE, "libtest.so")
    if path is None:
        pytest.skip(f"no host C compiler: {reason}")
    return path


@pytest.mark.parametrize("how", ["replaced", "dev-zero"])
def test_native_a_replaced_cached_library_is_named_and_compiled_again(native_cache, how):
    good = native_cache.read_bytes()
    native_cache.unlink()
    if how == "dev-zero":
        native_cache.symlink_to("/dev/zero")
    else:
        native_cache.write_bytes(good[:-64] + bytes(64))  # still a file, not the one compiled
    with pytest.warns(native.NativeCacheWarning, match=rf"{native_cache} (does not match|is not a regular file)"):
        again, _reason = native.compile_library(native.SOURCE, "libtest.so")
    record = again.with_name(again.name + ".digest").read_text()
    assert hashlib.sha256(again.read_bytes()).hexdigest() == record


def test_native_a_compiler_that_cannot_write_into_the_cache_warns_once(emu_cache, monkeypatch):
    real = subprocess.run

    def run(cmd, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003
        if "-o" in cmd and str(cmd[cmd.index("-o") + 1]).startswith(str(emu_cache)):
            return subprocess.CompletedProcess(cmd, 1, "", "")
        return real(cmd, *args, **kwargs)

    monkeypatch.setattr(native.subprocess, "run", run)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        first, _ = native.compile_library(native.SOURCE, "liba.so")
        second, _ = native.compile_library(native.SOURCE, "libb.so")
    said = _said(caught, native.NativeCacheWarning)
    if first is None:
        pytest.skip("no host C compiler")
    assert first.is_file() and second.is_file() and not str(first).startswith(str(emu_cache))
    assert len(said) == 1 and "failed writing there" in said[0]


def test_refbench_cycles_when_no_folder_can_hold_a_build_says_so_without_a_traceback(monkeypatch, capsys):
    """The build cache and the fallback folder both full: the build fails, and the command names it
    (exit 1) instead of ending in a ToolchainError traceback."""
    from refbench.cli import main

    def no_room(self, jobs, progress=None):
        raise ToolchainError("zig cc failed writing /tmp/full/out.elf: No space left on device")

    monkeypatch.setattr(Measurer, "measure_all", no_room)
    code = main(["cycles", "--kernel", "sha256", "--variant", "rolled", "--core", "m0plus", "--sizes", "64"])
    err = capsys.readouterr().err
    assert code == 1
    assert "the kernels could not be built" in err and "No space left on device" in err
    assert "Traceback" not in err
