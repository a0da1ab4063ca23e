"""The peripheral rule (refbench.sanity.peripherals): published hardware figures against the
processing times the reference manuals document, as recorded in the board profiles.

Expected bounds are written as the documented numbers themselves (cycles per block / bytes per
block x core clock / peripheral clock), not copied from the rule's output."""

from __future__ import annotations

import dataclasses

import pytest

from cortexm_emu.boards import BOARD_DIR, board_names, find_board, load_board, load_board_file
from refbench.published import model
from refbench.published.normalise import normalise
from refbench.sanity.peripherals import RULE, judge_hardware, peripheral_bounds
from refbench.sanity.rules import SAME_WORK_TOLERANCE


@pytest.fixture(scope="module")
def figures():
    return {f.id: f for f in model.load_figures()}


def _judge(figure, board=None):
    return judge_hardware(figure, board if board is not None else find_board(figure.part))


def _published_cpb(figure) -> float:
    return normalise(figure).cycles_per_byte


# ------------------------------------------------------------------- arithmetic by hand


def test_f437_cryp_aes128_cbc_bound_is_14_hclk_per_block(figures):
    f = figures["000-0209"]  # wolfSSL, STM32F437 at 160 MHz, AES-128-CBC encrypt, 8.716 MB/s
    j = _judge(f)
    # RM0090 Rev 21 Table 113: 14 HCLK per 128-bit block; HCLK is the core clock on the F4.
    expected = 14 / 16 * (160 / 160)
    assert j.modelled and j.peripheral == "AES" and j.unit == "c/B"
    assert j.bound == pytest.approx(expected)
    assert j.ratio == pytest.approx(_published_cpb(f) / expected)
    assert j.finding.rule == RULE and j.finding.verdict == "consistent"
    assert "14 HCLK per 16-byte block" in j.explanation and "RM0090 Rev 21" in j.explanation
    assert "primary" in j.explanation and "stm32f437ii [crypto_hw.CRYP.timing]" in j.source


def test_f437_cryp_gcm_and_256_bit_keys_use_their_own_rows(figures):
    gcm_256 = _judge(figures["000-0219"])  # AES-256-GCM encrypt: Table 113 payload 18 HCLK
    assert gcm_256.bound == pytest.approx(18 / 16)
    cbc_192 = _judge(figures["000-0211"])  # AES-192-CBC: 16 HCLK
    assert cbc_192.bound == pytest.approx(16 / 16)


def test_f437_hash_sha256_adds_the_block_load(figures):
    j = _judge(figures["000-0224"])  # SHA-256 on the F437 HASH
    # RM0090 §25.3.1: 50 HCLK computation + at least 16 HCLK to load the 16 words, per 64 bytes.
    assert j.bound == pytest.approx((50 + 16) / 64)
    assert j.finding.verdict == "consistent"


def test_h753_hash_counts_hclk_at_half_the_core_clock(figures):
    f = figures["000-0017"]  # wolfSSL SHA-256, STM32H753ZI at 480 MHz
    j = _judge(f)
    # RM0399 Table 321: 16 (FIFO load) + 50 per 64-byte block; HCLK <= 240 MHz at a 480 MHz core.
    expected = (16 + 50) / 64 * (480 / 240)
    assert j.bound == pytest.approx(expected)
    assert j.ratio == pytest.approx(_published_cpb(f) / expected)
    assert "x2" in j.explanation and "unconfirmed" in j.explanation  # RM0399, a sibling's manual


def test_wl55_aes_counts_the_48_mhz_bus_under_a_64_mhz_published_core(figures):
    f = figures["000-0174"]  # wolfSSL AES-128-CBC on the WL55, published at 64 MHz (above the 48 MHz maximum)
    j = _judge(f)
    expected = 51 / 16 * (64 / 48)
    assert j.bound == pytest.approx(expected)
    assert "unconfirmed" in j.explanation  # the per-block table is the U5/G4 one, not RM0453's


def test_u585_picks_the_faster_of_aes_and_saes(figures):
    f = figures["000-0467"]  # wolfSSL AES-256-CBC on the U585 at 160 MHz
    bounds, undocumented, why = peripheral_bounds(f, find_board(f.part))
    assert why == "" and undocumented == []
    by_block = {b.block: b.bound for b in bounds}
    # AES: 75 HCLK per block at HCLK = core; SAES: 743 SHSI cycles per block, SHSI <= 48 MHz + 15 %.
    assert by_block["AES"] == pytest.approx(75 / 16)
    assert by_block["SAES"] == pytest.approx(743 / 16 * 160 / (48 * 1.15))
    j = _judge(f)
    assert j.bound == pytest.approx(75 / 16) and "other engines: SAES" in j.explanation


