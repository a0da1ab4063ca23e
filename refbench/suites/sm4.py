"""SM4 vector suites: GB/T 32907-2016 with the SP 800-38A/C/D modes.

Sources
-------
* ``cryptography_vectors/ciphers/SM4/``: ``draft-ribose-cfrg-sm4-10-{ecb,cbc,ctr}.txt``
  (the draft's Appendix A.1/A.2 examples) and ``rfc8998.txt`` (SM4-GCM). The
  draft's CFB and OFB files are not run: those modes are not among the ones
  the published figures measure (ECB/CBC/CTR/GCM/CCM).
* the project's ``vectors/sm4/``: GB/T 32907-2016 Appendix A Examples 1 and 2
  (Example 2, 1,000,000 iterations, is a slow suite) and RFC 8998's SM4-CCM
  vector, which no package ships.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

from refbench.loaders import Record, cryptography_vector, load_nist_rsp, project_vector
from refbench.ref.modes import (
    cbc_decrypt,
    cbc_encrypt,
    ccm_decrypt,
    ccm_encrypt,
    ctr_crypt,
    ecb_decrypt,
    ecb_encrypt,
    gcm_decrypt,
    gcm_encrypt,
)
from refbench.ref.sm4 import SM4
from refbench.verification import Outcome, Suite, expect_equal, guarded


def _vectors(path: Path) -> Iterator[Record]:
    for record in load_nist_rsp(path):
        if "KEY" in record:
            yield record


def _run(path: Path, check: Callable[[Record], Outcome]) -> Callable[[], Iterator[Outcome]]:
    def run() -> Iterator[Outcome]:
        for record in _vectors(path):
            yield guarded(record.label, lambda r=record: check(r))

    return run


def _both_ways(
    label: str, expected: bytes, encrypted: bytes, plaintext: bytes, decrypted: bytes
) -> Outcome:
    if encrypted != expected:
        return expect_equal(label, expected, encrypted)
    return expect_equal(label + " (decrypt)", plaintext, decrypted)


def _ecb(record: Record) -> Outcome:
    sm4 = SM4(record.hex("KEY"))
    pt, ct = record.hex("PLAINTEXT"), record.hex("CIPHERTEXT")
    return _both_ways(record.label, ct, ecb_encrypt(sm4, pt), pt, ecb_decrypt(sm4, ct))


def _cbc(record: Record) -> Outcome:
    sm4, iv = SM4(record.hex("KEY")), record.hex("IV")
    pt, ct = record.hex("PLAINTEXT"), record.hex("CIPHERTEXT")
    return _both_ways(record.label, ct, cbc_encrypt(sm4, iv, pt), pt, cbc_decrypt(sm4, iv, ct))


def _ctr(record: Record) -> Outcome:
    sm4, iv = SM4(record.hex("KEY")), record.hex("IV")
    pt, ct = record.hex("PLAINTEXT"), record.hex("CIPHERTEXT")
    return _both_ways(record.label, ct, ctr_crypt(sm4, iv, pt), pt, ctr_crypt(sm4, iv, ct))


def _gcm(record: Record) -> Outcome:
    sm4, iv, aad = SM4(record.hex("KEY")), record.hex("IV"), record.hex("AAD")
    pt, ct, tag = record.hex("PLAINTEXT"), record.hex("CIPHERTEXT"), record.hex("TAG")
    encrypted, computed_tag = gcm_encrypt(sm4, iv, pt, aad, tag_length=len(tag))
    return _both_ways(
        record.label, ct + tag, encrypted + computed_tag, pt, gcm_decrypt(sm4, iv, ct, tag, aad, min_tag_length=4)
    )


def _ccm(record: Record) -> Outcome:
    sm4, nonce, aad = SM4(record.hex("KEY")), record.hex("IV"), record.hex("AAD")
    pt, ct, tag = record.hex("PLAINTEXT"), record.hex("CIPHERTEXT"), record.hex("TAG")
    encrypted = ccm_encrypt(sm4, nonce, pt, aad, tag_length=len(tag))
    return _both_ways(
        record.label, ct + tag, encrypted, pt, ccm_decrypt(sm4, nonce, ct + tag, aad, len(tag))
    )


def _standard_example(record: Record) -> Outcome:
    """GB/T 32907-2016 Appendix A: ITERATIONS encryptions, each output the next input.

    Also compares the round keys when the record prints them.
    """
    sm4 = SM4(record.hex("KEY"))
    if "ROUND_KEYS" in record:
        expected_keys = [int(word, 16) for word in record.text("ROUND_KEYS").split()]
        if sm4.round_keys != expected_keys:
            shown = " ".join(f"{k:08x}" for k in sm4.round_keys)
            return Outcome(record.label, False, f"round keys differ: got {shown}")
    block = record.hex("PLAINTEXT")
    for _ in range(record.int("ITERATIONS")):
        block = sm4.encrypt_block(block)
    return expect_equal(record.label, record.hex("CIPHERTEXT"), block)


def _run_examples(path: Path, slow: bool) -> Callable[[], Iterator[Outcome]]:
    def run() -> Iterator[Outcome]:
        for record in _vectors(path):
            if (record.int("ITERATIONS") > 1) == slow:
                yield guarded(record.label, lambda r=record: _standard_example(r))

    return run


def _suites() -> list[Suite]:
    sm4_dir = "ciphers/SM4"
    ecb = cryptography_vector(f"{sm4_dir}/draft-ribose-cfrg-sm4-10-ecb.txt")
    cbc = cryptography_vector(f"{sm4_dir}/draft-ribose-cfrg-sm4-10-cbc.txt")
    ctr = cryptography_vector(f"{sm4_dir}/draft-ribose-cfrg-sm4-10-ctr.txt")
    gcm = cryptography_vector(f"{sm4_dir}/rfc8998.txt")
    ccm = project_vector("sm4/rfc8998-sm4-ccm.txt")
    examples = project_vector("sm4/gbt32907-2016-appendix-a.txt")
    return [
        Suite(
            "SM4",
            "GB/T 32907-2016 Appendix A Example 1 (vectors/sm4)",
            _run_examples(examples, slow=False),
        ),
        Suite(
            "SM4",
            "GB/T 32907-2016 Appendix A Example 2, 1,000,000 iterations (vectors/sm4)",
            _run_examples(examples, slow=True),
            slow=True,
        ),
        Suite("SM4-ECB", f"draft-ribose-cfrg-sm4-10 {ecb.name}", _run(ecb, _ecb)),
        Suite("SM4-CBC", f"draft-ribose-cfrg-sm4-10 {cbc.name}", _run(cbc, _cbc)),
        Suite("SM4-CTR", f"draft-ribose-cfrg-sm4-10 {ctr.name}", _run(ctr, _ctr)),
        Suite("SM4-GCM", f"RFC 8998 {gcm.name}", _run(gcm, _gcm)),
        Suite("SM4-CCM", f"RFC 8998 Appendix A ({ccm.name}, vectors/sm4)", _run(ccm, _ccm)),
    ]


SUITES: list[Suite] = _suites()
