"""Transcribe the five published benchmark pages (``seeds/``) into ``figures.json``.

Run ``python -m refbench.published.transcribe`` to regenerate the data file; run
``python -m refbench.published.transcribe --check`` to confirm the file on disk is what
the seeds give. The script is kept so that every figure's origin can be re-derived:
each figure keeps the seed file name, the section/table, the original row text and
its character offset in the seed, and the exact text of every number.

Quirks of the seeds handled here (see ``seeds/README`` in the shared folder):

* ``000`` (wolfSSL) lost its line breaks: the whole page is one line. Rows are
  recognised by the benchmark tool's own output format
  (``<name> <n> <unit> took <s> seconds, <rate> <unit>/s`` and
  ``<name> <n> ops took <s> sec, avg <ms> ms, <ops/s> ops/sec``).
* ``001``/``003``/``004`` (CycloneCRYPTO) lost their column separators: a row is
  ``<algorithm><value> MB/s<value> MB/s...`` with ``-`` for an empty cell. Algorithm
  names that end in a digit (``SHA-224``, ``MD5``) are split from the number by a list
  of the names the pages use.
* ``002`` (ST CMOX wiki) writes thousands with a space (``11 270``) and leaves four
  digit numbers unseparated (``3712``). In one footprint table the code size has no
  unit (``SHA256 1358 280 bytes``: code 1358, constant data 280).
"""

from __future__ import annotations

import argparse
import itertools
import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

PACKAGE_DIR = Path(__file__).resolve().parent
SEEDS_DIR = PACKAGE_DIR / "seeds"
FIGURES_PATH = PACKAGE_DIR / "figures.json"

WOLFSSL = "000_950e0926bdf8c114.txt"
CYCLONE_WL33 = "001_9657ad2345ba06fe.txt"
CMOX_WL55 = "002_5291703a875d4f7f.txt"
CYCLONE_F756 = "003_370dc4a6b790accc.txt"
CYCLONE_U385 = "004_ce9b801e91a00a6b.txt"
SOURCE_FILES = (WOLFSSL, CYCLONE_WL33, CMOX_WL55, CYCLONE_F756, CYCLONE_U385)


def read_seed(name: str) -> str:
    return (SEEDS_DIR / name).read_text(encoding="utf-8")


def number(text: str) -> float:
    """The value of a number as printed in a seed (``11 270`` -> 11270.0)."""
    return float(text.replace(" ", ""))


def aux(metric: str, text: str, unit: str) -> dict[str, Any]:
    return {"metric": metric, "value": number(text), "unit": unit, "text": text}


@dataclass
class Context:
    """What every figure of one benchmark block shares."""

    source: str
    board: str | None
    part: str
    core: str
    clock_mhz: float
    library: str
    version: str
    compiler: str
    options: str
    config: str
    math: str | None = None
    asm: str | None = None
    cache: str | None = None
    notes: str | None = None

    def figure(self, **fields: Any) -> dict[str, Any]:
        base = {
            "source": self.source,
            "board": self.board,
            "part": self.part,
            "core": self.core,
            "clock_mhz": self.clock_mhz,
            "library": self.library,
            "version": self.version,
            "compiler": self.compiler,
            "options": self.options,
            "config": self.config,
            "math": self.math,
            "asm": self.asm,
            "cache": self.cache,
            "notes": self.notes,
        }
        record = dict.fromkeys(FIGURE_FIELDS)
        record.update(base)
        record.update(fields)
        record.setdefault("aux", [])
        if record["aux"] is None:
            record["aux"] = []
        if record["hw"] is None:
            record["hw"] = []
        return record


FIGURE_FIELDS = (
    "id", "source", "section", "row", "offset", "label",
    "board", "part", "core", "clock_mhz", "library", "version", "compiler", "options",
    "config", "hw", "implementation", "math", "asm", "cache", "notes", "variant",
    "algorithm", "mode", "operation", "key_bits", "curve",
    "message_bytes", "chunk_bytes", "block_bytes",
    "metric", "value", "unit", "text", "aux",
)


# --------------------------------------------------------------------------------------
# wolfSSL (000)
# --------------------------------------------------------------------------------------

_WOLF_SYM = re.compile(
    r"(?P<amount>\d+) (?P<amount_unit>KB|MB|KiB|MiB) took (?P<seconds>\d+\.\d+) seconds, "
    r"(?P<rate>\d+\.\d+) (?P<rate_unit>KB|MB|KiB|MiB)/s"
)
_WOLF_ASYM = re.compile(
    r"(?P<ops>\d+) ops took (?P<op_seconds>\d+\.\d+) sec, avg (?P<avg>\d+\.\d+) ms, "
    r"(?P<ops_per_s>\d+\.\d+) ops/sec"
)
_WOLF_ROW = re.compile(f"(?:{_WOLF_SYM.pattern})|(?:{_WOLF_ASYM.pattern})")
_WOLF_HEADER_END = "min 1.0 sec each)"


