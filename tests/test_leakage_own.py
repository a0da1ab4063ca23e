"""``refbench leakage`` on a function of the user's own ELF, what ``--all`` checks, and Welch's t in JSON.

The C functions are written and built here with the project's toolchain (the hermetic zig clang,
:func:`cortexm_emu.toolchain.build`): a secret-indexed table read, an early return on a secret
bit, and a constant-time XOR, each at a known line.
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest

from cortexm_emu.toolchain import build
from refbench.cli import main
from refbench.kernels.catalog import families
from refbench.kernels.references import reference
from refbench.leakage.analysis import FixedVsRandom, welch_t
from refbench.leakage.check import LeakageReport, welch_t_json
from refbench.leakage.matrix import selections, what_was_checked
from refbench.leakage.own_function import ArgSpec, argument_sets, parse_arg
from refbench.leakage.runner import make_target
from refbench.leakage.secrets import input_sets, secret_roles

SOURCE = """\
#include <stdint.h>
static const uint8_t TABLE[256] = {1, 2, 3, 4};
void lookup(const uint8_t *key, const uint8_t *in, uint8_t *out, uint32_t len)
{
    for (uint32_t i = 0; i < len; i++) {
        out[i] = in[i] ^ TABLE[key[i]]; /* LINE: lookup */
    }
}
uint32_t early(uint32_t secret, uint32_t x)
{
    if (secret & 1) { /* LINE: early */
        return x;
    }
    for (uint32_t r = 0; r < 8; r++) {
        x = x * 0x9e3779b9u + r;
    }
    return x;
}
void xor_ct(const uint8_t *key, const uint8_t *in, uint8_t *out, uint32_t len)
{
    for (uint32_t i = 0; i < len; i++) {
        out[i] = in[i] ^ key[i];
    }
}
"""
BUFFERS = ["--secret-arg", "buf:16", "--public-arg", "buf:16", "--out-arg", "buf:16", "--public-arg", "const:16"]


@pytest.fixture(scope="module")
def elf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("own")
    source = folder / "mine.c"
    source.write_text(SOURCE)
    return build([source], "m4", opt="Os", exports=["lookup", "early", "xor_ct"]).elf


def line_of(mark: str) -> int:
    return next(n for n, text in enumerate(SOURCE.splitlines(), start=1) if f"LINE: {mark}" in text)


def leakage_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict:
    assert main(["leakage", *argv, "--json"]) == 0, capsys.readouterr().err
    (report,) = json.loads(capsys.readouterr().out)["reports"]
    return report


def test_a_secret_indexed_read_in_my_function_is_found_at_its_line(elf, capsys) -> None:
    report = leakage_json(capsys, str(elf), "lookup", *BUFFERS, "--core", "m4", "--secrets", "4")
    assert report["verdict"] == "address-leaking" and report["secret_roles"] == ["arg0 buf:16"]
    assert report["kernel"] == str(elf) and report["operation"] == "lookup"
    (memory,) = report["memory"]
    assert memory["source"] == f"mine.c:{line_of('lookup')}" and memory["disassembly"].startswith("ldrb")
    assert not report["control_flow"] and report["timing"][0]["spread"] == 0


def test_an_early_return_on_a_secret_bit_is_a_branch_and_a_timing_leak(elf, capsys) -> None:
    report = leakage_json(capsys, str(elf), "early", "--secret-arg", "u32", "--public-arg", "u32",
                          "--core", "m7", "--secrets", "4")
    assert report["verdict"] == "timing-leaking" and report["secret_roles"] == ["arg0 u32"]
    assert report["control_flow"], "the branch that returns for odd secrets is a finding"
    assert report["timing"][0]["spread"] > 0


def test_a_constant_time_function_of_my_own(elf, capsys) -> None:
    report = leakage_json(capsys, str(elf), "xor_ct", *BUFFERS, "--board", "stm32f407vg", "--secrets", "3")
    assert report["verdict"] == "constant-time"
    assert report["fixed_vs_random"][0]["welch_t"] == 0.0


@pytest.mark.parametrize(("argv", "message"), [
    (["lookup", "--secret-arg", "buf:0"], r"Invalid --secret-arg \('buf:0'\): N must be 1 \.\. \d+ bytes"),
    (["lookup", "--secret-arg", "const:1"], r"Invalid --secret-arg \('const:1'\): unknown form; accepted: buf:N, u32"),
    (["lookup", "--out-arg", "u32", "--secret-arg", "u32"], r"Invalid --out-arg \('u32'\).*accepted: buf:N"),
    (["lookup", "--public-arg", "const:0x100000000", "--secret-arg", "u32"], r"V must be 0 \.\. 0xffffffff"),
    (["lookup", "--public-arg", "buf:4"], r"give at least one --secret-arg"),
    (["lookup"], r"give the arguments of lookup in order"),
    ([], r"give an ELF and a FUNCTION"),
    (["lookup", "--secret-arg", "u32", "--size", "16"], r"Invalid --size with an ELF of your own"),
])
def test_bad_argument_descriptions_are_named(elf, capsys, argv, message) -> None:
    assert main(["leakage", str(elf), *argv, "--core", "m4", "--secrets", "2"]) == 2
    assert re.search(message, capsys.readouterr().err)


def test_a_missing_elf_and_a_missing_function_are_named(elf, tmp_path, capsys) -> None:
    assert main(["leakage", str(tmp_path / "none.elf"), "f", "--secret-arg", "u32", "--secrets", "2"]) == 2
    assert f"Invalid ELF ('{tmp_path / 'none.elf'}'): no such file" in capsys.readouterr().err
    assert main(["leakage", str(tmp_path), "f", "--secret-arg", "u32", "--secrets", "2"]) == 2
    assert f"Invalid ELF ('{tmp_path}'): a directory" in capsys.readouterr().err
    assert main(["leakage", str(elf), "nosuch", "--secret-arg", "u32", "--secrets", "2"]) == 1
    err = capsys.readouterr().err
    assert "nosuch" in err and "Traceback" not in err


def test_argument_sets_vary_the_secret_only_in_the_secret_set() -> None:
    specs = [parse_arg("secret", "buf:8"), parse_arg("public", "u32"), parse_arg("public", "const:5"),
             parse_arg("out", "buf:4")]
    assert specs[2] == ArgSpec("public", "const", value=5)
    secret_set, fixed, random = argument_sets(specs, 3)
    assert secret_set[0][0].data == bytes(8) and len({args[0].data for args in secret_set}) == 3
    assert len({args[1] for args in secret_set}) == 1 and {args[2] for args in secret_set} == {5}
    assert all(args[0].data == bytes(8) for args in fixed)
    assert [a[1] for a in fixed] == [a[1] for a in random] and len({a[1] for a in fixed}) == 3
    assert all(args[3].data == bytes(4) for args in (*secret_set, *fixed, *random))


def test_all_checks_every_operation_of_every_variant_and_says_so() -> None:
    target = make_target("m4", None)
    chosen = selections(target, every_operation=True)
    expected = {(f.name, v, op.name) for f in families().values() for v, var in f.variants.items()
                if var.supports("m4") for op in f.operations}
    assert {(s.kernel, s.variant, s.operation) for s in chosen} == expected
    assert len(chosen) == len(expected) > len(selections(target))
    line = what_was_checked(chosen, target, None, True)
    assert line.startswith(f"checked: {len(expected)} operation run(s) of ") and "every operation of each" in line
    first_only = what_was_checked(selections(target, "aes"), target, None, False)
    assert "each family's first operation only" in first_only


def test_the_checked_line_is_printed_with_the_report(capsys) -> None:
    assert main(["leakage", "aes/bitsliced", "--core", "m4", "--secrets", "2"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "checked: aes/bitsliced ecb-encrypt on m4 (the family's first operation; --operation OP" in out


def test_an_infinite_welch_t_is_null_in_json() -> None:
    infinite = welch_t([100, 100, 100], [90, 90, 90])  # two different constants
    assert math.isinf(infinite) and welch_t_json(infinite) is None
    assert welch_t_json(welch_t([1, 2, 3], [1, 2, 4])) == pytest.approx(-1 / math.sqrt(10))  # means 2 and 7/3, variances 1 and 7/3
    report = LeakageReport("k", "v", "op", "m4", "m4", ("key",), 16, 3, None, (),
                           (FixedVsRandom("f", 3, 3, 100.0, 90.0, infinite),), (), "", 0.0)
    text = json.dumps(report.as_json(), allow_nan=False)  # strict JSON: no Infinity, no "-inf" string
    assert json.loads(text)["fixed_vs_random"][0]["welch_t"] is None


def test_the_x25519_u_coordinate_is_public_so_every_input_set_is_valid() -> None:
    """With the u-coordinate secret, the all-zero fixed class was u = 0, which the reference
    rejects (``--all`` failed on x25519 for every variant)."""
    (op,) = [o for o in families()["bignum"].operations if o.name == "x25519"]
    assert secret_roles(op) == ("a",)
    sets = input_sets(op, 3)
    for inputs in (*sets.secret_set, *sets.fixed_class, *sets.random_class):
        reference(op.reference)(inputs)  # no ValueError
    assert len({i["b"] for i in sets.fixed_class}) == 3 and len({i["b"] for i in sets.secret_set}) == 1
