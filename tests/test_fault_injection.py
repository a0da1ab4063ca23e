"""Fault injection (issue 19): every kind of cache file corrupted, truncated or unreadable, a
cache that cannot be written, and interrupts. Each fault must give a warning naming the file or
directory and a correct result (rebuilt or re-measured), never a traceback or a changed answer."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
import warnings
from pathlib import Path

import pytest

from cortexm_emu.toolchain import BuildCacheWarning, build

SOURCE = "unsigned mix(unsigned a, unsigned b) { return (a ^ (b << 3)) * 2654435761u; }\n" \
         "void cortexm_emu_halt(void) { for (;;) ; }\n"
ROOT = Path(__file__).resolve().parent.parent
KERNELS = ROOT / "refbench" / "kernels"


def _source(directory: Path) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / "mix.c"
    path.write_text(SOURCE)
    return path


@pytest.fixture
def build_cache(tmp_path, monkeypatch):
    cache = tmp_path / "emu-cache"
    monkeypatch.setenv("CORTEXM_EMU_CACHE", str(cache))
    return cache


def _leftover_tmp(root: Path) -> list[Path]:
    return [p for p in root.rglob("*.tmp")] if root.exists() else []


# ------------------------------------------------------------------------------------------
# Build cache: out.elf and its build record


def _corrupt(path: Path, how: str) -> None:
    data = path.read_bytes()
    if how == "truncated":
        path.write_bytes(data[: len(data) // 2])
    elif how == "corrupted":
        path.write_bytes(data[:100] + bytes([data[100] ^ 0xFF]) + data[101:])
    elif how == "empty":
        path.write_bytes(b"")
    elif how == "garbage":
        path.write_bytes(b"\x00not json{")
    elif how == "deleted":
        path.unlink()
    else:
        raise AssertionError(how)


@pytest.mark.parametrize("how", ["truncated", "corrupted", "empty"])
def test_a_corrupt_cached_elf_is_rebuilt_with_a_warning_naming_it(tmp_path, build_cache, how):
    src = _source(tmp_path / "src")
    first = build([src], "m4")
    good = first.elf.read_bytes()
    _corrupt(first.elf, how)
    with pytest.warns(BuildCacheWarning, match=rf"{first.elf}.*rebuilding"):
        again = build([src], "m4")
    assert not again.cached and again.elf.read_bytes() == good
    assert build([src], "m4").cached  # and now it is a clean hit
    assert not _leftover_tmp(build_cache)


@pytest.mark.parametrize("how", ["garbage", "empty", "deleted"])
def test_a_bad_build_record_is_rebuilt_with_a_warning_naming_it(tmp_path, build_cache, how):
    src = _source(tmp_path / "src")
    first = build([src], "m4")
    record = first.elf.with_name("build.json")
    assert json.loads(record.read_text())["elf_sha256"]
    _corrupt(record, how)
    name = first.elf if how == "deleted" else record
    with pytest.warns(BuildCacheWarning, match=rf"{name}.*rebuilding"):
        again = build([src], "m4")
    assert not again.cached and json.loads(record.read_text())["command"][-1] == str(again.elf)


def test_an_unreadable_cached_elf_is_rebuilt(tmp_path, build_cache, monkeypatch):
    src = _source(tmp_path / "src")
    first = build([src], "m4")
    good = first.elf.read_bytes()
    real = Path.read_bytes

    def deny(self):
        if self == first.elf:
            raise PermissionError(13, "Permission denied", str(self))
        return real(self)

    monkeypatch.setattr(Path, "read_bytes", deny)
    with pytest.warns(BuildCacheWarning, match=rf"{first.elf} is unreadable"):
        again = build([src], "m4")
    monkeypatch.undo()
    assert again.elf.read_bytes() == good


def test_an_unwritable_build_cache_warns_once_and_builds_uncached(tmp_path, monkeypatch):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the cache folder should be")
    monkeypatch.setenv("CORTEXM_EMU_CACHE", str(blocker / "cache"))
    src = _source(tmp_path / "src")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        first = build([src], "m4")
        second = build([src], "m4", opt="O2")
    said = [str(w.message) for w in caught if issubclass(w.category, BuildCacheWarning)]
    assert len(said) == 1 and str(blocker / "cache") in said[0] and "cannot be written" in said[0]
    assert first.elf.read_bytes()[:4] == b"\x7fELF" and second.elf.is_file()


# ------------------------------------------------------------------------------------------
# Cache keys from content (item 9)


def _kernel_tree(dest: Path) -> Path:
    for part in ("common", "sha256"):
        shutil.copytree(KERNELS / part, dest / "kernels" / part)
    return dest / "kernels"


def test_the_same_kernel_tree_in_two_checkouts_has_one_key_and_one_elf(tmp_path, monkeypatch):
    builds = []
    for name in ("checkout-a", "somewhere/else/checkout-b"):
        tree = _kernel_tree(tmp_path / name)
        monkeypatch.setenv("CORTEXM_EMU_CACHE", str(tmp_path / f"cache-{len(builds)}"))
        sources = [tree / "sha256" / "rolled" / "sha256.c", tree / "sha256" / "sha256_digest.c"]
        sources = [s for s in sources if s.is_file()] or sorted((tree / "sha256").rglob("*.c"))
        builds.append(build(sources, "m4", include_dirs=[tree / "common", tree / "sha256"], exports=[]))
    a, b = builds
    assert a.elf.parent.name == b.elf.parent.name  # the key
    assert a.elf.read_bytes() == b.elf.read_bytes()
    for checkout in ("checkout-a", "checkout-b"):
        assert checkout.encode() not in a.elf.read_bytes()
    # and one shared cache serves the second checkout without compiling
    monkeypatch.setenv("CORTEXM_EMU_CACHE", str(tmp_path / "cache-0"))
    tree_b = tmp_path / "somewhere/else/checkout-b/kernels"
    sources = [tree_b / p.relative_to(tmp_path / "checkout-a/kernels") for p in
               [Path(s) for s in builds[0].command if s.endswith(".c")]]
    assert build(sources, "m4", include_dirs=[tree_b / "common", tree_b / "sha256"], exports=[]).cached


# ------------------------------------------------------------------------------------------
# Result cache: measurement records (items 5, 6)

from refbench.measure import Job, Measurer, ResultCache, ResultCacheWarning  # noqa: E402

JOB = Job("sha256", "rolled", "sha-256", 16)


@pytest.fixture
def result_cache(tmp_path, monkeypatch, build_cache):
    monkeypatch.setenv("REFBENCH_CACHE", str(tmp_path / "rb-cache"))
    return ResultCache()


def _measure_twice(cache: ResultCache):
    """A fresh measurement stored in ``cache``, and the path of its record."""
    measurer = Measurer("m0plus", cache=cache)
    first = measurer.measure(JOB)
    assert first.verified and not first.cached
    (record,) = list(cache.root.rglob("*.json"))
    return first, record


def _malform(record: Path, how: str) -> None:
    data = json.loads(record.read_text())
    if how == "truncated":
        record.write_text(record.read_text()[:200])
    elif how == "not-json":
        record.write_bytes(b"\xff\xfe garbage")
    elif how == "no-result":
        del data["result"]
        record.write_text(json.dumps(data))
    elif how == "missing-field":
        del data["result"]["cycles"]
        record.write_text(json.dumps(data))
    elif how == "wrong-type":
        data["result"]["cycles"] = "84,123"
        record.write_text(json.dumps(data))
    elif how == "negative":
        data["result"]["instructions"] = -5
        record.write_text(json.dumps(data))
    elif how == "verified-not-bool":
        data["result"]["verified"] = "yes"
        record.write_text(json.dumps(data))
    else:
        raise AssertionError(how)


@pytest.mark.parametrize("how", ["truncated", "not-json", "no-result", "missing-field", "wrong-type", "negative",
                                 "verified-not-bool"])
def test_a_malformed_result_record_is_discarded_and_measured_again(result_cache, how):
    first, record = _measure_twice(result_cache)
    _malform(record, how)
    again_measurer = Measurer("m0plus", cache=result_cache)
    with pytest.warns(ResultCacheWarning, match=rf"{record}.*discarded, measuring again"):
        again = again_measurer.measure(JOB)
    assert not again.cached and again_measurer.harness_runs == 1
    assert (again.cycles, again.verified) == (first.cycles, first.verified)
    third = Measurer("m0plus", cache=result_cache).measure(JOB)  # stored again, clean
    assert third.cached and third.cycles == first.cycles


def test_an_unreadable_result_record_is_measured_again(result_cache, monkeypatch):
    first, record = _measure_twice(result_cache)
    real = Path.read_text

    def deny(self, *args, **kwargs):
        if self == record:
            raise PermissionError(13, "Permission denied", str(self))
        return real(self, *args, **kwargs)

    monkeypatch.setattr(Path, "read_text", deny)
    with pytest.warns(ResultCacheWarning, match=rf"{record} cannot be read"):
        again = Measurer("m0plus", cache=result_cache).measure(JOB)
    assert again.cycles == first.cycles and not again.cached


def test_an_unwritable_result_cache_warns_once_and_runs_uncached(tmp_path, build_cache):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    cache = ResultCache(blocker / "rb")
    measurer = Measurer("m0plus", cache=cache)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        results = [measurer.measure(Job("sha256", "rolled", "sha-256", size)) for size in (16, 64, 16)]
    said = [str(w.message) for w in caught if issubclass(w.category, ResultCacheWarning)]
    assert len(said) == 1 and str(cache.root) in said[0] and "cannot be written" in said[0]
    assert all(m.verified and not m.cached for m in results) and measurer.harness_runs == 3


def test_an_interrupted_write_leaves_no_temporary_file(result_cache, monkeypatch):
    fields = {"k": 1}
    real = Path.replace

    def interrupted(self, target):
        raise KeyboardInterrupt

    monkeypatch.setattr(Path, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        result_cache.put(fields, {"key": fields})
    monkeypatch.setattr(Path, "replace", real)
    assert not _leftover_tmp(result_cache.root)


# ------------------------------------------------------------------------------------------
# figures.json (item 4): any JSON layout loads every record; errors keep file:line

from cortexm_emu.datafile import DataFileError  # noqa: E402
from refbench.published.model import FIGURES_PATH, load_figures  # noqa: E402


def _records():
    return json.loads(FIGURES_PATH.read_text(encoding="utf-8"))


@pytest.mark.parametrize("layout", ["reordered keys", "space after brace", "multi-line", "compact", "indented"])
def test_figures_load_in_any_json_layout(tmp_path, layout):
    document = _records()
    expected = len(document["figures"])
    path = tmp_path / "figures.json"
    if layout == "reordered keys":
        document["figures"] = [dict(reversed(list(r.items()))) for r in document["figures"]]
        path.write_text(json.dumps(document))
    elif layout == "space after brace":
        text = FIGURES_PATH.read_text(encoding="utf-8").replace('\n{"id"', '\n{ "id"')
        path.write_text(text)
    elif layout == "multi-line":
        path.write_text(json.dumps(document, indent=2))
    elif layout == "compact":
        path.write_text(json.dumps(document, separators=(",", ":")))
    else:
        path.write_text(json.dumps(document, indent="\t", sort_keys=True))
    loaded = load_figures(path)
    assert len(loaded) == expected == len(load_figures())
    assert [f.id for f in loaded] == [f.id for f in load_figures()]


def test_a_multi_line_record_error_names_the_line_of_its_bad_field(tmp_path):
    document = _records()
    document["figures"][1]["clock_mhz"] = "fast"
    path = tmp_path / "figures.json"
    text = json.dumps(document, indent=1)
    path.write_text(text)
    line = next(n for n, row in enumerate(text.splitlines(), 1) if '"clock_mhz": "fast"' in row)
    with pytest.raises(DataFileError) as info:
        load_figures(path)
    assert (info.value.line, info.value.field) == (line, "clock_mhz")
    assert f"{path}:{line}" in str(info.value)


@pytest.mark.parametrize("how", ["truncated", "empty", "no figures list", "figures not a list", "not UTF-8",
                                 "a folder"])
def test_a_broken_figures_file_is_a_data_file_error(tmp_path, how):
    path = tmp_path / "figures.json"
    text = FIGURES_PATH.read_text(encoding="utf-8")
    if how == "a folder":
        path.mkdir()
    elif how == "not UTF-8":
        path.write_bytes(b"\xff\xfe{")
    else:
        path.write_text({"truncated": text[: len(text) // 2], "empty": "",
                         "no figures list": '{"schema": "x"}', "figures not a list": '{"figures": {}}'}[how])
    with pytest.raises(DataFileError, match=str(path)):
        load_figures(path)


# ------------------------------------------------------------------------------------------
# Interrupts (item 8): SIGINT stops the workers at once with exit 130 and no traceback;
# workers exit when their parent dies; no temporary file is left behind.

#: The whole report from a cold result cache: thousands of jobs, so the run is still working when the
#: signal arrives, however fast the machine, however warm the build and price caches (a single board's
#: few hundred jobs could finish within the second the test waits for the workers to start).
SANITY = [sys.executable, "-m", "refbench.cli", "sanity", "--format", "json"]
#: Generous bound against a hang; no test asserts how long anything takes.
GUARD_SECONDS = 300


def _children(pid: int) -> list[int]:
    """Pids whose parent is ``pid`` (from /proc)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def _workers(pid: int) -> list[int]:
    """The spawned worker processes of ``pid`` (their command line names multiprocessing's spawn)."""
    out = []
    for child in _children(pid):
        try:
            cmdline = Path(f"/proc/{child}/cmdline").read_bytes()
        except OSError:
            continue
        if b"spawn_main" in cmdline:
            out.append(child)
    return out


