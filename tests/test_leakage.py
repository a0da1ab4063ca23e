"""refbench.leakage on the catalogue's kernels: it finds what is there and nothing else.

* T-table AES reads its tables at secret-dependent addresses on every core; with ideal memory
  (and on the STM32F407 at 0 wait states) the cycles do not show it; on a Cortex-M7 board with
  its L1 data cache on they do, and with the caches off they do not again.
* Bitsliced AES has no secret-dependent address, branch or cycle, with or without caches.
* The public-key arithmetic: the Montgomery product of the UMAAL variant is constant time, its
  fixed-window exponentiation reads its table at a secret index (an address leak, the
  timing constant here: SRAM has no modelled cache), and on the Cortex-M0+ (ARMv6-M: no IT
  block, no conditional select, where clang makes a comparison used as a value into a branch)
  the C variants' carries, borrows and select masks take no secret-dependent branch
  (bignum/ct.h).

No published figure is involved: these are properties of the C kernels and the cycle models.
"""

from __future__ import annotations

import json

import pytest

from cortexm_emu.cores import CORES
from refbench.cli import main
from refbench.kernels.catalog import family
from refbench.leakage.check import analyze
from refbench.leakage.runner import make_target
from refbench.leakage.secrets import input_sets, secret_roles


def functions(findings) -> set[str]:  # type: ignore[no-untyped-def]
    return {f.location.symbol.split("+")[0] for f in findings}


@pytest.mark.parametrize("core", sorted(CORES))
def test_ttable_aes_leaks_addresses_on_every_core(core: str) -> None:
    report = analyze("aes", "ttable4", None, make_target(core, None), secrets=4)
    assert "aes_encrypt_block" in functions(report.memory_findings)
    assert "aes_expand_key" in functions(report.memory_findings)  # the key schedule's S-box reads
    assert not report.control_findings
    assert report.verdict == "address-leaking"  # ideal memory: every address costs the same


def test_ttable_aes_leaks_timing_with_the_m7_data_cache_on() -> None:
    report = analyze("aes", "ttable4", None, make_target(None, "stm32h753zi", cache="on"), secrets=4)
    assert report.verdict == "timing-leaking"
    assert report.line_bytes == 32 and report.line_findings
    assert any(t.spread for t in report.timing)
    assert any(f.stall_varying for f in report.memory_findings)  # a hit for one key, a miss for another


def test_ttable_aes_timing_is_constant_with_the_caches_off() -> None:
    report = analyze("aes", "ttable4", None, make_target(None, "stm32h753zi", cache="off"), secrets=4)
    assert report.verdict == "address-leaking"
    assert report.line_bytes is None
    assert all(f.stall_varying == 0 for f in report.memory_findings)  # every flash read stalls alike


def test_ttable_aes_on_a_board_without_flash_stalls_is_timing_constant() -> None:
    report = analyze("aes", "ttable4", None, make_target(None, "stm32f407vg"), secrets=4)
    assert report.verdict == "address-leaking"
    assert any("no flash stalls" in note for note in report.notes)


@pytest.mark.parametrize("target", [("m4", None), (None, "stm32h753zi")], ids=["m4", "stm32h753zi"])
def test_bitsliced_aes_leaks_nothing(target: tuple[str | None, str | None]) -> None:
    report = analyze("aes", "bitsliced", None, make_target(*target), secrets=4)
    assert report.findings == ()
    assert report.verdict == "constant-time"
    assert all(f.pairs_differing == 0 and f.welch_t == 0 for f in report.fixed_vs_random)


def test_montgomery_product_with_umaal_is_constant_time() -> None:
    report = analyze("bignum", "umaal", "mont-mul", make_target("m4", None), secrets=4)
    assert report.secret_roles == ("a", "b")
    assert report.verdict == "constant-time"


