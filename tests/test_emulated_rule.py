"""Rule e (emulator) on the boards' memory systems: range over kernel variants x memory
configurations, position of the published figure, clock, cache, statuses; rule d's gap check.

The tests share one measurement cache (so each figure's kernels run once: AES-128-CBC at 1024
bytes on two Cortex-M4 boards, ChaCha20 on two Cortex-M7 boards); the tests that count emulator
runs use a fresh cache and a 32-byte figure.
"""

from __future__ import annotations

import dataclasses
import math
import re

import pytest

from cortexm_emu.boards import load_board
from refbench.kernels import harness as harness_module
from refbench.published.model import load_figures, load_parts
from refbench.published.normalise import normalise
from refbench.sanity import emulated, judge, rules
from refbench.sanity.emulated import (
    MEMORY_NOTE,
    Emulation,
    KernelTarget,
    MemoryConfig,
    VariantResult,
    configurations,
    emulate,
    explain_gap,
    kernel_target,
)

FIGURES = {f.id: f for f in load_figures()}
PARTS = load_parts()
#: wolfSSL, NUCLEO-L4A6ZG (Cortex-M4 at 80 MHz, 4 wait states), AES-128-CBC encrypt, software, no assembly.
L4_CBC = FIGURES["000-0301"]
#: STM32L4A6 at 80 MHz: 4 wait states (RM0351 table in the board profile), ART caches and prefetch.
L4_LABELS = ("ART+prefetch on, 4 WS @ 80 MHz", "ART+prefetch off, 4 WS @ 80 MHz", "ART on, prefetch off, 4 WS @ 80 MHz",
             "ART off, prefetch on, 4 WS @ 80 MHz", "tables in SRAM, ART+prefetch on, 4 WS @ 80 MHz",
             "code in SRAM, 0 WS @ 80 MHz")
L4_KINDS = ["cache on", "cache off", "cache on, prefetch off", "prefetch only", "tables in SRAM", "code in SRAM"]
ON, OFF, ART_ONLY, PREFETCH_ONLY, TABLES, SRAM = L4_LABELS
#: wolfSSL on the STM32WL55 published at 64 MHz, above the part maximum of 48 MHz.
WL55_CBC = FIGURES["000-0196"]
#: ST CMOX on the STM32WL55 at 48 MHz (2 WS), AES-128-CBC encrypt of 32 bytes: the cheapest figure.
CMOX_32 = FIGURES["002-0001"]


@pytest.fixture(scope="module")
def shared_cache(tmp_path_factory):
    return tmp_path_factory.mktemp("measurements")


@pytest.fixture(autouse=True)
def isolated(shared_cache, monkeypatch):
    """The module's measurement cache (not the user's) and an empty per-process memo for every test."""
    monkeypatch.setenv("REFBENCH_CACHE", str(shared_cache))
    monkeypatch.setenv("REFBENCH_WORKERS", "1")  # runs counted in this process
    monkeypatch.setattr(emulated, "_MEMO", {})


@pytest.fixture
def fresh_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("REFBENCH_CACHE", str(tmp_path))


@pytest.fixture
def counted_runs(monkeypatch) -> list[str]:
    calls: list[str] = []
    original = harness_module.KernelHarness.run

    def counting(self, inputs, operation=None, **kwargs):
        calls.append(f"{self.variant.path} {operation} {self.machine.memory.name}")
        return original(self, inputs, operation, **kwargs)

    monkeypatch.setattr(harness_module.KernelHarness, "run", counting)
    return calls


def with_cycles_per_byte(figure, cycles_per_byte: float, **changes):
    """The figure with its printed throughput set so that it normalises to ``cycles_per_byte``."""
    unit_bytes = normalise(figure).unit_bytes
    value = round(figure.clock_mhz * 1e6 / cycles_per_byte / unit_bytes, 3)
    text = f"{value:.3f}"
    return dataclasses.replace(figure, value=float(text), text=text, row=figure.row + " " + text, **changes)


