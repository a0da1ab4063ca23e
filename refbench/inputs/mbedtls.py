"""Read the raw output of Mbed TLS's ``benchmark`` program (``programs/test/benchmark.c``) and of
the ports that print its lines their own way.

Formats, from Mbed-TLS/mbedtls ``programs/test/benchmark.c`` (2.x, e.g. 2.16 and 2.28, and
3.x share them) and from the public logs in ``tests/fixtures/logs/`` (``SOURCES.md`` cites each):

* Every line starts with ``HEADER_FORMAT`` = ``"  %-24s :  "`` (the title). Leading indentation
  of a whole block (a log pasted into a README four spaces deep) is accepted.
* Symmetric and hash lines, macro ``TIME_AND_TSC``:
  ``"%9lu KiB/s,  %9lu cycles/byte\n"`` with ``ii * BUFSIZE / 1024`` (``BUFSIZE`` 1024: the
  number of 1024-byte buffers processed in a 1 s alarm) and the cycles of 1024 more buffers
  counted by ``mbedtls_timing_hardclock()`` per byte. The NXP MCUXpresso SDK port prints both
  with ``%.2f`` and labels the rate ``KiB/s`` or ``KB/s``; the Mbed OS example prints
  ``"%9lu KB/s"`` without cycles/byte. Every variant divides by 1024, so ``KB/s`` is read as
  1024 bytes and said so (on the NXP logs the printed cycles/byte at the printed ``fsys``
  confirm it).
* Public-key lines, macro ``TIME_PUBLIC(TITLE, TYPE, CODE)``: ``"%6lu " TYPE "/s"`` with
  ``ii / 3`` (operations in a 3 s alarm, integer division; NXP prints ``%.2f``), optionally
  followed by ``"%6u heap bytes"`` (``MBEDTLS_MEMORY_DEBUG``). ``TYPE`` is ``" public"``/
  ``"private"`` (titles ``RSA-%d``), ``"handshake"`` (``DHE-%d``: make_public + calc_secret;
  ``DH-%d``: calc_secret; ``ECDHE-<curve>``: make_public + calc_secret; ``ECDH-<curve>``:
  calc_secret), ``"sign"``/``"verify"`` (``ECDSA-<curve>``) and ``"full handshake"``
  (``ECDHE-<curve>``, both sides). The mbed/yotta and Mbed OS examples print milliseconds per
  operation instead: ``"%6lu ms/" TYPE`` (``41 ms/ public``, ``1349 ms/private``).
* ``"Feature not supported. Skipping."`` and ``"FAILED: ..."`` follow a title when no figure
  was measured; they are reported. PolarSSL's older ``"%9lu Kb/s"`` lines are reported too.
* Lines without a measured number are not figures and are passed over: the mbed greentea
  harness lines (``{{timeout;150}}``, ``{{start}}``), ``DONE``, the NXP banner
  (``mbedTLS version 2.26.0``, ``fsys=250105263``, ``Using following implementations:`` and its
  ``  SHA: ... HW accelerated`` lines). The banner's version is the figures' version (unless
  ``--lib-version`` says otherwise, which is then said), and its implementation lines are kept in
  every figure's notes.

**The log's own clock.** ``rate x cycles/byte`` is the clock of the counter
``mbedtls_timing_hardclock`` reads (bytes per second x cycles per byte = cycles per second). Each
row's range, from the printed resolution of both numbers, is compared with the stated clock:
:func:`clock_check` says whether they agree, and its sentence is in every figure's notes; a
disagreement is a finding about the stated clock (or about a port whose counter runs at another
clock), stated with the assumptions at the end of every finding on the log's figures.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from statistics import median

from refbench.inputs.assumptions import Assumptions, Placement
from refbench.inputs.records import Line, Problem, build_figure
from refbench.published.model import Figure

LIBRARY = "Mbed TLS"
BUFSIZE = 1024
#: allowed for the rate's own 1 s alarm (its timer and the loop's last, partial buffer): an assumption
#: of the clock check, said in its sentence
ALARM_TOLERANCE = 0.01
_NUM = r"\d+(?:\.\d+)?"
TITLE = re.compile(r"\s*(?P<title>\S.*?)\s*:\s+(?P<rest>.*)")
SYM = re.compile(rf"\s*(?P<kib>{_NUM}) (?P<unit>KiB/s|KB/s)(?:,\s+(?P<cpb>{_NUM}) cycles/byte)?\s*")
_TYPES = r"public|private|handshake|full handshake|sign|verify"
PUBLIC = re.compile(rf"\s*(?P<rate>{_NUM})\s+(?P<type>{_TYPES})/s(?:\s+(?P<heap>\d+) heap bytes)?\s*")
PER_OP = re.compile(rf"\s*(?P<ms>{_NUM}) ms/\s*(?P<type>{_TYPES})(?:\s+(?P<heap>\d+) heap bytes)?\s*")
VERSION = re.compile(r"\s*(?:mbed ?TLS|Mbed TLS|mbedTLS) version (?P<version>\d+\.\d+\.\d+)\s*", re.I)
FSYS = re.compile(r"\s*fsys\s*=\s*(?P<hz>\d+)\s*")
_IMPLEMENTATIONS = re.compile(r"\s*Using following implementations:\s*")
_HARNESS = re.compile(r"\s*(?:\{\{[^{}]*\}\}|DONE)\s*")
#: a measured number with a unit: a line with one is either read or reported
_MEASURED = re.compile(rf"{_NUM}\s*(?:[KkMm]i?[Bb]/s|ms/|ns/|cycles/byte|(?:{_TYPES})/s)")
_SKIPPED = re.compile(r"Feature [Nn]ot [Ss]upported\. Skipping\.|FAILED: .*|Error code: .*")

_HASHES = {"MD5", "SHA-1", "SHA-224", "SHA-256", "SHA-384", "SHA-512",
           "SHA3-224", "SHA3-256", "SHA3-384", "SHA3-512"}
_CURVES = {"secp192r1": "P-192", "secp224r1": "P-224", "secp256r1": "P-256", "secp384r1": "P-384",
           "secp521r1": "P-521", "secp192k1": "secp192k1", "secp224k1": "secp224k1", "secp256k1": "secp256k1",
           "brainpoolP256r1": "brainpoolP256r1", "brainpoolP384r1": "brainpoolP384r1",
           "brainpoolP512r1": "brainpoolP512r1"}
_MONTGOMERY = {"curve25519": ("X25519", "Curve25519", 255), "x25519": ("X25519", "Curve25519", 255),
               "curve448": ("X448", "Curve448", 448), "x448": ("X448", "Curve448", 448)}


def looks_like(text: str) -> bool:
    """True if ``text`` has an Mbed TLS benchmark line (any indentation)."""
    for raw in text.splitlines():
        m = TITLE.fullmatch(raw.rstrip())
        if m and (SYM.fullmatch(m["rest"]) or PUBLIC.fullmatch(m["rest"]) or PER_OP.fullmatch(m["rest"])):
            return True
    return False


def _half_ulp(text: str) -> float:
    """Half a unit in the last printed digit of ``text`` (``"17.33"`` -> 0.005, ``"32"`` -> 0.5)."""
    decimals = len(text.partition(".")[2])
    return 0.5 * 10 ** -decimals


def _interval(text: str) -> tuple[float, float]:
    """The values a printed number stands for: ``%lu`` of an integer division truncates
    (``"32"`` -> [32, 33)), ``%.2f`` rounds (``"17.33"`` -> [17.325, 17.335])."""
    value = float(text)
    if "." not in text:
        return value, value + 1
    half = _half_ulp(text)
    return value - half, value + half


@dataclass(frozen=True)
class ClockCheck:
    """The clock the log's own cycles/byte imply, against the stated clock."""

    rows: int
    agree: int
    low_mhz: float
    high_mhz: float
    median_mhz: float
    stated_mhz: float

    def sentence(self) -> str:
        implied = (f"the log's rate x cycles/byte implies a counter clock of {self.low_mhz:.1f}-{self.high_mhz:.1f} "
                   f"MHz (median {self.median_mhz:.1f} MHz over {self.rows} rows, from the printed resolution and "
                   f"{ALARM_TOLERANCE:.0%} for the 1 s alarm)")
        if self.agree == self.rows:
            return f"{implied}; it agrees with the stated {self.stated_mhz:g} MHz on every row"
        if self.agree:
            return (f"{implied}; the stated {self.stated_mhz:g} MHz fits {self.agree} of {self.rows} rows (the others "
                    "imply another clock: their cycles/byte were counted over other calls than the rate)")
        return (f"{implied}; it contradicts the stated {self.stated_mhz:g} MHz on every row: the stated clock is "
                "not the one the log ran at (or the port's hardclock counts another clock)")


