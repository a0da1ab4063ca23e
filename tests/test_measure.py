"""refbench.measure: deterministic inputs, cached measurements keyed on everything that changes them."""

from __future__ import annotations

import json
from dataclasses import dataclass

import pytest

from cortexm_emu import board_memory
from refbench import measure
from refbench.kernels import harness as harness_module
from refbench.kernels.catalog import family
from refbench.measure import Job, Measurer, ResultCache, make_inputs, plan
from refbench.result_cache import record_checksum


@pytest.fixture
def cache(tmp_path, monkeypatch) -> ResultCache:
    monkeypatch.setenv("REFBENCH_CACHE", str(tmp_path))
    return ResultCache()


@pytest.fixture
def counted_runs(monkeypatch) -> list[str]:
    """Every call of the one generic harness, by operation."""
    calls: list[str] = []
    original = harness_module.KernelHarness.run

    def counting(self, inputs, operation=None, **kwargs):
        calls.append(str(operation))
        return original(self, inputs, operation, **kwargs)

    monkeypatch.setattr(harness_module.KernelHarness, "run", counting)
    return calls


def test_inputs_are_deterministic_and_seeded():
    op = family("aes").operations[1]  # cbc-encrypt
    a = make_inputs(op, 64)
    b = make_inputs(op, 64)
    assert a == b
    assert len(a["in"]) == 64 and len(a["iv"]) == 16 and len(a["key"]) == 16
    assert make_inputs(op, 64, seed="other")["in"] != a["in"]
    assert measure.inputs_digest(a) == measure.inputs_digest(b)
    assert measure.inputs_digest(a) != measure.inputs_digest(make_inputs(op, 64, key_bytes=32))


def test_input_lengths_come_from_the_reference():
    chacha = family("chacha20").operations[0]
    inputs = make_inputs(chacha, 10)
    assert len(inputs["key"]) == 32 and len(inputs["nonce"]) == 12 and inputs["counter32"] == 1
    assert len(make_inputs(family("aes").operations[0], 16, key_bytes=24)["key"]) == 24
    gmac = next(op for op in family("gcm").operations if op.name == "gmac")
    assert len(make_inputs(gmac, 40)["aad"]) == 40


def test_invalid_size_is_rejected():
    with pytest.raises(ValueError, match="Invalid size"):
        make_inputs(family("sha256").operations[0], -1)


def test_cache_hit_gives_the_same_numbers_without_running(cache, counted_runs):
    jobs = plan(["sha256"], ["rolled"], operations=["sha-256"], sizes=[0, 64, 100])
    first = Measurer("m4").measure_all(jobs)
    assert len(counted_runs) == 3
    assert all(m.verified and not m.cached for m in first)
    second_measurer = Measurer("m4")
    second = second_measurer.measure_all(jobs)
    assert len(counted_runs) == 3  # nothing ran again
    assert second_measurer.harness_runs == 0 and second_measurer.cache_hits == 3
    assert all(m.cached for m in second)
    for a, b in zip(first, second):
        assert (a.cycles, a.instructions, a.stack_bytes, a.code_bytes, a.verified) == \
               (b.cycles, b.instructions, b.stack_bytes, b.code_bytes, b.verified)
        assert a.cycles_per_byte == b.cycles_per_byte


def test_cache_is_keyed_on_core_memory_and_inputs(cache, counted_runs):
    job = Job("sha256", "rolled", "sha-256", 64)
    Measurer("m4").measure(job)
    Measurer("m3").measure(job)
    assert len(counted_runs) == 2

    @dataclass(frozen=True)
    class SlowFlash:
        """A stand-in memory system: one extra cycle per block."""

        name: str = "one-wait"
        wait: int = 1

        def block_extra(self, block) -> int:
            return self.wait

        def edge_extra(self, prev, nxt, fallthrough) -> int:
            return 0

    slow = Measurer("m4", memory=SlowFlash()).measure(job)
    assert len(counted_runs) == 3 and not slow.cached and slow.memory == "one-wait"
    assert slow.cycles > Measurer("m4").measure(job).cycles
    assert len(counted_runs) == 3
    Measurer("m4").measure(Job("sha256", "rolled", "sha-256", 65))
    assert len(counted_runs) == 4
    Measurer("m4", seed="another seed").measure(job)
    assert len(counted_runs) == 5