def wolfssl_hw(config: str, board_note: str) -> set[str]:
    """What the page claims is accelerated for one configuration.

    The configuration title says which peripherals are used (``STM Crypto/Hash
    Acceleration``, ``STM PKA only``, ``No HW Crypto``); the board heading says what they
    cover (``Supports RNG, AES-CBC/GCM and SHA-256 acceleration``). A claim is the pair:
    e.g. ``AES:CBC``, ``AES:GCM``, ``HASH:SHA-256``, ``PKA:ECC``, ``RNG``.

    A section that names the PKA was built with ``WOLFSSL_STM32_PKA``, and which ECC operations
    that option computes on the PKA is the library's source, not a build note. Signing and
    verification always; key generation and shared secrets too unless SP ECC code takes P-256
    first (ecc.c checks WOLFSSL_HAVE_SP_ECC before the generic path: 5.3.0 :4323, :4891; 4.4.1
    :3634, :4255), which a FastMath section has not -- a section claiming both SP math and the PKA
    keeps the page's claim here, and the code-path rule compares its figures with the software
    sections'. The option compiles out ecc.c's own point multiplication (wolfSSL/wolfssl 29401334d312c5530ff24f97e60e3e83c47ab0bc
    (5.3.0, in boicotinho/wolfssl_clone) wolfcrypt/src/ecc.c:2615-3612 "#if !defined(FREESCALE_LTC_ECC) &&
    !defined(WOLFSSL_STM32_PKA)"), so key generation (ecc_make_pub_ex, :4940) and shared secrets
    (wc_ecc_shared_secret_gen_sync, :4399) call wolfcrypt/src/port/st/stm32.c's wc_ecc_mulmod_ex2 ->
    wc_ecc_mulmod_ex -> HAL_PKA_ECCMul (:724, :646, :701), and signing and verification call
    stm32_ecc_sign_hash_ex / stm32_ecc_verify_hash_ex (ecc.c :5934, :7563; HAL_PKA_ECDSASign :879,
    HAL_PKA_ECDSAVerif :805); the same at 4.4.1 (19fba3648cbfe7be47bd6d4c0756159b90335b11 stm32.c :650,
    :706) and 5.7.0 (byan-2/wolfssl 6021e6b6ead29c8666d1b1a41d81ee7e4dc27da6 stm32.c :693, :772; ecc.c
    :2859-3970), which bracket the page's 5.3.1 and 5.6.x (not readable: the stored wolfSSL/wolfssl snapshot
    is beyond the fetch limit). The U585 section's "Only the ECC sign and verify are currently being accelerated by
    PKA." (written with the U5 PKA support, wolfSSL/wolfssl pull request #5258) therefore does not
    narrow the claim: notes.toml keeps it as the page's statement, and the peripheral rule quotes it.
    """
    title = config.lower()
    heading_m = re.search(r"Supports (.+?) acceleration", board_note)
    heading = heading_m[1] if heading_m else ""
    claims: set[str] = set()
    if "hw rng on for all tests" in board_note.lower():
        claims.add("RNG")
    if "no hw crypto" in title or "no stm hw crypto" in title:
        return claims
    if re.search(r"aes|crypto/hash|symmetric", title):
        modes = set(re.findall(r"\b(CBC|GCM)\b", heading)) or {"CBC"}
        claims |= {f"AES:{m}" for m in modes}
    if re.search(r"hash|sha", title):
        if re.search(r"SHA-2\b", heading):
            claims |= {f"HASH:{h}" for h in ("SHA-224", "SHA-256", "SHA-384", "SHA-512")}
        for h in re.findall(r"SHA-(1|224|256)\b", heading):
            claims.add(f"HASH:SHA-{h}")
    if "pka" in title:
        claims.add("PKA:ECC")
    return claims


def wolfssl_figure_hw(claims: set[str], algorithm: str, mode: str | None) -> list[str]:
    """Peripherals (datasheet function names) the page claims for this one figure."""
    used = set()
    if "RNG" in claims and algorithm == "RNG":
        used.add("RNG")
    if algorithm.startswith("AES-") and mode and f"AES:{mode.split(' ')[0]}" in claims:
        used.add("AES")
    # GMAC is GCM's authentication (NIST SP 800-38D section 3: GCM with no plaintext): in a section
    # that claims AES-GCM acceleration its rows ("GMAC Small", "GMAC Table 4-bit") name the build's
    # GHASH option, and the page claims the GCM peripheral for them as for the GCM rows.
    if algorithm == "GMAC" and "AES:GCM" in claims:
        used.add("AES")
    base = algorithm.removeprefix("HMAC-")
    if f"HASH:{base}" in claims:
        used.add("HASH")
    if "PKA:ECC" in claims and algorithm.startswith(("ECC-", "ECDH-", "ECDSA-")):
        used.add("PKA")
    return sorted(used)