def clock_check(rows: list[tuple[str, str]], stated_mhz: float) -> ClockCheck | None:
    """:class:`ClockCheck` of ``(rate KiB/s text, cycles/byte text)`` rows against ``stated_mhz``;
    None without rows."""
    if not rows:
        return None
    ranges = []
    for rate, cpb in rows:
        (r_low, r_high), (c_low, c_high) = _interval(rate), _interval(cpb)
        ranges.append((r_low * c_low * BUFSIZE / 1e6 * (1 - ALARM_TOLERANCE),
                       r_high * c_high * BUFSIZE / 1e6 * (1 + ALARM_TOLERANCE),
                       float(rate) * float(cpb) * BUFSIZE / 1e6))
    agree = sum(1 for low, high, _ in ranges if low <= stated_mhz <= high)
    return ClockCheck(rows=len(ranges), agree=agree, low_mhz=min(r[0] for r in ranges),
                      high_mhz=max(r[1] for r in ranges), median_mhz=median(r[2] for r in ranges),
                      stated_mhz=stated_mhz)


def mbedtls_classify(title: str, kind: str | None) -> dict:
    """Algorithm, mode, operation, key size and curve of an Mbed TLS benchmark title; ``kind``
    is the public-key ``TYPE`` (None for a symmetric line). Raises ``ValueError`` for a title
    refbench does not map."""
    fields: dict = {"mode": None, "key_bits": None, "curve": None}
    if kind is None:
        if title in _HASHES:
            return fields | {"algorithm": title, "operation": "hash"}
        if m := re.fullmatch(r"AES-(CBC|GCM|CCM|CTR|XTS)-(128|192|256)", title):
            return fields | {"algorithm": f"AES-{m[2]}-{m[1]}", "mode": m[1], "key_bits": int(m[2]),
                             "operation": "encrypt"}
        if m := re.fullmatch(r"AES-CMAC-(128|192|256)", title):
            return fields | {"algorithm": f"AES-{m[1]}-CMAC", "mode": "CMAC", "key_bits": int(m[1]),
                             "operation": "mac"}
        simple = {"3DES": ("3DES-CBC", "encrypt", "CBC"), "DES": ("DES-CBC", "encrypt", "CBC"),
                  "ChaCha20": ("ChaCha20", "encrypt", None), "Poly1305": ("Poly1305", "mac", None),
                  "ChaCha20-Poly1305": ("ChaCha20-Poly1305", "encrypt", None)}
        if title in simple:
            algorithm, operation, mode = simple[title]
            return fields | {"algorithm": algorithm, "operation": operation, "mode": mode}
        if m := re.fullmatch(r"CTR_DRBG \((NOPR|PR)\)", title):
            return fields | {"algorithm": "CTR_DRBG", "operation": "generate", "mode": m[1]}
        if m := re.fullmatch(r"HMAC_DRBG (SHA-\d+) \((NOPR|PR)\)", title):
            return fields | {"algorithm": f"HMAC_DRBG-{m[1]}", "operation": "generate", "mode": m[2]}
        raise ValueError(f"Invalid Mbed TLS benchmark title ({title!r}); not one refbench maps")
    if m := re.fullmatch(r"RSA-(\d+)", title):
        if kind in ("public", "private"):
            return fields | {"algorithm": f"RSA-{m[1]}", "operation": kind, "key_bits": int(m[1])}
    if m := re.fullmatch(r"(DHE?)-(\d+)", title):
        if kind == "handshake":
            return fields | {"algorithm": f"DH-{m[2]}", "key_bits": int(m[2]),
                             "operation": "keygen+agree" if m[1] == "DHE" else "agree"}
    if m := re.fullmatch(r"(ECDSA|ECDHE|ECDH)-(\w+)", title):
        kind_name, curve_name = m[1], m[2]
        if curve_name.lower() in _MONTGOMERY and kind_name != "ECDSA":
            algorithm, curve, bits = _MONTGOMERY[curve_name.lower()]
        elif curve_name in _CURVES:
            curve = _CURVES[curve_name]
            bits = int(re.search(r"\d+", curve_name)[0])
            algorithm = f"{'ECDSA' if kind_name == 'ECDSA' else 'ECDH'}-{curve.replace('-', '')}"
        else:
            raise ValueError(f"Invalid Mbed TLS benchmark curve ({curve_name!r}) in title {title!r}")
        operation = {("ECDSA", "sign"): "sign", ("ECDSA", "verify"): "verify",
                     ("ECDHE", "handshake"): "keygen+agree", ("ECDH", "handshake"): "agree",
                     ("ECDHE", "full handshake"): "full handshake (both sides)"}.get((kind_name, kind))
        if operation:
            return fields | {"algorithm": algorithm, "operation": operation, "key_bits": bits, "curve": curve}
    raise ValueError(f"Invalid Mbed TLS benchmark title ({title!r}) with {kind!r}/s; not one refbench maps")


