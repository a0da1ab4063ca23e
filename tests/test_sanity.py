"""The sanity rules without emulator (each one on synthetic figures, kept and broken on purpose)
and the ``refbench sanity`` report.

The emulator rule is switched off here (``SanityContext(emulator=False)``): these tests run
no kernel. Every verdict is asserted on synthetic figures whose numbers the test states (a
published figure lends its page context: source, library, part); the published figures are
judged as a whole only for what does not depend on their values (every figure gets a verdict
and reasons, every rule fires somewhere). tests/test_emulated_rule.py and tests/test_report.py
test the emulator rule and the emulated parts of the report.
"""

from __future__ import annotations

import json

import pytest
from sanity_fakes import synthetic, with_cycles_per_byte

from refbench.cli import main
from refbench.published import load_figures, load_parts
from refbench.published.model import Aux
from refbench.sanity import (
    VERDICTS,
    SanityContext,
    cross_board,
    invariants,
    judge,
    rules,
    select_figures,
)

FIGURES = load_figures()
PARTS = load_parts()
REPORT = judge(FIGURES, PARTS, SanityContext(emulator=False))
JUDGEMENTS = REPORT.judgements
BY_ID = {j.figure.id: j for j in JUDGEMENTS}


def find(**fields):
    return next(f for f in FIGURES if all(getattr(f, k) == v for k, v in fields.items()))


def verdicts(result, rule: str | None = None):
    return [finding.verdict for _, finding in result if rule is None or finding.rule == rule]


def judged(*figures):
    """Judgements of the given (synthetic) figures alone, without emulator."""
    return judge(list(figures), PARTS, SanityContext(emulator=False)).judgements


# --- the full report -------------------------------------------------------------------


def test_every_figure_has_a_verdict_and_reasons():
    assert len(JUDGEMENTS) == len(FIGURES)
    for j in JUDGEMENTS:
        assert j.verdict in VERDICTS
        assert j.reasons
        if not j.tested:
            assert any(r.startswith("[untested] no rule tested this value") for r in j.reasons)
            assert j.verdict in ("untested", "suspicious", "inconsistent")  # never consistent or explained
        else:
            assert j.verdict != "untested"


def test_no_kernel_ran_and_the_report_says_so():
    assert not any(f.rule == "emulator" for j in JUDGEMENTS for f in j.findings)
    assert REPORT.measurements == {} and set(REPORT.emulations) == {f.id for f in FIGURES}
    assert {e.status for e in REPORT.emulations.values()} == {"not emulated", "hardware", "not applicable"}


def test_every_value_rule_fires_somewhere():
    fired = {f.rule for j in JUDGEMENTS for f in j.findings}
    expected = {"arithmetic-rate", "arithmetic-block-count", "arithmetic-ops", "arithmetic-cycles-time",
                "arithmetic-cycles-rate", "board-clock", "board-peripheral", "aes-key-size", "ctr-symmetry",
                "sha-truncation", "sha3-rate", "hmac-hash", "keygen-vs-agree", "rsa-scaling",
                "rsa-private-vs-public", "rsa-crt", "dsa-scaling", "dh-scaling", "dsa-verify-vs-sign",
                "ecc-scaling", "hardware-vs-software", "cmox-config-speed", "cmox-footprint",
                "cmox-footprint-curves", "cross-board"}
    assert expected <= fired


def test_a_clock_over_the_part_maximum_is_inconsistent_and_cites_the_profile():
    wl55 = find(part="STM32WL55", label="AES-128-CBC-enc")
    (j,) = judged(synthetic(wl55, "syn-wl55-64", clock_mhz=64.0))
    assert j.verdict == "inconsistent"
    assert any("64 MHz exceeds" in r and "48 MHz" in r and "DS13293" in r
               and "cortexm_emu/boards/stm32wl55jc.toml [max_clock]" in r for r in j.reasons)


