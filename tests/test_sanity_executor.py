"""Measure: real kernels through the result cache and the executors, on the boards' memory systems.

No verdict is asserted here: these tests check what the measurements are (the memory system
only adds cycles, a cached run equals a fresh one, two processes give the counts one gives, a
variant that does not build fails alone). The module shares one measurement cache; the tests
that count emulator runs use a fresh one and ST CMOX's 32-byte AES-128-CBC figure (the cheapest).
"""

from __future__ import annotations

import dataclasses

import pytest

from cortexm_emu.toolchain import ToolchainError
from refbench import measure as measure_module
from refbench.kernels import harness as harness_module
from refbench.measure import Job, Measurer, ResultCache
from refbench.published.model import load_figures, load_parts
from refbench.sanity import SanityContext, judge
from refbench.sanity.executor import InProcessExecutor, LocalProcessExecutor, MeasureJob, measure
from refbench.sanity.plan import make_plan

FIGURES = {f.id: f for f in load_figures()}
PARTS = load_parts()
#: ST CMOX on the STM32WL55 at 48 MHz (2 WS), AES-128-CBC encrypt of 32 bytes.
CMOX_32 = FIGURES["002-0001"]
#: wolfSSL on the NUCLEO-L4A6ZG (80 MHz, 4 WS), AES-128-CBC encrypt of 1024-byte blocks.
L4_CBC = FIGURES["000-0301"]


@pytest.fixture(scope="module")
def shared_cache(tmp_path_factory) -> ResultCache:
    return ResultCache(tmp_path_factory.mktemp("measurements"))


@pytest.fixture
def counted_runs(monkeypatch) -> list[str]:
    calls: list[str] = []
    original = harness_module.KernelHarness.run

    def counting(self, inputs, operation=None, **kwargs):
        calls.append(f"{self.variant.path} {operation} {self.machine.memory.name}")
        return original(self, inputs, operation, **kwargs)

    monkeypatch.setattr(harness_module.KernelHarness, "run", counting)
    return calls


def test_the_memory_system_only_adds_cycles(shared_cache):
    """Per variant: code in SRAM (0 WS) costs what the core alone costs; flash at 4 WS adds stall
    cycles, which the result carries; caches off never beat caches on for these kernels' loops."""
    # Every AES variant: a library with no documented options (wolfSSL ships no bitsliced AES).
    figure = dataclasses.replace(L4_CBC, library="a C library without documented options")
    e = judge([figure], PARTS, SanityContext(cache=shared_cache)).emulations[figure.id]
    labels = [c.label for c in e.configs]
    on, off, art_only, prefetch_only, tables, sram = labels
    by = {(v.variant, v.memory): v for v in e.variants}
    assert all(v.verified for v in e.variants) and len(by) == 24
    for variant in ("bytewise", "ttable4", "ttable1", "bitsliced"):
        assert by[(variant, sram)].memory_cycles == 0
        for flash in (on, off, art_only, prefetch_only, tables):
            v = by[(variant, flash)]
            assert v.memory_cycles > 0
            assert v.cycles - v.memory_cycles == by[(variant, sram)].cycles
            # Caches and prefetch only remove stalls (R4: a prefetched line never costs more than a demand
            # read). ART on with prefetch off is not bounded by ART+prefetch on: the ART copies only demand
            # misses (RM0351/RM0090 "each time a miss occurs ... the line read is copied"), so a loop whose
            # lines arrive by prefetch is never cached (R5).
            assert by[(variant, off)].cycles >= v.cycles
        # Tables copied to SRAM: the same fetches, no flash data stalls (R6, R7).
        assert by[(variant, tables)].memory_cycles <= by[(variant, on)].memory_cycles
    assert by[("ttable4", tables)].memory_cycles < by[("ttable4", on)].memory_cycles  # 4 KB of T-tables


