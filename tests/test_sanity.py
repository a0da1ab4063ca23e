"""The sanity rules (each one broken on purpose) and the ``refbench sanity`` report.

Rule e (the emulator) is switched off here: these tests judge every figure with the rules that
need no emulator and run no kernel; tests/test_emulated_rule.py and tests/test_report.py test
rule e and the emulated parts of the report on a few figures.
"""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from refbench.cli import main
from refbench.published import load_figures, load_parts
from refbench.published.model import Aux
from refbench.sanity import VERDICTS, emulated, judge, rules, select_figures

FIGURES = load_figures()
PARTS = load_parts()
with emulated.switched_off():
    JUDGEMENTS = judge(FIGURES, PARTS)
BY_ID = {j.figure.id: j for j in JUDGEMENTS}


@pytest.fixture(autouse=True)
def without_emulator():
    """The command runs in this thread: rule e stays off for the CLI tests too."""
    with emulated.switched_off():
        yield


def find(**fields):
    return next(f for f in FIGURES if all(getattr(f, k) == v for k, v in fields.items()))


def verdicts(result, rule: str | None = None):
    return [finding.verdict for _, finding in result if rule is None or finding.rule == rule]


# --- the full report -------------------------------------------------------------------


def test_every_figure_has_a_verdict_and_reasons():
    assert len(JUDGEMENTS) == len(FIGURES)
    for j in JUDGEMENTS:
        assert j.verdict in VERDICTS
        assert j.reasons
        if not j.judged:
            assert any("no rule can judge" in r for r in j.reasons)


def test_no_kernel_ran_and_the_report_says_so():
    assert not any(f.rule == "emulator" for j in JUDGEMENTS for f in j.findings)
    e = emulated.emulate(FIGURES[:3], PARTS)
    assert all(x.status in ("not emulated", "hardware", "not applicable") for x in e.values())


def test_every_value_rule_fires_somewhere():
    fired = {f.rule for j in JUDGEMENTS for f in j.findings}
    expected = {"arithmetic-rate", "arithmetic-block-count", "arithmetic-ops", "arithmetic-cycles-time",
                "arithmetic-cycles-rate", "board-clock", "board-peripheral", "aes-key-size", "ctr-symmetry",
                "sha-truncation", "sha3-rate", "hmac-hash", "keygen-vs-agree", "rsa-scaling",
                "rsa-private-vs-public", "rsa-crt", "dsa-scaling", "dh-scaling", "dsa-verify-vs-sign",
                "ecc-scaling", "hardware-vs-software", "cmox-config-speed", "cmox-footprint",
                "cmox-footprint-curves", "cross-board"}
    assert expected <= fired


def test_wolfssl_wl55_at_64_mhz_is_over_the_part_maximum():
    j = next(j for j in JUDGEMENTS if j.figure.part == "STM32WL55" and j.figure.label == "AES-128-CBC-enc")
    assert j.verdict == "inconsistent"
    assert any("64 MHz exceeds" in r and "48 MHz" in r and "DS13293" in r
               and "cortexm_emu/boards/stm32wl55jc.toml [max_clock]" in r for r in j.reasons)


def test_wb55_hash_acceleration_claim_has_no_peripheral():
    j = next(j for j in JUDGEMENTS if j.figure.part == "STM32WB55" and j.figure.algorithm == "SHA-256"
             and j.figure.hw)
    assert j.verdict == "inconsistent"
    assert any("board-peripheral" in r and "HASH" in r for r in j.reasons)


def test_cross_board_outlier_names_the_pair():
    j = next(j for j in JUDGEMENTS if j.figure.part == "STM32H753ZI" and j.figure.label == "CHACHA"
             and j.figure.version == "4.4.1" and "FastMath" in j.figure.config)
    assert j.verdict == "suspicious"
    assert any("cross-board" in r and "STM32F777" in r for r in j.reasons)


def test_cmox_fast_decryption_at_32_bytes_is_explained_by_its_crossover():
    j = next(j for j in JUDGEMENTS if j.figure.source.startswith("002") and j.figure.metric == "cycles"
             and j.figure.row.startswith("AES CBC 128 bits 32 bytes Decryption Fast"))
    assert j.verdict == "explained"