def test_a_hash_acceleration_claim_without_a_hash_peripheral_is_inconsistent():
    sha = find(part="STM32WB55", algorithm="SHA-256", implementation="software")
    (j,) = judged(synthetic(sha, "syn-wb55-hash", hw=("HASH",), implementation="hardware"))
    assert j.verdict == "inconsistent"
    assert any("board-peripheral" in r and "HASH" in r for r in j.reasons)


def test_json_fields(capsys):
    assert main(["sanity", "--no-emulator", "--format", "json", "--source", "wolfssl", "--algorithm", "RSA"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["schema"] == "refbench-sanity/2" and set(report) == {"schema", "summary", "findings", "figures"}
    data = report["figures"]
    assert data and {d["source"] for d in data} == {"000_950e0926bdf8c114.txt"}
    findings = {f["id"]: f for f in report["findings"]}
    for d in data:
        # each figure links its findings, and each finding lists the figure back
        assert d["findings"] and all(d["id"] in findings[i]["figures"] for i in d["findings"])
        assert {"source", "board", "algorithm", "operation", "published", "unit", "cycles_per_byte",
                "cycles_per_op", "verdict", "reasons"} <= set(d)
        assert d["verdict"] in VERDICTS and d["reasons"] and "RSA" in d["algorithm"]


def test_markdown_and_table_formats(capsys):
    assert main(["sanity", "--no-emulator", "--format", "markdown", "--board", "F756", "--algorithm", "SHA3"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# refbench sanity report\n")
    assert "\n| figure | published | normalised | verdict | reasons |\n" in out
    assert "sha3-rate" in out
    assert main(["sanity", "--no-emulator", "--board", "G071"]) == 0
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


# --- each rule on synthetic figures, kept and broken on purpose -------------------------------------


def test_arithmetic_rate_detects_a_wrong_amount():
    """10 MB took 1.000 s, 10.400 MB/s: 10.4 MB against 10 printed (a whole unit): consistent; 12 is not."""
    template = find(id="000-0002")
    duration = Aux("duration", 1.0, "s", "1.000")
    ok = synthetic(template, "syn-rate", value=10.4, text="10.400", aux=(Aux("amount", 10.0, "MB", "10"), duration))
    assert verdicts(rules.rule_wolfssl_rate([ok], PARTS)) == ["consistent"]
    bad = synthetic(ok, "syn-rate-bad", value=10.4, text="10.400", aux=(Aux("amount", 12.0, "MB", "12"), duration))
    assert verdicts(rules.rule_wolfssl_rate([bad], PARTS)) == ["inconsistent"]


def test_arithmetic_ops_detects_a_wrong_average():
    """100 ops in 1.000 s: avg 10.000 ms and 100.000 ops/s; an average of 10.100 ms is not."""
    template = find(part="STM32H753ZI", label="RSA 2048 public", version="4.4.1", implementation="software")
    aux = (Aux("ops", 100.0, "ops", "100"), Aux("duration", 1.0, "s", "1.000"),
           Aux("ops_per_s", 100.0, "ops/s", "100.000"))
    ok = synthetic(template, "syn-ops", value=10.0, text="10.000", aux=aux)
    assert verdicts(rules.rule_wolfssl_ops([ok], PARTS)) == ["consistent"]
    bad = synthetic(template, "syn-ops-bad", value=10.1, text="10.100", aux=aux)
    assert verdicts(rules.rule_wolfssl_ops([bad], PARTS)) == ["inconsistent"]


def test_block_count_detects_a_fraction_of_a_block():
    """25.000 KB/s (1 KB = 1024 bytes for wolfSSL 4.4.1) x 1.000 s = 25 blocks; 25.300 is a fraction."""
    template = find(part="STM32WB55", label="AES-128-CBC-enc", config="STM32WB55 (STM PKA only, -Os, FastMath)")
    aux = (Aux("amount", 25.0, "KB", "25"), Aux("duration", 1.0, "s", "1.000"))
    ok = synthetic(template, "syn-blocks", value=25.0, text="25.000", aux=aux)
    assert verdicts(rules.rule_wolfssl_block_count([ok], PARTS)) == ["consistent"]
    bad = synthetic(template, "syn-blocks-bad", value=25.3, text="25.300", aux=aux)
    assert verdicts(rules.rule_wolfssl_block_count([bad], PARTS)) == ["inconsistent"]


def test_cycles_against_time_and_rate():
    """4800 cycles at 48 MHz = 100 us (printed 100; 103 is off); 8000 bytes in 640 000 cycles at
    48 MHz = 600 Kbytes/s of 1000 bytes (printed 600; 5 % more cycles is off)."""
    timed = find(id="002-0019")
    ok = synthetic(timed, "syn-time", value=4800.0, aux=(Aux("time", 100.0, "µs", "100"),))
    assert verdicts(rules.rule_cycles_time([ok], PARTS)) == ["consistent"]
    off = synthetic(timed, "syn-time-off", value=4800.0, aux=(Aux("time", 103.0, "µs", "103"),))
    assert verdicts(rules.rule_cycles_time([off], PARTS)) == ["inconsistent"]
    rated = find(id="002-0053")  # 8000-byte message, 48 MHz, Kbytes of 1000 bytes
    rate = (Aux("throughput", 600.0, "Kbytes/s", "600"),)
    assert verdicts(rules.rule_cycles_time([synthetic(rated, "syn-rate-ok", value=640000.0, aux=rate)], PARTS)) == [
        "consistent"]
    slow = synthetic(rated, "syn-rate-slow", value=640000.0 * 1.05, aux=rate)
    assert verdicts(rules.rule_cycles_time([slow], PARTS)) == ["inconsistent"]


def test_board_clock_and_peripheral():
    g071 = find(part="STM32G071RB", label="AES-128-CBC-enc")
    assert verdicts(rules.rule_board_clock([synthetic(g071, "syn-64", clock_mhz=64.0)], PARTS)) == ["consistent"]
    assert verdicts(rules.rule_board_clock([synthetic(g071, "syn-72", clock_mhz=72.0)], PARTS)) == ["inconsistent"]
    claimed = synthetic(g071, "syn-g071-aes", hw=("AES",), implementation="hardware")
    assert verdicts(rules.rule_board_peripheral([claimed], PARTS)) == ["inconsistent"]
    l4 = find(source="004_ce9b801e91a00a6b.txt", algorithm="AES-128-CBC", implementation="hardware",
              operation="encrypt")
    aes128 = synthetic(l4, "syn-aes128", hw=("AES",), key_bits=128)
    assert verdicts(rules.rule_board_peripheral([aes128], PARTS)) == ["consistent"]
    aes192 = synthetic(l4, "syn-aes192", hw=("AES",), key_bits=192)
    assert verdicts(rules.rule_board_peripheral([aes192], PARTS)) == ["inconsistent"]


def test_board_rules_use_the_facts_settled_in_the_board_profiles():
    # WL33: no PKA (refbench/parts/stm32wl33cc.toml); a PKA claim there would be inconsistent.
    wl33 = find(part="STM32WL33CC", implementation="hardware", algorithm="AES-128-CBC", operation="encrypt")
    assert verdicts(rules.rule_board_peripheral([synthetic(wl33, "syn-wl33", hw=("AES",))], PARTS)) == ["consistent"]
    pka = synthetic(wl33, "syn-wl33-pka", hw=("PKA",), algorithm="ECDSA-P256", key_bits=None)
    result = rules.rule_board_peripheral([pka], PARTS)
    assert verdicts(result) == ["inconsistent"]
    assert "refbench/parts/stm32wl33cc.toml [crypto_hw]" in result[0][1].message
    # U585 HASH computes MD5 (RM0456 §3.1); the H5 HASH does not, but does SHA-512.
    u585 = synthetic(find(part="STM32U585", hw=("HASH",), algorithm="SHA-256"), "syn-u585", hw=("HASH",))
    assert verdicts(rules.rule_board_peripheral([synthetic(u585, "syn-md5", algorithm="MD5")], PARTS)) == ["consistent"]
    assert verdicts(rules.rule_board_peripheral([synthetic(u585, "syn-512", algorithm="SHA-512")], PARTS)) == [
        "inconsistent"]
    h563 = synthetic(u585, "syn-h563", part="STM32H563ZI")
    assert verdicts(rules.rule_board_peripheral([synthetic(h563, "syn-h512", algorithm="SHA-512")], PARTS)) == [
        "consistent"]
    assert verdicts(rules.rule_board_peripheral([synthetic(h563, "syn-hmd5", algorithm="MD5")], PARTS)) == [
        "inconsistent"]


def test_aes_key_size_bounds():
    """AES-128 at 10 MB/s: AES-256 at 8 (x1.25 the cost, within 1..14/10) is consistent; at 12
    (faster) or 6.25 (x1.6, beyond the round ratio) it is not."""
    base = synthetic(find(source="003_370dc4a6b790accc.txt", algorithm="AES-128-CTR", operation="encrypt",
                          implementation="software"), "syn-aes128", value=10.0)

    def aes256(value: float):
        return synthetic(base, f"syn-aes256-{value}", value=value, algorithm="AES-256-CTR", key_bits=256)

    assert set(verdicts(invariants.rule_aes_key_size([base, aes256(8.0)], PARTS))) == {"consistent"}
    assert set(verdicts(invariants.rule_aes_key_size([base, aes256(12.0)], PARTS))) == {"suspicious"}
    assert set(verdicts(invariants.rule_aes_key_size([base, aes256(6.25)], PARTS))) == {"suspicious"}


def test_ctr_symmetry():
    enc = synthetic(find(source="001_9657ad2345ba06fe.txt", algorithm="AES-128-CTR", operation="encrypt",
                         implementation="software"), "syn-ctr-enc", value=10.0)
    dec = synthetic(enc, "syn-ctr-dec", value=10.2, operation="decrypt")
    assert set(verdicts(invariants.rule_ctr_symmetry([enc, dec], PARTS))) == {"consistent"}
    slow = synthetic(enc, "syn-ctr-slow", value=8.0, operation="decrypt")
    assert set(verdicts(invariants.rule_ctr_symmetry([enc, slow], PARTS))) == {"suspicious"}


def test_sha_truncation_and_sha3_rate():
    s512 = synthetic(find(source="003_370dc4a6b790accc.txt", algorithm="SHA-512"), "syn-512", value=5.0)
    s384 = synthetic(s512, "syn-384", value=5.0, algorithm="SHA-384")
    assert set(verdicts(invariants.rule_sha_truncation([s384, s512], PARTS))) == {"consistent"}
    odd = synthetic(s512, "syn-384-odd", value=7.5, algorithm="SHA-384")
    assert set(verdicts(invariants.rule_sha_truncation([odd, s512], PARTS))) == {"suspicious"}
    # SHA3-512 absorbs 72 bytes per permutation, SHA3-256 136: 10 MB/s -> 10 x 72/136 = 5.294 MB/s.
    k256 = synthetic(find(source="003_370dc4a6b790accc.txt", algorithm="SHA3-256"), "syn-k256", value=10.0)
    k512 = synthetic(k256, "syn-k512", value=5.294, algorithm="SHA3-512")
    assert set(verdicts(invariants.rule_sha3_rate([k256, k512], PARTS))) == {"consistent"}
    same = synthetic(k256, "syn-k512-same", value=10.0, algorithm="SHA3-512")
    assert set(verdicts(invariants.rule_sha3_rate([k256, same], PARTS))) == {"suspicious"}


def test_hmac_cannot_beat_its_hash():
    """SHA-256 at 1000 KB/s; HMAC over 1024-byte blocks (16 compressions + at most 4) at 900 is
    consistent (speed ratio 0.9 in 0.8..1); at 1200 it beats its hash."""
    h = synthetic(find(part="STM32F437", algorithm="SHA-256", version="4.4.1", implementation="software"),
                  "syn-sha", value=1000.0)
    mac = synthetic(h, "syn-hmac", value=900.0, algorithm="HMAC-SHA-256", block_bytes=1024)
    assert verdicts(invariants.rule_hmac_hash([h, mac], PARTS)) == ["consistent", "consistent"]
    fast = synthetic(mac, "syn-hmac-fast", value=1200.0)
    assert verdicts(invariants.rule_hmac_hash([h, fast], PARTS)) == ["suspicious", "suspicious"]


def test_keygen_not_slower_than_agree():
    keygen = synthetic(find(source="003_370dc4a6b790accc.txt", algorithm="X25519", operation="keygen"),
                       "syn-keygen", value=1.0)
    agree = synthetic(keygen, "syn-agree", value=1.2, operation="agree")
    assert set(verdicts(invariants.rule_keygen_vs_agree([keygen, agree], PARTS))) == {"consistent"}
    slow = synthetic(keygen, "syn-keygen-slow", value=1.8)
    assert set(verdicts(invariants.rule_keygen_vs_agree([slow, agree], PARTS))) == {"suspicious"}


def test_rsa_private_public_and_scaling():
    """Sign 1.0 ms (1024) -> 6.0 ms (2048): exponent 2.58; verify 0.1 -> 0.3: 1.58; sign/verify 20."""
    template = find(id="003-0083")

    def rsa(bits: int, operation: str, value: float):
        return synthetic(template, f"syn-rsa-{bits}-{operation}-{value}", value=value, algorithm=f"RSA-{bits}",
                         key_bits=bits, operation=operation)

    sign1024, verify1024, sign2048, verify2048 = (rsa(1024, "sign", 1.0), rsa(1024, "verify", 0.1),
                                                   rsa(2048, "sign", 6.0), rsa(2048, "verify", 0.3))
    assert set(verdicts(invariants.rule_rsa([sign1024, verify1024, sign2048, verify2048], PARTS))) == {"consistent"}
    cheap = rsa(2048, "sign", 0.6)  # twice the verification
    assert "suspicious" in verdicts(invariants.rule_rsa([cheap, verify2048], PARTS), "rsa-private-vs-public")
    flat = rsa(2048, "sign", 1.2)  # exponent 0.26
    assert "suspicious" in verdicts(invariants.rule_rsa([sign1024, flat], PARTS), "rsa-scaling")
    # A public-key accelerator is not held to the software band: its own tables (RM0456 Table 521)
    # scale by other exponents, and the hardware rule judges it against them.
    pka = [synthetic(f, f.id + "-pka", implementation="hardware", hw=("PKA",)) for f in (sign1024, flat)]
    assert verdicts(invariants.rule_rsa(pka, PARTS), "rsa-scaling") == []


def test_dsa_and_dh_scaling():
    template = next(f for f in FIGURES if f.source.startswith("003") and f.algorithm == "DH-1024"
                    and f.operation == "agree")
    dh1024 = synthetic(template, "syn-dh1024", value=1.0)
    dh2048 = synthetic(template, "syn-dh2048", value=6.0, algorithm="DH-2048", key_bits=2048)  # exponent 2.58
    assert set(verdicts(invariants.rule_dsa_dh([dh1024, dh2048], PARTS))) == {"consistent"}
    huge = synthetic(dh2048, "syn-dh2048-huge", value=20.0)  # exponent 4.32
    assert verdicts(invariants.rule_dsa_dh([dh1024, huge], PARTS)) == ["suspicious", "suspicious"]


def test_hardware_not_slower_than_software():
    sw = synthetic(find(source="004_ce9b801e91a00a6b.txt", algorithm="ECDH-P256", operation="agree",
                        implementation="software"), "syn-sw", value=100.0, row="synthetic ECDH")
    hw = synthetic(find(source="004_ce9b801e91a00a6b.txt", algorithm="ECDH-P256", operation="agree",
                        implementation="hardware"), "syn-hw", value=40.0, row="synthetic ECDH")
    assert set(verdicts(invariants.rule_hw_vs_sw([sw, hw], PARTS))) == {"consistent"}
    slow = synthetic(hw, "syn-hw-slow", value=200.0, row="synthetic ECDH")
    assert set(verdicts(invariants.rule_hw_vs_sw([sw, slow], PARTS))) == {"suspicious"}


def test_cross_board_tolerance():
    """The same build on the STM32WB55 and the STM32F437 (both Cortex-M4) at 100 and 110 cycles per
    byte is consistent; at 100 and 220 it is suspicious, naming the partner."""
    wb55 = find(part="STM32WB55", label="AES-128-CBC-enc", config="STM32WB55 (No HW Crypto, -Os, FastMath)")
    f437 = find(part="STM32F437", label="AES-128-CBC-enc", config="STM32F437 (No HW Crypto, -Os, FastMath)")

    def at(template, figure_id: str, cycles_per_byte: float):  # the page's unit at the part's clock
        return with_cycles_per_byte(template, figure_id, cycles_per_byte)

    a, b = at(wb55, "syn-wb55", 100.0), at(f437, "syn-f437", 110.0)
    assert set(verdicts(cross_board.rule_cross_board([a, b], PARTS))) == {"consistent"}
    result = cross_board.rule_cross_board([a, at(f437, "syn-f437-slow", 220.0)], PARTS)
    assert set(verdicts(result)) == {"suspicious"}
    assert any("STM32F437" in finding.message and "ratio 0.45" in finding.message
               for fid, finding in result if fid == a.id)


def test_cmox_configurations():
    small = next(f for f in FIGURES if f.source.startswith("002") and f.metric == "cycles"
                 and f.row.startswith("SECP256R1 Signature Small Low"))
    fast = next(f for f in FIGURES if f.source.startswith("002") and f.metric == "cycles"
                and f.row.startswith("SECP256R1 Signature SuperFast Low"))
    small, fast = synthetic(small, "syn-small", value=100000.0), synthetic(fast, "syn-fast", value=90000.0)
    assert verdicts(invariants.rule_cmox_configurations([small, fast], PARTS)) == ["consistent"]
    slower = synthetic(fast, "syn-fast-slow", value=110000.0)
    assert verdicts(invariants.rule_cmox_configurations([small, slower], PARTS)) == ["suspicious"]


def test_cmox_fast_setting_slower_on_short_messages_is_explained_by_its_crossover():
    """Fast 3500 cycles against Small 3000 at 32 bytes, but Fast 4500 against Small 5000 at 64
    bytes: a one-time set-up amortised (explained); without the 64-byte rows it is suspicious."""
    small32 = synthetic(find(id="002-0019"), "syn-small-32", value=3000.0)
    fast32 = synthetic(find(id="002-0020"), "syn-fast-32", value=3500.0)
    small64 = synthetic(find(id="002-0021"), "syn-small-64", value=5000.0)
    fast64 = synthetic(find(id="002-0022"), "syn-fast-64", value=4500.0)
    result = invariants.rule_cmox_configurations([small32, fast32, small64, fast64], PARTS)
    assert [(fid, f.verdict) for fid, f in result if f.rule == "cmox-config-speed"] == [
        (fast32.id, "explained"), (fast64.id, "consistent")]
    assert verdicts(invariants.rule_cmox_configurations([small32, fast32], PARTS)) == ["suspicious"]


def test_board_filter_takes_a_profile_name_or_a_page_board_alias():
    """--board has one meaning: a board profile (name or part), with the page's board text as an
    alias; both select the same figures."""
    from refbench.sanity import figure_selected

    figures = load_figures()
    by_profile = {f.id for f in figures if figure_selected(f, board=["stm32f777xi"])}
    by_part = {f.id for f in figures if figure_selected(f, board=["STM32F777"])}
    by_alias = {f.id for f in figures if figure_selected(f, board=["F777"])}
    assert by_profile and by_profile == by_part == by_alias
    assert not any(figure_selected(f, board=["stm32f999zz"]) for f in figures)