def test_u585_pka_ecdsa_sign_against_the_average(figures):
    f = figures["000-0490"]  # wolfSSL ECDSA-P256 sign with the U585 PKA, 17.857 ms at 160 MHz
    j = _judge(f)
    assert j.unit == "cycles" and j.bound == pytest.approx(2_744_000)  # RM0456 Table 523, 256 bits
    assert j.ratio == pytest.approx(17.857e-3 * 160e6 / 2_744_000)
    assert j.finding.verdict == "consistent" and "average, not a bound" in j.explanation


def test_u385_rsa_sign_uses_the_fastest_documented_mode(figures):
    j = _judge(figures["004-0080"])  # CycloneCRYPTO RSA-2048 sign, 126.3 ms at 96 MHz
    # RM0456 Table 521, 2048-bit exponent: protected 63,886,000, normal 42,240,000, fast
    # 41,832,000, CRT 11,670,000 -> the least is CRT.
    assert j.bound == pytest.approx(min(63_886_000, 42_240_000, 41_832_000, 11_670_000))
    assert "crt mode" in j.explanation and "unconfirmed" in j.explanation


def test_u385_rsa_verify_uses_the_shortest_documented_exponent(figures):
    j = _judge(figures["004-0081"])  # RSA-2048 verify
    # Table 521 public exponents 3, 17, 2^16+1 in normal/fast mode at 2048 bits.
    assert j.bound == pytest.approx(min(491_000, 82_000, 531_400, 122_500, 693_700, 284_700))


def test_ecdh_is_bounded_by_one_scalar_multiplication(figures):
    j = _judge(figures["004-0145"])  # ECDH-P256 agree on the U385
    assert j.bound == pytest.approx(3_083_000)  # RM0456 Table 522, 256 bits


def test_h753_cryp_counts_14_hclk_at_half_the_core_clock(figures):
    f = figures["000-0002"]  # wolfSSL AES-128-CBC encrypt, STM32H753ZI at 480 MHz, 10.4 MB/s
    j = _judge(f)
    # RM0399 Rev 4 §37.6 Table 315: 14 cycles per 128-bit block (128-bit key); HCLK <= 240 MHz.
    expected = 14 / 16 * (480 / 240)
    assert j.bound == pytest.approx(expected) and expected == pytest.approx(1.75)
    assert j.ratio == pytest.approx(_published_cpb(f) / expected)
    assert j.finding.verdict == "consistent"
    assert "stm32h753zi [crypto_hw.CRYP.timing]" in j.source and "unconfirmed" in j.explanation
    gcm_256 = _judge(figures["000-0012"])  # AES-256-GCM encrypt: Table 316 payload 18 cycles
    assert gcm_256.bound == pytest.approx(18 / 16 * 2)


def test_f756_cryp_and_hash_rest_on_the_f43x_and_h7_tables(figures):
    cbc = _judge(figures["003-0009"])  # CycloneCRYPTO AES-128-CBC, STM32F756ZG at 216 MHz
    # RM0090 Table 113 = RM0399 Table 315: 14 HCLK per 16-byte block; HCLK = core on the F7.
    assert cbc.bound == pytest.approx(14 / 16)
    assert "unconfirmed" in cbc.explanation and cbc.finding.verdict == "consistent"
    tdes = _judge(figures["003-0003"])  # 3DES-CBC: 48 HCLK per 8-byte block
    assert tdes.bound == pytest.approx(48 / 8)
    ccm = _judge(figures["003-0049"])  # AES-128-CCM: payload 25 HCLK per block (no message size printed)
    assert ccm.bound == pytest.approx(25 / 16)
    md5 = _judge(figures["003-0068"])  # MD5: 50 + 16 HCLK per 64-byte block
    assert md5.bound == pytest.approx((50 + 16) / 64)
    assert md5.ratio == pytest.approx(_published_cpb(figures["003-0068"]) / ((50 + 16) / 64))


def test_f777_cryp_and_hash(figures):
    assert _judge(figures["000-0413"]).bound == pytest.approx(14 / 16)  # wolfSSL AES-128-CBC
    sha = _judge(figures["000-0428"])  # wolfSSL SHA-256: 66 HCLK per 64 bytes
    assert sha.bound == pytest.approx(66 / 64) and "stm32f777xi [crypto_hw.HASH.timing]" in sha.source


