"""``refbench sanity --input``: a user's own benchmark output judged by the same rules and the same
emulated verdicts as the built-in pages.

The logs are written for these tests in the exact formats the libraries print, each line made
with the library's own printf format string (Python's ``%`` accepts these C conversions):

* wolfSSL ``wolfcrypt/benchmark/benchmark.c``: ``benchmark_init()`` prints the header
  ``"wolfCrypt Benchmark (block bytes %d, min %.1f sec each)\\n"``; 4.x
  ``bench_stats_sym_finish()`` ``"%-16s%s %5.0f %s %s %5.3f %s, %8.3f %s/s"`` and
  ``bench_stats_asym_finish()`` ``"%-6s %5d %-9s %s %6d %s %5.3f %s, %s %5.3f ms, %.3f %s\\n"``;
  5.x ``bench_stats_sym_finish()`` ``"%-24s%s %5.0f %s %s %5.3f %s, %8.3f %s/s"``.
* Mbed TLS ``programs/test/benchmark.c``: ``HEADER_FORMAT`` ``"  %-24s :  "``, ``TIME_AND_TSC``
  ``"%9lu KiB/s,  %9lu cycles/byte\\n"``, ``TIME_PUBLIC`` ``"%6lu " TYPE "/s"``.

Their numbers are synthetic (stated here, not measurements), except the wolfSSL page section fed
back as a log, whose verdicts are compared with the built-in figures' verdicts, not pinned.
The subprocess tests run the INSTALLED ``refbench`` with their own empty caches.
"""

from __future__ import annotations

import json
import os
import subprocess

import pytest
from sanity_fakes import stated_context
from test_cli_e2e import console_script
from test_inputs import _page_blocks, render_wolfcrypt_log

from refbench.cli import main
from refbench.inputs import Assumptions, read_input
from refbench.published.model import load_parts
from refbench.sanity import judge
from refbench.sanity.context import StatedMachine
from refbench.sanity.memory_configs import (
    GenericPart,
    configurations,
    flash_line_widths,
    generic_configurations,
    stated_configurations,
)
from refbench.sanity.plan import FigurePlan, Skipped, plan_figure

WOLF_HEADER = "wolfCrypt Benchmark (block bytes %d, min %.1f sec each)"
WOLF_VERSION = ("------------------------------------------------------------------------------\n"
                " wolfSSL version %s\n"
                "------------------------------------------------------------------------------")
WOLF4_SYM = "%-16s%s %5.0f %s %s %5.3f %s, %8.3f %s/s"
WOLF5_SYM = "%-24s%s %5.0f %s %s %5.3f %s, %8.3f %s/s"
WOLF4_ASYM = "%-6s %5d %-9s %s %6d %s %5.3f %s, %s %5.3f ms, %.3f %s"
MBED_HEADER = "  %-24s :  "
MBED_SYM = "%9d KiB/s,  %9d cycles/byte"
MBED_PUBLIC = "%6d %s/s"


def wolf_sym(fmt: str, name: str, amount: float, unit: str, seconds: float, rate: float) -> str:
    return fmt % (name, "", amount, unit, "took", seconds, "seconds", rate, unit)


def wolf4_asym(algo: str, bits: int, op: str, ops: int, seconds: float) -> str:
    return WOLF4_ASYM % (algo, bits, op, "", ops, "ops took", seconds, "sec", "avg", seconds / ops * 1000,
                         ops / seconds, "ops/sec")


# A wolfSSL 4.4.1 log (KB/MB are 1024-based in 4.x) from an unprofiled Cortex-M4 at 170 MHz.
# SHA-256 at 100 MB/s is 1.6 cycles/byte (faster than any C on a Cortex-M4); at 50 KB/s it is
# 3,320 cycles/byte (slower than any); line 8 is garbled on purpose.
WOLF4_LOG = "\n".join([
    "Running wolfCrypt Benchmarks...",
    WOLF_VERSION % "4.4.1",                                          # lines 2-4
    WOLF_HEADER % (1024, 1.0),                                       # 5
    wolf_sym(WOLF4_SYM, "SHA-256", 100, "MB", 1.000, 100.000),       # 6
    wolf_sym(WOLF4_SYM, "SHA-256", 51, "KB", 1.020, 50.000),         # 7
    "SHA-256         51 KB took seconds",                            # 8 malformed
    wolf4_asym("RSA", 2048, "public", 82, 1.019),                    # 9
    "Benchmark complete",
]) + "\n"