def test_cached_record_is_self_describing(cache):
    m = Measurer("m4").measure(Job("sha256", "rolled", "sha-256", 64))
    files = list(cache.root.rglob("*.json"))
    assert len(files) == 1
    record = json.loads(files[0].read_text())
    assert record["schema"] == measure.RECORD_SCHEMA
    assert record["what"]["elf_sha256"] == m.elf_sha256 and record["what"]["function"] == "sha256_digest"
    assert record["what"]["inputs"] == {"msg": "64 bytes"}
    assert record["where"]["core"] == "m4" and record["where"]["memory"]["name"] == "ideal"
    assert record["where"]["timing_model_version"] == m.model_version
    assert record["result"]["cycles"] == m.cycles and record["result"]["verified"] is True
    assert set(record["key"]) >= {"elf_sha256", "function", "inputs_sha256", "timing_model_version", "memory", "core"}
    assert "commit" in record["commit"]


def test_cache_hit_keeps_the_verified_flag_of_the_stored_run(cache):
    job = Job("sha256", "rolled", "sha-256", 64)
    Measurer("m4").measure(job)
    path = next(cache.root.rglob("*.json"))
    record = json.loads(path.read_text())
    record["result"]["verified"] = False
    record["result"]["mismatch"] = "digest: stored failure"
    record["checksum"] = record_checksum(record)  # as a failed run stores it (an edit without it is refused)
    path.write_text(json.dumps(record))
    hit = Measurer("m4").measure(job)
    assert hit.cached and not hit.verified and hit.mismatch == "digest: stored failure"


def test_record_with_other_key_is_not_used(cache, counted_runs):
    job = Job("sha256", "rolled", "sha-256", 64)
    Measurer("m4").measure(job)
    path = next(cache.root.rglob("*.json"))
    record = json.loads(path.read_text())
    record["key"]["core"] = "m0"
    path.write_text(json.dumps(record))
    assert not Measurer("m4").measure(job).cached
    assert len(counted_runs) == 2


def test_partial_block_for_cbc_is_not_applicable_and_not_run(cache, counted_runs):
    m = Measurer("m4").measure(Job("aes", "ttable4", "cbc-encrypt", 100))
    assert m.cycles is None and not m.verified
    assert m.error.startswith("not applicable") and "100-byte" in m.error
    assert counted_runs == []


def test_time_at_board_clock(cache):
    m = Measurer(board="stm32l4a6zg").measure(Job("sha256", "rolled", "sha-256", 64))
    assert m.core == "m4" and m.clock_mhz == 80.0
    assert m.time_us == pytest.approx(m.cycles / 80.0)
    assert Measurer(board="stm32wl55jc", clock_mhz=48).clock_mhz == 48