def test_wb55_aes_table_is_its_own_manuals(figures):
    j = _judge(figures["000-0100"])  # wolfSSL AES-128-CBC on the WB55 at 64 MHz
    # RM0434 Rev 16 §25.6 Table 137: 51 cycles per block, AES1 on the CPU1 HCLK.
    assert j.bound == pytest.approx(51 / 16)
    assert "RM0434 Rev 16" in j.explanation and "primary" in j.explanation


def test_wb55_pka_against_rm0434_tables(figures):
    keygen = _judge(figures["000-0143"])  # wolfSSL ECC-P256 keygen, 113.778 ms at 64 MHz
    # RM0434 Rev 16 Table 166 at 256 bits: normal 4,924,000, fast 4,916,000 -> the least.
    assert keygen.bound == pytest.approx(min(4_924_000, 4_916_000))
    assert keygen.ratio == pytest.approx(113.778e-3 * 64e6 / 4_916_000)
    sign = _judge(figures["000-0145"])  # ECDSA-P256 sign, 82.643 ms: Table 167 average 5,249,000
    assert sign.bound == pytest.approx(5_249_000)
    assert sign.ratio == pytest.approx(82.643e-3 * 64e6 / 5_249_000)
    verify = _judge(figures["000-0146"])  # ECDSA-P256 verify, 160.25 ms: Table 168 average 10,498,000
    assert verify.ratio == pytest.approx(160.25e-3 * 64e6 / 10_498_000)
    assert verify.ratio < 1 < verify.ratio * (1 + SAME_WORK_TOLERANCE)
    assert verify.finding.verdict == "consistent" and "within the allowance" in verify.explanation


@pytest.mark.parametrize(
    ("figure_id", "cycles"),
    [
        ("000-0277", 66),  # L4A6 SHA-256 (wolfSSL, 80 MHz)
        ("000-0354", 66),  # L562 SHA-256 (wolfSSL, 110 MHz)
        ("000-0479", 82),  # U585 SHA-1 (wolfSSL, 160 MHz)
    ],
)
def test_l4_l5_u5_hash_use_the_unconfirmed_sibling_table(figures, figure_id, cycles):
    j = _judge(figures[figure_id])
    # RM0399 Table 321 / RM0090 §25.3.1 per 64-byte block; HCLK = core on these parts.
    assert j.bound == pytest.approx(cycles / 64)
    assert "unconfirmed" in j.explanation and j.finding.verdict == "consistent"


# ------------------------------------------------------------------------- verdicts


def _faster(figure, factor: float):
    """The same figure printed ``factor`` times faster (throughput up, or time down)."""
    if figure.metric == "throughput":
        value = figure.value * factor
    else:
        value = figure.value / factor
    return dataclasses.replace(figure, value=value, text=f"{value:.3f}")


def test_a_figure_faster_than_the_peripheral_is_inconsistent(figures):
    f = figures["000-0209"]
    j0 = _judge(f)
    synthetic = _faster(f, j0.ratio * 2)  # twice as fast as the documented 14 HCLK per block
    j = _judge(synthetic)
    assert j.ratio == pytest.approx(0.5, rel=1e-3)
    assert j.finding.verdict == "inconsistent"
    assert "claims more than the peripheral can do" in j.explanation


def test_the_allowance_keeps_a_figure_at_the_bound_consistent(figures):
    f = figures["000-0209"]
    j0 = _judge(f)
    at_edge = _faster(f, j0.ratio * (1 + SAME_WORK_TOLERANCE / 2))
    assert _judge(at_edge).finding.verdict == "consistent"
    beyond = _faster(f, j0.ratio * (1 + 2 * SAME_WORK_TOLERANCE))
    assert _judge(beyond).finding.verdict == "inconsistent"


def test_faster_than_an_average_is_suspicious_not_inconsistent(figures):
    f = figures["004-0116"]  # ECDSA-brainpoolP256r1 sign on the U385 (a Brainpool modulus)
    j = _judge(_faster(f, _judge(f).ratio * 2))
    assert j.finding.verdict == "suspicious" and "average, not a bound" in j.explanation


def test_a_nist_signature_below_the_average_stays_consistent(figures):
    f = figures["004-0104"]  # ECDSA-P256 sign: Table 523 note 2 says NIST moduli are faster
    j = _judge(_faster(f, _judge(f).ratio * 2))
    assert j.finding.verdict == "consistent" and "NIST moduli" in j.explanation


