"""Read the raw output of wolfCrypt's benchmark (``wolfcrypt/benchmark/benchmark.c``).

Formats, from the benchmark source (wolfSSL/wolfssl, ``wolfcrypt/benchmark/benchmark.c``):

* Header, printed by ``benchmark_init()`` in every version::

      wolfCrypt Benchmark (block bytes %d, min %.1f sec each)

  preceded, when the test harness prints it, by `` wolfSSL version %s`` between two lines of
  dashes (e.g. the wolfSSL STM32 page's blocks).
* Symmetric rows, ``bench_stats_sym_finish()``; 4.x:
  ``"%-16s%s %5.0f %s %s %5.3f %s, %8.3f %s/s"`` (name, async device name, amount, unit,
  ``"took"``, seconds, ``"seconds"``, rate, unit); 5.x (checked on a 5.6-era and a current
  copy): the same with ``%-24s``, and ``GENERATE_MACHINE_PARSEABLE_REPORT`` builds append
  ``", %lu cycles,"`` (total cycles; kept in the notes). The unit is
  chosen per row: 4.x up to 5.5 print ``KB``/``MB`` (base 2) or ``kB``/``mB`` (``-base10``);
  from 5.6 ``get_blocktype()`` prints ``KiB``/``MiB`` (base 2) and ``get_blocktype_base10()``
  ``KB``/``MB``; ``bytes`` below 1 KiB. What each name means per version is in ``refbench/published/library_units.toml``.
  Where the build has a cycle counter (``HAVE_GET_CYCLES``: x86-64, Linux perf, Renesas Synergy
  DWT, ESP-IDF) ``SHOW_INTEL_CYCLES`` appends ``" Cycles per byte = %6.2f"``.
  With ``BENCH_DEVID`` (async/offload builds) the name is followed by ``SW`` or ``HW``.
* Public-key rows, ``bench_stats_asym_finish()`` (5.x ``bench_stats_asym_finish_ex()``); 4.x:
  ``"%-6s %5d %-9s %s %6d %s %5.3f %s, %s %5.3f ms, %.3f %s"`` (algorithm, strength,
  operation, device, count, ``"ops took"``, seconds, ``"sec"``, ``"avg"``, ms per op, ops/s,
  ``"ops/sec"``); 5.x: ``"%-6s %5d %8s%-2s %s %6d %s %5.3f %s, %s %5.3f ms, %.3f %s"``
  (``", %lu cycles"`` appended by ``GENERATE_MACHINE_PARSEABLE_REPORT`` builds)
  (the algorithm may carry the curve, ``ECC   [      SECP256R1]``).
* ``-csv``: ``"Symmetric Ciphers:"`` then ``"Algorithm,MB/s,..."`` and rows ``"%s,%.3f,"``;
  ``"Asymmetric Ciphers:"`` then ``"Algorithm,avg ms,ops/sec,"`` and rows
  ``"%s %d %s,%.3f,%.3f,"`` (4.x) or ``"Algorithm,key size,operation,avg ms,ops/sec,"`` and
  ``"%s,%d,%s%s,%.3f,%.3f,"`` (5.x). A symmetric CSV rate is printed in the unit the row's
  amount scaled to (bytes, KiB or MiB: ``get_blocktype()``), which the CSV does not print,
  whatever its header says: such rows are reported and skipped, never guessed.

Not read (each row is reported): ``GENERATE_MACHINE_PARSEABLE_REPORT`` CSV rows (``sym,...``,
``asym,...``), ``MULTI_VALUE_STATISTICS`` rows (``max duration ...``), ``BENCH_MICROSECOND``
rows (``μsec``), and ``bytes``-unit rows (under 1 KiB processed).

Row names are classified by :func:`refbench.published.transcribe.wolfssl_classify`, the same
mapping the built-in wolfSSL page uses; a name it does not know is reported.
"""

from __future__ import annotations

import re