GENERIC_M4 = ["--core", "m4", "--clock", "170", "--wait-states", "4", "--cache", "off", "--prefetch", "on"]
GENERIC_M4_TEXT = ("assumed: no board profile; Cortex-M4 at 170 MHz; 4 flash wait states; cache off; prefetch on")

MBED_LOG = "\n".join([
    "",
    MBED_HEADER % "SHA-256" + MBED_SYM % (1203, 139),                # 2
    MBED_HEADER % "AES-CBC-128" + MBED_SYM % (1546, 108),            # 3
    MBED_HEADER % "CAMELLIA-CBC-128" + MBED_SYM % (700, 240),        # 4 unknown to refbench
    MBED_HEADER % "RSA-2048" + MBED_PUBLIC % (243, " public"),       # 5
    MBED_HEADER % "ECDSA-secp256r1" + MBED_PUBLIC % (41, "sign"),    # 6
    "",
]) + "\n"

CSV_TEXT = """# my own figures (synthetic)
algorithm,operation,size_bytes,value,unit,board,core,clock_mhz,library,version,implementation
AES-128-CBC,encrypt,,1100,KiB/s,,,,wolfSSL,5.6.6,
AES-256-CBC,encrypt,,800,KiB/s,,,,wolfSSL,5.6.6,
SHA-256,hash,1024,0.61,ms,stm32h753zi,,480,Mbed TLS,3.6.0,hardware
SHA-256,hash,,3.0,furlongs,,,,,,
"""


@pytest.fixture(scope="module")
def caches(tmp_path_factory) -> dict[str, str]:
    """Empty measurement and build caches shared by this module's subprocesses."""
    root = tmp_path_factory.mktemp("input-cli-caches")
    return {"REFBENCH_CACHE": str(root / "refbench"), "CORTEXM_EMU_CACHE": str(root / "emu")}


def refbench(args: list[str], caches: dict[str, str], stdin: str | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, **caches, "REFBENCH_WORKERS": "1"}
    return subprocess.run([str(console_script("refbench")), "sanity", *args], input=stdin, capture_output=True,
                          text=True, env=env, timeout=900, check=False)


def judged(result: subprocess.CompletedProcess, status: int = 0) -> dict[str, dict]:
    """The figures of a JSON report; ``status`` 1 where the input gives no judged figure (with
    --no-emulator no kernel tests a value, and the rules that run test only the context)."""
    assert result.returncode == status, result.stderr
    if status == 1:
        assert "no figure judged from" in result.stderr, result.stderr
    return {j["id"]: j for j in json.loads(result.stdout)["figures"]}


def test_wolfcrypt_log_on_a_generic_part_gets_the_emulated_verdicts(tmp_path, caches):
    log = tmp_path / "board.log"
    log.write_text(WOLF4_LOG, encoding="utf-8")
    result = refbench(["--input", str(log), *GENERIC_M4, "--format", "json"], caches)
    out = judged(result)
    assert list(out) == [f"{log}:6", f"{log}:7", f"{log}:9"]
    # the malformed line: reported with file:line on stderr, skipped
    assert f"{log}:8: " in result.stderr and "51 KB took seconds" in result.stderr
    lines = WOLF4_LOG.splitlines()
    for figure_id, j in out.items():
        assert j["source"] == str(log) and j["row"] == lines[int(figure_id.rsplit(":", 1)[1]) - 1]
        assert j["part"] == "unprofiled Cortex-M4" and j["clock_mhz"] == 170
        assert j["reasons"] and all(GENERIC_M4_TEXT in r for r in j["reasons"] if not r.startswith("[untested]"))
    fast, slow = out[f"{log}:6"], out[f"{log}:7"]
    assert fast["cycles_per_byte"] == pytest.approx(170e6 / (100 * 1024 * 1024))
    assert slow["cycles_per_byte"] == pytest.approx(170e6 / (50 * 1024))
    # The emulator rule ran on the stated memory system: no cache, prefetch on, each profiled M4 flash read width
    widths = flash_line_widths("m4")
    for j in (fast, slow):
        assert j["emulation"] == "emulated" and j["emulated_board"].startswith("unprofiled-m4")
        labels = set(j["emulated_range_by_memory"])
        assert labels == {f"no cache, prefetch on, {bits}-bit flash reads, 4 WS @ 170 MHz (stated)"
                          for bits in widths}
    assert fast["verdict"] == "inconsistent" and any(
        r.startswith("[emulator] inconsistent") and "faster than every allowed configuration x code path x compiler" in r
        for r in fast["reasons"])
    assert slow["emulated_max"] < slow["cycles_per_byte"] and any(
        r.startswith("[emulator] inconsistent") and "slower than every allowed configuration" in r
        for r in slow["reasons"])