def test_json_fields(capsys):
    assert main(["sanity", "--format", "json", "--source", "wolfssl", "--algorithm", "RSA"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data and {d["source"] for d in data} == {"000_950e0926bdf8c114.txt"}
    for d in data:
        assert {"source", "board", "algorithm", "operation", "published", "unit", "cycles_per_byte",
                "cycles_per_op", "verdict", "reasons"} <= set(d)
        assert d["verdict"] in VERDICTS and d["reasons"] and "RSA" in d["algorithm"]


def test_markdown_and_table_formats(capsys):
    assert main(["sanity", "--format", "markdown", "--board", "F756", "--algorithm", "SHA3"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("| figure | published | normalised | verdict | reasons |")
    assert "sha3-rate" in out
    assert main(["sanity", "--board", "G071"]) == 0
    assert "STM32G071RB" in capsys.readouterr().out


@pytest.mark.parametrize("argv,valid", [
    (["sanity", "--format", "xml"], "table, markdown, json"),
    (["sanity", "--board", "ESP32"], "STM32H753ZI"),
    (["sanity", "--algorithm", "Kyber"], "AES-128-CBC"),
    (["sanity", "--source", "005"], "000_950e0926bdf8c114.txt"),
    (["published", "--source", "openssl"], "wolfssl"),
])
def test_bad_arguments_exit_2_naming_valid_values(capsys, argv, valid):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "Invalid" in err and valid in err


def test_published_command_lists_provenance(capsys):
    assert main(["published", "--source", "002", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert len(data) == 376
    assert {"source", "section", "row", "offset", "published", "unit", "cycles_per_byte", "cycles_per_op"} <= set(data[0])
    assert main(["published", "--source", "001"]) == 0
    assert "114 figures" in capsys.readouterr().out


def test_select_filters_without_changing_verdicts():
    chosen = select_figures(JUDGEMENTS, source=["002"], algorithm=["SHA-384"])
    assert chosen and all(j.figure.algorithm == "SHA-384" for j in chosen)
    assert all(BY_ID[j.figure.id].verdict == j.verdict for j in chosen)


# --- each rule, broken on purpose ---------------------------------------------------------


def test_arithmetic_rate_detects_a_wrong_amount():
    f = find(id="000-0002")  # 10 MB took 1.000 seconds, 10.400 MB/s
    assert verdicts(rules.rule_wolfssl_rate([f], PARTS)) == ["consistent"]
    bad = replace(f, aux=(Aux("amount", 12.0, "MB", "12"), f.aux[1]))
    assert verdicts(rules.rule_wolfssl_rate([bad], PARTS)) == ["inconsistent"]


def test_arithmetic_ops_detects_a_wrong_average():
    f = find(part="STM32H753ZI", label="RSA 2048 public", version="4.4.1", implementation="software")
    assert verdicts(rules.rule_wolfssl_ops([f], PARTS)) == ["consistent"]
    bad = replace(f, value=f.value * 1.01, text=f"{f.value * 1.01:.3f}")
    assert verdicts(rules.rule_wolfssl_ops([bad], PARTS)) == ["inconsistent"]


def test_block_count_detects_a_fraction_of_a_block():
    f = find(part="STM32WB55", label="AES-128-CBC-enc", config="STM32WB55 (STM PKA only, -Os, FastMath)")
    assert verdicts(rules.rule_wolfssl_block_count([f], PARTS)) == ["consistent"]
    bad = replace(f, value=f.value + 0.3, text=f"{f.value + 0.3:.3f}")
    assert verdicts(rules.rule_wolfssl_block_count([bad], PARTS)) == ["inconsistent"]


def test_cycles_against_time_and_rate():
    timed = next(f for f in FIGURES if f.source.startswith("002") and f.metric == "cycles" and f.aux[0].metric == "time")
    assert verdicts(rules.rule_cycles_time([timed], PARTS)) == ["consistent"]
    off = replace(timed, aux=(Aux("time", timed.aux[0].value + 3, timed.aux[0].unit, "x"),))
    assert verdicts(rules.rule_cycles_time([off], PARTS)) == ["inconsistent"]
    rated = next(f for f in FIGURES if f.source.startswith("002") and f.metric == "cycles"
                 and f.aux[0].metric == "throughput")
    slow = replace(rated, value=rated.value * 1.05)
    assert verdicts(rules.rule_cycles_time([slow], PARTS)) == ["inconsistent"]


def test_board_clock_and_peripheral():
    f = find(part="STM32G071RB", label="AES-128-CBC-enc")
    assert verdicts(rules.rule_board_clock([f], PARTS)) == ["consistent"]
    assert verdicts(rules.rule_board_clock([replace(f, clock_mhz=72.0)], PARTS)) == ["inconsistent"]
    claimed = replace(f, hw=("AES",), implementation="hardware")
    assert verdicts(rules.rule_board_peripheral([claimed], PARTS)) == ["inconsistent"]
    aes192 = find(source="004_ce9b801e91a00a6b.txt", algorithm="AES-128-CBC", implementation="hardware",
                  operation="encrypt")
    assert verdicts(rules.rule_board_peripheral([aes192], PARTS)) == ["consistent"]
    assert verdicts(rules.rule_board_peripheral([replace(aes192, key_bits=192)], PARTS)) == ["inconsistent"]


def test_board_rules_use_the_facts_settled_in_the_board_profiles():
    # WL33: no PKA (the former parts.toml listed one); a PKA claim there would be inconsistent.
    wl33 = find(part="STM32WL33CC", implementation="hardware", algorithm="AES-128-CBC", operation="encrypt")
    assert verdicts(rules.rule_board_peripheral([wl33], PARTS)) == ["consistent"]
    pka = replace(wl33, hw=("PKA",), algorithm="ECDSA-P256", key_bits=None)
    result = rules.rule_board_peripheral([pka], PARTS)
    assert verdicts(result) == ["inconsistent"]
    assert "refbench/parts/stm32wl33cc.toml [crypto_hw]" in result[0][1].message
    # U585 HASH computes MD5 (RM0456 §3.1); the H5 HASH does not, but does SHA-512.
    u585 = find(part="STM32U585", hw=("HASH",), algorithm="SHA-256")
    assert verdicts(rules.rule_board_peripheral([replace(u585, algorithm="MD5")], PARTS)) == ["consistent"]
    assert verdicts(rules.rule_board_peripheral([replace(u585, algorithm="SHA-512")], PARTS)) == ["inconsistent"]
    h563 = replace(u585, part="STM32H563ZI")
    assert verdicts(rules.rule_board_peripheral([replace(h563, algorithm="SHA-512")], PARTS)) == ["consistent"]
    assert verdicts(rules.rule_board_peripheral([replace(h563, algorithm="MD5")], PARTS)) == ["inconsistent"]


def test_aes_key_size_bounds():
    base = find(source="003_370dc4a6b790accc.txt", algorithm="AES-128-CTR", operation="encrypt",
                implementation="software")
    big = find(source="003_370dc4a6b790accc.txt", algorithm="AES-256-CTR", operation="encrypt",
               implementation="software")
    assert set(verdicts(rules.rule_aes_key_size([base, big], PARTS))) == {"consistent"}
    faster = replace(big, value=base.value * 1.2, text=f"{base.value * 1.2:.3f}")
    assert set(verdicts(rules.rule_aes_key_size([base, faster], PARTS))) == {"suspicious"}
    too_slow = replace(big, value=base.value / 1.6, text=f"{base.value / 1.6:.3f}")
    assert set(verdicts(rules.rule_aes_key_size([base, too_slow], PARTS))) == {"suspicious"}


def test_ctr_symmetry():
    enc = find(source="001_9657ad2345ba06fe.txt", algorithm="AES-128-CTR", operation="encrypt",
               implementation="software")
    dec = find(source="001_9657ad2345ba06fe.txt", algorithm="AES-128-CTR", operation="decrypt",
               implementation="software")
    assert set(verdicts(rules.rule_ctr_symmetry([enc, dec], PARTS))) == {"consistent"}
    slow = replace(dec, value=dec.value * 0.8, text=f"{dec.value * 0.8:.3f}")
    assert set(verdicts(rules.rule_ctr_symmetry([enc, slow], PARTS))) == {"suspicious"}


def test_sha_truncation_and_sha3_rate():
    s384 = find(source="003_370dc4a6b790accc.txt", algorithm="SHA-384")
    s512 = find(source="003_370dc4a6b790accc.txt", algorithm="SHA-512")
    assert set(verdicts(rules.rule_sha_truncation([s384, s512], PARTS))) == {"consistent"}
    odd = replace(s384, value=s384.value * 1.5, text=f"{s384.value * 1.5:.3f}")
    assert set(verdicts(rules.rule_sha_truncation([odd, s512], PARTS))) == {"suspicious"}
    k256 = find(source="003_370dc4a6b790accc.txt", algorithm="SHA3-256")
    k512 = find(source="003_370dc4a6b790accc.txt", algorithm="SHA3-512")
    assert set(verdicts(rules.rule_sha3_rate([k256, k512], PARTS))) == {"consistent"}
    same = replace(k512, value=k256.value, text=k256.text)
    assert set(verdicts(rules.rule_sha3_rate([k256, same], PARTS))) == {"suspicious"}


def test_hmac_cannot_beat_its_hash():
    h = find(part="STM32F437", algorithm="SHA-256", version="4.4.1", implementation="software")
    mac = find(part="STM32F437", algorithm="HMAC-SHA-256", version="4.4.1", implementation="software")
    assert "suspicious" not in verdicts(rules.rule_hmac_hash([h, mac], PARTS))
    fast = replace(mac, value=h.value * 1.2, text=f"{h.value * 1.2:.3f}")
    assert "suspicious" in verdicts(rules.rule_hmac_hash([h, fast], PARTS))


def test_keygen_not_slower_than_agree():
    keygen = find(source="003_370dc4a6b790accc.txt", algorithm="X25519", operation="keygen")
    agree = find(source="003_370dc4a6b790accc.txt", algorithm="X25519", operation="agree")
    assert set(verdicts(rules.rule_keygen_vs_agree([keygen, agree], PARTS))) == {"consistent"}
    slow = replace(keygen, value=agree.value * 1.5, text=f"{agree.value * 1.5:.1f}")
    assert set(verdicts(rules.rule_keygen_vs_agree([slow, agree], PARTS))) == {"suspicious"}


def test_rsa_private_public_and_scaling():
    rsa = [f for f in FIGURES if f.source.startswith("003") and f.algorithm.startswith("RSA-")]
    assert set(verdicts(rules.rule_rsa(rsa, PARTS))) == {"consistent"}
    sign2048 = next(f for f in rsa if f.algorithm == "RSA-2048" and f.operation == "sign")
    verify2048 = next(f for f in rsa if f.algorithm == "RSA-2048" and f.operation == "verify")
    cheap = replace(sign2048, value=verify2048.value * 2, text=f"{verify2048.value * 2:.1f}")
    assert "suspicious" in verdicts(rules.rule_rsa([cheap, verify2048], PARTS), "rsa-private-vs-public")
    sign1024 = next(f for f in rsa if f.algorithm == "RSA-1024" and f.operation == "sign")
    flat = replace(sign2048, value=sign1024.value * 1.2, text=f"{sign1024.value * 1.2:.1f}")
    assert "suspicious" in verdicts(rules.rule_rsa([sign1024, flat], PARTS), "rsa-scaling")


def test_dsa_and_dh_scaling():
    dsa = [f for f in FIGURES if f.source.startswith("003") and f.algorithm.startswith(("DSA-", "DH-"))]
    assert set(verdicts(rules.rule_dsa_dh(dsa, PARTS))) == {"consistent"}
    dh1024 = next(f for f in dsa if f.algorithm == "DH-1024" and f.operation == "agree")
    dh2048 = next(f for f in dsa if f.algorithm == "DH-2048" and f.operation == "agree")
    huge = replace(dh2048, value=dh1024.value * 20, text=f"{dh1024.value * 20:.1f}")
    assert verdicts(rules.rule_dsa_dh([dh1024, huge], PARTS)) == ["suspicious", "suspicious"]


def test_hardware_not_slower_than_software():
    sw = find(source="004_ce9b801e91a00a6b.txt", algorithm="ECDH-P256", operation="agree", implementation="software")
    hw = find(source="004_ce9b801e91a00a6b.txt", algorithm="ECDH-P256", operation="agree", implementation="hardware")
    assert set(verdicts(rules.rule_hw_vs_sw([sw, hw], PARTS))) == {"consistent"}
    slow = replace(hw, value=sw.value * 2, text=f"{sw.value * 2:.1f}")
    assert set(verdicts(rules.rule_hw_vs_sw([sw, slow], PARTS))) == {"suspicious"}


def test_cross_board_tolerance():
    a = find(part="STM32WB55", label="AES-128-CBC-enc", config="STM32WB55 (No HW Crypto, -Os, FastMath)")
    b = find(part="STM32F437", label="AES-128-CBC-enc", config="STM32F437 (No HW Crypto, -Os, FastMath)")
    assert set(verdicts(rules.rule_cross_board([a, b], PARTS))) == {"consistent"}
    slow = replace(b, value=b.value / 2, text=f"{b.value / 2:.3f}")
    result = rules.rule_cross_board([a, slow], PARTS)
    assert set(verdicts(result)) == {"suspicious"}
    assert any("STM32F437" in finding.message for fid, finding in result if fid == a.id)


def test_cmox_configurations():
    small = next(f for f in FIGURES if f.source.startswith("002") and f.metric == "cycles"
                 and f.row.startswith("SECP256R1 Signature Small Low"))
    fast = next(f for f in FIGURES if f.source.startswith("002") and f.metric == "cycles"
                and f.row.startswith("SECP256R1 Signature SuperFast Low"))
    assert verdicts(rules.rule_cmox_configurations([small, fast], PARTS)) == ["consistent"]
    slower = replace(fast, value=small.value * 1.1)
    assert verdicts(rules.rule_cmox_configurations([small, slower], PARTS)) == ["suspicious"]
