"""The peripheral rule (refbench.sanity.peripherals): hardware figures against the processing
times the reference manuals document, as recorded in the part files (refbench/parts/).

Every figure here is synthetic (id "test-..."): a stated part, clock, peripheral, operation and
cycle count. The expected bound is computed in the test from the stated timing row of the part
file (cycles per block / bytes per block x core clock / fastest peripheral clock), and the row
itself is checked against the number the manual prints, so each test checks the rule, not a
published page."""

from __future__ import annotations

import dataclasses
import math

import pytest

from cortexm_emu.boards import find_board
from refbench.parts import (
    PARTS_DIR,
    TimingRow,
    load_part_file,
    load_part_profile,
    part_profile_names,
)
from refbench.published.model import Figure, load_figures
from refbench.sanity.peripherals import RULE, judge_hardware, peripheral_bounds
from refbench.sanity.rules import SAME_WORK_TOLERANCE

MESSAGE = 1024  # bytes of every synthetic bulk figure


def figure(part: str, clock_mhz: float, hw: str, algorithm: str, cycles: float, *, mode: str | None = None,
           operation: str = "encrypt", key_bits: int | None = None, curve: str | None = None,
           message_bytes: int | None = MESSAGE, library: str = "test", implementation: str = "hardware") -> Figure:
    """A stated figure: ``cycles`` for the whole message (bulk) or for one operation (``message_bytes=None``)."""
    text = f"{cycles:.0f}"
    return Figure(
        id=f"test-{part}-{algorithm}-{operation}", source="test", section="synthetic", row=text, offset=0,
        label="synthetic", board=None, part=part, core="", clock_mhz=clock_mhz, library=library, version="",
        compiler="", options="", config="", hw=(hw,) if hw else (), implementation=implementation, math=None,
        asm=None, cache=None, notes=None, variant=None, algorithm=algorithm, mode=mode, operation=operation,
        key_bits=key_bits, curve=curve, message_bytes=message_bytes, chunk_bytes=None, block_bytes=None,
        metric="cycles", value=float(text), unit="cycles", text=text,
    )


def profile_of(f: Figure):
    return load_part_profile(find_board(f.part).name)


def judge(f: Figure):
    return judge_hardware(f, profile_of(f))


def row(name: str, block: str, operation: str, key_bits: int = 0, phase: str = "block",
        variant: str = "") -> TimingRow:
    """The one timing row of part file ``name`` for these keys."""
    timing = load_part_profile(name).crypto(block).timing
    assert timing is not None, (name, block)
    found = [r for r in timing.rows if (r.operation, r.key_bits, r.phase, r.variant) == (operation, key_bits, phase, variant)]
    assert len(found) == 1, (name, block, operation, key_bits, phase, variant)
    return found[0]


def per_byte(r: TimingRow) -> float:
    return r.cycles / r.bytes


def faster(f: Figure, factor: float) -> Figure:
    """The same synthetic figure ``factor`` times faster."""
    value = round(f.value / factor)
    return dataclasses.replace(f, value=float(value), text=str(value))


# ------------------------------------------------------------------- arithmetic by hand


def test_f437_cryp_aes128_cbc_bound_is_14_hclk_per_block():
    r = row("stm32f437ii", "CRYP", "CBC", 128)
    assert (r.cycles, r.bytes) == (14, 16)  # RM0090 Rev 21 Table 113
    expected = per_byte(r) * 160 / 160  # HCLK is the core clock on the F4 (<= 180 MHz)
    f = figure("STM32F437", 160, "AES", "AES-128-CBC", 2 * expected * MESSAGE, mode="CBC", key_bits=128)
    j = judge(f)
    assert j.modelled and j.peripheral == "AES" and j.unit == "c/B"
    assert j.bound == pytest.approx(expected)
    assert j.ratio == pytest.approx(2)
    assert j.finding.rule == RULE and j.finding.verdict == "consistent"
    assert "14 HCLK per 16-byte block" in j.explanation and "RM0090 Rev 21" in j.explanation
    assert "primary" in j.explanation and "stm32f437ii [crypto_hw.CRYP.timing]" in j.source