def test_each_job_runs_once_and_a_second_report_comes_from_the_cache(tmp_path, counted_runs):
    cache = ResultCache(tmp_path)
    twin = dataclasses.replace(CMOX_32, id="syn-cmox-twin")  # the same work, another id
    first = judge([CMOX_32, twin], PARTS, SanityContext(cache=cache))
    assert len(counted_runs) == len(first.measurements) == 24  # 4 AES variants x 6 configurations, once
    for kind in ("caches off, prefetch off", "caches on, prefetch off", "caches off, prefetch on", "code in ram",
                 "code in flash, tables in ram"):
        assert sum(kind in run for run in counted_runs) == 4
    second = judge([CMOX_32], PARTS, SanityContext(cache=cache))
    assert len(counted_runs) == 24 and all(m.cached for m in second.measurements.values())
    a, b = first.emulations[CMOX_32.id], second.emulations[CMOX_32.id]
    assert (a.emulated_min, a.emulated_max, a.residual, a.explanation) == (
        b.emulated_min, b.emulated_max, b.residual, b.explanation)


def test_two_local_processes_give_the_counts_one_process_gives(tmp_path, shared_cache):
    jobs = make_plan([CMOX_32], PARTS).jobs()
    serial = measure(jobs, InProcessExecutor(), shared_cache)
    parallel = measure(jobs, LocalProcessExecutor(2), ResultCache(tmp_path))
    assert not any(m.cached for m in parallel.values())
    assert [(m.cycles, m.memory_cycles, m.verified) for m in parallel.values()] == [
        (serial[j].cycles, serial[j].memory_cycles, serial[j].verified) for j in parallel]


def test_without_a_cache_nothing_is_stored(tmp_path, monkeypatch):
    monkeypatch.setenv("REFBENCH_CACHE", str(tmp_path))
    jobs = make_plan([CMOX_32], PARTS).jobs()[:2]
    measured = measure(jobs, InProcessExecutor(), None)
    assert len(measured) == 2 and all(m.verified and not m.cached for m in measured.values())
    assert not (tmp_path / "measurements").exists()


def test_a_variant_that_does_not_build_fails_alone(tmp_path, monkeypatch):
    original = measure_module.build_variant

    def failing(variant, core, **kwargs):
        if variant.name == "bitsliced":
            raise ToolchainError("zig failed for aes.c: error: simulated")
        return original(variant, core, **kwargs)

    monkeypatch.setattr(measure_module, "build_variant", failing)
    for cache in (ResultCache(tmp_path), None):  # found while looking up the cache, or by the executor
        e = judge([CMOX_32], PARTS, SanityContext(cache=cache)).emulations[CMOX_32.id]
        assert e.status == "emulated"
        broken = [v for v in e.variants if v.variant == "bitsliced"]
        assert broken and all(not v.verified and "build failed: zig failed for aes.c" in v.problem for v in broken)
        assert all(v.verified for v in e.variants if v.variant != "bitsliced")


def test_a_measurement_of_other_inputs_is_not_stored(tmp_path, shared_cache):
    config = make_plan([CMOX_32], PARTS).jobs()[0].config
    other = MeasureJob(config, "O3", Job("aes", "ttable4", "cbc-encrypt", 48, 16, 0))
    (wrong,) = measure([other], InProcessExecutor(), shared_cache).values()
    measurer = Measurer(board=config.board, clock_mhz=config.clock_mhz, memory=config.memory(), opt="O3",
                        cache=ResultCache(tmp_path))
    with pytest.raises(ValueError, match=r"Invalid measurement of aes/ttable4 cbc-encrypt 32 B"):
        measurer.store(Job("aes", "ttable4", "cbc-encrypt", 32, 16, 0), wrong)
    assert measurer.store(other.job, wrong) is not None  # its own job is stored


def test_a_local_executor_needs_a_whole_number_of_processes():
    with pytest.raises(ValueError, match=r"Invalid workers \(0\); accepted: a whole number of processes >= 1"):
        LocalProcessExecutor(0)
    assert LocalProcessExecutor(2).workers == 2 and InProcessExecutor().workers == 1
