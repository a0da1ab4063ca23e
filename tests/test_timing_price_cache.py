"""The on-disk price cache (cortexm_emu/price_cache.py): a new process (here: a new Machine with a
new timing model) reuses the prices of an earlier run, and counts exactly the same."""

from __future__ import annotations

from pathlib import Path

import pytest

from cortexm_emu.machine import Buffer, Machine
from cortexm_emu.price_cache import PriceCache, forget_price_caches
from cortexm_emu.timing import registry
from cortexm_emu.toolchain import build

M7_SOURCE = Path(__file__).resolve().parent / "asm" / "timing_m7" / "m7.S"
NAMES = ["forward_mostly_taken", "loop_backward", "alu_pairs", "ldm_stm"]


def _elf() -> Path:
    return build([M7_SOURCE], "m7", opt="Os", extra_flags=["-Wl,--entry=cortexm_emu_halt"]).elf


def _fresh_machine(core: str = "m7") -> Machine:
    """A Machine whose timing model is new (no in-memory block prices) and whose price cache is read
    from its file again, as in a new process."""
    forget_price_caches()
    options = (("prediction", "dynamic"),) if core == "m7" else ()
    m = Machine(core, timing=registry._model.__wrapped__(core, options))
    m.load_elf(_elf())
    return m


def test_a_new_process_reuses_the_prices_and_counts_the_same(tmp_path, monkeypatch):
    monkeypatch.setenv("CORTEXM_EMU_CACHE", str(tmp_path))
    first = _fresh_machine()
    counts = {name: first.call(name, Buffer.zeros(64)).cycles for name in NAMES}
    files = list((tmp_path / "prices").glob("*.pickle"))
    assert [f.name for f in files] == [f"{first.timing.version}.pickle"]

    second = _fresh_machine()
    assert {name: second.call(name, Buffer.zeros(64)).cycles for name in NAMES} == counts
    reused = [b for b in second.pricing.blocks.values() if b._insns is None]
    assert reused, "every block of the second run was decoded again"
    # instructions are decoded on demand, and they are the block's
    block = reused[0]
    assert [i.address for i in block.insns] == [a for a, _c, _r in block.price.per_insn]


def test_the_cache_is_keyed_by_model_version(tmp_path, monkeypatch):
    monkeypatch.setenv("CORTEXM_EMU_CACHE", str(tmp_path))
    m7 = _fresh_machine("m7")
    m7.call("alu_pairs", Buffer.zeros(64))
    static = Machine("m7", timing=registry._model.__wrapped__("m7", (("prediction", "static"),)))
    static.load_elf(_elf())
    static.call("alu_pairs", Buffer.zeros(64))
    assert len(list((tmp_path / "prices").glob("*.pickle"))) == 2


def test_a_corrupt_or_disabled_cache_is_ignored(tmp_path, monkeypatch):
    monkeypatch.setenv("CORTEXM_EMU_CACHE", str(tmp_path))
    reference = _fresh_machine().call("forward_mostly_taken", Buffer.zeros(64)).cycles
    for path in (tmp_path / "prices").glob("*.pickle"):
        path.write_bytes(b"not a pickle")
    assert _fresh_machine().call("forward_mostly_taken", Buffer.zeros(64)).cycles == reference
    monkeypatch.setenv("CORTEXM_EMU_NO_PRICE_CACHE", "1")
    cache = PriceCache("0123456789abcdef")
    cache.put(0x100, b"\x00\xbf", (None, False, False, 1))
    cache.flush()
    assert cache.get(0x100, b"\x00\xbf") is None
    assert not (tmp_path / "prices" / "0123456789abcdef.pickle").exists()


@pytest.mark.parametrize("accounting", ["native", "python"])
def test_an_illegal_block_is_never_stored(tmp_path, monkeypatch, accounting):
    """A stored price means the block passed the core's checks: a refused block stays refused."""
    from cortexm_emu.errors import IllegalInstruction

    monkeypatch.setenv("CORTEXM_EMU_CACHE", str(tmp_path))
    fpu = Path(__file__).resolve().parent / "asm" / "timing_fpu" / "fpu.S"
    elf = build([fpu], "m4", opt="Os", extra_flags=["-Wl,--entry=cortexm_emu_halt"]).elf
    for _ in range(2):
        m = Machine("m4", timing=registry._model.__wrapped__("m4", ()), accounting=accounting)
        m.load_elf(elf)
        with pytest.raises(IllegalInstruction, match="modelled without its FPU"):
            m.call("park_single", Buffer.zeros(64))


def test_the_machines_of_one_process_share_one_loaded_price_cache(tmp_path, monkeypatch):
    """The file holds every block priced with the model (tens of MB for the kernels): each machine loading
    its own copy once took a test worker past 12 GB. Machines of one model share one object."""
    monkeypatch.setenv("CORTEXM_EMU_CACHE", str(tmp_path))
    first = _fresh_machine()
    second = Machine("m7", timing=first.timing)
    assert second.pricing.price_cache is first.pricing.price_cache
    monkeypatch.setenv("CORTEXM_EMU_CACHE", str(tmp_path / "other"))
    assert Machine("m7", timing=first.timing).pricing.price_cache is not first.pricing.price_cache