def test_f437_cryp_gcm_counts_init_and_tag_once_per_message():
    block, init, tag = (row("stm32f437ii", "CRYP", "GCM", 256, phase) for phase in ("block", "init", "tag"))
    assert (block.cycles, init.cycles, tag.cycles) == (18, 32, 18)  # Table 113, 256-bit key
    expected = (block.cycles * math.ceil(MESSAGE / 16) + init.cycles + tag.cycles) / MESSAGE
    j = judge(figure("STM32F437", 160, "AES", "AES-256-GCM", 3 * expected * MESSAGE, mode="GCM", key_bits=256))
    assert j.bound == pytest.approx(expected)
    assert "(64 blocks + 32 (init) + 18 (tag))" in j.explanation
    cbc_192 = judge(figure("STM32F437", 160, "AES", "AES-192-CBC", 5000, mode="CBC", key_bits=192))
    assert cbc_192.bound == pytest.approx(per_byte(row("stm32f437ii", "CRYP", "CBC", 192)))


def test_f437_hash_sha256_adds_the_block_load():
    r = row("stm32f437ii", "HASH", "SHA-256")
    assert r.cycles == 50 + 16  # RM0090 §25.3.1: 50 HCLK computation + at least 16 to load the block
    j = judge(figure("STM32F437", 160, "HASH", "SHA-256", 4000, operation="hash"))
    assert j.bound == pytest.approx(per_byte(r))
    assert j.finding.verdict == "consistent"


def test_h753_hash_counts_hclk_at_half_the_core_clock():
    r = row("stm32h753zi", "HASH", "SHA-256")
    timing = load_part_profile("stm32h753zi").crypto("HASH").timing
    assert timing.max_clock_mhz(480) == 240  # HCLK <= 240 MHz
    expected = per_byte(r) * 480 / 240
    f = figure("STM32H753ZI", 480, "HASH", "SHA-256", 1.5 * expected * MESSAGE, operation="hash")
    j = judge(f)
    assert j.bound == pytest.approx(expected)
    assert j.ratio == pytest.approx(1.5)
    assert "x2" in j.explanation and "unconfirmed" in j.explanation  # RM0399, a sibling's manual


def test_a_core_stated_above_the_part_maximum_keeps_the_manuals_clock_tree():
    # The WL55's core and AES bus both stop at 48 MHz (one SYSCLK): a page stating a 64 MHz core
    # describes no documented configuration, and no divider puts the bus at 48 MHz under it; the
    # manual's bus/core ratio at the maximum (1) is kept: x1, not x64/48.
    r = row("stm32wl55jc", "AES", "CBC", 128)
    expected = per_byte(r)
    j = judge(figure("STM32WL55", 64, "AES", "AES-128-CBC", 2 * expected * MESSAGE, mode="CBC", key_bits=128))
    assert j.bound == pytest.approx(expected)
    assert "above the part's documented 48 MHz" in j.explanation and "x1" in j.explanation
    # the per-block table is the U5/G4/WB55 one, not RM0453's: named as borrowed
    assert "borrowed from RM0456 Rev 6" in j.explanation


def test_u585_picks_the_faster_of_aes_and_saes():
    f = figure("STM32U585", 160, "AES", "AES-256-CBC", 20 * MESSAGE, mode="CBC", key_bits=256)
    bounds, undocumented, why = peripheral_bounds(f, profile_of(f))
    assert why == "" and undocumented == []
    by_block = {b.block: b.bound for b in bounds}
    saes = load_part_profile("stm32u585ai").crypto("SAES").timing
    assert by_block["AES"] == pytest.approx(per_byte(row("stm32u585ai", "AES", "CBC", 256)))
    assert by_block["SAES"] == pytest.approx(per_byte(row("stm32u585ai", "SAES", "CBC", 256)) * 160 / saes.clock_max_mhz)
    j = judge(f)
    assert j.bound == pytest.approx(min(by_block.values())) and "other engines: SAES" in j.explanation


def test_u585_pka_ecdsa_sign_against_the_average():
    r = row("stm32u585ai", "PKA", "ecdsa-sign", 256, "op")
    assert (r.cycles, r.kind) == (2_744_000, "average")  # RM0456 Table 523, 256 bits
    f = figure("STM32U585", 160, "PKA", "ECDSA-P256", 1.1 * r.cycles, operation="sign", key_bits=256,
               curve="P-256", message_bytes=None)
    j = judge(f)
    assert j.unit == "cycles" and j.bound == pytest.approx(r.cycles)
    assert j.ratio == pytest.approx(f.value / r.cycles)
    assert j.finding.verdict == "consistent" and "against the manual's average" in j.explanation