def test_an_undocumented_second_engine_makes_a_fast_figure_suspicious(figures):
    f = figures["004-0007"]  # AES-128-CBC on the U385: AES documented, SAES not
    j0 = _judge(f)
    assert "SAES: no processing time documented" in j0.explanation
    j = _judge(_faster(f, j0.ratio * 2))
    assert j.finding.verdict == "suspicious"


def test_an_unconfirmed_table_makes_a_fast_figure_suspicious_not_inconsistent(figures):
    f = figures["003-0009"]  # F756 AES-128-CBC: the CRYP table is the F43x/H7 one, unconfirmed for RM0385
    j0 = _judge(f)
    j = _judge(_faster(f, j0.ratio * 2))
    assert j.ratio == pytest.approx(0.5, rel=1e-3)
    assert j.finding.verdict == "suspicious" and "unconfirmed table" in j.explanation
    primary = figures["000-0100"]  # the same figure shape against a primary table stays inconsistent
    assert _judge(_faster(primary, _judge(primary).ratio * 2)).finding.verdict == "inconsistent"


# -------------------------------------------------------------------- not modelled


@pytest.mark.parametrize(
    ("figure_id", "reason"),
    [
        ("004-0065", "HASH: no processing time documented"),  # U385 SHA-384: RM0487 HASH not seen
        ("000-0191", "PKA: no processing time documented"),  # WL55 PKA (RM0453 tables not seen)
        ("004-0136", "exponent length"),  # DH-1024 keygen: exponent length unknown
        ("004-0128", "not an operation of the documented PKA"),  # SM2 signature
        ("000-0111", "has no peripheral providing SHA-256"),  # WB55 has no HASH
        ("001-0007", "AES: no processing time documented"),  # WL33 AES
        ("000-0382", "PKA: no processing time documented"),  # L562 PKA (RM0438 tables not seen)
    ],
)
def test_undocumented_cases_are_not_modelled(figures, figure_id, reason):
    j = _judge(figures[figure_id])
    assert not j.modelled and j.finding is None and j.bound is None and j.ratio is None
    assert j.explanation.startswith("not modelled: ") and reason in j.explanation


def test_wolfssl_rng_is_a_drbg_and_not_bounded_by_the_rng(figures):
    j = _judge(figures["000-0208"])  # wolfSSL RNG on the F437
    assert not j.modelled and "Hash_DRBG" in j.explanation
    # The raw RNG rate is still given for reference: 40 RNG_CLK per word at <= 48 MHz.
    assert f"{40 / 4 * 160 / 48:.2f} core c/B" in j.explanation


def test_no_board_profile_is_not_modelled(figures):
    j = judge_hardware(figures["000-0209"], None)
    assert not j.modelled and "no board profile" in j.explanation


def test_a_software_figure_is_rejected(figures):
    software = next(f for f in figures.values() if f.implementation == "software")
    with pytest.raises(ValueError, match="implementation 'software'.*accepted: hardware"):
        judge_hardware(software, find_board(software.part))


def test_every_hardware_figure_is_judged_or_says_why(figures):
    hardware = [f for f in figures.values() if f.implementation == "hardware"]
    assert len(hardware) == 259
    for f in hardware:
        j = _judge(f)
        assert j.explanation
        if j.modelled:
            assert j.bound > 0 and j.ratio > 0 and j.finding.rule == RULE
            assert j.finding.verdict != "inconsistent" or "claims more" in j.explanation


# ------------------------------------------------------------- the data drives the rule


def test_the_bound_follows_the_board_file(figures, tmp_path):
    text = (BOARD_DIR / "stm32f437ii.toml").read_text(encoding="utf-8")
    old = 'operation = "CBC", key_bits = 128, phase = "block", bytes = 16, cycles = 14,'
    assert text.count(old) == 1
    path = tmp_path / "stm32f437ii.toml"
    path.write_text(text.replace(old, old.replace("cycles = 14", "cycles = 28")), encoding="utf-8")
    j = judge_hardware(figures["000-0209"], load_board_file(path))
    assert j.bound == pytest.approx(28 / 16)


def test_every_timing_table_cites_its_numbers_and_its_clock():
    timed = 0
    for name in board_names():
        for block in load_board(name).crypto_hw:
            if block.timing is None:
                continue
            timed += 1
            assert block.present and block.timing.rows
            assert block.timing.citation.source.strip() and block.timing.clock_citation.source.strip()
            if block.timing.citation.confidence == "unconfirmed":
                # numbers borrowed from another manual say so, and say this part's was not seen
                assert "not this part's manual" in block.timing.citation.source, (name, block.name)
    assert timed == 23