def test_wolfssl_cbc_is_inside_the_range_over_variants_and_memory_configurations():
    e = emulate([L4_CBC], PARTS)[L4_CBC.id]
    assert e.status == "emulated" and e.core == "m4" and e.size == 1024
    assert (e.board, e.clock_mhz) == ("stm32l4a6zg", 80.0)
    assert tuple(c.label for c in e.configs) == L4_LABELS
    assert {(v.variant, v.memory) for v in e.variants} == {
        (variant, label) for variant in ("bytewise", "ttable4", "ttable1", "bitsliced") for label in L4_LABELS}
    assert all(v.verified for v in e.variants)
    per_byte = [v.cycles_per_byte for v in e.variants]
    assert e.emulated_min == min(per_byte) and e.emulated_max == max(per_byte)
    assert e.position == "inside" and e.finding.verdict == "consistent"
    nearest = min(e.variants, key=lambda v: abs(e.published - v.cycles_per_byte) / v.cycles_per_byte)
    assert e.residual == pytest.approx((e.published - nearest.cycles_per_byte) / nearest.cycles_per_byte)
    assert e.explanation.startswith(f"aes/{nearest.variant}, {nearest.memory} (")  # variant AND configuration
    assert e.memory == nearest.memory
    for label in L4_LABELS:  # every configuration measured is in the message, with its numbers
        assert f"[{label}: " in e.finding.message


def test_the_memory_system_only_adds_cycles():
    """Per variant: code in SRAM (0 WS) costs what the core alone costs; flash at 4 WS adds stall
    cycles, which the result carries; caches off never beat caches on for these kernels' loops."""
    e = emulate([L4_CBC], PARTS)[L4_CBC.id]
    by = {(v.variant, v.memory): v for v in e.variants}
    for variant in ("bytewise", "ttable4", "ttable1", "bitsliced"):
        assert by[(variant, SRAM)].memory_cycles == 0
        for flash in (ON, OFF, ART_ONLY, PREFETCH_ONLY, TABLES):
            v = by[(variant, flash)]
            assert v.memory_cycles > 0
            assert v.cycles - v.memory_cycles == by[(variant, SRAM)].cycles
            # Caches and prefetch only remove stalls (R4: a prefetched line never costs more than a demand
            # read). ART on with prefetch off is not bounded by ART+prefetch on: the ART copies only demand
            # misses (RM0351/RM0090 "each time a miss occurs ... the line read is copied"), so a loop whose
            # lines arrive by prefetch is never cached (R5).
            assert by[(variant, OFF)].cycles >= v.cycles
        # Tables copied to SRAM: the same fetches, no flash data stalls (R6, R7).
        assert by[(variant, TABLES)].memory_cycles <= by[(variant, ON)].memory_cycles
    assert by[("ttable4", TABLES)].memory_cycles < by[("ttable4", ON)].memory_cycles  # 4 KB of T-tables


def test_second_run_comes_from_the_cache(fresh_cache, counted_runs):
    first = emulate([CMOX_32], PARTS)[CMOX_32.id]
    assert len(counted_runs) == 24  # 4 AES variants x 6 configurations of the STM32WL55 at 48 MHz
    assert sum("caches off, prefetch off" in run for run in counted_runs) == 4
    assert sum("caches on, prefetch off" in run for run in counted_runs) == 4
    assert sum("caches off, prefetch on" in run for run in counted_runs) == 4
    assert sum("code in ram" in run for run in counted_runs) == 4
    assert sum("code in flash, tables in ram" in run for run in counted_runs) == 4
    emulated._MEMO.clear()
    second = emulate([CMOX_32], PARTS)[CMOX_32.id]
    assert len(counted_runs) == 24
    assert (first.emulated_min, first.emulated_max, first.residual, first.explanation) == (
        second.emulated_min, second.emulated_max, second.residual, second.explanation)


def test_faster_than_every_variant_without_claim_is_suspicious():
    fast = with_cycles_per_byte(L4_CBC, 20.0, id="test-fast")
    e = emulate([fast], PARTS)[fast.id]
    assert e.position == "faster" and e.finding.verdict == "suspicious"
    assert "requires hardware acceleration or hand-written assembly" in e.explanation
    assert "claims neither" in e.explanation
    assert e.residual == pytest.approx((e.published - e.emulated_min) / e.emulated_min)
    fastest = min(e.variants, key=lambda v: v.cycles_per_byte)
    assert f"against {fastest.name}" in e.explanation and e.memory == fastest.memory


def test_faster_than_every_variant_with_assembly_claim_is_explained():
    fast = with_cycles_per_byte(L4_CBC, 20.0, id="test-asm", asm="WOLFSSL_ARMASM (Thumb-2 assembly)")
    e = emulate([fast], PARTS)[fast.id]
    assert e.position == "faster" and e.finding.verdict == "explained"
    assert "the page claims assembly (WOLFSSL_ARMASM" in e.explanation


