"""``refbench cycles``: JSON keys, the cache across invocations, bad names (exit 2)."""

from __future__ import annotations

import json

import pytest

from refbench.cli import main
from refbench.kernels import harness as harness_module
from refbench.kernels.catalog import family

REQUIRED = {"kernel", "variant", "core", "board", "size", "cycles", "cycles_per_byte", "stack_bytes", "code_bytes",
            "verified"}


@pytest.fixture(autouse=True)
def isolated_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("REFBENCH_CACHE", str(tmp_path))


def run_json(capsys, *argv: str) -> list[dict]:
    assert main(["cycles", *argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_json_has_the_required_keys(capsys):
    rows = run_json(capsys, "--kernel", "sha256", "--variant", "rolled", "--operation", "sha-256", "--core", "m0plus",
                    "--sizes", "16,64")
    assert [r["size"] for r in rows] == [16, 64]
    for r in rows:
        assert REQUIRED <= set(r)
        assert r["kernel"] == "sha256" and r["variant"] == "rolled" and r["core"] == "m0plus" and r["board"] is None
        assert r["verified"] is True and r["memory"] == "ideal" and r["memory_cycles"] == 0
        assert r["cycles_per_byte"] == pytest.approx(r["cycles"] / r["size"])


def test_second_invocation_comes_from_the_cache(capsys, monkeypatch):
    argv = ("--kernel", "md5", "--sizes", "64,128")
    first = run_json(capsys, *argv)
    calls = []
    monkeypatch.setattr(harness_module.KernelHarness, "run", lambda *a, **k: calls.append(a))
    second = run_json(capsys, *argv)
    assert calls == []
    assert all(r["cached"] for r in second)

    def strip(rows: list[dict]) -> list[dict]:
        return [{k: v for k, v in r.items() if k != "cached"} for r in rows]

    assert strip(first) == strip(second)


def test_board_reports_time_at_its_clock(capsys):
    rows = run_json(capsys, "--kernel", "sha256", "--variant", "rolled", "--operation", "sha-256", "--board", "stm32wl55jc", "--clock", "48",
                    "--sizes", "64")
    (row,) = rows
    assert row["board"] == "stm32wl55jc" and row["core"] == "m4" and row["clock_mhz"] == 48
    assert row["time_us"] == pytest.approx(row["cycles"] / 48)


def test_board_cache_option_selects_the_memory_configuration(capsys):
    argv = ("--kernel", "aes", "--variant", "ttable4", "--operation", "cbc-encrypt", "--board", "stm32l4a6zg",
            "--sizes", "64")
    (on,) = run_json(capsys, *argv)
    (off,) = run_json(capsys, *argv, "--cache", "off")
    assert on["memory"] == "stm32l4a6zg @ 80 MHz, 4 WS, caches on, prefetch on, code in flash"
    assert off["memory"] == "stm32l4a6zg @ 80 MHz, 4 WS, caches off, prefetch off, code in flash"
    assert on["memory_cycles"] > 0 and off["memory_cycles"] > 0
    assert on["cycles"] - on["memory_cycles"] == off["cycles"] - off["memory_cycles"]  # the same core cycles
    assert main(["cycles", *argv, "--cache", "off"]) == 0
    out = capsys.readouterr().out
    assert "4 WS, caches" in out and "1 measurements" in out


def test_table_output(capsys):
    assert main(["cycles", "--kernel", "sha256", "--variant", "rolled", "--operation", "sha-256", "--sizes", "64"]) == 0
    out = capsys.readouterr().out
    assert "sha256/rolled" in out and "memory ideal" in out and "1 measurements" in out


def test_table_lists_only_applicable_rows(capsys):
    """A size the operation rejects (CBC on 17 bytes) is counted below the table, not listed in it."""
    argv = ["cycles", "--kernel", "aes", "--variant", "ttable1", "--operation", "cbc-encrypt", "--sizes", "16,17"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    rows = [line for line in out.splitlines() if line.lstrip().startswith("aes/ttable1")]
    assert len(rows) == 1 and " 16 " in rows[0], out
    assert "not listed: 1 not applicable, e.g. aes/ttable1 cbc-encrypt 17 B" in out


@pytest.mark.parametrize(("argv", "expected"), [
    (["--kernel", "nope"], "Unknown kernel 'nope'; valid: aes"),
    (["--kernel", "sha256", "--variant", "fast"], f"valid: {', '.join(sorted(family('sha256').variants))}"),
    (["--core", "m9"], "argument --core: Invalid --core ('m9'); accepted: m0, m0plus, m3, m4"),
    (["--board", "stm32h753zi", "--clock", "500"], "Invalid --clock (500) with --board stm32h753zi: above the part "
                                                   "maximum, 480 MHz"),
    (["--board", "nucleo"], "Invalid --board ('nucleo'); accepted: a board profile (efr32mg21, "),
    (["--sizes", "16,abc"], "expected comma-separated byte counts"),
    (["--opt", "O9"], "argument --opt: invalid choice: 'O9' (choose from 'Os', 'O2', 'O3')"),
    (["--compiler", "clang"], "argument --compiler: invalid choice: 'clang' (choose from 'zig', 'gcc')"),
    (["--clock", "48"], "without --board"),
    (["--cache", "off"], "Invalid --cache (off) without --board"),
    (["--board", "stm32l4a6zg", "--cache", "maybe"], "argument --cache: invalid choice: 'maybe' (choose from 'on', 'off')"),
])
def test_bad_names_exit_2_and_list_valid_ones(capsys, argv, expected):
    assert main(["cycles", *argv]) == 2
    assert expected in capsys.readouterr().err


def test_key_bytes_option(capsys):
    rows = run_json(capsys, "--kernel", "aes", "--variant", "ttable4", "--operation", "cbc-encrypt",
                    "--key-bytes", "32", "--sizes", "32")
    (row,) = rows
    assert row["inputs"]["key"] == "32 bytes" and row["verified"] is True
    assert main(["cycles", "--kernel", "aes", "--key-bytes", "15"]) == 2
    assert "Invalid key size (15 bytes) for AES; accepted: 16, 24, 32" in capsys.readouterr().err