def wolfssl_math(config: str, options_text: str) -> tuple[str | None, str | None]:
    title = config + " " + options_text
    math: str | None = None
    if "FastMath" in title or "Fast Math" in title:
        math = "fastmath (tfm.c)"
    elif "SP Math All" in title or "WOLFSSL_SP_MATH_ALL" in title:
        math = "sp_int.c (SP math all)"
    elif "SP Math C32" in title:
        math = "SP math, C 32-bit"
    elif re.search(r"SP-ASM|SP Math ASM|SP_ARM_CORTEX_M_ASM", title):
        math = "SP math, Cortex-M assembly" + (" (small)" if re.search(r"[Ss]mall|SP_SMALL", title) else "")
    elif "WOLFSSL_SP_ARM_THUMB_ASM" in title:
        small = "WOLFSSL_SP_SMALL" in title and "Without `WOLFSSL_SP_SMALL`" not in title
        math = "SP math, Thumb assembly" + (" (WOLFSSL_SP_SMALL)" if small else " (without WOLFSSL_SP_SMALL)")
    asm: str | None = None
    if "WOLFSSL_NO_ASM" in title or "NO ASM" in title:
        asm = "none (WOLFSSL_NO_ASM)"
    elif "WOLFSSL_ARMASM" in title or "ARM ASM" in title:
        asm = "WOLFSSL_ARMASM (Thumb-2 assembly for AES/SHA, no HW crypto instructions)"
    return math, asm


def wolfssl_classify(name: str) -> dict[str, Any]:
    """Algorithm, mode, operation and key size of a wolfCrypt benchmark row name."""
    fields: dict[str, Any] = {"mode": None, "key_bits": None, "curve": None}
    m = re.fullmatch(r"AES-(128|192|256)-(CBC|GCM)-(enc|dec)(-no_AAD)?", name)
    if m:
        fields.update(
            algorithm=f"AES-{m[1]}-{m[2]}", mode=m[2] + (" (no AAD)" if m[4] else ""),
            operation="encrypt" if m[3] == "enc" else "decrypt", key_bits=int(m[1]),
        )
        return fields
    simple = {
        "RNG": ("RNG", "generate"), "CHACHA": ("ChaCha20", "encrypt"),
        "CHA-POLY": ("ChaCha20-Poly1305", "encrypt"), "POLY1305": ("Poly1305", "mac"),
        "3DES": ("3DES-CBC", "encrypt"), "MD5": ("MD5", "hash"), "SHA": ("SHA-1", "hash"),
        "HMAC-MD5": ("HMAC-MD5", "mac"), "HMAC-SHA": ("HMAC-SHA-1", "mac"),
        "GMAC Table 4-bit": ("GMAC", "mac"), "GMAC Small": ("GMAC", "mac"),
    }
    if name in simple:
        fields.update(algorithm=simple[name][0], operation=simple[name][1])
        if name.startswith("GMAC"):
            fields["mode"] = name[5:]
        if name == "3DES":
            fields["mode"] = "CBC"
        return fields
    m = re.fullmatch(r"SHA-(224|256|384|512|512/224|512/256)", name)
    if m:
        fields.update(algorithm=name, operation="hash")
        return fields
    m = re.fullmatch(r"HMAC-SHA(224|256|384|512)", name)
    if m:
        fields.update(algorithm=f"HMAC-SHA-{m[1]}", operation="mac")
        return fields
    m = re.fullmatch(r"RSA (\d+) (public|private)", name)
    if m:
        fields.update(algorithm=f"RSA-{m[1]}", operation=m[2], key_bits=int(m[1]))
        return fields
    m = re.fullmatch(r"DH (\d+) (key gen|agree)", name)
    if m:
        fields.update(algorithm=f"DH-{m[1]}", operation="keygen" if m[2] == "key gen" else "agree",
                      key_bits=int(m[1]))
        return fields
    m = re.fullmatch(r"(ECC|ECDHE|ECDSA) (?:\[ SECP(\d+)R1\] )?(\d+) (key gen|agree|sign|verify)", name)
    if m:
        bits = int(m[3])
        curve = f"P-{bits}"
        kind = {"ECC": "ECC", "ECDHE": "ECDH", "ECDSA": "ECDSA"}[m[1]]
        op = {"key gen": "keygen"}.get(m[4], m[4])
        fields.update(algorithm=f"{kind}-{curve.replace('-', '')}", operation=op, key_bits=bits, curve=curve)
        return fields
    m = re.fullmatch(r"(CURVE|ED) 25519 (key gen|agree|sign|verify)", name)
    if m:
        kind = "X25519" if m[1] == "CURVE" else "Ed25519"
        op = {"key gen": "keygen"}.get(m[2], m[2])
        fields.update(algorithm=kind, operation=op, key_bits=255, curve="Curve25519")
        return fields
    raise ValueError(f"Invalid wolfCrypt benchmark row name ({name!r}); not a name this page uses")


def _balanced_end(text: str, open_at: int) -> int:
    """Index just after the parenthesis that closes the one at ``open_at``."""
    depth = 0
    for k in range(open_at, len(text)):
        depth += {"(": 1, ")": -1}.get(text[k], 0)
        if depth == 0:
            return k + 1
    raise ValueError(f"Invalid configuration title ({text[:80]!r}); unbalanced parentheses")


