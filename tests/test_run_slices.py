"""The run loop goes in slices so that Ctrl-C is honoured (issue 32): a run cut into slices of a
few instructions counts exactly what one uninterrupted run counts, and `cortexm-emu run` stops
on SIGINT with exit status 130 and no traceback."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from cortexm_emu import Buffer, Machine
from cortexm_emu import machine as machine_module
from cortexm_emu.toolchain import build

ASM = Path(__file__).parent / "asm" / "machine"


def _counts(result):
    return (
        result.cycles,
        result.instructions,
        result.block_counts,
        result.edge_counts,
        result.dynamic_cycles,
        result.memory_cycles,
        result.memory_counts,
        result.return_value,
        result.buffers,
    )


CASES = [
    ("m4", None, "speed.c", ("sha256_like", Buffer.zeros(32), Buffer(bytes(range(64))), 2)),
    ("m0plus", None, "calls.c", ("fill", Buffer.zeros(300), 300, 7)),
    ("m3", None, "calls.c", ("divide", 0xFFFF_FFFF, 3)),
    ("m7", None, "overlap.S", ("enter_mid_loop", 40, 0x7FFF_FFFF)),
    ("m4", "stm32f407vg", "overlap.S", ("enter_mid_loop", 40, 0x7FFF_FFFF)),
    ("m7", "stm32f756zg", "speed.c", ("sha256_like", Buffer.zeros(32), Buffer(bytes(range(64))), 2)),
]


def _machine(core, board, accounting):
    if board is None:
        return Machine(core, accounting=accounting)
    return Machine.for_board(board, 168 if board == "stm32f407vg" else None, accounting=accounting)


@pytest.mark.parametrize("accounting", ["native", "python"])
@pytest.mark.parametrize(("core", "board", "source", "call"), CASES)
def test_a_run_in_tiny_slices_counts_what_one_run_counts(monkeypatch, core, board, source, call, accounting):
    elf = build([ASM / source], core).elf
    whole = _machine(core, board, accounting)
    whole.load_elf(elf)
    expected = _counts(whole.call(*call))
    monkeypatch.setattr(machine_module, "RUN_SLICE", 7)
    sliced = _machine(core, board, accounting)
    sliced.load_elf(elf)
    assert _counts(sliced.call(*call)) == expected
    assert _counts(sliced.call(*call)) == expected  # warm machine, edges kept


def test_a_budget_inside_a_slice_still_stops_the_run(monkeypatch):
    from cortexm_emu import BudgetExceeded

    monkeypatch.setattr(machine_module, "RUN_SLICE", 50)
    m = Machine("m4")
    m.load_elf(build([ASM / "overlap.S"], "m4").elf)
    with pytest.raises(BudgetExceeded, match="instruction budget exhausted"):
        m.call("enter_mid_loop", 1000, 5, budget=120)
    assert m.call("enter_mid_loop", 3, 5).instructions < 120


def test_ctrl_c_stops_cortexm_emu_run_with_status_130(tmp_path):
    """A function that never returns, with a budget of hours: SIGINT ends the run (the process
    is killed after 120 s if it does not, and the test fails)."""
    elf = build([ASM / "calls.c"], "m4").elf
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    argv = [sys.executable, "-m", "cortexm_emu", "run", str(elf), "spin", "--core", "m4",
            "--budget", str(10**15)]
    # SIGINT as in a user's shell: an ignored SIGINT (a test runner's worker, a shell's background
    # job) is inherited and Python then installs no KeyboardInterrupt handler
    proc = subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        # the process announces nothing before it runs: wait for its first CPU second
        import time

        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            stat = Path(f"/proc/{proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
            if int(stat[11]) > os.sysconf("SC_CLK_TCK") * 2:  # utime past 2 s: emulating
                break
            time.sleep(0.2)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 130, err
    assert "Traceback" not in err
    assert "interrupted" in err