@dataclass
class _Banner:
    """What the lines that carry no figure said: version, fsys, implementation lines."""

    version: str | None = None
    fsys_hz: int | None = None
    implementations: list[str] | None = None


def _banner_line(text: str, banner: _Banner) -> bool:
    """True if ``text`` is a banner or harness line (recorded in ``banner``)."""
    if m := VERSION.fullmatch(text):
        banner.version = m["version"]
    elif m := FSYS.fullmatch(text):
        banner.fsys_hz = int(m["hz"])
    elif _IMPLEMENTATIONS.fullmatch(text):
        banner.implementations = []
    elif banner.implementations is not None and (m := TITLE.fullmatch(text)) and not _MEASURED.search(text):
        banner.implementations.append(f"{m['title']}: {m['rest'].strip()}")
    elif not _HARNESS.fullmatch(text):
        return False
    return True


def _build_notes(banner: _Banner, assumptions: Assumptions, placement: Placement,
                 clock_rows: list[tuple[str, str]]) -> tuple[str, str]:
    """The version of the figures and the notes every figure carries."""
    if assumptions.version:
        version = assumptions.version
        note = f"Mbed TLS version {version} given" + (
            f" (the log prints {banner.version})" if banner.version and banner.version != version else "")
    elif banner.version:
        version, note = banner.version, f"Mbed TLS version {banner.version} printed by the log"
    else:
        version, note = "not stated", "Mbed TLS version not stated (the benchmark prints none)"
    notes = [note]
    if banner.fsys_hz:
        fsys = banner.fsys_hz / 1e6
        same = abs(fsys - placement.clock_mhz) <= 0.005 * fsys
        notes.append(f"the log prints fsys={banner.fsys_hz} ({fsys:.3f} MHz), "
                     + ("the stated clock" if same else f"not the stated {placement.clock_mhz:g} MHz"))
    if banner.implementations:
        notes.append("the log's implementations: " + "; ".join(banner.implementations))
    check = clock_check(clock_rows, placement.clock_mhz)
    if check and check.agree < check.rows:
        # a finding about the stated clock: first, so every finding on these figures states it with
        # the assumptions (refbench.inputs.assumptions.described_assumptions)
        notes.insert(0, check.sentence())
    elif check:
        notes.append(check.sentence())
    return version, "; ".join(notes)