def test_mbedtls_log_on_a_board_profile(tmp_path, caches):
    log = tmp_path / "mbed.log"
    log.write_text(MBED_LOG, encoding="utf-8")
    result = refbench(["--input", str(log), "--board", "stm32l562qe", "--clock", "110", "--lib-version", "3.6.0",
                       "--no-emulator", "--format", "json"], caches)
    out = judged(result, status=1)
    assert [(j["id"].rsplit(":", 1)[1], j["algorithm"], j["operation"]) for j in out.values()] == [
        ("2", "SHA-256", "hash"), ("3", "AES-128-CBC", "encrypt"), ("5", "RSA-2048", "public"),
        ("6", "ECDSA-P256", "sign")]
    assert f"{log}:4: " in result.stderr and "CAMELLIA-CBC-128" in result.stderr
    aes = out[f"{log}:3"]
    assert (aes["library"], aes["version"], aes["part"]) == ("Mbed TLS", "3.6.0", "STM32L562QEI6Q")
    assert aes["cycles_per_byte"] == pytest.approx(110e6 / (1546 * 1024))
    clock = next(r for r in aes["reasons"] if r.startswith("[board-clock]"))
    assert "110 MHz <= STM32L562QEI6Q maximum" in clock
    assert "[assumed: board profile stm32l562qe (STM32L562QEI6Q, Cortex-M33) at 110 MHz as given" in clock
    assert aes["emulation"] == "not emulated"


def test_csv_table_rows_name_their_own_board_or_take_the_stated_core(tmp_path, caches):
    table = tmp_path / "mine.csv"
    table.write_text(CSV_TEXT, encoding="utf-8")
    result = refbench(["--input", str(table), "--core", "m4", "--clock", "170", "--no-emulator",
                       "--format", "json"], caches)
    out = judged(result)
    assert list(out) == [f"{table}:3", f"{table}:4", f"{table}:5"]
    assert f"{table}:6: " in result.stderr and "furlongs" in result.stderr
    assert out[f"{table}:3"]["part"] == "unprofiled Cortex-M4"
    assert out[f"{table}:5"]["part"].startswith("STM32H753ZI") and out[f"{table}:5"]["implementation"] == "hardware"
    # the AES key-size invariant pairs the two AES rows: 1100 / 800 = 1.375 <= 14/10
    key_size = [r for r in out[f"{table}:4"]["reasons"] if r.startswith("[aes-key-size]")]
    assert key_size and "consistent" in key_size[0] and "assumed: no board profile; Cortex-M4 at 170 MHz" in key_size[0]
    assert any("assumed: board profile stm32h753zi" in r for r in out[f"{table}:5"]["reasons"])


def test_standard_input(caches):
    result = refbench(["--input", "-", "--core", "m4", "--clock", "170", "--no-emulator", "--format", "json"],
                      caches, stdin=WOLF4_LOG)
    out = judged(result, status=1)
    assert list(out) == ["<stdin>:6", "<stdin>:7", "<stdin>:9"]
    assert "<stdin>:8: " in result.stderr
    assert out["<stdin>:9"]["algorithm"] == "RSA-2048" and out["<stdin>:9"]["source"] == "<stdin>"


PUBLIC_KEY = {"ECDSA", "ECDH", "ECC", "SM2", "Ed25519", "Ed448", "X25519", "X448", "RSA", "DH", "DSA"}