def test_fixed_window_exponentiation_reads_its_table_at_a_secret_index() -> None:
    report = analyze("bignum", "umaal", "mont-exp", make_target("m4", None), secrets=3, size=8)  # 64-bit exponents
    assert report.secret_roles == ("exponent",)
    assert report.verdict == "address-leaking"
    assert not report.control_findings
    assert {f.location.source.rsplit("/", 1)[-1].split(":")[0] for f in report.memory_findings} == {"mont.h"}


@pytest.mark.parametrize(("variant", "operation"), [
    ("c32", "p256-add"),        # sub_if_ge's borrows were branches (limbs.h)
    ("c32", "p256-mul"),
    ("c32", "select"),          # the mask was a branch around the loop (mont.h)
    ("c32", "p256-order-sqr"),  # sqr_wide's and the REDC's carries
    ("m0", "mont-mul"),         # the 16x16 multiply-accumulate's carries (m0/bignum.c)
    ("m0", "25519-sub"),        # mod_sub's borrows and masked add-back
    ("m0", "p521-mul"),         # p521_reduce's carries
])
def test_c_bignum_takes_no_secret_branch_on_armv6m(variant: str, operation: str) -> None:
    report = analyze("bignum", variant, operation, make_target("m0plus", None), secrets=4)
    assert report.findings == (), [str(f.location) for f in report.findings]
    assert report.verdict == "constant-time"
    assert all(t.spread == 0 for t in report.timing)


def test_secret_roles_by_preference() -> None:
    ops = {op.name: op for fam in ("aes", "bignum", "sha256", "drbg") for op in family(fam).operations}
    assert secret_roles(ops["ecb-encrypt"]) == ("key",)
    assert secret_roles(ops["mont-exp"]) == ("exponent",)
    assert secret_roles(ops["p256-mul"]) == ("a", "b")
    assert secret_roles(ops["sha-256"]) == ("msg",)
    assert secret_roles(ops["hash-drbg-sha-256-generate"]) == ("entropy",)


def test_input_sets_vary_only_the_secret() -> None:
    op = family("aes").operations[0]
    sets = input_sets(op, 3)
    assert len({s["key"] for s in sets.secret_set}) == 3
    assert sets.secret_set[0]["key"] == bytes(16)  # the fixed class's secret is traced too
    assert len({s["in"] for s in sets.secret_set}) == 1
    assert all(f["key"] == bytes(16) for f in sets.fixed_class)
    assert [f["in"] for f in sets.fixed_class] == [r["in"] for r in sets.random_class]
    with pytest.raises(ValueError, match="--secrets"):
        input_sets(op, 1)
    with pytest.raises(ValueError, match=r"Invalid --size \(20\)"):
        input_sets(op, 2, size=20)  # ECB takes whole 16-byte blocks


def test_cli_json_and_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["leakage", "aes/bitsliced", "--core", "m4", "--secrets", "2", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)["reports"][0]
    assert report["verdict"] == "constant-time" and report["secret_roles"] == ["key"]
    assert main(["leakage", "aes/nosuch", "--core", "m4"]) == 2
    assert "Unknown variant 'nosuch'" in capsys.readouterr().err
    assert main(["leakage", "aes/ttable4", "--core", "m4", "--cache", "off"]) == 2
    assert "--board" in capsys.readouterr().err
    assert main(["leakage", "--core", "m4"]) == 2


def test_cortex_m3_long_multiply_timing_is_an_operand_finding() -> None:
    """The M3 model's UMULL/UMLAL take fewer cycles for small operands (cortexm_emu/timing): the
    all-zero fixed class is faster than random secrets, with no address or branch difference."""
    report = analyze("bignum", "c32", "p256-mul", make_target("m3", None), secrets=3)
    assert report.verdict == "timing-leaking"
    assert not report.memory_findings and not report.control_findings
    assert report.operand_findings
    assert all(f.location.disassembly.split()[0] in {"umull", "umlal", "smull", "smlal"}
               for f in report.operand_findings)
    assert any(f.pairs_differing for f in report.fixed_vs_random)