def read_mbedtls(lines: list[Line], *, assumptions: Assumptions, placement: Placement
                 ) -> tuple[list[Figure], list[Problem]]:
    """Figures and problems of an Mbed TLS ``benchmark`` log (see the module docstring)."""
    problems: list[Problem] = []
    banner = _Banner()
    rows: list[tuple[Line, str, dict, re.Match[str]]] = []
    for line in lines:
        text = line.text.rstrip()
        if not text.strip() or _banner_line(text, banner):
            continue
        m = TITLE.fullmatch(text)
        if not m:
            if _MEASURED.search(text) or re.search(r"/s\b", text):
                problems.append(line.problem("not an Mbed TLS benchmark line (expected '<title> :  <result>', "
                                             "benchmark.c HEADER_FORMAT)"))
            continue
        title, rest = m["title"], m["rest"].strip()
        if _SKIPPED.fullmatch(rest):
            problems.append(line.problem(f"the benchmark measured nothing for {title!r} ({rest})"))
            continue
        match = SYM.fullmatch(rest) or PUBLIC.fullmatch(rest) or PER_OP.fullmatch(rest)
        if not match:
            why = ("PolarSSL-era 'Kb/s' line: not read (Mbed TLS prints KiB/s)" if " Kb/s" in rest else
                   "not an Mbed TLS TIME_AND_TSC ('<rate> KiB/s[,  <n> cycles/byte]') or TIME_PUBLIC "
                   "('<n> <type>/s', '<n> ms/<type>') result")
            problems.append(line.problem(why))
            continue
        kind = None if match.re is SYM else match["type"]
        try:
            fields = mbedtls_classify(title, kind)
        except ValueError as exc:
            problems.append(line.problem(f"unknown algorithm: {exc}"))
            continue
        rows.append((line, title, fields, match))
    clock_rows = [(m["kib"], m["cpb"]) for _, _, _, m in rows if m.re is SYM and m["cpb"] and float(m["kib"]) > 0]
    version, notes = _build_notes(banner, assumptions, placement, clock_rows)
    figures: list[Figure] = []
    for line, title, fields, match in rows:
        result = _figure(line, title, fields, match, assumptions, placement, version, notes)
        (figures if isinstance(result, Figure) else problems).append(result)
    return figures, sorted(problems, key=lambda p: p.line)