def transcribe_wolfssl() -> list[dict[str, Any]]:
    text = read_seed(WOLFSSL)
    figures: list[dict[str, Any]] = []
    boards = [m.start() for m in re.finditer(r"## (?=STM32)", text) if text[m.start() - 1] != "#"]
    boards.append(len(text))
    for b_start, b_end in itertools.pairwise(boards):
        board_text = text[b_start:b_end]
        first_config = board_text.find("### ")
        board_note = board_text[: first_config if first_config >= 0 else len(board_text)]
        part = re.match(r"## (STM32\w+)", board_note)[1]
        cpu = re.search(r"Cortex[- ](M\d+\+?) at (?:up to )?(\d+) ?MHz", board_note)
        board_m = re.search(r"Board: (.+?) CPU:", board_note)
        compiler_m = re.search(r"Compiler: (\S+) with (-O\w)", board_note)
        configs = [m.start() for m in re.finditer(r"### ", board_text)] + [len(board_text)]
        for c_start, c_end in itertools.pairwise(configs):
            section = board_text[c_start:c_end]
            title_end = _balanced_end(section, section.index("("))
            title = section[4:title_end]
            blocks = [m.start() for m in re.finditer(r"```", section)]
            version = None
            block_index = 0
            build_notes = ""
            for i in range(len(blocks) - 1):
                body = section[blocks[i] + 3: blocks[i + 1]]
                if "took" not in body:
                    continue
                config = title
                if block_index == 0:
                    # build notes: the text between the title and the first benchmark block
                    build_notes = section[title_end: blocks[i]]
                    prior = build_notes
                else:
                    # a later block of the same section: its lead-in text names the change
                    lead = section[blocks[i - 1] + 3: blocks[i]].strip()
                    config = f"{title} {lead}".strip()
                    prior = f"{build_notes} {lead}"
                v = re.search(r"wolfSSL version (\d+\.\d+\.\d+)", body)
                if v:
                    version = v[1]
                block_index += 1
                options_m = re.search(r"(-O[0-3s])", title) or (compiler_m and re.search(r"(-O\w)", compiler_m[0]))
                math, asm = wolfssl_math(config, prior)
                cache = None
                if "SCB_EnableICache" in prior and "SCB_EnableDCache" in prior:
                    cache = "I-cache and D-cache enabled (SCB_EnableICache/SCB_EnableDCache)"
                notes = " ".join(prior.replace("```c", " ").replace("```", " ").split()) or None
                ctx = Context(
                    source=WOLFSSL,
                    board=board_m[1] if board_m else None,
                    part=part,
                    core=f"Cortex-{cpu[1]}",
                    clock_mhz=float(cpu[2]),
                    library="wolfSSL",
                    version=version,
                    compiler="GCC (STM32CubeIDE)",
                    options=options_m[1] if options_m else "not stated",
                    config=config,
                    math=math, asm=asm, cache=cache, notes=notes,
                )
                hw_claim = wolfssl_hw(title, board_note)
                body_offset = b_start + c_start + blocks[i] + 3
                header_end = body.find(_WOLF_HEADER_END)
                cursor = header_end + len(_WOLF_HEADER_END) if header_end >= 0 else 0
                for m in _WOLF_ROW.finditer(body, cursor):
                    name = body[cursor: m.start()].strip()
                    row_start = cursor + (len(body[cursor: m.start()]) - len(body[cursor: m.start()].lstrip()))
                    row = body[row_start: m.end()]
                    cursor = m.end()
                    fields = wolfssl_classify(name)
                    algorithm = fields["algorithm"]
                    hw = wolfssl_figure_hw(hw_claim, algorithm, fields["mode"])
                    common = dict(
                        section=f"{part} / {config}", row=row, offset=body_offset + row_start,
                        label=name, hw=hw,
                        implementation="hardware" if hw else "software", block_bytes=1024,
                        **fields,
                    )
                    if m["rate"] is not None:
                        figures.append(ctx.figure(
                            metric="throughput", value=number(m["rate"]), unit=m["rate_unit"] + "/s",
                            text=m["rate"],
                            aux=[aux("amount", m["amount"], m["amount_unit"]),
                                 aux("duration", m["seconds"], "s")],
                            **common,
                        ))
                    else:
                        figures.append(ctx.figure(
                            metric="time_per_op", value=number(m["avg"]), unit="ms", text=m["avg"],
                            aux=[aux("ops", m["ops"], "ops"), aux("duration", m["op_seconds"], "s"),
                                 aux("ops_per_s", m["ops_per_s"], "ops/s")],
                            **common,
                        ))
    return figures


# --------------------------------------------------------------------------------------
# CycloneCRYPTO (001, 003, 004)
# --------------------------------------------------------------------------------------

CYCLONE_NAMES = (
    "3DES-CBC", "3DES-CTR", "AES128-CBC", "AES192-CBC", "AES256-CBC", "AES128-CTR", "AES192-CTR",
    "AES256-CTR", "SM4-CBC", "SM4-CTR", "AES128-GCM", "AES192-GCM", "AES256-GCM", "AES128-CCM",
    "AES192-CCM", "AES256-CCM", "SM4-GCM", "SM4-CCM", "Ascon-AEAD128", "ChaCha20Poly1305", "MD5",
    "SHA-1", "SHA-224", "SHA-256", "SHA-384", "SHA-512", "SHA3-224", "SHA3-256", "SHA3-384",
    "SHA3-512", "SM3", "Ascon-Hash256", "SM2",
)
_CYCLONE_COLUMN = re.compile(
    r"(Encryption|Decryption|Speed|Generation|Verification|Public Key Generation|Shared Secret Computation)"
    r"\n\((Software|Hardware)\)"
)
_CYCLONE_CELL = re.compile(r"(\d+(?:\.\d+)?) (MB/s|ms)|-")
_CURVES = {
    "secp256r1": ("P-256", 256), "secp384r1": ("P-384", 384), "secp521r1": ("P-521", 521),
    "brainpoolP256r1": ("brainpoolP256r1", 256), "brainpoolP384r1": ("brainpoolP384r1", 384),
    "brainpoolP512r1": ("brainpoolP512r1", 512), "SM2": ("SM2", 256), "X25519": ("Curve25519", 255),
    "X448": ("Curve448", 448), "Ed25519": ("Edwards25519", 255), "Ed448": ("Edwards448", 448),
}