def test_wolfssl_page_section_fed_back_as_a_log_gives_the_built_in_verdicts(tmp_path, caches):
    """The STM32G071RB section of the wolfSSL page, printed as wolfCrypt 5.6.0 prints it and judged
    with the board named, gets the built-in figures' verdicts, rule by rule and range by range
    (the emulator rule included: same kernels, same board, same configurations)."""
    (key, section), = [(k, g) for k, g in _page_blocks().items() if k[0].startswith("STM32G071RB") and len(g) > 2]
    log = tmp_path / "g071.log"
    log.write_text(render_wolfcrypt_log(section), encoding="utf-8")
    first = section[0]
    mine = judged(refbench(["--input", str(log), "--board", "stm32g071rb", "--clock", f"{first.clock_mhz:g}",
                            "--compiler", first.compiler, "--format", "json"], caches))
    page = judged(refbench(["--source", "wolfssl", "--board", "G071", "--format", "json"], caches))
    built_in = [page[f.id] for f in section]
    assert len(mine) == len(built_in) == len(section)

    def rules(j: dict) -> list[tuple[str, str]]:
        return sorted((r.split("]", 1)[0], r.split("]", 1)[1].split(":", 1)[0].strip()) for r in j["reasons"])

    for ours, theirs in zip(mine.values(), built_in, strict=True):
        assert (ours["algorithm"], ours["operation"]) == (theirs["algorithm"], theirs["operation"])
        # a public-key figure's build comes from the page's math option, which a log does not print: the
        # log's figure is predicted from the library's build without it (builds.toml [[pubkey]]) over every
        # variant wolfSSL ships, so its range and prediction differ from the page's; the same rules judge it
        public_key = ours["emulated_unit"] == "cycles" and ours["algorithm"].split("-")[0] in PUBLIC_KEY
        if public_key:
            assert [r for r, _ in rules(ours)] == [r for r, _ in rules(theirs)], (ours["id"], theirs["id"])
        else:
            assert ours["verdict"] == theirs["verdict"], (ours["id"], theirs["id"])
            assert rules(ours) == rules(theirs), (ours["id"], theirs["id"])
        # (the page's math option can name an assembly variant the log's build cannot: G071's SP Thumb small
        # path on bignum/m0_asm, so a public-key figure's fastest candidate differs too)
        for field in ("emulation", "cycles_per_byte", "cycles_per_op") + (
                () if public_key else ("emulated_min", "emulated_max", "explanation_memory")):
            assert ours[field] == pytest.approx(theirs[field]) if isinstance(ours[field], float) else \
                ours[field] == theirs[field], (ours["id"], field)


# --- options ------------------------------------------------------------------------------