def _figure(line: Line, title: str, fields: dict, m: re.Match[str], assumptions: Assumptions, placement: Placement,
            version: str, notes: str) -> Figure | Problem:
    common = dict(line=line, placement=placement, assumptions=assumptions,
                  section=f"{line.file}: Mbed TLS benchmark", label=title, library=LIBRARY, version=version,
                  fields=fields)
    heap = f"; {m['heap']} heap bytes" if "heap" in m.groupdict() and m["heap"] else ""
    if m.re is SYM:
        if float(m["kib"]) == 0:
            return line.problem(f"0 {m['unit']} printed: below the printed resolution, too coarse to judge")
        label = ("'KB/s' read as 1024 bytes (the benchmark divides by 1024 under every label)"
                 if m["unit"] == "KB/s" else "KiB/s")
        cpb = (f"the benchmark's own {m['cpb']} cycles/byte (mbedtls_timing_hardclock)" if m["cpb"]
               else "no cycles/byte printed")
        return build_figure(metric="throughput", value=float(m["kib"]), unit="KiB/s", text=m["kib"],
                            block_bytes=BUFSIZE,
                            notes=f"{notes}; {label} over a 1 s alarm (TIME_AND_TSC), printed to "
                                  f"{_half_ulp(m['kib']) * 2:g} KiB/s; {cpb}", **common)
    if m.re is PER_OP:
        if float(m["ms"]) == 0:
            return line.problem("0 ms per operation printed: below the printed resolution (1 ms), too coarse to "
                                "judge")
        return build_figure(metric="time_per_op", value=float(m["ms"]), unit="ms", text=m["ms"],
                            notes=f"{notes}; milliseconds per operation (mbed example TIME_PUBLIC 'ms/{m['type']}'), "
                                  f"printed to {_half_ulp(m['ms']) * 2:g} ms{heap}", **common)
    if float(m["rate"]) == 0:
        return line.problem("0 operations per second (fewer than 3 in the 3 s alarm, integer division ii / 3): "
                            "too coarse to judge")
    return build_figure(metric="ops_per_s", value=float(m["rate"]), unit="ops/s", text=m["rate"],
                        notes=f"{notes}; operations per second over a 3 s alarm (TIME_PUBLIC), printed to "
                              f"{_half_ulp(m['rate']) * 2:g} ops/s{heap}", **common)