def cyclone_classify(label: str, column: str) -> dict[str, Any]:
    fields: dict[str, Any] = {"mode": None, "key_bits": None, "curve": None}
    op_map = {"Encryption": "encrypt", "Decryption": "decrypt", "Speed": "hash",
              "Generation": "sign", "Verification": "verify",
              "Public Key Generation": "keygen", "Shared Secret Computation": "agree"}
    op = op_map[column]
    m = re.fullmatch(r"AES(128|192|256)-(CBC|CTR|GCM|CCM)", label)
    if m:
        fields.update(algorithm=f"AES-{m[1]}-{m[2]}", mode=m[2], key_bits=int(m[1]), operation=op)
        return fields
    m = re.fullmatch(r"(3DES|SM4)-(CBC|CTR|GCM|CCM)", label)
    if m:
        fields.update(algorithm=label, mode=m[2], key_bits=168 if m[1] == "3DES" else 128, operation=op)
        return fields
    if label in ("Ascon-AEAD128", "ChaCha20Poly1305"):
        fields.update(algorithm="ChaCha20-Poly1305" if label.startswith("ChaCha") else label, operation=op)
        return fields
    if label in ("MD5", "SHA-1", "SHA-224", "SHA-256", "SHA-384", "SHA-512", "SHA3-224", "SHA3-256",
                 "SHA3-384", "SHA3-512", "SM3", "Ascon-Hash256"):
        fields.update(algorithm=label, operation="hash")
        return fields
    m = re.fullmatch(r"(RSA|DSA|Diffie-Hellman) \((\d+) bits\)", label)
    if m:
        kind = {"Diffie-Hellman": "DH"}.get(m[1], m[1])
        fields.update(algorithm=f"{kind}-{m[2]}", key_bits=int(m[2]), operation=op)
        return fields
    m = re.fullmatch(r"(ECDSA|ECDH|EdDSA) \((\w+)\)", label)
    if m:
        curve, bits = _CURVES[m[2]]
        kind = m[1]
        algorithm = {"EdDSA": m[2]}.get(kind, f"{kind}-{curve.replace('-', '')}")
        if kind == "ECDH" and m[2] in ("X25519", "X448"):
            algorithm = m[2]
        fields.update(algorithm=algorithm, key_bits=bits, curve=curve, operation=op)
        return fields
    if label == "SM2":
        fields.update(algorithm="SM2-DSA", key_bits=256, curve="SM2", operation=op)
        return fields
    raise ValueError(f"Invalid CycloneCRYPTO row label ({label!r}); not a label these pages use")


def _cyclone_split(row: str) -> tuple[str, str]:
    """Split ``SHA-2240.318 MB/s`` into ``SHA-224`` and ``0.318 MB/s``."""
    if row.startswith(("RSA (", "DSA (", "ECDSA (", "ECDH (", "EdDSA (", "Diffie-Hellman (")):
        close = row.index(")") + 1
        return row[:close], row[close:]
    for name in sorted(CYCLONE_NAMES, key=len, reverse=True):
        if row.startswith(name) and (row[len(name):][:1].isdigit() or row[len(name):][:1] == "-"):
            return name, row[len(name):]
    raise ValueError(f"Invalid CycloneCRYPTO table row ({row!r}); its algorithm name is not known")


