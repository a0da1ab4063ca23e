"""Vector suites for ChaCha20, Poly1305 and ChaCha20-Poly1305 (RFC 8439).

Sources: the RFC 8439 examples in ``vectors/rfc8439/`` (sections 2.1-2.8, Appendix A.1,
A.4, A.5), cryptography_vectors (RFC 7539 Appendix A.2/A.3, BoringSSL and OpenSSL AEAD
files) and Wycheproof (AEAD; the ChaCha20-IETF group of the counter test). Invalid
vectors must be rejected: a bad tag with InvalidTag, a bad nonce size or a counter that
would wrap with ValueError.
"""

from __future__ import annotations

from collections.abc import Iterator

from refbench.errors import InvalidTag
from refbench.loaders import (
    Record,
    cryptography_vector,
    iter_blocks,
    load_nist_rsp,
    load_wycheproof,
    project_vector,
    pycryptodome_vector,
)
from refbench.ref.chacha import (
    ChaCha20,
    chacha20_block,
    chacha20_block_states,
    chacha20_encrypt,
    chacha20_poly1305_decrypt,
    chacha20_poly1305_encrypt,
    clamp,
    poly1305_key_gen,
    poly1305_mac,
    quarter_round,
    quarter_round_on_state,
)
from refbench.verification import Outcome, Suite, expect_equal, expect_raises, guarded

RFC8439 = "rfc8439/rfc8439-examples.txt"


def _words(text: str) -> list[int]:
    """State words written as 8 hex digits each (the RFC's matrices, row by row)."""
    return [int(text[i : i + 8], 16) for i in range(0, len(text), 8)]


def _label(record: Record) -> str:
    return f"{record.label} RFC 8439 {record.text('SOURCE')}"


def _rfc_records(section: str) -> list[Record]:
    return [r for r in load_nist_rsp(project_vector(RFC8439)) if section in r.section]


def _all_equal(label: str, pairs: list[tuple[str, object, object]]) -> Outcome:
    """One outcome for several checks of one vector; the detail names the first mismatch."""
    for name, expected, actual in pairs:
        outcome = expect_equal(label, expected, actual)
        if not outcome.passed:
            return Outcome(label, False, f"{name}: {outcome.detail}")
    return Outcome(label, True)


def _check_rfc_chacha20(record: Record) -> Outcome:
    label = _label(record)
    if "QUARTERROUND" in record.section:
        inputs = [int(record.text(name), 16) for name in "ABCD"]
        expected = tuple(int(record.text(f"{name}_OUT"), 16) for name in "ABCD")
        return expect_equal(label, expected, quarter_round(*inputs))
    if "STATE_QUARTERROUND" in record.section:
        state = _words(record.text("STATE"))
        x, y, z, w = (int(i) for i in record.text("INDICES").split())
        quarter_round_on_state(state, x, y, z, w)
        return expect_equal(label, _words(record.text("STATE_OUT")), state)
    if "ENCRYPT" in record.section:
        key, nonce, counter = record.hex("KEY"), record.hex("NONCE"), record.int("COUNTER")
        plaintext, keystream = record.hex("PLAINTEXT"), record.hex("KEYSTREAM")
        return _all_equal(
            label,
            [
                (
                    "key stream",
                    keystream,
                    chacha20_encrypt(key, counter, nonce, bytes(len(keystream))),
                ),
                (
                    "ciphertext",
                    record.hex("CIPHERTEXT"),
                    chacha20_encrypt(key, counter, nonce, plaintext),
                ),
                (
                    "decryption",
                    plaintext,
                    chacha20_encrypt(key, counter, nonce, record.hex("CIPHERTEXT")),
                ),
            ],
        )
    key, nonce, counter = record.hex("KEY"), record.hex("NONCE"), record.int("COUNTER")
    setup, after_rounds, end = chacha20_block_states(key, counter, nonce)
    checks: list[tuple[str, object, object]] = []
    for field, actual in (
        ("STATE_SETUP", setup),
        ("STATE_AFTER_ROUNDS", after_rounds),
        ("STATE_END", end),
    ):
        if field in record:
            checks.append((field, _words(record.text(field)), actual))
    if "KEYSTREAM" in record:
        checks.append(("KEYSTREAM", record.hex("KEYSTREAM"), chacha20_block(key, counter, nonce)))
    return _all_equal(label, checks)


