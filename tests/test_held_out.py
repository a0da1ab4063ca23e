"""``refbench held-out``: whole programs with published board cycle counts
(refbench/heldout/held_out.toml). The default run checks the data file, the error arithmetic,
the recorded summary and one small program end to end (its package fetched into the cache with the
registry's client; skipped, saying why, when the registry cannot be reached). The whole set runs
under ``-m validate``. No test asserts a model's agreement with a published number."""

from __future__ import annotations

import json
import math
import re
import tarfile

import pytest

from cortexm_emu.datafile import DataFileError
from refbench.heldout.runner import (
    ERROR_RECORD,
    HeldOutResult,
    HeldOutSourceError,
    HeldOutUnavailable,
    check_sources,
    fetch_package,
    git_tree_id,
    held_out_error,
    held_out_json,
    key_of_set,
    load_held_out,
    record_error,
    run_held_out,
    stored_key,
    summarize_held_out,
)

SMALL = ["kyber512"]  # sources from a PyPI sdist (pypqc): reachable wherever pip is


def _result(core: str, published: float, share: float, total: int, hashing: int) -> HeldOutResult:
    return HeldOutResult("p", "keypair", core, published, share, total, hashing, "a stated test source")


def test_every_row_names_a_declared_program_and_cites_its_publication():
    data = load_held_out()
    assert len(data.rows) >= 25
    for row in data.rows:
        assert row.program in data.programs
        assert row.source.startswith("[")
    assert {p.package for p in data.programs.values()} <= set(data.packages)


def test_error_compares_the_code_outside_hashing():
    # published 1000 cycles of which 40 % hashing -> 600 outside; emulated 900 - 270 = 630
    r = _result("m4", 1000.0, 40.0, 900, 270)
    assert r.published_outside_hashing == pytest.approx(600.0)
    assert r.emulated_outside_hashing == 630
    assert r.error_percent == pytest.approx(5.0)


def test_summary_keeps_the_sign_of_the_mean():
    rows = [_result("m4", 1000.0, 0.0, 900, 0), _result("m4", 1000.0, 0.0, 1050, 0)]
    (s,) = summarize_held_out(rows)
    assert (s.n, s.mean_error, s.mean_abs_error, s.max_abs_error) == (
        2, pytest.approx(-2.5), pytest.approx(7.5), pytest.approx(10.0))


def test_recorded_error_round_trips(tmp_path):
    path = tmp_path / "err.json"
    record_error([_result("m3", 1000.0, 50.0, 800, 310)], path)
    (core, summary), = held_out_error(path).items()
    assert core == "m3" and summary.n == 1
    assert summary.mean_error == pytest.approx((490 - 500) / 500 * 100)


def test_recorded_error_file_is_the_current_schema():
    summaries = held_out_error(ERROR_RECORD)
    assert summaries and all(s.n > 0 and math.isfinite(s.max_abs_error) for s in summaries.values())
    rows = json.loads(ERROR_RECORD.read_text())["rows"]
    assert sum(s.n for s in summaries.values()) == len(rows)


def test_the_record_is_keyed_by_what_produced_it_and_current():
    from refbench.derived import stale

    data = load_held_out()
    parts = stale(stored_key(), key_of_set(data))
    assert not parts, (f"refbench/heldout/held_out_error.json is stale ({'; '.join(parts)}): run "
                       "`refbench held-out --record` and review the diff")
    recorded = json.loads(ERROR_RECORD.read_text())["rows"]
    assert [(r["program"], r["operation"], r["core"]) for r in recorded] == [
        (r.program, r.operation, r.core) for r in data.rows], "the record does not cover every row of the set"


def test_a_changed_row_model_or_package_makes_the_key_stale(monkeypatch):
    import dataclasses

    from refbench.derived import stale
    from refbench.heldout import runner

    data = load_held_out()
    current = key_of_set(data)
    first = dataclasses.replace(data.rows[0], published=data.rows[0].published + 1)
    edited = dataclasses.replace(data, rows=(first, *data.rows[1:]))
    assert [p.split(":")[0] for p in stale(current, key_of_set(edited))] == ["held_out_set programs and rows"]
    package = next(iter(data.packages.values()))
    repackaged = dataclasses.replace(data, packages={**data.packages, package.name: dataclasses.replace(
        package, integrity=package.integrity[:-4] + "AAA=")})
    assert [p.split(":")[0] for p in stale(current, key_of_set(repackaged))] == [
        f"packages {package.registry} {package.name} {package.version}"]
    core = data.rows[0].core
    model = runner.held_out_model(core)
    monkeypatch.setattr(runner, "held_out_model", lambda c, fetch="flash": type("Model", (), {"version": "x"})())
    assert f"timing_models {core}: {model.version} -> x" in stale(current, key_of_set(data))
    assert stale(None, current) == ["the file has no key (what produced it is not recorded)"]


