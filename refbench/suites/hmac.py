"""Vector suites for HMAC (FIPS 198-1 / RFC 2104) over the registry's hashes.

Sources: ``cryptography_vectors`` ``HMAC/rfc-2202-md5.txt``, ``rfc-2202-sha1.txt`` (RFC 2202 §2-3) and
``rfc-4231-sha{224,256,384,512}.txt`` (RFC 4231 §4); ``rfc-2286-ripemd160.txt`` is not applicable
(RIPEMD-160 is not in refbench). Neither vector package ships NIST CAVP's ``HMAC.rsp``; four
HMAC-SHA-256 blocks of it (truncated tags, keys shorter than, equal to and longer than the block)
are in ``vectors/hash/`` (see its README).

These files put comment lines inside records (``# "Hi There"`` between ``Key`` and ``Msg``), which
the NIST loader reads as record breaks; :func:`refbench.loaders.merge_split_records` joins the pieces again, a test
starting at each ``Len`` line.
"""

from __future__ import annotations

from collections.abc import Iterator

from cortexm_emu.datafile import DataFileError
from refbench.errors import InvalidTag
from refbench.loaders import (
    MergedTest,
    Record,
    cryptography_vector,
    iter_blocks,
    load_nist_rsp,
    merge_split_records,
    project_vector,
)
from refbench.ref.hmac import hmac, hmac_verify
from refbench.verification import Outcome, Suite, expect_equal, guarded

_FILES: tuple[tuple[str, str, str], ...] = (
    ("md5", "HMAC-MD5", "rfc-2202-md5.txt"),
    ("sha-1", "HMAC-SHA-1", "rfc-2202-sha1.txt"),
    ("sha-224", "HMAC-SHA-224", "rfc-4231-sha224.txt"),
    ("sha-256", "HMAC-SHA-256", "rfc-4231-sha256.txt"),
    ("sha-384", "HMAC-SHA-384", "rfc-4231-sha384.txt"),
    ("sha-512", "HMAC-SHA-512", "rfc-4231-sha512.txt"),
)


def rfc_suite(name: str, algorithm: str, filename: str) -> Suite:
    rfc = "RFC 2202" if "2202" in filename else "RFC 4231"

    def run() -> Iterator[Outcome]:
        path = cryptography_vector(f"HMAC/{filename}")
        for test in merge_split_records(load_nist_rsp(path), "Len"):
            label = f"{test.label} Len={test.values('Len')[0]}"

            def check(test: MergedTest = test, label: str = label) -> Outcome:
                length_bits = int(test.values("Len")[0])
                message = test.hex("Msg")[: length_bits // 8]
                return expect_equal(label, test.hex("MD"), hmac(name, test.hex("Key"), message))

            yield guarded(label, check)

    return Suite(algorithm, f"{rfc} {filename}", run)


def cavp_subset_suite() -> Suite:
    """HMAC-SHA-256 blocks of CAVP ``HMAC.rsp`` (CAVS 21.3), a verbatim subset in ``vectors/hash/``.

    ``Mac`` is the leftmost ``Tlen`` bytes of HMAC(Key, Msg) (FIPS 198-1 §5); each block is checked
    by computing the tag, by :func:`hmac_verify` accepting the truncated ``Mac``, and by
    :func:`hmac_verify` refusing (``InvalidTag``) the same ``Mac`` with its last bit flipped.
    """
    filename = "HMAC_SHA-256_CAVS21.3_subset.rsp"

    def run() -> Iterator[Outcome]:
        path = project_vector(f"hash/{filename}")
        for record in iter_blocks(load_nist_rsp(path), "Klen", "Tlen", "Key", "Msg", "Mac"):
            label = f"{record.label} Klen={record.text('Klen')} Tlen={record.text('Tlen')}"

            def check(record: Record = record, label: str = label) -> Outcome:
                key, message, mac = record.hex("Key"), record.hex("Msg"), record.hex("Mac")
                if len(key) != record.int("Klen") or len(mac) != record.int("Tlen"):
                    raise DataFileError(
                        str(path), record.line, "Klen/Tlen", "disagree with Key/Mac"
                    )
                hmac_verify("sha-256", key, message, mac)
                forged = mac[:-1] + bytes([mac[-1] ^ 1])
                try:
                    hmac_verify("sha-256", key, message, forged)
                except InvalidTag:
                    return expect_equal(label, mac, hmac("sha-256", key, message)[: len(mac)])
                return Outcome(label, False, "a Mac with its last bit flipped was accepted")

            yield guarded(label, check)

    return Suite("HMAC-SHA-256", f"CAVP {filename} (subset, vectors/hash)", run)


SUITES: list[Suite] = [rfc_suite(name, algorithm, filename) for name, algorithm, filename in _FILES]
SUITES.append(cavp_subset_suite())