def _run_rfc_chacha20() -> Iterator[Outcome]:
    for section in ("QUARTERROUND", "STATE_QUARTERROUND", "BLOCK", "ENCRYPT"):
        for record in _rfc_records(section):
            yield guarded(record.label, lambda r=record: _check_rfc_chacha20(r))


def _check_rfc_poly1305(record: Record) -> Outcome:
    label = _label(record)
    if "KEYGEN" in record.section:
        return expect_equal(
            label, record.hex("OTK"), poly1305_key_gen(record.hex("KEY"), record.hex("NONCE"))
        )
    key = record.hex("KEY")
    return _all_equal(
        label,
        [
            (
                "clamped r",
                int(record.text("R_CLAMPED"), 16),
                clamp(int.from_bytes(key[:16], "little")),
            ),
            ("s", int(record.text("S"), 16), int.from_bytes(key[16:], "little")),
            ("tag", record.hex("TAG"), poly1305_mac(record.hex("MSG"), key)),
        ],
    )


def _run_rfc_poly1305() -> Iterator[Outcome]:
    for section in ("POLY1305", "KEYGEN"):
        for record in _rfc_records(section):
            yield guarded(record.label, lambda r=record: _check_rfc_poly1305(r))


def _check_aead(
    label: str, key: bytes, nonce: bytes, aad: bytes, plaintext: bytes, sealed: bytes
) -> Outcome:
    return _all_equal(
        label,
        [
            ("encryption", sealed, chacha20_poly1305_encrypt(key, nonce, plaintext, aad)),
            ("decryption", plaintext, chacha20_poly1305_decrypt(key, nonce, sealed, aad)),
        ],
    )


def _run_rfc_aead() -> Iterator[Outcome]:
    for record in _rfc_records("AEAD"):

        def check(r: Record = record) -> Outcome:
            return _check_aead(
                _label(r),
                r.hex("KEY"),
                r.hex("NONCE"),
                r.hex("AAD"),
                r.hex("PLAINTEXT"),
                r.hex("CIPHERTEXT") + r.hex("TAG"),
            )

        yield guarded(record.label, check)


# --- cryptography_vectors ---------------------------------------------------------------


def _run_cryptography_chacha20() -> Iterator[Outcome]:
    path = cryptography_vector("ciphers/ChaCha20/rfc7539.txt")
    for record in iter_blocks(load_nist_rsp(path), "KEY", "NONCE", "PLAINTEXT", "CIPHERTEXT"):

        def check(r: Record = record) -> Outcome:
            stream = ChaCha20(r.hex("KEY"), r.hex("NONCE"), r.int("INITIAL_BLOCK_COUNTER"))
            return expect_equal(r.label, r.hex("CIPHERTEXT"), stream.update(r.hex("PLAINTEXT")))

        yield guarded(record.label, check)


def _run_cryptography_poly1305() -> Iterator[Outcome]:
    path = cryptography_vector("poly1305/rfc7539.txt")
    for record in iter_blocks(load_nist_rsp(path), "KEY", "MSG", "TAG"):
        yield guarded(
            record.label,
            lambda r=record: expect_equal(
                r.label, r.hex("TAG"), poly1305_mac(r.hex("MSG"), r.hex("KEY"))
            ),
        )


def _boringssl_value(record: Record, name: str) -> bytes:
    """boringssl.txt writes a field either as hex or as a double-quoted ASCII string."""
    text = record.text(name)
    if len(text) >= 2 and text[0] == text[-1] == '"':
        return text[1:-1].encode("ascii")
    return record.hex(name)


def _run_boringssl() -> Iterator[Outcome]:
    path = cryptography_vector("ciphers/ChaCha20Poly1305/boringssl.txt")
    for record in iter_blocks(load_nist_rsp(path), "KEY", "NONCE", "IN", "AD", "CT", "TAG"):

        def check(r: Record = record) -> Outcome:
            key, nonce, aad, plaintext, ciphertext, tag = (
                _boringssl_value(r, name) for name in ("KEY", "NONCE", "AD", "IN", "CT", "TAG")
            )
            return _check_aead(r.label, key, nonce, aad, plaintext, ciphertext + tag)

        yield guarded(record.label, check)