def test_rsa_sign_uses_the_fastest_documented_mode():
    modes = [row("stm32u385rg", "PKA", "modexp-private", 2048, "op", v).cycles for v in ("protected", "normal", "fast", "crt")]
    f = figure("STM32U385RGT6Q", 96, "PKA", "RSA-2048", 2 * min(modes), operation="sign", key_bits=2048,
               message_bytes=None)
    j = judge(f)
    assert j.bound == pytest.approx(min(modes)) and min(modes) == 11_670_000  # RM0456 Table 521, CRT
    assert "crt mode" in j.explanation and "unconfirmed" in j.explanation


def test_rsa_verify_uses_the_shortest_documented_exponent():
    timing = load_part_profile("stm32u385rg").crypto("PKA").timing
    public = [r.cycles for r in timing.rows if r.operation == "modexp-public" and r.key_bits == 2048]
    assert len(public) == 6  # exponents 3, 17, 2^16+1 in normal and fast mode (Table 521)
    j = judge(figure("STM32U385RGT6Q", 96, "PKA", "RSA-2048", 10 * min(public), operation="verify",
                     key_bits=2048, message_bytes=None))
    assert j.bound == pytest.approx(min(public))


def test_ecdh_is_bounded_by_one_scalar_multiplication():
    r = row("stm32u385rg", "PKA", "ecc-scalar-mul", 256, "op", "")
    j = judge(figure("STM32U385RGT6Q", 96, "PKA", "ECDH-P256", 2 * r.cycles, operation="agree", key_bits=256,
                     curve="P-256", message_bytes=None))
    assert j.bound == pytest.approx(r.cycles) and r.cycles == 3_083_000  # RM0456 Table 522


def test_a_page_note_about_the_peripheral_is_quoted_beside_the_documented_time():
    """The U585 PKA section's note (notes.toml explains = "peripheral") is quoted on its PKA figures,
    not on its other peripherals' figures nor on figures outside its heading."""
    from refbench.published.notes import load_notes

    note = next(n for n in load_notes() if n.explains == RULE)
    section = next(f for f in load_figures() if note.covers(f) and f.algorithm == "ECDH-P256")
    r = row("stm32u585ai", "PKA", "ecc-scalar-mul", 256, "op", "")
    pka = dataclasses.replace(figure("STM32U585", 160, "PKA", "ECDH-P256", 1.2 * r.cycles, operation="agree",
                                     key_bits=256, curve="P-256", message_bytes=None),
                              source=section.source, offset=section.offset)
    j = judge(pka)
    assert j.finding.verdict == "consistent" and note.quote in j.explanation and note.quote in j.finding.message
    aes = dataclasses.replace(figure("STM32U585", 160, "AES", "AES-128-CBC", 20_000.0, mode="CBC", key_bits=128),
                              source=section.source, offset=section.offset)
    assert note.quote not in judge(aes).explanation
    assert note.quote not in judge(dataclasses.replace(pka, source="test", offset=0)).explanation


def test_h753_cryp_counts_hclk_at_half_the_core_clock():
    r = row("stm32h753zi", "CRYP", "CBC", 128)
    expected = per_byte(r) * 480 / 240
    assert expected == pytest.approx(1.75)  # RM0399 Table 315: 14 cycles per block, HCLK <= 240 MHz
    j = judge(figure("STM32H753ZI", 480, "AES", "AES-128-CBC", 2 * expected * MESSAGE, mode="CBC", key_bits=128))
    assert j.bound == pytest.approx(expected) and j.finding.verdict == "consistent"
    assert "stm32h753zi [crypto_hw.CRYP.timing]" in j.source and "unconfirmed" in j.explanation