from refbench.inputs.assumptions import Assumptions, Placement
from refbench.inputs.records import Line, Problem, build_figure
from refbench.inputs.resolution import apply_timer_resolution
from refbench.published.library_units import input_unit_bytes
from refbench.published.model import Aux, Figure
from refbench.published.transcribe import wolfssl_classify

LIBRARY = "wolfSSL"
_UNIT = r"bytes|KB|MB|GB|kB|mB|KiB|MiB|GiB"
VERSION = re.compile(r"wolfSSL version (?P<version>\d[^\s,]*)(?P<build>.*)")
#: 5.x banner line of the math library (benchmark.c, after the version), e.g.
#: ``Math:   Single Precision: ecc 256 384 521 rsa/dh 2048 3072 4096 asm sp_x86_64.c``
MATH = re.compile(r"Math:\s+(?P<math>\S.*?)\s*")
#: the built-in pages' math names for the SP source file a Math line names (nothing else is mapped)
_MATH_FILES = (("sp_cortexm", "SP math, Cortex-M assembly"), ("sp_c32", "SP math, C 32-bit"),
               ("sp_int", "sp_int.c (SP math all)"), ("sp_armthumb", "SP math, Thumb assembly"))
HEADER = re.compile(r"wolfCrypt Benchmark \(block bytes (?P<block>\d+), min\s*(?P<min>[\d.]*) sec each")
SYM = re.compile(
    rf"(?P<name>\S.*?)\s+(?:(?P<dev>SW|HW)\s+)?(?P<amount>\d+(?:\.\d+)?) (?P<amount_unit>{_UNIT}) took "
    rf"(?P<seconds>\d+\.\d+) seconds,\s+(?P<rate>\d+\.\d+) (?P<rate_unit>{_UNIT})/s"
    r"(?:,\s*(?P<total_cycles>\d+) cycles,?)?(?:\s+Cycles per byte =\s+(?P<cpb>\d+\.\d+))?\s*"
)
ASYM = re.compile(
    r"(?P<name>\S.*?)\s+(?:(?P<dev>SW|HW)\s+)?(?P<ops>\d+) ops took (?P<seconds>\d+\.\d+) sec, "
    r"avg (?P<avg>\d+\.\d+) ms, (?P<ops_per_s>\d+\.\d+) ops/sec(?:,\s*(?P<total_cycles>\d+) cycles)?\s*"
)
#: lines of a run that carry no figure
_META = re.compile(r"-{10,}|Benchmark complete|Benchmark Test: Return code.*|"
                   r"This format allows you to easily copy the output to a csv file\.|"
                   r"(?:Symmetric|Asymmetric) Ciphers:")
_LOOKS_LIKE_ROW = re.compile(r"\btook\b|ops/sec|/s\b|Cycles per byte")
_CSV_SYM_WHY = ("wolfCrypt -csv prints a symmetric rate in the unit its amount scaled to (bytes, KiB or MiB, "
                "benchmark.c get_blocktype()) and does not print that unit; not guessed: run without -csv")


def looks_like(text: str) -> bool:
    """True if ``text`` has a wolfCrypt benchmark header or row."""
    return bool(HEADER.search(text)) or any(SYM.fullmatch(t.strip()) or ASYM.fullmatch(t.strip())
                                            for t in text.splitlines())


class _Run:
    """What the lines before a row said: version, header (block bytes, its line), CSV state."""

    def __init__(self) -> None:
        self.version: str | None = None
        self.build: str = ""
        self.math: str | None = None
        self.block_bytes: int | None = None
        self.header_line: int | None = None
        self.in_run = False
        self.csv: str | None = None  # "sym" / "asym" after the CSV section titles
        self.csv_columns: list[str] | None = None


