"""`refbench cycles --plot FILE` and several cores or boards in one run; `refbench annotate`."""

import json

import pytest

from refbench.cli import main
from refbench.plotting import curves

SELECTION = ["--kernel", "sha256", "--variant", "rolled", "--operation", "sha-256", "--sizes", "16,64"]


@pytest.fixture(autouse=True)
def isolated_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("REFBENCH_CACHE", str(tmp_path / "cache"))


def test_plot_draws_one_curve_per_core(tmp_path, capsys):
    target = tmp_path / "curves.png"
    assert main(["cycles", *SELECTION, "--core", "m0plus,m4", "--plot", str(target), "--json"]) == 0
    out, err = capsys.readouterr()
    measurements = json.loads(out)
    assert sorted({m["core"] for m in measurements}) == ["m0plus", "m4"]
    assert len(measurements) == 4
    assert "2 curve(s) drawn" in err
    assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_svg_by_extension(tmp_path, capsys):
    target = tmp_path / "curves.svg"
    assert main(["cycles", *SELECTION, "--plot", str(target)]) == 0
    assert b"<svg" in target.read_bytes()[:400]


@pytest.mark.parametrize("name", ["curves.txt", "missing/curves.png"])
def test_bad_plot_path_is_refused_before_any_run(tmp_path, capsys, name):
    assert main(["cycles", *SELECTION, "--plot", str(tmp_path / name)]) == 2
    err = capsys.readouterr().err
    assert "Invalid --plot" in err and name.split("/")[-1] in err


def test_two_boards_print_one_table_each(capsys):
    assert main(["cycles", *SELECTION, "--board", "stm32g071rb,stm32l4a6zg"]) == 0
    out = capsys.readouterr().out
    assert "board stm32g071rb (m0plus at 64 MHz" in out and "board stm32l4a6zg (m4 at 80 MHz" in out


def test_curves_leave_out_unverified_and_sizeless_runs():
    class M:
        def __init__(self, size, cycles, verified):
            self.kernel, self.variant, self.operation, self.core, self.board = "k", "v", "op", "m4", None
            self.size, self.cycles, self.verified = size, cycles, verified

        @property
        def cycles_per_byte(self):
            return self.cycles / self.size if self.size else None

    lines = curves([M(64, 640, True), M(0, 100, True), M(16, 320, False), M(16, 480, True)])
    assert lines == {"k/v op, m4": [(16, 30.0), (64, 10.0)]}


def test_annotate_a_kernel_operation(capsys):
    assert main(["annotate", "aes/ttable4", "--operation", "ecb-encrypt", "--size", "16", "--top", "1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("aes/ttable4 ecb-encrypt, 16 bytes, zig -Os: verified against the reference")
    assert "ecb_encrypt on Cortex-M4 (ideal memory)" in out and "aes_encrypt_block+" in out


def test_annotate_json_sums_to_the_call(capsys):
    assert main(["annotate", "sha256/rolled", "--size", "64", "--core", "m0plus", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["verified"] is True
    assert sum(block["total_cycles"] for block in report["blocks"]) == report["cycles"]


@pytest.mark.parametrize("argv, message", [
    (["annotate", "aes"], "Invalid KERNEL/VARIANT"),
    (["annotate", "aes/nope"], "nope"),
    (["annotate", "aes/ttable4", "--top", "0"], "Invalid --top"),
    (["annotate", "aes/ttable4", "--clock", "80"], "without --board"),
])
def test_annotate_bad_options(capsys, argv, message):
    assert main(argv) == 2
    assert message in capsys.readouterr().err