def test_unreadable_record_names_the_file(tmp_path):
    path = tmp_path / "err.json"
    path.write_text('{"schema": "other"}')
    with pytest.raises(DataFileError, match=r"err\.json"):
        held_out_error(path)
    record_error([], path)
    with pytest.raises(DataFileError, match=r"err\.json.*the summary is empty"):
        held_out_error(path)


@pytest.mark.parametrize(
    "old, new, field",
    [
        ('core = "m4"', 'core = "m9"', "row[0].core"),
        ("hash_percent = 49.8", "hash_percent = 100", "row[0].hash_percent"),
        ('operation = "keypair"', 'operation = "open"', "row[0].operation"),
        ('registry = "npm"', 'registry = "pypi-sdist"', "package[0].registry"),
        ('registry = "pypi"', 'registry = "npm"', "package[1].integrity"),
        ('source_tree = "238f7f6ff696', 'source_tree = "238F7F6FF696', "program[0].source_tree"),
    ],
)
def test_bad_data_names_file_and_field(tmp_path, old, new, field):
    from refbench.heldout.runner import HELD_OUT

    text = HELD_OUT.read_text()
    assert old in text
    path = tmp_path / "held.toml"
    path.write_text(text.replace(old, new, 1))
    with pytest.raises(DataFileError, match=r"held\.toml:\d+: field '" + re.escape(field) + "'"):
        load_held_out(path)


def test_missing_registry_client_is_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.setenv("REFBENCH_CACHE", str(tmp_path))
    monkeypatch.setattr("refbench.heldout.sources.shutil.which", lambda name: None)
    npm = next(p for p in load_held_out().packages.values() if p.registry == "npm")
    with pytest.raises(HeldOutUnavailable, match=rf"{npm.name}@{npm.version}: the npm client"):
        fetch_package(npm)


def test_archive_that_does_not_match_its_integrity_is_refused(tmp_path, monkeypatch):
    import subprocess

    monkeypatch.setenv("REFBENCH_CACHE", str(tmp_path))
    pypi = next(p for p in load_held_out().packages.values() if p.registry == "pypi")

    def fake_download(command, **kwargs):
        folder = command[command.index("-d") + 1]
        (tmp_path / "fake").mkdir()
        with tarfile.open(f"{folder}/{pypi.name}-{pypi.version}.tar.gz", "w:gz") as tar:
            tar.add(tmp_path / "fake", arcname="fake")
        return subprocess.CompletedProcess(command, 0, "", "")

    monkeypatch.setattr("refbench.heldout.sources.subprocess.run", fake_download)
    with pytest.raises(HeldOutUnavailable, match=rf"{pypi.name} {pypi.version}: integrity sha256:[0-9a-f]+ does not"):
        fetch_package(pypi)
    assert not (tmp_path / "held_out" / f"pypi-{pypi.name}-{pypi.version}").exists()


def _sample_tree(root):
    (root / "sub").mkdir(parents=True)
    (root / "a.c").write_bytes(b"int a;\n")
    (root / "sub" / "b.h").write_bytes(b"#define B 1\n")
    (root / "run.sh").write_bytes(b"#!/bin/sh\n")
    (root / "run.sh").chmod(0o755)
    (root / "sub.c").write_bytes(b"")  # sorts between "sub" the tree ("sub/") and files named "sub"
    return root