def transcribe_cyclone(source: str) -> list[dict[str, Any]]:
    text = read_seed(source)
    board_m = re.search(r"conducted on (\S+) development board with (\S+) MCU", text)
    core_m = re.search(r"ARM Cortex-(M\d+\+?) @ (\d+) MHz", text)
    figures: list[dict[str, Any]] = []
    lines = text.split("\n")
    offsets = []
    pos = 0
    for line in lines:
        offsets.append(pos)
        pos += len(line) + 1
    section = None
    columns: list[tuple[str, str]] = []
    version = compiler = level = None
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.endswith("Algorithms") and not line.startswith(" "):
            section = line.strip()
            columns = []
        v = re.search(r"generated with CycloneCRYPTO ([\d.]+)", line)
        if v:
            version = v[1]
        c = re.search(r"Compiled using (\S+) with optimization level (\d)", line)
        if c:
            compiler, level = c[1], c[2]
        if line.startswith("Algorithm"):
            header_lines = [line]
            while not re.search(r"\((Software|Hardware)\)$", lines[i].strip()):
                i += 1
                header_lines.append(lines[i])
            header = re.sub(r"\s*\t+\s*", "\n", "\n".join(header_lines))
            columns = [(m[1], m[2]) for m in _CYCLONE_COLUMN.finditer(header)]
            i += 1
            continue
        if columns and line and not line.startswith((" ", "STM32")) and section:
            try:
                label, rest = _cyclone_split(line)
            except ValueError:
                i += 1
                continue
            cells = [m for m in _CYCLONE_CELL.finditer(rest)]
            rebuilt = "".join(m[0] for m in cells)
            if rebuilt != rest or len(cells) != len(columns):
                raise ValueError(f"Invalid CycloneCRYPTO row ({line!r}) in {source}: "
                                 f"{len(cells)} cells for {len(columns)} columns")
            ctx = Context(
                source=source, board=board_m[1], part=board_m[2], core=f"Cortex-{core_m[1]}",
                clock_mhz=float(core_m[2]), library="CycloneCRYPTO", version=version,
                compiler=compiler, options=f"-O{level}", config="software and hardware columns",
            )
            for cell, (column, impl) in zip(cells, columns):
                if cell[0] == "-":
                    continue
                fields = cyclone_classify(label, column)
                unit = cell[2]
                figures.append(ctx.figure(
                    section=f"{section} / {column} ({impl})", row=line, offset=offsets[i], label=label,
                    hw=_cyclone_hw(fields["algorithm"]) if impl == "Hardware" else [],
                    implementation=impl.lower(),
                    metric="throughput" if unit == "MB/s" else "time_per_op",
                    value=number(cell[1]), unit=unit, text=cell[1], **fields,
                ))
        i += 1
    return figures


def _cyclone_hw(algorithm: str) -> list[str]:
    if algorithm.startswith(("AES-", "3DES-")):
        return ["AES"] if algorithm.startswith("AES-") else ["DES"]
    if algorithm.startswith(("MD5", "SHA-")):
        return ["HASH"]
    return ["PKA"]


# --------------------------------------------------------------------------------------
# ST CMOX (002)
# --------------------------------------------------------------------------------------

_N = r"\d{1,3}(?: \d{3})+|\d+"


@dataclass(frozen=True)
class CmoxTable:
    header: str
    label: str  # regex for the label columns
    values: tuple[tuple[str, str], ...]  # (metric, unit regex) per numeric column


_CMOX_TABLES = (
    CmoxTable("AES mode Key size Buffer size Cipher operation Configuration Cycles Time",
              r"AES (?P<mode>CBC) (?P<key_bits>\d+) bits (?P<message_bytes>\d+) bytes (?P<operation>Encryption|Decryption) (?P<variant>Small|Fast)",
              (("cycles", ""), ("time_per_op", "µs"))),
    CmoxTable("Cipher operation Configuration Code Constant data Global data Stack usage",
              r"(?P<operation>Encryption|Decryption) (?P<variant>Small|Fast)",
              (("code_bytes", "bytes"), ("constant_bytes", "bytes"), ("global_bytes", "bytes"), ("stack_bytes", "bytes"))),
    CmoxTable("AES mode Key size Message size Chunk size Cipher operation Configuration Cycles Bit rate",
              r"AES (?P<mode>CBC) (?P<key_bits>\d+) bits (?P<message_bytes>\d+) bytes (?P<chunk_bytes>\d+) bytes (?P<operation>Encryption|Decryption) (?P<variant>Small|Fast)",
              (("cycles", ""), ("throughput", "Kbytes/s"))),
    CmoxTable("HASH mode Buffer size Cycles Time",
              r"(?P<hash>SHA256|SHA384) (?P<message_bytes>\d+) bytes",
              (("cycles", ""), ("time_per_op", "µs"))),
    CmoxTable("HASH mode Code Constant data Global data Stack usage",
              r"(?P<hash>SHA256|SHA384)",
              (("code_bytes", "bytes?"), ("constant_bytes", "bytes"), ("global_bytes", "bytes"), ("stack_bytes", "bytes"))),
    CmoxTable("HASH mode Message size Chunk size Cycles Bit rate",
              r"(?P<hash>SHA256|SHA384) (?P<message_bytes>\d+) bytes (?P<chunk_bytes>\d+) bytes",
              (("cycles", ""), ("throughput", "Kbytes/s"))),
    CmoxTable("HASH mode Cycles Time",
              r"(?P<hash>SHA256|SHA384)",
              (("cycles", ""), ("time_per_op", "µs"))),
    CmoxTable("Curve Operation ECC mathematics configuration Curve definition Cycles Time",
              r"(?P<curve>SECP256R1|SECP384R1) (?P<operation>Signature|Verification) (?P<math>Small|Fast|SuperFast) (?P<curve_def>Low|High)",
              (("cycles", ""), ("time_per_op", "ms"))),
    CmoxTable("Curve Operation ECC mathematics configuration Curve definition Code Constant data Global data Stack usage Working buffer",
              r"(?P<curve>SECP256R1|SECP384R1) (?P<operation>Signature|Verification) (?P<math>Small|Fast|SuperFast) (?P<curve_def>Low|High)",
              (("code_bytes", "bytes"), ("constant_bytes", "bytes"), ("global_bytes", "bytes"), ("stack_bytes", "bytes"), ("working_buffer_bytes", "bytes"))),
    CmoxTable("Curve Message size Operation ECC mathematics configuration Curve definition Cycles Time",
              r"(?P<curve>Ed25519) (?P<message_bytes>\d+) bytes (?P<operation>Signature|Verification) (?P<math>Small|SuperFast) (?P<curve_def>OptLow|OptHigh)",
              (("cycles", ""), ("time_per_op", "ms"))),
    CmoxTable("Curve Message size Operation ECC mathematics configuration Curve definition Code Constant data Global data Stack usage Working buffer",
              r"(?P<curve>Ed25519) (?P<message_bytes>\d+) bytes (?P<operation>Signature|Verification) (?P<math>Small|SuperFast) (?P<curve_def>OptLow|OptHigh)",
              (("code_bytes", "bytes"), ("constant_bytes", "bytes"), ("global_bytes", "bytes"), ("stack_bytes", "bytes"), ("working_buffer_bytes", "bytes"))),
    CmoxTable("PKCS#1 Priv. key mod. exp. method Hash method Modulus size Operation RSA mathematics configuration Priv. key mod. exp. implementation Cycles Time",
              r"(?P<pkcs>v2\.2) (?P<crt>CRT|No CRT|n/a) (?P<hash>SHA-256) (?P<modulus>3K) (?P<operation>Signature|Verification) (?P<math>Small|Fast) (?P<modexp>Low|Mid|High|n/a)",
              (("cycles", ""), ("time_per_op", "ms"))),
    CmoxTable("PKCS#1 Priv. key mod. exp. method Hash method Modulus size Operation RSA mathematics configuration Priv. key mod. exp. implementation Code Constant data Global data Stack usage Working buffer",
              r"(?P<pkcs>v2\.2) (?P<crt>CRT|No CRT|n/a) (?P<hash>SHA-256) (?P<modulus>3K) (?P<operation>Signature|Verification) (?P<math>Small|Fast) (?P<modexp>Low|Mid|High|n/a)",
              (("code_bytes", "bytes"), ("constant_bytes", "bytes"), ("global_bytes", "bytes"), ("stack_bytes", "bytes"), ("working_buffer_bytes", "bytes"))),
)