def _run_openssl() -> Iterator[Outcome]:
    path = cryptography_vector("ciphers/ChaCha20Poly1305/openssl.txt")
    for record in iter_blocks(
        load_nist_rsp(path), "Key", "IV", "AAD", "Tag", "Plaintext", "Ciphertext"
    ):

        def check(r: Record = record) -> Outcome:
            key, nonce, aad = r.hex("Key"), r.hex("IV"), r.hex("AAD")
            sealed = r.hex("Ciphertext") + r.hex("Tag")
            if r.fields.get("Result") == "CIPHERFINAL_ERROR":
                return expect_raises(
                    r.label, InvalidTag, lambda: chacha20_poly1305_decrypt(key, nonce, sealed, aad)
                )
            return _check_aead(r.label, key, nonce, aad, r.hex("Plaintext"), sealed)

        yield guarded(record.label, check)


# --- Wycheproof -------------------------------------------------------------------------


def _run_wycheproof_aead() -> Iterator[Outcome]:
    path = pycryptodome_vector("Cipher/wycheproof/chacha20_poly1305_test.json")
    for case in load_wycheproof(path):

        def check(c=case) -> Outcome:
            key, nonce, aad = c.hex("key"), c.hex("iv"), c.hex("aad")
            sealed = c.hex("ct") + c.hex("tag")
            if c.result == "invalid":
                error = ValueError if "InvalidNonceSize" in c.flags else InvalidTag
                return expect_raises(
                    c.label, error, lambda: chacha20_poly1305_decrypt(key, nonce, sealed, aad)
                )
            return _check_aead(c.label, key, nonce, aad, c.hex("msg"), sealed)

        yield guarded(case.label, check)


def _run_wycheproof_counter() -> Iterator[Outcome]:
    path = pycryptodome_vector("Cipher/wycheproof/chacha20_counter_test.json")
    for case in load_wycheproof(path):
        if case.group.get("algorithm") != "ChaCha20-IETF":
            continue  # the XChaCha20 group: not an RFC 8439 algorithm

        def check(c=case) -> Outcome:
            key, nonce, message = c.hex("key"), c.hex("iv"), c.hex("msg")
            counter = int.from_bytes(c.hex("initialCounter"), "little")

            def encrypt() -> bytes:
                return ChaCha20(key, nonce, counter).update(message)

            if c.result == "invalid":
                return expect_raises(c.label, ValueError, encrypt)
            return expect_equal(c.label, c.hex("ct"), encrypt())

        yield guarded(case.label, check)


SUITES: list[Suite] = [
    Suite("ChaCha20", "RFC 8439 §2.1-2.4, A.1 (vectors/rfc8439)", _run_rfc_chacha20),
    Suite(
        "ChaCha20",
        "RFC 7539 A.2 (cryptography_vectors ChaCha20/rfc7539.txt)",
        _run_cryptography_chacha20,
    ),
    Suite(
        "ChaCha20",
        "Wycheproof chacha20_counter_test.json (ChaCha20-IETF group)",
        _run_wycheproof_counter,
    ),
    Suite("Poly1305", "RFC 8439 §2.5.2, §2.6.2, A.4 (vectors/rfc8439)", _run_rfc_poly1305),
    Suite(
        "Poly1305",
        "RFC 7539 A.3 (cryptography_vectors poly1305/rfc7539.txt)",
        _run_cryptography_poly1305,
    ),
    Suite("ChaCha20-Poly1305", "RFC 8439 §2.8.2, A.5 (vectors/rfc8439)", _run_rfc_aead),
    Suite(
        "ChaCha20-Poly1305",
        "BoringSSL (cryptography_vectors ChaCha20Poly1305/boringssl.txt)",
        _run_boringssl,
    ),
    Suite(
        "ChaCha20-Poly1305",
        "OpenSSL (cryptography_vectors ChaCha20Poly1305/openssl.txt)",
        _run_openssl,
    ),
    Suite("ChaCha20-Poly1305", "Wycheproof chacha20_poly1305_test.json", _run_wycheproof_aead),
]