def test_slower_than_every_configuration_names_the_closest():
    e = emulate([L4_CBC], PARTS)[L4_CBC.id]
    slow = with_cycles_per_byte(L4_CBC, e.emulated_max * 1.5, id="test-slow")
    result = emulate([slow], PARTS)[slow.id]
    slowest = max(e.variants, key=lambda v: v.cycles_per_byte)
    assert result.position == "slower" and result.finding.verdict == "suspicious"
    assert f"the closest is {slowest.name}: no modelled configuration explains it" in result.explanation
    assert result.memory == slowest.memory == OFF  # caches and prefetch off: the slowest configuration
    assert result.residual == pytest.approx((result.published - e.emulated_max) / e.emulated_max)


def test_clock_above_the_part_maximum_runs_at_the_maximum():
    e = emulate([WL55_CBC], PARTS)[WL55_CBC.id]
    board = load_board("stm32wl55jc")
    assert WL55_CBC.clock_mhz == 64 and board.max_clock_mhz == 48
    assert e.status == "emulated" and e.clock_mhz == 48
    assert "published clock 64 MHz exceeds the STM32WL55JC maximum 48 MHz" in e.finding.message
    assert all(c.clock_mhz == 48 and "@ 48 MHz" in c.label for c in e.configs)


def test_configurations_follow_the_board_profiles():
    l4 = load_board("stm32l4a6zg")
    assert tuple(c.label for c in configurations(l4, 80)) == L4_LABELS
    assert [c.kind for c in configurations(l4, 80)] == L4_KINDS
    assert [(c.cache, c.prefetch, c.code, c.tables) for c in configurations(l4, 80)] == [
        ("on", None, "flash", None), ("off", None, "flash", None), ("on", "off", "flash", None),
        ("off", "on", "flash", None), ("on", None, "flash", "ram"), ("on", None, "ram", None)]
    assert configurations(l4, 80)[4].memory().name.endswith("code in flash, tables in ram")
    # At 16 MHz the L4 flash has 0 wait states: caches and SRAM cannot change a count.
    assert [c.label for c in configurations(l4, 16)] == ["flash, 0 WS @ 16 MHz"]
    # STM32H7: flash on the AXI clock (hclk_divider 2), L1 caches, no flash prefetch.
    h7 = [c.label for c in configurations(load_board("stm32h753zi"), 480)]
    assert h7[0] == "L1 caches on, 4 WS (= 8 core cycles) @ 480 MHz" and h7[1].startswith("L1 caches off")
    # STM32WL33: no cache, no prefetch: one flash configuration, and code in SRAM.
    wl33 = configurations(load_board("stm32wl33cc"), 64)
    assert [c.kind for c in wl33] == ["flash", "tables in SRAM", "code in SRAM"]
    assert "no modelled cache or prefetch" in wl33[0].label
    # STM32G0: the flash cache has no documented size (not modelled); its prefetch is.
    assert configurations(load_board("stm32g071rb"), 64)[0].label.startswith("prefetch on, ")
    config = configurations(l4, 80)[1]
    assert config.memory().describe()["cache"] is False and config.memory().wait_states == 4


def test_figures_without_kernel_core_model_or_software_are_not_emulated(counted_runs, monkeypatch):
    sha224 = dataclasses.replace(FIGURES["001-0059"], algorithm="SHA-999", id="test-sha-999")  # no kernel computes it
    hardware = FIGURES["000-0261"]
    m7 = FIGURES["000-0074"]  # STM32H753ZI, Cortex-M7
    monkeypatch.setattr(emulated, "TIMED_CORES", ("m0", "m0plus", "m3", "m4"))  # as if M7 had no timing model
    result = emulate([sha224, hardware, m7], PARTS)
    assert result[sha224.id].status == "not emulated yet" and "no kernel computes sha-999" in result[sha224.id].explanation
    assert result[hardware.id].status == "hardware"
    assert result[m7.id].status == "not emulated yet" and "core m7" in result[m7.id].explanation
    assert result[sha224.id].finding is None and result[m7.id].finding is None
    # A hardware figure meets the peripheral rule instead: the F437 CRYP's documented AES time.
    assert result[hardware.id].finding.rule == "peripheral" and result[hardware.id].hardware.modelled
    assert counted_runs == []
    line = emulated.summary(result)
    assert "0 figures emulated" in line and "not emulated yet 2" in line and "hardware 1 (against the peripheral" in line
    assert MEMORY_NOTE in line