def test_board_memory_is_keyed_recorded_and_its_stalls_are_part_of_the_cycles(cache, counted_runs):
    """STM32L4A6 at 80 MHz (4 wait states): caches on, off and code in SRAM are three cache entries;
    the stall cycles of the memory system are stored and are the difference to the core's count."""
    job = Job("aes", "ttable4", "cbc-encrypt", 64, 16)
    ideal = Measurer("m4").measure(job)
    on = Measurer(board="stm32l4a6zg").measure(job)  # the board's memory, caches on, at the part maximum
    off = Measurer(board="stm32l4a6zg", memory_cache="off").measure(job)
    sram = Measurer(board="stm32l4a6zg", memory=board_memory("stm32l4a6zg", 80, code="ram")).measure(job)
    assert len(counted_runs) == 4
    assert on.memory == "stm32l4a6zg @ 80 MHz, 4 WS, caches on, prefetch on, code in flash"
    assert off.memory == "stm32l4a6zg @ 80 MHz, 4 WS, caches off, prefetch off, code in flash"
    assert ideal.memory_cycles == 0 and sram.memory_cycles == 0 and sram.cycles == ideal.cycles
    for m in (on, off):
        assert m.memory_cycles > 0 and m.cycles - m.memory_cycles == ideal.cycles
    again = Measurer(board="stm32l4a6zg", memory_cache="off").measure(job)
    assert again.cached and (again.cycles, again.memory_cycles) == (off.cycles, off.memory_cycles)
    assert len(counted_runs) == 4
    records = [json.loads(p.read_text()) for p in cache.root.rglob("*.json")]
    wheres = {r["where"]["memory"]["name"]: r for r in records}
    parameters = wheres[off.memory]["where"]["memory"]["parameters"]
    assert (parameters["wait_states"], parameters["cache"], parameters["code"], parameters["clock_mhz"]) == (
        4, False, "flash", 80.0)
    assert wheres[off.memory]["result"]["memory_cycles"] == off.memory_cycles


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"core": "m4", "memory_cache": "off"}, r"Invalid memory_cache \('off'\) without a board"),
    ({"board": "stm32l4a6zg", "memory_cache": "maybe"}, r"Invalid memory_cache \('maybe'\); accepted: 'on', 'off'"),
    ({"board": "stm32l4a6zg", "memory": board_memory("stm32wl55jc", 48)}, r"it models stm32wl55jc"),
    ({"board": "stm32l4a6zg", "clock_mhz": 64, "memory": board_memory("stm32l4a6zg", 80)},
     r"Invalid clock \(64 MHz\) for memory .*accepted: its clock, 80 MHz"),
    ({"core": "m9"}, r"Invalid core \('m9'\); accepted .*m0plus"),
    ({"board": "nucleo"}, r"Invalid board \('nucleo'\); accepted: .*stm32l4a6zg"),
    ({"core": "m4", "opt": "O9"}, r"Invalid optimisation level \('O9'\); accepted: Os, O2, O3"),
    ({"core": "m4", "compiler": "cc"}, r"Invalid compiler \('cc'\); accepted: zig, gcc"),
    ({"board": "stm32l4a6zg", "clock_mhz": 200}, r"Invalid clock \(200 MHz\).*at most 80"),
    ({"board": "stm32l4a6zg", "core": "m0plus"}, r"its core is m4"),
])
def test_bad_target_names_the_valid_ones(kwargs, message):
    with pytest.raises(ValueError, match=message):
        Measurer(**kwargs)


def test_board_whose_core_has_no_timing_model(monkeypatch):
    monkeypatch.setattr(measure, "TIMED_CORES", ("m0", "m0plus", "m3", "m4"))
    with pytest.raises(ValueError, match=r"Invalid board \('stm32h753zi'\): its core m7 has no timing model yet; "
                                         r"boards with an emulated core: .*stm32l4a6zg"):
        Measurer(board="stm32h753zi")
    with pytest.raises(ValueError, match=r"Invalid core \('m7'\); accepted \(cores with a timing model\): "
                                         r"m0, m0plus, m3, m4"):
        Measurer("m7")


def test_plan_bad_names_list_valid_ones():
    with pytest.raises(ValueError, match=r"Unknown kernel 'nope'; valid: aes, .*sha256"):
        plan(["nope"])
    valid = ", ".join(sorted(family("sha256").variants))  # from the catalogue: other branches add variants
    with pytest.raises(ValueError, match=rf"Unknown variant 'fast' of kernel\(s\) sha256; valid: {valid}$"):
        plan(["sha256"], ["fast"])
    with pytest.raises(ValueError, match=r"Unknown operation 'hash' of kernel\(s\) sha256; valid: sha-224, sha-256"):
        plan(["sha256"], operations=["hash"])


def test_plan_covers_the_catalogue():
    jobs = plan(sizes=[16])
    kernels = {j.kernel for j in jobs}
    assert kernels == set(measure.families())
    assert len(plan(["aes"], sizes=[16, 64])) == 2 * len(family("aes").variants) * len(family("aes").operations)