def _cmox_row_regex(table: CmoxTable) -> re.Pattern[str]:
    parts = [f"(?P<label>{table.label})"]
    for k, (_, unit) in enumerate(table.values):
        if unit.endswith("?"):  # the unit is printed in some rows only
            unit_part = f"(?: (?P<u{k}>{unit[:-1]}))?"
        else:
            unit_part = f" (?P<u{k}>{unit})" if unit else ""
        parts.append(f" (?P<v{k}>{_N}){unit_part}")
    return re.compile("".join(parts))


def _cmox_fields(table: CmoxTable, g: dict[str, str], section: str) -> dict[str, Any]:
    fields: dict[str, Any] = {"mode": None, "key_bits": None, "curve": None,
                              "message_bytes": None, "chunk_bytes": None}
    op_map = {"Encryption": "encrypt", "Decryption": "decrypt", "Signature": "sign", "Verification": "verify"}
    if table.header.startswith(("AES mode", "Cipher operation")):
        key_bits = g.get("key_bits")
        fields.update(
            algorithm=f"AES-{key_bits}-CBC" if key_bits else "AES-CBC", mode="CBC",
            key_bits=int(key_bits) if key_bits else None, operation=op_map[g["operation"]],
            variant=g["variant"],
        )
    elif table.header.startswith("HASH mode"):
        name = {"SHA256": "SHA-256", "SHA384": "SHA-384"}[g["hash"]]
        fields.update(algorithm=name, operation="finalize" if table.header == "HASH mode Cycles Time" else "hash",
                      variant=None)
    elif g.get("curve") == "Ed25519":
        fields.update(algorithm="Ed25519", curve="Edwards25519", key_bits=255, operation=op_map[g["operation"]],
                      variant=f"{g['math']} math / {g['curve_def']} curve definition")
    elif table.header.startswith("Curve"):
        curve = {"SECP256R1": "P-256", "SECP384R1": "P-384"}[g["curve"]]
        fields.update(algorithm=f"ECDSA-{curve.replace('-', '')}", curve=curve, key_bits=int(curve[2:]),
                      operation=op_map[g["operation"]],
                      variant=f"{g['math']} math / {g['curve_def']} curve definition")
    else:
        fields.update(algorithm="RSA-3072", key_bits=3072, operation=op_map[g["operation"]],
                      mode=f"PKCS#1 {g['pkcs']} signature with {g['hash']}",
                      variant=f"{g['crt']} / {g['math']} math / {g['modexp']} mod. exp.")
    if g.get("message_bytes"):
        fields["message_bytes"] = int(g["message_bytes"])
    if g.get("chunk_bytes"):
        fields["chunk_bytes"] = int(g["chunk_bytes"])
    if "Sole buffer" in section and fields.get("variant") is not None and table.header.startswith("Cipher"):
        fields["mode"] = "CBC"
    return fields