def test_switched_off_runs_no_kernel(fresh_cache, counted_runs):
    with emulated.switched_off():
        e = emulate([L4_CBC], PARTS)[L4_CBC.id]
        (judgement,) = judge([L4_CBC], PARTS)
    assert e.status == "not emulated" and e.finding is None and counted_runs == []
    assert not any(f.rule == "emulator" for f in judgement.findings)
    assert "rule e switched off 1" in emulated.summary({L4_CBC.id: e})


def test_targets_follow_the_published_sizes():
    assert kernel_target(L4_CBC)[0] == KernelTarget("aes-cbc-encrypt", 16, 0, 1024, None, ())
    cmox = next(f for f in FIGURES.values() if f.source.startswith("002") and f.algorithm == "AES-256-CBC"
                and f.operation == "encrypt" and f.chunk_bytes == 1024)
    target = kernel_target(cmox)[0]
    assert (target.reference, target.key_bytes, target.size, target.chunk) == ("aes-cbc-encrypt", 32, 8000, 1024)
    sizes = [job.size for job in emulated._jobs("aes", "ttable4", "cbc-encrypt", target)]
    assert sizes == [1024] * 7 + [832]
    cyclone_gcm = next(f for f in FIGURES.values() if f.source.startswith("001") and f.algorithm == "AES-192-GCM"
                       and f.operation == "decrypt" and f.implementation == "software")
    target = kernel_target(cyclone_gcm)[0]
    assert (target.reference, target.key_bytes, target.size, target.aad_bytes) == ("aes-gcm-encrypt", 24, 8000, 0)
    assert any("SP 800-38D" in note for note in target.notes)
    wolf_gcm = next(f for f in FIGURES.values() if f.source.startswith("000") and f.mode == "GCM"
                    and f.implementation == "software")
    assert kernel_target(wolf_gcm)[0].aad_bytes == 13
    footprint = next(f for f in FIGURES.values() if f.is_footprint)
    assert kernel_target(footprint) == (None, "no per-byte figure to compare (a per-operation or footprint figure)")


def test_judge_carries_the_emulator_finding_and_progress_is_reported():
    seen: list[tuple[int, int, str]] = []
    with emulated.progress_to(lambda done, total, label: seen.append((done, total, label))):
        (judgement,) = judge([L4_CBC], PARTS)
    assert any(f.rule == "emulator" for f in judgement.findings)
    assert seen and seen[-1][0] == seen[-1][1] == 24
    assert any(OFF in label for _, _, label in seen)


def test_json_fields():
    data = emulate([L4_CBC], PARTS)[L4_CBC.id].as_json()
    assert {"emulated_min", "emulated_max", "explanation", "residual", "explanation_memory"} <= set(data)
    assert [c["label"] for c in data["emulated_memory"]] == list(L4_LABELS)
    assert data["emulated_memory"][0] == {"label": L4_LABELS[0], "kind": "cache on", "board": "stm32l4a6zg",
                                          "clock_mhz": 80.0, "wait_states": 4, "cache": "on", "code": "flash"}
    assert data["explanation_memory"] in L4_LABELS and data["explanation_memory"] in data["explanation"]
    assert len(data["emulated_variants"]) == 24 and {v["memory"] for v in data["emulated_variants"]} == set(L4_LABELS)
    for label, (lo, hi) in data["emulated_range_by_memory"].items():
        rates = [v["cycles_per_byte"] for v in data["emulated_variants"] if v["memory"] == label]
        assert (lo, hi) == (min(rates), max(rates))


# --- rule d upgraded: the memory configurations that reproduce a gap between two boards -----------


def _emulation(figure_id: str, board: str, points: dict[str, float]) -> Emulation:
    """An emulation of one variant with the given cycles per byte per configuration kind."""
    kinds = {"on": "cache on", "off": "cache off"}
    configs = tuple(MemoryConfig(f"caches {k}, {board}", kinds[k], board, 100.0, 3, k, "flash") for k in points)
    variants = tuple(VariantResult("aes", "ttable4", "cbc-encrypt", int(cpb * 1024), cpb, True, "",
                                   f"caches {k}, {board}", 0) for k, cpb in points.items())
    return Emulation(figure_id, "emulated", "", min(points.values()), max(points.values()), variants=variants,
                     configs=configs, board=board)