def test_git_tree_id_is_the_id_git_gives_the_same_files(tmp_path):
    import shutil
    import subprocess

    if shutil.which("git") is None:
        pytest.skip("git not installed: the id is compared with git's own")
    root = _sample_tree(tmp_path / "tree")
    git = ["git", "-C", str(root), "-c", "core.fileMode=true"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    expected = subprocess.run([*git, "write-tree"], check=True, capture_output=True, text=True).stdout.strip()
    shutil.rmtree(root / ".git")
    assert git_tree_id(root) == expected
    (root / "run.sh").chmod(0o644)  # the executable bit is part of the id
    assert git_tree_id(root) != expected


def test_sources_other_than_the_measured_tree_are_refused(tmp_path):
    import dataclasses

    from refbench.heldout.runner import run_program

    root = tmp_path / "pkg"
    _sample_tree(root / "crypto_kem" / "x" / "clean")
    program = dataclasses.replace(next(iter(load_held_out().programs.values())), name="x",
                                  directory="crypto_kem/x/clean", source_tree="")
    measured = dataclasses.replace(program, source_tree=git_tree_id(root / program.directory))
    check_sources(measured, root)  # the same files: accepted
    (root / program.directory / "sub" / "b.h").write_bytes(b"#define B 2\n")
    with pytest.raises(HeldOutSourceError, match=r"program x: the sources .*clean have git tree [0-9a-f]{40}, "
                                                 r"not the recorded source_tree"):
        check_sources(measured, root)
    with pytest.raises(HeldOutSourceError, match="program x"):  # refused before anything is built
        run_program(measured, "m4", root)
    missing = dataclasses.replace(measured, directory="crypto_kem/none/clean")
    with pytest.raises(HeldOutSourceError, match=r"\(no such directory\)"):
        check_sources(missing, root)
    check_sources(program, root)  # no recorded tree: nothing to compare


def test_signing_goes_through_the_ctx_forms_where_api_h_makes_the_plain_names_macros(tmp_path):
    import dataclasses

    from refbench.heldout.runner import _api

    program = dataclasses.replace(next(p for p in load_held_out().programs.values() if p.kind == "sign"),
                                  directory="d", namespace="NS_")
    (tmp_path / "d").mkdir()
    api = tmp_path / "d" / "api.h"
    api.write_text("int NS_crypto_sign(uint8_t *sm);\nint NS_crypto_sign_open(uint8_t *m);\n")
    assert _api(program, tmp_path) == ("crypto_sign_keypair", "crypto_sign", "crypto_sign_open")
    api.write_text("#define NS_crypto_sign(sm, smlen, m, mlen, sk) NS_crypto_sign_ctx(sm, smlen, m, mlen, NULL, 0, sk)\n"
                   "#define NS_crypto_sign_open(m, mlen, sm, smlen, pk) "
                   "NS_crypto_sign_open_ctx(m, mlen, sm, smlen, NULL, 0, pk)\n")
    assert _api(program, tmp_path) == ("crypto_sign_keypair", "crypto_sign_ctx", "crypto_sign_open_ctx")


def test_source_tree_changes_no_number_so_it_is_not_keyed():
    import dataclasses

    data = load_held_out()
    name, program = next((n, p) for n, p in data.programs.items() if p.source_tree)
    other = dataclasses.replace(data, programs={**data.programs, name: dataclasses.replace(program, source_tree="0" * 40)})
    assert key_of_set(other) == key_of_set(data)


def _run_or_skip(programs=None):
    from cortexm_emu.toolchain import gcc_available

    if not gcc_available():
        pytest.skip("arm-none-eabi-gcc not installed (Debian gcc-arm-none-eabi): the held-out programs "
                    "are built with GCC, as published")
    try:
        return run_held_out(programs=programs)
    except HeldOutUnavailable as exc:
        pytest.skip(f"held-out sources unavailable here (registry not reachable): {exc}")


def test_small_program_runs_with_checked_outputs():
    results = _run_or_skip(SMALL)
    assert {(r.program, r.operation) for r in results} == {(SMALL[0], op) for op in ("keypair", "enc", "dec")}
    for r in results:
        # the hashing functions run in every ML-KEM operation, and are not all of it
        assert 0 < r.emulated_hashing < r.emulated_total
    again = _run_or_skip(SMALL)
    assert [r.emulated_total for r in again] == [r.emulated_total for r in results]


@pytest.mark.slow
@pytest.mark.validate
def test_whole_held_out_set_runs_and_matches_the_record():
    results = _run_or_skip()
    data = load_held_out()
    assert len(results) == len(data.rows)
    recorded = json.loads(ERROR_RECORD.read_text())["rows"]
    fresh = held_out_json(results)["rows"]
    assert [(r["program"], r["operation"], r["core"], r["emulated_total"]) for r in recorded] == [
        (r["program"], r["operation"], r["core"], r["emulated_total"]) for r in fresh
    ], "refbench/heldout/held_out_error.json is stale: run refbench held-out --record"


def test_reference_ntt_round_trips_and_sizes_follow_fips203():
    from refbench.heldout import fips203 as mlkem_check

    f = [(i * 7919) % mlkem_check.Q for i in range(mlkem_check.N)]
    assert mlkem_check._intt(mlkem_check._ntt(f)) == f
    for level, (ek_len, dk_len, ct_len) in {512: (800, 1632, 768), 768: (1184, 2400, 1088),
                                           1024: (1568, 3168, 1568)}.items():
        ek, dk = mlkem_check.keygen(level, bytes(32), bytes(range(32)))
        secret, ct = mlkem_check.encaps(level, ek, bytes(32))
        assert (len(ek), len(dk), len(ct), len(secret)) == (ek_len, dk_len, ct_len, 32)
        assert dk.endswith(bytes(range(32)))  # z closes the decapsulation key
    # the draft hashes d alone, the standard d || k: different keys from the same seed
    assert mlkem_check.keygen(512, bytes(32), bytes(32)) != mlkem_check.keygen(512, bytes(32), bytes(32), draft=True)


def test_runtime_random_bytes_restart_at_every_call():
    from refbench.heldout.runner import runtime_random_bytes

    assert runtime_random_bytes(64)[:32] == runtime_random_bytes(32)
    assert len(set(runtime_random_bytes(64))) > 32


def test_output_that_differs_from_the_reference_is_an_error(monkeypatch):
    from refbench.heldout import fips203 as mlkem_check
    from refbench.heldout.runner import HeldOutOutputError

    real = mlkem_check.keygen

    def flipped(*args, **kwargs):
        ek, dk = real(*args, **kwargs)
        return bytes([ek[0] ^ 1]) + ek[1:], dk

    monkeypatch.setattr(mlkem_check, "keygen", flipped)
    with pytest.raises(HeldOutOutputError, match=r"kyber512 on m4: the keypair differs from the fips203-ipd-512"):
        _run_or_skip(SMALL)


def test_cli_held_out_prints_rows_and_the_fetch_setting(capsys):
    from refbench.cli import main

    _run_or_skip(SMALL)  # skips here when the sources cannot be fetched
    assert main(["held-out", "--program", SMALL[0]]) == 0
    out = capsys.readouterr().out
    assert "fetch=flash" in out and f"{SMALL[0]} keypair" in out and "m4: n=3 mean error" in out
    assert main(["held-out", "--program", SMALL[0], "--fetch", "ideal", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [r["operation"] for r in doc["rows"]] == ["keypair", "enc", "dec"]
    assert doc["summary"][0]["n"] == 3


@pytest.mark.parametrize(
    "argv, message",
    [
        (["held-out", "--record", "--fetch", "ideal"], "Invalid --record with --fetch ideal"),
        (["held-out", "--program", "nope"], "Invalid held-out program(s) nope"),
        (["held-out", "--record", "--core", "m4"], "Invalid --record with --core"),
        (["held-out", "--record", "--program", SMALL[0], "--core", "m4"], "Invalid --record with --core and --program"),
    ],
)
def test_cli_held_out_misuse_is_a_clear_error(argv, message, capsys):
    from refbench.cli import main

    assert main(argv) == 2
    assert message in capsys.readouterr().err


def test_cli_held_out_on_a_core_without_rows_says_so_and_fails(capsys):
    from refbench.cli import main

    with_rows = sorted({r.core for r in load_held_out().rows})
    without = next(core for core in ("m3", "m0", "m7", "m33", "m0plus") if core not in with_rows)
    assert main(["held-out", "--core", without]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert f"no held-out rows on {without}; the cores with rows: {', '.join(with_rows)}" in captured.err


def test_core_model_term_uses_held_out_error_where_a_core_has_it(monkeypatch):
    from refbench.heldout import runner
    from refbench.heldout.runner import HeldOutSummary
    from refbench.sanity.prediction import model_error_term

    synthetic = {"m3": HeldOutSummary("m3", 4, -3.0, 3.0, 8.0)}
    monkeypatch.setattr(runner, "held_out_error", lambda: synthetic)
    held = model_error_term("m3")
    assert (held.low, held.high) == (pytest.approx(1 / 1.08), pytest.approx(1.08))
    assert "held-out" in held.source and "8.0 %" in held.source and "over 4 whole-program rows" in held.source
    assert "after the rules it guided were added" in held.source and "not a pure out-of-sample error" in held.source
    other = model_error_term("m0plus")  # no held-out rows: validate's error, said to be not held out
    assert "transcription check, not held out" in other.source and (other.low, other.high) != (held.low, held.high)