@pytest.mark.parametrize(
    ("hw", "algorithm", "mode", "key_bits", "block", "operation"),
    [
        ("AES", "AES-128-CBC", "CBC", 128, "CRYP", "CBC"),
        ("DES", "3DES-CBC", "CBC", 168, "CRYP", "TDES"),
        ("DES", "DES-CBC", "CBC", 56, "CRYP", "DES"),
        ("HASH", "MD5", None, None, "HASH", "MD5"),
        ("HASH", "SHA-256", None, None, "HASH", "SHA-256"),
    ],
)
def test_f7_cryp_and_hash_rest_on_the_f43x_and_h7_tables(hw, algorithm, mode, key_bits, block, operation):
    aes_bits = 128 if hw == "AES" else 0
    for part, name in (("STM32F756ZG", "stm32f756zg"), ("STM32F777", "stm32f777xi")):
        r = row(name, block, operation, aes_bits)
        assert r.cycles == row("stm32f437ii", block, operation, aes_bits).cycles  # the cited F43x table
        j = judge(figure(part, 216, hw, algorithm, 3 * per_byte(r) * MESSAGE, mode=mode, key_bits=key_bits,
                         operation="encrypt" if mode else "hash"))
        assert j.bound == pytest.approx(per_byte(r))  # HCLK = core on the F7
        assert "unconfirmed" in j.explanation and j.finding.verdict == "consistent"
        assert f"{name} [crypto_hw.{block}.timing]" in j.source


def test_f7_ccm_without_a_message_size_uses_the_payload_row():
    r = row("stm32f756zg", "CRYP", "CCM", 128)
    f = figure("STM32F756ZG", 216, "AES", "AES-128-CCM", 5 * per_byte(r) * MESSAGE, mode="CCM", key_bits=128)
    bounds, _, _ = peripheral_bounds(dataclasses.replace(f, message_bytes=None), profile_of(f))
    assert [b.bound for b in bounds] == [pytest.approx(per_byte(r))]


def test_wb55_aes_table_is_its_own_manuals():
    r = row("stm32wb55rg", "AES", "CBC", 128)
    assert r.cycles == 51  # RM0434 Rev 16 §25.6 Table 137
    j = judge(figure("STM32WB55", 64, "AES", "AES-128-CBC", 2 * per_byte(r) * MESSAGE, mode="CBC", key_bits=128))
    assert j.bound == pytest.approx(per_byte(r))
    assert "RM0434 Rev 16" in j.explanation and "primary" in j.explanation


def test_wb55_pka_against_rm0434_tables():
    timing = load_part_profile("stm32wb55rg").crypto("PKA").timing
    scalar = [r.cycles for r in timing.rows if r.operation == "ecc-scalar-mul" and r.key_bits == 256]
    keygen = judge(figure("STM32WB55", 64, "PKA", "ECC-P256", 1.5 * min(scalar), operation="keygen", key_bits=256,
                          curve="P-256", message_bytes=None))
    assert keygen.bound == pytest.approx(min(scalar)) and min(scalar) == 4_916_000  # Table 166, fast mode
    verify = row("stm32wb55rg", "PKA", "ecdsa-verify", 256, "op")
    assert verify.cycles == 10_498_000  # Table 168 average
    inside = verify.cycles / (1 + SAME_WORK_TOLERANCE / 2)
    j = judge(figure("STM32WB55", 64, "PKA", "ECDSA-P256", inside, operation="verify", key_bits=256,
                     curve="P-256", message_bytes=None))
    assert j.ratio < 1 < j.ratio * (1 + SAME_WORK_TOLERANCE)
    assert j.finding.verdict == "consistent" and "within the allowance" in j.explanation


@pytest.mark.parametrize(
    ("part", "name", "clock", "digest"),
    [
        ("STM32L4A6Z", "stm32l4a6zg", 80, "SHA-256"),
        ("STM32L562E", "stm32l562qe", 110, "SHA-256"),
        ("STM32U585", "stm32u585ai", 160, "SHA-1"),
    ],
)
def test_l4_l5_u5_hash_use_the_unconfirmed_sibling_table(part, name, clock, digest):
    r = row(name, "HASH", digest)
    assert r.cycles == row("stm32f437ii", "HASH", digest).cycles  # RM0399 Table 321 = RM0090 §25.3.1
    j = judge(figure(part, clock, "HASH", digest, 2 * per_byte(r) * MESSAGE, operation="hash"))
    assert j.bound == pytest.approx(per_byte(r))  # HCLK = core on these parts
    assert "unconfirmed" in j.explanation and j.finding.verdict == "consistent"


# ------------------------------------------------------------------------- verdicts


def _f437_cbc(cycles_per_byte: float) -> Figure:
    return figure("STM32F437", 160, "AES", "AES-128-CBC", cycles_per_byte * MESSAGE, mode="CBC", key_bits=128)