def test_gap_reproduced_by_a_configuration_pair_is_explained():
    a, b = FIGURES["000-0301"], FIGURES["000-0148"]
    ea = _emulation(a.id, "A", {"on": 100.0, "off": 200.0})
    eb = _emulation(b.id, "B", {"on": 100.0, "off": 150.0})
    verdict, text = explain_gap(a, ea, b, eb, 2.0)  # published: A needs twice the cycles of B
    assert verdict == "explained"
    assert "aes/ttable4 on STM32L4A6Z with caches off, A (200.0 c/B) vs STM32WB55 with caches on, B (100.0 c/B)" in text
    assert "emulated ratio 2.00" in text
    # Both at their default (caches on) reproduce 1.0: preferred to a pair that assumes caches off.
    verdict, text = explain_gap(a, ea, b, eb, 1.2)  # both-off (ratio 1.33) is closer, but assumes caches off
    assert verdict == "explained" and "caches on, A" in text and "caches on, B" in text
    # Nothing reproduces 5.0: the closest pair is named and the verdict stays suspicious.
    verdict, text = explain_gap(a, ea, b, eb, 5.0)
    assert verdict == "suspicious" and "no modelled memory configuration pair reproduces the gap" in text
    assert "emulated ratio 2.00 (published 5.00)" in text


def test_cross_board_outlier_reports_the_emulated_configuration_pair():
    """wolfSSL 4.4.1 ChaCha20 on the STM32H753ZI and the STM32F777 (both Cortex-M7) differ by ~1.9x."""
    pair = [f for f in FIGURES.values() if f.part in ("STM32H753ZI", "STM32F777") and f.label == "CHACHA"
            and f.version == "4.4.1" and "FastMath" in f.config]
    assert len(pair) == 2
    with emulated.switched_off():
        plain = rules.rule_cross_board_emulated(pair, PARTS)
    upgraded = rules.rule_cross_board_emulated(pair, PARTS)
    assert [f.verdict for _, f in plain] == ["suspicious", "suspicious"]
    for (_, before), (figure_id, after) in zip(plain, upgraded):
        assert after.message.startswith(before.message + "; ")
        assert after.verdict in ("explained", "suspicious")
        e = emulate(pair, PARTS)[figure_id]
        match = re.search(r"on (\S+) with (.+?) \(([\d.]+) c/B\) vs (\S+) with (.+?) \(([\d.]+) c/B\): "
                          r"emulated ratio ([\d.]+)", after.message)
        assert match, after.message
        assert match.group(1) == next(f.part for f in pair if f.id == figure_id)
        assert match.group(2) in {c.label for c in e.configs}
        ratio = float(match.group(3)) / float(match.group(6))
        assert math.isclose(float(match.group(7)), ratio, rel_tol=0.01)


# --- what each figure's work is: wolfCrypt's benchmark loops, GMAC, RNG, CMOX's final tag, the build ------


def test_wolfssl_streamed_macs_and_hashes_are_25_blocks_per_final():
    """bench_hmac / bench_sha256 / bench_cmac / bench_poly1305 with BENCH_EMBEDDED: numBlocks = 25
    updates of 1024 bytes, then one Final."""
    hmac = next(f for f in FIGURES.values() if f.library == "wolfSSL" and f.algorithm == "HMAC-SHA-256"
                and f.implementation == "software")
    target = kernel_target(hmac)[0]
    assert (target.reference, target.size, target.chunk) == ("hmac-sha-256", 25 * 1024, None)
    assert any("25 updates of 1024 bytes per Final" in note for note in target.notes)
    cipher = kernel_target(L4_CBC)[0]
    assert cipher.size == 1024  # one wc_AesCbcEncrypt of bench_size per count


def test_gmac_and_rng_map_to_their_kernels():
    gmac = next(f for f in FIGURES.values() if f.algorithm == "GMAC" and f.implementation == "software")
    target = kernel_target(gmac)[0]
    assert (target.reference, target.key_bytes, target.size) == ("aes-gmac", 16, 1024)
    rng = next(f for f in FIGURES.values() if f.algorithm == "RNG" and f.implementation == "software")
    target = kernel_target(rng)[0]
    assert (target.reference, target.size) == ("hash-drbg-sha-256-generate", 1024)
    assert emulated._operations_for("aes-gmac") and emulated._operations_for("hash-drbg-sha-256-generate")


