"""Vector suites for Ascon as standardised in NIST SP 800-232 (August 2025).

Sources (all in ``vectors/ascon/``, each with its provenance header):

* ``LWC_AEAD_KAT_128_128.txt``: a documented subset (133 of 1089 records) of the Ascon
  team's Ascon-AEAD128 KAT file. Every record is also decrypted, and decrypted again with
  the last tag bit flipped, which must raise InvalidTag.
* ``LWC_CXOF_KAT_128_512.txt``: a documented subset (84 of 1089) of the Ascon-CXOF128 KAT file.
* ``LWC_HASH_XOF_KAT_records_from_ACVP-Server.txt``: the Ascon-Hash256 and Ascon-XOF128 KAT
  records that NIST quotes in its ACVP-Server unit tests.

Neither pyca/cryptography 48 nor pycryptodome 4.4 implements Ascon, so there is no
differential cross-check; tests/test_ascon.py adds properties instead.
"""

from __future__ import annotations

from collections.abc import Iterator

from refbench.errors import InvalidTag
from refbench.loaders import Record, iter_blocks, load_nist_rsp, project_vector
from refbench.ref.ascon import (
    ascon_aead128_decrypt,
    ascon_aead128_encrypt,
    ascon_cxof128,
    ascon_hash256,
    ascon_xof128,
)
from refbench.verification import Outcome, Suite, expect_equal, expect_raises, guarded

AEAD_KAT = "ascon/LWC_AEAD_KAT_128_128.txt"
CXOF_KAT = "ascon/LWC_CXOF_KAT_128_512.txt"
HASH_XOF_KAT = "ascon/LWC_HASH_XOF_KAT_records_from_ACVP-Server.txt"


def _check_aead(record: Record) -> Outcome:
    key, nonce = record.hex("Key"), record.hex("Nonce")
    plaintext, ad, sealed = record.hex("PT"), record.hex("AD"), record.hex("CT")
    encrypted = expect_equal(record.label, sealed, ascon_aead128_encrypt(key, nonce, plaintext, ad))
    if not encrypted.passed:
        return Outcome(record.label, False, f"encryption: {encrypted.detail}")
    decrypted = expect_equal(record.label, plaintext, ascon_aead128_decrypt(key, nonce, sealed, ad))
    if not decrypted.passed:
        return Outcome(record.label, False, f"decryption: {decrypted.detail}")
    forged = sealed[:-1] + bytes([sealed[-1] ^ 1])
    rejected = expect_raises(
        record.label, InvalidTag, lambda: ascon_aead128_decrypt(key, nonce, forged, ad)
    )
    if not rejected.passed:
        return Outcome(record.label, False, f"flipped tag bit: {rejected.detail}")
    return Outcome(record.label, True)


def _run_aead() -> Iterator[Outcome]:
    records = load_nist_rsp(project_vector(AEAD_KAT))
    for record in iter_blocks(records, "Key", "Nonce", "PT", "AD", "CT"):
        yield guarded(record.label, lambda r=record: _check_aead(r))


def _run_cxof() -> Iterator[Outcome]:
    records = load_nist_rsp(project_vector(CXOF_KAT))
    for record in iter_blocks(records, "Msg", "Z", "MD"):
        yield guarded(
            record.label,
            lambda r=record: expect_equal(
                r.label, r.hex("MD"), ascon_cxof128(r.hex("Msg"), len(r.hex("MD")), r.hex("Z"))
            ),
        )


def _run_hash_or_xof(section: str) -> Iterator[Outcome]:
    records = [r for r in load_nist_rsp(project_vector(HASH_XOF_KAT)) if section in r.section]
    for record in iter_blocks(records, "Msg", "MD"):

        def check(r: Record = record) -> Outcome:
            if section == "Ascon-Hash256":
                return expect_equal(r.label, r.hex("MD"), ascon_hash256(r.hex("Msg")))
            return expect_equal(r.label, r.hex("MD"), ascon_xof128(r.hex("Msg"), len(r.hex("MD"))))

        yield guarded(record.label, check)


SUITES: list[Suite] = [
    Suite(
        "Ascon-AEAD128",
        "ascon-c LWC_AEAD_KAT_128_128.txt (SP 800-232; Count 1-91, 1048-1089)",
        _run_aead,
    ),
    Suite(
        "Ascon-Hash256",
        "ascon-c LWC_HASH_KAT_128_256.txt records quoted by NIST ACVP-Server",
        lambda: _run_hash_or_xof("Ascon-Hash256"),
    ),
    Suite(
        "Ascon-XOF128",
        "ascon-c LWC_XOF_KAT_128_512.txt records quoted by NIST ACVP-Server",
        lambda: _run_hash_or_xof("Ascon-XOF128"),
    ),
    Suite("Ascon-CXOF128", "ascon-c LWC_CXOF_KAT_128_512.txt (SP 800-232; Count 1-84)", _run_cxof),
]