def read_wolfcrypt(lines: list[Line], *, assumptions: Assumptions, placement: Placement
                   ) -> tuple[list[Figure], list[Problem]]:
    """Figures and problems of a wolfCrypt benchmark log (see the module docstring)."""
    figures: list[Figure] = []
    problems: list[Problem] = []
    run = _Run()
    for line in lines:
        text = line.text.strip()
        if not text:
            continue
        if m := VERSION.search(text):
            run.version, run.build, run.math = m["version"], m["build"].strip(), None
            continue
        if m := MATH.fullmatch(text):
            run.math = m["math"]
            continue
        if m := HEADER.search(text):
            run.block_bytes, run.header_line, run.in_run, run.csv = int(m["block"]), line.number, True, None
            continue
        if _META.fullmatch(text):
            if text.startswith(("Symmetric", "Asymmetric")):
                run.csv, run.csv_columns = ("sym" if text.startswith("Symmetric") else "asym"), None
            if text.startswith("Benchmark complete"):
                run.in_run = False
            continue
        m = SYM.fullmatch(text) or ASYM.fullmatch(text)
        if m:
            result = _row(line, m, run, assumptions, placement)
            (figures if isinstance(result, Figure) else problems).append(result)
        elif run.csv and "," in text:
            result = _csv_row(line, text, run, assumptions, placement)
            if result is not None:
                (figures if isinstance(result, Figure) else problems).append(result)
        elif run.in_run or _LOOKS_LIKE_ROW.search(text):
            problems.append(line.problem("not a wolfCrypt benchmark row, header or summary line "
                                         "(benchmark.c bench_stats_sym_finish / bench_stats_asym_finish formats)"))
    runs: dict[str, list[Figure]] = {}
    for f in figures:
        runs.setdefault(f.section, []).append(f)
    return [f for run_figures in runs.values() for f in apply_timer_resolution(run_figures, placement.text)], problems


def _section(line: Line, run: _Run) -> str:
    where = f"line {run.header_line}" if run.header_line else "no header line"
    return f"{line.file}: wolfCrypt benchmark run ({where})"


def _version(run: _Run, assumptions: Assumptions) -> tuple[str, str]:
    if run.version:
        return run.version, "wolfSSL version printed by the log"
    if assumptions.version:
        return assumptions.version, "wolfSSL version given, not printed by the log"
    return "not stated", "no wolfSSL version printed or given"


def _banner_note(run: _Run) -> str:
    """What the banner says of the build (``with AESNI``; the ``Math:`` line), as the log states it."""
    said = [f"the banner says 'wolfSSL version {run.version} {run.build}'"] if run.build else []
    if run.math:
        said.append(f"the log's Math line: '{run.math}'" + (f" (read as {_math(run)})" if _math(run) else
                                                             " (no SP source file named: math not set)"))
    elif run.version:
        said.append("no Math line printed (math library not stated)")
    return "".join(f"; {s}" for s in said)


def _math(run: _Run) -> str | None:
    """The math of the built-in pages' vocabulary for the SP source file the Math line names."""
    text = (run.math or "").lower()
    return next((name for key, name in _MATH_FILES if key in text), None)


#: benchmark.c bench_sha3_224 ... bench_sha3_512 rows (``"SHA3-256"``): the refbench hash of that name
_SHA3 = re.compile(r"SHA3-(224|256|384|512)")


def _classify(line: Line, name: str) -> dict | Problem:
    if _SHA3.fullmatch(name):
        return {"mode": None, "key_bits": None, "curve": None, "algorithm": name, "operation": "hash"}
    try:
        return wolfssl_classify(name)
    except ValueError:
        return line.problem("unknown algorithm: not a wolfCrypt benchmark name refbench maps "
                            "(refbench.published.transcribe.wolfssl_classify)")


