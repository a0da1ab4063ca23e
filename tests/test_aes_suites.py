"""The AES and SM4 vector suites themselves: every applicable official file is covered, and a
wrong answer or an accepted invalid vector is reported as a failure, not passed over."""

from __future__ import annotations

from pathlib import Path

import cryptography_vectors

from refbench.loaders import WycheproofCase
from refbench.ref.aes import AES
from refbench.ref.modes import gcm_encrypt
from refbench.suites import aes as aes_suites
from refbench.suites import sm4 as sm4_suites

VECTORS = Path(cryptography_vectors.__file__).parent


def _sources(suites) -> str:
    return "\n".join(suite.source for suite in suites)


def test_every_aes_cavp_file_of_ecb_cbc_ctr_gcm_ccm_and_cmac_has_a_suite():
    sources = _sources(aes_suites.SUITES)
    wanted = [
        path.name
        for mode in ("ECB", "CBC", "CTR", "GCM", "CCM")
        for path in sorted((VECTORS / "ciphers" / "AES" / mode).iterdir())
        if path.name != "Readme.txt"
    ] + [f"nist-800-38b-aes{bits}.txt" for bits in (128, 192, 256)]
    missing = [name for name in wanted if name not in sources]
    assert not missing


def test_every_gcm_file_runs_in_full_as_a_slow_suite_and_by_sections_by_default():
    for suite in aes_suites.SUITES:
        if "GCM" in suite.algorithm and suite.source.startswith("CAVP"):
            assert suite.slow == suite.source.endswith("(all)")
    full = [s for s in aes_suites.SUITES if s.source.endswith("(all)")]
    assert len(full) == 6


def test_sm4_suites_cover_the_ecb_cbc_ctr_and_rfc8998_files():
    sources = _sources(sm4_suites.SUITES)
    for name in (
        "draft-ribose-cfrg-sm4-10-ecb.txt",
        "draft-ribose-cfrg-sm4-10-cbc.txt",
        "draft-ribose-cfrg-sm4-10-ctr.txt",
        "rfc8998.txt",
        "rfc8998-sm4-ccm.txt",
        "Example 1",
        "Example 2",
    ):
        assert name in sources


def test_wrong_expected_ciphertext_is_reported_as_a_failure(tmp_path):
    path = tmp_path / "ECBBroken128.rsp"
    path.write_text(
        "[ENCRYPT]\n\nCOUNT = 0\nKEY = 00000000000000000000000000000000\n"
        "PLAINTEXT = f34481ec3cc627bacd5dc3fb08f273e6\n"
        "CIPHERTEXT = 0336763e966d92595a567cc9ce537f5e\n\n"  # ECBGFSbox128.rsp COUNT = 0 ...
        "COUNT = 1\nKEY = 00000000000000000000000000000000\n"
        "PLAINTEXT = f34481ec3cc627bacd5dc3fb08f273e6\n"
        "CIPHERTEXT = 0336763e966d92595a567cc9ce537f5f\n",  # ... with its last bit flipped
        encoding="utf-8",
    )
    outcomes = list(aes_suites._run_block_files([path], "ECB")())
    assert [o.passed for o in outcomes] == [True, False]
    assert "expected 0336763e966d92595a567cc9ce537f5f" in outcomes[1].detail


def test_a_fail_vector_whose_tag_verifies_is_reported_as_a_failure(tmp_path):
    key, iv = bytes(16), bytes(12)
    ciphertext, tag = gcm_encrypt(AES(key), iv, b"", b"aad")
    path = tmp_path / "gcmDecryptBroken128.rsp"
    path.write_text(
        "[Keylen = 128]\n[IVlen = 96]\n[PTlen = 0]\n[AADlen = 24]\n[Taglen = 128]\n\n"
        f"Count = 0\nKey = {key.hex()}\nIV = {iv.hex()}\nCT = {ciphertext.hex()}\n"
        f"AAD = {b'aad'.hex()}\nTag = {tag.hex()}\nFAIL\n",
        encoding="utf-8",
    )
    (outcome,) = list(aes_suites._run_gcm(path, None)())
    assert not outcome.passed
    assert "expected InvalidTag, returned" in outcome.detail


def _wycheproof_ccm_case(result: str) -> WycheproofCase:
    test = {"key": "00" * 16, "iv": "00" * 6, "aad": "", "msg": "", "ct": "", "tag": "00" * 16}
    return WycheproofCase(Path("aes_ccm_test.json"), 1, result, ("InvalidNonceSize",), "", {}, test)


def test_a_size_the_standard_forbids_counts_as_rejected_only_for_an_invalid_case():
    rejected = aes_suites._wycheproof_aead(_wycheproof_ccm_case("invalid"), "CCM")
    assert rejected.passed
    refused = aes_suites._wycheproof_aead(_wycheproof_ccm_case("valid"), "CCM")
    assert not refused.passed
    assert "marks this case valid" in refused.detail
