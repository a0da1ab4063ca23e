"""The two distributions as a user installs them: built wheels (not editable) in fresh virtual
environments, every command run from a directory outside the checkout.

* ``cortexm-emu`` alone: a venv with only its wheel (and its four dependencies) runs
  ``cortexm-emu boards`` and ``cortexm-emu run`` on an ELF, and cannot import refbench.
* ``refbench``: a venv with both wheels runs each command of the README's table with small
  selections, reading the vector files and data the wheel must ship (no checkout on the path).

Dependencies come from pip's index and cache, as for a user. Each command's output is checked
for what it says, not only its exit status.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest

from cortexm_emu.toolchain import build

ROOT = Path(__file__).resolve().parents[1]

XORSHIFT_C = """\
#include <stdint.h>
uint32_t xorshift32(uint32_t x, uint32_t rounds) {
    for (uint32_t i = 0; i < rounds; i++) { x ^= x << 13; x ^= x >> 17; x ^= x << 5; }
    return x;
}
"""


def _run(argv: list[str], cwd: Path, env: dict[str, str], timeout: float = 900) -> str:
    done = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, f"{' '.join(map(str, argv))} exited {done.returncode}:\n{done.stdout}\n{done.stderr}"
    return done.stdout


@pytest.fixture(scope="module")
def wheels(tmp_path_factory) -> dict[str, Path]:
    """Both wheels, built from a copy of the sources (a build writes build/ and *.egg-info/ beside
    its pyproject.toml; the checkout stays as it is)."""
    out = tmp_path_factory.mktemp("wheels")
    source = tmp_path_factory.mktemp("source")
    skip = shutil.ignore_patterns("__pycache__", "build", "*.egg-info", ".*")
    for name in ("cortexm_emu", "refbench"):
        shutil.copytree(ROOT / name, source / name, ignore=skip)
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, source / name)
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out),
          str(source / "cortexm_emu"), str(source)], cwd=out, env=dict(os.environ))
    found = {path.name.split("-")[0]: path for path in out.glob("*.whl")}
    assert set(found) == {"cortexm_emu", "refbench"}, sorted(out.iterdir())
    return found


def _venv(path: Path, *wheels: Path) -> tuple[Path, dict[str, str]]:
    venv.EnvBuilder(with_pip=True, clear=True).create(path)
    python = path / "bin" / "python"
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["PATH"] = f"{path / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    env["REFBENCH_CACHE"] = str(path / "cache" / "refbench")
    env["CORTEXM_EMU_CACHE"] = str(path / "cache" / "cortexm_emu")
    _run([str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check", *map(str, wheels)],
         cwd=path, env=env)
    return python, env


def test_cortexm_emu_wheel_alone_runs_an_elf(wheels, tmp_path):
    source = tmp_path / "xorshift.c"
    source.write_text(XORSHIFT_C)
    elf = build([source], "m0plus", opt="O2").elf
    python, env = _venv(tmp_path / "venv", wheels["cortexm_emu"])
    away = tmp_path / "elsewhere"
    away.mkdir()
    listed = _run([str(python), "-m", "pip", "list", "--format", "json"], cwd=away, env=env)
    names = {row["name"].lower() for row in json.loads(listed)}
    assert "refbench" not in names and {"unicorn", "capstone", "pyelftools", "ziglang"} <= names
    result = json.loads(_run(["cortexm-emu", "run", str(elf), "xorshift32", "--core", "m0plus", "--arg", "1",
                              "--arg", "100", "--json"], cwd=away, env=env))
    expected = 1
    for _ in range(100):
        expected ^= (expected << 13) & 0xFFFFFFFF
        expected ^= expected >> 17
        expected ^= (expected << 5) & 0xFFFFFFFF
    assert result["return_value"] == expected and result["cycles"] > result["instructions"] > 0
    assert "stm32f407vg" in _run(["cortexm-emu", "boards"], cwd=away, env=env)
    importable = subprocess.run([str(python), "-c", "import refbench"], cwd=away, env=env, capture_output=True)
    assert importable.returncode != 0  # the emulator stands alone


def test_refbench_wheel_runs_every_readme_command(wheels, tmp_path):
    python, env = _venv(tmp_path / "venv", wheels["cortexm_emu"], wheels["refbench"])
    away = tmp_path / "elsewhere"
    away.mkdir()

    def run(*argv: str) -> str:
        return _run(list(argv), cwd=away, env=env)

    verify = json.loads(run("refbench", "verify", "--algorithm", "SM4", "--json"))
    rows = verify if isinstance(verify, list) else verify["rows"]
    assert rows and all(row["failed"] == 0 and row["passed"] == row["vectors"] > 0 for row in rows)
    assert any("vectors/sm4" in row["source"] for row in rows)  # a file only the wheel's refbench/vectors has
    published = json.loads(run("refbench", "published", "--json"))
    assert len(published) > 1000
    report = json.loads(run("refbench", "sanity", "--board", "WL33", "--algorithm", "MD5", "--format", "json"))
    assert report["figures"] and all(f["verdict"] for f in report["figures"])
    cycles = json.loads(run("refbench", "cycles", "--kernel", "sha256", "--variant", "rolled", "--operation",
                            "sha-256", "--sizes", "64", "--core", "m4", "--json"))
    assert len(cycles) == 1 and cycles[0]["verified"] is True
    assert "FIPS 197" in run("refbench", "trace", "aes-128")
    assert "STM32" in run("refbench", "parts")
    annotate = json.loads(run("refbench", "annotate", "sha256/rolled", "--core", "m4", "--size", "64", "--json"))
    assert annotate["cycles"] > 0
    leakage = json.loads(run("refbench", "leakage", "aes/bytewise", "--core", "m4", "--secrets", "2", "--json"))
    assert leakage["reports"] and all(r["kernel"] == "aes" for r in leakage["reports"])
    assert "m0plus" in run("cortexm-emu", "validate", "--core", "m0plus")