def transcribe_cmox() -> list[dict[str, Any]]:
    text = read_seed(CMOX_WL55)
    clock = re.search(r"System core clock frequency (\d+) MHz", text)
    latency = re.search(r"Flash latency (\d+) wait states", text)
    part = re.search(r"STM32 MCU (\S+)", text)[1]
    board = re.search(r"\nBoard (.+)\n", text)[1]
    version = re.search(r"Cryptographic library version (\w+)", text)[1]
    compiler = re.search(r"IAR ANSI C/C\+\+ Compiler (V[\d.]+)", text)[1]
    caches = {name: re.search(rf"{name} \(([\w/]+)\) (\d)", text)
              for name in ("Instruction cache", "Data cache", "Prefetch cache")}
    cache = ", ".join(f"{name} ({m[1]}) {'on' if m[2] == '1' else 'off'}" for name, m in caches.items())
    ctx_base = {
        "source": CMOX_WL55, "board": board, "part": part, "core": "Cortex-M4", "clock_mhz": float(clock[1]),
        "library": "ST CMOX (X-CUBE-CRYPTOLIB)", "version": f"{version} (5.0.0)",
        "compiler": f"IAR EWARM, IAR ANSI C/C++ Compiler {compiler}", "options": "High Speed optimisation",
        "cache": f"{cache}; flash latency {latency[1]} wait states",
    }
    figures: list[dict[str, Any]] = []
    lines = text.split("\n")
    pos = 0
    offsets = []
    for line in lines:
        offsets.append(pos)
        pos += len(line) + 1
    headings: list[str] = []
    table: CmoxTable | None = None
    regex: re.Pattern[str] | None = None
    for i, line in enumerate(lines):
        heading = re.match(r"(\d+\.\d+(?:\.\d+)?)\. (.+)", line)
        if heading:
            depth = heading[1].count(".")
            headings = headings[:depth - 1] + [f"{heading[1]}. {heading[2]}"]
            table = None
            continue
        match = next((t for t in _CMOX_TABLES if line == t.header), None)
        if match:
            table, regex = match, _cmox_row_regex(match)
            continue
        if table is None or not line.strip():
            if table is not None and not line.strip():
                table = None
            continue
        m = regex.fullmatch(line)
        if not m:
            raise ValueError(f"Invalid CMOX table row ({line!r}) under {table.header!r}")
        g = {k: v for k, v in m.groupdict().items() if v is not None}
        section = " / ".join(headings)
        fields = _cmox_fields(table, g, section)
        variant = fields.pop("variant", None)
        config = variant or "default"
        ctx = Context(config=config, **ctx_base)
        metrics = [(metric, g[f"v{k}"], g.get(f"u{k}") or ("cycles" if metric == "cycles" else None))
                   for k, (metric, _) in enumerate(table.values)]
        if table.values[0][0] == "cycles":
            (metric, value_text, unit), (aux_metric, aux_text, aux_unit) = metrics
            figures.append(ctx.figure(
                section=section, row=line, offset=offsets[i], label=g["label"], hw=[],
                implementation="software", variant=variant, metric="cycles", value=number(value_text),
                unit="cycles", text=value_text,
                aux=[aux("time" if aux_metric == "time_per_op" else "throughput", aux_text, aux_unit)],
                **fields,
            ))
        else:
            for metric, value_text, unit in metrics:
                figures.append(ctx.figure(
                    section=section, row=line, offset=offsets[i], label=g["label"], hw=[],
                    implementation="software", variant=variant, metric=metric, value=number(value_text),
                    unit="bytes", text=value_text,
                    notes=None if unit == "bytes" else "unit not printed for this cell; table header says bytes",
                    **fields,
                ))
    return figures


# --------------------------------------------------------------------------------------


def transcribe_all() -> list[dict[str, Any]]:
    figures = transcribe_wolfssl() + transcribe_cyclone(CYCLONE_WL33) + transcribe_cmox() \
        + transcribe_cyclone(CYCLONE_F756) + transcribe_cyclone(CYCLONE_U385)
    figures.sort(key=lambda f: (SOURCE_FILES.index(f["source"]), f["offset"]))
    counters: dict[str, int] = {}
    for figure in figures:
        prefix = figure["source"][:3]
        counters[prefix] = counters.get(prefix, 0) + 1
        figure["id"] = f"{prefix}-{counters[prefix]:04d}"
    return [{key: figure[key] for key in FIGURE_FIELDS} for figure in figures]


def render(figures: list[dict[str, Any]]) -> str:
    """One figure per line, so a schema error can name its line."""
    head = (
        '{"schema": "refbench.published.figures/1",\n'
        ' "generated_by": "python -m refbench.published.transcribe",\n'
        ' "sources": "seeds/ (verbatim copies of the five published pages)",\n'
        ' "figures": [\n'
    )
    body = ",\n".join(json.dumps(f, ensure_ascii=False, sort_keys=False) for f in figures)
    return head + body + "\n]}\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if figures.json differs from the seeds")
    args = parser.parse_args(argv)
    rendered = render(transcribe_all())
    if args.check:
        if FIGURES_PATH.read_text(encoding="utf-8") == rendered:
            return 0
        sys.stderr.write(f"{FIGURES_PATH} differs from what the seeds give; regenerate it with "
                         "python -m refbench.published.transcribe\n")
        return 1
    FIGURES_PATH.write_text(rendered, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
