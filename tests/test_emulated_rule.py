"""Rule e (emulator): range over kernel variants, position of the published figure, cache, statuses."""

from __future__ import annotations

import dataclasses

import pytest

from refbench.kernels import harness as harness_module
from refbench.published.model import load_figures, load_parts
from refbench.published.normalise import normalise
from refbench.sanity import emulated, judge
from refbench.sanity.emulated import MEMORY_NOTE, KernelTarget, emulate, kernel_target

FIGURES = {f.id: f for f in load_figures()}
PARTS = load_parts()
#: wolfSSL, NUCLEO-L4A6ZG (Cortex-M4 at 80 MHz), AES-128-CBC encrypt, software, no assembly.
L4_CBC = FIGURES["000-0301"]


@pytest.fixture(autouse=True)
def isolated(tmp_path, monkeypatch):
    """A fresh measurement cache and an empty per-process memo for every test."""
    monkeypatch.setenv("REFBENCH_CACHE", str(tmp_path))
    monkeypatch.setattr(emulated, "_MEMO", {})


@pytest.fixture
def counted_runs(monkeypatch) -> list[str]:
    calls: list[str] = []
    original = harness_module.KernelHarness.run

    def counting(self, inputs, operation=None, **kwargs):
        calls.append(f"{self.variant.path} {operation}")
        return original(self, inputs, operation, **kwargs)

    monkeypatch.setattr(harness_module.KernelHarness, "run", counting)
    return calls


def with_cycles_per_byte(figure, cycles_per_byte: float, **changes):
    """The figure with its printed throughput set so that it normalises to ``cycles_per_byte``."""
    unit_bytes = normalise(figure).unit_bytes
    value = round(figure.clock_mhz * 1e6 / cycles_per_byte / unit_bytes, 3)
    text = f"{value:.3f}"
    return dataclasses.replace(figure, value=float(text), text=text, row=figure.row + " " + text, **changes)


def test_wolfssl_cbc_is_inside_the_aes_variant_range(counted_runs):
    e = emulate([L4_CBC], PARTS)[L4_CBC.id]
    assert e.status == "emulated" and e.core == "m4" and e.size == 1024
    assert {v.variant for v in e.variants} == {"bytewise", "ttable4", "ttable1", "bitsliced"}
    assert len(counted_runs) == 4 and all(v.verified for v in e.variants)
    per_byte = [v.cycles_per_byte for v in e.variants]
    assert e.emulated_min == min(per_byte) and e.emulated_max == max(per_byte)
    assert e.position == "inside" and e.finding.verdict == "consistent"
    nearest = min(e.variants, key=lambda v: abs(e.published - v.cycles_per_byte) / v.cycles_per_byte)
    assert e.residual == pytest.approx((e.published - nearest.cycles_per_byte) / nearest.cycles_per_byte)
    assert f"aes/{nearest.variant}" in e.explanation
    assert MEMORY_NOTE in e.finding.message and "ideal (board memory not modelled yet)" in e.finding.message


def test_second_run_comes_from_the_cache(counted_runs):
    first = emulate([L4_CBC], PARTS)[L4_CBC.id]
    emulated._MEMO.clear()
    second = emulate([L4_CBC], PARTS)[L4_CBC.id]
    assert len(counted_runs) == 4
    assert (first.emulated_min, first.emulated_max, first.residual) == (second.emulated_min, second.emulated_max,
                                                                         second.residual)


def test_faster_than_every_variant_without_claim_is_suspicious():
    fast = with_cycles_per_byte(L4_CBC, 20.0, id="test-fast")
    e = emulate([fast], PARTS)[fast.id]
    assert e.position == "faster" and e.finding.verdict == "suspicious"
    assert "requires hardware acceleration or hand-written assembly" in e.explanation
    assert "claims neither" in e.explanation
    assert e.residual == pytest.approx((e.published - e.emulated_min) / e.emulated_min)


def test_faster_than_every_variant_with_assembly_claim_is_explained():
    fast = with_cycles_per_byte(L4_CBC, 20.0, id="test-asm", asm="WOLFSSL_ARMASM (Thumb-2 assembly)")
    e = emulate([fast], PARTS)[fast.id]
    assert e.position == "faster" and e.finding.verdict == "explained"
    assert "the page claims assembly (WOLFSSL_ARMASM" in e.explanation


def test_slower_than_every_variant_is_bounded_by_the_flash_wait_states():
    e = emulate([L4_CBC], PARTS)[L4_CBC.id]
    # STM32L4A6 at 80 MHz: 4 wait states (RM0351 table in the board profile) -> bound x9.
    within = with_cycles_per_byte(L4_CBC, e.emulated_max * 3, id="test-slow")
    beyond = with_cycles_per_byte(L4_CBC, e.emulated_max * 12, id="test-slower")
    result = emulate([within, beyond], PARTS)
    assert result[within.id].position == "slower" and result[within.id].finding.verdict == "consistent"
    assert "4 flash wait state(s) at 80 MHz" in result[within.id].explanation
    assert result[beyond.id].finding.verdict == "suspicious"
    assert "no modelled configuration explains it" in result[beyond.id].explanation


def test_figures_without_kernel_core_model_or_software_are_not_emulated(counted_runs, monkeypatch):
    sha224 = FIGURES["001-0059"]
    hardware = FIGURES["000-0261"]
    m7 = FIGURES["000-0074"]  # STM32H753ZI, Cortex-M7
    monkeypatch.setattr(emulated, "TIMED_CORES", ("m0", "m0plus", "m3", "m4"))  # as if M7 had no timing model
    result = emulate([sha224, hardware, m7], PARTS)
    assert result[sha224.id].status == "not emulated yet" and "no kernel computes sha-224" in result[sha224.id].explanation
    assert result[hardware.id].status == "hardware"
    assert result[m7.id].status == "not emulated yet" and "core m7" in result[m7.id].explanation
    assert all(e.finding is None for e in result.values())
    assert counted_runs == []
    line = emulated.summary(result)
    assert "0 figures emulated" in line and "not emulated yet 2" in line and "hardware, not modelled 1" in line


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
    seen: list[tuple[int, int]] = []
    with emulated.progress_to(lambda done, total, label: seen.append((done, total))):
        (judgement,) = judge([L4_CBC], PARTS)
    assert any(f.rule == "emulator" for f in judgement.findings)
    assert seen and seen[-1][0] == seen[-1][1] == 4


def test_json_fields():
    data = emulate([L4_CBC], PARTS)[L4_CBC.id].as_json()
    assert {"emulated_min", "emulated_max", "explanation", "residual"} <= set(data)
    assert data["emulated_memory"] == "ideal" and len(data["emulated_variants"]) == 4