def _row(line: Line, m: re.Match[str], run: _Run, assumptions: Assumptions, placement: Placement
         ) -> Figure | Problem:
    name = " ".join(m["name"].split())
    fields = _classify(line, name)
    if isinstance(fields, Problem):
        return fields
    version, version_note = _version(run, assumptions)
    version_note += _banner_note(run)
    header_note = (f"block bytes {run.block_bytes} from the header on line {run.header_line}" if run.block_bytes
                   else "no 'wolfCrypt Benchmark (block bytes ...)' header before this row")
    common = dict(line=line, placement=placement, assumptions=assumptions, section=_section(line, run),
                  label=name, library=LIBRARY, version=version, fields=fields, block_bytes=run.block_bytes,
                  notes=f"{version_note}; {header_note}" + (
                      f"; {m['total_cycles']} total cycles printed (GENERATE_MACHINE_PARSEABLE_REPORT)"
                      if m["total_cycles"] else ""),
                  implementation="hardware" if m["dev"] == "HW" else None, math=_math(run))
    if "rate" in m.groupdict():
        if m["amount_unit"] != m["rate_unit"]:
            return line.problem(f"amount unit {m['amount_unit']!r} differs from rate unit {m['rate_unit']!r}; "
                                "benchmark.c prints one unit for both")
        if m["rate_unit"] == "bytes":
            return line.problem("rate printed in bytes/s (under 1 KiB processed): too short a run to judge")
        try:
            input_unit_bytes(LIBRARY, version, m["rate_unit"])
        except ValueError as exc:
            return line.problem(str(exc))
        if float(m["rate"]) == 0:
            return line.problem(f"0 {m['rate_unit']}/s printed: below the printed resolution (0.001), too coarse "
                                "to judge")
        aux = [Aux("amount", float(m["amount"]), m["amount_unit"], m["amount"]),
               Aux("duration", float(m["seconds"]), "s", m["seconds"])]
        if m["cpb"]:
            aux.append(Aux("cycles_per_byte", float(m["cpb"]), "cycles/byte", m["cpb"]))
        return build_figure(metric="throughput", value=float(m["rate"]), unit=m["rate_unit"] + "/s",
                            text=m["rate"], aux=tuple(aux), **common)
    if float(m["avg"]) == 0:
        return line.problem("0 ms per operation printed: below the printed resolution (0.001 ms), too coarse to "
                            "judge")
    aux = (Aux("ops", float(m["ops"]), "ops", m["ops"]), Aux("duration", float(m["seconds"]), "s", m["seconds"]),
           Aux("ops_per_s", float(m["ops_per_s"]), "ops/s", m["ops_per_s"]))
    return build_figure(metric="time_per_op", value=float(m["avg"]), unit="ms", text=m["avg"], aux=aux, **common)


_NUMBER = re.compile(r"\d+(?:\.\d+)?")


def _csv_row(line: Line, text: str, run: _Run, assumptions: Assumptions, placement: Placement
             ) -> Figure | Problem | None:
    cells = [c.strip() for c in text.split(",")]
    if cells and cells[-1] == "":
        cells.pop()
    if cells[0] == "Algorithm":
        run.csv_columns = cells
        return None
    if run.csv == "sym":
        return line.problem(_CSV_SYM_WHY)
    columns = run.csv_columns or []
    if "avg ms" not in columns or "ops/sec" not in columns or len(cells) != len(columns):
        return line.problem(f"wolfCrypt -csv public-key row does not fit its header {','.join(columns) or '(none)'}")
    avg, ops_per_s = cells[columns.index("avg ms")], cells[columns.index("ops/sec")]
    if not (_NUMBER.fullmatch(avg) and _NUMBER.fullmatch(ops_per_s)):
        return line.problem("wolfCrypt -csv public-key row: avg ms and ops/sec must be numbers")
    if float(avg) == 0:
        return line.problem("0 ms per operation printed: below the printed resolution (0.001 ms), too coarse to "
                            "judge")
    name = " ".join(" ".join(cells[: columns.index("avg ms")]).split())
    fields = _classify(line, name)
    if isinstance(fields, Problem):
        return fields
    version, version_note = _version(run, assumptions)
    return build_figure(line=line, placement=placement, assumptions=assumptions, section=_section(line, run),
                        label=name, library=LIBRARY, version=version, fields=fields, block_bytes=run.block_bytes,
                        notes=f"{version_note}; wolfCrypt -csv row", metric="time_per_op", value=float(avg),
                        unit="ms", text=avg, aux=(Aux("ops_per_s", float(ops_per_s), "ops/s", ops_per_s),))