@pytest.mark.parametrize(("argv", "message"), [
    (["--core", "m4"], "Invalid --core: it states what an --input ran on"),
    (["--options=-O2"], "Invalid --options: it states what an --input ran on"),
    (["--input", "no-such.log", "--core", "m4", "--clock", "170"], "Invalid input (no-such.log): no such file"),
    (["--input", "-", "--board", "stm32g071rb", "--board", "stm32l562qe"], "names the one board profile"),
    (["--input", "-", "--core", "m4", "--clock", "170", "--cache", "maybe"], "argument --cache: invalid choice: 'maybe'"),
    (["--input", "-", "--core", "m5", "--clock", "170"], "Invalid --core ('m5')"),
    (["--input", "-", "--board", "stm32g071rb", "--clock", "170"], "Invalid --clock (170) for board stm32g071rb: "
                                                                   "above the part's maximum 64 MHz"),
    (["--input", "-", "--core", "m4", "--clock", "170", "--input-format", "yaml"], "Invalid format ('yaml')"),
    (["--input", "-", "--core", "m4", "--clock", "inf"], "Invalid --clock (inf); accepted: a number of MHz above 0"),
    (["--input", "-", "--core", "m4", "--clock", "170", "--options=-O1"],
     "Invalid --options ('-O1'): not an optimisation level the kernels are built at; accepted: '-Os', '-O2', '-O3'"),
    (["--input", "-", "--core", "m4", "--clock", "170", "--options=-Ofast -flto"], "Invalid --options ('-Ofast -flto')"),
    (["--input", "-", "--core", "m4", "--clock", "170", "--option", "GCM_HUGE"], "Invalid --option ('GCM_HUGE')"),
    (["--input", "-", "--core", "m4", "--clock", "170", "--hardware", "AES,GPU"], "Invalid --hardware ('GPU')"),
    (["--input", "-", "--core", "m4", "--clock", "170", "--hardware", "AES-GCX"], "Invalid --hardware ('AES-GCX')"),
    (["--option", "GCM_SMALL"], "Invalid --option: it states what an --input ran on"),
    (["--input", "tests", "--core", "m4", "--clock", "170"],
     "Invalid input (tests): a directory; give the log or table file in it"),
])
def test_bad_options_name_the_option(argv, message, capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", __import__("io").StringIO(WOLF4_LOG))
    assert main(["sanity", *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_undetectable_input_names_it(tmp_path, capsys):
    notes = tmp_path / "notes.txt"
    notes.write_text("it was fast\n", encoding="utf-8")
    assert main(["sanity", "--input", str(notes), "--core", "m4", "--clock", "170"]) == 2
    assert f"Invalid input ({notes})" in capsys.readouterr().err


# --- the generic part: configurations and verdicts with stated cycles -----------------------

def part(cache: str = "unknown", prefetch: str = "unknown", ws: int | None = 4) -> GenericPart:
    return GenericPart("m4", 170, ws, cache, prefetch, "assumed: a test part")  # type: ignore[arg-type]


def test_generic_configurations_follow_the_statements():
    widths = flash_line_widths("m4")
    # the profiled Cortex-M4 parts read 32 bits (nRF52840), 64 (L4, WB, WL, K64F) or 128 (F4, SAMD51)
    assert widths == (32, 64, 128)
    n = len(widths)
    every = generic_configurations(part())
    assert [c.kind for c in every] == ["cache on"] + ["prefetch only"] * n + ["cache off"] * n
    assert every[0].code == "ram" and all(c.code == "flash" for c in every[1:])
    assert len({c.memory().describe()["flash_line_bytes"] for c in every[1:]}) == n
    assert [c.kind for c in generic_configurations(part("off", "off"))] == ["cache off"] * n
    assert [c.kind for c in generic_configurations(part("on", "off"))] == ["cache on"] + ["cache off"] * n
    assert [c.kind for c in generic_configurations(part(ws=0))] == ["flash"]
    memory = generic_configurations(part("off", "on"))[0].memory()
    assert (memory.wait_states, memory.prefetch, memory.cache, memory.code) == (4, True, False, "flash")
    assert len({c.label for c in every}) == len(every)


def test_stated_cache_and_prefetch_narrow_a_board_profile():
    from cortexm_emu.boards import load_board
    board = load_board("stm32l4a6zg")
    kinds = [c.kind for c in stated_configurations(board, 80, "off", "unknown")]
    assert kinds == ["cache off", "prefetch only", "code in SRAM"]
    assert [c.kind for c in stated_configurations(board, 80, "on", "off")] == ["cache on, prefetch off", "code in SRAM"]
    assert stated_configurations(board, 80) == configurations(board, 80)


def _log_figure(assumptions: Assumptions, line: str):
    figures, problems = read_input("\n".join([WOLF_VERSION % "5.6.6", WOLF_HEADER % (1024, 1.0), line]) + "\n",
                                   name="mine.log", assumptions=assumptions)
    assert problems == []
    return figures[0]


def test_no_wait_states_stated_means_no_kernel_and_says_why():
    assumptions = Assumptions(core="m4", clock_mhz=170)
    f = _log_figure(assumptions, wolf_sym(WOLF5_SYM, "SHA-256", 2, "MiB", 1.031, 1.940))
    plan = plan_figure(f, {}, stated=StatedMachine.for_figure(f, assumptions))
    assert isinstance(plan, Skipped) and "--wait-states N" in plan.explanation
    stated = StatedMachine.for_figure(f, Assumptions(core="m4", clock_mhz=170, wait_states=2))
    planned = plan_figure(f, {}, stated=stated)
    assert isinstance(planned, FigurePlan) and planned.clock_mhz == 170 and len(planned.configs) == 1 + 2 * len(flash_line_widths("m4"))


NRF52_LOG = os.path.join(os.path.dirname(__file__), "fixtures", "logs", "wolfcrypt-nrf52.txt")


def test_no_wait_states_says_what_is_missing_not_that_no_kernel_computes_it(tmp_path, capsys, monkeypatch):
    """A real wolfCrypt log (tests/fixtures/logs/SOURCES.md) cut to its header and its SHA-256 row: with
    a core and a clock only, the reason names the missing options; with --wait-states 0 it is planned."""
    monkeypatch.setenv("REFBENCH_CACHE", str(tmp_path / "cache"))
    with open(NRF52_LOG, encoding="utf-8") as handle:
        lines = handle.read().splitlines()
    log = tmp_path / "one-row.log"
    log.write_text("\n".join([*lines[:5], next(line for line in lines if line.startswith("SHA-256"))]) + "\n",
                   encoding="utf-8")
    assert main(["sanity", "--input", str(log), "--core", "m4", "--clock", "100", "--format", "json"]) == 1  # no figure judged
    (figure,) = json.loads(capsys.readouterr().out)["figures"]
    assert figure["verdict"] == "untested" and figure["emulation"] == "not emulated yet"
    (why,) = [r for r in figure["reasons"] if r.startswith("[untested]")]
    assert ("not emulated: the flash wait states at 100 MHz are not known; give --wait-states N or --board NAME"
            in why), why
    assert "no kernel computes it" not in why
    f = read_input(log.read_text(encoding="utf-8"), name=str(log),
                   assumptions=Assumptions(core="m4", clock_mhz=100, wait_states=0))[0][0]
    stated = StatedMachine.for_figure(f, Assumptions(core="m4", clock_mhz=100, wait_states=0))
    assert isinstance(plan_figure(f, {}, stated=stated), FigurePlan)


@pytest.mark.parametrize(("mib_per_s", "verdict", "position"), [
    (1.0, "consistent", "inside"),      # 170e6 / 1 MiB = 162 cycles/byte: between 50 and 200
    (8.0, "inconsistent", "faster"),    # 20 cycles/byte: faster than the 50 of the cache-hit bound
    (0.25, "inconsistent", "slower"),   # 648 cycles/byte: slower than the 200 of prefetch off
])
def test_generic_part_verdicts_against_stated_cycles(mib_per_s, verdict, position):
    """Stated cycles per byte by configuration (no kernel runs): cache-hit bound 50, prefetch on 100,
    prefetch off 200; the cache is unknown, so the prediction spans every configuration the
    statements allow: a figure of 162 c/B is inside, 20 and 648 beyond every one."""
    assumptions = Assumptions(core="m4", clock_mhz=170, wait_states=4)
    seconds = 1.000
    f = _log_figure(assumptions, wolf_sym(WOLF5_SYM, "SHA-256", round(mib_per_s * seconds), "MiB", seconds,
                                          mib_per_s))
    stated = {"cache on": 50.0, "prefetch only": 100.0, "cache off": 200.0}
    machine = StatedMachine.for_figure(f, assumptions)
    context, executor = stated_context(lambda m: stated[m.config.kind], machines={f.id: machine})
    report = judge([f], load_parts([]), context)
    e = report.emulations[f.id]
    assert (e.emulated_min, e.emulated_max) == (pytest.approx(50.0), pytest.approx(200.0))
    assert e.position == position and report.judgements[0].verdict == verdict
    assert {m.config.board for m in executor.ran} == {f"unprofiled-m4-{w}bit-flash" for w in flash_line_widths("m4")}
    findings = report.judgements[0].findings
    assert findings and all(x.message.endswith(f"[{machine.text}]") for x in findings)
    assert machine.text.startswith("assumed: no board profile; Cortex-M4 at 170 MHz; 4 flash wait states")


@pytest.mark.parametrize("fmt", ["table", "markdown", "html"])
def test_every_output_format_names_the_input_line_and_the_assumptions(fmt, tmp_path, caches):
    log = tmp_path / "board.log"
    log.write_text(WOLF4_LOG, encoding="utf-8")
    result = refbench(["--input", str(log), *GENERIC_M4, "--format", fmt, "--reasons", "all"],
                      {**caches, "COLUMNS": "400"})
    assert result.returncode == 0, result.stderr
    text = result.stdout.replace("&#x27;", "'").replace("&quot;", '"')
    for line in (6, 7, 9):
        assert f"{log}:{line}" in text
    assert GENERIC_M4_TEXT in " ".join(text.split())
    assert "faster than every allowed configuration x code path x compiler" in " ".join(text.split())
    assert f"{log}:8: " in result.stderr


def test_pages_are_judged_only_when_asked(caches):
    args = ["--input", "-", "--core", "m4", "--clock", "170", "--no-emulator", "--algorithm", "SHA-256",
            "--format", "json"]
    alone = judged(refbench(args, caches, stdin=WOLF4_LOG), status=1)
    both = judged(refbench([*args, "--pages", "--source", "wolfssl"], caches, stdin=WOLF4_LOG), status=1)
    assert set(alone) == {"<stdin>:6", "<stdin>:7"}
    assert set(alone) < set(both) and all(j["source"] == "000_950e0926bdf8c114.txt"
                                          for i, j in both.items() if i not in alone)
    assert all("SHA-256" in j["algorithm"] for j in both.values())  # --algorithm selects by a part of the name