def test_cmox_final_tag_is_one_call_on_the_bytes_left_in_the_block():
    """8000 = 125 x 64: SHA-256's generateTag pads an empty block; 8000 = 62 x 128 + 64 for SHA-384."""
    sha256_final, sha384_final = FIGURES["002-0139"], FIGURES["002-0140"]
    t256, t384 = kernel_target(sha256_final)[0], kernel_target(sha384_final)[0]
    assert (t256.reference, t256.size, t256.per_op, t256.unit) == ("sha-256", 0, True, "cycles")
    assert (t384.reference, t384.size, t384.per_op) == ("sha-384", 64, True)
    e = emulate([sha256_final], PARTS)[sha256_final.id]
    assert e.status == "emulated" and e.unit == "cycles" and e.published == 3477
    assert all(v.rate == v.cycles for v in e.variants if v.verified)
    assert e.emulated_min == min(v.cycles for v in e.variants if v.verified)
    assert "published 3,477 cycles; emulated" in e.finding.message


def test_kernels_are_built_at_the_figures_optimisation_level():
    def level(options: str) -> str:
        return emulated.kernel_build(dataclasses.replace(L4_CBC, options=options))[0]

    assert (level("-Os"), level("-O2"), level("-O3"), level("High Speed optimisation"), level("not stated")) == (
        "Os", "O2", "O3", "O3", "Os")
    cyclone = next(f for f in FIGURES.values() if f.library == "CycloneCRYPTO" and f.implementation == "software"
                   and f.algorithm == "AES-128-CBC")
    assert kernel_target(cyclone)[0].opt == "O3"
    assert "the page: ARMCC -O3" in emulated.kernel_build(cyclone)[1] or "Clang -O3" in emulated.kernel_build(cyclone)[1]


def test_parallel_workers_give_the_same_counts(tmp_path, monkeypatch):
    """Two worker processes from an empty cache give the counts one process gives."""
    serial = emulate([CMOX_32], PARTS)[CMOX_32.id]
    emulated._MEMO.clear()
    monkeypatch.setenv("REFBENCH_CACHE", str(tmp_path))
    monkeypatch.setenv("REFBENCH_WORKERS", "2")
    assert emulated.workers() == 2
    parallel = emulate([CMOX_32], PARTS)[CMOX_32.id]
    assert [(v.name, v.cycles, v.memory_cycles) for v in parallel.variants] == [
        (v.name, v.cycles, v.memory_cycles) for v in serial.variants]


def test_workers_option_is_checked(monkeypatch):
    monkeypatch.setenv("REFBENCH_WORKERS", "0")
    with pytest.raises(ValueError, match=r"Invalid REFBENCH_WORKERS \('0'\)"):
        emulated.workers()


def test_a_variant_that_does_not_build_fails_alone(fresh_cache, monkeypatch):
    from cortexm_emu.toolchain import ToolchainError
    from refbench.measure import Measurer

    original = Measurer._elf

    def failing(self, kernel, variant):
        if variant == "bitsliced":
            raise ToolchainError("zig failed for aes.c: error: simulated")
        return original(self, kernel, variant)

    monkeypatch.setattr(Measurer, "_elf", failing)
    e = emulate([CMOX_32], PARTS)[CMOX_32.id]
    assert e.status == "emulated"
    broken = [v for v in e.variants if v.variant == "bitsliced"]
    assert broken and all(not v.verified and "build failed: zig failed for aes.c" in v.problem for v in broken)
    assert all(v.verified for v in e.variants if v.variant != "bitsliced")


def test_library_callers_get_one_process_and_the_command_one_per_cpu(monkeypatch):
    monkeypatch.delenv("REFBENCH_WORKERS")
    assert emulated.workers() == 1
    with emulated.in_parallel():
        assert emulated.workers() == emulated.usable_cpus() >= 1


def test_a_filtered_judgement_emulates_no_partner_outside_it():
    """The wolfSSL ChaCha20 pair H753/F777 is a cross-board outlier; judging with only the H753
    figure in scope runs no kernel for the F777 one, and rule d then reports the gap unexplained."""
    pair = [f for f in FIGURES.values() if f.part in ("STM32H753ZI", "STM32F777") and f.label == "CHACHA"
            and f.version == "4.4.1" and "FastMath" in f.config]
    h753 = next(f for f in pair if f.part == "STM32H753ZI")
    judgements = judge(pair, PARTS, emulate=[h753.id])
    assert {figure.id for figure, _ in emulated._MEMO} == {h753.id}
    cross = [f for j in judgements for f in j.findings if f.rule.startswith("cross-board")]
    assert cross and not any("emulated ratio" in f.message for f in cross)
