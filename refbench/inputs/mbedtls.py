"""Read the raw output of Mbed TLS's ``benchmark`` program (``programs/test/benchmark.c``).

Formats, from Mbed-TLS/mbedtls ``programs/test/benchmark.c`` (2.x, e.g. 2.16 and 2.28, and
3.x share them):

* Every line starts with ``HEADER_FORMAT`` = ``"  %-24s :  "`` (the title).
* Symmetric and hash lines, macro ``TIME_AND_TSC``:
  ``"%9lu KiB/s,  %9lu cycles/byte\\n"`` with ``ii * BUFSIZE / 1024`` (``BUFSIZE`` 1024: the
  number of 1024-byte buffers processed in a 1 s alarm) and the cycles of 1024 more buffers
  counted by ``mbedtls_timing_hardclock()`` per byte. ``KiB`` is 1024 bytes; the cycles/byte
  count comes from whatever counter the port's ``mbedtls_timing_hardclock`` reads, so it is
  kept in the figure's notes, not judged.
* Public-key lines, macro ``TIME_PUBLIC(TITLE, TYPE, CODE)``: ``"%6lu " TYPE "/s"`` with
  ``ii / 3`` (operations in a 3 s alarm, integer division), optionally followed by
  ``"%6u heap bytes"`` (``MBEDTLS_MEMORY_DEBUG``). ``TYPE`` is ``" public"``/``"private"``
  (titles ``RSA-%d``), ``"handshake"`` (``DHE-%d``: make_public + calc_secret; ``DH-%d``:
  calc_secret; ``ECDHE-<curve>``: make_public + calc_secret; ``ECDH-<curve>``: calc_secret),
  ``"sign"``/``"verify"`` (``ECDSA-<curve>``) and ``"full handshake"`` (``ECDHE-<curve>``,
  both sides).
* ``"Feature not supported. Skipping."`` and ``"FAILED: ..."`` follow a title when no figure
  was measured; they are reported. PolarSSL's older ``"%9lu Kb/s"`` lines are reported too.

Mbed TLS prints no version: the figure's version is the one given, or ``not stated``.
"""

from __future__ import annotations

import re

from refbench.inputs.assumptions import Assumptions, Placement
from refbench.inputs.records import Line, Problem, build_figure
from refbench.published.model import Figure

LIBRARY = "Mbed TLS"
BUFSIZE = 1024
TITLE = re.compile(r"  (?P<title>\S.*?)\s*:  (?P<rest>.*)")
SYM = re.compile(r"\s*(?P<kib>\d+) KiB/s,\s+(?P<cpb>\d+) cycles/byte\s*")
PUBLIC = re.compile(r"\s*(?P<rate>\d+)\s+(?P<type>public|private|handshake|full handshake|sign|verify)/s"
                    r"(?:\s+(?P<heap>\d+) heap bytes)?\s*")
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
    """True if ``text`` has an Mbed TLS benchmark line."""
    for raw in text.splitlines():
        m = TITLE.fullmatch(raw.rstrip())
        if m and (SYM.fullmatch(m["rest"]) or PUBLIC.fullmatch(m["rest"])):
            return True
    return False


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


def read_mbedtls(lines: list[Line], *, assumptions: Assumptions, placement: Placement
                 ) -> tuple[list[Figure], list[Problem]]:
    """Figures and problems of an Mbed TLS ``benchmark`` log (see the module docstring)."""
    figures: list[Figure] = []
    problems: list[Problem] = []
    version = assumptions.version or "not stated"
    version_note = "Mbed TLS version given (the benchmark prints none)" if assumptions.version else \
        "Mbed TLS version not stated (the benchmark prints none)"
    for line in lines:
        m = TITLE.fullmatch(line.text.rstrip())
        if not m:
            if re.search(r"/s\b", line.text):
                problems.append(line.problem("not an Mbed TLS benchmark line (expected '  <title> :  ' first, "
                                             "benchmark.c HEADER_FORMAT)"))
            continue
        title, rest = m["title"], m["rest"].strip()
        if _SKIPPED.fullmatch(rest):
            problems.append(line.problem(f"the benchmark measured nothing for {title!r} ({rest})"))
            continue
        sym, public = SYM.fullmatch(rest), PUBLIC.fullmatch(rest)
        if not (sym or public):
            why = ("PolarSSL-era 'Kb/s' line: not read (Mbed TLS prints KiB/s)" if " Kb/s" in rest else
                   "not an Mbed TLS TIME_AND_TSC ('%9lu KiB/s,  %9lu cycles/byte') or TIME_PUBLIC "
                   "('%6lu <type>/s') result")
            problems.append(line.problem(why))
            continue
        try:
            fields = mbedtls_classify(title, public["type"] if public else None)
        except ValueError as exc:
            problems.append(line.problem(f"unknown algorithm: {exc}"))
            continue
        common = dict(line=line, placement=placement, assumptions=assumptions,
                      section=f"{line.file}: Mbed TLS benchmark", label=title, library=LIBRARY, version=version,
                      fields=fields)
        if sym:
            figures.append(build_figure(
                metric="throughput", value=float(sym["kib"]), unit="KiB/s", text=sym["kib"], block_bytes=BUFSIZE,
                notes=f"{version_note}; integer KiB/s over a 1 s alarm (TIME_AND_TSC); the benchmark's own "
                      f"{sym['cpb']} cycles/byte (mbedtls_timing_hardclock, port-defined counter) not judged",
                **common))
        elif int(public["rate"]) == 0:
            problems.append(line.problem("0 operations per second (fewer than 3 in the 3 s alarm, integer "
                                         "division ii / 3): too coarse to judge"))
        else:
            heap = f"; {public['heap']} heap bytes" if public["heap"] else ""
            figures.append(build_figure(
                metric="ops_per_s", value=float(public["rate"]), unit="ops/s", text=public["rate"],
                notes=f"{version_note}; integer operations per second over a 3 s alarm (TIME_PUBLIC){heap}",
                **common))
    return figures, problems