def test_a_figure_faster_than_the_peripheral_is_inconsistent():
    bound = per_byte(row("stm32f437ii", "CRYP", "CBC", 128))
    j = judge(_f437_cbc(bound / 2))  # twice as fast as the documented 14 HCLK per block
    assert j.ratio == pytest.approx(0.5, rel=1e-3)
    assert j.finding.verdict == "inconsistent"
    assert "claims more than the peripheral can do" in j.explanation


def test_the_allowance_keeps_a_figure_at_the_bound_consistent():
    bound = per_byte(row("stm32f437ii", "CRYP", "CBC", 128))
    assert judge(_f437_cbc(bound / (1 + SAME_WORK_TOLERANCE / 2))).finding.verdict == "consistent"
    assert judge(_f437_cbc(bound / (1 + 2 * SAME_WORK_TOLERANCE))).finding.verdict == "inconsistent"


def _u385_sign(curve: str, algorithm: str, factor: float) -> Figure:
    average = row("stm32u385rg", "PKA", "ecdsa-sign", 256, "op").cycles
    return figure("STM32U385RGT6Q", 96, "PKA", algorithm, average / factor, operation="sign", key_bits=256,
                  curve=curve, message_bytes=None)


def test_faster_than_an_average_is_suspicious_not_inconsistent():
    j = judge(_u385_sign("brainpoolP256r1", "ECDSA-brainpoolP256r1", 2))  # a Brainpool modulus
    assert j.ratio == pytest.approx(0.5, rel=1e-6)
    assert j.finding.verdict == "suspicious" and "average, not a bound" in j.explanation


def test_a_nist_signature_below_the_average_stays_consistent():
    j = judge(_u385_sign("P-256", "ECDSA-P256", 2))  # Table 523 note 2: NIST moduli are faster
    assert j.finding.verdict == "consistent" and "NIST moduli" in j.explanation


def test_an_undocumented_second_engine_makes_a_fast_figure_suspicious():
    bound = per_byte(row("stm32u385rg", "AES", "CBC", 128))
    f = figure("STM32U385RGT6Q", 96, "AES", "AES-128-CBC", bound / 2 * MESSAGE, mode="CBC", key_bits=128)
    j = judge(f)  # AES documented, SAES not
    assert "SAES: no processing time documented" in j.explanation
    assert j.finding.verdict == "suspicious"


def test_a_borrowed_table_is_named_and_leaves_a_fast_figure_untested_not_explained():
    r = row("stm32f756zg", "CRYP", "CBC", 128)
    assert load_part_profile("stm32f756zg").crypto("CRYP").timing.citation.confidence == "unconfirmed"
    j = judge(figure("STM32F756ZG", 216, "AES", "AES-128-CBC", per_byte(r) / 2 * MESSAGE, mode="CBC", key_bits=128))
    assert j.ratio == pytest.approx(0.5, rel=1e-3)
    # another part's table is no evidence either way: the fast side is untested (tests="bound")
    assert (j.finding.verdict, j.finding.tests) == ("consistent", "bound")
    assert "borrowed from RM0090 Rev 21" in j.explanation and "untested on the fast side" in j.explanation
    # a figure slower than the borrowed bound says where the bound comes from too
    slow = judge(figure("STM32F756ZG", 216, "AES", "AES-128-CBC", per_byte(r) * 3 * MESSAGE, mode="CBC", key_bits=128))
    assert (slow.finding.verdict, slow.finding.tests) == ("consistent", "value")
    assert "borrowed from RM0090 Rev 21" in slow.explanation
    # the same figure shape against a primary table is inconsistent
    primary = per_byte(row("stm32wb55rg", "AES", "CBC", 128))
    wb55 = judge(figure("STM32WB55", 64, "AES", "AES-128-CBC", primary / 2 * MESSAGE, mode="CBC", key_bits=128))
    assert wb55.finding.verdict == "inconsistent"


# -------------------------------------------------------------------- not modelled