def _default_sigint() -> None:
    """SIGINT as in a user's shell. An ignored signal is inherited across exec, and Python installs
    its KeyboardInterrupt handler only when SIGINT is not ignored: under a test runner whose worker
    ignores SIGINT (some pytest-xdist/execnet versions do), the command would never see Ctrl-C."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _start_sanity(tmp_path: Path) -> tuple[subprocess.Popen, list[int]]:
    """A cold-result-cache sanity run with two workers, once both workers are running."""
    env = {**os.environ, "REFBENCH_CACHE": str(tmp_path / "rb"), "REFBENCH_WORKERS": "2", "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(SANITY, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True, preexec_fn=_default_sigint)
    deadline = time.monotonic() + GUARD_SECONDS
    while time.monotonic() < deadline and proc.poll() is None:
        workers = _workers(proc.pid)
        if len(workers) >= 2:
            time.sleep(1.0)  # let them take their first tasks
            return proc, _workers(proc.pid)
        time.sleep(0.1)
    proc.kill()
    raise AssertionError(f"no workers started (exit {proc.poll()}): {proc.communicate()[1].decode()[-2000:]}")


def _wait_gone(pids: list[int]) -> list[int]:
    deadline = time.monotonic() + GUARD_SECONDS
    while time.monotonic() < deadline and any(_alive(p) for p in pids):
        time.sleep(0.2)
    return [p for p in pids if _alive(p)]


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc to see worker processes")
def test_sigint_stops_the_workers_with_exit_130_and_no_traceback(tmp_path):
    proc, workers = _start_sanity(tmp_path)
    assert workers
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=GUARD_SECONDS)
    assert proc.returncode == 130, err.decode()[-2000:]
    assert b"Traceback" not in err and b"KeyboardInterrupt" not in err
    assert b"interrupted" in err
    assert not _wait_gone(workers)
    emu_cache = Path(os.environ.get("CORTEXM_EMU_CACHE") or Path.home() / ".cache" / "cortexm_emu")
    for pid in [proc.pid, *workers]:  # temporary files carry the writer's pid
        assert not list((tmp_path / "rb").rglob(f"*.{pid}.tmp")) and not list(emu_cache.rglob(f"*.{pid}.tmp"))


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc to see worker processes")
def test_workers_exit_when_their_parent_is_killed(tmp_path):
    proc, workers = _start_sanity(tmp_path)
    tracker = [c for c in _children(proc.pid) if c not in workers]  # e.g. multiprocessing's resource tracker
    proc.send_signal(signal.SIGKILL)
    proc.communicate(timeout=GUARD_SECONDS)
    assert not _wait_gone(workers + tracker), "orphaned processes after the parent was killed"


# ------------------------------------------------------------------------------------------
# End to end (items 1, 5, 6): the report is the same whatever happened to its caches, and says
# what it repaired. The verdict itself is not pinned: the run is compared with itself.

HMAC_G071 = [sys.executable, "-m", "refbench.cli", "sanity", "--board", "G071", "--algorithm", "HMAC-SHA-256",
             "--format", "json"]


def _sanity(emu: Path, rb: Path) -> tuple[list, str]:
    """The figures of the report (refbench-sanity/2 JSON) and stderr."""
    env = {**os.environ, "CORTEXM_EMU_CACHE": str(emu), "REFBENCH_CACHE": str(rb), "REFBENCH_WORKERS": "2"}
    proc = subprocess.run(HMAC_G071, cwd=ROOT, env=env, capture_output=True, timeout=GUARD_SECONDS)
    err = proc.stderr.decode()
    assert proc.returncode == 0 and "Traceback" not in err, err[-3000:]
    return json.loads(proc.stdout)["figures"], err


def _comparable(report: list) -> list:
    """The report without what says where a measurement came from (cache or run)."""
    return json.loads(json.dumps(report).replace('"cached": true', '"cached": false'))


def test_corrupt_and_unwritable_caches_leave_the_report_unchanged(tmp_path):
    emu, rb = tmp_path / "emu", tmp_path / "rb"
    clean, err = _sanity(emu, rb)
    assert "warning" not in err
    elf = sorted(emu.rglob("out.elf"))[0]
    elf.write_bytes(elf.read_bytes()[:1000])  # the reproduction: one cached ELF truncated
    record = sorted(rb.rglob("*.json"))[0]
    data = json.loads(record.read_text())
    data["result"]["cycles"] = None  # and one result record malformed
    record.write_text(json.dumps(data))
    repaired, err = _sanity(emu, rb)
    assert _comparable(repaired) == _comparable(clean)
    assert f"refbench: warning: cached build {elf}" in err and "rebuilding" in err
    assert f"refbench: warning: cached measurement {record}" in err and "measuring again" in err
    assert all("failed" not in reason for j in repaired for reason in j["reasons"])

    blocker = tmp_path / "a-file"
    blocker.write_text("caches cannot be made under a file")
    uncached, err = _sanity(blocker / "emu", blocker / "rb")
    assert _comparable(uncached) == _comparable(clean)
    warned = [line for line in err.splitlines() if line.startswith("refbench: warning:")]
    # once per cache (builds, native libraries, prices, results), not once per build, file, record or worker
    assert len(warned) == 4, err
    assert any(str(blocker / "emu") in w for w in warned) and any(str(blocker / "rb") in w for w in warned)