@pytest.mark.parametrize(
    ("f", "reason"),
    [
        (figure("STM32U385RGT6Q", 96, "HASH", "SHA-384", 9000, operation="hash"),
         "HASH: no processing time documented"),  # RM0487 HASH not seen
        (figure("STM32WL55", 48, "PKA", "ECDSA-P256", 9e6, operation="sign", key_bits=256, curve="P-256",
                message_bytes=None), "PKA: no processing time documented"),  # RM0453 tables not seen
        (figure("STM32U385RGT6Q", 96, "PKA", "DH-1024", 9e6, operation="keygen", key_bits=1024,
                message_bytes=None), "exponent length"),
        (figure("STM32U385RGT6Q", 96, "PKA", "SM2-DSA", 9e6, operation="sign", key_bits=256, curve="SM2",
                message_bytes=None), "not an operation of the documented PKA"),
        (figure("STM32WB55", 64, "HASH", "SHA-256", 9000, operation="hash"),
         "has no peripheral providing SHA-256"),  # no HASH on the WB55
        (figure("STM32WL33CC", 64, "AES", "AES-128-CBC", 9000, mode="CBC", key_bits=128),
         "AES: no processing time documented"),
        (figure("STM32L562E", 110, "PKA", "ECDSA-P256", 9e6, operation="sign", key_bits=256, curve="P-256",
                message_bytes=None), "PKA: no processing time documented"),  # RM0438 tables not seen
        (figure("STM32F437", 160, "AES", "AES-128-XTS", 9000, mode="XTS", key_bits=128),
         "no documented AES processing time applies"),
        (figure("STM32F437", 160, "AES", "AES-128-CBC", 9000, mode="CBC", key_bits=128, message_bytes=None),
         "the figure gives no cycles per byte"),
    ],
    ids=lambda value: value.id if isinstance(value, Figure) else None,
)
def test_undocumented_cases_are_not_modelled(f, reason):
    j = judge(f)
    assert not j.modelled and j.finding is None and j.bound is None and j.ratio is None
    assert j.explanation.startswith("not modelled: ") and reason in j.explanation


def test_a_wolfssl_rng_figure_is_a_drbg_and_not_bounded_by_the_rng():
    r = row("stm32f437ii", "RNG", "random")
    assert (r.cycles, r.bytes) == (40, 4)  # RM0090 §24.2: 40 RNG_CLK per 32-bit word, RNG_CLK <= 48 MHz
    f = figure("STM32F437", 160, "RNG", "RNG", 50 * MESSAGE, operation="generate", library="wolfSSL")
    j = judge(f)
    assert not j.modelled and "Hash_DRBG" in j.explanation
    assert f"{per_byte(r) * 160 / 48:.2f} core c/B" in j.explanation  # the raw RNG rate, for reference
    other = judge(dataclasses.replace(f, library="test"))  # the same number from another library
    assert other.modelled and other.bound == pytest.approx(per_byte(r) * 160 / 48)


def test_no_part_profile_is_not_modelled():
    j = judge_hardware(_f437_cbc(10), None)
    assert not j.modelled and "no board profile" in j.explanation


def test_a_software_figure_is_rejected():
    software = dataclasses.replace(_f437_cbc(10), implementation="software")
    with pytest.raises(ValueError, match="implementation 'software'.*accepted: hardware"):
        judge_hardware(software, profile_of(software))


def test_every_hardware_figure_is_judged_or_says_why():
    hardware = [f for f in load_figures() if f.implementation == "hardware"]
    assert hardware
    for f in hardware:
        j = judge(f)
        assert j.explanation
        if j.modelled:
            assert j.bound > 0 and j.ratio > 0 and j.finding.rule == RULE
            assert j.finding.verdict != "inconsistent" or "claims more" in j.explanation


# ------------------------------------------------------------- the data drives the rule


def test_the_bound_follows_the_part_file(tmp_path):
    text = (PARTS_DIR / "stm32f437ii.toml").read_text(encoding="utf-8")
    old = 'operation = "CBC", key_bits = 128, phase = "block", bytes = 16, cycles = 14,'
    assert text.count(old) == 1
    path = tmp_path / "stm32f437ii.toml"
    path.write_text(text.replace(old, old.replace("cycles = 14", "cycles = 28")), encoding="utf-8")
    j = judge_hardware(_f437_cbc(10), load_part_file(path))
    assert j.bound == pytest.approx(28 / 16)


def test_every_timing_table_cites_its_numbers_and_its_clock():
    timed = 0
    for name in part_profile_names():
        for block in load_part_profile(name).crypto_hw:
            if block.timing is None:
                continue
            timed += 1
            assert block.present and block.timing.rows
            assert block.timing.citation.source.strip() and block.timing.clock_citation.source.strip()
            if block.timing.citation.confidence == "unconfirmed":
                # numbers borrowed from another manual say so, and say this part's was not seen
                assert "not this part's manual" in block.timing.citation.source, (name, block.name)
    assert timed == 23
